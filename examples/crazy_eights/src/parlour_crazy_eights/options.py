"""The options of Crazy Eights: OpenSpiel's parameters, with OpenSpiel's defaults.

Options:
    max_draw_cards: the most cards a player may draw in one turn before he must play or pass
        (OpenSpiel ``max_draw_cards``, default 5).
    max_turns: the game ends once this many cards have been played (OpenSpiel ``max_turns``,
        default 100; it counts cards played, not turns).

OpenSpiel's ``players`` is the player count (2 to 5 here: with more OpenSpiel plays with two
decks); its ``use_special_cards`` and ``reshuffle`` are off by default and this game plays them
off (a record giving either is refused as an unknown option).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.core.inputs import quote
from parlour.core.log import JSON
from parlour.core.options import OptionSpec, OptionValue, validate_options
from parlour.errors import InvalidOption, InvalidRecord

__all__ = ["OPTION_SPECS", "Options", "options_from_json", "typed_options"]

NAME = "crazy-eights"

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "max_draw_cards",
        "int",
        5,
        "the most cards a player may draw in one turn",
        minimum=1,
        maximum=52,
    ),
    OptionSpec(
        "max_turns",
        "int",
        100,
        "the game ends once this many cards have been played",
        minimum=1,
        maximum=100_000,
    ),
)


@dataclass(frozen=True, slots=True)
class Options:
    """The typed options of a game (see the module docstring)."""

    max_draw_cards: int = 5
    max_turns: int = 100

    def to_json(self) -> dict[str, JSON]:
        return {"max_draw_cards": self.max_draw_cards, "max_turns": self.max_turns}


def _whole(values: Mapping[str, OptionValue], name: str) -> int:
    value = values[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOption(f"option {name} of {NAME} must be a whole number, got {quote(value)}")
    return value


def typed_options(values: Mapping[str, OptionValue]) -> Options:
    """Options checked by :func:`parlour.core.options.validate_options` as :class:`Options`."""
    return Options(_whole(values, "max_draw_cards"), _whole(values, "max_turns"))


def options_from_json(obj: object, where: str) -> Options:
    """The options :meth:`Options.to_json` wrote, read from the field ``where``.

    Raises:
        InvalidRecord: naming ``where`` and the option at fault.
    """
    if not isinstance(obj, dict):
        raise InvalidRecord(f"{where} must be an object of options, got {quote(obj)}")
    try:
        return typed_options(validate_options(NAME, OPTION_SPECS, obj))
    except InvalidOption as err:
        raise InvalidRecord(f"{where}: {err}") from None
