"""BEOR rule text, first half: the description, setup, start and rules of play.

Tested sentence by sentence against ``seeds/beor-multiplayer.txt``; the rulings of
``rules/RULINGS.md`` ("Common" and B1-B11) win where they differ from the text. One test class
per section (description, setup, start, rules of play), each test quoting its sentence; the
deals and scenarios come from :mod:`.rules_text_helpers`, the expected results from the rules
(:mod:`.rules_oracles`).
"""

from __future__ import annotations

import re

import pytest

from parlour.errors import IllegalAction, InvalidNotation, InvalidOption

from .rules_oracles import BASES, STOCK_SIZE, deck, expected_actions, fits_at_setup, is_goal
from .rules_text_helpers import (
    GAME,
    LOSS2_KEEP,
    LOSS2_MOVES,
    all_cards,
    assert_won,
    build_deal,
    cards_named,
    draw_into,
    hand,
    js,
    kinds,
    legal,
    loss3,
    new,
    play,
    script,
    stock,
)

# -- the rule text ----------------------------------------------------------------------------


class TestDescription:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_a_hand_of_six_cards(self, players: int) -> None:
        """ "In multi-player BEOR, your goal is to build your hand of 6 cards into runs and/or
        sets." """
        for seed in range(3):
            state = GAME.new(players, seed, options={"natural_win": False})
            assert [len(h) for h in js(state)["hands"]] == [6] * players

    def test_play_on_a_themed_base_then_draw_from_its_stock(self) -> None:
        """ "To get a new card into your hand, play a card from it onto one of four themed base
        piles, then draw a card from the base's associated stock pile." """
        state = new(build_deal(2, [["2D"]], {"even": ["JS", "5C"]}, {"even": "6C"}))
        before = js(state)
        after = state.apply("2D>even")
        data = js(after)
        assert data["bases"]["even"] == ["2D", "6C"]
        expected = [c for c in before["hands"][0] if c != "2D"] + ["JS"]
        assert sorted(data["hands"][0]) == sorted(expected)
        assert data["stocks"]["even"]["cards"] == before["stocks"]["even"]["cards"][1:]
        assert data["stocks"]["even"]["cards"][0] == "5C"
        for base in ("black", "odd", "red"):
            assert data["stocks"][base] == before["stocks"][base]
            assert data["bases"][base] == before["bases"][base]
        assert data["hands"][1] == before["hands"][1]
        assert {"played", "drew"} <= set(kinds(after))
        assert any("Player 1" in e.text for e in after.events)  # Common: seats count from 1

    def test_unable_to_play_you_lose(self) -> None:
        """ "If you are unable to play a card, you lose." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions)
        assert js(state)["out"] == [0]
        assert "lost" in kinds(state)
        assert_won(state, 1)

    def test_build_a_valid_hand_and_win(self) -> None:
        """ "If you build a valid hand, you win." """
        state = draw_into(2, ["5H", "6H", "7H", "9C", "9S"], "2D", "even", "9D")
        assert sorted(hand(state, 0)) == sorted(["5H", "6H", "7H", "9C", "9S", "9D"])
        assert_won(state, 0)


class TestSetup:
    @pytest.mark.parametrize("players", [2, 4])
    def test_a_standard_french_suited_deck(self, players: int) -> None:
        """ "This game uses a standard French-suited card deck." """
        for seed in range(4):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert all_cards(data) == sorted(deck(players))
            assert len(all_cards(data)) == 52

    @pytest.mark.parametrize("players", [3, 5])
    def test_odd_numbers_of_players_add_two_jokers(self, players: int) -> None:
        """ "For games with an odd number of players, add 2 Joker cards, so that the stocks will
        be of identical size." """
        for seed in range(4):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert all_cards(data) == sorted(deck(players))
            assert {"JK1", "JK2"} <= set(all_cards(data))
            sizes = {len(s["cards"]) for s in data["stocks"].values()}
            assert sizes == {STOCK_SIZE[players]}

    def test_deals_with_the_wrong_jokers_are_refused(self) -> None:
        """ "For games with an odd number of players, add 2 Joker cards" -- and only then (B11)."""
        two = build_deal(2)
        two["stocks"]["red"][-1] = "JK1"
        with pytest.raises(InvalidNotation):
            new(two)
        three = build_deal(3)
        jokers = [b for b in BASES if "JK1" in three["stocks"][b]]
        three["stocks"][jokers[0]][three["stocks"][jokers[0]].index("JK1")] = "KS"
        with pytest.raises(InvalidNotation):
            new(three)


