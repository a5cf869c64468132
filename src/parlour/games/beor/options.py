"""BEOR's options: their specs (for records, the command line and ``--help``) and the typed
options the rules read.

Options:
    natural_win: a hand dealt as two groups wins at once (B5), default on.
    flip_reverses_order: a flip reverses the stock as well as turning it (B6), default on.
    restock_skip_jokers: a Joker never stays as a base at a restock (B9), default on.
    max_turns: the game is a draw after this many turns (B10), default 2000.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.core.inputs import quote
from parlour.core.log import JSON
from parlour.core.options import OptionSpec, OptionValue, validate_options
from parlour.errors import InvalidOption, InvalidRecord

__all__ = ["MAX_TURNS", "OPTION_SPECS", "BeorOptions", "options_from_json", "typed_options"]

MAX_TURNS = 2000  # B10

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("natural_win", "bool", True, "a hand dealt as two groups wins at once", ruling="B5"),
    OptionSpec(
        "flip_reverses_order",
        "bool",
        True,
        "a 3 or 8 reverses the stock as well as turning it over",
        ruling="B6",
    ),
    OptionSpec(
        "restock_skip_jokers",
        "bool",
        True,
        "a Joker never stays as a base at a restock",
        ruling="B9",
    ),
    OptionSpec(
        "max_turns",
        "int",
        MAX_TURNS,
        "the game is a draw after this many turns",
        minimum=1,
        ruling="B10",
    ),
)


@dataclass(frozen=True, slots=True)
class BeorOptions:
    """The typed options of a game (see the module docstring)."""

    natural_win: bool = True
    flip_reverses_order: bool = True
    restock_skip_jokers: bool = True
    max_turns: int = MAX_TURNS

    def to_json(self) -> dict[str, JSON]:
        return {
            "natural_win": self.natural_win,
            "flip_reverses_order": self.flip_reverses_order,
            "restock_skip_jokers": self.restock_skip_jokers,
            "max_turns": self.max_turns,
        }


def typed_options(values: Mapping[str, OptionValue]) -> BeorOptions:
    """Options checked by :func:`parlour.core.options.validate_options` as :class:`BeorOptions`."""
    max_turns = values["max_turns"]
    if isinstance(max_turns, bool) or not isinstance(max_turns, int):
        raise InvalidOption(
            f"option max_turns of beor must be a whole number, got {quote(max_turns)}"
        )
    return BeorOptions(
        natural_win=bool(values["natural_win"]),
        flip_reverses_order=bool(values["flip_reverses_order"]),
        restock_skip_jokers=bool(values["restock_skip_jokers"]),
        max_turns=max_turns,
    )


def options_from_json(obj: object, where: str) -> BeorOptions:
    """The options that :meth:`BeorOptions.to_json` wrote, read from the field ``where`` of a
    state or view.

    Raises:
        InvalidRecord: naming ``where`` and the option at fault.
    """
    if not isinstance(obj, dict):
        raise InvalidRecord(f"{where} must be an object of options, got {quote(obj)}")
    try:
        return typed_options(validate_options("beor", OPTION_SPECS, obj))
    except InvalidOption as err:
        raise InvalidRecord(f"{where}: {err}") from None
