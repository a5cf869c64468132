"""Policies for the other seats of a Gymnasium environment: the learner's own policy (self-play)
and frozen past copies of it.

:class:`~parlour.adapters.gymnasium.ParlourEnv` takes, for each seat that is not learning, an
agent spec (Parlour's bots), a Parlour :class:`~parlour.core.game.Agent`, or a :class:`Policy`:
any callable from that seat's observation and action mask to an action id. The environment
builds the observation from that seat's own view, as it does for the learner, so a policy
trained in one seat can play any other.

:class:`ModelPolicy` makes a policy of a model with Stable-Baselines3's ``predict``
(``predict(observation, action_masks=mask, deterministic=...)``, as sb3-contrib's
``MaskablePPO`` has). It may be made before the model exists and bound to it later, which is
what self-play needs: the environments are made first, then the model on them (``GAME`` a
game's name)::

    from parlour.adapters.gymnasium import ParlourEnv
    from parlour.adapters.selfplay import ModelPolicy, snapshot

    me = ModelPolicy()                      # the learner itself, bound below
    envs = DummyVecEnv([lambda s=s: ParlourEnv(GAME, players=2, seat=s, opponents=me)
                        for s in (0, 1)])   # one environment per learning seat
    model = MaskablePPO("MlpPolicy", envs, seed=0)
    me.bind(model)                          # every other seat now plays the current policy
    model.learn(10_000)
    past = snapshot(model)                  # a frozen copy: it keeps playing as it plays now

Why one environment per learning seat, and not one environment whose steps go to whichever
learning seat is to move: a single-agent algorithm reads the steps of one environment as one
player's trajectory, so it would credit one seat's win to the other seat's moves. Each
environment here is one seat's game, the other seats part of its world; the two together give
the policy both seats' experience. PettingZoo's AEC environment is the multi-agent form.
"""

from __future__ import annotations

import copy
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from parlour.adapters.features import Observation
from parlour.errors import InvalidInput

__all__ = ["ModelPolicy", "Policy", "snapshot"]


class Policy(Protocol):
    """A seat's player for the Gymnasium environments: its observation and its action mask
    (``True`` for each legal action id) to the action id it plays."""

    def __call__(
        self, observation: Observation, action_mask: npt.NDArray[np.bool_], /
    ) -> int | np.integer[Any]:
        """One legal action id."""
        ...


class ModelPolicy:
    """A model's policy as a :class:`Policy`: ``model.predict(observation,
    action_masks=mask, deterministic=deterministic)``.

    ``deterministic=False`` (the default) samples from the policy, as self-play wants (with
    torch's generator, which Stable-Baselines3 seeds from the model's ``seed``, so a seeded run
    repeats); ``True`` plays the most likely legal action.
    """

    def __init__(self, model: Any = None, *, deterministic: bool = False) -> None:
        self.model = model
        self.deterministic = deterministic
        self.calls = 0
        """How many actions it has chosen."""

    def bind(self, model: Any) -> None:
        """Play with ``model`` from now on (the learner once it exists, or another snapshot)."""
        self.model = model

    def __call__(self, observation: Observation, action_mask: npt.NDArray[np.bool_]) -> int:
        if self.model is None:
            raise InvalidInput(
                "this ModelPolicy has no model yet: call bind(model) before the first reset"
            )
        action, _ = self.model.predict(
            observation, action_masks=action_mask, deterministic=self.deterministic
        )
        self.calls += 1
        return int(action)


def snapshot(model: Any, *, deterministic: bool = False) -> ModelPolicy:
    """A frozen copy of ``model``'s current policy, a past copy of the learner: training the
    model further does not change how the copy plays. It copies ``model.policy`` (the network,
    in Stable-Baselines3) where the model has one, else the whole model."""
    policy = getattr(model, "policy", model)
    return ModelPolicy(_copy(policy), deterministic=deterministic)


def _copy(policy: Any) -> Any:
    """A deep copy of ``policy``. A Stable-Baselines3 policy keeps the distribution of the last
    batch it saw (``action_dist.distribution``, tensors of the training graph, which ``deepcopy``
    refuses); it is made anew at every call, so the copy is made without it."""
    dist = getattr(policy, "action_dist", None)
    last = getattr(dist, "distribution", None)
    if last is None:
        return copy.deepcopy(policy)
    dist.distribution = None  # type: ignore[union-attr]
    try:
        return copy.deepcopy(policy)
    finally:
        dist.distribution = last  # type: ignore[union-attr]