class TestStart:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_four_bases_black_even_odd_red_in_that_order(self, players: int) -> None:
        """ "Draw cards from the top of the deck (ignoring Jokers) until you get 4 cards where one
        is black, one is even, one is odd, and one is red. Lay out these four cards side-by-side,
        in that order, as "bases"." """
        for seed in range(6):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert list(data["bases"]) == list(BASES)
            for base, pile in data["bases"].items():
                assert len(pile) == 1
                assert fits_at_setup(pile[0], base), (base, pile)

    def test_excess_drawn_cards_go_back_into_the_deck(self) -> None:
        """ "Shuffle any excess drawn cards back into the deck." -- no card is lost: the bases,
        hands and stocks hold the whole deck."""
        for seed in range(10):
            data = js(GAME.new(3, seed, options={"natural_win": False}))
            assert all_cards(data) == sorted(deck(3))
            assert data["scrap"] == []

    def test_six_cards_to_each_player(self) -> None:
        """ "Next, deal 6 cards to each player." """
        data = js(GAME.new(5, 7, options={"natural_win": False}))
        assert [len(h) for h in data["hands"]] == [6] * 5
        bad = build_deal(2)
        bad["stocks"]["red"].append(bad["hands"][0].pop())
        with pytest.raises(InvalidNotation):
            new(bad)

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_remaining_cards_face_down_into_four_stocks(self, players: int) -> None:
        """ "Finally, deal the remaining cards face-down into 4 stock piles, such that each base
        has a corresponding stock adjacent to it." """
        state = GAME.new(players, 3, options={"natural_win": False})
        data = js(state)
        assert list(data["stocks"]) == list(BASES)
        hands = data["hands"]
        for seat in range(players):
            view = state.view(seat).to_json()
            assert sorted(view["hand"]) == sorted(hands[seat])
            assert list(view["hand_sizes"]) == [6] * players
            for base in BASES:
                assert data["stocks"][base]["face_up"] is False
                entry = view["stocks"][base]
                assert entry["size"] == STOCK_SIZE[players]
                assert entry["face_up"] is False
                assert entry["top"] is None
            hidden = {c for s in data["stocks"].values() for c in s["cards"]}
            hidden |= {c for other, h in enumerate(hands) if other != seat for c in h}
            assert not cards_named(str(view)) & hidden

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_stock_sizes(self, players: int) -> None:
        """ "For a 2- or 3-player game, each stock has 9 cards. For a 4- or 5-player game, each
        stock has 7 cards." -- B1 overrides: all remaining cards, 9/8/6/5."""
        data = js(GAME.new(players, 1, options={"natural_win": False}))
        sizes = [len(data["stocks"][b]["cards"]) for b in BASES]
        assert sizes == [STOCK_SIZE[players]] * 4

    @pytest.mark.parametrize("players", [1, 6])
    def test_two_to_five_players(self, players: int) -> None:
        """ "For a 2- or 3-player game [...] For a 4- or 5-player game" -- nothing else."""
        with pytest.raises(InvalidOption):
            GAME.new(players, 0)


