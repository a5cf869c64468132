"""BEOR's figures (``games/beor/figures.py``) on deals played by hand: a stuck loss (B8), a
natural win (B5), and a turn-cap draw on the turn of a restock (B9, B10)."""

from __future__ import annotations

from typing import Any

from parlour.core.game import State
from parlour.games import find_game
from parlour.lab.metrics import game_figures, leaders

GAME = find_game("beor")

# Seat 1 holds only black odd cards in the end (AS 5S 7S 9S JC and the 9C he draws last), which
# fit the black and odd bases alone (B4). Both players play on black and odd, seat 0 drawing
# the black stock and seat 1 the odd one, until both are empty after turn 18; seat 0 then plays
# QH on red, and seat 1 has no legal play: he loses and seat 0 wins (B8, two players).
STUCK_DEAL: dict[str, Any] = {
    "bases": {"black": "3S", "even": "4H", "odd": "9D", "red": "KH"},
    "hands": [["2S", "4S", "6S", "2C", "4C", "QH"], ["AS", "5S", "7S", "9S", "JS", "JC"]],
    "stocks": {
        "black": ["TS", "QS", "6C", "TC", "AC", "5C", "7C", "QC", "KS"],
        "even": ["8S", "3C", "8C", "KC", "2H", "3H", "6H", "8H", "TH"],
        "odd": ["AH", "5H", "7H", "9H", "JH", "AD", "5D", "7D", "9C"],
        "red": ["2D", "3D", "4D", "6D", "8D", "TD", "JD", "QD", "KD"],
    },
}
STUCK_ACTIONS = [
    "2S>black", "JS>odd", "4S>black", "AH>odd", "6S>black", "5H>odd", "2C>black", "7H>odd",
    "4C>black", "9H>odd", "TS>black", "JH>odd", "QS>black", "AD>odd", "6C>black", "5D>odd",
    "TC>black", "7D>odd", "QH>red",
]  # fmt: skip

# Five players: 20 cards in the stocks (B1: 5 each), one drawn a turn, so the 20th turn empties
# the last stock and restocks (B9); with max_turns 20 that turn also ends the game in a draw
# (B10).
FIVE_DEAL: dict[str, Any] = {
    "bases": {"black": "KS", "even": "2C", "odd": "5C", "red": "4D"},
    "hands": [
        ["9D", "3D", "8D", "AS", "7H", "TH"], ["2H", "3C", "6C", "JD", "5D", "JH"],
        ["AH", "KH", "TS", "AD", "QC", "8H"], ["5S", "2D", "JS", "6S", "9S", "QS"],
        ["8S", "7D", "QH", "6D", "AC", "KD"],
    ],
    "stocks": {
        "black": ["9H", "JC", "KC", "8C", "2S"], "even": ["4S", "7S", "7C", "9C", "4H"],
        "odd": ["5H", "TC", "6H", "JK1", "3H"], "red": ["TD", "QD", "4C", "JK2", "3S"],
    },
}  # fmt: skip
FIVE_ACTIONS = [
    "AS>black", "2H>even", "AH>odd", "2D>even", "AC>black", "3D>odd", "3C>black", "AD>odd",
    "5S>black", "6D>even", "3H>odd", "2S>black", "JK1>even", "6S>even", "7D>odd", "7H>red",
    "5D>red", "5H>red", "4H>red", "6H>red",
]  # fmt: skip


def played(players: int, deal: Any, actions: list[str], options: Any = None) -> State:
    state = GAME.new(players, 0, options, deal=deal)
    for action in actions:
        state = state.apply(action)
    return state


class TestStuckLoss:
    def test_figures(self) -> None:
        figures = game_figures(played(2, STUCK_DEAL, STUCK_ACTIONS))
        assert {k: figures[k] for k in figures if k != "lead_changes"} == {
            "game": "beor",
            "players": 2,
            "result": "win",
            "winners": [0],
            "win_shares": [1.0, 0.0],
            "first": 0,  # seat 0 plays first (B3)
            "position_win_shares": [1.0, 0.0],
            "length": 19,
            "ended": True,
            "stuck_losses": 1,
            "stuck": True,
            "restocks": 0,  # even and red still hold 9 and 8 cards
            "natural_win": False,
            "turn_cap_draw": False,
            "decided_at": 1.0,  # tied at turn 18 (below); the loss made him leader at 19
        }

    def test_the_leader_is_the_hand_closest_to_two_groups(self) -> None:
        """At the deal both hands hold two live pairs (seat 0: 2S 2C and 4S 4C, whose third
        cards 2H, 2D and 4D are still to be had, 4H being the even base; seat 1: JS JC with JH
        live, 7S 9S with 8S live): a tie. After 2S>black seat 0 keeps one pair only, so seat 1
        leads. At the end seat 0 has won."""
        found = leaders(played(2, STUCK_DEAL, STUCK_ACTIONS))
        assert len(found) == 20
        assert found[:2] == [None, 1]
        assert found[-1] == 0
        assert found[-2] != 0


# Seat 1 is dealt two sets, 5S 5H 5D and 7S 7H 7D (B5); his other cards go to the odd stock.
NATURAL_DEAL: dict[str, Any] = {
    "bases": STUCK_DEAL["bases"],
    "hands": [STUCK_DEAL["hands"][0], ["5S", "5H", "5D", "7S", "7H", "7D"]],
    "stocks": {
        **STUCK_DEAL["stocks"],
        "odd": ["AH", "AS", "9S", "9H", "JH", "AD", "JS", "JC", "9C"],
    },
}


class TestNaturalWin:
    def test_won_at_the_deal(self) -> None:
        figures = game_figures(played(2, NATURAL_DEAL, []))
        assert figures["natural_win"] is True
        assert (figures["winners"], figures["length"], figures["ended"]) == ([1], 0, True)
        assert (figures["decided_at"], figures["lead_changes"]) == (0.0, 0)


class TestTurnCapDraw:
    def test_a_restock_and_a_draw_at_the_turn_limit(self) -> None:
        figures = game_figures(played(5, FIVE_DEAL, FIVE_ACTIONS, {"max_turns": 20}))
        assert {k: figures[k] for k in figures if k != "lead_changes"} == {
            "game": "beor",
            "players": 5,
            "result": "draw",
            "winners": [],
            "win_shares": [0.0] * 5,
            "first": 0,
            "position_win_shares": [0.0] * 5,
            "length": 20,
            "ended": False,
            "stuck_losses": 0,
            "stuck": False,
            "restocks": 1,
            "natural_win": False,
            "turn_cap_draw": True,
            "decided_at": None,
        }

    def test_one_more_turn_goes_on_after_the_restock(self) -> None:
        state = played(5, FIVE_DEAL, FIVE_ACTIONS, {"max_turns": 21})
        assert not state.is_over
        state = state.apply(state.legal_actions()[0])
        figures = game_figures(state)
        assert (figures["restocks"], figures["length"], figures["turn_cap_draw"]) == (1, 21, True)
