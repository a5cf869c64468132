"""Typed game options: a small schema per game, validated with one-line errors naming the option.

Values arrive from records (JSON) and from the command line (``K=V`` text); both go through
:func:`validate_options`, which returns plain values of the declared kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.core.inputs import check_int, parse_int, parse_option_pair, quote
from parlour.errors import InvalidOption

__all__ = ["OptionSpec", "OptionValue", "parse_option_pairs", "validate_options"]

OptionValue = str | int | bool | tuple[int, ...] | None

MAX_PLAYERS_LISTED = 64
"""The most player numbers a ``players`` option may list."""

MAX_OPTION_INT = 2**31 - 1
"""The largest whole-number option value unless an option says less (the kernel counts in
32-bit integers; a larger cap would never be reached)."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, kind (``choice``, ``int``, ``bool`` or ``players``: a list of
    player numbers counted from 1, like ``1,3``), default and help.

    ``nullable`` int options take ``none`` (or JSON null) for "no value", e.g. no card limit.
    """

    name: str
    kind: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    maximum: int = MAX_OPTION_INT
    ruling: str = ""

    def describe(self) -> str:
        """``name`` with its kind and default, as ``parlour games`` and ``--help`` show it."""
        if self.kind == "choice":
            kind = "|".join(self.choices)
        elif self.kind == "int":
            kind = "N" + ("|none" if self.nullable else "")
        elif self.kind == "players":
            kind = "P,P,..."
        else:
            kind = "true|false"
        if self.default is None:
            default = "none"
        elif isinstance(self.default, tuple):
            default = ",".join(map(str, self.default)) or "nobody"
        else:
            default = str(self.default).lower()
        return f"{self.name}={kind} (default {default})"

    def convert(self, game: str, value: object) -> OptionValue:
        """Check ``value`` (JSON value or command-line text) and return it in its kind."""
        where = f"option {self.name} of {game}"
        text = value.strip().lower() if isinstance(value, str) else None
        if self.nullable and (value is None or text in ("none", "null", "")):
            return None
        if self.kind == "choice":
            if text is not None and text in self.choices:
                return text
            raise InvalidOption(
                f"{where} must be one of {', '.join(self.choices)}, got {quote(value)}"
            )
        if self.kind == "players":
            return self._players(where, value)
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if text in ("true", "yes", "on", "1"):
                return True
            if text in ("false", "no", "off", "0"):
                return False
            raise InvalidOption(f"{where} must be true or false, got {quote(value)}")
        if self.kind != "int":
            raise InvalidOption(f"{where} has an unknown kind {quote(self.kind)}")
        extra = " or none" if self.nullable else ""
        try:
            if isinstance(value, str):
                number = parse_int(value, field=where, minimum=self.minimum, error=InvalidOption)
            else:
                number = check_int(value, field=where, minimum=self.minimum, error=InvalidOption)
        except InvalidOption as err:
            said = str(err)
            # "... of at least 1 or none, got '-1'": the words of the range before the value.
            head, sep, tail = said.partition(", got ")
            raise InvalidOption(f"{head}{extra}{sep}{tail}" if sep else f"{said}{extra}") from None
        if number > self.maximum:
            raise InvalidOption(f"{where} must be at most {self.maximum}{extra}, got {number}")
        return number

    def _players(self, where: str, value: object) -> tuple[int, ...]:
        items: list[object]
        if isinstance(value, str):
            items = [v for v in value.replace(",", " ").split() if v]
        elif isinstance(value, list | tuple):
            items = list(value)
        else:
            items = [value]
        if len(items) > MAX_PLAYERS_LISTED:
            raise InvalidOption(f"{where} lists more than {MAX_PLAYERS_LISTED} players")
        numbers: list[int] = []
        for item in items:
            if isinstance(item, int) and not isinstance(item, bool):
                text = str(item) if item.bit_length() < 64 else "x"
            elif isinstance(item, str):
                text = item.strip().lower().removeprefix("p")
            else:
                text = "x"
            try:
                numbers.append(
                    parse_int(
                        text,
                        field=where,
                        minimum=1,
                        maximum=MAX_PLAYERS_LISTED,
                        max_digits=4,
                        error=InvalidOption,
                    )
                )
            except InvalidOption:
                raise InvalidOption(
                    f"{where} lists players by number from 1, like 1,3; got {quote(value)}"
                ) from None
        return tuple(sorted(set(numbers)))


def validate_options(
    game: str, specs: tuple[OptionSpec, ...], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Every option of ``specs`` with its value: the given one, checked, or the default.

    Raises:
        InvalidOption: for an unknown name or a value outside the option's schema.
    """
    by_name = {s.name: s for s in specs}
    if given is not None and not isinstance(given, Mapping):
        raise InvalidOption(f"the options of {game} are a mapping of names to values")
    given = dict(given or {})
    for name in given:
        if not isinstance(name, str):
            raise InvalidOption(f"{game}'s option names are text, got {quote(name)}")
        key = name.replace("-", "_")
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise InvalidOption(f"{game} has no option {quote(name)}; its options are: {known}")
    normal = {k.replace("-", "_"): v for k, v in given.items()}
    return {
        s.name: s.convert(game, normal[s.name]) if s.name in normal else s.default for s in specs
    }


def parse_option_pairs(pairs: list[str] | None) -> dict[str, str]:
    """``["card_limit=500", ...]`` from the command line as a mapping of raw text values."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, value = parse_option_pair(pair, error=InvalidOption)
        if name in out:
            raise InvalidOption(f"option {name} is given twice")
        out[name] = value
    return out
