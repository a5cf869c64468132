"""The compiled Game of Death engine (``games/death/playout.py``, ``_kernel.py``) against the
rules engine, action by action: legal actions, drinks taken and given, the seat to move, the
pile, the hands, gives in progress, passes and the first player out (G1-G11), on whole games of
2 to 10 players with both values of ``difference_against_faces`` (G3), from the deal and from
the middle of games; the compiled heuristic against ``DeathHeuristic``; playouts against the
search's Python rollout. Games come from fixed seeds only.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from parlour.core import kernel_cache, splitmix
from parlour.games.death import _kernel, _policies
from parlour.games.death.events import Drank, Ended, Social, Swept, Why
from parlour.games.death.game import DeathGame
from parlour.games.death.notation import FACE, Give, is_black_face
from parlour.games.death.playout import (
    Table,
    action_of,
    apply_code,
    code_of,
    encode,
    heuristic_code,
    legal_codes,
    play_many,
    playout,
    random_code,
    table,
)
from parlour.games.death.rules import DeathState
from parlour.games.death.strategy import DeathHeuristic, candidates

GAME = DeathGame()
PLAYERS = range(2, 11)
FACES = (False, True)
LOCKSTEP_GAMES = 30  # per player count and option value: 540 games


class NoNoise(random.Random):
    """A generator whose ``random()`` is always 0: DeathHeuristic's tie-breaking noise
    vanishes, so it takes the first action of the highest score, as the kernel does."""

    def random(self) -> float:
        return 0.0


def new(players: int, seed: int, faces: bool, **options: Any) -> DeathState:
    state = GAME.new(players, seed, {"difference_against_faces": faces, **options})
    assert isinstance(state, DeathState)
    return state


def rules_table(state: DeathState) -> Table:
    pos = state._pos
    return Table(
        to_move=pos.to_move,
        taken=pos.taken,
        given=pos.given,
        hands=tuple(frozenset(h) for h in pos.hands),
        pile=pos.pile,
        pile_seats=pos.pile_seats,
        pending=pos.pending,
        last_thrower=pos.last_thrower,
        passed=pos.passed,
        first_out=pos.first_out,
        over=pos.over,
    )


def held(state: DeathState) -> tuple[int, ...]:
    """G11: the give value of the black face cards each seat holds."""
    return tuple(sum(FACE[c] for c in hand if is_black_face(c)) for hand in state.hands)


def random_play(state: DeathState, rng: random.Random, actions: int) -> DeathState:
    """``actions`` random legal actions (any split of a give among them)."""
    for _ in range(actions):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def midgame(state: DeathState, rng: random.Random) -> DeathState:
    """A position drawn uniformly from those random play goes through before its end."""
    states = [state]
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return rng.choice(states[:-1])


def lockstep(state: DeathState, rng: random.Random, seen: Counter[str]) -> None:
    """Play ``state`` to the end by random legal actions in both engines, comparing every
    position; ``seen`` counts the rules the game went through."""
    w = encode(state)
    assert table(w) == rules_table(state)
    seen["played on"] += not state.is_over
    while not state.is_over:
        legal = state.legal_actions()
        assert legal_codes(w) == tuple(code_of(a) for a in legal)
        action = rng.choice(legal)
        if isinstance(action, Give) and state._pos.pending is not None:
            seen["split give"] += action.drinks < state._pos.pending[1]
        state = state.apply(action)
        apply_code(w, code_of(action))
        assert table(w) == rules_table(state), f"after {action}"
        for event in state._log:
            if isinstance(event, Social):
                seen["social"] += 1
            elif isinstance(event, Swept):
                seen[f"swept {event.why.name}"] += 1
            elif isinstance(event, Ended):
                seen[f"ended {event.why.name}"] += 1
            elif isinstance(event, Drank) and event.why is Why.DOWN:
                assert event.other is not None
                seen["down from a face" if event.other.rank > 10 else "down"] += 1
    outcome = state.outcome
    assert outcome is not None and table(w).taken == outcome.scores


@pytest.mark.parametrize("faces", FACES)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_action_agrees_with_the_rules(players: int, faces: bool) -> None:
    """From the deal (one game in three) or from a position drawn from random play (so every
    kind of position is loaded: mid-pile, gives in progress, after passes, after the first
    player out, over), both engines play on in lockstep to the end."""
    seen: Counter[str] = Counter()
    for i in range(LOCKSTEP_GAMES):
        rng = random.Random(f"{players}-{faces}-{i}")
        state = new(players, 1000 * players + i, faces)
        if i % 3:
            state = midgame(state, rng)
        lockstep(state, rng, seen)
    assert seen["split give"] and seen["swept ACE"] and seen["down"]
    assert bool(seen["down from a face"]) == faces  # G3's option
    assert seen["ended ACE"] + seen["ended FIRST_OUT"] == seen["played on"]


def test_the_games_tried_meet_every_rule() -> None:
    """Over a spread of games: socials (G7), both sweeps (G8, G9) and both ends (G8, G10)."""
    seen: Counter[str] = Counter()
    for i in range(60):
        rng = random.Random(i)
        lockstep(new(2 + i % 3, i, i % 2 == 0), rng, seen)
    assert all(
        seen[k]
        for k in (
            *("social", "split give", "swept ACE", "swept ALL_PASS"),
            *("ended ACE", "ended FIRST_OUT"),
        )
    ), seen


def test_options_that_change_no_rule_of_play_change_nothing() -> None:
    """G14 (sober: points, the same numbers) and G13 (illegal throws, which engines never
    offer) leave every action alike."""
    seen: Counter[str] = Counter()
    for i in range(8):
        state = new(3 + i, 77 + i, i % 2 == 1, sober=(1, 2), illegal_throw_penalty=i % 2 == 0)
        lockstep(state, random.Random(i), seen)


def test_the_heuristic_picks_what_death_heuristic_picks() -> None:
    """At every decision of games played by random moves and by the heuristic, 2 to 10 players,
    both G3 options: the compiled heuristic takes DeathHeuristic's action (its noise set to 0,
    so both take the first action of the highest score), for the search's candidates and for
    every legal action."""
    bot = DeathHeuristic()
    decisions = 0
    for i in range(180):
        players = 2 + i % 9
        rng = random.Random(i)
        state = new(players, 500 + i, i % 2 == 1)
        w = encode(state)
        by_heuristic = i % 3 != 0
        while not state.is_over:
            view = state.view(state.to_move)
            legal = state.legal_actions()
            chosen = bot.choose(view, candidates(legal), NoNoise())
            assert bot.choose(view, legal, NoNoise()) == chosen
            assert heuristic_code(w) == code_of(chosen), f"game {i} at {view.to_json()}"
            decisions += 1
            action = chosen if by_heuristic else rng.choice(legal)
            state = state.apply(action)
            apply_code(w, code_of(action))
    assert decisions > 10_000


def python_rollout(state: DeathState, actions: int) -> DeathState:
    """The search's rollout in Python: DeathHeuristic for every seat over the candidates
    (gives whole), for at most ``actions`` actions."""
    return rollout_line(state, actions)[-1]


def rollout_line(state: DeathState, actions: int) -> list[DeathState]:
    """:func:`python_rollout`'s states, from ``state`` to its end."""
    bot = DeathHeuristic()
    line = [state]
    for _ in range(actions):
        if state.is_over:
            break
        legal = candidates(state.legal_actions())
        state = state.apply(bot.choose(state.view(state.to_move), legal, NoNoise()))
        line.append(state)
    return line


