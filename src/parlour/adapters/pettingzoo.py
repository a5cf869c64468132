"""Parlour's games as PettingZoo environments: AEC, and parallel through PettingZoo's own
turn-based wrapper.

``env(game, players=2, options=None, render_mode=None)``: agents ``player_0`` ..
``player_{n-1}`` (seat 0 is Player 1); each observation is ``{"observation": float32 vector,
"action_mask": int8 vector}`` made from that seat's View alone (the game's observation
features, :mod:`parlour.adapters.features`); actions are the game's integer action ids
(``Game.action_id``); rewards are the outcome's returns (a win share of 1 split among the
winners), given when the game ends. ``render_mode="ansi"``: :meth:`ParlourAECEnv.render`
returns the table of the seat to move as text.

``reset(seed=N)`` deals the game from Parlour seed ``N`` (the same deal as ``parlour play``
with that seed); a reset without a seed draws the next seed from the last one given. A deal
that is over before anyone decides (a hand dealt as a winning one) is dealt again from the next
seed of a fixed chain (:mod:`parlour.adapters.redeal`), so every episode starts with an agent
to move; each agent's reset info holds ``redeals`` (how many, almost always 0) and
``deal_seed`` (the Parlour seed of the deal played).

``parallel_env(game, players, options, render_mode)``: the same game under PettingZoo's
parallel API, through PettingZoo's own ``turn_based_aec_to_parallel``. These games are played
in turns, so each parallel step plays the action of one agent, the one to move (the only one
whose action mask is not all 0; ``infos[agent]["active_agent"]`` names it after a step); the
actions given for the others are ignored. PettingZoo's ``aec_to_parallel`` does not apply and
the AEC environment says so (``metadata["is_parallelizable"]`` is false): it needs every agent
to act exactly once per cycle in a fixed order with the game ending only when a cycle ends,
and here a seat may move several times in a row (paying a penalty card by card), seats that
are out are skipped, and a game ends on whichever move ends it.

In a game without decisions each agent's only action is its one legal action. Table entries
(``State.apply_table``: penalties the table enters) are not player actions and never happen
here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from parlour.adapters.encoding import Layout, action_mask, layout_for
from parlour.adapters.redeal import deal_with_decision
from parlour.core.game import Game, State, seat_name
from parlour.core.present import Block, Grid, Hand, Heading
from parlour.core.rng import MAX_SEED, check_seed
from parlour.games import find_game

__all__ = ["ParlourAECEnv", "env", "parallel_env", "render_table"]


def render_table(game: Game, state: State, seat: int) -> str:
    """The table as ``seat`` sees it (the game's presenter, as ``parlour play`` draws it), as
    plain text."""
    view = state.view(seat)
    labels = [seat_name(s) for s in range(state.players)]
    legal = state.legal_actions() if state.to_move == seat else ()
    lines = [_plain(block, labels) for block in game.presenter.table(view, labels, legal)]
    if state.is_over and state.outcome is not None:
        lines.append(game.presenter.result_text(state.outcome, labels, state.log_length() - 1))
    return "\n".join(lines) + "\n"


def _plain(block: Block, labels: list[str]) -> str:
    """One block of a presenter's table (:mod:`parlour.core.present`) as plain text."""
    if isinstance(block, Heading):
        who = "" if block.to_move is None else f" · {labels[block.to_move]} to move"
        return f"{block.title} · {len(labels)} players · {block.detail}{who}"
    if isinstance(block, Hand):
        return "Your hand: " + " ".join(card.pretty() for card in block.cards)
    if isinstance(block, Grid):
        cells = [list(block.columns)]
        cells += [[c if isinstance(c, str) else c.plain for c in row] for row in block.rows]
        widths = [max(len(row[k]) for row in cells) for k in range(len(block.columns))]
        lines = ("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells)
        return "\n".join(line.rstrip() for line in lines)
    return block.plain


class ParlourAECEnv(AECEnv):  # type: ignore[misc]
    """One Parlour game as an AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's)
        "render_modes": ["ansi"],
        "name": "parlour_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int = 2,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = find_game(game)
        self.layout: Layout = layout_for(self.game, players)
        self.players = self.layout.players
        self.options = self.game.options(options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"parlour_{self.game.name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        n = self.game.info.num_distinct_actions
        self._actions = n
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.layout.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._selector = AgentSelector(self.possible_agents)
        self._state: State = self.game.new(self.players, 0, self.options)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    @property
    def game_state(self) -> State:
        """The full game state (hidden cards included): for analysis, never for agents."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        return {
            "observation": self.layout.observe(self._state.view(seat)),
            "action_mask": action_mask(self._state, seat, self._actions),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(check_seed(seed))
            game_seed = check_seed(seed)
        else:
            game_seed = self._seeds.randrange(MAX_SEED + 1)
        self._state, played, redeals = deal_with_decision(game_seed, self._deal, "any player")
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"redeals": redeals, "deal_seed": played} for a in self.agents}
        self._selector.reinit(self.agents)
        self._select()

    def _deal(self, seed: int) -> State:
        return self.game.new(self.players, seed, self.options)

    def _select(self) -> None:
        mover = self._state.to_move
        if mover is not None:
            self.agent_selection = self.possible_agents[mover]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is the action of a finished agent only")
        self._cumulative_rewards[agent] = 0.0
        self._state = self._state.apply_id(int(action), seat=self._seat[agent])
        self._clear_rewards()
        outcome = self._state.outcome
        if outcome is not None:
            for a in self.agents:
                self.rewards[a] = float(outcome.returns[self._seat[a]])
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome.to_json()}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection, 0)
        return render_table(self.game, self._state, seat)

    def close(self) -> None:
        pass


def env(
    game: str,
    players: int = 2,
    options: Mapping[str, object] | None = None,
    render_mode: str | None = None,
) -> ParlourAECEnv:
    """An AEC environment of ``game`` for ``players`` (see the module docstring).

    Raises:
        InvalidOption: an unknown game, a game without observation features, a bad player
            count or option.
    """
    return ParlourAECEnv(game, players, options, render_mode)


def parallel_env(
    game: str,
    players: int = 2,
    options: Mapping[str, object] | None = None,
    render_mode: str | None = None,
) -> ParallelEnv:
    """:func:`env` under PettingZoo's parallel API (``turn_based_aec_to_parallel``): each step
    plays the action of the agent to move and ignores the others' (see the module docstring).

    Raises:
        InvalidOption: as :func:`env`.
    """
    return turn_based_aec_to_parallel(env(game, players, options, render_mode))
