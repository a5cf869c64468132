"""``parlour lab compare`` and ``parlour lab report``: rule variants on the same deals, paired
differences with intervals and a verdict; one HTML file with the table and the plots."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parlour.errors import InvalidOption
from parlour.lab.compare import (
    CHANGED,
    PRIMARY,
    SECONDARY,
    UNCHANGED,
    adjust,
    compare,
    parse_metric,
    parse_variant,
)
from parlour.lab.power import detectable


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
    # Each verdict rests on its games and says what they could have detected (80% power).
    assert length["detectable"] is None  # no spread: nothing to say
    # Differences spread by 0.5 over 4 games: no change of a rate (at most 1) is found with
    # 80% power, so there is nothing to say.
    assert seat1["detectable"] is None
    # A rate's entry says what it could detect even where nothing changed, as a rate moves by
    # whole games (natural wins: none under either rule set here).
    smallest = detectable(4, 0.0, rate=True)
    assert smallest is not None and 0.5 < smallest < 1
    assert found["natural_win_rate"]["detectable"] == pytest.approx(smallest, rel=1e-5)


def test_adjust_is_benjamini_hochberg() -> None:
    # By hand: sorted 0.01, 0.03, 0.04, 0.5 give m p / rank = 0.04, 0.06, 0.0533, 0.5, then
    # each the least of itself and those above it.
    assert adjust([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.5])
    assert adjust([]) == []
    assert adjust([0.2]) == [0.2]
    # Against the definition, on random p-values with ties.
    rng = np.random.default_rng(5)
    for _ in range(50):
        p = np.round(rng.uniform(0, 0.2, rng.integers(1, 30)), 3)
        m, order = p.size, np.argsort(p)
        expected = np.empty(m)
        for k in range(m):
            expected[order[k]] = min(1.0, min(p[order[j]] * m / (j + 1) for j in range(k, m)))
        assert adjust(list(p)) == pytest.approx(list(expected), abs=1e-12)


# A length change with a raw p-value of 0.040: one test in a family of metrics.
SHIFT = [3, -1, 2, 0, 1, -2, 4, 1, 0, 2, -1, 3, 1, 0, 2, -3, 1, 2, 1, 1]


def test_a_raw_p_below_5_percent_among_many_metrics_is_not_a_discovery() -> None:
    lengths = [20 + 3 * i for i in range(len(SHIFT))]
    wins = [i % 2 for i in range(len(SHIFT))]
    base = rows(lengths, wins)
    variant = rows([a + d for a, d in zip(lengths, SHIFT, strict=True)], wins)
    from scipy import stats  # here: every test worker collects this file, one runs this test

    raw = float(stats.ttest_1samp(SHIFT, 0).pvalue)
    assert 0.03 < raw < 0.05
    found: Any = compare("beor", 2, base, variant)
    length = found["length"]
    assert length["p_value"] == pytest.approx(raw, rel=1e-5)
    # The difference's interval leaves out 0, but it is one of the variant's tests.
    assert length["difference"]["ci95"][0] > 0
    tests = [e for v in found.values() for e in (v if isinstance(v, list) else [v])]
    assert all(e["role"] == SECONDARY for e in tests)
    assert len(tests) >= 8  # two seats, length, the lead figures, BEOR's own four
    # Every other metric is unchanged (p = 1): the adjusted p is raw p times the tests.
    assert length["p_adjusted"] == pytest.approx(min(1.0, raw * len(tests)), rel=1e-5)
    assert length["verdict"] == UNCHANGED
    assert all(e["verdict"] == UNCHANGED for e in tests)
    assert all(e["games"] == len(SHIFT) for e in tests if e is not found["decided_at"])
    # Named beforehand as the primary metric, it is the one confirmatory test, at its raw level.
    primary = parse_metric("beor", 2, "length")
    named: Any = compare("beor", 2, base, variant, primary)
    assert named["length"]["role"] == PRIMARY
    assert named["length"]["p_adjusted"] == named["length"]["p_value"]
    assert named["length"]["verdict"] == CHANGED
    others = [e for v in named.values() for e in (v if isinstance(v, list) else [v])]
    assert sum(e["role"] == PRIMARY for e in others) == 1


def test_a_primary_metric_is_named_as_the_command_line_takes_it() -> None:
    seat = parse_metric("beor", 4, "seat_win_rate:2")
    assert (seat.spec.name, seat.seat, seat.flag) == ("seat_win_rate", 1, "seat_win_rate:2")
    assert seat.title == "seat_win_rate (Player 2)"
    assert seat.to_json() == {"metric": "seat_win_rate", "entry": 2}
    assert parse_metric("beor", 4, " length ").to_json() == {"metric": "length", "entry": None}
    for bad, words in [
        ("nope", "no metric 'nope'"),
        ("seat_win_rate", "seat_win_rate:1"),
        ("seat_win_rate:5", "from 1 to 4"),
        ("seat_win_rate:0", "from 1 to 4"),
        ("seat_win_rate:x", "from 1 to 4"),
        ("seat_win_rate:" + "1" * 5000, "from 1 to 4"),  # never int() of 5,000 digits
        ("seat_win_rate:²", "from 1 to 4"),
        ("length:1", "name it alone"),
    ]:
        with pytest.raises(InvalidOption, match=words):
            parse_metric("beor", 4, bad)


def test_a_primary_metric_no_paired_game_defines_is_refused() -> None:
    base = rows([10, 20], [0, 1])
    for row in base:
        row["figures"]["decided_at"] = None
    with pytest.raises(InvalidOption, match="decided_at is defined in none"):
        compare("beor", 2, base, base, parse_metric("beor", 2, "decided_at"))


def lab(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", "lab", *args],
        capture_output=True, text=True, cwd=cwd, timeout=180,
        env={**os.environ, "COLUMNS": "200"},  # a wide table: one line a metric
    )  # fmt: skip


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("compare")
    done = lab(
        "compare", "beor", "--players", "2", "--agents", "heuristic", "--games", "40",
        "--seed", "3", "--variant", "short:max_turns=8", "--variant", "plain:natural_win=false",
        "--workers", "2", "--json", "--out", "c.db", "--metric", "seat_win_rate:2", cwd=folder,
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


def test_compare_adjusts_every_metric_but_the_primary(
    compared: tuple[Path, dict[str, Any]],
) -> None:
    _, out = compared
    assert out["primary"] == {"metric": "seat_win_rate", "entry": 2}
    for name in ("short", "plain"):
        tests = [
            (metric, e)
            for metric, v in out["differences"][name].items()
            for e in (v if isinstance(v, list) else [v])
        ]
        primary = [e for _, e in tests if e["role"] == PRIMARY]
        assert primary == [out["differences"][name]["seat_win_rate"][1]]
        secondary = [e for _, e in tests if e["role"] == SECONDARY]
        assert len(secondary) == len(tests) - 1
        assert adjust([e["p_value"] for e in secondary]) == pytest.approx(
            [e["p_adjusted"] for e in secondary], rel=1e-4
        )
        for e in secondary:
            assert e["verdict"] == (CHANGED if e["p_adjusted"] < 0.05 else UNCHANGED)
        for metric, e in tests:
            assert e["games"] == (40 if metric != "decided_at" else e["games"]) > 0
            assert "detectable" in e


def test_compare_prints_raw_and_adjusted_p_and_the_games_of_each_verdict(
    compared: tuple[Path, dict[str, Any]],
) -> None:
    folder, _ = compared
    # The same run again: its file holds every game, so nothing is played.
    done = lab(
        "compare", "beor", "--players", "2", "--agents", "heuristic", "--games", "40",
        "--seed", "3", "--variant", "short:max_turns=8", "--variant", "plain:natural_win=false",
        "--out", "c.db", "--metric", "seat_win_rate:2", cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = next(line for line in lines if "p adj." in line)
    assert head.index(" p ") < head.index("p adj.") < head.index("verdict")
    primary = [line for line in lines if ", primary" in line]
    assert len(primary) == 2 and all("seat_win_rate (Player 2)" in line for line in primary)
    assert all("(alone)" in line for line in primary)
    turn_cap = next(line for line in lines if "turn_cap_draw_rate" in line)
    assert "changed, 40 games" in turn_cap
    assert "Benjamini-Hochberg" in done.stdout


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


def test_a_bad_primary_metric_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.cli import main

    monkeypatch.chdir(tmp_path)
    short = ["lab", "compare", "beor", "--agents", "heuristic", "--variant", "a:max_turns=8"]
    for metric, words in [
        ("nope", "--metric: no metric 'nope'"),
        ("seat_win_rate", "seat_win_rate:1"),
        ("seat_win_rate:3", "from 1 to 2"),
    ]:
        assert main([*short, "--metric", metric]) == 2
        said = capsys.readouterr().err
        assert words in said and len(said.strip().splitlines()) == 1, said
    assert list(tmp_path.iterdir()) == []  # refused before a run file was made


def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.cli import main

    # In this process, as parlour's main runs it (a process of its own per case took most of a
    # minute of the suite); the first case again in a process of its own, for its exit status.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.txt").write_text("not a database\n", encoding="utf-8")
    for args, words in [
        (["compare", "beor", "--agents", "heuristic", "--games", "2"], "--variant"),
        (["compare", "beor", "--agents", "heuristic", "--variant", "x"], "NAME:OPTION"),
        (["compare", "beor", "--agents", "heuristic", "--variant", "a:nope=1"], "nope"),
        (["report", "missing.db"], "no such run file"),
        (["report", "README.txt"], "is not a run file"),
        (["run", "beor", "--agents", "heuristic", "--scheduler", "tcp://x:1"], "--scheduler"),
    ]:
        assert main(["lab", *args]) == 2, args
        said = capsys.readouterr().err
        assert words in said and len(said.strip().splitlines()) == 1, said
    done = lab("compare", "beor", "--agents", "heuristic", "--games", "2", cwd=tmp_path)
    assert done.returncode == 2 and "--variant" in done.stderr, done.stderr


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
