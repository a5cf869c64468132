"""BEOR action notation (issue: 'Action notation'), themes (B4) and the goal (B5) as functions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import JOKERS, Card, deck52, deck54, parse_card
from parlour.errors import InvalidNotation
from parlour.games.beor import BASES, Move, fits, is_goal, parse_action
from parlour.games.beor.notation import GROUPS, goal_groups

CARDS = st.sampled_from(deck54())


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


class TestActionNotation:
    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("7H>red", "7H>red"),
            ("7h>R", "7H>red"),
            ("7H>red/black", "7H>red/black"),
            ("7♥>r/B", "7H>red/black"),
            ("10H>Even", "TH>even"),
            ("jk1>o", "JK1>odd"),
            ("4S > black / odd", "4S>black/odd"),
        ],
    )
    def test_input_forms_and_canonical_form(self, text: str, canonical: str) -> None:
        """'input also takes b e o r, any case; the canonical form is lower-case full names and
        canonical cards, e.g. 7H>red/black, JK1>odd'."""
        assert str(parse_action(text)) == canonical

    def test_drawing_from_the_base_itself_is_the_plain_form(self) -> None:
        assert str(parse_action("7H>red/red")) == "7H>red"

    @pytest.mark.parametrize(
        ("text", "needle"),
        [
            ("7H", "write CARD>BASE or CARD>BASE/STOCK"),
            ("7X>red", "'7X' is not a card"),
            ("7H>green", "'green' is not a base"),
            ("7H>red/blue", "'blue' is not a base"),
        ],
    )
    def test_bad_text_names_the_part(self, text: str, needle: str) -> None:
        with pytest.raises(InvalidNotation, match=needle):
            parse_action(text)

    @given(CARDS, st.integers(0, 3), st.one_of(st.none(), st.integers(0, 3)))
    def test_round_trip(self, card: Card, base: int, stock: int | None) -> None:
        """RULINGS 'Common': parse(format(x)) == x for every action."""
        move = Move(card, base, None if stock == base else stock)
        assert parse_action(str(move)) == move
        assert str(parse_action(str(move).upper())) == str(move)


class TestThemes:
    @given(CARDS)
    def test_every_card_but_king_and_joker_fits_exactly_two_bases(self, card: Card) -> None:
        """B4: 'Every card except a King or Joker fits exactly two bases (its colour and its
        parity). A King fits its colour base, Even and Odd. A Joker fits all four.'"""
        fitting = [BASES[b] for b in range(4) if fits(card, b)]
        if card.is_joker:
            assert fitting == list(BASES)
        elif card.rank.letter == "K":
            colour = "red" if card.suit is not None and card.suit.is_red else "black"
            assert sorted(fitting) == sorted([colour, "even", "odd"])
        else:
            assert len(fitting) == 2

    @pytest.mark.parametrize(
        ("card", "bases"),
        [
            ("AS", ["black", "odd"]),
            ("JH", ["odd", "red"]),
            ("QC", ["black", "even"]),
            ("TD", ["even", "red"]),
            ("KH", ["even", "odd", "red"]),
        ],
    )
    def test_values(self, card: str, bases: list[str]) -> None:
        """B4: 'Even/Odd by value: A=1, J=11, Q=12, numbers by pips.'"""
        assert [BASES[b] for b in range(4) if fits(parse_card(card), b)] == bases


class TestGoal:
    def test_there_are_52_sets_and_40_runs(self) -> None:
        """B5: sets of three of a rank (13 ranks x 4) and runs A-2-3 .. T-J-Q in each suit."""
        assert len(GROUPS) == 92

    @pytest.mark.parametrize(
        ("hand", "goal"),
        [
            ("AH 2H 3H 9S 9D 9C", True),
            ("TC JC QC KS KH KD", True),  # K-K-K is a set
            ("5D 6D 7D 8D 9D TD", True),
            ("JC QC KC 2H 3H 4H", False),  # no King in runs
            ("QS KS AS 2H 3H 4H", False),  # no wrap
            ("AH 2H 3H 9S 9D JK1", False),  # no Jokers in sets
            ("AH 2H 3D 9S 9D 9C", False),  # a run is of one suit
            ("AH 2H 4H 9S 9D 9C", False),
        ],
    )
    def test_two_groups_of_three(self, hand: str, goal: bool) -> None:
        """B5: 'Six cards forming two groups of three; a group is a run (three consecutive ranks
        of one suit, A low, ranks A..Q, no wrap, no King, no Joker) or a set (three cards of one
        rank; K-K-K is a set; no Jokers).'"""
        assert is_goal(cards(hand)) is goal
        assert is_goal(list(reversed(cards(hand)))) is goal

    @given(st.lists(st.sampled_from(deck52() + JOKERS), min_size=6, max_size=6, unique=True))
    def test_goal_agrees_with_a_brute_force_reading(self, hand: list[Card]) -> None:
        def group(trio: tuple[Card, ...]) -> bool:
            if any(c.is_joker for c in trio):
                return False
            if len({c.rank for c in trio}) == 1:
                return True
            ranks = sorted(int(c.rank) for c in trio)
            same_suit = len({c.suit for c in trio}) == 1
            return same_suit and ranks[2] <= 12 and ranks == list(range(ranks[0], ranks[0] + 3))

        from itertools import combinations

        expected = any(
            group(trio) and group(tuple(c for c in hand if c not in trio))
            for trio in combinations(hand, 3)
        )
        assert is_goal(hand) is expected
        groups = goal_groups(hand)
        assert (groups is not None) is expected
        if groups is not None:
            assert sorted(groups[0] + groups[1]) == sorted(hand)
