"""Baselines: MaskablePPO and OpenSpiel's ISMCTS against Parlour's random and heuristic bots.

    .venv/bin/python examples/baselines.py            # the full run (under 10 minutes on 2 cores)
    .venv/bin/python examples/baselines.py --quick    # a tiny run (seconds), figures meaningless

For every registered game with decisions, at 2 players, each method against ``random`` and
``heuristic`` (a game without decisions gets a row saying so: nothing to learn or search):

- **MaskablePPO** (sb3-contrib), trained by ``examples/train_beor.py``'s ``train`` (its network
  and hyperparameters) for ``--timesteps`` steps in four Gymnasium environments at once
  (``gymnasium.make("parlour/NAME-v0", ...)``): Player 1 and Player 2 against the random bot
  and against the heuristic. One policy a game, measured against each bot by
  ``train_beor.evaluate`` (it plays its most likely legal action).
- **ISMCTS**: OpenSpiel's Python ``ISMCTSBot`` on the OpenSpiel game ``parlour_NAME``, with
  ``--simulations`` simulations a decision, UCT constant 2, nodes keyed by the observation
  string (the view, which keeps what the seat may remember), leaves valued by OpenSpiel's
  ``RandomRolloutEvaluator`` (one random rollout, cut after ``--rollout-length`` actions: a cut
  rollout is worth 0 to every seat, the game's returns before its end), and the action of the
  best value played (``MAX_VALUE``; with fewer simulations than legal actions the most visited
  one is a random pick). The other seat is Parlour's bot.
- **References**: Parlour's own ``random`` and ``heuristic`` bots in the learner's seat of the
  same Gymnasium environments, on the same deals as MaskablePPO: the floor, and what the
  heuristic scores against itself.

Every row plays ``--games`` games against each bot, the method in seat ``i % 2`` of game
``i``; a win scores 1, a game without a winner 1/2, a loss 0 (a win shared with the bot counts
as a win, as ``train_beor.evaluate`` counts it), and the score comes with its 95% Wilson
interval (``parlour.lab.stats.rate``). Seeds: game ``i`` is deal seed ``--eval-seed + i``
(Gymnasium's ``reset(seed=...)``; in OpenSpiel the seed of the chance outcomes, so those deals
differ from Gymnasium's but are dealt alike); ``--seed`` seeds the training and the search.
The same arguments give the same figures, whatever ``--workers``. Writes ``baselines.md`` (the
table) and ``baselines.json`` (every figure and setting) into ``--out`` and prints the table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import torch
from open_spiel.python.algorithms import ismcts, mcts

import parlour.adapters.gymnasium as parlour_gymnasium  # registers parlour/NAME-v0
import parlour.adapters.openspiel  # noqa: F401 (registers parlour_NAME)
from parlour.bots import make_agent
from parlour.cli.common import progress_bar
from parlour.core.rng import derive_seed
from parlour.games import GAMES
from parlour.lab.stats import rate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_beor  # the project's training loop, examples/train_beor.py

PLAYERS = 2
OPPONENTS = ("random", "heuristic")
METHODS = ("MaskablePPO", "ISMCTS", "random", "heuristic")
"""The table's rows for each game: the two methods, then Parlour's bots as references."""
GAME_OPTIONS: dict[str, dict[str, int]] = {"beor": {"max_turns": 100}}
"""Options the baselines play with: BEOR is a draw after 100 turns (B10) instead of 2,000, so
that a side playing at random (a median of 500 turns to end a 2-player deal against another)
costs a bounded time; the heuristic ends one against itself in 25 turns (median, at most 80 in
60 deals), against the random bot in 33 (10% of deals take more than 100)."""
CHUNK = 50
"""Games a job plays: jobs spread over the workers and move the progress bar."""


@dataclass(frozen=True)
class Settings:
    """What a run measures; the same settings give the same figures."""

    timesteps: int = 30_000
    games: int = 500
    simulations: int = 4
    rollout_length: int = 5
    seed: int = 0
    eval_seed: int = train_beor.EVAL_SEED
    workers: int = 2


FULL = Settings()
QUICK = Settings(timesteps=0, games=2, simulations=3, rollout_length=5, workers=1)
"""A tiny run to try the script: an untrained policy, a three-simulation search, 2 games."""


@dataclass(frozen=True)
class Cell:
    """One method against one bot in one game: its games, score and 95% interval."""

    game: str
    method: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float


Counts = tuple[int, int, int]
"""Wins, draws (no winner) and losses."""


def measured_games() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The registered games with a Gymnasium id that have decisions, and those without, by
    title."""
    names = sorted((name for _, name in parlour_gymnasium.ENV_IDS), key=lambda n: GAMES[n].title)
    playing = tuple(n for n in names if GAMES[n].info.decisions)
    idle = tuple(n for n in names if not GAMES[n].info.decisions)
    return playing, idle


