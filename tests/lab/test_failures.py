"""Failures that speak (issue 28.4), on a real Dask scheduler with real ``dask worker``
processes killed by signal: a run left with no live worker for the idle timeout stops in one
line and keeps its games, and the same command resumes it to the games an unbroken run plays;
a worker lost mid-run is a note and changes no figure; a scheduler that does not answer leaves
no file behind; a worker process of the local pool that dies stops the run in one line.

The idle timeout is measured on a clock the test moves (each reading a few seconds after the
last), never waited for."""

from __future__ import annotations

import importlib
import json
import logging
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from parlour.cli import main
from parlour.errors import InvalidOption
from parlour.lab import backends
from parlour.lab.backends import RunStopped
from parlour.lab.run import BATCH, RunSpec, RunStore, run

pytestmark = pytest.mark.slow

SPEC = RunSpec("death", 4, ("heuristic",), 100, 9, engine="python")
"""Ten batches of about a quarter of a second each on one worker."""
ARGS = ["death", "--players", "4", "--agents", "heuristic", "--engine", "python", "--seed", "9"]
WAIT = 120.0
"""The longest a test waits for an event (a worker joining or leaving) before it fails."""


class Clock:
    """A clock that moves ``step`` seconds at each reading. A run that reads it past ``limit``
    has waited far longer than any timeout a test sets: the test fails rather than hangs."""

    def __init__(self, step: float = 15.0, limit: float = 7200.0) -> None:
        self.now, self.step, self.limit = 0.0, step, limit

    def __call__(self) -> float:
        self.now += self.step
        assert self.now <= self.limit, "the run went on waiting past every timeout"
        return self.now