@pytest.mark.parametrize("faces", FACES)
def test_heuristic_playouts_are_the_python_rollout(faces: bool) -> None:
    """From positions of random play, 2 to 10 players: ``playout(heuristic=True)`` ends where
    the Python rollout ends, to the end and stopped after a few actions."""
    ended = 0
    for i in range(120):
        players = 2 + i % 9
        rng = random.Random(i)
        state = midgame(new(players, 900 + i, faces), rng)
        for limit in (1, 7, 30, 1000):
            end = python_rollout(state, limit)
            got = playout(state, seed=i, max_actions=limit, heuristic=True)
            assert got == (end.drinks_taken, held(end), end.is_over), (i, limit)
        ended += end.is_over
    assert ended == 120


def test_random_choices_are_legal_and_whole_gives() -> None:
    """The random policy draws a legal throw or the pass, or gives all that is left to
    one other player; played in lockstep with the rules to the end."""
    bits = random.Random(3)
    for i in range(40):
        state = new(2 + i % 9, 300 + i, i % 2 == 0)
        w = encode(state)
        while not state.is_over:
            code = random_code(w, bits.getrandbits(64))
            assert code in legal_codes(w)
            action = action_of(code)
            pending = state._pos.pending
            if pending is not None:
                assert isinstance(action, Give) and action.drinks == pending[1]
            state = state.apply(action)
            apply_code(w, code)
            assert table(w) == rules_table(state)