def gym_env(game: str, opponent: str, seat: int) -> Any:
    """The Gymnasium environment of ``game``: ``seat`` learns against ``opponent``."""
    env_id = next(env for env, name in parlour_gymnasium.ENV_IDS if name == game)
    return gymnasium.make(
        env_id, players=PLAYERS, opponents=opponent, seat=seat, options=GAME_OPTIONS.get(game, {})
    )


def tally(scores: Iterable[float]) -> Counts:
    listed = list(scores)
    return listed.count(1.0), listed.count(0.5), listed.count(0.0)


def cell(game: str, method: str, opponent: str, counts: Counts) -> Cell:
    wins, draws, losses = counts
    games = wins + draws + losses
    interval = rate(wins + draws / 2, games)
    return Cell(
        game, method, opponent, games, wins, draws, losses,
        interval.value, interval.lo, interval.hi,
    )  # fmt: skip


# -- MaskablePPO ------------------------------------------------------------------------------


def ppo_counts(game: str, settings: Settings) -> dict[str, Counts]:
    """Train one policy for ``game`` (both seats, both bots); its counts against each bot."""
    torch.set_num_threads(1)
    makers = [partial(gym_env, game, o, seat) for o in OPPONENTS for seat in range(PLAYERS)]
    model = train_beor.train(settings.timesteps, settings.seed, makers)
    return {
        o: train_beor.evaluate(
            model, settings.games, partial(learner_env, game, o), settings.eval_seed
        )
        for o in OPPONENTS
    }


def learner_env(game: str, opponent: str, seat: int) -> Any:
    """The Parlour environment inside :func:`gym_env` (``train_beor.evaluate`` asks it for
    its action masks and seat)."""
    return gym_env(game, opponent, seat).unwrapped


# -- Parlour's bots as references -------------------------------------------------------------


def bot_game(game: str, agent_spec: str, opponent: str, number: int, settings: Settings) -> float:
    """Game ``number`` of Parlour's ``agent_spec`` in the learner's seat: 1, 1/2 or 0."""
    env = learner_env(game, opponent, number % PLAYERS)
    deal_seed = settings.eval_seed + number
    env.reset(seed=deal_seed)
    agent = make_agent(agent_spec, env.game)
    rng = random.Random(derive_seed(deal_seed, "reference", agent_spec))
    info: dict[str, Any] = {}
    done = False
    while not done:
        state = env.game_state
        action = agent.choose(state.view(env.seat), state.legal_actions(), rng)
        _, _, done, _, info = env.step(env.game.action_id(action))
    winners = info["outcome"]["winners"]
    return 1.0 if env.seat in winners else 0.0 if winners else 0.5


# -- ISMCTS -----------------------------------------------------------------------------------


def ismcts_games(game: str, number: int, settings: Settings) -> dict[str, float]:
    """Game ``number`` of ISMCTS (seat ``number % 2``) against each bot: 1, 1/2 or 0. The deal
    is dealt once (chance outcomes seeded by the deal seed) and played against each bot."""
    deal_seed = settings.eval_seed + number
    params = {"players": PLAYERS, **GAME_OPTIONS.get(game, {})}
    spiel = pyspiel.load_game(f"parlour_{game}", params)
    rules = GAMES[game]
    me = number % PLAYERS
    dealt = spiel.new_initial_state()
    chance = np.random.default_rng(deal_seed)
    while dealt.is_chance_node():
        outcomes, probabilities = zip(*dealt.chance_outcomes(), strict=True)
        dealt.apply_action(int(chance.choice(outcomes, p=probabilities)))
    after_deal = chance.bit_generator.state
    scores = {}
    for opponent in OPPONENTS:

        def stream(label: str, o: str = opponent) -> np.random.RandomState:
            return np.random.RandomState(derive_seed(settings.seed, game, o, label, number) % 2**32)

        evaluator = mcts.RandomRolloutEvaluator(
            1, stream("rollouts"), max_length=settings.rollout_length
        )
        bot = ismcts.ISMCTSBot(
            spiel,
            evaluator,
            2.0,
            settings.simulations,
            random_state=stream("search"),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
            use_observation_string=True,
        )
        # OpenSpiel's default resampler draws from pyspiel.UniformProbabilitySampler, seeded
        # from the system's entropy: the worlds sampled, and so the games, would differ from run
        # to run. The same worlds from a stream of the game's seed instead.
        worlds = stream("worlds")
        bot.set_resampler(
            lambda state, player, u=worlds.uniform: state.resample_from_infostate(player, u)
        )
        agent = make_agent(opponent, rules)
        agent_rng = random.Random(derive_seed(deal_seed, "opponent", opponent))
        chance.bit_generator.state = after_deal
        state = dealt.clone()
        while not state.is_terminal():
            if state.is_chance_node():  # a shuffle during play
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(chance.choice(outcomes, p=probabilities)))
            elif state.current_player() == me:
                state.apply_action(int(bot.step(state)))
            else:
                seat = state.current_player()
                real = state.parlour_state
                action = agent.choose(real.view(seat), real.legal_actions(), agent_rng)
                state.apply_action(rules.action_id(action))
        winners = state.parlour_state.outcome.winners
        scores[opponent] = 1.0 if me in winners else 0.0 if winners else 0.5
    return scores


