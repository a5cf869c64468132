"""Observations come from the seat's View alone (issue 15): two states with the same view give
the same observation in every environment, and swapping two cards hidden from a seat never
changes what that seat observes, while a seat that knows one of them sees the change."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from parlour.adapters.encoding import layout_for
from parlour.adapters.pettingzoo import ParlourAECEnv
from parlour.core.game import JSON
from parlour.games import GAMES
from tests.adapters.cases import CASES, case_id
from tests.conformance.playouts import random_position


def swapped(doc: JSON, a: str, b: str) -> Any:
    """``doc`` with every card text ``a`` made ``b`` and every ``b`` made ``a``."""
    if isinstance(doc, dict):
        return {k: swapped(v, a, b) for k, v in doc.items()}
    if isinstance(doc, list):
        return [swapped(v, a, b) for v in doc]
    if doc == a:
        return b
    if doc == b:
        return a
    return doc


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_view_same_observation(case: tuple[str, int]) -> None:
    name, players = case
    game = GAMES[name]
    env = ParlourAECEnv(name, players)
    env.reset(seed=5)
    for steps in (0, 7, 30):
        state = random_position(game, players, 5, steps)
        for seat in range(players):
            other = game.sample(state.view(seat), random.Random(steps * 10 + seat))
            assert other.view(seat) == state.view(seat)
            agent = f"player_{seat}"
            env._state = state
            mine = env.observe(agent)
            env._state = other
            theirs = env.observe(agent)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_hidden_card_never_shows(case: tuple[str, int]) -> None:
    """Swap two cards hidden from the seat in the full state: the seat's observation stays
    the same. Where another seat knows exactly one of the two cards (its own, say), that seat's
    observation changes: the swap is real, so the test can fail."""
    name, players = case
    game = GAMES[name]
    state = random_position(game, players, 11, 12)
    layout = layout_for(game, players)
    known_changes = 0
    for seat in range(players):
        hidden = sorted(state.hidden_from(seat))
        rng = random.Random(seat)
        for _ in range(12 if len(hidden) >= 2 else 0):
            a, b = rng.sample(hidden, 2)
            doc = swapped(state.to_json(), a, b)
            other = game.state_from_json(doc)
            assert np.array_equal(
                layout.observe(state.view(seat)), layout.observe(other.view(seat))
            ), f"{name} {players}p: Player {seat + 1} sees the swap of {a} and {b}"
            for knower in range(players):
                if knower != seat and len({a, b} & state.hidden_from(knower)) == 1:
                    before = layout.observe(state.view(knower))
                    after = layout.observe(other.view(knower))
                    assert not np.array_equal(before, after), (
                        f"{name} {players}p: Player {knower + 1} knows one of {a} and {b} "
                        "but does not see them swapped"
                    )
                    known_changes += 1
    if game.info.decisions and (players > 2 or name == "beor"):
        assert known_changes, f"{name} {players}p: no swap was known to another seat"