class TestRulesOfPlay:
    def test_clockwise_from_the_left_of_the_dealer(self) -> None:
        """ "Players take turns in clockwise order, starting from the left of the dealer." """
        state = new(build_deal(3, [["2D"], ["6D"], ["TD"]]))
        movers = []
        for action in ("2D>even", "6D>even", "TD>even"):
            movers.append(state.to_move)
            state = state.apply(action)
        assert movers == [0, 1, 2]
        assert state.to_move == 0

    def test_play_according_to_the_base_theme(self) -> None:
        """ "First, play a card from your hand onto one of the bases, according to that base's
        theme (black, even, odd, or red)." """
        state = new(build_deal(2, [["7H", "2S", "QD", "JC", "AH", "6C"]]))
        assert legal(state) == expected_actions(js(state))
        assert {"2S>black", "2S>even", "QD>even", "QD>red", "JC>black", "JC>odd"} <= legal(state)
        with pytest.raises(IllegalAction, match=re.escape("7H cannot go on even: 7 is odd (B4)")):
            state.apply("7H>even")
        with pytest.raises(IllegalAction, match=r"cannot go on red.*\(B4\)"):
            state.apply("2S>red")
        with pytest.raises(IllegalAction):
            state.apply("5D>red")  # not in the hand

    def test_then_draw_from_that_base_stock(self) -> None:
        """ "Then, draw a card from that base's associated stock." """
        state = new(build_deal(2, [["JC"]], {"odd": ["QD"], "black": ["9H"]}))
        after = state.apply("JC>odd")
        assert "QD" in hand(after, 0) and "9H" not in hand(after, 0)
        assert stock(after, "black")[0] == "9H"

    def test_no_draw_before_playing(self) -> None:
        """ "(To be clear: You may not draw until you play a card, [...])" """
        state = new(build_deal(2))
        assert all(">" in a for a in legal(state))
        for text in ("draw", "red", "draw red"):
            with pytest.raises((IllegalAction, InvalidNotation)):
                state.apply(text)

    def test_no_play_on_a_base_without_stock(self) -> None:
        """ "(To be clear: [...] you may not play on a base that has no stock.)" """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions[:10])
        assert stock(state, "black") == []
        assert state.to_move == 0
        evens = {f"{c}>even" for c in ("2S", "6S", "TS", "QS", "2C", "2H")}
        assert legal(state) == {*evens, "2H>red"}
        with pytest.raises(IllegalAction, match=re.escape("black has no stock left (B4)")):
            state.apply("2S>black")

    @pytest.mark.parametrize(
        ("keep", "play_card", "drawn"),
        [
            (["9C", "9S", "9H", "5C", "5S"], "2D", "5H"),
            (["AS", "2S", "3S", "TD", "JD"], "6H", "QD"),
            (["5H", "6H", "7H", "9C", "9S"], "2D", "9D"),
        ],
        ids=["two sets", "two runs", "run and set"],
    )
    def test_two_groups_of_three_win(self, keep: list[str], play_card: str, drawn: str) -> None:
        """ "Your goal is to build a hand of two groups of three cards, where each of the two
        groups may be either a run of one suit ("straight flush") or a set of identical rank
        ("three of a kind")." """
        state = draw_into(2, keep, play_card, "even", drawn)
        assert is_goal([*keep, drawn])
        assert_won(state, 0)

    def test_no_legal_play_loses_immediately(self) -> None:
        """ "In the unlikely event that a player cannot play a card -- for example, they hold only
        red cards that are even, but the red and even bases have no stock -- that player
        immediately loses." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions[:-1])
        assert not state.is_over and state.to_move == 1
        assert stock(state, "even") == ["5D"]
        state = state.apply(actions[-1])
        assert js(state)["out"] == [0]
        assert_won(state, 1)

    def test_a_losing_player_surrenders_cards_to_the_scrap_pile(self) -> None:
        """ "In games with more than 2 players, a losing player surrenders their cards to a
        "scrap pile"." """
        deal, actions = loss3("JC")
        state = play(new(deal), actions)
        data = js(state)
        assert data["out"] == [1]
        assert data["hands"][1] == []
        assert sorted(data["scrap"]) == sorted(["2S", "4S", "6S", "8S", "TS", "QS"])
        assert all_cards(data) == sorted(deck(3))
        assert not state.is_over
        assert state.to_move == 2
        assert legal(state) == {"JC>odd"}
        assert "lost" in kinds(state)
        view = state.view(2).to_json()
        assert list(view["out"]) == [1]
        assert list(view["hand_sizes"]) == [6, 0, 6]
        assert not cards_named(str(view)) & {"2S", "4S", "6S", "8S", "TS", "QS"}
