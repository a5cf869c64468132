"""What a game gives its bots: a heuristic player, a position evaluation and search settings.

Each game with decisions exports ``STRATEGY`` from its ``strategy.py``; ``bots/`` builds every
agent from it, so no bot code knows a game by name. Games without decisions have none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parlour.core.game import Action, Agent, State
from parlour.core.inputs import quote

__all__ = ["POLICIES", "Strategy"]

POLICIES = ("random", "heuristic")
"""The rollout policies a search may use: uniformly random actions, or the game's heuristic."""


@dataclass(frozen=True, slots=True)
class Strategy:
    """A game's bot parts.

    Attributes:
        heuristic: makes the game's fast rule-of-thumb player (an :class:`Agent`).
        evaluate: a position's value to each seat, in ``[0, 1]``, for search leaves.
        candidates: narrows the legal actions a search explores (``None``: all of them).
        budget: ISMCTS iterations per decision by default (about 50 ms on a 2-core machine).
        rollout_actions: how many actions a rollout plays before ``evaluate`` scores it.
        policy: the default rollout policy, ``random`` or ``heuristic``.
        exploration: the UCB exploration constant.
        seat_figures: per-seat figures of the game's :class:`~parlour.core.game.Outcome`
            ``details`` (lists with one number a seat) that the arena averages for each agent
            besides its wins, e.g. the Game of Death's ``drinks_taken``.
    """

    heuristic: Callable[[], Agent]
    evaluate: Callable[[State], tuple[float, ...]]
    candidates: Callable[[tuple[Action, ...]], tuple[Action, ...]] | None
    budget: int
    rollout_actions: int
    policy: str
    exploration: float
    seat_figures: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.budget < 1:
            raise ValueError(f"a strategy's budget is at least 1 iteration, got {self.budget}")
        if self.rollout_actions < 0:
            raise ValueError(
                f"a strategy's rollout_actions is at least 0, got {self.rollout_actions}"
            )
        if self.policy not in POLICIES:
            raise ValueError(
                f"a strategy's policy is one of {', '.join(POLICIES)}, got {quote(self.policy)}"
            )
        if not self.exploration >= 0:
            raise ValueError(f"a strategy's exploration is at least 0, got {self.exploration}")
