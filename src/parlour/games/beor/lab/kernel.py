"""BEOR's compiled kernel in the lab (``parlour lab run beor --engine fast``, the default for
the agents it plays): a :class:`~parlour.lab.figures.LabKernel` whose rows are the rules
engine's rows, game for game (:mod:`parlour.games.beor.fast`).

Its agents are ``random``, ``heuristic`` and ``medium`` (the heuristic), all of them in
``same``: with the same seeds they make the same moves as the rules engine's agents, so every
row (who sat where, the figures, the record) is the one :func:`parlour.lab.run.play_batch`
writes on the rules engine. ``tests/games/beor/test_kernel.py`` holds it to that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.core.game import JSON
from parlour.core.record import Record
from parlour.lab.figures import LabKernel

if TYPE_CHECKING:
    from parlour.games.beor.fast import KernelGame
    from parlour.lab.runspec import RunSpec

__all__ = ["KERNEL", "kernel_figures", "kernel_rows"]

_AGENTS = frozenset({"random", "heuristic", "medium"})


def kernel_figures(game: KernelGame, players: int) -> dict[str, JSON]:
    """A kernel game's figures as :func:`parlour.lab.metrics.game_figures` gives them for the
    same game of the rules engine (BEOR's own from :func:`~parlour.games.beor.figures.
    own_figures`)."""
    from parlour.games.beor.figures import own_figures
    from parlour.lab.metrics import with_positions

    winners = [] if game.winner is None else [game.winner]
    decided: float | None = None
    if game.decided is not None:
        decided = game.decided / game.turns if game.turns else 0.0
    row: dict[str, JSON] = {
        "game": "beor",
        "players": players,
        "result": game.result,
        "winners": winners,
        "win_shares": [1 / len(winners) if s in winners else 0.0 for s in range(players)],
        "first": 0,  # Ruling B3: seat 0 plays first
        "length": game.turns,
        "lead_changes": game.lead_changes,
        "decided_at": decided,
        **own_figures(
            draw=game.result == "draw",
            stuck=game.stuck_losses,
            restocks=game.restocks,
            natural_win=game.natural_win,
        ),
    }
    return with_positions(row)


def kernel_rows(spec: RunSpec, indices: Sequence[int]) -> list[dict[str, JSON]]:
    """Games ``indices`` of the run ``spec`` on the kernel, one row each, as the rules engine's
    path writes them: ``index``, ``plan``, ``figures`` and ``record``."""
    # Imported here: the kernel (numba) loads only when games are played.
    from parlour.games.beor.fast import play_games
    from parlour.games.beor.game import GAME

    options = GAME.typed_options(spec.options)
    rows: list[dict[str, JSON]] = []
    for game in play_games(spec.players, spec.seed, spec.agents, options, indices):
        record = Record("beor", spec.players, game.seed, dict(spec.options), None, game.actions)
        rows.append(
            {
                "index": game.index,
                "plan": list(game.plan),
                "figures": kernel_figures(game, spec.players),
                "record": record.to_json(),
            }
        )
    return rows


def refuses(spec: RunSpec) -> str | None:
    """Why the kernel cannot play ``spec``: it deals as the rules engine's fixed dealer."""
    if getattr(spec, "dealer", "fixed") != "fixed":
        return "the compiled kernel of BEOR deals every game with seat 0 first (--dealer fixed)"
    return None


KERNEL = LabKernel(agents=_AGENTS, play=kernel_rows, same=_AGENTS, refuses=refuses)
"""BEOR's compiled kernel for the lab."""
