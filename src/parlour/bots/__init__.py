"""Agents that see only views (random, heuristic, ISMCTS) and the arena that measures them.

Agent specs, as the arena and play commands take them: ``random``, ``heuristic``, ``ismcts``
(the default budget), ``ismcts:500`` (iterations, deterministic per seed), ``ismcts:1s``
(seconds), and ``ismcts:500:heuristic`` or ``ismcts:500:random`` to choose the rollout policy
(random by default; the heuristic is stronger per rollout and slower).
"""

from __future__ import annotations

from parlour.bots.ismcts import Ismcts, SearchBudget
from parlour.bots.random_agent import RandomAgent
from parlour.core.game import Agent, Game
from parlour.errors import InvalidOption
from parlour.games.beor.strategy import BeorHeuristic
from parlour.games.beor.strategy import evaluate as beor_evaluate
from parlour.games.death.strategy import DeathHeuristic
from parlour.games.death.strategy import candidates as death_candidates
from parlour.games.death.strategy import evaluate as death_evaluate

__all__ = ["AGENT_KINDS", "DEFAULT_BUDGET", "Ismcts", "RandomAgent", "SearchBudget", "make_agent"]

AGENT_KINDS = ("random", "heuristic", "ismcts")
# Iterations per decision by default: about 50 ms on the project's 2-core machines.
DEFAULT_BUDGET = {"beor": 400, "death": 100}
# Rollout length: BEOR scores the leaf at once (random play only spoils hands, and the
# evaluation reads every hand of the dealt-out world); the Game of Death plays on to the end.
_ROLLOUT_ACTIONS = {"beor": 0, "death": 60}
_DEFAULT_POLICY = {"beor": "random", "death": "random"}
# UCB exploration: BEOR's leaf evaluations differ little between moves, so it explores less.
_EXPLORATION = {"beor": 0.25, "death": 0.7}


def make_agent(spec: str, game: Game) -> Agent:
    """The agent a spec names, for ``game``.

    Raises:
        InvalidOption: an unknown kind, a bad budget, or a game without decisions.
    """
    if game.name not in DEFAULT_BUDGET:
        raise InvalidOption(f"{game.title} has no decisions to make: there are no agents for it")
    kind, _, rest = spec.strip().lower().partition(":")
    if kind == "random" and not rest:
        return RandomAgent()
    heuristic: Agent = BeorHeuristic() if game.name == "beor" else DeathHeuristic()
    if kind == "heuristic" and not rest:
        return heuristic
    if kind != "ismcts":
        raise InvalidOption(
            f"unknown agent {spec!r}: agents are random, heuristic, ismcts, ismcts:N "
            "(iterations), ismcts:Ns (seconds), ismcts:N:random (random rollouts)"
        )
    budget_text, _, policy = rest.partition(":")
    budget = _budget(spec, budget_text, DEFAULT_BUDGET[game.name])
    policy = policy or _DEFAULT_POLICY[game.name]
    if policy not in ("heuristic", "random"):
        raise InvalidOption(f"agent {spec!r}: the rollout policy is heuristic or random")
    evaluate = beor_evaluate if game.name == "beor" else death_evaluate
    return Ismcts(
        game,
        evaluate,
        budget,
        rollout=None if policy == "random" else heuristic,
        rollout_actions=_ROLLOUT_ACTIONS[game.name],
        exploration=_EXPLORATION[game.name],
        candidates=death_candidates if game.name == "death" else None,
        name=spec.strip().lower(),
    )


def _budget(spec: str, text: str, default: int) -> SearchBudget:
    if not text:
        return SearchBudget(iterations=default)
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds > 0:
                return SearchBudget(seconds=seconds)
        elif int(text) > 0:
            return SearchBudget(iterations=int(text))
    except ValueError:
        pass
    raise InvalidOption(
        f"agent {spec!r}: the budget is a number of iterations (500) or seconds (1s)"
    )
