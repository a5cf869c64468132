"""``parlour lab run``: the same seed gives the same games and metrics whatever the backend and
the number of workers (a local process pool, a real Dask LocalCluster); a run stopped by a kill
resumes with the games it lacks; a file of another run is refused; the JSON has the issue's shape.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from parlour.lab.metrics import aggregate
from parlour.lab.run import RunSpec, run

SPEC = RunSpec("beor", 3, ("heuristic", "random"), 24, 5)


def metrics_of(rows: list[dict[str, Any]], spec: RunSpec = SPEC) -> Any:
    return aggregate(spec.game, spec.players, [r["figures"] for r in rows])


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return run(SPEC, tmp_path_factory.mktemp("lab") / "one.db", workers=1)


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "workers"), [("local", 2), ("dask", 1), ("dask", 2)], ids=str)
def test_every_backend_and_worker_count_plays_the_same_games(
    one_worker: list[dict[str, Any]], tmp_path: Path, backend: str, workers: int
) -> None:
    rows = run(SPEC, tmp_path / "run.db", backend=backend, workers=workers)
    assert [r["index"] for r in rows] == list(range(SPEC.games))
    assert rows == one_worker
    assert metrics_of(rows) == metrics_of(one_worker)


def test_seats_rotate_over_the_agents(one_worker: list[dict[str, Any]]) -> None:
    plans = [tuple(r["plan"]) for r in one_worker[:3]]
    assert plans == [(0, 1, 0), (1, 0, 1), (0, 1, 0)]


def test_a_larger_run_on_the_same_file_plays_only_the_games_it_lacks(
    one_worker: list[dict[str, Any]], tmp_path: Path
) -> None:
    out = tmp_path / "grow.db"
    first = run(RunSpec("beor", 3, ("heuristic", "random"), 10, 5), out)
    seen: list[int] = []
    rows = run(SPEC, out, progress=seen.append)
    assert seen[0] == 10 and seen[-1] == SPEC.games
    assert rows[:10] == first and rows == one_worker


def test_a_file_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "other.db"
    run(RunSpec("beor", 2, ("heuristic",), 2, 1), out)
    with pytest.raises(Exception, match="holds another run"):
        run(RunSpec("beor", 2, ("heuristic",), 2, 2), out)


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", "lab", "run", *args],
        capture_output=True, text=True, cwd=cwd, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_a_killed_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    # The rules engine: the compiled kernel would play all 60 games before the kill.
    args = ["death", "--players", "4", "--agents", "heuristic", "--games", "60", "--seed", "9"]
    args += ["--engine", "python"]
    whole = json.loads(cli(*args, "--workers", "1", "--json", "--out", "a.db", cwd=tmp_path).stdout)
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", "lab", "run", *args, "--workers", "1", "--out", "b.db"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    done = 0
    while time.monotonic() < deadline and done < 10:
        time.sleep(0.05)
        try:
            with sqlite3.connect(tmp_path / "b.db") as db:
                done = db.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:
            continue
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=20)
    assert 10 <= done < 60, f"the run was not caught mid-way ({done} games)"
    again = cli(*args, "--workers", "1", "--json", "--out", "b.db", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == whole


def test_the_json_has_the_shape_the_issue_gives(tmp_path: Path) -> None:
    args = ["death", "--players", "3", "--agents", "heuristic", "--games", "12", "--seed", "4"]
    done = cli(*args, "--workers", "1", "--json", "--out", "d.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert {k: out[k] for k in ("game", "players", "games", "seed", "backend", "agents")} == {
        "game": "death", "players": 3, "games": 12, "seed": 4, "backend": "local",
        "agents": ["heuristic"],
    }  # fmt: skip
    metrics = out["metrics"]
    seats = metrics["seat_win_rate"]
    assert len(seats) == 3 and all(set(s) >= {"value", "ci95", "unit"} for s in seats)
    assert abs(sum(s["value"] for s in seats) - 1) < 1e-9
    for name in ("length", "black_face_drinks"):
        lo, hi = metrics[name]["ci95"]
        assert lo <= metrics[name]["value"] <= hi
    assert metrics["black_face_drinks"]["value"] == 52  # the built-in check: every deal
    assert len(metrics["drinks_taken"]) == 3


def test_beggar_my_neighbour_runs_on_the_kernel_with_its_options(tmp_path: Path) -> None:
    args = ["beggar", "--players", "2", "--games", "300", "--seed", "2", "--json"]
    done = cli(*args, "--options", "card_limit=200", "--out", "g.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    metrics = json.loads(done.stdout)["metrics"]
    assert metrics["length"]["summary"]["max"] <= 200
    assert 0 < metrics["card_limit_rate"]["value"] < 1
    # Agents have nothing to decide: the run goes on without them, and says so.
    noted = cli(
        "beggar", "--agents", "random", "--games", "3", "--json", "--out", "h.db", cwd=tmp_path
    )
    assert noted.returncode == 0, noted.stderr
    assert "no decisions" in noted.stderr and json.loads(noted.stdout)["agents"] == []


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    args = ["beor", "--agents", "heuristic", "--games", "2", "--backend", "dask"]
    done = cli(*args, "--scheduler", "tcp://127.0.0.1:1", "--out", "x.db", cwd=tmp_path)
    assert done.returncode == 2
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:1" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("table", "text", "says"),
    [
        ("runs", "[" * 3000, "nests arrays and objects"),
        ("runs", '{"game": "beor"}', "has no field 'players'"),
        (
            "runs",
            json.dumps(
                {
                    "game": "beor",
                    "players": 2,
                    "agents": ["random"],
                    "games": "x",
                    "seed": 1,
                    "options": {},
                }
            ),
            "field 'games' must be a whole number",
        ),
        ("games", "{", "game row 0 is not JSON"),
        ("games", "7", "game row 0 is not a JSON object"),
        ("games", json.dumps({"index": [], "figures": {}}), "field 'index' must be"),
        (
            "games",
            json.dumps({"index": 0, "figures": {"length": "x", "ended": True}}),
            "figure 'length'",
        ),
    ],
)
def test_a_run_file_changed_by_hand_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, text: str, says: str
) -> None:
    """A run file is read field by field: a spec or a game's row that is not as parlour lab
    wrote it is refused by name, by lab report and by lab run resuming it."""
    from parlour.cli import main

    path = tmp_path / "run.db"
    argv = [
        "lab",
        "run",
        "beor",
        "--agents",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--workers",
        "1",
        "--out",
        str(path),
        "--json",
    ]
    assert main(argv) == 0
    with sqlite3.connect(path) as db:
        column = "spec" if table == "runs" else "row"
        db.execute(f"UPDATE {table} SET {column} = ?", (text,))
    db.close()
    capsys.readouterr()
    for command in (["lab", "report", str(path)], argv):
        assert main(command) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and says in err, err
        assert "Traceback" not in err
