"""Becker's Game of Death: rules (G1-G14), face values, action notation, table entries, deals,
matches."""

from parlour.games.death.game import DeathGame
from parlour.games.death.notation import (
    FACE,
    Give,
    IllegalShow,
    Pass,
    TablePenalty,
    Throw,
    parse_action,
    parse_deal,
    parse_table_entry,
)
from parlour.games.death.options import DeathOptions
from parlour.games.death.rules import DeathState
from parlour.games.death.view import DeathView

__all__ = [
    "FACE",
    "DeathGame",
    "DeathOptions",
    "DeathState",
    "DeathView",
    "Give",
    "IllegalShow",
    "Pass",
    "TablePenalty",
    "Throw",
    "parse_action",
    "parse_deal",
    "parse_table_entry",
]
