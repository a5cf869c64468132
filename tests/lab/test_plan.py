"""``parlour lab plan``: how many games detect a change of X in a metric with 80% power, from
a pilot run played for it or from a run file; the power of the paired t-test it rests on."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parlour.errors import InvalidOption
from parlour.lab.compare import parse_metric
from parlour.lab.plan import PAIRED, UNPAIRED, plan
from parlour.lab.power import detectable, least_spread, pairs_needed, power


def test_the_pairs_needed_agree_with_the_usual_tables() -> None:
    # A paired t-test, two-sided at 0.05, 80% power: a standardised change of 0.5 needs 34
    # pairs, 0.3 needs 90 and 0.2 needs 199 (Cohen's tables; R's pwr.t.test rounded up).
    assert pairs_needed(1.0, 0.5) == 34
    assert pairs_needed(1.0, 0.3) == 90
    assert pairs_needed(1.0, 0.2) == 199
    assert power(34, 1.0, 0.5) >= 0.8 > power(33, 1.0, 0.5)
    # Only the change in units of the spread counts, and its sign not at all.
    assert pairs_needed(10.0, -5.0) == 34
    # More power or a stricter level need more pairs.
    assert (pairs_needed(1.0, 0.5, target=0.9) or 0) > 34
    assert (pairs_needed(1.0, 0.5, alpha=0.01) or 0) > 34
    # Beyond what a run may hold: no answer rather than a wrong one.
    assert pairs_needed(1.0, 1e-6) is None


def test_the_power_is_what_simulated_paired_t_tests_find() -> None:
    from scipy import stats  # here: every test worker collects this file, one runs this test

    rng = np.random.default_rng(2026)
    trials, pairs, change = 20_000, 34, 0.5
    differences = rng.normal(change, 1.0, size=(trials, pairs))
    t = differences.mean(axis=1) / (differences.std(axis=1, ddof=1) / math.sqrt(pairs))
    found = float(np.mean(np.abs(t) > stats.t.ppf(0.975, pairs - 1)))
    expected = power(pairs, 1.0, change)
    # 20,000 trials: a standard error of 0.0028 around 0.808.
    assert abs(found - expected) < 0.01, (found, expected)


def test_detectable_is_the_change_found_with_that_power() -> None:
    smallest = detectable(34, 2.0)
    assert smallest is not None
    assert power(34, 2.0, smallest) == pytest.approx(0.8, abs=1e-6)
    assert smallest == pytest.approx(2 * 0.495, abs=0.01)
    assert detectable(1, 2.0) is None  # one pair measures no spread
    assert detectable(50, 0.0) is None  # nothing varies


def test_a_rate_detects_no_change_smaller_than_whole_games_allow() -> None:
    # 60 games whose rate changed in 1 of them: the differences spread by 0.13, but a change
    # of 0.05 would change 3 games at least and spread them by sqrt(0.05 * 0.95).
    smallest = detectable(60, 0.13, rate=True)
    assert smallest is not None
    assert smallest > (detectable(60, 0.13) or 1.0)
    assert power(60, max(0.13, least_spread(smallest)), smallest) == pytest.approx(0.8, abs=1e-6)
    # Where nothing changed at all, whole games still bound it from below.
    assert detectable(60, 0.0, rate=True) == pytest.approx(smallest, rel=1e-6)
    assert least_spread(0.02) == pytest.approx(math.sqrt(0.02 * 0.98))
    assert least_spread(-0.02) == least_spread(0.02)
    # With many games the measured spread rules again.
    assert detectable(4000, 0.1, rate=True) == pytest.approx(detectable(4000, 0.1), rel=1e-6)


def rows(values: list[Any], key: str = "length") -> list[dict[str, Any]]:
    """Game rows of 2-player BEOR with figure ``key`` set (the other figures never read)."""
    return [{"index": i, "figures": {key: v}} for i, v in enumerate(values)]


def test_a_pilot_run_plans_without_pairing_gain() -> None:
    lengths = [20.0, 24.0, 31.0, 18.0, 27.0, 22.0, 35.0, 19.0]
    sd = float(np.std(lengths, ddof=1))
    found: Any = plan(rows(lengths), parse_metric("beor", 2, "length"), 2.5)
    # The variant's games assumed as spread as the default's and owing nothing to the deals.
    assert found["basis"] == UNPAIRED
    assert found["sd"] == pytest.approx(sd * math.sqrt(2), rel=1e-5)
    assert found["pairs"] == found["games"] == pairs_needed(sd * math.sqrt(2), 2.5)
    assert found["pilot"] == {
        "games": 8, "defined": 8, "value": pytest.approx(np.mean(lengths)),
        "observed_change": None, "sd": pytest.approx(sd, rel=1e-5),
    }  # fmt: skip
    assert found["detectable"] == pytest.approx(detectable(8, sd * math.sqrt(2)), rel=1e-5)
    assert (found["metric"], found["entry"], found["unit"]) == ("length", None, "actions")


def test_a_rate_plans_with_the_variance_at_the_changed_rate() -> None:
    stuck = [1, 0, 0, 0, 1, 0, 0, 0] * 5  # a rate of 0.25
    found: Any = plan(rows(stuck, "stuck"), parse_metric("beor", 2, "stuck_loss_rate"), 0.1)
    variance = float(np.var(stuck, ddof=1)) + 0.35 * 0.65
    assert found["sd"] == pytest.approx(math.sqrt(variance), rel=1e-5)
    assert found["games"] == pairs_needed(math.sqrt(variance), 0.1)
    # A rate never seen in the pilot can still be planned for: the change brings the spread.
    never: Any = plan(rows([0] * 40, "stuck"), parse_metric("beor", 2, "stuck_loss_rate"), 0.02)
    assert never["sd"] == pytest.approx(math.sqrt(0.02 * 0.98), rel=1e-5)
    with pytest.raises(InvalidOption, match="outside 0 to 1"):
        plan(rows(stuck, "stuck"), parse_metric("beor", 2, "stuck_loss_rate"), -0.3)


def test_a_pilot_comparison_plans_from_its_paired_differences() -> None:
    base = [20.0, 24.0, 31.0, 18.0, 27.0, 22.0, 35.0, 19.0]
    shift = [1.0, 0.0, 2.0, 1.0, 0.0, 1.0, 3.0, 0.0]
    variant = [a + d for a, d in zip(base, shift, strict=True)]
    metric = parse_metric("beor", 2, "length")
    found: Any = plan(rows(base), metric, 0.5, variant_rows=rows(variant))
    sd = float(np.std(shift, ddof=1))
    assert found["basis"] == PAIRED
    assert found["sd"] == pytest.approx(sd, rel=1e-5)
    assert found["games"] == pairs_needed(sd, 0.5)
    assert found["pilot"]["observed_change"] == pytest.approx(np.mean(shift))
    # The same deals make the two rule sets' games alike: far fewer games than unpaired.
    unpaired: Any = plan(rows(base), metric, 0.5)
    assert found["games"] < unpaired["games"] / 10
    with pytest.raises(InvalidOption, match="same \\+1; no spread"):
        plan(rows(base), metric, 0.5, variant_rows=rows([a + 1 for a in base]))


def test_a_rate_the_pilot_variant_hardly_changed_plans_with_the_spread_a_change_needs() -> None:
    # The variant changed one game in a hundred: a change of 0.05 would change five at least.
    base = [i % 2 for i in range(100)]
    variant = [1 if i == 0 else v for i, v in enumerate(base)]
    metric = parse_metric("beor", 2, "stuck_loss_rate")
    found: Any = plan(rows(base, "stuck"), metric, 0.05, variant_rows=rows(variant, "stuck"))
    assert found["pilot"]["sd"] == pytest.approx(0.1, rel=1e-5)  # sqrt(1/100)
    assert found["sd"] == pytest.approx(math.sqrt(0.05 * 0.95), rel=1e-5)
    assert found["games"] == pairs_needed(math.sqrt(0.05 * 0.95), 0.05)
    # A variant that changed more than that keeps its own spread.
    many = [1 - v if i < 30 else v for i, v in enumerate(base)]
    wide: Any = plan(rows(base, "stuck"), metric, 0.05, variant_rows=rows(many, "stuck"))
    assert (
        wide["sd"] == wide["pilot"]["sd"] == pytest.approx(np.std(np.subtract(many, base), ddof=1))
    )


def test_games_that_leave_the_metric_undefined_are_made_up_for() -> None:
    decided = [0.2, None, 0.5, None, 0.9, None, 0.4, None]
    found: Any = plan(rows(decided, "decided_at"), parse_metric("beor", 2, "decided_at"), 0.2)
    assert found["pilot"]["defined"] == 4
    assert found["games"] == math.ceil(found["pairs"] / 0.5)


def test_a_plan_refuses_what_it_cannot_answer() -> None:
    metric = parse_metric("beor", 2, "length")
    for change, power_, alpha, words in [
        (0.0, 0.8, 0.05, "--change"),
        (math.inf, 0.8, 0.05, "--change"),
        (1.0, 0.01, 0.05, "--power"),
        (1.0, 0.8, 1.0, "--alpha"),
    ]:
        with pytest.raises(InvalidOption, match=words):
            plan(rows([1.0, 2.0, 3.0]), metric, change, power=power_, alpha=alpha)
    with pytest.raises(InvalidOption, match="no spread"):
        plan(rows([7.0] * 10), metric, 1.0)
    with pytest.raises(InvalidOption, match="2 or more"):
        plan(rows([7.0]), metric, 1.0)
    with pytest.raises(InvalidOption, match="no finished game"):
        plan([], metric, 1.0)


def lab(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", "lab", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip


PILOT = ["beor", "--players", "2", "--agents", "heuristic", "--games", "30", "--seed", "5"]


@pytest.fixture(scope="module")
def piloted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("plan")
    done = lab(
        "plan", *PILOT, "--metric", "length", "--change", "1", "--json", "--workers", "2",
        cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder, json.loads(done.stdout)


def test_plan_plays_a_pilot_run_and_answers(piloted: tuple[Path, dict[str, Any]]) -> None:
    folder, found = piloted
    assert found["basis"] == UNPAIRED
    assert found["pilot"]["games"] == 30 and found["pilot"]["defined"] == 30
    assert (found["change"], found["power"], found["alpha"]) == (1.0, 0.8, 0.05)
    assert isinstance(found["games"], int) and found["games"] > 30
    # The JSON's sd has 6 digits: the pairs it gives are the answer's, give or take one.
    assert abs(found["games"] - (pairs_needed(found["sd"], 1.0) or 0)) <= 1
    # The pilot is a run file like lab run's: planning from it gives the same answer.
    assert (folder / "lab-beor-5.db").is_file()
    again = lab(
        "plan", "lab-beor-5.db", "--metric", "length", "--change", "1", "--json", cwd=folder
    )
    assert again.returncode == 0, again.stderr
    from_file = json.loads(again.stdout)
    assert {k: v for k, v in from_file.items() if k != "pilot"} == {
        k: v for k, v in found.items() if k != "pilot"
    }


def test_plan_in_words_says_how_many_games(piloted: tuple[Path, dict[str, Any]]) -> None:
    folder, found = piloted
    done = lab("plan", "lab-beor-5.db", "--metric", "length", "--change", "1", cwd=folder)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert f"play {found['games']:,} games under each rule set" in text
    assert f"--games {found['games']} --metric length" in text
    assert "upper bound" in text and "80% power" in text


def test_plan_from_a_pilot_comparison_uses_the_pairs(
    piloted: tuple[Path, dict[str, Any]],
) -> None:
    folder, unpaired = piloted
    done = lab(
        "plan", *PILOT, "--metric", "length", "--change", "1", "--json",
        "--variant", "flip:flip_reverses_order=false", cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["basis"] == PAIRED
    # The same deals under both rules: the paired differences spread less than two
    # independent games do (B6: a flip that does or does not reverse the stock).
    assert found["sd"] < unpaired["sd"]
    assert found["games"] < unpaired["games"]
    assert (folder / "lab-beor-5-compare.db").is_file()
    again = lab(
        "plan", "lab-beor-5-compare.db", "--metric", "length", "--change", "1", "--json",
        "--variant", "flip", cwd=folder,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["games"] == found["games"]


def parlour(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``parlour ARGS`` in this process: its exit status and standard error."""
    from parlour.cli import main

    try:
        status = main(args)
    except SystemExit as done:  # argparse's own errors
        status = int(done.code or 0)
    return status, capsys.readouterr().err


