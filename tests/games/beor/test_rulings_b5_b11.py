"""BEOR rulings B5-B11 of ``rules/RULINGS.md``: goal, flips, draws, losing, restock, end, Jokers.

One test class per ruling: the goal and natural wins (B5), flipping a stock (B6), drawing from
any stock (B7), losing (B8), the restock (B9), ``max_turns`` and the draw (B10), and Jokers
(B11). Each test quotes its ruling; the deals and scenarios come from :mod:`.rules_text_helpers`,
the expected results from the rules (:mod:`.rules_oracles`).
"""

from __future__ import annotations

import random
import re

import pytest

from parlour.errors import GameOver, IllegalAction, InvalidOption

from .rules_oracles import deck, is_goal
from .rules_text_helpers import (
    GAME,
    LOSS2_KEEP,
    LOSS2_MOVES,
    RESTOCK_BASES,
    RESTOCK_KEEP,
    RESTOCK_KEPT,
    RESTOCK_RESHUFFLED,
    all_cards,
    assert_won,
    build_deal,
    cards_named,
    draw_into,
    event_cards,
    hand,
    js,
    kinds,
    legal,
    loss3,
    new,
    play,
    play_until_restock,
    restock_game,
    script,
    stock,
)


class TestB5Goal:
    @pytest.mark.parametrize(
        ("keep", "drawn", "wins"),
        [
            (["AS", "2S", "3S", "9C", "9H"], "9D", True),
            (["TD", "JD", "QD", "5C", "5S"], "5H", True),
            (["KS", "KH", "KD", "4C", "5C"], "6C", True),
            (["QS", "KS", "AS", "9C", "9H"], "9D", False),
            (["JH", "QH", "KH", "9C", "9S"], "9D", False),
            (["5H", "6S", "7H", "9C", "9S"], "9D", False),
            (["5H", "6H", "8H", "9C", "9S"], "9D", False),
            (["9C", "9S", "9H", "5C", "5S"], "6D", False),
        ],
        ids=["A-2-3", "T-J-Q", "K-K-K", "Q-K-A", "J-Q-K", "two suits", "gap", "one group"],
    )
    def test_two_groups_runs_and_sets(self, keep: list[str], drawn: str, wins: bool) -> None:
        """B5: "a group is a run (three consecutive ranks of one suit, A low, ranks A..Q, no wrap,
        no King, no Joker) or a set (three cards of one rank; K-K-K is a set; no Jokers)" and it
        is checked "after each draw"."""
        state = draw_into(2, keep, "2D", "even", drawn)
        assert is_goal([*keep, drawn]) is wins
        if wins:
            assert_won(state, 0)
        else:
            assert not state.is_over and state.to_move == 1

    def test_a_natural_win_on_the_deal(self) -> None:
        """B5: "Check after the deal (option natural_win, default on: the first qualifying seat in
        turn order wins at once)"."""
        goal = ["9C", "9S", "9H", "5C", "5S", "5H"]
        assert_won(new(build_deal(2, [goal])), 0)
        assert_won(new(build_deal(2, [[], goal])), 1)
        assert_won(new(build_deal(4, [[], [], goal])), 2)

    def test_natural_win_off(self) -> None:
        """B5: option natural_win off: a goal hand on the deal does not end the game."""
        goal = ["9C", "9S", "9H", "5C", "5S", "5H"]
        state = new(build_deal(2, [[], goal]), {"natural_win": False})
        assert not state.is_over
        assert state.to_move == 0
        assert js(state)["winner"] is None

    def test_a_natural_win_from_the_seed(self) -> None:
        """B5: the natural win applies to dealt games too: a seed deal ends at once exactly when a
        hand qualifies, and the first qualifying seat wins."""
        for seed in range(60):
            state = GAME.new(2 + seed % 4, seed)
            hands = js(state)["hands"]
            winners = [s for s, h in enumerate(hands) if is_goal(h)]
            assert state.is_over == bool(winners)
            if winners:
                assert_won(state, winners[0])


