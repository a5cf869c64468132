"""The lab's engines (``--engine fast|python``): the Game of Death on its compiled kernel gives
the rules engine's rows, row for row (who sat where, every figure, the lead figures and ``first``
included, and the record), for every player count, both agents it plays and the options and
dealers that change a game; ``fast`` is the default only where the kernel plays every seat's
agent; a run file takes either engine only where both give the same rows.

The differential test plays ``ENGINE_GAMES`` games (default 150) for each player count and
agents on both engines: 300 games a player count, 2,700 in all. The kernel's rules come up in
nearly every game: kernels changed on purpose (the social's trigger or drink, breaking suit,
the game's end on a last Ace, the sweep after a black Ace's gives, the heuristic's face cards)
gave a row unlike the rules engine's in game 0 or 1.
``ENGINE_GAMES=1000 pytest tests/lab/test_engines.py`` plays 2,000 a player count.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from parlour.errors import InvalidOption
from parlour.lab.engines import fast_refusal, same_rows
from parlour.lab.run import RunSpec, play_batch, run

GAMES = int(os.environ.get("ENGINE_GAMES", "150"))


def rows_of(spec: RunSpec, indices: list[int]) -> list[dict[str, Any]]:
    """The rows the lab's workers write for ``indices`` (as JSON, then read)."""
    return [json.loads(row) for _, row in play_batch(json.dumps(spec.to_json()), indices)]


def both_engines(spec: RunSpec, indices: list[int]) -> tuple[list[Any], list[Any]]:
    spec = spec.checked()
    python = rows_of(replace(spec, engine="python"), indices)
    fast = rows_of(replace(spec, engine="fast"), indices)
    return python, fast


def first_difference(python: list[Any], fast: list[Any]) -> str:
    for a, b in zip(python, fast, strict=True):
        if a != b:
            keys = sorted(k for k in a["figures"] if a["figures"][k] != b["figures"].get(k))
            return f"game {a['index']} differs: figures {keys}, record {a['record'] == b['record']}"
    return ""


@pytest.mark.slow
@pytest.mark.parametrize("agents", [("heuristic",), ("random", "heuristic")], ids=",".join)
@pytest.mark.parametrize("players", range(2, 11))
def test_the_kernel_plays_the_rules_engines_games(players: int, agents: tuple[str, ...]) -> None:
    spec = RunSpec("death", players, agents, GAMES, 20_000 + players)
    python, fast = both_engines(spec, list(range(GAMES)))
    assert len(fast) == GAMES
    assert python == fast, first_difference(python, fast)
    # The rows say what the lab needs: who moved first (the holder of 2♦), the lead figures.
    firsts = {r["figures"]["first"] for r in fast}
    assert firsts <= set(range(players)) and len(firsts) > 1
    assert all(r["figures"]["lead_changes"] is not None for r in fast)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "dealer"),
    [
        ({"difference_against_faces": True}, "fixed"),
        ({"sober": [1, 4]}, "fixed"),
        ({}, "rotate"),
    ],
    ids=["difference_against_faces", "sober", "rotating-dealer"],
)
def test_options_and_dealers_play_alike_on_both_engines(
    options: dict[str, Any], dealer: str
) -> None:
    spec = RunSpec("death", 5, ("heuristic", "random"), 60, 3, options, dealer=dealer)
    python, fast = both_engines(spec, list(range(60)))
    assert python == fast, first_difference(python, fast)


def test_a_game_does_not_depend_on_its_batch() -> None:
    spec = RunSpec("death", 4, ("random", "heuristic"), 30, 8, engine="fast").checked()
    whole = rows_of(spec, list(range(30)))
    pieces = rows_of(spec, [17, 3, 29]) + rows_of(spec, list(range(10)))
    by_index = {r["index"]: r for r in whole}
    assert all(r == by_index[r["index"]] for r in pieces)
    assert [r["index"] for r in rows_of(spec, [5, 2, 9])] == [2, 5, 9]


@pytest.mark.slow
def test_a_kernel_run_on_two_workers_gives_the_rows_of_one(tmp_path: Path) -> None:
    # 600 games: the first batch in this process, then batches of 75 on the pool's two workers
    spec = RunSpec("death", 6, ("heuristic", "random"), 600, 13)
    seen: list[int] = []
    two = run(spec, tmp_path / "two.db", workers=2, progress=seen.append)
    assert seen[0] == 0 and seen[1] == 10 and seen[-1] == 600
    one = run(spec, tmp_path / "one.db", workers=1)
    assert [r["index"] for r in two] == list(range(600))
    assert two == one
    assert two[:50] == rows_of(replace(spec.checked(), engine="python"), list(range(50)))


