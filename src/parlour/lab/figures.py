"""What a game adds to the lab: its ``FIGURES`` (the ``figures`` part of its
:class:`~parlour.core.parts.GameParts`), a :class:`GameFigures`.

The lab measures every game with its generic statistics (:data:`parlour.lab.metrics.METRICS`:
each seat's win rate, the game's length, the lead changes and when the game was decided). A
game may add, in the module its parts record names as ``figures`` (which may import
``parlour.lab.*``)::

    FIGURES = GameFigures(
        metrics=(MetricSpec("passes", "per game", "mean", "Passes in a game."),),
        read=read_game,
    )

- ``metrics``: its own metrics, after the generic ones; a metric named like a generic one
  (``length``, to count in cards rather than actions) takes its place;
- ``read``: its reading of one finished game, a :data:`Reading`: the game's own figures (the
  rows' keys its metrics read, and ``ended``) and each step's standing, from which the lab finds
  the leader of each step; without it a game's rows have no lead figures and ``ended`` is true;
- ``play_batch``: a :data:`BatchPlayer`, for a game without decisions that plays a run's games
  itself (on a compiled kernel, say) rather than through the lab's agents.

The lab finds a game's figures with :func:`figures_for`, never by the game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.core.game import JSON, Game, LogEntry, State
from parlour.core.inputs import quote
from parlour.core.parts import load_part_as

__all__ = [
    "AGGREGATIONS",
    "BatchPlayer",
    "GameFigures",
    "MetricSpec",
    "Reading",
    "figures_for",
]

AGGREGATIONS = ("rate", "mean", "summary")


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """One metric of the lab, as the documentation's table lists it.

    Attributes:
        name: its JSON and documentation name (snake_case).
        unit: what its value counts ("share of games", "actions", "drinks", "per game" ...).
        aggregation: ``rate`` (a proportion of games with its Wilson interval), ``mean`` (a
            mean with its t interval) or ``summary`` (a mean with its t interval, and the
            percentiles; for length, a survival curve when a cap stopped games).
        doc: one plain sentence for the documentation's table.
        per_seat: one estimate per seat (a list in the JSON) rather than one in all.
        figure: the key of the rows (:func:`parlour.lab.metrics.game_figures`) it reads
            (default: ``name``); a rate reads a true/false figure, a mean or a summary a
            number, and a per-seat metric a list of one a seat; None leaves a game out.
    """

    name: str
    unit: str
    aggregation: str
    doc: str
    per_seat: bool = False
    figure: str = ""

    def __post_init__(self) -> None:
        if self.aggregation not in AGGREGATIONS:
            raise ValueError(f"aggregation is one of {AGGREGATIONS}, got {quote(self.aggregation)}")

    @property
    def key(self) -> str:
        """The row key it reads."""
        return self.figure or self.name


Reading = Callable[[State, Sequence[LogEntry]], tuple[dict[str, JSON], list[tuple[float, ...]]]]
"""A game's reading of one finished game: ``read(state, log)``, ``log`` being the whole log
from the deal (``state.log(None, 0)``), gives the game's own figures (plain JSON, merged into
the row after the generic figures; ``ended`` is false when a cap rather than the rules ended
the game) and each step's standing, one tuple a seat for each entry of ``log`` (the higher
the better; the leader is the seat standing highest alone), or an empty list when the game
has none. It raises ValueError when the game's accounting fails a check."""

BatchPlayer = Callable[[int, int, Mapping[str, object], Sequence[int]], list[dict[str, JSON]]]
"""``play_batch(players, seed, options, indices)``: games ``indices`` of a run, one row each,
``{"index", "plan": [], "figures", ...}`` (it may add what replays the game, e.g. ``deal``),
game ``i`` depending only on ``players``, ``seed``, ``options`` and ``i``; ``figures`` are
rows as :func:`parlour.lab.metrics.game_figures` gives them (``lead_changes`` and
``decided_at`` None when it keeps no history)."""


@dataclass(frozen=True, slots=True)
class GameFigures:
    """A game's ``FIGURES``: what it adds to the lab's generic statistics (see the module
    docstring). Every field is optional: ``GameFigures()`` adds nothing."""

    metrics: tuple[MetricSpec, ...] = ()
    read: Reading | None = None
    play_batch: BatchPlayer | None = None


NO_FIGURES = GameFigures()


def figures_for(game: Game) -> GameFigures:
    """The figures ``game`` declares (its ``figures`` part), or :data:`NO_FIGURES`.

    Raises:
        TypeError: the part's ``FIGURES`` is not a :class:`GameFigures` (a broken game).
    """
    return load_part_as(game.parts, "figures", GameFigures) or NO_FIGURES