class Cluster:
    """A Dask scheduler of a LocalCluster (in this process, no workers of its own) and real
    ``dask worker`` processes that the test starts and kills; ``left`` is set, by the
    scheduler itself, for each worker it has removed."""

    def __init__(self, dask: Any, cluster: Any, client: Any) -> None:
        self.dask, self.cluster, self.client = dask, cluster, client
        self.address = str(cluster.scheduler_address)
        self.procs: list[subprocess.Popen[bytes]] = []
        self.left: dict[str, threading.Event] = {}

    def start(self, count: int = 1) -> list[str]:
        """``count`` new workers, once they have joined: their addresses."""
        before = set(self.client.nthreads())
        command = [sys.executable, "-m", "distributed.cli.dask_worker", self.address]
        for _ in range(count):
            self.procs.append(
                subprocess.Popen(
                    [*command, "--no-nanny", "--nthreads", "1"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        self.client.wait_for_workers(len(before) + count, timeout=WAIT)
        new = sorted(set(self.client.nthreads()) - before)
        for worker in new:
            self.left.setdefault(worker, threading.Event())
        return new

    def pid(self, worker: str) -> int:
        pids: dict[str, int] = self.client.run(os.getpid, workers=[worker])
        return pids[worker]

    def kill(self, worker: str, pid: int | None = None) -> None:
        """SIGKILL to the worker's process; returns once the scheduler has removed it."""
        os.kill(self.pid(worker) if pid is None else pid, signal.SIGKILL)
        assert self.left[worker].wait(WAIT), f"the scheduler did not notice {worker} die"

    def close(self) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait()


class Watcher:
    """Scheduler plugin: sets the event of each worker the scheduler removes; kills ``victim``
    (a pid) once ``after`` batches have ended and ``target`` holds a batch (one starting on it,
    or one it was given before), so that the run cannot end before the scheduler has taken its
    batch back. Made by :func:`watcher`, with Dask's ``SchedulerPlugin`` behind it."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.target: str | None = None
        self.victim: int | None = None
        self.after = 0
        self.ended = 0
        self.killed = False

    def remove_worker(self, scheduler: Any, worker: str, **kwargs: Any) -> None:
        self.cluster.left.setdefault(worker, threading.Event()).set()

    def transition(self, key: Any, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        if finish == "memory":
            self.ended += 1
        if self.killed or self.victim is None or self.ended < self.after:
            return
        scheduler = self.cluster.cluster.scheduler
        if finish == "processing":  # a batch starts on the target
            on = scheduler.tasks[key].processing_on
            busy = on is not None and on.address == self.target
        else:  # a batch ended; the target may hold batches given to it before (no queuing)
            found = scheduler.workers.get(self.target)
            busy = found is not None and bool(found.processing)
        if busy:
            self.killed = True
            os.kill(self.victim, signal.SIGKILL)


def watcher(cluster: Cluster) -> Watcher:
    """A :class:`Watcher` that is a ``SchedulerPlugin`` too (its hooks that Watcher lacks do
    nothing): distributed is imported here, when a cluster starts, not when every worker of
    the test run collects this file."""
    base = importlib.import_module("distributed.diagnostics.plugin").SchedulerPlugin
    kind: type[Watcher] = type("SchedulerWatcher", (Watcher, base), {})
    return kind(cluster)


@pytest.fixture
def cluster() -> Iterator[tuple[Cluster, Watcher]]:
    dask: Any = importlib.import_module("distributed")
    with (
        dask.LocalCluster(
            n_workers=0, processes=True, dashboard_address=None, silence_logs=logging.CRITICAL,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        ) as local,
        dask.Client(local, set_as_default=False) as client,
    ):  # fmt: skip
        found = Cluster(dask, local, client)
        plugin = watcher(found)
        local.scheduler.add_plugin(plugin, name="parlour-test-watcher")
        try:
            yield found, plugin
        finally:
            found.close()


@pytest.fixture(scope="module")
def unbroken(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The run's rows played here, on one worker, with nothing failing."""
    return run(SPEC, tmp_path_factory.mktemp("lab") / "unbroken.db", workers=1)


def stored(path: Path) -> list[dict[str, Any]]:
    with closing(RunStore.reading(path)) as store:
        return store.rows()


@pytest.mark.parametrize("timeout", [None, 90.0], ids=["default 30 s", "90 s"])
def test_a_run_with_no_live_worker_stops_in_one_line_and_keeps_its_games(
    cluster: tuple[Cluster, Watcher],
    unbroken: list[dict[str, Any]],
    tmp_path: Path,
    timeout: float | None,
) -> None:
    """The only worker is killed once a batch is stored: after the timeout on the run's clock
    (not before), one line; the games stored are those of the unbroken run, and the same run
    on the same file, a worker back, ends with exactly the unbroken run's games."""
    dask, _ = cluster
    (worker,) = dask.start()
    clock = Clock()
    killed_at: list[float] = []

    def progress(done: int) -> None:
        if done >= BATCH and not killed_at:
            dask.kill(worker)
            killed_at.append(clock.now)

    out = tmp_path / "run.db"
    play = partial(run, SPEC, out, backend="dask", scheduler=dask.address, progress=progress)
    if timeout is not None:  # else the default
        play = partial(play, idle_timeout=timeout)
    with pytest.raises(RunStopped) as stopped:
        play(clock=clock)
    waited = 30.0 if timeout is None else timeout
    said = str(stopped.value)
    found = re.fullmatch(
        rf"no live Dask worker at {re.escape(dask.address)} for {waited:g} s \(1 left during "
        rf"the run\): stopped; the (\d+) of 100 games played are kept in {re.escape(str(out))} "
        r"\(the same command resumes the run\)",
        said,
    )
    assert found, said
    assert clock.now - killed_at[0] >= waited, "stopped before the timeout"
    kept = stored(out)
    assert BATCH <= len(kept) == int(found[1]) < SPEC.games
    assert kept == [unbroken[r["index"]] for r in kept]

    dask.start()
    assert run(SPEC, out, backend="dask", scheduler=dask.address, clock=clock) == unbroken


def test_a_worker_lost_mid_run_is_a_note_and_changes_no_figure(
    cluster: tuple[Cluster, Watcher], unbroken: list[dict[str, Any]], tmp_path: Path
) -> None:
    dask, watcher = cluster
    _, lost = dask.start(2)
    watcher.target, watcher.victim, watcher.after = lost, dask.pid(lost), 2
    notes: list[str] = []
    rows = run(SPEC, tmp_path / "run.db", backend="dask", scheduler=dask.address,
               clock=Clock(), note=notes.append)  # fmt: skip
    assert watcher.killed and dask.left[lost].is_set()
    told = f"Dask worker {lost} left during the run; its games in play are played again on the"
    assert notes == [f"{told} others"]
    assert rows == unbroken


def test_a_scheduler_lost_mid_run_stops_it_in_one_line(
    cluster: tuple[Cluster, Watcher], unbroken: list[dict[str, Any]], tmp_path: Path
) -> None:
    dask, _ = cluster
    dask.start()
    closed: list[bool] = []

    def progress(done: int) -> None:
        if done >= BATCH and not closed:
            dask.cluster.close()  # the scheduler with it
            closed.append(True)

    out = tmp_path / "run.db"
    with pytest.raises(RunStopped) as stopped:
        run(SPEC, out, backend="dask", scheduler=dask.address, progress=progress, clock=Clock())
    found = re.fullmatch(
        rf"lost the Dask scheduler at {re.escape(dask.address)}: stopped; the (\d+) of 100 "
        rf"games played are kept in {re.escape(str(out))} \(the same command resumes the run\)",
        str(stopped.value),
    )
    assert found, stopped.value
    kept = stored(out)
    assert len(kept) == int(found[1]) >= BATCH and kept == [unbroken[r["index"]] for r in kept]


def test_the_command_stops_in_one_line_and_the_same_command_resumes(
    cluster: tuple[Cluster, Watcher],
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``parlour lab run --backend dask``: 20 games played, then the workers gone; asked for
    100 it stops after ``--idle-timeout`` (exit status 2, one line, nothing on standard output),
    and with a worker back the same command gives the figures of a local run."""
    dask, _ = cluster
    (worker,) = dask.start()
    out = tmp_path / "run.db"
    dask_args = ["--backend", "dask", "--scheduler", dask.address, "--out", str(out), "--json"]
    assert main(["lab", "run", *ARGS, "--games", "20", *dask_args]) == 0
    assert json.loads(capfd.readouterr().out)["notes"] == []
    dask.kill(worker)

    clock = Clock()
    monkeypatch.setattr(backends, "monotonic", clock)
    again = ["lab", "run", *ARGS, "--games", "100", "--idle-timeout", "45", *dask_args]
    assert main(again) == 2
    said = capfd.readouterr()
    assert said.out == ""
    assert said.err == (
        f"parlour lab run: error: no live Dask worker at {dask.address} for 45 s: stopped; the "
        f"20 of 100 games played are kept in {out} (the same command resumes the run)\n"
    )
    assert clock.now >= 45 and len(stored(out)) == 20

    dask.start()
    assert main(again) == 0
    resumed = json.loads(capfd.readouterr().out)
    local = ["--workers", "1", "--out", str(tmp_path / "local.db"), "--json"]
    assert main(["lab", "run", *ARGS, "--games", "100", *local]) == 0
    alone = json.loads(capfd.readouterr().out)
    assert resumed.pop("backend") == "dask" and alone.pop("backend") == "local"
    assert resumed == alone and resumed["notes"] == []


def test_an_unreachable_scheduler_leaves_no_file(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        nowhere = f"tcp://127.0.0.1:{free.getsockname()[1]}"
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", 0.5)
    argv = ["lab", "run", *ARGS, "--games", "10", "--backend", "dask", "--scheduler", nowhere,
            "--out", str(tmp_path / "run.db")]  # fmt: skip
    assert main(argv) == 2
    said = capfd.readouterr()
    assert said.out == "" and said.err == (
        f"parlour lab run: error: --scheduler: cannot reach a Dask scheduler at {nowhere}: "
        "nothing listens there (the connection was refused)\n"
    )
    assert list(tmp_path.iterdir()) == []  # not even an empty database, nor its journal


def test_a_local_worker_process_that_dies_stops_the_run_in_one_line(
    unbroken: list[dict[str, Any]], tmp_path: Path
) -> None:
    before = set(multiprocessing.active_children())
    killed: list[int] = []

    def progress(done: int) -> None:
        ours = [p for p in multiprocessing.active_children() if p not in before]
        if done >= BATCH and not killed and ours and ours[0].pid is not None:
            os.kill(ours[0].pid, signal.SIGKILL)
            killed.append(ours[0].pid)

    out = tmp_path / "run.db"
    with pytest.raises(RunStopped) as stopped:
        run(SPEC, out, workers=2, progress=progress)
    assert killed
    found = re.fullmatch(
        r"a worker process on this machine ended abruptly \(killed, or out of memory\): "
        rf"stopped; the (\d+) of 100 games played are kept in {re.escape(str(out))} \(the "
        r"same command resumes the run\)",
        str(stopped.value),
    )
    assert found, stopped.value
    kept = stored(out)
    assert len(kept) == int(found[1]) and kept == [unbroken[r["index"]] for r in kept]
    assert run(SPEC, out, workers=2) == unbroken


@pytest.mark.parametrize("bad", [-1.0, float("nan"), 1e9])
def test_an_idle_timeout_out_of_range_is_refused_before_the_file(
    tmp_path: Path, bad: float
) -> None:
    with pytest.raises(InvalidOption, match="--idle-timeout must be a number of seconds"):
        run(SPEC, tmp_path / "run.db", backend="dask", scheduler="tcp://127.0.0.1:1",
            idle_timeout=bad)  # fmt: skip
    assert list(tmp_path.iterdir()) == []
