"""Beggar-My-Neighbour's options: their specs (for records, the command line and ``--help``)
and the typed options the rules read.

Options:
    unpaid_penalty: ``capture`` (default) or ``next_player``: who settles a payment whose payer
        runs out (M4).
    card_limit: stop after N cards and let the player holding most cards win (M11); none by
        default, so only M6 or M10 end the game.
    time_limit: the agreed time in minutes (M12), a whole number from 1 to 240, for tables
        with a clock (the terminal, online rooms): when it runs out the table enters ``time``
        and the player holding most cards wins. None by default; simulations have no clock
        and use ``card_limit``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from parlour.core.log import JSON
from parlour.core.options import OptionSpec, OptionValue, validate_options
from parlour.errors import InvalidOption
from parlour.games.beggar.sentences import said

__all__ = [
    "MAX_TIME_LIMIT",
    "OPTION_SPECS",
    "BeggarOptions",
    "UnpaidPenalty",
    "typed_options",
    "without_clock",
]

MAX_TIME_LIMIT = 240
"""The longest agreed time (M12), in minutes: four hours."""


class UnpaidPenalty(Enum):
    """Ruling M4: what happens when the payer runs out in the middle of a payment."""

    CAPTURE = "capture"
    NEXT_PLAYER = "next_player"


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "unpaid_penalty",
        "choice",
        UnpaidPenalty.CAPTURE.value,
        "when a payer runs out mid-payment: the court-card player captures (capture) or "
        "the next player still in pays the rest (next_player)",
        choices=tuple(p.value for p in UnpaidPenalty),
        ruling="M4",
    ),
    OptionSpec(
        "card_limit",
        "int",
        None,
        "stop after N cards; the player holding most cards wins, ties share",
        minimum=1,
        nullable=True,
        ruling="M11",
    ),
    OptionSpec(
        "time_limit",
        "int",
        None,
        "an agreed time in minutes (1 to 240), for a table with a clock; when it runs out "
        "the player holding most cards wins, ties share",
        minimum=1,
        maximum=MAX_TIME_LIMIT,
        nullable=True,
        ruling="M12",
    ),
)


@dataclass(frozen=True, slots=True)
class BeggarOptions:
    """The typed options of a game (see the module docstring)."""

    unpaid_penalty: UnpaidPenalty = UnpaidPenalty.CAPTURE
    card_limit: int | None = None
    time_limit: int | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "unpaid_penalty": self.unpaid_penalty.value,
            "card_limit": self.card_limit,
            "time_limit": self.time_limit,
        }


def typed_options(given: Mapping[str, object] | None) -> BeggarOptions:
    """``given`` (names to JSON or command-line values) validated as :class:`BeggarOptions`.

    Raises:
        InvalidOption: an unknown option or a value outside its schema, naming the option.
    """
    values: dict[str, OptionValue] = validate_options("beggar", OPTION_SPECS, given)
    limit, minutes = values["card_limit"], values["time_limit"]
    return BeggarOptions(
        UnpaidPenalty(values["unpaid_penalty"]),
        limit if isinstance(limit, int) else None,
        minutes if isinstance(minutes, int) else None,
    )


def without_clock(options: BeggarOptions) -> BeggarOptions:
    """``options`` for a simulation (the kernel, ``parlour beggar play / stats / search``):
    a simulation has no clock, so an agreed time (M12) is refused; ``card_limit`` (M11)
    stops long games there.

    Raises:
        InvalidOption: ``time_limit`` is set (M12).
    """
    if options.time_limit is not None:
        raise InvalidOption(said("refusal.no_clock"))
    return options
