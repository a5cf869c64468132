"""Seeded playouts shared by the conformance tests: every registered game at every player count,
made once per test session and kept.

Each case (a game and a player count) has one playout from seed 0: with the default options
at the game's smallest player count, with every switch turned the other way at the next, and
so on by turns, so options travel through JSON, views and ``sample`` too. A game with
decisions is played half by its heuristic and half at random, each choice drawn from the
playout's seeded generator: the heuristic reaches the rules' ends (a BEOR goal, B5) in a few
hundred turns where random play runs to the turn limit, and the random half makes moves a
heuristic never would.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import product

from parlour.bots import make_agent
from parlour.core import JSON, Action, Game, OptionSpec, OptionValue, State
from parlour.games import GAMES

__all__ = [
    "CASES",
    "Case",
    "Playout",
    "action_pool",
    "case_id",
    "other_options",
    "play",
    "playouts",
    "random_position",
    "seats",
    "spread",
]

Case = tuple[str, int]
"""A registered game's name and a player count."""

CASES: list[Case] = [
    (name, players)
    for name in sorted(GAMES)
    for players in range(GAMES[name].info.min_players, GAMES[name].info.max_players + 1)
]


def case_id(case: Case) -> str:
    return f"{case[0]}-{case[1]}p"


@dataclass(frozen=True)
class Playout:
    """One game from its deal to its end: every state, and the action that led to the next."""

    game: Game
    players: int
    seed: int
    options: Mapping[str, OptionValue]
    states: tuple[State, ...]
    actions: tuple[Action, ...]

    @property
    def final(self) -> State:
        return self.states[-1]

    @cached_property
    def jsons(self) -> tuple[dict[str, JSON], ...]:
        """``to_json()`` of every state, written once: what the states must still write after
        anything is tried on them, and what replays and restored states must write."""
        return tuple(s.to_json() for s in self.states)

    def where(self, index: int) -> str:
        """Names a state for a failure message: enough to replay it."""
        return (
            f"{self.game.name} {self.players}p seed {self.seed} options {dict(self.options)} "
            f"after {index} actions"
        )


def seats(state: State) -> list[int | None]:
    """Every seat and the spectator (``None``)."""
    return [None, *range(state.players)]


def spread(count: int, k: int = 6) -> list[int]:
    """About ``k`` indices spread over ``range(count)``, first and last included."""
    if count <= k:
        return list(range(count))
    return sorted({round(j * (count - 1) / (k - 1)) for j in range(k)})


def _other(spec: OptionSpec) -> OptionValue:
    if spec.kind == "bool":
        return not spec.default
    if spec.kind == "choice":
        return next(c for c in spec.choices if c != spec.default)
    if spec.kind == "players":
        return (1,)
    return spec.default  # a number would change how long games are, not what they exercise


def other_options(game: Game) -> dict[str, OptionValue]:
    """Every switch of ``game`` turned away from its default (numbers keep theirs)."""
    return {spec.name: _other(spec) for spec in game.info.options}


def random_position(game: Game, players: int, seed: int, steps: int) -> State:
    """The position after at most ``steps`` uniformly random moves from the deal of ``seed``
    (fewer when the game ends first), every choice drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    state = game.new(players, seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def play(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, OptionValue] | None = None,
    *,
    heuristic: bool = True,
) -> Playout:
    """A game from ``seed`` to its end, half by the heuristic (when ``heuristic`` and the game
    has decisions) and half at random, every choice drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    agent = make_agent("heuristic", game) if heuristic and game.info.decisions else None
    state = game.new(players, seed, dict(options or {}))
    states, actions = [state], []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"{game.name}: a game that is not over offers a legal action"
        mover = state.to_move
        if agent is not None and mover is not None and rng.random() < 0.5:
            action = agent.choose(state.view(mover), legal, rng)
        else:
            action = legal[rng.randrange(len(legal))]
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return Playout(game, players, seed, dict(options or {}), tuple(states), tuple(actions))


@cache
def playouts(case: Case) -> tuple[Playout, ...]:
    """The case's playouts, from seed 0: with the default options at the game's smallest
    player count, the other options at the next, and so on by turns (one playout a case keeps
    the suite quick; a second would mostly repeat the first)."""
    name, players = case
    game = GAMES[name]
    turned = (players - game.info.min_players) % 2 == 1
    return (play(game, players, 0, other_options(game) if turned else None),)


def _codec_actions(game: Game) -> Iterator[Action]:
    for i in range(game.info.num_distinct_actions):
        yield game.action_from_id(i)


def _recombined(actions: Iterable[Action], limit: int = 5000) -> Iterator[Action]:
    """Actions made by giving each field of an action the values that field takes in other
    actions of its kind: from ``4S>black`` and ``5C>odd`` comes ``4S>odd``, which may be legal
    nowhere (a card on a base whose theme it does not fit), so neither play nor a codec that
    numbers only actions that can be legal would ever offer it."""
    by_kind: dict[type[Action], list[Action]] = {}
    for action in actions:
        if dataclasses.is_dataclass(action):
            by_kind.setdefault(type(action), []).append(action)
    for kind, seen in by_kind.items():
        names = [f.name for f in dataclasses.fields(kind) if f.init]  # type: ignore[arg-type]
        values = [list(dict.fromkeys(getattr(a, name) for a in seen)) for name in names]
        if not names or math.prod(len(v) for v in values) > limit:
            continue
        for combination in product(*values):
            try:
                yield kind(**dict(zip(names, combination, strict=True)))
            except (ValueError, TypeError):
                continue  # a combination the action's own checks refuse to build


@cache
def action_pool(case: Case) -> tuple[Action, ...]:
    """Every action legal somewhere in the case's playout, every action of the integer codec,
    and their fields recombined, in a fixed order: the actions that states must refuse unless
    legal there."""
    game = GAMES[case[0]]
    seen: dict[Action, None] = {}
    for p in playouts(case):
        for state in p.states:
            seen.update(dict.fromkeys(state.legal_actions()))
    seen.update(dict.fromkeys(_codec_actions(game)))
    seen.update(dict.fromkeys(_recombined(list(seen))))
    return tuple(seen)
