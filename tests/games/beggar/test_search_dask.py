"""The long-game search on Dask (``games/beggar/lab/search_dask.py``, ``parlour beggar search
--backend dask``): for the same seed and deals, every strategy finds the same games, and leaves
the same search, on threads and on a real Dask LocalCluster, with 1 or 2 workers; a search
saved on one backend goes on on the other; bad input gets one line and exit status 2."""

from __future__ import annotations

import importlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.games.beggar.fast import play_random
from parlour.games.beggar.lab import search_dask as beggar_search_dask
from parlour.games.beggar.lab.search import (
    Backend,
    SearchState,
    longest,
    new_search,
    search_step,
)
from parlour.games.beggar.lab.search_dask import DaskBackend, dask_backend
from parlour.lab.workers import unreachable_reason
from tests.games.beggar.test_search import one_line_error, run

# (strategy, players, options): the card limit makes many games of 400 cards, so that the
# longest of each range tie with those of the next, and the merge must break ties as threads do.
CASES = [
    ("random", 2, None),
    ("random", 3, {"card_limit": 400}),
    ("climb", 2, None),
    ("climb", 3, None),
    ("backward", 2, None),
]
STEPS = (30_000, 20_000)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A LocalCluster of 2 worker processes for the whole module: its scheduler's address."""
    dask: Any = importlib.import_module("distributed")
    with dask.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    ) as cluster:
        yield str(cluster.scheduler_address)


@pytest.fixture(scope="module")
def two(scheduler: str) -> Iterator[DaskBackend]:
    """The 2-worker cluster, reached at its address as ``--scheduler`` does."""
    with dask_backend(scheduler=scheduler) as backend:
        assert backend.threads == 2
        yield backend


@pytest.fixture(scope="module")
def one() -> Iterator[DaskBackend]:
    """A LocalCluster of 1 worker process, started by ``dask_backend`` as ``--workers 1`` does."""
    with dask_backend(workers=1) as backend:
        assert backend.threads == 1
        yield backend


def searched(
    case: tuple[str, int, dict[str, Any] | None],
    *,
    workers: int = 1,
    backend: Backend | None = None,
    steps: tuple[int, ...] = STEPS,
) -> SearchState:
    strategy, players, options = case
    state = new_search(players, 11, strategy, options, 6)
    for deals in steps:
        state = search_step(state, deals, workers=workers, backend=backend)
    return state


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p{'-limit' if c[2] else ''}")
def test_every_backend_and_worker_count_gives_the_same_search(
    case: tuple[str, int, dict[str, Any] | None], one: DaskBackend, two: DaskBackend
) -> None:
    reference = searched(case)
    assert reference.deals >= sum(STEPS) and len(reference.top) == 6
    for other in (
        searched(case, workers=2),
        searched(case, backend=one),
        searched(case, backend=two),
    ):
        assert other.top == reference.top
        assert other.to_json() == reference.to_json()


def test_ties_at_the_cut_keep_the_first_deals(two: DaskBackend) -> None:
    """A third of these games stop at the card limit (M11): the longest kept of a range are
    the first of those, so that the longest of its pieces merge into the same."""
    options = {"card_limit": 400}
    scores = play_random(3, 5_000, 11, options).scores
    first = sorted(range(5_000), key=lambda i: (-scores[i], i))[:6]
    assert (scores == scores[first[-1]]).sum() > 1_000
    kept = longest(3, 11, options, 0, 5_000, 6, workers=2)
    assert [index for _, index, _ in kept] == first
    state = new_search(3, 11, "random", options, 6)
    assert two.longest(state, 5_000, 6, None) == [found for _, _, found in kept]


@pytest.mark.parametrize("strategy", ["random", "climb", "backward"])
def test_a_search_saved_on_one_backend_goes_on_on_the_other(
    strategy: str, two: DaskBackend
) -> None:
    case = (strategy, 2, None)
    whole = searched(case, workers=2)
    for first, then in ((two, None), (None, two)):
        half = searched(case, backend=first, steps=STEPS[:1])
        saved = SearchState.from_json(json.loads(json.dumps(half.to_json())))
        assert saved == half
        assert search_step(saved, STEPS[1], workers=2, backend=then) == whole


def test_progress_counts_the_deals_played(two: DaskBackend) -> None:
    seen: list[int] = []
    search_step(new_search(2, 1, "random"), 50_000, backend=two, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 50_000 and len(seen) > 1


def test_the_command_resumes_on_the_other_backend(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scheduler: str
) -> None:
    out_file = tmp_path / "search.json"
    args = ("beggar", "search", "--seed", "3", "--top", "4", "--out", str(out_file))
    dask = ("--backend", "dask", "--scheduler", scheduler)
    code, out, _ = run(capsys, *args, "--deals", "20000", *dask)
    assert code == 0 and "on Dask" in out and "Longest games found" in out
    assert "backend" not in json.loads(out_file.read_text())
    code, out, _ = run(capsys, *args, "--deals", "30000", "--json")
    report = json.loads(out)
    assert code == 0 and report["run"] == {**report["run"], "deals": 30_000, "backend": "local"}
    code, out, _ = run(
        capsys, "beggar", "search", "--seed", "3", "--top", "4", "--deals", "50000", "--json"
    )
    whole = json.loads(out)
    assert {k: v for k, v in report.items() if k != "run"} == {
        k: v for k, v in whole.items() if k != "run"
    }
    code, out, _ = run(capsys, *args, "--deals", "10000", "--json", *dask)
    assert code == 0 and json.loads(out)["deals"] == 60_000


def test_bad_input_gets_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, scheduler: str
) -> None:
    search = ("beggar", "search", "--deals", "10")
    one_line_error(run(capsys, *search, "--scheduler", scheduler), "--scheduler")
    one_line_error(run(capsys, *search, "--backend", "spark"), "--backend")
    one_line_error(
        run(capsys, *search, "--backend", "dask", "--scheduler", scheduler, "--workers", "2"),
        "--workers",
    )
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        nowhere = f"tcp://127.0.0.1:{free.getsockname()[1]}"
    monkeypatch.setattr(beggar_search_dask, "CONNECT_TIMEOUT", 0.5)
    with socket.socket() as silent:  # takes connections and never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        mute = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        cases = (
            (nowhere, "nothing listens there (the connection was refused)"),
            (mute, "no answer within 0.5 s"),
            ("nowhere", "port"),
        )
        for address, reason in cases:
            result = run(capsys, *search, "--backend", "dask", "--scheduler", address)
            one_line_error(result, f"cannot reach the Dask scheduler at {address}: ")
            assert reason in result[2]
    # A name no resolver knows (not looked up here: the machine may have no network at all).
    assert unreachable_reason(socket.gaierror(-2, "Name or service not known"), 10) == (
        "no such host"
    )
