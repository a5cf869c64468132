"""Game of Death records through ``parlour replay``: positions, drinks and refusals that name
the rule, exit status 2 for an illegal action."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parlour.cards import deck52
from parlour.cli import main


def deal(*hands: str) -> dict[str, Any]:
    """The given hands; every other card goes to the last hand."""
    given = [h.split() for h in hands]
    used = {c for h in given for c in h}
    given[-1] += [str(c) for c in deck52() if str(c) not in used]
    return {"hands": given}


# Seat 0 holds 2D, 9C; seat 1 holds 9D, 3C; seat 2 holds the rest (no diamond follows 2D but
# those in the rest). Seat 0 throws 2D, seat 1 must follow: 9D.
DEAL = deal("2D 9C KS", "9D 3C", "5H")


def replay(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    actions: list[str],
    table: list[dict[str, Any]] | None = None,
    **options: object,
) -> tuple[int, dict[str, Any], str]:
    path = tmp_path / "record.json"
    record = {
        "game": "death",
        "players": 3,
        "seed": 1,
        "options": options,
        "deal": DEAL,
        "actions": actions,
    }
    if table is not None:
        record["table"] = table
    path.write_text(json.dumps(record))
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


class TestReplay:
    def test_the_holder_of_2d_starts(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """G1: 'The holder of 2♦ throws it first'."""
        code, got, _ = replay(capsys, tmp_path, [])
        assert code == 0 and got["to_move"] == 0 and got["legal"] == ["2D"]
        state = got["state"]
        assert state["pile"] == [] and state["drinks_taken"] == [0, 0, 0]
        assert state["pending_give"] is None and state["first_out"] is None

    def test_follow_suit_or_rank(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """G2: 'Same suit or same rank as the top card of the pile'."""
        _, got, _ = replay(capsys, tmp_path, ["2D"])
        assert got["to_move"] == 1 and got["legal"] == ["9D"]

    def test_breaking_suit_and_a_black_king(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """2D, 9D, then seat 2 (all the rest) follows; G4 and G5 through a record."""
        _, got, _ = replay(capsys, tmp_path, ["2D", "9D"])
        assert got["to_move"] == 2
        assert "9S" in got["legal"] and "TD" in got["legal"]
        _, got, _ = replay(capsys, tmp_path, ["2D", "9D", "9S"])
        # 9S breaks 9D's suit: seat 1 drinks 1; seat 0 must follow 9S with 9C (no spade but KS).
        assert got["state"]["drinks_taken"] == [0, 1, 0]
        assert got["legal"] == ["9C", "KS"]
        _, got, _ = replay(capsys, tmp_path, ["2D", "9D", "9S", "KS"])
        assert got["state"]["pending_give"] == {"seat": 0, "drinks": 8}
        assert (
            got["to_move"] == 0 and "give 8>P2" in got["legal"] and "give 1>P1" not in got["legal"]
        )
        _, got, _ = replay(capsys, tmp_path, ["2D", "9D", "9S", "KS", "give 5>P2", "give 3>P3"])
        assert got["state"]["drinks_taken"] == [0, 6, 3]
        assert got["state"]["drinks_given"] == [8, 0, 0]
        assert got["state"]["pending_give"] is None and got["to_move"] == 1

    @pytest.mark.parametrize(
        ("actions", "reason"),
        [
            (["3C"], "3C is not in Player 1's hand"),
            (["9C"], "the holder of 2D throws it first (G1)"),
            (["2D", "3C"], "3C does not follow 2D: neither suit nor rank (G2)"),
            (["2D", "pass"], "you must throw when you can (G2)"),
            (["2D", "9D", "9S", "KS", "give 2>P1"], "Player 1 cannot give drinks to himself (G5)"),
            (["2D", "9D", "9S", "KS", "give 9>P2"], "only 8 drinks are left to give (G5)"),
            (["2D", "9D", "9S", "KS", "9C"], "Player 1 must first give 8 drinks (G5)"),
            (["2D", "give 1>P2"], "there are no drinks to give: only a black face card gives (G5)"),
            (["2D", "dance"], "'dance' is not an action of the Game of Death"),
        ],
    )
    def test_illegal_actions_exit_2_naming_the_rule(
        self,
        capsys: pytest.CaptureFixture[str],
        tmp_path: Path,
        actions: list[str],
        reason: str,
    ) -> None:
        code, got, err = replay(capsys, tmp_path, actions)
        index = len(actions) - 1
        assert code == 2 and got == {}
        assert err.startswith(
            f"parlour replay: error: action {index} {actions[-1]!r} is illegal: {reason}"
        )
        assert len(err.strip().splitlines()) == 1

    def test_table_entries_in_a_record(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """G13: "Table penalties ("D'oh!", delay of game) are explicit table entries that name
        the player and the reason, one drink each"; "an illegal throw costs 2 drinks and the
        card goes back"."""
        table = [
            {"at": 1, "entry": "illegal 3C", "by": 1, "votes": []},
            {"at": 1, "entry": "doh P3", "by": 2, "votes": []},
            {"at": 1, "entry": "delay P1", "by": 1, "votes": [2]},
        ]
        code, got, _ = replay(capsys, tmp_path, ["2D"], table=table)
        assert code == 0
        assert got["state"]["drinks_taken"] == [1, 2, 1]
        assert got["to_move"] == 1 and "3C" in got["state"]["hands"][1]

    def test_old_records_with_penalties_among_the_actions_stay_readable(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """G13: "Records that give more than one drink in one penalty are refused naming G13";
        those of one drink, and illegal throws, written among the actions before table entries
        existed, are read as table entries."""
        code, got, _ = replay(capsys, tmp_path, ["2D", "illegal 3C", "doh 1>P3", "9D"])
        assert code == 0
        assert got["state"]["drinks_taken"] == [0, 2, 1]
        assert got["state"]["pile"] == ["9D", "2D"]
        code, got, err = replay(capsys, tmp_path, ["2D", "illegal 3C", "delay 2>P1"])
        assert code == 2 and got == {}
        assert "action 2 'delay 2>P1'" in err and "(G13)" in err
        assert len(err.strip().splitlines()) == 1
        code, _, err = replay(capsys, tmp_path, ["2D", "illegal 3C"], illegal_throw_penalty=False)
        assert code == 2 and "illegal_throw_penalty" in err
