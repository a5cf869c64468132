"""Beggar-My-Neighbour in ``parlour lab run``: the game has no decisions, so a run plays deals on
the compiled kernel (:mod:`parlour.games.beggar.fast`) rather than through agents. Game ``i`` of
a run is deal ``i`` of the seed's stream (:func:`~parlour.games.beggar.fast.random_deals`), so a
game's figures depend only on the seed and ``i``, whatever the batch or the worker."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlour.core.game import JSON
from parlour.games.beggar.fast import play_deals, random_deals
from parlour.lab.metrics import beggar_figures

__all__ = ["kernel_rows"]


def _runs(indices: Sequence[int]) -> list[tuple[int, int]]:
    """``indices`` as (start, count) runs of consecutive numbers."""
    out: list[tuple[int, int]] = []
    for i in sorted(indices):
        if out and out[-1][0] + out[-1][1] == i:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((i, 1))
    return out


def kernel_rows(
    players: int, seed: int, options: Mapping[str, object], indices: Sequence[int]
) -> list[dict[str, JSON]]:
    """Each deal's row: its index, the deal in notation (M9: replay it with ``parlour beggar
    play --deal``) and its figures (:func:`parlour.lab.metrics.beggar_figures`)."""
    rows: list[dict[str, JSON]] = []
    for start, count in _runs(indices):
        deals = random_deals(players, count, seed, start=start)
        figures = beggar_figures(play_deals(deals, dict(options)), players)
        for k, found in enumerate(figures):
            rows.append({"index": start + k, "plan": [], "deal": deals.deal(k), "figures": found})
    return rows
