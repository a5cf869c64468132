"""The arena: agents play many seeded games with rotating seats, on all cores, and the results
come with 95% confidence intervals, decision times and, with more than two agents, ratings.

Game ``i`` is dealt from ``derive_seed(seed, "game", i)`` and seat ``s`` plays agent
``(s + i) mod k`` with its own generator from ``derive_seed(seed, "agent", i, s)``, so results do
not depend on the number of workers. Counts are per seat-game: with two agents at a 4-player
table each agent holds two seats, and parity is a win rate of 1/4.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from parlour.bots import make_agent
from parlour.core.game import JSON, Game
from parlour.core.record import Record
from parlour.core.rng import derive_seed
from parlour.core.state import State
from parlour.errors import InvalidOption
from parlour.games import find_game

__all__ = [
    "ArenaReport",
    "GameResult",
    "Played",
    "play_game",
    "play_to_end",
    "run_arena",
    "seat_plan",
    "wilson",
]


def seat_plan(index: int, players: int, agents: int) -> tuple[int, ...]:
    """Which agent sits in each seat in game ``index``: rotated one seat a game."""
    return tuple((seat + index) % agents for seat in range(players))


@dataclass(frozen=True, slots=True)
class GameResult:
    """One arena game: who sat where, how it ended (with the game's per-seat figures, by
    name), and the agents' thinking time."""

    index: int
    plan: tuple[int, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    figures: dict[str, tuple[float, ...]]
    length: int
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Played:
    """A game played to its end by agents: the final state (its log and outcome hold the whole
    game), who sat where, the actions in notation, and each agent's decisions and seconds."""

    state: State
    plan: tuple[int, ...]
    seed: int
    actions: tuple[str, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    deal_number: int | None = None
    """The deal of a match it was (dealt by ``Game.match_deal`` from ``seed``), or None."""

    def record(self, options: Mapping[str, object] | None = None) -> Record:
        """The game's record (``options``: those the game was played with)."""
        state = self.state
        return Record(
            state.game.name,
            state.players,
            self.seed,
            dict(options or {}),
            None,
            self.actions,
            deal_number=self.deal_number,
        )


def play_to_end(
    game_name: str,
    players: int,
    specs: Sequence[str],
    seed: int,
    index: int,
    options: Mapping[str, object] | None = None,
    match: bool = False,
) -> Played:
    """Game ``index`` of a run of ``seed``: dealt from ``derive_seed(seed, "game", index)`` (or,
    with ``match``, deal ``index`` of a match of ``seed``: ``game.match_deal``, the dealer moving
    one seat each deal), seat ``s`` played by agent ``(s + index) mod k`` with its own
    generator."""
    game = find_game(game_name)
    agents = [make_agent(spec, game) for spec in specs]
    plan = seat_plan(index, players, len(specs))
    game_seed = seed if match else derive_seed(seed, "game", index)
    deal = game.match_deal(players, seed, index) if match else None
    if match and deal is None:  # every game of its matches would be the same deal
        raise InvalidOption(f"{game.title} deals no match: no dealer moves between its deals")
    state = game.new(players, game_seed, options, deal)
    rngs = [random.Random(derive_seed(seed, "agent", index, s)) for s in range(players)]
    decisions = [0] * len(specs)
    seconds = [0.0] * len(specs)
    actions: list[str] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        who = plan[seat]
        began = time.perf_counter()
        action = agents[who].choose(state.view(seat), state.legal_actions(), rngs[seat])
        seconds[who] += time.perf_counter() - began
        decisions[who] += 1
        state = state.apply(action)
        actions.append(str(action))
    number = index if match else None
    return Played(state, plan, game_seed, tuple(actions), tuple(decisions), tuple(seconds), number)


def play_game(
    game_name: str,
    players: int,
    specs: Sequence[str],
    seed: int,
    index: int,
    options: Mapping[str, object] | None = None,
) -> GameResult:
    """Play game ``index`` of an arena run (a top-level function, for worker processes)."""
    game = find_game(game_name)
    played = play_to_end(game_name, players, specs, seed, index, options)
    outcome = played.state.outcome
    assert outcome is not None
    figures = {name: _seat_figure(outcome.details, name, players) for name in _figures(game)}
    record = played.record(options)
    return GameResult(
        index,
        played.plan,
        outcome.winners,
        outcome.ranks,
        figures,
        len(played.actions),
        played.decisions,
        played.seconds,
        record.to_json(),
    )


def _figures(game: Game) -> tuple[str, ...]:
    strategy = game.strategy
    return () if strategy is None else strategy.seat_figures


def _seat_figure(details: Mapping[str, JSON], name: str, players: int) -> tuple[float, ...]:
    """One number a seat from ``details[name]``, as the game's strategy declared it."""
    value = details.get(name)
    if not isinstance(value, list) or len(value) != players:
        raise TypeError(f"outcome detail {name!r} is not a list with one number a seat")
    numbers = tuple(v for v in value if isinstance(v, int | float) and not isinstance(v, bool))
    if len(numbers) != players:
        raise TypeError(f"outcome detail {name!r} is not a list with one number a seat")
    return tuple(float(v) for v in numbers)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _ratings(results: Sequence[GameResult], agents: int) -> list[float | None]:
    """Elo-style ratings (Bradley-Terry fitted by minorize-maximize, mean 1500 over the rated
    agents) from every pair of seats with different agents in each game: the better place
    wins, equal places draw. An agent never compared with another (it played no game, or only
    against itself) has no rating (None): nothing measured it, and fitting it anyway would
    push it to an extreme and the others away from 1500."""
    wins = [[0.0] * agents for _ in range(agents)]
    for result in results:
        for a, b in ((a, b) for a in range(len(result.plan)) for b in range(len(result.plan))):
            i, j = result.plan[a], result.plan[b]
            if a < b and i != j:
                ra, rb = result.ranks[a], result.ranks[b]
                share = 1.0 if ra < rb else 0.0 if ra > rb else 0.5
                wins[i][j] += share
                wins[j][i] += 1 - share
    rated = [i for i in range(agents) if any(wins[i][j] + wins[j][i] for j in range(agents))]
    if not rated:
        return [None] * agents
    strength = [1.0] * agents
    for _ in range(200):
        new = list(strength)
        for i in rated:
            total = sum(wins[i])
            denominator = sum(
                (wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in rated if j != i
            )
            new[i] = max(total, 0.5) / denominator if denominator else strength[i]
        scale = math.exp(sum(math.log(new[i]) for i in rated) / len(rated))
        strength = [s / scale for s in new]
    return [1500 + 400 * math.log10(strength[i]) if i in rated else None for i in range(agents)]


@dataclass(frozen=True, slots=True)
class ArenaReport:
    """Per-agent figures of an arena run (see the module docstring)."""

    game: str
    players: int
    seed: int
    specs: tuple[str, ...]
    results: tuple[GameResult, ...]
    figures: tuple[str, ...] = ()
    """The game's per-seat figures (``Strategy.seat_figures``): each agent's mean of each is
    reported as ``mean_NAME``."""

    def agent_figures(self, k: int) -> dict[str, JSON]:
        seat_games = [(r, s) for r in self.results for s, who in enumerate(r.plan) if who == k]
        # Always a float (a shared win counts a part): 0.0 beside 1.0, never 0 beside 1.0.
        wins = float(sum(1 / len(r.winners) for r, s in seat_games if s in r.winners))
        n = len(seat_games)
        decisions = sum(r.decisions[k] for r in self.results)
        seconds = sum(r.seconds[k] for r in self.results)
        lo, hi = wilson(wins, n)
        out: dict[str, JSON] = {
            "name": self.specs[k],
            "games": n,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "ci95": [lo, hi],
        }
        for name in self.figures:
            values = [r.figures[name][s] for r, s in seat_games]
            out[f"mean_{name}"] = sum(values) / len(values) if values else 0.0
        out["seconds_per_decision"] = seconds / decisions if decisions else 0.0
        return out

    def to_json(self) -> dict[str, JSON]:
        lengths = [r.length for r in self.results]
        draws = sum(1 for r in self.results if not r.winners)
        return {
            "game": self.game,
            "players": self.players,
            "games": len(self.results),
            "seed": self.seed,
            "parity": 1 / self.players,
            "draws": draws,
            "agents": [self.agent_figures(k) for k in range(len(self.specs))],
            "mean_length": sum(lengths) / len(lengths) if lengths else 0.0,
            "ratings": (
                None
                if len(self.specs) <= 2
                else dict(zip(self.specs, _ratings(self.results, len(self.specs)), strict=True))
            ),
        }


def run_arena(
    game_name: str,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaReport:
    """Play ``games`` games and gather the report; ``workers`` processes (1: in this one).

    Raises:
        InvalidOption: a bad game, player count, agent spec or option (checked before play).
    """
    game = find_game(game_name)
    game.check_players(players)
    game.options(options)
    names = [spec.strip().lower() for spec in specs]
    if len(set(names)) != len(names):
        raise InvalidOption("name each agent once: seats rotate, so every agent plays every seat")
    for spec in specs:
        make_agent(spec, game)
    done: list[GameResult] = []
    args = [(game.name, players, tuple(specs), seed, i, dict(options or {})) for i in range(games)]
    if workers <= 1:
        for a in args:
            done.append(play_game(*a))
            if progress:
                progress(len(done))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_game, *a) for a in args]
            for future in as_completed(futures):
                done.append(future.result())
                if progress:
                    progress(len(done))
    done.sort(key=lambda r: r.index)
    return ArenaReport(game.name, players, seed, tuple(specs), tuple(done), _figures(game))
