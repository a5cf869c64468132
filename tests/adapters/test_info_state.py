"""OpenSpiel's information-state tensor (issue 29.2): the observation followed by every player
action so far (seat and action id), the latest first, in a window of the game's
max_game_length or the ``info_state_window`` parameter. Perfect recall: two different histories
that leave a seat the same observation give it different tensors, equal histories equal ones;
OpenSpiel's NFSP learns on it."""

from __future__ import annotations

import math
import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.observation import make_observation
from open_spiel.python.rl_environment import ChanceEventSampler

import parlour.adapters.openspiel as pos
from parlour.errors import InvalidOption
from parlour.games import GAMES
from tests.adapters.cases import CASES, case_id

DECIDING = sorted(name for name, game in GAMES.items() if game.info.decisions)
ENDS = [c for c in CASES if c[1] in (GAMES[c[0]].info.min_players, GAMES[c[0]].info.max_players)]
"""Each game at its fewest and most players."""


def load(name: str, players: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(f"parlour_{name}", {"players": players, **params})


def decode(game: pyspiel.Game, tensor: list[float]) -> tuple[float, float, list[tuple[int, int]]]:
    """The actions count, the overflow flag and the rows (seat, action id) of a tensor."""
    size = game.observation_tensor_size()
    players, actions = game.num_players(), game.num_distinct_actions()
    rows = np.array(tensor[size + 2 :]).reshape(-1, players + actions)
    found = []
    for row in rows:
        if not row.any():
            break
        seats, ids = np.flatnonzero(row[:players]), np.flatnonzero(row[players:])
        assert len(seats) == 1 and len(ids) == 1, "a row is one seat and one action"
        found.append((int(seats[0]), int(ids[0])))
    return tensor[size], tensor[size + 1], found


def player_actions(state: pyspiel.State) -> list[tuple[int, int]]:
    return [(h.player, h.action) for h in state.full_history() if h.player >= 0]


@pytest.mark.parametrize("case", ENDS, ids=case_id)
def test_the_tensor_is_the_observation_and_the_actions_latest_first(
    case: tuple[str, int],
) -> None:
    name, players = case
    game = load(name, players)
    length = game.max_game_length()
    window = min(length, pos.DEFAULT_WINDOW)
    size = game.observation_tensor_size()
    row = players + game.num_distinct_actions()
    assert game.information_state_tensor_shape() == [size + 2 + window * row]
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert list(observer.dict) == ["observation", "actions", "overflow", "history"]
    assert observer.dict["history"].shape == (window, row)
    rng = random.Random(3)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 16:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        done = player_actions(state)
        for seat in range(players):
            tensor = state.information_state_tensor(seat)
            assert tensor == pyspiel.State.information_state_tensor(state, seat)  # C++'s path
            assert len(tensor) == game.information_state_tensor_size()
            assert tensor[:size] == state.observation_tensor(seat)
            count, overflow, rows = decode(game, tensor)
            assert rows == done[::-1][:window]
            assert count == pytest.approx(len(done) / length) and overflow == 0.0
            observer.set_from(state, seat)
            assert observer.tensor.tolist() == tensor
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    assert decisions > 0


def test_a_window_keeps_the_latest_actions_and_says_it_overflowed() -> None:
    game = load("death", 3, info_state_window=4)
    size = game.observation_tensor_size()
    assert game.information_state_tensor_size() == size + 2 + 4 * (3 + 253)
    rng = random.Random(1)
    state = game.new_initial_state()
    while len(player_actions(state)) < 9 and not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(
            rng.choice(outcomes)[0] if outcomes else rng.choice(state.legal_actions())
        )
    done = player_actions(state)
    assert len(done) == 9
    count, overflow, rows = decode(game, state.information_state_tensor(0))
    assert rows == done[::-1][:4] and overflow == 1.0
    assert count == pytest.approx(9 / game.max_game_length())


@pytest.mark.parametrize("window", [-1, 2.5, True])
def test_a_bad_window_is_refused(window: object) -> None:
    """OpenSpiel refuses a window that is not an int; the game refuses what gets past it."""
    with pytest.raises((InvalidOption, pyspiel.SpielError), match="info_state_window"):
        load("death", 3, info_state_window=window)
    made = type(load("death", 3))
    with pytest.raises(InvalidOption, match="info_state_window must be a whole number"):
        made({"players": 3, "info_state_window": window})


def test_max_game_length_is_what_the_options_set() -> None:
    assert load("beor", 2, max_turns=30).max_game_length() == 30
    game = load("beor", 2, max_turns=30)
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 2 + 30 * 166


@pytest.mark.parametrize("name", DECIDING)
def test_perfect_recall(name: str) -> None:
    """Random play from one deal: wherever a seat observes the same tensor after different
    actions, its information-state tensors differ, and after the same actions (and chance)
    they are equal. Such pairs must be met, or the test proves nothing."""
    players = GAMES[name].info.min_players
    game = load(name, players)
    by_view: dict[tuple[int, bytes], tuple[tuple[tuple[int, int], ...], list[float]]] = {}
    by_history: dict[tuple[int, tuple[int, ...]], list[float]] = {}
    different = same = 0
    for run in range(300):
        chance, moves = random.Random(7), random.Random(run)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal() and decisions < 12:
            if state.is_chance_node():
                state.apply_action(chance.choice(state.chance_outcomes())[0])
                continue
            done = tuple(player_actions(state))
            for seat in range(players):
                info = state.information_state_tensor(seat)
                view = (seat, np.array(state.observation_tensor(seat), np.float32).tobytes())
                before = by_view.setdefault(view, (done, info))
                if before[0] != done:
                    assert before[1] != info, f"{name}: two histories, one tensor"
                    different += 1
                known = by_history.setdefault((seat, tuple(state.history())), info)
                assert known == info, f"{name}: one history, two tensors"
                same += known is not info
            state.apply_action(moves.choice(state.legal_actions()))
            decisions += 1
        if different >= 3 and same >= 3:
            break
    assert different >= 3 and same >= 3, (different, same)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_clones_pickles_and_resamples_keep_the_tensor(name: str) -> None:
    players = GAMES[name].info.min_players
    game = load(name, players)
    rng = random.Random(11)
    state = game.new_initial_state()
    while not state.is_terminal() and len(player_actions(state)) < 15:
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(
            rng.choice(outcomes)[0] if outcomes else rng.choice(state.legal_actions())
        )
    assert not state.is_chance_node()
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        for seat in range(players):
            assert copy.information_state_tensor(seat) == state.information_state_tensor(seat)
    if not state.is_terminal():
        seat = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)


