"""Seats and positions in the lab (issue 28.1): each game says who moved first (its rows'
``first``), the lab gives win rates and the balance test both by seat and by position in the
turn order, and ``--dealer rotate`` plays a match (the dealer moving one seat a game) where a
game's matches move the dealer, so the deal's shape and the turn order can be told apart.

The Game of Death deals 52 cards round-robin from the seat left of the dealer (G1), so with 6
players the first four seats dealt hold 9 cards and the last two 8, while the holder of 2♦
throws first (G1): there seats and positions differ. BEOR (B3) and Beggar-My-Neighbour (M7)
start at seat 0, so their positions are their seats."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.core.record import Record, replay
from parlour.errors import InvalidOption
from parlour.games import GAMES, find_game
from parlour.games.death.game import match_deal
from parlour.lab.metrics import aggregate, game_figures, position, with_positions
from parlour.lab.run import RunSpec, run
from parlour.lab.runspec import DEALERS

TWO_OF_DIAMONDS = "2D"


def holder_of_2d(hands: list[list[str]]) -> int:
    return next(seat for seat, hand in enumerate(hands) if TWO_OF_DIAMONDS in hand)


# -- the figures of one game --------------------------------------------------------------------


def test_a_seat_s_position_counts_clockwise_from_the_first_mover() -> None:
    assert [position(seat, 2, 4) for seat in range(4)] == [2, 3, 0, 1]
    assert [position(seat, 0, 3) for seat in range(3)] == [0, 1, 2]


def test_the_win_shares_by_position_start_with_the_first_mover() -> None:
    row = {"players": 4, "first": 2, "win_shares": [0.0, 1.0, 0.0, 0.0]}
    # Seat 1 sits three places after seat 2: position 3.
    assert with_positions(row)["position_win_shares"] == [0.0, 0.0, 0.0, 1.0]
    shared = {"players": 3, "first": 1, "win_shares": [0.5, 0.0, 0.5]}
    assert with_positions(shared)["position_win_shares"] == [0.0, 0.5, 0.5]
    # A row stored before the lab kept "first" has no positions.
    assert with_positions({"players": 2, "win_shares": [1.0, 0.0]})["position_win_shares"] is None
    for first in (3, -1, "0", True):
        with pytest.raises(ValueError, match="'first'"):
            with_positions({"players": 3, "first": first, "win_shares": [1.0, 0.0, 0.0]})


def play_out(name: str, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
    """A game of ``name`` played to its end by its first legal action each turn."""
    state = find_game(name).new(players, seed, options)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seed", range(6))
def test_in_the_game_of_death_the_holder_of_2d_is_first(seed: int) -> None:
    state = play_out("death", 5, seed)
    root = state
    while root.previous is not None:
        root = root.previous
    hands = [[str(card) for card in hand] for hand in root.hands]
    row = game_figures(state)
    assert row["first"] == holder_of_2d(hands)
    # ... and the log's first throw is his, of 2♦ (G1).
    first_action = next(e for e in state.log(None, 0) if e.kind == "action")
    assert first_action.seat == row["first"] and first_action.text == TWO_OF_DIAMONDS
    winners = row["winners"]
    assert [s for s, share in enumerate(row["win_shares"]) if share] == winners
    placed = [p for p, share in enumerate(row["position_win_shares"]) if share]
    assert placed == sorted((w - row["first"]) % 5 for w in winners)


@pytest.mark.parametrize(("name", "options"), [("beor", {"max_turns": 40}), ("beggar", {})])
def test_beor_and_beggar_start_at_seat_0(name: str, options: dict[str, Any]) -> None:
    for seed in range(4):
        row = game_figures(play_out(name, 3, seed, options))
        assert row["first"] == 0
        assert row["position_win_shares"] == row["win_shares"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_s_lab_rows_say_who_was_first_on_its_default_engine(
    name: str, tmp_path: Path
) -> None:
    """Whatever engine plays the run (a compiled kernel's rows too), each row says who moved
    first and gives the wins by position from it."""
    game = find_game(name)
    agents = ("heuristic",) if game.info.decisions else ()
    options = {"max_turns": 60} if name == "beor" else {}
    rows = run(RunSpec(name, 3, agents, 6, 11, options), tmp_path / "r.db")
    for row in rows:
        figures = row["figures"]
        assert figures["first"] in range(3), figures
        assert figures["position_win_shares"] == with_positions(figures)["position_win_shares"]


# -- many games -------------------------------------------------------------------------------


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch) -> str:
    """BEOR without its own figures: the generic metrics only, so rows can be written by hand."""
    game = find_game("beor")
    monkeypatch.setattr(type(game), "parts", dataclasses.replace(game.parts, figures=None))
    return game.name


def hand_rows(game: str, firsts: list[int | None], winners: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "game": game, "players": 3, "winners": [w],
            "win_shares": [1.0 if s == w else 0.0 for s in range(3)], "length": 10,
            "lead_changes": None, "decided_at": None, "ended": True,
            **({} if first is None else {"first": first}),
        }
        for first, w in zip(firsts, winners, strict=True)
    ]  # fmt: skip


def test_balance_by_seat_and_by_position_worked_by_hand(bare: str) -> None:
    # Six games: the first mover rotates 0, 1, 2 and always wins. By seat every seat won two
    # games (chi-square 0, p = 1); by position, position 0 won all six: expected 2 each, so
    # chi-square = ((6-2)^2 + (0-2)^2 + (0-2)^2) / 2 = 12 with 2 degrees of freedom, whose
    # p-value is exp(-12 / 2).
    rows = hand_rows(bare, [0, 1, 2, 0, 1, 2], [0, 1, 2, 0, 1, 2])
    found: Any = aggregate(bare, 3, rows)
    assert found["seat_balance"] == {"statistic": 0.0, "dof": 2, "p_value": 1.0, "games": 6}
    balance = found["position_balance"]
    assert (balance["statistic"], balance["dof"], balance["games"]) == (12.0, 2, 6)
    assert balance["p_value"] == pytest.approx(math.exp(-6), rel=1e-5)
    assert [e["value"] for e in found["seat_win_rate"]] == pytest.approx([1 / 3] * 3)
    assert [e["value"] for e in found["position_win_rate"]] == [1.0, 0.0, 0.0]


def test_games_stored_without_first_are_left_out_of_the_positions(bare: str) -> None:
    # Two rows of an older lab (no "first") and four that say who was first.
    rows = hand_rows(bare, [None, None, 1, 1, 2, 0], [0, 0, 1, 2, 2, 0])
    found: Any = aggregate(bare, 3, rows)
    assert found["seat_balance"]["games"] == 6
    assert found["position_balance"]["games"] == 4
    assert [e["games"] for e in found["position_win_rate"]] == [4, 4, 4]
    # Positions of the four: seat 1 first won (0), seat 1 first, 2 won (1), 2 first won (0),
    # 0 first won (0).
    assert [e["value"] for e in found["position_win_rate"]] == [0.75, 0.25, 0.0]
    old: Any = aggregate(bare, 3, rows[:2])
    assert "position_balance" not in old and "position_win_rate" not in old
    assert "seat_balance" in old


def test_a_first_mover_who_is_not_at_the_table_is_refused_naming_the_row(bare: str) -> None:
    rows = hand_rows(bare, [0, 5], [0, 1])
    with pytest.raises(ValueError, match=r"row 1: figure 'first' is 5"):
        aggregate(bare, 3, rows)


# -- the dealer -------------------------------------------------------------------------------


def test_the_dealers_a_run_knows() -> None:
    assert DEALERS == ("fixed", "rotate")
    spec = RunSpec("death", 4, ("heuristic",), 3, 1).checked()
    assert spec.dealer == "fixed"
    with pytest.raises(InvalidOption, match="--dealer: one of fixed, rotate"):
        RunSpec("death", 4, ("heuristic",), 3, 1, dealer="left").checked()


@pytest.mark.parametrize(("name", "agents"), [("beor", ("heuristic",)), ("beggar", ())])
def test_a_game_whose_dealer_never_moves_refuses_to_rotate_it(
    name: str, agents: tuple[str, ...]
) -> None:
    with pytest.raises(InvalidOption, match=r"--dealer rotate: .*its seats are its positions"):
        RunSpec(name, 3, agents, 3, 1, dealer="rotate").checked()


def test_a_spec_keeps_its_dealer_and_an_older_file_s_spec_is_a_fixed_dealer() -> None:
    spec = RunSpec("death", 4, ("heuristic",), 3, 1, dealer="rotate").checked()
    again = RunSpec.from_json(json.loads(json.dumps(spec.to_json())))
    assert again.to_json() == json.loads(json.dumps(spec.to_json()))
    assert again.dealer == "rotate"
    older = {k: v for k, v in spec.to_json().items() if k != "dealer"}
    assert RunSpec.from_json(older).dealer == "fixed"
    with pytest.raises(InvalidOption, match="field 'dealer' must be fixed or rotate"):
        RunSpec.from_json({**spec.to_json(), "dealer": "left"})


@pytest.fixture(scope="module")
def match_rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Twelve games of 6-player Game of Death with a rotating dealer, on the default engine."""
    out = tmp_path_factory.mktemp("match") / "m.db"
    return run(RunSpec("death", 6, ("heuristic",), 12, 9, dealer="rotate"), out)


def test_a_rotating_dealer_plays_game_i_as_deal_i_of_a_match(
    match_rows: list[dict[str, Any]],
) -> None:
    for row in match_rows:
        i = row["index"]
        hands = match_deal(6, 9, i)["hands"]
        assert isinstance(hands, list)
        # Game i is dealt from seat i mod 6 (left of the dealer, seat i - 1), so the four
        # seats from there hold 9 cards and the last two 8 (G1, G12).
        sizes = [len(hands[(i + k) % 6]) for k in range(6)]
        assert sizes == [9, 9, 9, 9, 8, 8]
        # Its first mover is the holder of 2♦ of that deal, whichever engine played it.
        assert row["figures"]["first"] == holder_of_2d(hands)


def test_a_rotating_dealer_s_games_replay_from_their_records(
    match_rows: list[dict[str, Any]],
) -> None:
    game = find_game("death")
    replayed = 0
    for row in match_rows:
        if "record" not in row:  # a kernel's row without a record: the deal is checked above
            continue
        record = Record.from_json(row["record"])
        assert (record.seed, record.deal_number) == (9, row["index"])
        states = replay(record, game)
        start = [[str(c) for c in hand] for hand in states[0].hands]  # type: ignore[attr-defined]
        assert start == match_deal(6, 9, row["index"])["hands"]
        assert list(states[-1].outcome.winners) == row["figures"]["winners"]  # type: ignore[union-attr]
        replayed += 1
    assert replayed or all("deal" in row for row in match_rows)


def test_over_a_match_every_seat_is_dealt_first_as_often() -> None:
    # With a fixed dealer seat 0 is always dealt first; rotating, each seat once in 6 games.
    firsts = []
    for i in range(12):
        hands = match_deal(6, 3, i)["hands"]
        assert isinstance(hands, list)
        nine = [seat for seat in range(6) if len(hands[seat]) == 9]
        # The seat dealt first is the one whose left neighbour has 8 cards and it has 9.
        firsts.append(next(s for s in nine if len(hands[(s - 1) % 6]) == 8))
    assert firsts == [i % 6 for i in range(12)]


def test_a_fixed_run_s_file_refuses_a_rotating_run(tmp_path: Path) -> None:
    out = tmp_path / "d.db"
    run(RunSpec("death", 3, ("random",), 2, 1, engine="python"), out)
    with pytest.raises(InvalidOption, match="holds another run"):
        run(RunSpec("death", 3, ("random",), 2, 1, engine="python", dealer="rotate"), out)


def lab(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # A wide terminal, so that the table keeps each metric's name on one line.
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "parlour", "lab", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300, env=env,
    )  # fmt: skip


@pytest.mark.slow
def test_the_command_line_rotates_the_dealer_and_shows_both_balances(tmp_path: Path) -> None:
    args = ["death", "--players", "4", "--agents", "heuristic", "--games", "8", "--seed", "5"]
    done = lab("run", *args, "--dealer", "rotate", "--workers", "1", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["dealer"] == "rotate"
    metrics = out["metrics"]
    assert len(metrics["position_win_rate"]) == 4
    assert metrics["position_balance"]["games"] == metrics["seat_balance"]["games"] == 8
    table = lab("run", *args, "--dealer", "rotate", "--workers", "1", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "position_win_rate (position 1)" in table.stdout
    assert "seat_win_rate (Player 1)" in table.stdout and "position_balance" in table.stdout
    refused = lab("run", "beor", "--agents", "heuristic", "--dealer", "rotate", cwd=tmp_path)
    assert refused.returncode == 2
    assert "--dealer rotate" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
