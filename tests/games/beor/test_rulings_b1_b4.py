"""BEOR rulings B1-B4 of ``rules/RULINGS.md``: stock sizes, choosing bases, the deal, themes.

One test class per ruling: all remaining cards go into the stocks (B1), bases chosen by theme
without Kings or Jokers (B2), the deal played as given and refused when malformed (B3), and
which cards fit which base (B4). Each test quotes its ruling; the deals come from
:mod:`.rules_text_helpers`, the expected results from the rules (:mod:`.rules_oracles`).
"""

from __future__ import annotations

import re

import pytest

from parlour.errors import IllegalAction, InvalidNotation

from .rules_oracles import BASES, STOCK_SIZE, deck, expected_actions, fits_at_setup, is_joker
from .rules_text_helpers import (
    GAME,
    build_deal,
    hand,
    js,
    legal,
    loss3,
    new,
    play,
    play_until_restock,
    script,
    stock,
)

# -- the rulings ------------------------------------------------------------------------------


class TestB1StockSize:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_all_remaining_cards_go_into_the_stocks(self, players: int) -> None:
        """B1: "Deal all remaining cards round-robin into the four stocks (9/8/6/5 each)." """
        for seed in range(3):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert [len(data["stocks"][b]["cards"]) for b in BASES] == [STOCK_SIZE[players]] * 4

    def test_uneven_stocks_are_refused(self) -> None:
        """B1: the stocks of a deal hold all remaining cards, round-robin: equal at the start."""
        deal = build_deal(2)
        deal["stocks"]["black"].append(deal["stocks"]["red"].pop())
        with pytest.raises(InvalidNotation):
            new(deal)
        deal = build_deal(4)
        deal["stocks"]["even"].append(deal["stocks"]["odd"].pop())
        with pytest.raises(InvalidNotation):
            new(deal)

    def test_after_an_elimination_black_gets_the_extra_cards_first(self) -> None:
        """B1 with B9: "sizes may differ by one after eliminations" -- 38 cards: 10/10/9/9."""
        deal, actions = loss3("JC")
        state = play_until_restock(play(new(deal), actions))
        assert [len(stock(state, b)) for b in BASES] == [10, 10, 9, 9]


class TestB2ChoosingBases:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_bases_from_the_seed_fit_their_theme_without_kings_or_jokers(
        self, players: int
    ) -> None:
        """B2: "Turn cards from the top one at a time, setting Jokers aside. [...] At setup a King
        counts only for its colour, never as Even or Odd." """
        for seed in range(20):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            for base in BASES:
                assert fits_at_setup(data["bases"][base][0], base), (seed, data["bases"])

    @pytest.mark.parametrize(
        ("base", "card"),
        [("even", "KS"), ("odd", "KD"), ("black", "2H"), ("red", "2S"), ("even", "5C")],
    )
    def test_a_deal_with_a_base_off_its_theme_is_refused(self, base: str, card: str) -> None:
        """B2: the four base cards are "matched one-to-one to Black, Even, Odd, Red"; "At setup a
        King counts only for its colour"."""
        deal = build_deal(2, bases={base: card})
        with pytest.raises(InvalidNotation, match=card):
            new(deal)

    def test_a_joker_is_never_a_base(self) -> None:
        """B2: "Turn cards from the top one at a time, setting Jokers aside." """
        deal = build_deal(3)
        where = next(b for b in BASES if "JK1" in deal["stocks"][b])
        pile = deal["stocks"][where]
        pile[pile.index("JK1")] = deal["bases"]["odd"]
        deal["bases"]["odd"] = "JK1"
        with pytest.raises(InvalidNotation, match="JK1"):
            new(deal)