# -- the run ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """A piece of the run: a PPO training and evaluation, or games ``first`` to
    ``first + count - 1`` of a method against each bot."""

    game: str
    method: str
    first: int = 0
    count: int = 0


def jobs_for(games: Iterable[str], settings: Settings) -> list[Job]:
    """The PPO jobs first (the longest), then the games of the others in chunks."""
    names = list(games)
    jobs = [Job(g, "MaskablePPO") for g in names]
    for method in METHODS[1:]:
        for g in names:
            for first in range(0, settings.games, CHUNK):
                jobs.append(Job(g, method, first, min(CHUNK, settings.games - first)))
    return jobs


def run_job(job: Job, settings: Settings) -> tuple[dict[str, Counts], float]:
    """Counts by opponent and the job's processor seconds."""
    began = time.process_time()
    if job.method == "MaskablePPO":
        return ppo_counts(job.game, settings), time.process_time() - began
    numbers = range(job.first, job.first + job.count)
    if job.method == "ISMCTS":
        played = [ismcts_games(job.game, n, settings) for n in numbers]
    else:
        played = [
            {o: bot_game(job.game, job.method, o, n, settings) for o in OPPONENTS} for n in numbers
        ]
    counts = {o: tally(scores[o] for scores in played) for o in OPPONENTS}
    return counts, time.process_time() - began


def measure(
    settings: Settings, games: Iterable[str] | None = None
) -> tuple[list[Cell], dict[str, float]]:
    """Every cell of the table for ``games`` (every game with decisions by default), in table
    order, and the processor seconds each game and method took (``"beor MaskablePPO"``: its
    training and evaluation); on ``settings.workers`` processes, with a progress bar on a
    terminal."""
    names = list(measured_games()[0] if games is None else games)
    jobs = jobs_for(names, settings)
    totals: dict[tuple[str, str, str], list[int]] = {
        (g, m, o): [0, 0, 0] for g in names for m in METHODS for o in OPPONENTS
    }
    seconds = {f"{g} {m}": 0.0 for g in names for m in METHODS}
    with progress_bar("baselines") as bar:
        steps = bar.add_task("steps", total=len(names) * settings.timesteps)
        played = bar.add_task("games", total=len(totals) * settings.games)

        def done(job: Job, result: tuple[dict[str, Counts], float]) -> None:
            counts, spent = result
            seconds[f"{job.game} {job.method}"] += spent
            for opponent, some in counts.items():
                total = totals[job.game, job.method, opponent]
                total[:] = [a + b for a, b in zip(total, some, strict=True)]
                bar.advance(played, sum(some))
            if job.method == "MaskablePPO":
                bar.advance(steps, settings.timesteps)

        if settings.workers <= 1:
            for job in jobs:
                done(job, run_job(job, settings))
        else:
            with ProcessPoolExecutor(settings.workers) as pool:
                futures: dict[Future[tuple[dict[str, Counts], float]], Job] = {
                    pool.submit(run_job, job, settings): job for job in jobs
                }
                for future in as_completed(futures):
                    done(futures[future], future.result())
    cells = [
        cell(g, m, o, (wins, draws, losses)) for (g, m, o), (wins, draws, losses) in totals.items()
    ]
    return cells, {key: round(value, 1) for key, value in seconds.items()}


# -- the table --------------------------------------------------------------------------------


def method_text(method: str, settings: Settings) -> str:
    if method == "MaskablePPO":
        return f"MaskablePPO, {settings.timesteps:,} steps"
    if method == "ISMCTS":
        return (
            f"ISMCTS, {settings.simulations} simulations, rollouts of at most "
            f"{settings.rollout_length} actions"
        )
    return f"Parlour's `{method}` (reference)"


