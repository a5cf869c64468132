"""Long-game search and kernel statistics: the library (``games/beggar/lab/search.py``,
``games/beggar/lab/stats.py``) and the ``parlour beggar search`` / ``stats`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from parlour.cli import main
from parlour.errors import InvalidOption
from parlour.games.beggar import play_deal
from parlour.games.beggar.fast import play_random
from parlour.games.beggar.lab.search import SearchState, new_search, search_step
from parlour.games.beggar.lab.stats import run_fast_stats, run_stats


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(result: tuple[int, str, str], needle: str) -> None:
    code, out, err = result
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err, err


class TestSearch:
    @pytest.mark.parametrize("strategy", ["random", "climb", "backward"])
    def test_found_games_replay_with_the_rules_engine(self, strategy: str) -> None:
        """Every game a search keeps has the figures rules.py gives its deal (M8)."""
        state = search_step(new_search(2, 5, strategy, None, 4), 40_000)
        assert len(state.top) == 4 and state.deals >= 40_000
        cards = [f.cards for f in state.top]
        assert cards == sorted(cards, reverse=True)
        for found in state.top:
            summary = play_deal(found.deal)
            assert (summary["result"], summary["cards"], summary["tricks"]) == (
                found.result,
                found.cards,
                found.tricks,
            )

    def test_random_search_keeps_the_longest_deals(self) -> None:
        state = search_step(new_search(3, 2, "random", None, 3), 5_000)
        results = play_random(3, 5_000, 2)
        assert [f.cards for f in state.top] == sorted(results.cards, reverse=True)[:3]

    @pytest.mark.parametrize("strategy", ["random", "climb", "backward"])
    def test_workers_do_not_change_the_result(self, strategy: str) -> None:
        one = search_step(new_search(2, 9, strategy, None, 5), 30_000, workers=1)
        two = search_step(new_search(2, 9, strategy, None, 5), 30_000, workers=2)
        assert one == two

    def test_resuming_continues_the_stream(self) -> None:
        """Two steps after a save and load find what one step of the same size finds."""
        state = search_step(new_search(2, 4, "random", None, 5), 20_000)
        saved = SearchState.from_json(json.loads(json.dumps(state.to_json())))
        assert saved == state
        resumed = search_step(saved, 30_000)
        whole = search_step(new_search(2, 4, "random", None, 5), 50_000)
        assert resumed.top == whole.top
        assert (resumed.deals, resumed.next_index) == (50_000, 50_000)

    def test_backward_search_is_for_two_players(self) -> None:
        with pytest.raises(InvalidOption, match="2 players"):
            new_search(3, 1, "backward")
        with pytest.raises(InvalidOption, match="strategy"):
            new_search(2, 1, "annealing")

    def test_a_bad_saved_search_names_the_field(self) -> None:
        data = search_step(new_search(2, 1, "random", None, 2), 1_000).to_json()
        with pytest.raises(InvalidOption, match="top_k"):
            SearchState.from_json({**data, "top_k": "ten"})
        with pytest.raises(InvalidOption, match=r"top\[0\].cards"):
            SearchState.from_json({**data, "top": [{"deal": "x", "result": "win"}]})

    def test_a_saved_index_past_the_kernels_integers_is_refused(self) -> None:
        """A next_index of 2**64 once reached the kernel and failed there."""
        data = search_step(new_search(2, 1, "random", None, 2), 1_000).to_json()
        for field in ("next_index", "deals"):
            with pytest.raises(InvalidOption, match=f"{field} of the saved search must be"):
                SearchState.from_json({**data, field: 2**64})
            with pytest.raises(InvalidOption, match=f"{field} of the saved search must be"):
                SearchState.from_json({**data, field: -1})

    def test_a_saved_top_game_must_be_what_its_deal_plays(self) -> None:
        """A top deal of "garbage" with cards -1 was once reported as a result."""
        data = search_step(new_search(2, 1, "random", None, 2), 1_000).to_json()
        garbage = {"deal": "garbage", "result": "win", "cards": 5, "tricks": 1}
        with pytest.raises(InvalidOption, match="top of the saved search: deal 0"):
            SearchState.from_json({**data, "top": [garbage]})
        with pytest.raises(InvalidOption, match=r"top\[0\].cards .* from 0 to"):
            SearchState.from_json({**data, "top": [{**garbage, "cards": -1}]})
        best = data["top"][0]
        inflated = {**best, "cards": best["cards"] + 1}
        with pytest.raises(InvalidOption, match=r"top\[0\] of the saved search says win"):
            SearchState.from_json({**data, "top": [inflated]})
        assert SearchState.from_json(data).top[0].cards == best["cards"]


class TestStats:
    def test_fast_figures_match_the_kernel(self) -> None:
        """Mean, percentiles and tails are those of the deals played (M8 counts)."""
        report = run_fast_stats(2, 20_000, 6, workers=2).to_json()
        cards = np.sort(play_random(2, 20_000, 6).cards)
        assert report["mean_cards"] == pytest.approx(cards.mean())
        assert report["percentiles"]["50"]["cards"] == cards[9_999]
        assert report["tails"]["1000"] == int((cards > 1000).sum())
        longest = report["longest"]
        assert longest["cards"] == cards[-1]
        assert play_deal(longest["deal"])["cards"] == longest["cards"]

    def test_both_engines_report_the_same_keys(self) -> None:
        fast = run_fast_stats(3, 300, 1, {"card_limit": 400}).to_json()
        slow = run_stats(3, 300, 1, {"card_limit": 400}).to_json()
        assert set(fast) == set(slow)
        assert fast["results"]["limit"] > 0 and slow["results"]["limit"] > 0


class TestCommands:
    def test_stats_json_has_the_distribution(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(
            capsys, "beggar", "stats", "--games", "5000", "--seed", "2", "--workers", "2", "--json"
        )
        report = json.loads(out)
        assert code == 0 and err == ""
        assert report["engine"] == "fast" and report["games"] == 5000
        for key in ("players", "mean_cards", "mean_tricks", "first_player_win_rate"):
            assert key in report
        assert set(report["percentiles"]["50"]) == {"cards", "tricks"}
        assert set(report["longest"]) >= {"deal", "cards", "tricks"}
        assert list(report["tails"]) == ["500", "1000", "2000", "3000"]

    def test_stats_python_engine(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(
            capsys,
            "beggar",
            "stats",
            "--games",
            "30",
            "--seed",
            "2",
            "--engine",
            "python",
            "--json",
        )
        assert code == 0 and json.loads(out)["engine"] == "python"

    def test_stats_plot(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        plot = tmp_path / "lengths.png"
        code, out, _ = run(
            capsys, "beggar", "stats", "--games", "2000", "--seed", "1", "--plot", str(plot)
        )
        assert code == 0 and "Long games" in out
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_stats_bad_input(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        one_line_error(run(capsys, "beggar", "stats", "--workers", "0"), "--workers")
        one_line_error(run(capsys, "beggar", "stats", "--engine", "c"), "--engine")
        one_line_error(
            run(capsys, "beggar", "stats", "--plot", str(tmp_path / "no" / "x.png")), "x.png"
        )

    def test_search_saves_and_resumes(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        out_file = tmp_path / "search.json"
        args = ("beggar", "search", "--players", "2", "--seed", "3", "--top", "3")
        code, out, _ = run(capsys, *args, "--deals", "20000", "--out", str(out_file))
        assert code == 0 and "Longest games found" in out
        first = json.loads(out_file.read_text())
        assert first["deals"] == 20_000 and len(first["top"]) == 3
        code, out, _ = run(capsys, *args, "--deals", "30000", "--out", str(out_file), "--json")
        report = json.loads(out)
        assert code == 0 and report["deals"] == 50_000 and report["run"]["deals"] == 30_000
        assert report["top"][0]["cards"] >= first["top"][0]["cards"]
        one_line_error(
            run(
                capsys,
                "beggar",
                "search",
                "--players",
                "3",
                "--deals",
                "10",
                "--out",
                str(out_file),
            ),
            "players",
        )

    def test_search_needs_one_budget(self, capsys: pytest.CaptureFixture[str]) -> None:
        one_line_error(run(capsys, "beggar", "search", "--seed", "1"), "--minutes")
        one_line_error(
            run(capsys, "beggar", "search", "--deals", "5", "--minutes", "1"), "exactly one"
        )
        one_line_error(
            run(
                capsys,
                "beggar",
                "search",
                "--deals",
                "5",
                "--players",
                "4",
                "--strategy",
                "backward",
            ),
            "2 players",
        )
