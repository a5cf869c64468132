"""Typed game options: a small schema per game, validated with one-line errors naming the option.

Values arrive from records (JSON) and from the command line (``K=V`` text); both go through
:func:`validate_options`, which returns plain values of the declared kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.errors import InvalidOption

__all__ = ["OptionSpec", "OptionValue", "parse_option_pairs", "validate_options"]

OptionValue = str | int | bool | tuple[int, ...] | None


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
            raise InvalidOption(f"{where} must be one of {', '.join(self.choices)}, got {value!r}")
        if self.kind == "players":
            return self._players(where, value)
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if text in ("true", "yes", "on", "1"):
                return True
            if text in ("false", "no", "off", "0"):
                return False
            raise InvalidOption(f"{where} must be true or false, got {value!r}")
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif text is not None and text.lstrip("-").isdigit():
            number = int(text)
        if number is None or (self.minimum is not None and number < self.minimum):
            floor = f" of at least {self.minimum}" if self.minimum is not None else ""
            extra = " or none" if self.nullable else ""
            raise InvalidOption(f"{where} must be a whole number{floor}{extra}, got {value!r}")
        return number

    def _players(self, where: str, value: object) -> tuple[int, ...]:
        items: list[object]
        if isinstance(value, str):
            items = [v for v in value.replace(",", " ").split() if v]
        elif isinstance(value, list | tuple):
            items = list(value)
        else:
            items = [value]
        numbers: list[int] = []
        for item in items:
            text = str(item).strip().lower().removeprefix("p")
            if isinstance(item, bool) or not text.isdigit() or int(text) < 1:
                raise InvalidOption(
                    f"{where} lists players by number from 1, like 1,3; got {value!r}"
                )
            numbers.append(int(text))
        return tuple(sorted(set(numbers)))


def validate_options(
    game: str, specs: tuple[OptionSpec, ...], given: Mapping[str, object] | None
) -> dict[str, OptionValue]:
    """Every option of ``specs`` with its value: the given one, checked, or the default.

    Raises:
        InvalidOption: for an unknown name or a value outside the option's schema.
    """
    by_name = {s.name: s for s in specs}
    given = dict(given or {})
    for name in given:
        key = name.replace("-", "_")
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise InvalidOption(f"{game} has no option {name!r}; its options are: {known}")
    normal = {k.replace("-", "_"): v for k, v in given.items()}
    return {
        s.name: s.convert(game, normal[s.name]) if s.name in normal else s.default for s in specs
    }


def parse_option_pairs(pairs: list[str] | None) -> dict[str, str]:
    """``["card_limit=500", ...]`` from the command line as a mapping of raw text values."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidOption(f"options are written NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out
