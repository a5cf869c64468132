"""Difficulty levels people understand: ``easy``, ``medium``, ``hard``, ``expert``.

Each level is one fixed setting, the same every game, with its strength measured by
``benchmarks/bench_strength.py`` (the README's "Difficulty levels" table):

- ``easy``: the game's heuristic, but every other move (on average) any legal move at random
  (the game's strategy may say otherwise: every move);
- ``medium``: the game's heuristic (rules of thumb, no search);
- ``hard``: the search (:class:`~parlour.bots.ismcts.Ismcts`) with a small budget;
- ``expert``: the search with the game's tuned setting, at most about a second a decision.

A search setting is a :class:`~parlour.core.strategy.SearchSetting`. Each game's strategy
carries its settings tuned by measurement (``Strategy.levels``); games without a tuned one get
the :class:`~parlour.core.strategy.Strategy` defaults (``hard``) and four times its budget
(``expert``).
"""

from __future__ import annotations

import random
from dataclasses import replace

from parlour.core.game import Action, Agent, View
from parlour.core.strategy import CARELESS, SearchSetting, Strategy

__all__ = [
    "LEVELS",
    "Careless",
    "default_setting",
    "level_setting",
    "slip_for",
]

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels, weakest first."""


def slip_for(strategy: Strategy) -> float:
    """How often ``easy`` plays a random move in a game (its strategy's ``easy_slip``)."""
    return strategy.easy_slip


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


def default_setting(strategy: Strategy) -> SearchSetting:
    """The search every ``ismcts`` spec starts from: the game's strategy as it stands."""
    return SearchSetting(
        strategy.budget, strategy.policy, strategy.rollout_actions, strategy.exploration
    )


def level_setting(level: str, strategy: Strategy) -> SearchSetting:
    """The search setting of ``hard`` or ``expert`` for a game: its strategy's tuned setting,
    or the strategy's defaults (``expert``: four times the budget)."""
    tuned = strategy.levels.get(level)
    if tuned is not None:
        return tuned
    base = default_setting(strategy)
    return base if level == "hard" else replace(base, iterations=4 * base.iterations)
