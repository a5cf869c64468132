"""Beggar-My-Neighbour's figures (``games/beggar/figures.py``): games of the rules engine with the
lead worked out trick by trick, the worked examples of the rulings, the known never-ending deal
(M10), the card limit (M11), and the same figures from the compiled kernel."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.core.game import State
from parlour.games import find_game
from parlour.games.beggar.fast import encode_deals, play_deals
from parlour.games.beggar.figures import beggar_figures
from parlour.lab.metrics import aggregate, game_figures, leaders

GAME = find_game("beggar")

# Seat 0 leads the four Aces, then the four Kings; seat 1 holds number cards only. Tricks 1-4:
# an Ace and 4 cards paid, 5 cards captured each (after card 5 seat 0 holds 30, seat 1 22);
# tricks 5-7: a King and 3 paid; trick 8: a King, seat 1 pays his last card and is out (M6):
# 4 x 5 + 3 x 4 + 2 = 34 cards, 8 tricks (M8).
SHORT = "AAAAKKKKQQQQJJJJ----------/--------------------------"
# Trick 1: seat 0's J, seat 1 pays one card, seat 0 takes 2 (27 to 25). Trick 2: seat 0 turns a
# number, seat 1 an Ace, seat 0 pays 4, seat 1 takes 6 (22 to 30). Seat 1 leads card 9.
TURN = "J-------------------------/-AJJJQQQQKKKKAAA----------"
WORKED = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"  # 192 cards, 20 tricks
WORKED_681 = "---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----"  # seat 0: 681, 92
WORKED_3 = "-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----"  # seat 2: 782, 97
LOOP_DEAL = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"  # M10's known loop


def played(deal: str, options: Any = None) -> State:
    state = GAME.new(len(deal.split("/")), 0, options, deal=deal)
    while not state.is_over:
        state = state.apply("play")
    return state


class TestRulesEngine:
    def test_a_short_game(self) -> None:
        figures = game_figures(played(SHORT))
        assert figures == {
            "game": "beggar",
            "players": 2,
            "result": "win",
            "winners": [0],
            "win_shares": [1.0, 0.0],
            "first": 0,  # seat 0 leads (M7)
            "position_win_shares": [1.0, 0.0],
            "length": 34,
            "cards": 34,
            "tricks": 8,
            "ended": True,
            "loop": False,
            "card_limit": False,
            "lead_changes": 0,
            "decided_at": 5 / 34,  # seat 0 leads from the first capture, card 5, on
        }

    def test_the_lead_is_read_at_trick_boundaries(self) -> None:
        """26 to 26 at the deal and through trick 1, whose cards are on the pile (a tie), then
        seat 0 for good."""
        assert leaders(played(SHORT)) == [None] * 5 + [0] * 30

    def test_a_lead_change_and_the_card_limit(self) -> None:
        """M11 stops the game after card 9, seat 1 holding most cards (29 to 22) wins."""
        state = played(TURN, {"card_limit": 9})
        assert leaders(state) == [None, None] + [0] * 6 + [1, 1]
        figures = game_figures(state)
        assert figures["lead_changes"] == 1
        assert figures["decided_at"] == 8 / 9
        assert (figures["winners"], figures["length"], figures["tricks"]) == ([1], 9, 2)
        assert (figures["ended"], figures["card_limit"], figures["loop"]) == (False, True, False)

    @pytest.mark.parametrize(
        ("deal", "options", "expected"),
        [
            (WORKED, None, ([0], 192, 20)),
            (WORKED_681, None, ([0], 681, 92)),
            (WORKED_3, None, ([2], 782, 97)),
            (WORKED_3, {"unpaid_penalty": "next_player"}, ([2], 586, 79)),
        ],
    )
    def test_the_worked_examples(
        self, deal: str, options: Any, expected: tuple[list[int], int, int]
    ) -> None:
        """RULINGS' table of worked examples (M8)."""
        figures = game_figures(played(deal, options))
        assert (figures["winners"], figures["length"], figures["tricks"]) == expected
        assert figures["cards"] == figures["length"] and figures["ended"]

    def test_three_players_start_with_seat_0_ahead(self) -> None:
        """M7: with 3 players seat 0 holds 18 cards, the others 17: he leads at the deal."""
        assert leaders(played(WORKED_3))[0] == 0

    def test_a_loop_has_no_winner_and_did_not_end(self) -> None:
        """M10: the known never-ending deal is stopped when its position repeats, after 474
        cards (66 tricks)."""
        figures = game_figures(played(LOOP_DEAL))
        assert (figures["loop"], figures["ended"], figures["winners"]) == (True, False, [])
        assert (figures["length"], figures["tricks"], figures["decided_at"]) == (474, 66, None)


class TestKernel:
    def test_rows_match_the_rules_engine(self) -> None:
        deals = [SHORT, TURN, WORKED, LOOP_DEAL]
        rows = beggar_figures(play_deals(encode_deals(deals)), 2)
        for deal, row in zip(deals, rows, strict=True):
            engine = game_figures(played(deal))
            assert row == {**engine, "lead_changes": None, "decided_at": None}

    def test_three_players(self) -> None:
        results = play_deals(encode_deals([WORKED_3]), {"unpaid_penalty": "next_player"})
        (row,) = beggar_figures(results, 3)
        assert (row["winners"], row["win_shares"], row["length"]) == ([2], [0.0, 0.0, 1.0], 586)
        with pytest.raises(ValueError, match="not seats of 2"):
            beggar_figures(results, 2)

    def test_aggregate_of_kernel_rows(self) -> None:
        """Seat 0 wins three of four deals; one never ends (M10) and is cut off at 474 cards;
        the kernel keeps no history, so there are no lead figures."""
        rows = beggar_figures(play_deals(encode_deals([SHORT, WORKED, WORKED_681, LOOP_DEAL])), 2)
        found = aggregate("beggar", 2, rows)
        assert [seat["value"] for seat in found["seat_win_rate"]] == [0.75, 0.0]
        assert found["loop_rate"]["value"] == 0.25
        assert found["length"]["value"] == pytest.approx((34 + 192 + 681 + 474) / 4)
        assert found["tricks"]["value"] == pytest.approx((8 + 20 + 92 + 66) / 4)
        assert found["length"]["unit"] == "cards"
        assert "survival" in found["length"]
        assert "lead_changes" not in found and "decided_at" not in found
