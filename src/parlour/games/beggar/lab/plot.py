"""The histogram of game lengths that ``parlour beggar stats --plot FILE`` saves.

matplotlib is imported only here, and this module only when a plot is asked for. The figure
is drawn with the Agg backend (no display needed) and returned; the command line writes it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["length_histogram"]


def length_histogram(cards: npt.NDArray[np.int64], title: str, *, bins: int = 80) -> Figure:
    """A histogram of game lengths in cards (M8), ``cards[k]`` games of ``k`` cards, on a log
    scale so that the long tail shows."""
    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    values = np.arange(len(cards))
    axes.hist(values, bins=bins, weights=cards, color="#3b6ea5", edgecolor="white", log=True)
    axes.set_xlabel("cards played (M8)")
    axes.set_ylabel("games")
    axes.set_title(title)
    mean = float((cards * values).sum() / max(1, cards.sum()))
    axes.axvline(mean, color="#c0392b", linestyle="--", label=f"mean {mean:.1f}")
    axes.legend()
    figure.tight_layout()
    return figure
