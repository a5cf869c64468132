"""examples/baselines.py in its quick settings: a row per game and method, intervals that hold
their scores, the seeds written down, the same figures from the same seed, bad settings refused."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "baselines.py"
SCORE = re.compile(r"(\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\]")


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baselines", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baselines"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_example()


@pytest.fixture(scope="module")
def quick(example: ModuleType) -> tuple[list[Any], dict[str, float]]:
    measured: tuple[list[Any], dict[str, float]] = example.measure(example.QUICK)
    return measured


def test_the_games_measured_and_the_one_without_decisions(example: ModuleType) -> None:
    playing, idle = example.measured_games()
    assert set(playing) == {"beor", "death", "crazy-eights"}
    assert idle == ("beggar",)


def test_the_table_has_a_row_per_game_and_method(
    example: ModuleType, quick: tuple[list[Any], dict[str, float]]
) -> None:
    cells, _ = quick
    settings = example.QUICK
    text = example.table(cells, ("beggar",), settings)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0] == "| game | method | against `random` | against `heuristic` |"
    titles = {"beor": "BEOR (max_turns 100)", "death": "Becker's Game of Death"}
    titles["crazy-eights"] = "Crazy Eights"
    for game, title in titles.items():
        for method in ("MaskablePPO", "ISMCTS", "random", "heuristic"):
            label = example.method_text(method, settings)
            matching = [r for r in rows if r.startswith(f"| {title} | {label} |")]
            assert len(matching) == 1, (game, method, rows)
            shown = SCORE.findall(matching[0])
            assert len(shown) == 2, matching[0]  # one score a bot
            for score, low, high in shown:
                assert float(low) <= float(score) <= float(high)
    assert any(r.startswith("| Beggar-My-Neighbour | none: no decisions") for r in rows)
    assert len(rows) == 1 + 3 * 4 + 1
    last = 1_000_000_000_000 + settings.games - 1
    assert f"Deal seeds 1000000000000 to {last}; training and search seed 0." in text


def test_every_interval_contains_its_score(
    example: ModuleType, quick: tuple[list[Any], dict[str, float]]
) -> None:
    cells, seconds = quick
    assert len(cells) == 3 * 4 * 2  # games, methods, bots
    for c in cells:
        assert c.games == example.QUICK.games == c.wins + c.draws + c.losses
        assert c.score == pytest.approx((c.wins + c.draws / 2) / c.games)
        assert 0.0 <= c.low <= c.score <= c.high <= 1.0
        assert c.high - c.low > 0.2, c  # a few games say little
    assert set(seconds) == {
        f"{g} {m}"
        for g in ("beor", "death", "crazy-eights")
        for m in ("MaskablePPO", "ISMCTS", "random", "heuristic")
    }


def test_the_same_seed_gives_the_same_figures(
    example: ModuleType, quick: tuple[list[Any], dict[str, float]]
) -> None:
    cells, _ = quick
    again, _ = example.measure(example.QUICK, ["death"])
    assert again == [c for c in cells if c.game == "death"]


def test_two_workers_give_the_same_figures(
    example: ModuleType, quick: tuple[list[Any], dict[str, float]]
) -> None:
    cells, _ = quick
    shared, _ = example.measure(replace(example.QUICK, workers=2), ["crazy-eights"])
    assert shared == [c for c in cells if c.game == "crazy-eights"]


def test_the_files_hold_the_table_the_figures_and_the_seeds(
    example: ModuleType, quick: tuple[list[Any], dict[str, float]], tmp_path: Path
) -> None:
    cells, seconds = quick
    settings = example.QUICK
    text = example.table(cells, ("beggar",), settings)
    figures = example.report(cells, ("beggar",), settings, 1.5, seconds)
    markdown, data = example.write(tmp_path / "out", text, figures)
    assert markdown.read_text(encoding="utf-8") == text
    read = json.loads(data.read_text(encoding="utf-8"))
    assert read["seeds"] == {
        "deals": [1_000_000_000_000, 1_000_000_000_000 + settings.games - 1],
        "training_and_search": 0,
    }
    assert read["settings"]["simulations"] == settings.simulations
    assert read["game_options"] == {"beor": {"max_turns": 100}}
    assert read["no_decisions"] == ["beggar"]
    assert len(read["cells"]) == len(cells)
    first = read["cells"][0]
    assert first["game"] == cells[0].game and first["score"] == cells[0].score


@pytest.mark.parametrize(
    "argv", [["--simulations", "1"], ["--games", "0"], ["--workers", "0"], ["--seed", "-1"]]
)
def test_bad_settings_are_refused(
    example: ModuleType, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        example.main(["--quick", *argv])
    assert stop.value.code == 2
    assert "must be" in capsys.readouterr().err
