"""What a game gives its bots: a heuristic player, a position evaluation and search settings.

Each game with decisions exports ``STRATEGY`` from its ``strategy.py``; ``bots/`` builds every
agent from it, so no bot code knows a game by name. Games without decisions have none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from parlour.core.game import Action, Agent, State, View
from parlour.core.inputs import quote

__all__ = ["CARELESS", "POLICIES", "Playout", "PlayoutEnd", "SearchSetting", "Strategy"]

POLICIES = ("random", "heuristic")
"""The rollout policies a search may use: uniformly random actions, or the game's heuristic."""


PlayoutEnd = tuple[tuple[float, ...], tuple[float, ...] | None]
"""Where a playout ended, scored: the evaluation's soft rewards of that position and, if the
game is over there, the outcome's returns (``None`` otherwise)."""

Playout = Callable[[State, int, int, bool], PlayoutEnd]
"""A compiled rollout: from a state, a seed, the most actions to play and whether every seat
plays the game's heuristic (else uniformly random moves), the :data:`PlayoutEnd` it reached.
Deterministic per seed."""


CARELESS = 0.5
"""How often the ``easy`` level plays a random legal move instead of the heuristic's, unless
the game's :attr:`Strategy.easy_slip` says otherwise."""


@dataclass(frozen=True, slots=True)
class SearchSetting:
    """How a search is set up (a difficulty level's search, :mod:`parlour.bots.levels`).

    Attributes:
        iterations: iterations per decision (deterministic per seed).
        policy: the rollout policy, ``random`` or ``heuristic``.
        rollout_actions: actions a rollout plays before the evaluation scores it.
        exploration: the UCB exploration constant.
        prior_weight: progressive bias toward the heuristic's move at the root (0: none).
        result_weight: the share of the reward that is the game's result once a rollout ends.
        narrow: whether the strategy's ``candidates`` narrow the actions searched (``False``:
            the search sees the strategy's ``wide_candidates``, e.g. a game's split
            gives).
        prior_everywhere: the progressive bias at every node, not only the root.
    """

    iterations: int
    policy: str
    rollout_actions: int
    exploration: float
    prior_weight: float = 0.0
    result_weight: float = 0.0
    narrow: bool = True
    prior_everywhere: bool = False


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
            besides its wins, e.g. a game's ``drinks_taken``.
        levels: the game's search settings tuned by measurement for the ``hard`` and
            ``expert`` levels (``benchmarks/bench_strength.py``); a level missing here uses
            the defaults above (``expert``: four times the budget).
        wide_candidates: the actions a search with ``narrow=False`` explores (``None``: every
            legal action).
        easy_slip: how often the ``easy`` level plays a random legal move.
        playout: the game's compiled rollout (:data:`Playout`), which searches use in place
            of playing rollouts through ``State.apply`` (``None``: the game has none).
        show_hands: for measurement only (:mod:`parlour.bots.oracle`, ``oracle-hands``): a
            seat's view of a state with every hand shown to it, the rest still hidden (in
            a game, the order of face-down stocks). ``None``: the hands are all a game hides,
            so the ``oracle`` already measures them.
    """

    heuristic: Callable[[], Agent]
    evaluate: Callable[[State], tuple[float, ...]]
    candidates: Callable[[tuple[Action, ...]], tuple[Action, ...]] | None
    budget: int
    rollout_actions: int
    policy: str
    exploration: float
    seat_figures: tuple[str, ...] = ()
    levels: Mapping[str, SearchSetting] = field(default_factory=dict)
    wide_candidates: Callable[[tuple[Action, ...]], tuple[Action, ...]] | None = None
    easy_slip: float = CARELESS
    playout: Playout | None = None
    show_hands: Callable[[State, int], View] | None = None

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