def table(cells: list[Cell], idle: Iterable[str], settings: Settings) -> str:
    """The markdown table: a row per game and method, a column per bot, then the seeds."""
    lines = [
        "| game | method | against `random` | against `heuristic` |",
        "|---|---|---|---|",
    ]
    for name in dict.fromkeys(c.game for c in cells):
        title = GAMES[name].info.title
        for option, value in GAME_OPTIONS.get(name, {}).items():
            title += f" ({option} {value})"
        for method in METHODS:
            row = {c.opponent: c for c in cells if c.game == name and c.method == method}
            scores = " | ".join(
                f"{row[o].score:.3f} [{row[o].low:.3f}, {row[o].high:.3f}]" for o in OPPONENTS
            )
            lines.append(f"| {title} | {method_text(method, settings)} | {scores} |")
    for name in idle:
        lines.append(
            f"| {GAMES[name].info.title} | none: no decisions, every seat turns its card | - | - |"
        )
    first, last = settings.eval_seed, settings.eval_seed + settings.games - 1
    lines += [
        "",
        f"Score: a win 1, no winner 1/2, a loss 0, over {settings.games} games against each "
        f"bot, the method in seat i % 2 of game i, with its 95% Wilson interval. Deal seeds "
        f"{first} to {last}; training and search seed {settings.seed}.",
    ]
    return "\n".join(lines) + "\n"


def report(
    cells: list[Cell],
    idle: Iterable[str],
    settings: Settings,
    seconds: float,
    processor: dict[str, float],
) -> dict[str, Any]:
    """Every figure of a run, as JSON."""
    return {
        "players": PLAYERS,
        "settings": asdict(settings),
        "game_options": GAME_OPTIONS,
        "seeds": {
            "deals": [settings.eval_seed, settings.eval_seed + settings.games - 1],
            "training_and_search": settings.seed,
        },
        "seconds": round(seconds, 1),
        "processor_seconds": processor,
        "cpus": os.cpu_count(),
        "no_decisions": list(idle),
        "cells": [asdict(c) for c in cells],
    }


def write(out: Path, text: str, figures: dict[str, Any]) -> tuple[Path, Path]:
    """The table as ``out/baselines.md`` and the figures as ``out/baselines.json``."""
    out.mkdir(parents=True, exist_ok=True)
    markdown, data = out / "baselines.md", out / "baselines.json"
    markdown.write_text(text, encoding="utf-8")
    data.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return markdown, data


def check(settings: Settings) -> str | None:
    """What is wrong with ``settings``, or None."""
    if settings.games < 1 or settings.timesteps < 0 or settings.workers < 1:
        return "--games and --workers must be at least 1, --timesteps at least 0"
    if settings.simulations < 2 or settings.rollout_length < 1:
        return "--simulations must be at least 2 (OpenSpiel's ISMCTS), --rollout-length 1"
    if settings.seed < 0 or settings.eval_seed < 0:
        return "seeds must be whole numbers from 0"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tiny run (figures meaningless)")
    parser.add_argument("--timesteps", type=int, help=f"PPO training steps ({FULL.timesteps})")
    parser.add_argument("--games", type=int, help=f"games against each bot ({FULL.games})")
    parser.add_argument("--simulations", type=int, help=f"ISMCTS simulations ({FULL.simulations})")
    parser.add_argument(
        "--rollout-length", type=int, help=f"actions a rollout at most ({FULL.rollout_length})"
    )
    parser.add_argument("--seed", type=int, help=f"training and search seed ({FULL.seed})")
    parser.add_argument("--eval-seed", type=int, help=f"first deal seed ({FULL.eval_seed})")
    parser.add_argument("--workers", type=int, help=f"processes ({FULL.workers})")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder of the two files")
    args = parser.parse_args(argv)
    given = {
        key: value
        for key, value in vars(args).items()
        if key in Settings.__dataclass_fields__ and value is not None
    }
    settings = replace(QUICK if args.quick else FULL, **given)
    wrong = check(settings)
    if wrong:
        parser.error(wrong)
    playing, idle = measured_games()
    print(
        f"baselines at {PLAYERS} players: {', '.join(playing)} ({', '.join(idle) or 'none'} "
        f"without decisions); {settings}",
        flush=True,
    )
    started = time.perf_counter()
    cells, processor = measure(settings, playing)
    seconds = time.perf_counter() - started
    text = table(cells, idle, settings)
    markdown, data = write(args.out, text, report(cells, idle, settings, seconds, processor))
    print(text)
    print(f"{seconds:.0f} s; wrote {markdown} and {data}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