class TestB6Flip:
    def test_the_order_reverses_and_the_face_changes(self) -> None:
        """B6: "Playing a 3 or 8 turns that base's stock over before the draw: its order reverses
        and it changes face-down <-> face-up. The player then draws the new top card." """
        state = new(build_deal(2, [["8S"]]))
        black = stock(state, "black")
        state = state.apply("8S>black")
        assert js(state)["stocks"]["black"] == {"cards": black[-2::-1], "face_up": True}
        assert black[-1] in hand(state, 0)
        assert "flipped" in kinds(state)

    def test_the_top_of_a_face_up_stock_is_public(self) -> None:
        """B6: "The top card of a face-up stock is public; a card drawn from a face-up stock is
        publicly known to be in that hand until played." """
        state = new(build_deal(2, [["3H"]]))
        red = stock(state, "red")
        state = state.apply("3H>red")
        for seat in (0, 1):
            entry = state.view(seat).to_json()["stocks"]["red"]
            assert (entry["size"], entry["face_up"], entry["top"]) == (8, True, red[-2])
        assert red[-1] in cards_named(str(state.view(1).to_json())) | event_cards(state, 1)

    def test_a_face_down_draw_is_named_only_to_the_drawer(self) -> None:
        """B6 and Common ("Public information"): a card drawn from a face-down stock is seen by
        its drawer alone; the events name it only to him."""
        state = new(build_deal(2, [["2D"]], {"even": ["JS"]}))
        state = state.apply("2D>even")
        assert "JS" in event_cards(state, 0)
        assert "JS" not in event_cards(state, 1)
        assert "JS" not in event_cards(state, None)
        assert "JS" not in cards_named(str(state.view(1).to_json()))

    def test_a_flip_back_hides_the_stock_again(self) -> None:
        """B6: "it changes face-down <-> face-up" -- a second 3 or 8 turns it face down, reversed
        again, and the card then drawn is private."""
        state = new(build_deal(2, [["3H"], ["8D"]]))
        red = stock(state, "red")
        state = play(state, ["3H>red", "8D>red"])
        assert js(state)["stocks"]["red"] == {"cards": red[1:-1], "face_up": False}
        assert red[0] in hand(state, 1)
        view = state.view(0).to_json()
        assert view["stocks"]["red"]["top"] is None
        assert view["stocks"]["red"]["face_up"] is False
        assert not cards_named(str(view)) & {red[0], *red[1:-2]}
        assert red[-2] in cards_named(str(view))  # seen on top, now known to lie at the bottom
        assert red[0] not in event_cards(state, 0)

    def test_option_flip_without_reversing(self) -> None:
        """B6: option flip_reverses_order off: the stock only changes face."""
        state = new(build_deal(2, [["3H"]]), {"flip_reverses_order": False})
        red = stock(state, "red")
        state = state.apply("3H>red")
        assert js(state)["stocks"]["red"] == {"cards": red[1:], "face_up": True}
        assert red[0] in hand(state, 0)
        assert state.view(1).to_json()["stocks"]["red"]["top"] == red[1]


