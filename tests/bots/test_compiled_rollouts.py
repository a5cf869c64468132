"""The search's compiled rollouts (``Strategy.playout``): the Game of Death's searches play
their rollouts in the compiled kernel (:mod:`parlour.games.death.playout`, held against
``rules.py`` in ``tests/games/death/test_playout.py``) and score where they end exactly as the
evaluation and the outcome score a state."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from parlour.bots import make_agent
from parlour.bots.ismcts import Ismcts
from parlour.core.game import State
from parlour.core.strategy import PlayoutEnd
from parlour.games import find_game
from parlour.games.death import strategy as death_strategy
from parlour.games.death.strategy import compiled_playout, evaluate

from .test_agents import positions


def _finished(players: int, seed: int) -> State:
    game = find_game("death")
    rng = random.Random(seed)
    state = game.new(players, seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_a_playout_of_no_actions_scores_the_state_as_the_evaluation_does(players: int) -> None:
    """G12 and G11: the soft ranking by drinks taken plus the black face cards still held,
    and once the game is over the outcome's returns (fewest drinks wins, ties share)."""
    states = positions("death", players, players, 8)
    assert states
    for state in states:
        soft, returns = compiled_playout(state, 1, 0, True)
        assert soft == pytest.approx(evaluate(state), abs=1e-12)
        assert returns is None
    for seed in range(5):
        state = _finished(players, seed)
        soft, returns = compiled_playout(state, 1, 60, True)
        outcome = state.outcome
        assert outcome is not None
        assert soft == pytest.approx(evaluate(state), abs=1e-12)
        assert returns == outcome.returns


def test_a_playout_to_the_end_returns_g12s_result() -> None:
    """From the start, a long enough playout ends the game: the returns name the seats with
    the fewest drinks (estimated drinks are the drinks then) and add up to 1."""
    game = find_game("death")
    for seed in range(10):
        state = game.new(4, seed)
        soft, returns = compiled_playout(state, seed, 10_000, seed % 2 == 0)
        assert returns is not None
        assert sum(returns) == pytest.approx(1.0)
        best = max(soft)
        # The soft ranking is highest exactly for the seats with the fewest drinks.
        assert {s for s, r in enumerate(returns) if r > 0} == {
            s for s, v in enumerate(soft) if v == pytest.approx(best)
        }


def test_the_levels_search_with_compiled_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hard`` and ``expert`` hand every rollout to the kernel: one call an iteration that
    reaches a rollout, with the level's policy (the heuristic) and rollout length."""
    game = find_game("death")
    calls: list[tuple[int, bool]] = []

    def counted(state: State, seed: int, actions: int, heuristic: bool) -> PlayoutEnd:
        calls.append((actions, heuristic))
        return compiled_playout(state, seed, actions, heuristic)

    state = positions("death", 4, 3, 3)[-1]
    seat = state.to_move
    assert seat is not None
    for level in ("hard", "expert"):
        agent = make_agent(level, game)
        assert isinstance(agent, Ismcts) and agent.playout is compiled_playout
        monkeypatch.setattr(agent, "playout", counted)
        calls.clear()
        agent.choose(state.view(seat), state.legal_actions(), random.Random(2))
        iterations = agent.budget.iterations
        assert iterations is not None and 0 < len(calls) <= iterations
        assert set(calls) == {(agent.rollout_actions, True)}
    assert death_strategy.STRATEGY.playout is compiled_playout


def _printed_by(code: str) -> list[str]:
    """What a new Python process running ``code`` prints, word by word."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_warm_up_loads_the_compiled_playouts_before_the_first_decision() -> None:
    """In a new process the kernel is not loaded until something calls it; ``warm_up`` (run
    when a table seats a search bot, and by the server's bot workers) loads it, so the first
    decision does not pay for it. Games without compiled playouts have nothing to load."""
    code = (
        "from parlour.bots import warm_up\n"
        "from parlour.games import find_game\n"
        "from parlour.games.death import _policies\n"
        "before = len(_policies.playout.signatures)\n"
        "assert warm_up(find_game('beor')) is None\n"
        "warm_up(find_game('death')).join()\n"
        "print(before, len(_policies.playout.signatures))\n"
    )
    assert _printed_by(code) == ["0", "1"]


def test_a_table_with_a_search_bot_warms_the_playouts_up() -> None:
    code = (
        "import threading\n"
        "from parlour.games import find_game\n"
        "from parlour.games.death import _policies\n"
        "from parlour.play.table import check_seat_specs\n"
        "def loaded():\n"
        "    for t in threading.enumerate():\n"
        "        if t.name.startswith('parlour-warm'):\n"
        "            t.join()\n"
        "    return len(_policies.playout.signatures)\n"
        "check_seat_specs(find_game('death'), ['person', 'random'])\n"
        "plain = loaded()\n"
        "check_seat_specs(find_game('death'), ['person', 'expert'])\n"
        "print(plain, loaded())\n"
    )
    assert _printed_by(code) == ["0", "1"]
