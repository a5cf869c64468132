"""BEOR rule text, second half: restocking, the special cards and ending the game.

Tested sentence by sentence against ``seeds/beor-multiplayer.txt``; the rulings of
``rules/RULINGS.md`` ("Common" and B1-B11) win where they differ from the text. One test class
per section (restocking, cards: values, Kings, Jokers, 3/8 flips and 4/7 draws, ending the
game), each test quoting its sentence; the deals and scenarios come from
:mod:`.rules_text_helpers`, the expected results from the rules (:mod:`.rules_oracles`).
"""

from __future__ import annotations

import pytest

from parlour.errors import GameOver, IllegalAction

from .rules_oracles import BASES, deck, expected_actions, fits
from .rules_text_helpers import (
    RESTOCK_BASES,
    RESTOCK_KEPT,
    RESTOCK_RESHUFFLED,
    all_cards,
    assert_won,
    build_deal,
    draw_into,
    hand,
    js,
    kinds,
    legal,
    loss3,
    new,
    play,
    play_until_restock,
    restock_game,
    stock,
)


class TestRestocking:
    def test_not_while_a_stock_remains(self) -> None:
        """ "When the last stock is exhausted:" -- not before: three empty stocks are not enough."""
        state, actions = restock_game()
        state = play(state, actions[:15])
        data = js(state)
        assert [len(data["stocks"][b]["cards"]) for b in BASES] == [0, 0, 0, 5]
        state = play(state, actions[15:19])
        assert [len(stock(state, b)) for b in BASES] == [0, 0, 0, 1]
        assert "restocked" not in kinds(state)
        assert js(state)["bases"]["red"][0] == "JD"

    def test_top_cards_stay_as_bases_but_a_king_on_even_or_odd_gives_way(self) -> None:
        """ "Save the top cards of each base pile to form the new bases. (If the top card of the
        Even pile or Odd pile is a King, save the card below it instead.)" -- B9: Jokers are
        skipped too; a King stays on its colour base (KD on Red)."""
        state, actions = restock_game()
        state = play(state, actions)
        assert "restocked" in kinds(state)
        assert js(state)["bases"] == RESTOCK_KEPT

    def test_other_base_cards_are_shuffled_into_the_stocks(self) -> None:
        """ "Shuffle the piles' other cards together, along with any "scrap pile" cards." """
        state, actions = restock_game()
        state = play(state, actions)
        data = js(state)
        assert sorted(c for s in data["stocks"].values() for c in s["cards"]) == sorted(
            RESTOCK_RESHUFFLED
        )
        assert data["scrap"] == []
        assert all_cards(data) == sorted(deck(5))

    def test_the_scrap_pile_goes_into_the_new_stocks(self) -> None:
        """ "Shuffle the piles' other cards together, along with any "scrap pile" cards." --
        after seat 1 lost in a three-player game, play on to the restock."""
        deal, actions = loss3("JC")
        start = play(new(deal), actions)
        scrap = sorted(js(start)["scrap"])
        state = play_until_restock(start)
        data = js(state)
        stocked = sorted(c for s in data["stocks"].values() for c in s["cards"])
        assert data["scrap"] == []
        assert set(scrap) <= set(stocked)
        assert all_cards(data) == sorted(deck(3))

    def test_four_stocks_are_dealt_again(self) -> None:
        """ "Repeat the process of dealing four stocks for the bases." -- all the cards,
        round-robin from Black (B1, B3)."""
        state, actions = restock_game()
        state = play(state, actions)
        assert [len(stock(state, b)) for b in BASES] == [5, 5, 5, 5]
        assert not state.is_over
        assert state.to_move == 0
        assert legal(state) == expected_actions(js(state))

    def test_new_stocks_start_face_down(self) -> None:
        """ "All the new stocks start face-down." -- even when the last draw was from a stock an
        8 had just turned face up."""
        changes = {14: "JK1>odd:8D", 16: "AD>red:KD", 19: "8D>red:JK2"}
        bases = {**RESTOCK_BASES, "even": "4D"}
        state, actions = restock_game(changes=changes, bases=bases)
        state = play(state, actions)
        assert {"flipped", "restocked"} <= set(kinds(state))
        assert "JK2" in hand(state, 4)
        data = js(state)
        assert data["bases"]["red"] == ["8D"]
        for base in BASES:
            assert data["stocks"][base]["face_up"] is False
            assert state.view(0).to_json()["stocks"][base]["top"] is None


