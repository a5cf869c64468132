"""The random agent: a uniformly random legal action from its own generator."""

from __future__ import annotations

import random

from parlour.core.game import Action, View

__all__ = ["RandomAgent"]


class RandomAgent:
    """Chooses uniformly among the legal actions; sees nothing else."""

    name = "random"

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]
