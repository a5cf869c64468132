"""BEOR actions as integers (issue 11, "Actions as integers"): a fixed codec, exact both ways for
every legal action of every state, and one id for every move some position may allow (B4, B7).

The moves that may ever be legal are worked out here from the rules (:mod:`.rules_oracles`),
not from the engine's tables.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cards import parse_card
from parlour.errors import InvalidNotation
from parlour.games.beor import Move, parse_action

from .rules_oracles import BASES, deck, fits
from .rules_text_helpers import GAME


def ever_legal() -> set[str]:
    """B4: a card goes on a base whose theme it fits; B7: a 4 or 7 may draw from any other
    stock instead. Every such move is legal in some position, and no other move is."""
    moves = set()
    for card in deck(3):  # with the Jokers (B11)
        for base in BASES:
            if fits(card, base):
                moves.add(f"{card}>{base}")
                if card[0] in "47":
                    moves |= {f"{card}>{base}/{other}" for other in BASES if other != base}
    return moves


class TestCodec:
    def test_one_id_for_each_move_some_position_allows(self) -> None:
        """B4 and B7: 2 bases for most cards, 3 for a King, 4 for a Joker, and a 4 or 7 drawing
        from any of the three other stocks as well: 164 moves, ids 0 to 163."""
        n = GAME.info.num_distinct_actions
        moves = [GAME.action_from_id(i) for i in range(n)]
        assert {str(m) for m in moves} == ever_legal()
        assert n == len(ever_legal()) == 164
        assert [GAME.action_id(m) for m in moves] == list(range(n))

    @pytest.mark.parametrize("bad", [-1, 164, 10**6, True, 1.0, "3"])
    def test_ids_out_of_range_are_refused(self, bad: object) -> None:
        with pytest.raises(InvalidNotation, match=r"whole number from 0 to 163"):
            GAME.action_from_id(bad)  # type: ignore[arg-type]

    @pytest.mark.parametrize("text", ["5H>black", "QS>odd", "5H>red/black", "KC>even/odd"])
    def test_a_move_no_position_allows_has_no_id(self, text: str) -> None:
        """B4: 5H is red and odd, QS black and even; B7: only a 4 or 7 draws elsewhere."""
        with pytest.raises(InvalidNotation, match=r"never legal in BEOR \(B4, B7\)"):
            GAME.action_id(parse_action(text))

    def test_a_draw_from_the_base_own_stock_is_one_move(self) -> None:
        """``7H>red/red`` is the same move as ``7H>red`` once parsed; built by hand it names no
        move of the codec."""
        assert GAME.action_id(parse_action("7H>red/red")) == GAME.action_id(parse_action("7H>red"))
        with pytest.raises(InvalidNotation):
            GAME.action_id(Move(parse_card("7H"), 3, 3))

    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4, 5]))
    def test_exact_both_ways_for_every_legal_action(self, seed: int, players: int) -> None:
        """Every state of a random playout: each legal action's id names it back, the ids are
        sorted in the order of the legal actions, the mask marks exactly them, and playing by
        id is playing the action."""
        state = GAME.new(players, seed, {"max_turns": 150})
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            ids = state.legal_action_ids()
            assert ids == tuple(GAME.action_id(a) for a in legal)
            assert list(ids) == sorted(ids)
            assert tuple(GAME.action_from_id(i) for i in ids) == legal
            mask = state.legal_mask()
            assert [i for i, bit in enumerate(mask) if bit] == list(ids)
            i = rng.choice(ids)
            by_id = state.apply_id(i)
            assert by_id.to_json() == state.apply(GAME.action_from_id(i)).to_json()
            state = by_id
        assert state.legal_action_ids() == ()
