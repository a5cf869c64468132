"""The conformance suite of ARCHITECTURE.md, run over every registered game: random playouts
never raise, legal actions apply, illegal ones are refused, records replay identically, views
leak nothing, ``sample`` agrees with the view, seeds reproduce and outcomes are well-formed."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from parlour.core import (
    Game,
    GameOver,
    IllegalAction,
    InvalidNotation,
    NotYourTurn,
    Record,
    State,
    make_rng,
    replay,
)
from parlour.games import GAMES, find_game

GAME_NAMES = sorted(GAMES)
SEEDS = (0, 1, 2)


def _cases() -> Iterator[tuple[str, int, int]]:
    for name in GAME_NAMES:
        game = GAMES[name]
        for players in range(game.info.min_players, game.info.max_players + 1):
            for seed in SEEDS:
                yield name, players, seed


CASES = list(_cases())
Case = tuple[str, int, int]
Playouts = dict[Case, tuple[list[State], list[str]]]


def random_playout(game: Game, players: int, seed: int) -> tuple[list[State], list[str]]:
    """Play random legal actions from a seeded deal to the end; every state and action."""
    rng = random.Random(seed)
    state = game.new(players, seed)
    states, actions = [state], []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "a game that is not over offers at least one legal action"
        action = rng.choice(legal)
        state = state.apply(action)
        states.append(state)
        actions.append(str(action))
    return states, actions


def _spread(states: list[State], k: int = 12) -> list[State]:
    """About ``k`` states spread over a game, first and last included."""
    step = max(1, len(states) // k)
    return [*states[::step], states[-1]]


@pytest.fixture(scope="module")
def playouts() -> Playouts:
    return {case: random_playout(GAMES[case[0]], case[1], case[2]) for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p-seed{c[2]}")
class TestContract:
    def test_playout_ends_with_an_outcome(self, playouts: Playouts, case: Case) -> None:
        states, _ = playouts[case]
        final = states[-1]
        assert final.is_over and final.outcome is not None
        assert final.to_move is None and final.legal_actions() == ()
        assert all(not s.is_over for s in states[:-1])

    def test_outcome_is_well_formed(self, playouts: Playouts, case: Case) -> None:
        final = playouts[case][0][-1]
        outcome = final.outcome
        assert outcome is not None
        n = final.players
        assert len(outcome.ranks) == len(outcome.returns) == len(outcome.scores) == n
        assert set(outcome.winners) <= set(range(n))
        assert all(1 <= r <= n for r in outcome.ranks)
        assert all(outcome.ranks[w] == 1 for w in outcome.winners)
        assert sum(outcome.returns) == pytest.approx(1.0 if outcome.winners else 0.0)
        json.dumps(outcome.to_json())

    def test_every_legal_action_applies(self, playouts: Playouts, case: Case) -> None:
        for state in _spread(playouts[case][0]):
            for action in state.legal_actions():
                after = state.apply(action)
                assert after is not state
                assert state.apply(str(action)).to_json() == after.to_json()

    def test_illegal_actions_are_refused(self, playouts: Playouts, case: Case) -> None:
        states = playouts[case][0]
        start, final = states[0], states[-1]
        before = start.to_json()
        with pytest.raises((IllegalAction, InvalidNotation), match=r"\S"):
            start.apply("no-such-action")
        assert start.to_move is not None
        with pytest.raises(NotYourTurn, match="Player"):
            start.apply(start.legal_actions()[0], seat=(start.to_move + 1) % start.players)
        with pytest.raises(GameOver):
            final.apply(str(start.legal_actions()[0]))
        assert start.to_json() == before, "a refused action changes nothing"

    def test_record_replays_identically(self, playouts: Playouts, case: Case) -> None:
        name, players, seed = case
        states, actions = playouts[case]
        record = Record.from_json(
            json.loads(json.dumps(Record(name, players, seed, {}, None, tuple(actions)).to_json()))
        )
        again = replay(record, find_game(name))
        assert len(again) == len(states)
        for a, b in zip(again, states, strict=True):
            assert a.to_json() == b.to_json()
            assert a.events == b.events

    def test_seed_reproduces_the_game(self, case: Case) -> None:
        name, players, seed = case
        game = GAMES[name]
        assert game.new(players, seed).to_json() == game.new(players, seed).to_json()
        assert game.new(players, seed).to_json() != game.new(players, seed + 100).to_json()

    def test_views_leak_nothing(self, playouts: Playouts, case: Case) -> None:
        for state in _spread(playouts[case][0]):
            for seat in [None, *range(state.players)]:
                view = state.view(seat)
                text = json.dumps(view.to_json())
                strings = _strings(view.to_json())
                assert not strings & state.hidden_from(seat), text
                visible = [e for e in state.events if e.is_visible_to(seat)]
                assert not _strings([e.to_json() for e in visible]) & state.hidden_from(seat)

    def test_sample_agrees_with_the_view(self, playouts: Playouts, case: Case) -> None:
        name = case[0]
        game = GAMES[name]
        for i, state in enumerate(_spread(playouts[case][0])):
            for seat in [None, *range(state.players)]:
                view = state.view(seat)
                for k in range(2):
                    sampled = game.sample(view, make_rng(i * 10 + k))
                    assert sampled.view(seat) == view
                    assert sampled.view(seat).to_json() == view.to_json()
                    if seat == state.to_move:
                        # The mover knows his own options; others' hands may differ.
                        assert sampled.legal_actions() == state.legal_actions()


def _strings(obj: object) -> set[str]:
    """Every string value in a JSON value."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()
