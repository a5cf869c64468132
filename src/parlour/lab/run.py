"""``parlour lab run``: many seeded games, their figures stored batch by batch in SQLite.

Game ``i`` of a run is the arena's game ``i`` (:func:`parlour.bots.arena.play_to_end`): dealt
from ``derive_seed(seed, "game", i)`` (with a rotating dealer, deal ``i`` of a match of the
seed: :attr:`RunSpec.dealer`), seats rotating over the agents, each seat with its own
generator; so a game's figures depend only on the run's settings and ``i``, never on which
worker played it, how many there were, or the backend. A run's file holds its settings and one
row a game; a run that stops (Ctrl-C, a kill) resumes with the games it lacks, and a file made
with other settings is refused rather than mixed.

Batches of :data:`BATCH` games are the unit of work and of commit; they are played on a
backend of :mod:`parlour.lab.backends` (a process pool here, or a Dask cluster), which stops the
run in one line when it cannot go on (no live worker for ``idle_timeout`` seconds), the batches
played kept.
"""

from __future__ import annotations

import gc
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from parlour.bots.arena import Played, play_to_end
from parlour.core.inputs import quote
from parlour.core.rng import derive_seed
from parlour.errors import FileError, InvalidOption
from parlour.games import find_game
from parlour.lab.backends import BACKENDS, IDLE_TIMEOUT, RunStopped, Watch, executor
from parlour.lab.runspec import MAX_GAMES, RunSpec, check_row, load_json

__all__ = ["BACKENDS", "BATCH", "KERNEL_BATCH", "RunSpec", "RunStore", "play_batch", "run"]

BATCH = 10
"""Games a batch: the unit handed to a worker and committed to the file."""
KERNEL_BATCH = 200
"""Games a batch on a compiled kernel (``--engine fast``): a game takes it well under a
millisecond, so batches of :data:`BATCH` would spend more time being handed over and committed
than played."""


def play_batch(spec_json: str, indices: Sequence[int]) -> list[tuple[int, str]]:
    """Play games ``indices`` of the run (a top-level function: worker processes and Dask
    workers call it) on the run's engine; each game's row as JSON: who sat where, its figures
    and its record (or deal)."""
    from parlour.lab.figures import kernel_for

    spec = RunSpec.from_json(json.loads(spec_json))
    if spec.engine == "fast":  # the game's compiled kernel (parlour.lab.figures, "Kernels")
        kernel = kernel_for(find_game(spec.game))
        if kernel is None:
            raise InvalidOption(f"--engine fast: {spec.game} has no compiled kernel")
        found = sorted(kernel.play(spec, indices), key=lambda r: int(str(r["index"])))
        return [(int(str(r["index"])), json.dumps(r, separators=(",", ":"))) for r in found]
    # Here, not above: a kernel's worker never needs the metrics.
    from parlour.lab.metrics import game_figures

    rows = []
    for i in indices:
        if spec.agents:
            played = play_to_end(
                spec.game,
                spec.players,
                spec.agents,
                spec.seed,
                i,
                spec.options,
                match=spec.dealer == "rotate",
            )
        else:
            played = _play_alone(spec, i)
        row = {
            "index": i,
            "plan": list(played.plan),
            "figures": game_figures(played.state),
            "record": played.record(spec.options).to_json(),
        }
        rows.append((i, json.dumps(row, separators=(",", ":"))))
    return rows


def _play_alone(spec: RunSpec, index: int) -> Played:
    """Game ``index`` of a run of a game without decisions (and without a batch player of its
    own): dealt as the arena deals it (with a rotating dealer, deal ``index`` of a match of the
    run's seed), each turn's one legal action played."""
    game = find_game(spec.game)
    if spec.dealer == "rotate":
        seed, number = spec.seed, index
        state = game.new(
            spec.players, seed, spec.options, game.match_deal(spec.players, seed, index)
        )
    else:
        seed, number = derive_seed(spec.seed, "game", index), None
        state = game.new(spec.players, seed, spec.options)
    actions: list[str] = []
    while not state.is_over:
        action = state.legal_actions()[0]
        state = state.apply(action)
        actions.append(str(action))
    return Played(state, (), seed, tuple(actions), (), (), number)


