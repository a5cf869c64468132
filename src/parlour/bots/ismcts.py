"""Information-set Monte Carlo tree search (single-observer ISMCTS, n players).

Each iteration deals a full state consistent with the agent's view (``Game.sample``), walks the
tree of action strings from the root choosing by UCB among the actions available in that deal
(availability counts, as ISMCTS does for hidden information), adds one node, plays a rollout
(random or the game's heuristic) for a bounded number of actions, and scores the end with the
game's evaluation (the result once the game is over). Every node keeps rewards for the player
who acted into it. The agent sees only its view, so it cannot cheat; with an iteration budget
and a seed it is deterministic.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from parlour.core.game import Action, Agent, Game, State, View

__all__ = ["Ismcts", "SearchBudget"]

Evaluate = Callable[[State], tuple[float, ...]]
Candidates = Callable[[tuple[Action, ...]], tuple[Action, ...]]


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
    """Iterations (deterministic per seed) or seconds of thinking per decision."""

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.iterations}" if self.iterations is not None else f"{self.seconds:g}s"


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
        name: str = "ismcts",
    ) -> None:
        self.game = game
        self.evaluate = evaluate
        self.budget = budget
        self.rollout = rollout
        self.rollout_actions = rollout_actions
        self.exploration = exploration
        # The actions worth searching among the legal ones (a game may merge equivalent ones).
        self.candidates = candidates or _all
        self.name = name

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        legal_actions = self.candidates(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        by_key = {str(a): a for a in legal_actions}
        root = _Node()
        deadline = (
            None if self.budget.seconds is None else time.perf_counter() + self.budget.seconds
        )
        iterations = self.budget.iterations or 0
        done = 0
        while True:
            if deadline is not None:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= iterations:
                break
            self._iterate(root, view, rng)
            done += 1
        scored = [(root.children[k].visits, k) for k in by_key if k in root.children]
        if not scored:
            return legal_actions[rng.randrange(len(legal_actions))]
        # Most visits; ties go to the first in the listed order, which is fixed.
        best = max(scored, key=lambda vk: (vk[0], -list(by_key).index(vk[1])))
        return by_key[best[1]]

    def _iterate(self, root: _Node, view: View, rng: random.Random) -> None:
        state = self.game.sample(view, rng)
        node = root
        path: list[tuple[_Node, int]] = []
        c = self.exploration
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            actions = self.candidates(state.legal_actions())
            untried: list[tuple[str, Action]] = []
            best: tuple[float, str, Action] | None = None
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
                if best is None or value > best[0]:
                    best = (value, key, action)
            if untried:
                key, action = untried[rng.randrange(len(untried))]
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
        state = self._rollout(state, rng)
        rewards = self.evaluate(state)
        for child, mover in path:
            child.visits += 1
            child.total += rewards[mover]

    def _rollout(self, state: State, rng: random.Random) -> State:
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
        return state
