"""BEOR multi-player: rules (B1-B11), themes, goal and action notation, deals."""

from parlour.games.beor.deal import BeorDeal, deal_from_seed, deck_for, parse_deal
from parlour.games.beor.notation import BASES, Move, fits, is_goal, parse_action
from parlour.games.beor.rules import BeorGame, BeorOptions, BeorState
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