class TestB3Deal:
    def test_the_deal_is_played_as_given(self) -> None:
        """B3: "6 cards to each player [...] then the stocks [...] Seat 0 plays first." """
        deal = build_deal(4)
        data = js(new(deal))
        assert data["to_move"] == 0
        assert [sorted(h) for h in data["hands"]] == [sorted(h) for h in deal["hands"]]
        assert data["bases"] == {b: [deal["bases"][b]] for b in BASES}
        assert data["stocks"] == {b: {"cards": deal["stocks"][b], "face_up": False} for b in BASES}
        assert data["out"] == [] and data["scrap"] == []
        assert (data["winner"], data["result"]) == (None, None)

    @pytest.mark.parametrize(
        "mangle",
        ["duplicate", "missing", "hand of 7", "three hands"],
    )
    def test_a_deal_must_use_each_card_once(self, mangle: str) -> None:
        """B3 and the issue: each card of the deck exactly once, 6 cards to each player."""
        deal = build_deal(2)
        if mangle == "duplicate":
            deal["stocks"]["red"][0] = deal["hands"][0][0]
        elif mangle == "missing":
            deal["stocks"]["red"].pop()
        elif mangle == "hand of 7":
            deal["hands"][0].append(deal["hands"][1].pop())
        else:
            deal["hands"].append(deal["hands"][1][:])
        with pytest.raises(InvalidNotation):
            GAME.new(2, 0, deal=deal)

    @pytest.mark.parametrize("seed", range(4))
    def test_the_seed_deals_the_same_game(self, seed: int) -> None:
        """B3 and Common: "Randomness comes only from a seed"."""
        assert js(GAME.new(4, seed)) == js(GAME.new(4, seed))
        assert js(GAME.new(4, seed)) != js(GAME.new(4, seed + 100))


class TestB4Themes:
    def test_every_card_fits_exactly_its_bases(self) -> None:
        """B4: "Black: ♠♣. Red: ♥♦. Even/Odd by value [...] Every card except a King or Joker fits
        exactly two bases (its colour and its parity). A King fits its colour base, Even and
        Odd. A Joker fits all four." -- every card of a three-player deck, six at a time."""
        cards = [c for c in deck(3) if c[0] not in "47"]
        for start in range(0, len(cards), 6):
            chunk = cards[start : start + 6]
            chunk += [c for c in ("2S", "6D", "TC", "QH") if c not in chunk][: 6 - len(chunk)]
            state = new(build_deal(3, [chunk]), {"natural_win": False})
            assert legal(state) == expected_actions(js(state))
            for card in chunk:
                bases = {a.split(">")[1] for a in legal(state) if a.startswith(card + ">")}
                count = 4 if is_joker(card) else 3 if card[0] == "K" else 2
                assert len(bases) == count, (card, bases)

    def test_legality_ignores_the_top_card(self) -> None:
        """B4: "Legality depends on the base's theme only, never on its top card." """
        state = new(build_deal(2, [["KS"], ["6D", "5D"]], bases={"red": "9D"}))
        state = state.apply("KS>even")
        assert js(state)["bases"]["even"][0] == "KS"
        assert "6D>even" in legal(state)
        assert "5D>even" not in legal(state)
        assert "6D>red" in legal(state)  # Red shows 9D, an odd card
        with pytest.raises(IllegalAction, match=re.escape("5D cannot go on even: 5 is odd (B4)")):
            state.apply("5D>even")
        after = state.apply("6D>even")
        assert js(after)["bases"]["even"][:2] == ["6D", "KS"]

    def test_a_base_without_stock_accepts_no_card(self) -> None:
        """B4: "A base whose stock is empty accepts no card." -- not a Joker either."""
        moves = ["2H>red:JK1", "6H>red:9S", "TH>red:9C", "QH>red:JS", "2D>red:JC"]
        deal, actions = script(5, [], moves)
        state = play(new(deal), actions)
        assert stock(state, "red") == []
        assert state.to_move == 0
        assert "JK1" in hand(state, 0)
        assert {a for a in legal(state) if a.startswith("JK1")} == {
            "JK1>black", "JK1>even", "JK1>odd",
        }  # fmt: skip
        with pytest.raises(IllegalAction, match=re.escape("red has no stock left (B4)")):
            state.apply("JK1>red")

    def test_notation_takes_short_names_and_any_case(self) -> None:
        """Issue 3: "input also takes b e o r, any case; the canonical form is lower-case full
        names and canonical cards"."""
        deal = build_deal(2, [["7H"]])
        canonical = js(new(deal).apply("7H>red/black"))
        for text in ("7h>R/B", "7H>r/b", "7h>RED/black", " 7H>red/b "):
            assert js(new(deal).apply(text)) == canonical
        assert all(a == a.strip() and ">" in a for a in legal(new(deal)))
        assert "7H>red/black" in legal(new(deal))