def test_openspiel_nfsp_learns_on_the_tensor() -> None:
    """OpenSpiel's NFSP (PyTorch), which needs perfect recall in its tensors, plays 2-player
    BEOR with max_turns 30 (the window then holds the whole game) for a few hundred steps of
    each agent and trains both of its networks on the information-state tensors. (NFSP is
    imported here: it imports torch, which only the worker running this test should pay for.)"""
    from open_spiel.python.pytorch import nfsp

    game = load("beor", 2, max_turns=30)
    # rl_environment.Environment takes no seed (a `seed=` keyword goes to the game's parameters
    # and is dropped when the game is given loaded): its chance sampler is seeded here, so the
    # deals are the same at every run.
    env = rl_environment.Environment(game, chance_event_sampler=ChanceEventSampler(seed=5))
    size = env.observation_spec()["info_state"][0]
    assert size == game.information_state_tensor_size()
    agents = [
        nfsp.NFSP(
            seat,
            state_representation_size=size,
            num_actions=env.action_spec()["num_actions"],
            hidden_layers_sizes=[16],
            reservoir_buffer_capacity=500,
            anticipatory_param=0.5,
            batch_size=16,
            min_buffer_size_to_learn=32,
            learn_every=16,
            replay_buffer_capacity=500,
            seed=seat,
        )
        for seat in range(2)
    ]
    steps = 0
    while steps < 600:
        time_step = env.reset()
        if env.get_state.is_terminal():
            continue  # a natural win (B5): no decision (test_a_reset_can_deal_a_natural_win)
        while not time_step.last():
            seat = time_step.observations["current_player"]
            assert len(time_step.observations["info_state"][seat]) == size
            output = agents[seat].step(time_step)
            assert output.action in time_step.observations["legal_actions"][seat]
            time_step = env.step([output.action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
    for agent in agents:
        supervised, reinforcement = agent.loss
        assert supervised is not None and reinforcement is not None
        assert math.isfinite(float(supervised)) and math.isfinite(float(reinforcement))


def test_a_reset_can_deal_a_natural_win() -> None:
    """OpenSpiel keeps the deals that are over before the first decision (docs/researchers.md):
    in BEOR a hand dealt as two groups wins at once (B5, "natural_win"). rl_environment's reset
    then gives a first time step of a terminal state, whose current player is TERMINAL, with
    the win's returns: a training loop checks for it before asking an agent to move (about 4
    deals in 10,000 at 2 players; the deal of this sampler's seed is one)."""
    game = load("beor", 2, max_turns=30)
    env = rl_environment.Environment(game, chance_event_sampler=ChanceEventSampler(seed=1212))
    time_step = env.reset()
    state = env.get_state
    assert time_step.first() and not time_step.last()
    assert state.is_terminal()
    assert time_step.observations["current_player"] == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 1.0]
    outcome = state.parlour_state.outcome
    assert outcome is not None and outcome.winners == (1,) and outcome.details["turns"] == 0
    assert "two groups" in str(state.parlour_state.events[-1])
