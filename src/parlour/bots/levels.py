"""Difficulty levels people understand: ``easy``, ``medium``, ``hard``, ``expert``.

Each level is one fixed setting, the same every game, with its strength measured by
``benchmarks/bench_strength.py`` (the README's "Difficulty levels" table):

- ``easy``: the game's heuristic, but every other move (on average) any legal move at random
  (in the Game of Death every move, see :data:`SLIPS`);
- ``medium``: the game's heuristic (rules of thumb, no search);
- ``hard``: the search (:class:`~parlour.bots.ismcts.Ismcts`) with a small budget;
- ``expert``: the search with the game's tuned setting, at most about a second a decision.

A search setting is a :class:`SearchSetting`; games without a tuned one get the
:class:`~parlour.core.strategy.Strategy` defaults (``hard``) and four times its budget
(``expert``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from parlour.core.game import Action, Agent, View
from parlour.core.strategy import Strategy
from parlour.games.death.notation import Give

__all__ = [
    "LEVELS",
    "SLIPS",
    "Careless",
    "SearchSetting",
    "default_setting",
    "level_setting",
    "slip_for",
    "split_gives",
    "wider_candidates",
]

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels, weakest first."""

CARELESS = 0.5
"""How often ``easy`` plays a random legal move instead of the heuristic's."""

SLIPS = {"death": 1.0}
"""Games where ``easy`` slips more often than :data:`CARELESS`: in the Game of Death the
heuristic barely beats random moves with 4 players (random against three heuristics won 21.4%
[19.0, 24.0] of 1,000 games, parity 25%; the half-careless heuristic 25.8% [23.2, 28.6]), so
only random moves play clearly worse than ``medium``."""


def slip_for(game_name: str) -> float:
    """How often ``easy`` plays a random move in a game."""
    return SLIPS.get(game_name, CARELESS)


class Careless:
    """The heuristic, except that a share ``slip`` of its moves is any legal move at random."""

    def __init__(self, heuristic: Agent, slip: float = CARELESS, name: str = "easy") -> None:
        self.heuristic = heuristic
        self.slip = slip
        self.name = name

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        if rng.random() < self.slip:
            return legal_actions[rng.randrange(len(legal_actions))]
        return self.heuristic.choose(view, legal_actions, rng)


@dataclass(frozen=True, slots=True)
class SearchSetting:
    """How a search is set up.

    Attributes:
        iterations: iterations per decision (deterministic per seed).
        policy: the rollout policy, ``random`` or ``heuristic``.
        rollout_actions: actions a rollout plays before the evaluation scores it.
        exploration: the UCB exploration constant.
        prior_weight: progressive bias toward the heuristic's move at the root (0: none).
        result_weight: the share of the reward that is the game's result once a rollout ends.
        prior_everywhere: the progressive bias at every node, not only the root.
        narrow: whether the game's ``candidates`` narrow the actions searched (``False``: the
            search sees the wider set of :func:`wider_candidates`, e.g. the Game of Death's
            split gives).
    """

    iterations: int
    policy: str
    rollout_actions: int
    exploration: float
    prior_weight: float = 0.0
    result_weight: float = 0.0
    narrow: bool = True
    prior_everywhere: bool = False


def default_setting(strategy: Strategy) -> SearchSetting:
    """The search every ``ismcts`` spec starts from: the game's strategy as it stands."""
    return SearchSetting(
        strategy.budget, strategy.policy, strategy.rollout_actions, strategy.exploration
    )


def split_gives(legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """The Game of Death's gives worth a search (G5: a give may be split between players):
    to each player, all the drinks left or, with three players or more, half of them (the
    rest goes in a later give). With one player to give to a split changes nothing, so only
    the whole give is searched. Other decisions: every legal action."""
    gives = [a for a in legal if isinstance(a, Give)]
    if not gives:
        return legal
    left = max(a.drinks for a in gives)
    seats = {a.seat for a in gives}
    wanted = {left} if len(seats) < 2 else {left, left // 2}
    return tuple(a for a in gives if a.drinks in wanted)


_WIDER: dict[str, Callable[[tuple[Action, ...]], tuple[Action, ...]]] = {"death": split_gives}


def wider_candidates(
    game_name: str,
) -> Callable[[tuple[Action, ...]], tuple[Action, ...]] | None:
    """The actions a search with ``narrow=False`` explores (``None``: every legal action)."""
    return _WIDER.get(game_name)


# Tuned by measurement (benchmarks/bench_strength.py; the README's table gives the figures).
_TUNED: dict[str, dict[str, SearchSetting]] = {
    "beor": {
        "hard": SearchSetting(400, "random", 0, 0.1, prior_weight=2.0),
        "expert": SearchSetting(1600, "random", 0, 0.1, prior_weight=2.0),
    },
    "death": {
        "hard": SearchSetting(50, "heuristic", 200, 0.7, result_weight=0.8),
        "expert": SearchSetting(200, "heuristic", 200, 0.7, result_weight=0.8, narrow=False),
    },
}


def level_setting(level: str, game_name: str, strategy: Strategy) -> SearchSetting:
    """The search setting of ``hard`` or ``expert`` for a game."""
    tuned = _TUNED.get(game_name, {}).get(level)
    if tuned is not None:
        return tuned
    base = default_setting(strategy)
    return base if level == "hard" else replace(base, iterations=4 * base.iterations)
