"""BEOR multi-player: rules (B1-B11), themes, goal and action notation, deals.

The package's modules, imports pointing one way: ``options``, ``notation``, ``events`` and
``deal``; ``turn`` (one turn's rule work); ``view`` and ``rules`` (the state machine);
``sample`` (determinization); ``reading`` (states and views from JSON); ``game``.
"""

from parlour.games.beor.deal import BeorDeal, deal_from_seed, deck_for, parse_deal
from parlour.games.beor.game import BeorGame
from parlour.games.beor.notation import BASES, Move, fits, is_goal, parse_action
from parlour.games.beor.options import BeorOptions
from parlour.games.beor.rules import BeorState
from parlour.games.beor.view import BeorView, StockView

__all__ = [
    "BASES",
    "BeorDeal",
    "BeorGame",
    "BeorOptions",
    "BeorState",
    "BeorView",
    "Move",
    "StockView",
    "deal_from_seed",
    "deck_for",
    "fits",
    "is_goal",
    "parse_action",
    "parse_deal",
]