class TestB7AnyStockDraw:
    def test_draw_from_any_non_empty_stock(self) -> None:
        """B7: "The player may draw from any non-empty stock instead of the base's own." """
        moves = ["2H>red:7H", "6H>red:9S", "TH>red:9C", "QH>red:JS", "2D>red:JC"]
        deal, actions = script(5, [], moves)
        state = play(new(deal), actions)
        assert stock(state, "red") == []
        sevens = {a for a in legal(state) if a.startswith("7H")}
        assert sevens == {"7H>odd", "7H>odd/black", "7H>odd/even"}
        with pytest.raises(IllegalAction):
            state.apply("7H>odd/red")

    def test_the_card_still_needs_a_base_with_stock(self) -> None:
        """B7: "The card must still be played on a base whose stock is not empty." """
        moves = ["2H>red:7H", "6H>red:9S", "TH>red:9C", "QH>red:JS", "2D>red:JC"]
        deal, actions = script(5, [], moves)
        state = play(new(deal), actions)
        with pytest.raises(IllegalAction, match=re.escape("red has no stock left (B4)")):
            state.apply("7H>red/black")

    def test_only_a_four_or_seven(self) -> None:
        """B7 (issue 3): "only a 4 or 7 may draw from another stock (B7)"."""
        state = new(build_deal(2, [["5H", "3D", "KC"]]))
        for text in ("5H>red/black", "3D>red/odd", "KC>even/odd"):
            with pytest.raises(
                IllegalAction, match=re.escape("only a 4 or 7 may draw from another stock (B7)")
            ):
                state.apply(text)


class TestB8Losing:
    def test_two_players_the_other_wins(self) -> None:
        """B8: "At the start of his turn a player who has no legal play loses. With 2 players the
        other wins." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions[:-1])
        assert hand(state, 0) == sorted(["2S", "6S", "TS", "QS", "2C", "6C"])
        assert not state.is_over  # Even still has a card for seat 0: not lost yet
        state = state.apply(actions[-1])
        assert js(state)["out"] == [0]
        assert state.outcome is not None
        assert state.outcome.ranks[1] < state.outcome.ranks[0]
        assert_won(state, 1)

    def test_two_players_the_loser_keeps_his_hand(self) -> None:
        """B8: "With 2 players the other wins. With more, his hand goes face down to the scrap
        pile" -- only with more: with 2 the loser's hand stays his, and the scrap pile stays
        empty. The text agrees: "In games with more than 2 players, a losing player surrenders
        their cards to a 'scrap pile'." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions)
        data = js(state)
        kept = sorted(["2S", "6S", "TS", "QS", "2C", "6C"])
        assert data["out"] == [0]
        assert (sorted(data["hands"][0]), data["scrap"]) == (kept, [])
        assert sorted(state.view(0).to_json()["hand"]) == kept
        assert state.view(1).to_json()["hand_sizes"] == [6, 6]
        # Never face up, so still kept from the winner and the spectator.
        assert set(kept) <= state.hidden_from(1) & state.hidden_from(None)

    def test_more_players_scrap_the_hand_and_play_continues(self) -> None:
        """B8: "With more, his hand goes face down to the scrap pile and play continues" """
        deal, actions = loss3("JC")
        state = play(new(deal), actions)
        data = js(state)
        assert (data["out"], data["hands"][1], state.to_move) == ([1], [], 2)
        assert len(data["scrap"]) == 6
        state = state.apply("JC>odd")
        assert state.to_move == 0  # seat 1 is skipped from now on
        state = state.apply(min(legal(state)))
        assert state.to_move == 2

    def test_the_last_player_left_wins(self) -> None:
        """B8: "the last player left wins." """
        deal, actions = loss3()
        state = play(new(deal), actions)
        assert js(state)["out"] == [1, 2]
        assert_won(state, 0)


