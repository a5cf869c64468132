"""Beggar-My-Neighbour: rules (M1-M11), deal notation (M9) and whole-deal play."""

from parlour.games.beggar.notation import (
    Deal,
    RankClass,
    Token,
    format_deal,
    format_deal_ranks,
    parse_deal,
    random_deal,
)
from parlour.games.beggar.play import play_deal, play_to_end
from parlour.games.beggar.rules import (
    PLAY,
    BeggarGame,
    BeggarOptions,
    BeggarState,
    BeggarView,
    Cycle,
    Play,
    UnpaidPenalty,
)

__all__ = [
    "PLAY",
    "BeggarGame",
    "BeggarOptions",
    "BeggarState",
    "BeggarView",
    "Cycle",
    "Deal",
    "Play",
    "RankClass",
    "Token",
    "UnpaidPenalty",
    "format_deal",
    "format_deal_ranks",
    "parse_deal",
    "play_deal",
    "play_to_end",
    "random_deal",
]
