"""The adapters play the game from its features part alone: PettingZoo's api_test and
seed_test, Gymnasium's check_env, OpenSpiel's random_sim_test with serialisation, and the
adapters' chance deal gives Parlour's deal."""

from __future__ import annotations

import random
import warnings

import pytest

import parlour.adapters.gymnasium as pg
import parlour.adapters.pettingzoo as pz
from parlour.adapters.openspiel import SHORT_NAMES  # importing it registers every game
from parlour.games import GAMES
from parlour_crazy_eights.features import FEATURES
from parlour_crazy_eights.rules import C8State
from parlour_crazy_eights.view import C8View

GAME = GAMES["crazy-eights"]
PLAYERS = [2, 3, 5]


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_api_and_seed_tests(players: int) -> None:
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(pz.env("crazy-eights", players), num_cycles=300)
    seed_test(lambda: pz.env("crazy-eights", players), num_cycles=300)


@pytest.mark.parametrize("players", PLAYERS)
def test_gymnasium_check_env(players: int) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    assert ("parlour/CrazyEights-v0", "crazy-eights") in pg.ENV_IDS
    env = gymnasium.make("parlour/CrazyEights-v0", players=players, opponents="heuristic")
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("players", PLAYERS)
def test_openspiel_random_sim_test_with_serialisation(players: int) -> None:
    import pyspiel

    assert "parlour_crazy-eights" in SHORT_NAMES
    game = pyspiel.load_game("parlour_crazy-eights", {"players": players})
    assert game.num_distinct_actions() == 58
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 4])
def test_the_chance_deal_makes_the_seeded_deal(players: int) -> None:
    """Dealt card by card as the features say, a seeded game's cards make that same game."""
    for seed in range(20):
        state = GAME.new(players, seed)
        assert isinstance(state, C8State)
        order = [[str(c) for c in h] for h in state.hands]
        drawn = [FEATURES.deck(players)[state.dealer]]
        for k in range(1, 1 + players * len(order[0])):
            drawn.append(order[(state.dealer + k) % players].pop())
        drawn += [str(c) for c in (*state.turned, state.discard[0], *state.stock)]
        for k in range(len(drawn)):
            assert drawn[k] in FEATURES.deal_outcomes(players, drawn[:k]), (seed, k)
        assert FEATURES.deal_outcomes(players, drawn) == ()
        again = GAME.new(players, 0, deal=FEATURES.deal(players, drawn))
        assert again.to_json() == state.to_json()


def test_an_observation_is_the_views() -> None:
    rng = random.Random(1)
    state = GAME.new(3, 1)
    while not state.is_over:
        for seat in (None, 0, 1, 2):
            obs = FEATURES.encode(state.view(seat), 3)
            assert obs.shape == (FEATURES.size(3),) and obs.min() >= 0 and obs.max() <= 1
        state = state.apply(rng.choice(state.legal_actions()))
    end = state.view(None)
    assert isinstance(end, C8View) and end.hands is not None
    assert FEATURES.encode(end, 3)[-3 * 52 :].sum() == sum(len(h) for h in end.hands)
