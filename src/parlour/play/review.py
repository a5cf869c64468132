"""A finished game's review (:mod:`parlour.bots.review`) as tables for people.

The decisive moments (the costliest decisions: step, player, the move played and the expert's
best, the cost in percentage points of win chance, both chances with their 95% interval), a
line a player (decisions, forced ones, average cost, mistakes, the costliest step) and, for a
game without decisions, its story's moments. The words come from the terminal's catalog in the
language spoken (:mod:`parlour.play.speech`): ``parlour review`` speaks English, the end of a
game at the table speaks the table's language.

:func:`review_with_progress` runs a review with a progress bar on a console that is a
terminal; :func:`offer_review` is what the end of a game at the table does when asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext

from rich import box
from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable
from rich.text import Text

from parlour.bots.ismcts import SearchBudget
from parlour.bots.review import Decision, Review, review_record
from parlour.core.game import JSON, Game
from parlour.core.record import Record
from parlour.errors import ParlourError
from parlour.play.speech import say

__all__ = [
    "can_review",
    "chance_text",
    "moments_table",
    "offer_review",
    "points",
    "review_tables",
    "review_with_progress",
    "story_table",
    "summary_table",
]


def points(x: float) -> str:
    """A chance or a cost in percentage points, one decimal (``0.1234`` is ``12.3``)."""
    return f"{100 * x:.1f}"


def chance_text(decision: Decision, move: str) -> str:
    """``61%±5``: the move's estimated win chance and its 95% half-width, in whole points
    (the search's estimates are no finer)."""
    found = decision.estimate(move)
    return f"{100 * found.chance:.0f}%±{100 * found.interval:.0f}"


def moments_table(review: Review, labels: Sequence[str]) -> RenderableType:
    """The decisive moments, costliest first; a line saying so when none cost anything."""
    decisive = review.decisive()
    if not decisive:
        return Text(say("review.none"), style="green")
    table = RichTable(
        title=say("review.title"),
        caption=say("review.caption", budget=review.budget),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(say("review.step"), justify="right", no_wrap=True)
    table.add_column(say("review.player"), overflow="fold")
    for key in ("played", "best"):
        table.add_column(say(f"review.{key}"), overflow="fold")
    for key in ("cost", "played_chance", "best_chance"):
        table.add_column(say(f"review.{key}"), justify="right")
    for d in decisive:
        table.add_row(
            Text(str(d.step)),
            Text(labels[d.seat]),
            Text(d.played),
            Text(d.best),
            Text(points(d.cost), style="bold red"),
            Text(chance_text(d, d.played)),
            Text(chance_text(d, d.best)),
        )
    return table


def summary_table(review: Review, labels: Sequence[str]) -> RichTable:
    """A line a reviewed player: decisions judged, forced ones, average cost, mistakes (cost
    at least the threshold) and the step of the costliest decision."""
    table = RichTable(title=say("review.summary_title"), box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(say("review.player"))
    for key in ("decisions", "forced", "average"):
        table.add_column(say(f"review.{key}"), justify="right")
    table.add_column(say("review.mistakes", points=points(review.threshold)), justify="right")
    table.add_column(say("review.worst"), justify="right")
    for row in review.summary():
        table.add_row(
            Text(labels[row.seat]),
            str(row.decisions),
            str(row.forced),
            points(row.average_cost),
            str(row.mistakes),
            "-" if row.worst_step is None else str(row.worst_step),
        )
    return table


def story_table(story: dict[str, JSON]) -> RichTable:
    """A game without decisions: its story's moments, step by step (the story's own words)."""
    table = RichTable(title=say("review.story_title"), box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(say("review.step"), justify="right")
    table.add_column(say("review.what"), overflow="fold")
    moments = story.get("moments")
    for moment in moments if isinstance(moments, list) else []:
        if isinstance(moment, dict):
            table.add_row(Text(str(moment.get("step", ""))), Text(str(moment.get("text", ""))))
    return table


def review_tables(review: Review, labels: Sequence[str], *, summary: bool = True) -> Group:
    """Everything a person reads of a review: the story, or the decisive moments and (with
    ``summary``) the players' lines."""
    if review.story is not None:
        return Group(story_table(review.story))
    parts: list[RenderableType] = [moments_table(review, labels)]
    if summary:
        parts.append(summary_table(review, labels))
    return Group(*parts)


def review_with_progress(
    record: Record,
    game: Game,
    console: Console,
    *,
    show: bool,
    seats: Iterable[int] | None = None,
    budget: SearchBudget | None = None,
    seed: int = 0,
    threshold: float = 0.1,
) -> Review:
    """:func:`~parlour.bots.review.review_record` with a progress bar on ``console`` (gone
    when done) when ``show``; the same review either way."""
    bar = (
        Progress(
            TextColumn(say("review.progress")),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        if show
        else None
    )
    with bar if bar is not None else nullcontext():
        task = None if bar is None else bar.add_task("review", total=None)

        def progress(done: int, total: int) -> None:
            if bar is not None and task is not None:
                bar.update(task, completed=done, total=total)

        return review_record(
            record,
            game,
            seats=seats,
            budget=budget,
            seed=seed,
            threshold=threshold,
            progress=progress,
        )


def can_review(game: Game, people: Sequence[int]) -> bool:
    """Whether the end of a game at the table offers its review: people sat there and the
    game has decisions to judge."""
    return bool(people) and game.strategy is not None


def offer_review(
    record: Record,
    game: Game,
    console: Console,
    people: Sequence[int],
    labels: Sequence[str],
    *,
    budget: SearchBudget | None = None,
) -> None:
    """The review of the people's decisions at the end of a game at the table: a progress bar
    while it runs, then the decisive moments. Ctrl-C stops it; a record the review refuses is
    said in one line (the game itself is over and kept either way)."""
    try:
        review = review_with_progress(
            record, game, console, show=console.is_terminal, seats=people, budget=budget
        )
    except KeyboardInterrupt:
        console.print()
        console.print(say("review.stopped"), style="yellow")
        return
    except ParlourError as err:
        console.print(say("review.failed", error=str(err)), style="red", highlight=False)
        return
    console.print(moments_table(review, labels))
