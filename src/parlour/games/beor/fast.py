"""BEOR games played on the compiled kernel (numba: :mod:`._kernel`, :mod:`._deal`,
:mod:`._policy`, :mod:`._play`), as the arena plays them on the rules engine.

Game ``i`` of a run of ``seed`` is :func:`parlour.bots.arena.play_to_end`'s game ``i``: dealt
from ``derive_seed(seed, "game", i)`` (B1-B3, its restocks shuffled from the same seed, B9),
seat ``s`` played by agent ``(s + i) mod k`` with the generator of ``derive_seed(seed,
"agent", i, s)``. The kernel's generator is Python's own (:mod:`parlour.core.mersenne`) and its
agents make the
rules engine agents' choices draw for draw (``random``: ``RandomAgent``; ``heuristic`` and
``medium``: ``BeorHeuristic``), so a game here is the same game there, move for move: the
same record, result and figures (``tests/games/beor/test_kernel.py`` plays thousands of them
on both for every player count).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from parlour.core import kernel_cache, mersenne
from parlour.core.rng import derive_seed
from parlour.games.beor import _deal, _kernel, _play, _policy, _tables
from parlour.games.beor.notation import ACTIONS
from parlour.games.beor.options import BeorOptions

__all__ = ["AGENTS", "KernelGame", "play_games"]

AGENTS: Mapping[str, int] = {
    "random": _policy.RANDOM,
    "heuristic": _policy.HEURISTIC,
    "medium": _policy.HEURISTIC,
}
"""The agent specs the kernel plays (stripped, lower case), each as the rules engine's agent of
that spec chooses."""

# One stamp for the whole kernel: a change to any of its modules compiles them all again
# (parlour.core.kernel_cache).
kernel_cache.share_stamp((_kernel, _deal, _policy, _play), sources=(_tables, mersenne))

_TEXT = tuple(str(move) for move in ACTIONS)
_RESULTS = {_kernel.WIN: "win", _kernel.DRAW: "draw"}
_FIRST_SEEDS = 8
"""Restock seeds made for a game before it is played; a game that restocks more often (rare:
about one in a thousand 4-player games restocks 7 times) is played again with more."""
_FIRST_SPACE = 4096
"""Moves a game's record has room for at first (max_turns if fewer); a longer game (with
max_turns above it) is played again with more room."""


@dataclass(frozen=True, slots=True)
class KernelGame:
    """One game played on the kernel: its index in the run, the agent of each seat (``plan``),
    its seed, its moves in notation and what the lab reads of it (``decided``: the step from
    which the winner led alone for good, None without a winner)."""

    index: int
    plan: tuple[int, ...]
    seed: int
    actions: tuple[str, ...]
    result: str
    winner: int | None
    turns: int
    lead_changes: int
    decided: int | None
    stuck_losses: int
    restocks: int
    natural_win: bool


class _Space:
    """The work arrays of one batch, made once."""

    def __init__(self, players: int, max_turns: int) -> None:
        self.w = np.zeros(_kernel.SIZE, np.int64)
        self.rngs = mersenne.generators(players + 1)
        self.scratch = np.zeros(610, np.int64)
        self.actions = np.zeros(min(max_turns, _FIRST_SPACE), np.int64)
        self.out = np.zeros(_play.OUT_SIZE, np.int64)
        self.agent_seeds = np.zeros(players, np.int64)


def _restock_seeds(game_seed: int, count: int) -> np.ndarray:
    return np.array([derive_seed(game_seed, "restock", k + 1) for k in range(count)], np.int64)


def play_games(
    players: int,
    seed: int,
    agents: Sequence[str],
    options: BeorOptions,
    indices: Sequence[int],
) -> list[KernelGame]:
    """Games ``indices`` of a run of ``seed`` (see the module docstring), ``agents`` being the
    run's agent specs, each a key of :data:`AGENTS`.

    Raises:
        ValueError: an agent the kernel does not play.
    """
    try:
        kinds_of = [AGENTS[a.strip().lower()] for a in agents]
    except KeyError as err:
        raise ValueError(
            f"the BEOR kernel plays the agents {', '.join(AGENTS)}, not {err}"
        ) from None
    flags = np.array(
        [
            options.natural_win,
            options.flip_reverses_order,
            options.restock_skip_jokers,
            min(options.max_turns, 2**62),  # no game reaches that many turns
        ],
        np.int64,
    )
    space = _Space(players, options.max_turns)
    kinds = np.zeros(players, np.int64)
    found: list[KernelGame] = []
    for index in indices:
        plan = tuple((s + index) % len(agents) for s in range(players))
        for s in range(players):
            kinds[s] = kinds_of[plan[s]]
            space.agent_seeds[s] = derive_seed(seed, "agent", index, s)
        game_seed = derive_seed(seed, "game", index)
        count = _FIRST_SEEDS
        while True:
            seeds = _restock_seeds(game_seed, count)
            _play.play_game(
                players,
                kinds,
                game_seed,
                space.agent_seeds,
                seeds,
                flags,
                space.actions,
                space.out,
                space.w,
                space.rngs,
                space.scratch,
            )
            status = space.out[_play.O_RESULT]
            if status == _kernel.NEED_SEEDS:
                count *= 4
            elif status == _kernel.NEED_SPACE:
                space.actions = np.zeros(min(options.max_turns, 4 * len(space.actions)), np.int64)
            else:
                break
        out = space.out.tolist()
        turns = out[_play.O_TURNS]
        found.append(
            KernelGame(
                index=index,
                plan=plan,
                seed=game_seed,
                actions=tuple(_TEXT[a] for a in space.actions[:turns].tolist()),
                result=_RESULTS[out[_play.O_RESULT]],
                winner=None if out[_play.O_WINNER] < 0 else out[_play.O_WINNER],
                turns=turns,
                lead_changes=out[_play.O_LEAD_CHANGES],
                decided=None if out[_play.O_DECIDED] < 0 else out[_play.O_DECIDED],
                stuck_losses=out[_play.O_STUCK],
                restocks=out[_play.O_RESTOCKS],
                natural_win=bool(out[_play.O_NATURAL]),
            )
        )
    return found
