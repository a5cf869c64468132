"""Becker's Game of Death: rules (G1-G14), face values, action notation, deals, matches."""

from parlour.games.death.notation import (
    FACE,
    Give,
    IllegalThrow,
    Pass,
    Penalty,
    Throw,
    parse_action,
    parse_deal,
)
from parlour.games.death.rules import DeathGame, DeathOptions, DeathState
from parlour.games.death.view import DeathView

__all__ = [
    "FACE",
    "DeathGame",
    "DeathOptions",
    "DeathState",
    "DeathView",
    "Give",
    "IllegalThrow",
    "Pass",
    "Penalty",
    "Throw",
    "parse_action",
    "parse_deal",
]
