"""Environment steps a second of Parlour's adapters, beside each library's own card games, in
one run on this machine.

.venv/bin/python benchmarks/bench_adapters.py               # 5 s of play for each row
.venv/bin/python benchmarks/bench_adapters.py --seconds 10
.venv/bin/python benchmarks/bench_adapters.py --only openspiel

Every row plays whole games with uniformly random legal actions (the action mask, or the
chance outcomes' probabilities) for ``--seconds`` of this process's CPU time (so that other
work on the machine moves the figures less) and counts steps:

- PettingZoo AEC: one ``step`` per action, with ``last()`` read before it (the observation and
  mask every agent loop reads). References: PettingZoo's classic ``leduc_holdem_v4`` and
  ``texas_holdem_v4`` (RLCard's games).
- Gymnasium: one ``step`` of the learning seat, the other seats played by the random bot
  inside it (so one step holds one or more game moves); no reference of Gymnasium's own.
- OpenSpiel: one ``apply_action`` per node, chance nodes included, played three ways side by
  side: plain (no tensor), with the mover's ``observation_tensor`` read at each decision, and
  with its ``information_state_tensor`` read at each decision. The three are timed in turns
  (a slice of each, again and again) so that a change in the machine's load falls on all
  three alike. References: OpenSpiel's C++ ``leduc_poker`` and ``crazy_eights`` (5 players),
  and its Python ``liars_poker`` (``python_liars_poker``), a Python game like ours.

Columns: steps/s; for OpenSpiel, "obs x" and "info x" are what a step with the tensor costs
over a plain step (the plain rate over the rate with the tensor: 1.00 is free). "x ref" is
the row's rate over its library's first reference (for OpenSpiel, plain steps). The figures
move with whatever else the machine is doing: compare rows of one run only.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.games import liars_poker  # noqa: F401 (registers python_liars_poker)
from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

import parlour.adapters.openspiel  # noqa: F401 (registers parlour_*)
from parlour.adapters import pettingzoo as pz
from parlour.adapters.gymnasium import ParlourEnv
from parlour.games import GAMES

CASES = (("beor", 2), ("beor", 4), ("death", 4), ("beggar", 2)) + (
    (("crazy-eights", 5),) if "crazy-eights" in GAMES else ()
)
"""The rows of Parlour's games; the example Crazy Eights where it is installed (its plug-in)."""


def timed(play_one: Callable[[int], int], seconds: float) -> tuple[float, int, int]:
    """Steps a second of whole games played one after another (seeds 0, 1, ...) until
    ``seconds`` have passed: the rate, the steps and the games."""
    steps = games = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        steps += play_one(games)
        games += 1
    return steps / (time.process_time() - began), steps, games


def aec_game(make: Callable[[], Any]) -> Callable[[int], int]:
    env = make()

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        return steps

    return play


def gym_game(name: str, players: int) -> Callable[[int], int]:
    env = ParlourEnv(name, players=players, opponents="random")

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, _, done, _, _ = env.step(action)
            steps += 1
        return steps

    return play


def spiel_game(name: str, params: dict[str, Any], tensor: str) -> Callable[[int], int]:
    """Whole OpenSpiel games; ``tensor`` is ``""``, ``"observation"`` or ``"info_state"``:
    the mover's tensor of that kind read at each decision."""
    game = pyspiel.load_game(name, params)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                if tensor == "observation":
                    state.observation_tensor(state.current_player())
                elif tensor == "info_state":
                    state.information_state_tensor(state.current_player())
                state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        return steps

    return play


def timed_in_turns(
    plays: list[Callable[[int], int]], seconds: float, turns: int = 10
) -> list[float]:
    """Steps a second of each of ``plays``, timed in ``turns`` slices of CPU time each, one
    after another, so that a change in load falls on all alike (the same seeds for each)."""
    steps = [0] * len(plays)
    spent = [0.0] * len(plays)
    games = [0] * len(plays)
    for _ in range(turns):
        for k, play in enumerate(plays):
            began = time.process_time()
            while time.process_time() - began < seconds / turns:
                steps[k] += play(games[k])
                games[k] += 1
            spent[k] += time.process_time() - began
    return [n / t for n, t in zip(steps, spent, strict=True)]


def spiel_rows(seconds: float) -> None:
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("leduc_poker (C++ reference)", "leduc_poker", {}),
        ("crazy_eights 5p (C++ reference)", "crazy_eights", {}),
        ("python_liars_poker (reference)", "python_liars_poker", {}),
        *[(f"parlour_{name} {n}p", f"parlour_{name}", {"players": n}) for name, n in CASES],
    ]
    print(
        f"\n{'library':10}  {'environment':31}  {'plain/s':>9}  {'obs/s':>9}  {'obs x':>6}", end=""
    )
    print(f"  {'info/s':>9}  {'info x':>6}  {'x ref':>6}")
    reference: float | None = None
    for label, name, params in cases:
        kinds = ["", "observation"]
        if pyspiel.load_game(name, params).get_type().provides_information_state_tensor:
            kinds.append("info_state")
        rates = timed_in_turns([spiel_game(name, params, k) for k in kinds], seconds)
        plain, obs = rates[0], rates[1]
        info = f"{rates[2]:9.0f}  {plain / rates[2]:6.2f}" if len(rates) > 2 else f"{'':9}  {'':6}"
        reference = plain if reference is None else reference
        print(
            f"{'OpenSpiel':10}  {label:31}  {plain:9.0f}  {obs:9.0f}  {plain / obs:6.2f}  "
            f"{info}  {plain / reference:6.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--only", choices=("pettingzoo", "gymnasium", "openspiel"), help="one library's rows"
    )
    args = parser.parse_args()
    rows: list[tuple[str, str, Callable[[int], int]]] = [
        ("PettingZoo", "leduc_holdem_v4 (reference)", aec_game(leduc_holdem_v4.env)),
        ("PettingZoo", "texas_holdem_v4 (reference)", aec_game(texas_holdem_v4.env)),
        *[
            ("PettingZoo", f"parlour {name} {n}p", aec_game(partial(pz.env, name, n)))
            for name, n in CASES
        ],
        *[("Gymnasium", f"parlour {name} {n}p", gym_game(name, n)) for name, n in CASES],
    ]
    rows = [r for r in rows if args.only in (None, r[0].lower())]
    if rows:
        print(f"{'library':10}  {'environment':31}  {'steps/s':>9}  {'x ref':>6}  steps / games")
    reference: dict[str, float] = {}
    for library, label, play in rows:
        rate, steps, games = timed(play, args.seconds)
        if label.endswith("(reference)"):
            reference.setdefault(library, rate)
        base = reference.get(library)
        ratio = "" if base is None else f"{rate / base:.2f}"
        print(f"{library:10}  {label:31}  {rate:9.0f}  {ratio:>6}  {steps} / {games}")
    if args.only in (None, "openspiel"):
        spiel_rows(args.seconds)


if __name__ == "__main__":
    main()
