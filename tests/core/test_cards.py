"""Card notation of RULINGS "Common": canonical form, accepted variants, round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import (
    JOKERS,
    Card,
    Rank,
    Suit,
    deck52,
    deck54,
    format_cards,
    parse_card,
    parse_cards,
    shuffled,
)
from parlour.errors import InvalidNotation

ALL = deck54()


class TestNotation:
    def test_rank_then_suit(self) -> None:
        """'Rank A 2 3 4 5 6 7 8 9 T J Q K + suit S H D C: AS, TH, 7C.'"""
        assert parse_card("AS") == Card(Rank.ACE, Suit.SPADES)
        assert parse_card("TH") == Card(Rank.TEN, Suit.HEARTS)
        assert parse_card("7C") == Card(Rank.SEVEN, Suit.CLUBS)
        assert str(Card(Rank.TEN, Suit.HEARTS)) == "TH"

    @pytest.mark.parametrize(
        ("text", "canonical"),
        [("10H", "TH"), ("th", "TH"), ("10♥", "TH"), ("q♠", "QS"), ("2♦", "2D"), ("k♣", "KC")],
    )
    def test_accepted_variants(self, text: str, canonical: str) -> None:
        """'Parsing also accepts 10H, lower case and the suit symbols ♠♥♦♣.'"""
        assert str(parse_card(text)) == canonical

    def test_jokers(self) -> None:
        """'Jokers are JK1 and JK2.'"""
        assert [str(j) for j in JOKERS] == ["JK1", "JK2"]
        assert parse_card("jk2") == JOKERS[1]
        assert JOKERS[0].is_joker and not parse_card("AS").is_joker

    def test_pretty_uses_symbols_but_str_is_ascii(self) -> None:
        """'Pretty output may use symbols (10♥), but str() of a card is the canonical ASCII.'"""
        card = parse_card("TH")
        assert card.pretty() == "10♥"
        assert str(card) == "TH"
        assert str(card).isascii()

    @pytest.mark.parametrize("bad", ["", "1H", "ZZ", "AX", "11H", "JK3", "A", "KSS"])
    def test_bad_cards_are_refused_naming_the_input(self, bad: str) -> None:
        with pytest.raises(InvalidNotation, match="is not a card"):
            parse_card(bad)

    def test_a_long_text_is_quoted_short(self) -> None:
        """A refusal is one short line: ten thousand typed digits are cut, not repeated."""
        with pytest.raises(InvalidNotation) as caught:
            parse_card("9" * 10_000)
        assert str(caught.value).startswith("'999999999999999999999...' is not a card")
        assert len(str(caught.value)) < 120

    @given(st.sampled_from(ALL))
    def test_round_trip(self, card: Card) -> None:
        """'parse(format(x)) == x for every card.'"""
        assert parse_card(str(card)) == card
        assert parse_card(card.pretty()) == card
        assert eval(repr(card)) == card  # repr is code that rebuilds the value

    @given(st.lists(st.sampled_from(ALL), max_size=20))
    def test_card_lists_round_trip(self, cards: list[Card]) -> None:
        assert parse_cards(format_cards(cards)) == tuple(cards)
        assert parse_cards(format_cards(cards, pretty=True)) == tuple(cards)


class TestDecks:
    def test_52_and_54(self) -> None:
        assert len(set(deck52())) == 52 and len(set(deck54())) == 54
        assert set(deck54()) - set(deck52()) == set(JOKERS)

    def test_suit_colours(self) -> None:
        assert {s for s in Suit if s.is_red} == {Suit.HEARTS, Suit.DIAMONDS}
        assert {s for s in Suit if s.is_black} == {Suit.SPADES, Suit.CLUBS}

    def test_court_cards(self) -> None:
        assert {r for r in Rank if r.is_court} == {Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE}

    @given(st.integers(min_value=0, max_value=2**32))
    def test_shuffle_uses_only_the_given_generator(self, seed: int) -> None:
        """'Randomness comes only from a seed': the same seed, the same order."""
        one = shuffled(deck52(), random.Random(seed))
        two = shuffled(deck52(), random.Random(seed))
        assert one == two and sorted(one) == sorted(deck52())


def test_cards_sort_by_rank_then_suit() -> None:
    """Cards sort by rank (A low, Jokers first), then suit S H D C."""
    cards = parse_cards("KC 2S JK2 AH KS AS JK1 2C")
    assert format_cards(sorted(cards)) == "JK1 JK2 AS AH 2S 2C KS KC"