def test_the_figures_name_the_agents_the_kernel_plays() -> None:
    from parlour.games.death.figures import FIGURES, KERNEL_AGENTS
    from parlour.games.death.lab_kernel import AGENTS

    assert KERNEL_AGENTS == AGENTS == {"random", "heuristic", "medium"}
    assert FIGURES.kernel is not None and FIGURES.kernel.same == AGENTS


def test_fast_is_the_default_where_the_kernel_plays_every_seat() -> None:
    def engine(game: str, *agents: str) -> str:
        return RunSpec(game, 4, agents, 10, 1).checked().engine

    assert engine("death", "heuristic") == "fast"
    assert engine("death", "Random", "heuristic") == "fast"
    assert engine("death", "medium") == "fast"
    assert engine("death", "heuristic", "easy") == "python"  # easy slips: no kernel of it
    assert engine("death", "ismcts:10") == "python"
    assert engine("beggar") == "fast"  # no decisions: the kernel plays every run
    assert RunSpec("death", 4, ("heuristic",), 10, 1, engine="python").checked().engine == (
        "python"
    )


def test_an_engine_that_cannot_play_the_run_is_refused_by_name() -> None:
    with pytest.raises(InvalidOption) as err:
        RunSpec("death", 4, ("heuristic", "ismcts:10"), 10, 1, engine="fast").checked()
    assert str(err.value) == (
        "--engine fast: the compiled kernel of Becker's Game of Death plays the agents "
        "heuristic, medium, random, not 'ismcts:10'; use --engine python"
    )
    with pytest.raises(InvalidOption, match="--engine: one of fast, python, got 'turbo'"):
        RunSpec("death", 4, ("heuristic",), 10, 1, engine="turbo").checked()
    assert fast_refusal(RunSpec("death", 4, ("heuristic",), 10, 1)) is None


def test_a_run_file_takes_either_engine_only_where_their_rows_are_the_same(
    tmp_path: Path,
) -> None:
    spec = RunSpec("death", 3, ("heuristic", "random"), 12, 6)
    assert same_rows(spec.checked())
    begun = run(replace(spec, games=5, engine="python"), tmp_path / "mixed.db")
    whole = run(spec, tmp_path / "mixed.db")  # resumed on the kernel, the default
    assert whole[:5] == begun
    assert whole == run(replace(spec, engine="python"), tmp_path / "python.db")
    # Beggar-My-Neighbour's kernel keeps no history (no lead figures): not the same rows.
    beggar = RunSpec("beggar", 2, (), 4, 6)
    assert not same_rows(beggar.checked())
    run(replace(beggar, engine="python"), tmp_path / "beggar.db")
    with pytest.raises(InvalidOption, match="holds another run"):
        run(beggar, tmp_path / "beggar.db")


def test_files_written_before_engines_were_chosen_read_as_they_were_played() -> None:
    old = {"game": "death", "players": 3, "agents": ["heuristic"], "games": 4, "seed": 1}
    assert RunSpec.from_json({**old, "options": {}}).engine == "python"
    beggar = {**old, "game": "beggar", "agents": [], "options": {}}
    assert RunSpec.from_json(beggar).engine == "fast"
    with pytest.raises(InvalidOption, match="field 'engine' must be fast or python"):
        RunSpec.from_json({**old, "options": {}, "engine": "gpu"})


@pytest.mark.slow
def test_the_command_line_gives_the_same_figures_on_either_engine(tmp_path: Path) -> None:
    args = ["death", "--players", "6", "--agents", "heuristic", "--games", "40", "--seed", "42"]
    found = {}
    for engine in ("fast", "python"):
        done = subprocess.run(
            [sys.executable, "-m", "parlour", "lab", "run", *args, "--workers", "1", "--json",
             "--engine", engine, "--out", f"{engine}.db"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        found[engine] = json.loads(done.stdout)
    assert found["fast"]["engine"] == "fast" and found["python"]["engine"] == "python"
    assert found["fast"]["metrics"] == found["python"]["metrics"]
    assert "position_balance" in found["fast"]["metrics"]