def test_plan_bad_input_is_one_line_and_status_2(
    piloted: tuple[Path, dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder, _ = piloted
    monkeypatch.chdir(folder)
    run = ["lab", "plan", "lab-beor-5.db"]
    for args, words in [
        ([*run, "--change", "1"], "--metric"),
        ([*run, "--metric", "length"], "--change"),
        ([*run, "--metric", "length", "--change", "0"], "--change"),
        ([*run, "--metric", "length", "--change", "x"], "--change"),
        ([*run, "--metric", "length", "--change", "1", "--power", "1.5"], "--power"),
        ([*run, "--metric", "length", "--change", "1", "--alpha", "0"], "--alpha"),
        ([*run, "--metric", "nope", "--change", "1"], "no metric 'nope'"),
        ([*run, "--metric", "seat_win_rate", "--change", "0.1"], "seat_win_rate:1"),
        ([*run, "--metric", "seat_win_rate:1", "--change", "0.9"], "outside 0 to 1"),
        ([*run, "--metric", "length", "--change", "1", "--variant", "zz"], "no variant 'zz'"),
        (["lab", "plan", "missing.db", "--metric", "length", "--change", "1"], "no such run"),
        (["lab", "plan", "nope", "--metric", "length", "--change", "1"], "unknown game 'nope'"),
        # Refused before any pilot game is played.
        (["lab", "plan", *PILOT, "--metric", "nope", "--change", "1", "--out", "x.db"], "nope"),
    ]:
        status, said = parlour(args, capsys)
        assert status == 2, (args, said)
        assert words in said and len(said.strip().splitlines()) == 1, said
    assert not (folder / "x.db").exists()


def test_a_variant_that_changed_nothing_in_the_pilot_is_said(
    piloted: tuple[Path, dict[str, Any]],
) -> None:
    folder, _ = piloted
    # Restocks are rare in 2-player games: over these 30 deals the option changes no game.
    done = lab(
        "plan", *PILOT, "--metric", "length", "--change", "1",
        "--variant", "jokers:restock_skip_jokers=false", "--out", "same.db", cwd=folder,
    )  # fmt: skip
    assert done.returncode == 2
    assert "the variant changed none of the pilot's 30 games" in done.stderr
