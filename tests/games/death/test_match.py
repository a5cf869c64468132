"""G12: results, and matches of several deals with running totals and a rotating dealer."""

from __future__ import annotations

import random

import pytest

from parlour.games.death import DeathGame, DeathState
from parlour.games.death.match import dealer_of, match_deal, match_game, match_totals


def play_out(state: DeathState, seed: int) -> DeathState:
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


class TestMatch:
    def test_the_dealer_moves_one_seat_clockwise_each_deal(self) -> None:
        """G12: 'the dealer moves one seat clockwise each deal'; seat 0 sits left of the first
        dealer, so deal k is dealt from seat k (mod n): with 5 players that seat gets 11."""
        assert [dealer_of(5, k) for k in range(6)] == [4, 0, 1, 2, 3, 4]
        for k in range(5):
            sizes = [len(h) for h in match_deal(5, 3, k)["hands"]]
            assert sizes[k % 5] == 11 and sizes.count(11) == 2 and sum(sizes) == 52
            assert sizes[(k + 1) % 5] == 11

    def test_deals_are_seeded_and_differ(self) -> None:
        assert match_deal(4, 9, 2) == match_deal(4, 9, 2)
        assert match_deal(4, 9, 2) != match_deal(4, 9, 3)

    def test_running_totals_add_up_and_fewest_taken_wins(self) -> None:
        """G12: 'A match is several deals with running totals'; 'the winner is whoever took the
        fewest (ties share)'."""
        games = [play_out(match_game(4, 11, k), k) for k in range(4)]
        totals = match_totals(games)
        assert totals.deals == 4
        for seat in range(4):
            assert totals.taken[seat] == sum(g.drinks_taken[seat] for g in games)
            assert totals.given[seat] == sum(g.drinks_given[seat] for g in games)
        assert totals.winners == tuple(s for s in range(4) if totals.taken[s] == min(totals.taken))
        assert totals.to_json()["drinks_taken"] == list(totals.taken)

    def test_unfinished_games_are_refused(self) -> None:
        with pytest.raises(ValueError, match="finished games"):
            match_totals([match_game(3, 1, 0)])


class TestResult:
    def test_outcome_names_drinks_and_fewest_taken(self) -> None:
        """G12: 'Drinks taken and given per player; the winner is whoever took the fewest'."""
        end = play_out(DeathGame().new(5, 4), 4)
        outcome = end.outcome
        assert outcome is not None
        taken = list(end.drinks_taken)
        assert outcome.details["drinks_taken"] == taken
        assert outcome.details["drinks_given"] == list(end.drinks_given)
        assert set(outcome.winners) == {s for s in range(5) if taken[s] == min(taken)}
        assert all(outcome.ranks[w] == 1 for w in outcome.winners)