class TestCards:
    def test_aces_jacks_queens_values(self) -> None:
        """ "Aces are 1 (odd), Jacks are 11 (odd), Queens are 12 (even)." """
        state = new(build_deal(2, [["AH", "JS", "QD", "AC", "JD", "QS"]]))
        assert legal(state) == {
            "AH>odd", "AH>red", "JS>odd", "JS>black", "QD>even", "QD>red",
            "AC>odd", "AC>black", "JD>odd", "JD>red", "QS>even", "QS>black",
        }  # fmt: skip

    def test_kings_go_on_their_colour_even_or_odd(self) -> None:
        """ "Kings may be played on their color base, or on the even or odd bases." """
        state = new(build_deal(2, [["KH", "KC", "AS", "9C", "JH", "5D"]]))
        assert {a for a in legal(state) if a.startswith("K")} == {
            "KH>red", "KH>even", "KH>odd", "KC>black", "KC>even", "KC>odd",
        }  # fmt: skip
        with pytest.raises(IllegalAction, match=r"\(B4\)"):
            state.apply("KH>black")

    @pytest.mark.parametrize(
        ("keep", "drawn"),
        [(["JS", "QS", "9C", "9H", "9D"], "KS"), (["QS", "KS", "9C", "9H", "9D"], "AS")],
        ids=["J-Q-K", "Q-K-A"],
    )
    def test_kings_are_not_used_in_runs(self, keep: list[str], drawn: str) -> None:
        """ "They are not used in runs." (B5: ranks A..Q, no wrap, no King.)"""
        state = draw_into(2, keep, "2D", "even", drawn)
        assert drawn in hand(state, 0)
        assert not state.is_over
        assert state.to_move == 1

    @pytest.mark.parametrize("base", BASES)
    def test_jokers_go_on_any_base(self, base: str) -> None:
        """ "Jokers may be played on any of the four bases." """
        state = new(build_deal(3, [["JK1"]]))
        assert {a for a in legal(state) if a.startswith("JK")} == {f"JK1>{b}" for b in BASES}
        after = state.apply(f"JK1>{base}")
        assert js(after)["bases"][base][0] == "JK1"

    @pytest.mark.parametrize(
        ("keep", "drawn"),
        [(["9C", "9S", "JK1", "5C", "5S"], "5H"), (["5H", "6H", "JK2", "9C", "9S"], "9D")],
        ids=["set", "run"],
    )
    def test_jokers_are_not_used_in_runs_or_sets(self, keep: list[str], drawn: str) -> None:
        """ "They are not used in runs or sets." """
        state = draw_into(3, keep, "2D", "even", drawn)
        assert drawn in hand(state, 0)
        assert not state.is_over
        assert state.to_move == 1

    def test_a_three_or_eight_turns_the_stock_over_before_the_draw(self) -> None:
        """ "When you play a 3 or 8 onto a base, turn over its corresponding stock pile (face-down
        to face-up or vice versa) before you draw." (B6: its order reverses.)"""
        state = new(build_deal(2, [["3H"], ["8D"]]))
        before = js(state)
        red = stock(state, "red")
        state = state.apply("3H>red")
        data = js(state)
        assert data["stocks"]["red"] == {"cards": red[-2::-1], "face_up": True}
        assert red[-1] in data["hands"][0]
        for base in ("black", "even", "odd"):
            assert data["stocks"][base] == before["stocks"][base]
        assert "flipped" in kinds(state)
        state = state.apply("8D>red")
        data = js(state)
        assert data["stocks"]["red"] == {"cards": red[1:-1], "face_up": False}
        assert red[0] in data["hands"][1]

    @pytest.mark.parametrize("card", ["7H", "4C"])
    def test_a_four_or_seven_may_draw_from_any_stock(self, card: str) -> None:
        """ "When you play a 4 or 7 onto a base, you may instead draw from any of the four stock
        piles." """
        state = new(build_deal(2, [[card]], {"black": ["QH"], "red": ["QC"], "even": ["5D"]}))
        own = [b for b in BASES if fits(card, b)]
        assert {a for a in legal(state) if a.startswith(card)} == {f"{card}>{b}" for b in own} | {
            f"{card}>{b}/{o}" for b in own for o in BASES if o != b
        }
        base, other = own[-1], "black"  # Red for 7H, Even for 4C
        before = js(state)
        after = state.apply(f"{card}>{base}/{other}")
        data = js(after)
        assert data["bases"][base][0] == card
        assert before["stocks"][other]["cards"][0] in data["hands"][0]
        assert data["stocks"][other]["cards"] == before["stocks"][other]["cards"][1:]
        assert data["stocks"][base] == before["stocks"][base]


class TestEndingTheGame:
    def test_the_first_player_to_accomplish_the_goal_wins(self) -> None:
        """ "The first player to accomplish the goal wins." """
        state = draw_into(3, ["AS", "2S", "3S", "TD", "JD"], "6H", "even", "QD")
        assert_won(state, 0)
        assert js(state)["out"] == []
        with pytest.raises(GameOver):
            state.apply("QD>red")

    def test_the_first_in_turn_order_wins_on_the_deal(self) -> None:
        """ "The first player to accomplish the goal wins." -- two goal hands on the deal: the
        first in turn order (B5)."""
        goals = [["9C", "9S", "9H", "5C", "5S", "5H"], ["AS", "2S", "3S", "TD", "JD", "QD"]]
        state = new(build_deal(3, [[], *goals]))
        assert_won(state, 1)

    def test_the_last_remaining_player_wins(self) -> None:
        """ "Or, when all but one player have lost, the last remaining player wins." """
        deal, actions = loss3()
        state = play(new(deal), actions[:-1])
        assert not state.is_over
        state = state.apply(actions[-1])
        data = js(state)
        assert data["out"] == [1, 2]
        assert data["hands"][1] == [] and data["hands"][2] == []
        assert sorted(data["scrap"]) == sorted(
            ["2S", "4S", "6S", "8S", "TS", "QS", "2C", "4C", "6C", "8C", "TC", "QC"]
        )
        assert kinds(state).count("lost") == 2
        assert_won(state, 0)
