"""Parlour's games as Gymnasium environments: one learning seat against Parlour's bots.

Importing this module registers one id for every registered game whose parts name observation
features: the id those features give (``FEATURES.env_id``, ``"parlour/NAME-v0"``)::

    import gymnasium
    import parlour.adapters.gymnasium  # registers the environments

    env = gymnasium.make("parlour/NAME-v0", players=2, opponents="heuristic")

Keyword arguments: ``players``; ``opponents``, an agent spec of ``parlour.bots.make_agent``
(``random``, ``heuristic``, ``ismcts:200`` ...) for every other seat, or a list of one spec per
other seat; ``seat``, the learning seat (0, Player 1, by default); ``options``, the game's
options. Observations are the learning seat's features (the game's, built from its view) as a
float32 vector; actions are the game's integer action ids; :meth:`ParlourEnv.action_masks`
gives the legal ones, for maskable algorithms (sb3-contrib's ``MaskablePPO``). The reward is
the learning seat's return (its win share) when the game ends, 0 before.

An action id that is not legal ends the episode with reward -1 and ``info["illegal"]`` naming
the action and the rule, so that algorithms without masks learn to avoid it; the game itself is
never changed by it. ``reset(seed=N)`` deals from Parlour seed ``N`` and seeds the bots from it,
so an episode is reproducible. A game without decisions has no bots: every other seat plays its
one legal action, and ``opponents`` is not used.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from parlour.adapters.encoding import Layout, Observation, action_mask, layout_for
from parlour.adapters.features import features_of
from parlour.adapters.pettingzoo import render_table
from parlour.bots import make_agent
from parlour.core.game import Agent, State
from parlour.core.rng import MAX_SEED, check_seed, derive_seed
from parlour.errors import IllegalAction, InvalidOption, ParlourError
from parlour.games import GAMES, find_game

__all__ = ["ENV_IDS", "ParlourEnv", "register_envs"]


def _env_ids() -> tuple[tuple[str, str], ...]:
    """Each registered game with observation features: its Gymnasium id and its name (a game
    whose features do not load is left out here and names the fault when asked for)."""
    ids = []
    for name, game in GAMES.items():
        if game.parts.features is None:
            continue
        try:
            ids.append((features_of(game).env_id, name))
        except InvalidOption:
            continue
    return tuple(ids)


ENV_IDS: tuple[tuple[str, str], ...] = _env_ids()
"""Each registered id and the Parlour game it plays."""


class ParlourEnv(gymnasium.Env[Observation, np.int64]):
    """One learning seat of a Parlour game against Parlour's bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.game = find_game(game)
        count = self.game.info.default_players if players is None else players
        self.layout: Layout = layout_for(self.game, count)
        self.players = self.layout.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidOption(f"seat must be 0 to {self.players - 1}, got {seat!r}")
        self.seat = seat
        self.options = self.game.options(options)
        others = [s for s in range(self.players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise InvalidOption(
                f"opponents must be one agent spec or {len(others)} of them, got {len(specs)}"
            )
        self._agents: dict[int, Agent | None] = {
            s: make_agent(spec, self.game) if self.game.info.decisions else None
            for s, spec in zip(others, specs, strict=True)
        }
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        n = self.game.info.num_distinct_actions
        self.observation_space = spaces.Box(0.0, 1.0, (self.layout.size,), np.float32)
        self.action_space = spaces.Discrete(n)
        self._seeds = random.Random()
        self._bots = random.Random()
        self._state: State = self.game.new(self.players, 0, self.options)
        self._ended = True

    @property
    def game_state(self) -> State:
        """The full game state (hidden cards included): for analysis, never for agents."""
        return self._state

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """True for each action id the learning seat may play now."""
        mask: npt.NDArray[np.bool_] = action_mask(
            self._state, self.seat, self.game.info.num_distinct_actions
        ).astype(bool)
        return mask

    def _observe(self) -> Observation:
        return self.layout.observe(self._state.view(self.seat))

    def _info(self) -> dict[str, Any]:
        outcome = self._state.outcome
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if outcome is not None:
            info["outcome"] = outcome.to_json()
        return info

    def _others_play(self) -> None:
        """The bots move until it is the learning seat's turn or the game is over."""
        state = self._state
        while not state.is_over and state.to_move != self.seat:
            mover = state.to_move
            assert mover is not None
            legal = state.legal_actions()
            agent = self._agents[mover]
            if agent is None:  # a game without decisions: the one legal action
                action = legal[0]
            else:
                action = agent.choose(state.view(mover), legal, self._bots)
            state = state.apply(action, seat=mover)
        self._state = state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            game_seed = check_seed(seed)
            self._seeds = random.Random(game_seed)
        else:
            game_seed = self._seeds.randrange(MAX_SEED + 1)
        self._bots = random.Random(derive_seed(game_seed, "gymnasium bots"))
        self._state = self.game.new(self.players, game_seed, self.options)
        self._ended = False
        self._others_play()
        return self._observe(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._ended or self._state.is_over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        try:
            self._state = self._state.apply_id(int(action), seat=self.seat)
        except (IllegalAction, ParlourError) as err:
            info = self._info()
            info["illegal"] = f"action {int(action)}: {err}"
            self._ended = True
            return self._observe(), -1.0, True, False, info
        self._others_play()
        outcome = self._state.outcome
        reward = 0.0 if outcome is None else float(outcome.returns[self.seat])
        return self._observe(), reward, outcome is not None, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_table(self.game, self._state, self.seat)


def _make(game: str) -> Any:
    def make(**kwargs: Any) -> ParlourEnv:
        return ParlourEnv(game, **kwargs)

    return make


def register_envs() -> None:
    """Register the ids of :data:`ENV_IDS` with Gymnasium (done once, on import)."""
    for env_id, game in ENV_IDS:
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=_make(game), disable_env_checker=False)


register_envs()
