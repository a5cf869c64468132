"""Beggar-My-Neighbour properties (hypothesis) over the rule text and rulings.

Invariants rather than sentences: cards are conserved and each play puts one card on the pile
(M3, M8), and the rank-only and full-card deal notations of M9 round-trip
(``format_deal(parse_deal(s)) == s``, as STYLE asks).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.cards import Card, deck52
from parlour.games.beggar import format_deal, format_deal_ranks, parse_deal

from .rules_text_helpers import GAME, all_cards, kinds, play

# -- properties -------------------------------------------------------------------------------


class TestProperties:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        seed=st.integers(0, 2**32),
        players=st.sampled_from([2, 3, 4]),
        penalty=st.sampled_from(["capture", "next_player"]),
    )
    def test_cards_are_conserved(self, seed: int, players: int, penalty: str) -> None:
        """Hands and pile hold exactly the 52 dealt cards at every step; each play puts one
        card on the pile, by a seat that holds a card (M3, M8)."""
        state = GAME.new(players, seed, options={"unpaid_penalty": penalty, "card_limit": 1500})
        deck = all_cards(state)
        assert len(deck) == 52
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            assert len(state.hands[mover]) > 0
            assert mover not in state.out
            before = state
            state = play(state)
            assert state.cards == before.cards + 1
            assert all_cards(state) == deck
            assert state.pile[-1:] == (before.hands[mover][0],) or (
                "captured" in kinds(state) or state.is_over
            )
            assert (state.to_move is None) == state.is_over

    @settings(max_examples=60, deadline=None)
    @given(
        deck=st.permutations(list("AAAAKKKKQQQQJJJJ" + "-" * 36)),
        players=st.sampled_from([2, 3, 4]),
    )
    def test_rank_only_notation_round_trips(self, deck: list[str], players: int) -> None:
        """M9 and STYLE: format_deal(parse_deal(s)) == s for canonical rank-only deals."""
        text = "/".join("".join(deck[s::players]) for s in range(players))
        assert format_deal(parse_deal(text)) == text
        assert format_deal_ranks(parse_deal(text)) == text

    @settings(max_examples=60, deadline=None)
    @given(deck=st.permutations(list(deck52())), players=st.sampled_from([2, 3, 4]))
    def test_full_card_notation_round_trips(self, deck: list[Card], players: int) -> None:
        """M9 and STYLE: format_deal(parse_deal(s)) == s for canonical full-card deals."""
        text = "/".join(" ".join(str(c) for c in deck[s::players]) for s in range(players))
        parsed = parse_deal(text)
        assert format_deal(parsed) == text
        ranks = "/".join(
            "".join(c.rank.letter if c.rank.is_court else "-" for c in deck[s::players])
            for s in range(players)
        )
        assert format_deal_ranks(parsed) == ranks
