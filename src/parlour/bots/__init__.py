"""Agents that see only views (random, heuristic, ISMCTS) and the arena that measures them.

Agent specs, as the arena and play commands take them: ``random``, ``heuristic``, ``ismcts``
(the game's default budget), ``ismcts:500`` (iterations, deterministic per seed), ``ismcts:1s``
(seconds), and ``ismcts:500:heuristic`` or ``ismcts:500:random`` to choose the rollout policy
(the game's default otherwise; the heuristic is stronger per rollout and slower). Every agent
is built from the game's :class:`~parlour.core.strategy.Strategy` (``game.strategy``), so no
code here knows a game by name.
"""

from __future__ import annotations

import math

from parlour.bots.ismcts import Ismcts, SearchBudget
from parlour.bots.random_agent import RandomAgent
from parlour.core.game import Agent, Game
from parlour.core.strategy import POLICIES
from parlour.errors import InvalidOption

__all__ = ["Ismcts", "RandomAgent", "SearchBudget", "make_agent"]


def make_agent(spec: str, game: Game) -> Agent:
    """The agent a spec names, for ``game``.

    Raises:
        InvalidOption: an unknown kind, a bad budget, or a game without decisions.
    """
    strategy = game.strategy
    if strategy is None:
        raise InvalidOption(f"{game.title} has no decisions to make: there are no agents for it")
    kind, _, rest = spec.strip().lower().partition(":")
    if kind == "random" and not rest:
        return RandomAgent()
    if kind == "heuristic" and not rest:
        return strategy.heuristic()
    if kind != "ismcts":
        raise InvalidOption(
            f"unknown agent {spec!r}: agents are random, heuristic, ismcts, ismcts:N "
            "(iterations), ismcts:Ns (seconds), ismcts:N:random (random rollouts)"
        )
    budget_text, _, policy = rest.partition(":")
    budget = _budget(spec, budget_text, strategy.budget)
    policy = policy or strategy.policy
    if policy not in POLICIES:
        raise InvalidOption(f"agent {spec!r}: the rollout policy is heuristic or random")
    return Ismcts(
        game,
        strategy.evaluate,
        budget,
        rollout=None if policy == "random" else strategy.heuristic(),
        rollout_actions=strategy.rollout_actions,
        exploration=strategy.exploration,
        candidates=strategy.candidates,
        name=spec.strip().lower(),
    )


def _budget(spec: str, text: str, default: int) -> SearchBudget:
    if not text:
        return SearchBudget(iterations=default)
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if 0 < seconds < math.inf:
                return SearchBudget(seconds=seconds)
        elif int(text) > 0:
            return SearchBudget(iterations=int(text))
    except ValueError:
        pass
    raise InvalidOption(
        f"agent {spec!r}: the budget is a number of iterations (500) or seconds (1s)"
    )
