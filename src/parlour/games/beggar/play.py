"""Whole deals played to the end with the rules engine: the library side of
``parlour beggar play`` and ``parlour beggar stats``."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.core.game import JSON
from parlour.games.beggar.game import BeggarGame
from parlour.games.beggar.rules import PLAY, BeggarState

__all__ = ["play_deal", "play_to_end"]

_GAME = BeggarGame()


def play_to_end(state: BeggarState) -> BeggarState:
    """Play ``state`` on until the game is over (M6, M10 or M11) and return the final state.

    It goes through ``_apply``, the fast path without the checks that cannot fail here and
    without the per-seat log: the states between are dropped at once, so the final state's
    ``log()`` holds only its own last action, as a new line's first entry."""
    while not state.is_over:
        state = state._apply(PLAY)
    return state


def play_deal(deal: str, options: Mapping[str, object] | None = None) -> dict[str, JSON]:
    """Play a deal in M9 notation to the end; the JSON result of ``parlour beggar play``:
    ``{"deal", "result", "winners", "cards", "tricks", "cycle"}``.

    Raises:
        InvalidNotation: a bad deal; InvalidOption: a bad option.
    """
    players = deal.count("/") + 1
    start = _GAME.new(max(2, min(players, 4)), 0, options, deal)
    return play_to_end(start).summary()
