"""Beggar-My-Neighbour: rules (M1-M11), deal notation (M9) and whole-deal play.

One module a seam: :mod:`.options`, :mod:`.notation`, :mod:`.events`, :mod:`.history` (the loop
history of M10), :mod:`.turn` (one action, a method per ruling), :mod:`.rules` (the state),
:mod:`.view`, :mod:`.sample`, :mod:`.reading` (JSON read back), :mod:`.game`, :mod:`.play`; the
compiled kernel's public face is :mod:`.fast`.
"""

from parlour.games.beggar.events import BeggarEvent
from parlour.games.beggar.game import BeggarGame
from parlour.games.beggar.history import Cycle, History, Position
from parlour.games.beggar.notation import (
    Deal,
    RankClass,
    Token,
    deal_sizes,
    format_deal,
    format_deal_ranks,
    format_token,
    parse_deal,
    parse_token,
    random_deal,
)
from parlour.games.beggar.options import BeggarOptions, UnpaidPenalty
from parlour.games.beggar.play import play_deal, play_to_end
from parlour.games.beggar.rules import PLAY, BeggarState, Play
from parlour.games.beggar.view import BeggarView

__all__ = [
    "PLAY",
    "BeggarEvent",
    "BeggarGame",
    "BeggarOptions",
    "BeggarState",
    "BeggarView",
    "Cycle",
    "Deal",
    "History",
    "Play",
    "Position",
    "RankClass",
    "Token",
    "UnpaidPenalty",
    "deal_sizes",
    "format_deal",
    "format_deal_ranks",
    "format_token",
    "parse_deal",
    "parse_token",
    "play_deal",
    "play_to_end",
    "random_deal",
]