def test_random_choices_are_uniform() -> None:
    """Each throw of a position is drawn about as often as the others; each receiver of a
    give too (all the drinks left, G5)."""
    state = random_play(new(4, 11, False), random.Random(4), 3)
    rng = random.Random(6)
    giving = new(5, 12, False)
    while giving._pos.pending is None:
        giving = giving.apply(rng.choice(giving.legal_actions()))
    bits = random.Random(5)
    for position, choices in ((state, 3), (giving, 4)):
        w = encode(position)
        draws = Counter(random_code(w, bits.getrandbits(64)) for _ in range(6000))
        assert len(draws) == choices and set(draws) <= set(legal_codes(w))
        expected = 6000 / choices
        assert all(abs(k - expected) < 0.15 * expected for k in draws.values()), draws


def test_random_playouts_are_the_rules_random_playouts_in_distribution() -> None:
    """Random playouts to the end from the deal: the mean drinks of a 4-player game in the
    kernel are those of random play in the rules engine (whole gives to a random receiver)."""
    kernel_games, rules_games = 4000, 1000
    kernel = 0.0
    for i in range(kernel_games):
        taken, _, over = playout(new(4, i, False), seed=i, max_actions=10_000, heuristic=False)
        assert over
        kernel += sum(taken) / kernel_games
    rules = 0.0
    for i in range(rules_games):
        state = new(4, i, False)
        rng = random.Random(i)
        while not state.is_over:
            legal = candidates(state.legal_actions())
            state = state.apply(legal[rng.randrange(len(legal))])
        rules += sum(state.drinks_taken) / rules_games
    assert abs(kernel - rules) < 0.04 * rules, (kernel, rules)


def test_playouts_are_the_same_for_the_same_seed() -> None:
    state = random_play(new(5, 8, False), random.Random(8), 5)
    results = [playout(state, seed=s, max_actions=500, heuristic=False) for s in range(20)]
    again = [playout(state, seed=s, max_actions=500, heuristic=False) for s in range(20)]
    assert results == again
    assert len(set(results)) > 10
    assert playout(state, seed=2**64 + 5, max_actions=500, heuristic=False)[2]


def test_a_state_already_over_returns_at_once() -> None:
    state = random_play(new(3, 9, True), random.Random(9), 10_000)
    assert state.is_over
    for heuristic in (False, True):
        got = playout(state, seed=1, max_actions=100, heuristic=heuristic)
        assert got == (state.drinks_taken, held(state), True)


def test_max_actions_stops_early() -> None:
    """One action from the deal: 2♦ is thrown (G1), nobody drinks, the game goes on; none:
    nothing changes."""
    state = new(4, 12, False)
    assert playout(state, seed=3, max_actions=1, heuristic=False) == ((0,) * 4, held(state), False)
    assert playout(state, seed=3, max_actions=0, heuristic=True) == ((0,) * 4, held(state), False)


def test_play_many_plays_the_python_rollouts() -> None:
    """The batch of heuristic playouts plays as many actions as the Python rollouts, and
    leaves each position where its rollout ends."""
    states = [midgame(new(2 + i % 9, 70 + i, i % 2 == 0), random.Random(i)) for i in range(20)]
    lines = [rollout_line(state, 1000) for state in states]
    positions = np.stack([encode(state) for state in states])
    played = play_many(positions, seed=0, max_actions=1000, heuristic=True)
    assert played == sum(len(line) - 1 for line in lines) > 100
    for row, line in zip(positions, lines, strict=True):
        assert table(row) == rules_table(line[-1])


def test_the_numba_cache_is_stamped_with_both_kernel_modules() -> None:
    """A change to either kernel module, or to the generator they inline, makes numba compile
    every kernel function again (``share_stamp``): each cached function carries the digest of
    the three modules' sources."""
    stamp = kernel_cache.kernel_stamp((_kernel, _policies, splitmix))
    stamped = [
        value._cache._cache_file._source_stamp
        for module in (_kernel, _policies)
        for value in vars(module).values()
        if getattr(getattr(value, "py_func", None), "__module__", None) == module.__name__
        and hasattr(getattr(getattr(value, "_cache", None), "_cache_file", None), "_source_stamp")
    ]
    assert len(stamped) >= 15 and set(stamped) == {stamp}


def test_states_sampled_for_a_seat_play_on_alike() -> None:
    """What a search plays on from: states sampled from a seat's view (the hidden hands dealt
    anew); both engines in lockstep to the end, and the heuristic playout is the rollout."""
    seen: Counter[str] = Counter()
    for i in range(40):
        rng = random.Random(i)
        state = midgame(new(2 + i % 9, 600 + i, i % 2 == 1), rng)
        assert state.to_move is not None
        sampled = GAME.sample(state.view(state.to_move), rng)
        assert isinstance(sampled, DeathState)
        end = python_rollout(sampled, 1000)
        assert playout(sampled, i, 1000, True) == (end.drinks_taken, held(end), True)
        lockstep(sampled, rng, seen)
    assert seen["played on"] == 40