class RunStore:
    """A run file: for each variant (``""`` for a plain run; a comparison's variants by name) its
    spec, and one row a finished game, committed a batch at a time (WAL, so a killed run loses at
    most the batches in flight)."""

    def __init__(self, path: str | Path, spec: RunSpec | None = None, variant: str = "") -> None:
        self.path = Path(path)
        self.variant = variant
        if self.path.is_dir():
            raise InvalidOption(f"{self.path} is a folder; name a run file, e.g. run.db")
        if self.path.exists() and not self.path.is_file():
            # A device such as /dev/null: SQLite would make its journal beside it.
            raise InvalidOption(f"{self.path} is not a plain file; name a run file, e.g. run.db")
        try:
            self.db = sqlite3.connect(self.path)
        except sqlite3.Error as err:  # a missing folder, no permission
            raise InvalidOption(f"cannot open {self.path}: {err}") from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self._setup(spec)
        except sqlite3.DatabaseError:
            self.db.close()
            raise InvalidOption(f"{self.path} is not a run file of parlour lab") from None
        except BaseException:
            self.db.close()
            raise

    @classmethod
    def reading(cls, path: str | Path) -> RunStore:
        """An existing run file, opened read-only (a report changes nothing).

        Raises:
            InvalidOption: no such file, or not a run file.
        """
        store = cls.__new__(cls)
        store.path, store.variant = Path(path), ""
        if not store.path.is_file():
            raise InvalidOption(f"{path}: no such run file")
        try:
            store.db = sqlite3.connect(f"{store.path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as err:  # a device or a file the system cannot read
            raise InvalidOption(f"cannot open {path}: {err}") from None
        try:
            tables = {n for (n,) in store.db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError:
            tables = set()
        if not {"runs", "games"} <= tables:
            store.db.close()
            raise InvalidOption(f"{path} is not a run file of parlour lab")
        return store

    def _setup(self, spec: RunSpec | None) -> None:
        with self.db:
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS runs (variant TEXT PRIMARY KEY, spec TEXT NOT NULL)"
            )
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS games (variant TEXT NOT NULL, idx INTEGER NOT NULL, "
                "row TEXT NOT NULL, PRIMARY KEY (variant, idx))"
            )
            if spec is not None:
                self._claim(spec)

    def _claim(self, spec: RunSpec) -> None:
        query = "SELECT spec FROM runs WHERE variant = ?"
        found = self.db.execute(query, (self.variant,)).fetchone()
        wanted = json.dumps(spec.to_json(), sort_keys=True)
        if found is not None and not _same_run(
            RunSpec.from_json(load_json(found[0], f"{self.path}: the run's spec")), spec
        ):
            raise InvalidOption(
                f"{self.path} holds another run ({found[0]}); give another --out file"
            )
        # The same run perhaps asked for more games: the file says how many now.
        self.db.execute("INSERT OR REPLACE INTO runs VALUES (?, ?)", (self.variant, wanted))

    def _select(self, query: str, params: tuple[object, ...] = ()) -> list[Any]:
        """The rows of a query; a file that SQLite finds damaged is one line naming it."""
        try:
            return self.db.execute(query, params).fetchall()
        except sqlite3.DatabaseError as err:
            raise InvalidOption(f"{self.path} cannot be read as a run file: {err}") from None

    def variants(self) -> list[tuple[str, RunSpec]]:
        """Every run in the file, in the order they were first made."""
        query = "SELECT variant, spec FROM runs ORDER BY rowid"
        return [
            (str(v), RunSpec.from_json(load_json(t, f"{self.path}: the spec of run {quote(v)}")))
            for v, t in self._select(query)
        ]

    def done(self) -> set[int]:
        query = "SELECT idx FROM games WHERE variant = ?"
        return {i for (i,) in self._select(query, (self.variant,))}

    def add(self, rows: Sequence[tuple[int, str]]) -> None:
        try:
            with self.db:
                self.db.executemany(
                    "INSERT OR IGNORE INTO games VALUES (?, ?, ?)",
                    [(self.variant, i, row) for i, row in rows],
                )
        except sqlite3.Error as err:  # disk full, the file removed or locked meanwhile
            raise FileError(f"cannot write {self.path}: {err}") from None

    def rows(self, limit: int | None = None, variant: str | None = None) -> list[dict[str, Any]]:
        """The finished games' rows in game order (the first ``limit`` games)."""
        query = "SELECT row FROM games WHERE variant = ? ORDER BY idx"
        which = self.variant if variant is None else variant
        with _collector_paused():
            found = [
                check_row(
                    load_json(r, f"{self.path}: game row {k}"),
                    f"{self.path}: game row {k}",
                    MAX_GAMES,
                )
                for k, (r,) in enumerate(self._select(query, (which,)))
            ]
        return found if limit is None else [r for r in found if r["index"] < limit]

    def close(self) -> None:
        self.db.close()


def _same_run(stored: RunSpec, spec: RunSpec) -> bool:
    """Whether a stored spec is ``spec``'s run (the number of games may differ; so may the
    engine where both give the same rows, :func:`parlour.lab.engines.same_rows`)."""
    from parlour.lab.engines import same_rows

    theirs = json.loads(json.dumps(stored.to_json()))
    mine = json.loads(json.dumps(spec.to_json()))  # as stored: tuples become lists
    free = {"games", "engine"} if same_rows(spec) else {"games"}
    return all(theirs.get(k) == mine[k] for k in mine if k not in free)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused (as it was, after): rows read by the thousand are trees
    of lists and dicts, which hold no cycle, and a collector walking the ones read before each
    time makes reading them take three times as long."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _batch_size(spec: RunSpec, todo: int, workers: int) -> int:
    """:data:`BATCH` on the rules engine; on a kernel up to :data:`KERNEL_BATCH`, yet at least
    four batches a worker (none idle while another plays a long last batch)."""
    if spec.engine != "fast":
        return BATCH
    return min(KERNEL_BATCH, max(BATCH, todo // (4 * max(workers, 1))))


def batches(todo: Sequence[int], size: int = BATCH) -> list[list[int]]:
    return [list(todo[k : k + size]) for k in range(0, len(todo), size)]


def run(
    spec: RunSpec,
    out: str | Path,
    *,
    variant: str = "",
    backend: str = "local",
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    idle_timeout: float = IDLE_TIMEOUT,
    note: Callable[[str], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> list[dict[str, Any]]:
    """Play the games ``out`` lacks and return every row of the run, in game order.

    A Dask run stops after ``idle_timeout`` seconds of ``clock`` (time.monotonic for ``None``)
    without a live worker; each worker that leaves mid-run is told to ``note`` in one line.

    Raises:
        InvalidOption: a bad spec, backend or file, or a scheduler that does not answer (before
            any game is played, and before the file is made).
        RunStopped: the backend could not go on; the games played are kept in ``out``.
    """
    spec = spec.checked()
    if backend not in BACKENDS:
        raise InvalidOption(f"--backend: one of {', '.join(BACKENDS)}, got {quote(backend)}")
    if scheduler is not None and backend != "dask":
        raise InvalidOption("--scheduler is for --backend dask")
    watch = Watch(idle_timeout, clock, note or (lambda text: None))
    # The backend first: a scheduler that does not answer leaves no file behind.
    with (
        executor(backend, workers, scheduler, play_batch, watch) as submit_all,
        closing(RunStore(out, spec, variant)) as store,
    ):
        stored = store.done()  # once: a resumed run of many games asks it no more
        todo = [i for i in range(spec.games) if i not in stored]
        done = spec.games - len(todo)
        if progress:
            progress(done)
        text = json.dumps(spec.to_json())
        size = _batch_size(spec, len(todo), workers)
        played: dict[int, str] = {}  # rows of this process's workers, as they came
        todo_batches = batches(todo, size)
        if spec.engine == "fast" and backend == "local" and workers > 1 and todo_batches:
            # The first batch here: the kernel loads in this process before the pool starts,
            # and the workers forked from it need not load it again (a second or more each).
            todo_batches = [todo_batches[0][:BATCH], todo_batches[0][BATCH:], *todo_batches[1:]]
            first = todo_batches.pop(0)
            todo_batches = [b for b in todo_batches if b]
            rows = play_batch(text, first)
            store.add(rows)
            played.update(rows)
            done += len(rows)
            if progress:
                progress(done)
        try:
            for rows in submit_all(text, todo_batches):
                store.add(rows)
                played.update(rows)
                done += len(rows)
                if progress:
                    progress(done)
        except RunStopped as err:
            raise RunStopped(
                f"{err}: stopped; the {done} of {spec.games} games played are kept in {out} "
                "(the same command resumes the run)"
            ) from None
        if len(played) == spec.games:  # all played now: nothing stored before to read back
            with _collector_paused():
                return [json.loads(played[i]) for i in range(spec.games)]
        return store.rows(spec.games)
