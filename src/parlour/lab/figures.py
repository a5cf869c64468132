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
- ``kernel``: a :class:`LabKernel`, its compiled engine (below);
- ``play_batch``: a :data:`BatchPlayer`, the older form of a kernel for a game without
  decisions (its deals need no agent); the lab reads it as a :class:`LabKernel` of no agents
  (:func:`kernel_for`).

The lab finds a game's figures with :func:`figures_for`, never by the game's name.

Kernels: what a game's compiled engine gives the lab
-----------------------------------------------------

``parlour lab run --engine fast|python`` plays a run's games on the game's compiled kernel
(``fast``) or on its rules engine through the agents (``python``); ``fast`` is the default
wherever the game's kernel plays the run: every seat's agent is one of the kernel's ``agents``
and its ``refuses`` (if any) finds nothing against the run's settings. A game declares its
kernel in its ``FIGURES``::

    FIGURES = GameFigures(
        metrics=...,
        read=read_game,
        kernel=LabKernel(
            agents=frozenset({"random", "heuristic"}),
            play=kernel_rows,                # (spec, indices) -> rows
            same=frozenset({"random", "heuristic"}),
        ),
    )

``play(spec, indices)`` (a :data:`KernelPlay`) plays games ``indices`` of the run ``spec``
(a checked :class:`~parlour.lab.runspec.RunSpec`: the game's canonical name and options, its
agents as given, in lower case once stripped) and returns one row a game, in any order, as the
rules engine's path (:func:`parlour.lab.run.play_batch`) writes it::

    {"index": i, "plan": [agent of each seat], "figures": {...}, "record": {...}}

- ``plan``: :func:`parlour.bots.arena.seat_plan` (seats rotate over the agents game by game);
- ``figures``: every key :func:`parlour.lab.metrics.game_figures` gives for the same game of
  the rules engine, with the same values: the generic ones (``game``, ``players``,
  ``result``, ``winners``, ``win_shares``, ``length``, ``first``: the seat that moved first,
  ``lead_changes``, ``decided_at``; the last two None where the kernel keeps no history), then
  the game's own (its reading's), ``ended`` among them;
- what replays the game, optional: ``record`` (the record's JSON, as the rules engine's row
  has it) or ``deal``.

Game ``i`` must depend only on the spec and ``i`` (never on the batch, the worker or the
backend): deal it from ``derive_seed(spec.seed, "game", i)`` and give seat ``s`` the
generator of ``derive_seed(spec.seed, "agent", i, s)``, as :func:`parlour.bots.arena.play_to_end`
does. An agent in ``same`` makes exactly the rules engine agent's choices from that generator
(the same draws: :mod:`parlour.core.mersenne` is Python's ``random.Random`` in compiled code),
so that a run of only those agents gives the same rows on either engine, row for row; the game's
differential test holds the kernel to it over thousands of seeded games for every player count.
An agent of ``agents`` not in ``same`` plays by the same rules with a generator of its own: its
games differ from the rules engine's one by one, only their distribution is the same, and the
game's documentation and tests say so. The engine is part of a run's settings (its file is
refused for a run of the other engine) unless every agent of the run is in ``same``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.core.game import JSON, Game, LogEntry, State
from parlour.core.inputs import quote
from parlour.core.parts import load_part_as

if TYPE_CHECKING:
    from parlour.lab.runspec import RunSpec

__all__ = [
    "AGGREGATIONS",
    "BatchPlayer",
    "GameFigures",
    "KernelPlay",
    "LabKernel",
    "MetricSpec",
    "Reading",
    "figures_for",
    "kernel_for",
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


KernelPlay = Callable[["RunSpec", Sequence[int]], list[dict[str, JSON]]]
"""``play(spec, indices)``: games ``indices`` of the checked run ``spec`` on a game's compiled
kernel, one row each (see the module docstring, "Kernels")."""


@dataclass(frozen=True, slots=True)
class LabKernel:
    """A game's compiled engine for the lab (``--engine fast``; see the module docstring).

    Attributes:
        agents: the agent specs it plays (lower case: ``"random"``, ``"heuristic"``); the lab
            plays a run on it only when every seat's agent is one of them (empty for a game
            without decisions: it plays every run).
        play: its :data:`KernelPlay`.
        same: the agents whose choices it makes exactly as the rules engine's agents do, from
            the same generators: with only those at the table its rows equal the rules
            engine's. The others play by the same rules with other generators (the same
            distribution, other games).
        refuses: why it cannot play a run's other settings (an option, the deals), or None
            when it can; None (the default) plays every setting.
    """

    agents: frozenset[str]
    play: KernelPlay
    same: frozenset[str] = frozenset()
    refuses: Callable[[RunSpec], str | None] | None = None


@dataclass(frozen=True, slots=True)
class GameFigures:
    """A game's ``FIGURES``: what it adds to the lab's generic statistics (see the module
    docstring). Every field is optional: ``GameFigures()`` adds nothing."""

    metrics: tuple[MetricSpec, ...] = ()
    read: Reading | None = None
    play_batch: BatchPlayer | None = None
    kernel: LabKernel | None = None


NO_FIGURES = GameFigures()


def figures_for(game: Game) -> GameFigures:
    """The figures ``game`` declares (its ``figures`` part), or :data:`NO_FIGURES`.

    Raises:
        TypeError: the part's ``FIGURES`` is not a :class:`GameFigures` (a broken game).
    """
    return load_part_as(game.parts, "figures", GameFigures) or NO_FIGURES


def kernel_for(game: Game) -> LabKernel | None:
    """The compiled engine ``game``'s figures declare: its ``kernel``, or its ``play_batch``
    read as a kernel of no agents; None when it has neither."""
    figures = figures_for(game)
    if figures.kernel is not None:
        return figures.kernel
    own = figures.play_batch
    if own is None:
        return None

    def play(spec: RunSpec, indices: Sequence[int]) -> list[dict[str, JSON]]:
        return own(spec.players, spec.seed, spec.options, indices)

    return LabKernel(frozenset(), play)
