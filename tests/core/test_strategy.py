"""A game's bot parts are found in its package: ``Game.strategy`` is ``STRATEGY`` of its
``strategy.py`` for a game with decisions, and ``None`` for one without."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from parlour.core.game import Game
from parlour.core.strategy import Strategy
from parlour.games import GAMES


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.name)
def test_every_game_with_decisions_has_a_strategy(game: Game) -> None:
    strategy = game.strategy
    assert (strategy is not None) == game.info.decisions
    if strategy is None:
        return
    state = game.new(game.info.min_players, 3)
    seat = state.to_move
    assert seat is not None
    legal = state.legal_actions()
    assert strategy.heuristic().choose(state.view(seat), legal, random.Random(1)) in legal
    values = strategy.evaluate(state)
    assert len(values) == state.players and all(0 <= v <= 1 for v in values)
    if strategy.candidates is not None:
        assert set(strategy.candidates(legal)) <= set(legal)


def test_the_default_budgets_the_readme_names() -> None:
    """README: 'its default budget: 400 iterations for BEOR, 100 for the Game of Death'."""
    budgets = {g.name: g.strategy.budget for g in GAMES.values() if g.strategy is not None}
    assert (budgets["beor"], budgets["death"]) == (400, 100)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"budget": 0}, "budget is at least 1"),
        ({"rollout_actions": -1}, "rollout_actions is at least 0"),
        ({"policy": "greedy"}, "policy is one of random, heuristic"),
        ({"exploration": float("nan")}, "exploration is at least 0"),
    ],
)
def test_a_strategy_refuses_bad_settings(change: dict[str, object], needle: str) -> None:
    strategy = next(g.strategy for g in GAMES.values() if g.strategy is not None)
    assert isinstance(strategy, Strategy)
    with pytest.raises(ValueError, match=needle):
        replace(strategy, **change)  # type: ignore[arg-type]