class TestB9Restock:
    def test_right_after_the_draw_that_empties_the_last_stock(self) -> None:
        """B9: "Restock happens right after the draw that empties the last non-empty stock" """
        state, actions = restock_game()
        state = play(state, actions)
        data = js(state)
        assert "restocked" in kinds(state)
        assert "JK2" in data["hands"][4]
        assert data["bases"] == RESTOCK_KEPT
        assert all(s["cards"] and not s["face_up"] for s in data["stocks"].values())

    def test_the_goal_is_checked_first(self) -> None:
        """B9: "(unless that draw completes the goal: B5 is checked first and ends the game)" """
        keep = [list(k) for k in RESTOCK_KEEP]
        keep[2] = ["AH", "3H", "5H", "9S", "9H"]
        keep[4] = ["3S", "3C", "7S", "7C", "7H"]
        changes = {17: "5D>red:JK2", 19: "KD>red:3D"}
        bases = {**RESTOCK_BASES, "odd": "7D"}
        state, actions = restock_game(changes=changes, keep=keep, bases=bases)
        state = play(state, actions)
        assert "restocked" not in kinds(state)
        assert all(not s["cards"] for s in js(state)["stocks"].values())
        assert_won(state, 4)

    def test_option_keep_a_joker_as_base(self) -> None:
        """B9: "skip Jokers on any base [...] option restock_skip_jokers, default on" -- off, a
        Joker on top stays as the base (Kings on Even/Odd are still skipped)."""
        state, actions = restock_game({"restock_skip_jokers": False})
        state = play(state, actions)
        data = js(state)
        assert data["bases"] == {**RESTOCK_KEPT, "odd": ["JK1"]}
        stocked = sorted(c for s in data["stocks"].values() for c in s["cards"])
        assert stocked == sorted([c for c in RESTOCK_RESHUFFLED if c != "JK1"] + ["9D"])


class TestB10NoNaturalEnd:
    def test_max_turns_ends_in_a_draw(self) -> None:
        """B10: "Option max_turns (default 2000): the game is a draw when reached." """
        deal = build_deal(2, [["2D"], ["6D"]], {"even": ["TD", "QD", "JS"]})
        state = new(deal, {"max_turns": 3})
        state = play(state, ["2D>even", "6D>even"])
        assert not state.is_over
        state = state.apply("TD>even")
        data = js(state)
        assert state.is_over and state.to_move is None
        assert (data["result"], data["winner"]) == ("draw", None)
        assert state.outcome is not None and state.outcome.result == "draw"
        assert "draw" in kinds(state)
        assert state.legal_actions() == ()
        with pytest.raises(GameOver):
            state.apply("QD>red")

    def test_a_win_on_the_last_turn_is_a_win(self) -> None:
        """B10 with B5: the goal is checked after the draw, so a win on the last allowed turn
        stands."""
        state = draw_into(2, ["5H", "6H", "7H", "9C", "9S"], "2D", "even", "9D", {"max_turns": 1})
        assert_won(state, 0)

    def test_the_default_is_2000(self) -> None:
        """B10: "(default 2000)" -- random play never outlasts it."""
        rng = random.Random(5)
        state = GAME.new(2, 5)
        turns = 0
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            turns += 1
        assert turns <= 2000
        assert js(state)["result"] != "draw" or turns == 2000

    @pytest.mark.parametrize(
        "options",
        [
            {"natural_win": "maybe"},
            {"flip_reverses_order": 2},
            {"restock_skip_jokers": "sometimes"},
            {"max_turns": -1},
            {"max_turns": "many"},
            {"max_rounds": 10},
        ],
    )
    def test_bad_options_are_refused(self, options: dict[str, object]) -> None:
        """B5, B6, B9, B10 name the options; other names and values are refused."""
        with pytest.raises(InvalidOption):
            GAME.new(2, 0, options=options)


class TestB11Jokers:
    @pytest.mark.parametrize(("players", "count"), [(2, 52), (3, 54), (4, 52), (5, 54)])
    def test_jokers_by_the_starting_number_of_players(self, players: int, count: int) -> None:
        """B11: "Jokers are added by the starting number of players" """
        assert len(all_cards(js(GAME.new(players, 2, options={"natural_win": False})))) == count

    def test_jokers_stay_after_an_elimination(self) -> None:
        """B11: "[Jokers] stay in the game." -- two players left of three, 54 cards still."""
        deal, actions = loss3("JC")
        state = play(new(deal), actions)
        assert all_cards(js(state)) == sorted(deck(3))
        state = play_until_restock(state)
        assert all_cards(js(state)) == sorted(deck(3))
