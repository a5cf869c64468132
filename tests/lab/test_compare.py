"""``parlour lab compare`` and ``parlour lab report``: rule variants on the same deals, paired
differences with intervals and a verdict; one HTML file with the table and the plots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.lab.compare import CHANGED, UNCHANGED, compare, parse_variant


def test_a_variant_is_a_name_and_options() -> None:
    assert parse_variant("short:max_turns=8") == ("short", {"max_turns": "8"})
    assert parse_variant(" b : natural_win=false , max_turns=9") == (
        "b",
        {"natural_win": "false", "max_turns": "9"},
    )
    for bad in ("short", ":max_turns=8", "short:", "short:max_turns"):
        with pytest.raises(ValueError, match="--variant"):
            parse_variant(bad)


def rows(lengths: list[int], wins: list[int]) -> list[dict[str, Any]]:
    """Game rows of 2-player BEOR with the figures compare reads."""
    out = []
    for i, (length, winner) in enumerate(zip(lengths, wins, strict=True)):
        figures = {
            "game": "beor", "players": 2, "length": length, "win_shares": [1 - winner, winner],
            "lead_changes": 0, "decided_at": None if i == 0 else 0.5, "stuck": 0, "restocks": 0,
            "natural_win": 0, "turn_cap_draw": 0, "ended": True,
        }  # fmt: skip
        out.append({"index": i, "figures": figures})
    return out


def test_differences_are_paired_game_by_game() -> None:
    base = rows([10, 20, 30, 40], [0, 0, 1, 1])
    variant = rows([12, 22, 32, 42], [0, 1, 1, 1])
    found: Any = compare("beor", 2, base, variant)
    length = found["length"]
    # Every game is 2 actions longer: the paired difference is exactly +2, a change.
    assert length["difference"] == {"value": 2.0, "ci95": [2.0, 2.0]}
    assert (length["baseline"], length["variant"]) == (25.0, 27.0)
    assert length["verdict"] == CHANGED and length["games"] == 4
    # Seat 1 won one more game of four: +0.25, with t(3) = 3.182446 and sd 0.5 the interval
    # is 0.25 +- 3.182446 * 0.5 / 2 = [-0.545612, 1.045612]: no detectable change.
    seat1 = found["seat_win_rate"][1]
    assert seat1["difference"]["value"] == 0.25
    assert seat1["difference"]["ci95"] == pytest.approx([-0.545612, 1.045612], abs=1e-5)
    assert seat1["verdict"] == UNCHANGED
    # decided_at is undefined in game 0: only games 1-3 are paired.
    assert found["decided_at"]["games"] == 3
    assert found["stuck_loss_rate"]["verdict"] == UNCHANGED


def lab(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", "lab", *args],
        capture_output=True, text=True, cwd=cwd, timeout=180,
    )  # fmt: skip


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("compare")
    done = lab(
        "compare", "beor", "--players", "2", "--agents", "heuristic", "--games", "40",
        "--seed", "3", "--variant", "short:max_turns=8", "--variant", "plain:natural_win=false",
        "--workers", "2", "--json", "--out", "c.db", cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder, json.loads(done.stdout)


def test_compare_plays_the_same_deals_and_finds_what_a_variant_changed(
    compared: tuple[Path, dict[str, Any]],
) -> None:
    _, out = compared
    assert set(out["variants"]) == {"default", "short", "plain"}
    assert out["variants"]["short"]["max_turns"] == 8
    short = out["differences"]["short"]
    # A turn limit of 8 draws most games that would have run longer (B10).
    assert short["turn_cap_draw_rate"]["verdict"] == CHANGED
    assert short["turn_cap_draw_rate"]["difference"]["value"] > 0.3
    assert short["length"]["difference"]["value"] < 0
    # The default and plain rules play the same deals: differences only where a deal was a
    # natural win (B5), so the lengths agree on most games.
    plain = out["differences"]["plain"]
    assert abs(plain["length"]["difference"]["value"]) < 5
    assert out["metrics"]["default"]["turn_cap_draw_rate"]["value"] == 0


def test_the_report_of_a_comparison_is_one_html_file(
    compared: tuple[Path, dict[str, Any]],
) -> None:
    folder, _ = compared
    before = (folder / "c.db").read_bytes()
    done = lab("report", "c.db", "--html", "r.html", cwd=folder)
    assert (folder / "c.db").read_bytes() == before, "a report changed its run file"
    assert done.returncode == 0, done.stderr
    page = (folder / "r.html").read_text(encoding="utf-8")
    assert page.count("<svg") >= 4  # seats, lengths, survival (capped games), side by side
    assert "Paired differences from default" in page
    assert "turn_cap_draw_rate" in page and "changed" in page
    as_json = json.loads(lab("report", "c.db", "--json", cwd=folder).stdout)
    assert set(as_json) == {"default", "short", "plain"}
    assert as_json["short"]["differences_from"] == "default"


def test_bad_input_is_one_line_and_status_2(tmp_path: Path) -> None:
    (tmp_path / "README.txt").write_text("not a database\n", encoding="utf-8")
    for args, words in [
        (["compare", "beor", "--agents", "heuristic", "--games", "2"], "--variant"),
        (["compare", "beor", "--agents", "heuristic", "--variant", "x"], "NAME:OPTION"),
        (["compare", "beor", "--agents", "heuristic", "--variant", "a:nope=1"], "nope"),
        (["report", "missing.db"], "no such run file"),
        (["report", "README.txt"], "is not a run file"),
        (["run", "beor", "--agents", "heuristic", "--scheduler", "tcp://x:1"], "--scheduler"),
    ]:
        done = lab(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_documentation_defines_every_metric_with_its_unit() -> None:
    from parlour.games import GAMES
    from parlour.lab.metrics import specs_for

    root = Path(__file__).resolve().parents[2]
    # Parlour's pages, and a game's from another distribution its own README (the example's).
    pages = [
        root / "README.md",
        *sorted((root / "docs").rglob("*.md")),
        *sorted((root / "examples").glob("*/README.md")),
    ]
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages if p.is_file())
    for game in GAMES:
        for spec in specs_for(game):
            line = next((x for x in text.splitlines() if x.startswith(f"| `{spec.name}`")), None)
            assert line is not None, f"the documentation's metrics table lacks {spec.name}"
            assert spec.unit in text, spec.unit
    assert "`seat_balance`" in text
