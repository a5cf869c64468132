"""``parlour beggar search``: the long-game search (:mod:`parlour.games.beggar.lab.search`),
with a progress bar, resumable from the file it saves."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn

from parlour.cli.common import (
    CommandError,
    fresh_seed,
    options_of,
    people_console,
    print_json,
    read_json,
)
from parlour.core.files import resolve_target, write_text_atomic
from parlour.core.game import JSON
from parlour.core.inputs import quote
from parlour.errors import ParlourError
from parlour.games.beggar.game import GAME
from parlour.games.beggar.options import without_clock

if TYPE_CHECKING:
    from parlour.games.beggar.lab.search import Backend, SearchState

__all__ = ["cmd_beggar_search"]


def cmd_beggar_search(args: argparse.Namespace) -> int:
    from parlour.games.beggar.lab import search

    if (args.minutes is None) == (args.deals is None):
        raise CommandError("give exactly one budget: --minutes M or --deals D")
    if args.minutes is not None and not args.minutes > 0:
        raise CommandError(f"--minutes must be above 0, got {args.minutes:g}")
    if args.scheduler is not None and args.backend != "dask":
        raise CommandError("--scheduler is for --backend dask")
    if args.scheduler is not None and args.workers is not None:
        raise CommandError("--workers sizes a local Dask cluster: leave it out with --scheduler")
    if args.out is not None:
        # Read to resume and replaced after every step: a folder, a pipe (reading it would
        # wait for a writer) or a device is refused as a save is.
        try:
            resolve_target(args.out)
        except ParlourError as err:
            raise CommandError(f"--out: {err}") from None
    state = _search_state(args, search)
    with ExitStack() as stack:
        backend = None
        if args.backend == "dask":
            from parlour.games.beggar.lab.search_dask import dask_backend

            backend = stack.enter_context(dask_backend(args.workers, args.scheduler))
        state, played, seconds = _run(args, search, state, backend)
    if args.json:
        report = state.to_json()
        report["run"] = {
            "deals": played,
            "seconds": round(seconds, 3),
            "deals_per_second": round(played / max(seconds, 1e-9)),
            "backend": args.backend,
        }
        print_json(report, compact=True)
        return 0
    console = people_console()
    console.print(
        f"{state.strategy} search for {state.players} players (seed {state.seed}){_where(backend)}"
        f": {played:,} deals in {seconds:.1f}s ({played / max(seconds, 1e-9):,.0f} deals/s), "
        f"{state.deals:,} in all"
    )
    console.print("Longest games found (M9 deals, Player 1's hand first):")
    for rank, found in enumerate(state.top, 1):
        console.print(
            f"{rank:>3}. {found.cards} cards, {found.tricks} tricks ({found.result}): {found.deal}"
        )
    if args.out is not None:
        console.print(f"Saved to {args.out}; run the same command again to go on.")
    return 0


def _run(
    args: argparse.Namespace, search: ModuleType, state: SearchState, backend: Backend | None
) -> tuple[SearchState, int, float]:
    """Search until the budget is spent, saving after every step: the search, the deals
    played and the seconds taken."""
    budget = args.deals if args.deals is not None else args.minutes * 60
    unit = "deals" if args.deals is not None else "s"
    step = search.STEP_DEALS[state.strategy]
    start_deals = state.deals
    began = time.monotonic()
    progress = Progress(
        TextColumn(f"{state.strategy} search, {state.players} players{_where(backend)}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} " + unit),
        TextColumn("{task.fields[rate]}", style="cyan"),
        TextColumn("{task.fields[best]}", style="green"),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )
    with progress as bar:
        task = bar.add_task("search", total=budget, rate="", best="")

        def show(played: int) -> None:
            elapsed = max(time.monotonic() - began, 1e-9)
            best = state.best
            bar.update(
                task,
                completed=played if unit == "deals" else elapsed,
                rate=f"{played / elapsed:,.0f} deals/s",
                best="" if best is None else f"best {best.cards} cards ({best.result})",
            )

        while True:
            played = state.deals - start_deals
            if unit == "deals":
                size = min(step, budget - played)
            else:
                size = step if time.monotonic() - began < budget else 0
            if size <= 0:
                break
            state = search.search_step(
                state,
                size,
                workers=args.workers,
                backend=backend,
                progress=partial(_shifted, show, played),
            )
            show(state.deals - start_deals)
            if args.out is not None:
                _write_search(args.out, state.to_json())
    return state, state.deals - start_deals, time.monotonic() - began


def _where(backend: Backend | None) -> str:
    return "" if backend is None else " on Dask"


def _shifted(report: Callable[[int], None], base: int, done: int) -> None:
    report(base + done)


def _search_state(args: argparse.Namespace, search: ModuleType) -> SearchState:
    """A new search, or the one saved in ``--out`` (its settings must match those given)."""
    options = options_of(args)
    without_clock(GAME.typed_options(options))  # M12: a search has no clock
    if args.out is None or not Path(args.out).exists():
        seed = fresh_seed() if args.seed is None else args.seed
        fresh: SearchState = search.new_search(
            args.players or 2, seed, args.strategy or "random", options, args.top or 10
        )
        return fresh
    saved: SearchState = search.SearchState.from_json(read_json(args.out))
    given = {
        "players": args.players,
        "seed": args.seed,
        "strategy": args.strategy,
        "options": GAME.typed_options(options).to_json() if options else None,
    }
    for name, value in given.items():
        if value is not None and value != getattr(saved, name):
            raise CommandError(
                f"{args.out} holds a search with {name} {quote(getattr(saved, name))}, not "
                f"{quote(value)}: give another --out FILE or the same {name}"
            )
    if args.top is not None and args.top != saved.top_k:
        saved = search.SearchState.from_json({**saved.to_json(), "top_k": args.top})
    return saved


def _write_search(path: str, data: dict[str, JSON]) -> None:
    """Save a search atomically (:func:`write_text_atomic`: temporary file, fsync, rename; a
    symlink keeps its link), so that an interrupted run leaves the last whole state."""
    write_text_atomic(path, json.dumps(data, indent=1) + "\n")
