"""Parlour's games as Gymnasium environments: one learning seat against Parlour's bots or
policies of its own (self-play).

Importing this module registers one id for every registered game whose parts name observation
features: the id those features give (``FEATURES.env_id``, ``"parlour/NAME-v0"``)::

    import gymnasium
    import parlour.adapters.gymnasium  # registers the environments

    env = gymnasium.make("parlour/NAME-v0", players=2, opponents="heuristic")

Keyword arguments: ``players``; ``opponents``, who plays every other seat: an agent spec of
``parlour.bots.make_agent`` (``random``, ``heuristic``, ``ismcts:200`` ...), a Parlour
``Agent``, or a :class:`~parlour.adapters.selfplay.Policy` (a callable from that seat's
observation and action mask to an action id: the learner's own policy, a past copy of it,
:mod:`parlour.adapters.selfplay`), or a list of these, one per other seat in seat order;
``seat``, the learning seat (0, Player 1, by default); ``options``, the game's options.
Observations are the learning seat's features (the game's, built from its view) as a float32
vector; actions are the game's integer action ids; :meth:`ParlourEnv.action_masks` gives the
legal ones, for maskable algorithms (sb3-contrib's ``MaskablePPO``). The reward is the learning
seat's return (its win share) when the game ends, 0 before.

An action id that is not legal ends the episode with reward -1 and ``info["illegal"]`` naming
the action and the rule, so that algorithms without masks learn to avoid it; the game itself is
never changed by it. ``reset(seed=N)`` deals from Parlour seed ``N`` and seeds the bots from it,
so an episode is reproducible. A deal that is over before the learning seat's first decision
(a hand dealt as a winning one, a bot winning with its first move) is dealt again from the next
seed of a fixed chain (:mod:`parlour.adapters.redeal`); the reset's ``info["redeals"]`` counts
the redeals and ``info["deal_seed"]`` is the seed of the deal played, so every episode starts
with a decision.
A game without decisions has no bots: every other seat plays its one legal action, and
``opponents`` is not used.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, SupportsFloat, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from parlour.adapters.encoding import Layout, Observation, action_mask, layout_for
from parlour.adapters.features import features_of
from parlour.adapters.pettingzoo import render_table
from parlour.adapters.redeal import deal_with_decision
from parlour.adapters.selfplay import Policy
from parlour.bots import make_agent
from parlour.core.game import Action, Agent, State, seat_name
from parlour.core.rng import MAX_SEED, check_seed, derive_seed
from parlour.errors import IllegalAction, InvalidOption, ParlourError
from parlour.games import GAMES, find_game

__all__ = ["ENV_IDS", "Opponent", "ParlourEnv", "register_envs"]

Opponent: TypeAlias = str | Agent | Policy
"""Who plays a seat that is not learning: an agent spec, a Parlour Agent, or a Policy."""

_Chooser = Callable[[State, int, random.Random], Action]
"""How one other seat chooses: the state, its seat and the bots' generator to its action."""


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
        opponents: Opponent | Sequence[Opponent] = "random",
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
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            given: list[Opponent] = [opponents] * len(others)
        else:
            given = list(opponents)
        if len(given) != len(others):
            raise InvalidOption(
                f"opponents must be one opponent or {len(others)} of them, got {len(given)}"
            )
        self._choosers: dict[int, _Chooser | None] = {
            s: self._chooser(o) if self.game.info.decisions else None
            for s, o in zip(others, given, strict=True)
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

    def _chooser(self, opponent: Opponent) -> _Chooser:
        """How ``opponent`` chooses in a seat of its own (see :data:`Opponent`)."""
        if isinstance(opponent, str):
            return _agent_chooser(make_agent(opponent, self.game))
        if callable(getattr(opponent, "choose", None)):
            return _agent_chooser(opponent)  # type: ignore[arg-type]
        if callable(opponent):
            return _policy_chooser(self, opponent)
        raise InvalidOption(
            "an opponent is an agent spec, a Parlour Agent or a policy (observation, action "
            f"mask -> action id), got {opponent!r}"
        )

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

    def _others_play(self, state: State) -> State:
        """The other seats move until it is the learning seat's turn or the game is over."""
        while not state.is_over and state.to_move != self.seat:
            mover = state.to_move
            assert mover is not None
            choose = self._choosers[mover]
            if choose is None:  # a game without decisions: the one legal action
                action = state.legal_actions()[0]
            else:
                action = choose(state, mover, self._bots)
            state = state.apply(action, seat=mover)
        return state

    def _deal(self, seed: int) -> State:
        """The deal of ``seed``, played by the other seats up to the learning seat's turn."""
        self._bots = random.Random(derive_seed(seed, "gymnasium bots"))
        return self._others_play(self.game.new(self.players, seed, self.options))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            game_seed = check_seed(seed)
            self._seeds = random.Random(game_seed)
        else:
            game_seed = self._seeds.randrange(MAX_SEED + 1)
        self._state, played, redeals = deal_with_decision(
            game_seed, self._deal, seat_name(self.seat)
        )
        self._ended = False
        info = self._info()
        info["redeals"] = redeals
        info["deal_seed"] = played
        return self._observe(), info

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
        self._state = self._others_play(self._state)
        outcome = self._state.outcome
        reward = 0.0 if outcome is None else float(outcome.returns[self.seat])
        return self._observe(), reward, outcome is not None, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_table(self.game, self._state, self.seat)


def _agent_chooser(agent: Agent) -> _Chooser:
    def choose(state: State, seat: int, rng: random.Random) -> Action:
        return agent.choose(state.view(seat), state.legal_actions(), rng)

    return choose


def _policy_chooser(env: ParlourEnv, policy: Policy) -> _Chooser:
    """A policy in ``seat``: its own observation and mask in, an action id out (checked)."""
    size = env.game.info.num_distinct_actions

    def choose(state: State, seat: int, rng: random.Random) -> Action:
        mask = action_mask(state, seat, size).astype(bool)
        chosen = policy(env.layout.observe(state.view(seat)), mask)
        number = int(chosen)
        if not 0 <= number < size or not mask[number]:
            raise IllegalAction(
                f"the policy playing {seat_name(seat)} chose action {chosen!r}, which is not "
                f"legal there (legal ids: {', '.join(map(str, np.flatnonzero(mask)))})"
            )
        return env.game.action_from_id(number)

    return choose


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
