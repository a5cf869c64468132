"""Information-set Monte Carlo tree search (single-observer ISMCTS, n players).

Each iteration deals a full state consistent with the agent's view (``Game.sample``), walks the
tree of action strings from the root choosing by UCB among the actions available in that deal
(availability counts, as ISMCTS does for hidden information), adds one node, plays a rollout
(random or the game's heuristic) for a bounded number of actions, and scores the end with the
game's evaluation (the result once the game is over). Every node keeps rewards for the player
who acted into it. The agent sees only its view, so it cannot cheat; with an iteration budget
and a seed it is deterministic.

Two refinements, both off unless asked for:

- *Progressive bias* (``prior``, ``prior_weight``): at the root, the move the game's heuristic
  would make gets ``prior_weight / (visits + 1)`` added to its UCB value, so the search starts
  from the heuristic's choice and leaves it only when its own figures say so; with
  ``prior_everywhere`` at every node of the tree too (the heuristic then reads the mover's view
  of the sampled world there, as it would in a rollout).
- *Compiled rollouts* (``playout``): a game's :data:`~parlour.core.strategy.Playout` plays
  the rollout in compiled code (the same policy, seeded from the search's generator) and
  scores where it ended, instead of ``State.apply`` move by move.
- *Playing for the result* (``result_weight``): once a rollout reaches the game's end, the
  reward is ``result_weight`` times the outcome's returns (the game's own objective, e.g. G12's
  "fewest drinks wins") plus the rest of the evaluation's soft score (how far behind a seat
  finished), so the search maximises its chance of winning and only then its margin.

:class:`~parlour.bots.oracle.Oracle` runs the same search on the true state (measurement only).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from parlour.core.game import Action, Agent, Game, State, View
from parlour.core.strategy import Playout, PlayoutEnd

__all__ = ["Ismcts", "SearchBudget"]

Evaluate = Callable[[State], tuple[float, ...]]
Candidates = Callable[[tuple[Action, ...]], tuple[Action, ...]]
Worlds = Callable[[random.Random], State]


def _all(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    return actions


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[str, _Node] = {}


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """Iterations (deterministic per seed) or seconds of thinking per decision; with both, the
    search stops at whichever comes first (a server's cap on a search's time: the iterations
    stay deterministic as long as the seconds do not run out first)."""

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.seconds is None:
            return f"{self.iterations}"
        if self.iterations is None:
            return f"{self.seconds:g}s"
        return f"{self.iterations} or {self.seconds:g}s"


class Ismcts:
    """ISMCTS over ``game.sample`` (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        evaluate: Evaluate,
        budget: SearchBudget,
        *,
        rollout: Agent | None = None,
        rollout_actions: int = 40,
        exploration: float = 0.7,
        candidates: Candidates | None = None,
        prior: Agent | None = None,
        prior_weight: float = 0.0,
        result_weight: float = 0.0,
        prior_everywhere: bool = False,
        playout: Playout | None = None,
        name: str = "ismcts",
    ) -> None:
        if prior_weight < 0 or not 0 <= result_weight <= 1:
            raise ValueError("prior_weight is at least 0 and result_weight is in [0, 1]")
        self.game = game
        self.evaluate = evaluate
        self.budget = budget
        self.rollout = rollout
        self.rollout_actions = rollout_actions
        self.exploration = exploration
        # The actions worth searching among the legal ones (a game may merge equivalent ones).
        self.candidates = candidates or _all
        self.prior = prior
        self.prior_weight = prior_weight
        self.result_weight = result_weight
        self.prior_everywhere = prior_everywhere
        self.playout = playout
        self.name = name

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        game = self.game
        return self._search(lambda r: game.sample(view, r), view, legal_actions, rng)

    def visits(
        self, view: View, legal_actions: tuple[Action, ...], rng: random.Random
    ) -> dict[str, int]:
        """How often the search visited each root action (in notation) for this decision."""
        game = self.game
        root, _ = self._tree(lambda r: game.sample(view, r), view, legal_actions, rng)
        return {k: child.visits for k, child in root.children.items()}

    def _search(
        self, worlds: Worlds, view: View, legal_actions: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """The most visited root action after the budget's iterations over ``worlds``."""
        legal_actions = self.candidates(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        root, favoured = self._tree(worlds, view, legal_actions, rng)
        by_key = {str(a): a for a in legal_actions}
        order = {k: i for i, k in enumerate(by_key)}
        scored = [(root.children[k].visits, k) for k in by_key if k in root.children]
        if not scored:
            return legal_actions[rng.randrange(len(legal_actions))]
        # Most visits; ties go to the heuristic's move, then the first in the listed order.
        best = max(scored, key=lambda vk: (vk[0], vk[1] == favoured, -order[vk[1]]))
        return by_key[best[1]]

    def _tree(
        self, worlds: Worlds, view: View, legal_actions: tuple[Action, ...], rng: random.Random
    ) -> tuple[_Node, str | None]:
        """The root after the budget's iterations or seconds (whichever ends first), and the
        heuristic's move (with a prior)."""
        favoured: str | None = None
        if self.prior is not None and self.prior_weight > 0:
            favoured = str(self.prior.choose(view, self.candidates(legal_actions), rng))
        root = _Node()
        deadline = (
            None if self.budget.seconds is None else time.perf_counter() + self.budget.seconds
        )
        iterations = self.budget.iterations
        if iterations is None and deadline is None:
            iterations = 0
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, worlds(rng), rng, favoured)
            done += 1
        return root, favoured

    def _iterate(
        self,
        root: _Node,
        state: State,
        rng: random.Random,
        favoured: str | None,
        first: Action | None = None,
    ) -> tuple[float, ...]:
        """One iteration from ``root`` over the world ``state``; its rewards, one a seat.
        ``first`` (a review's root, :mod:`parlour.bots.review`) is the root action to take
        instead of the one UCB would choose."""
        node = root
        path: list[tuple[_Node, int]] = []
        c = self.exploration
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            actions = self.candidates(state.legal_actions())
            if first is not None:
                actions, first = (first,), None
            untried: list[tuple[str, Action]] = []
            best: tuple[float, str, Action] | None = None
            bias = self.prior_weight if node is root or self.prior_everywhere else 0.0
            if bias and node is not root:
                assert self.prior is not None
                favoured = str(self.prior.choose(state.view(mover), actions, rng))
            for action in actions:
                key = str(action)
                child = node.children.get(key)
                if child is None:
                    untried.append((key, action))
                    continue
                child.avail += 1
                value = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if bias and key == favoured:
                    value += bias / (child.visits + 1)
                if best is None or value > best[0]:
                    best = (value, key, action)
            if untried:
                pick = next((u for u in untried if u[0] == favoured), None) if bias else None
                key, action = pick or untried[rng.randrange(len(untried))]
                child = _Node()
                child.avail = 1
                node.children[key] = child
                path.append((child, mover))
                state = state.apply(action)
                break
            assert best is not None
            node = node.children[best[1]]
            path.append((node, mover))
            state = state.apply(best[2])
        rewards = self._score(self._rollout(state, rng))
        for child, mover in path:
            child.visits += 1
            child.total += rewards[mover]
        return rewards

    def _score(self, end: PlayoutEnd) -> tuple[float, ...]:
        soft, returns = end
        weight = self.result_weight
        if returns is None or not weight:
            return soft
        return tuple(weight * r + (1 - weight) * s for r, s in zip(returns, soft, strict=True))

    def _rollout(self, state: State, rng: random.Random) -> PlayoutEnd:
        """Play on from ``state`` (compiled when the game has a playout) and score the end."""
        if self.playout is not None and self.rollout_actions and not state.is_over:
            seed = rng.getrandbits(63)
            return self.playout(state, seed, self.rollout_actions, self.rollout is not None)
        for _ in range(self.rollout_actions):
            if state.is_over:
                break
            legal = self.candidates(state.legal_actions())
            if self.rollout is None:
                action = legal[rng.randrange(len(legal))]
            else:
                seat = state.to_move
                action = self.rollout.choose(state.view(seat), legal, rng)
            state = state.apply(action)
        outcome = state.outcome
        return self.evaluate(state), None if outcome is None else outcome.returns
