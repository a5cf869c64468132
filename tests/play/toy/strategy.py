"""Race to Seven's bot parts: the random player serves as its heuristic."""

from __future__ import annotations

from parlour.bots import RandomAgent
from parlour.core.game import State
from parlour.core.strategy import Strategy


def _evaluate(state: State) -> tuple[float, ...]:
    return tuple(0.5 for _ in range(state.players))


STRATEGY = Strategy(RandomAgent, _evaluate, None, 10, 5, "random", 1.0)
