"""BEOR records through ``parlour replay``: hand-checked deals and actions give exactly the
state, legal actions and outcome the rules demand; illegal actions exit 2 naming the rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parlour.cli import main

from .helpers import make_deal


def replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: dict[str, Any], *flags: str
) -> tuple[int, dict[str, Any], str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code = main(["replay", str(path), "--json", *flags])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


def record(deal: dict[str, Any], actions: list[str], **options: object) -> dict[str, Any]:
    players = len(deal["hands"])
    return {
        "game": "beor",
        "players": players,
        "seed": 3,
        "options": options,
        "deal": deal,
        "actions": actions,
    }


WIN_DEAL = make_deal(["AH 2H 9S 9D 9C 5S", "4S 6S 8S TS QS 2C"], {"black": "3H"})


class TestReplay:
    def test_start_of_a_dealt_game(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """B3: seat 0 plays first; B4: the legal plays of AH 2H 9S 9D 9C 5S on 2S 4H 7C TD."""
        code, got, _ = replay(capsys, tmp_path, record(WIN_DEAL, []))
        assert code == 0 and got["to_move"] == 0 and not got["over"]
        assert got["legal"] == [
            "AH>odd",
            "AH>red",
            "2H>even",
            "2H>red",
            "5S>black",
            "5S>odd",
            "9S>black",
            "9S>odd",
            "9D>odd",
            "9D>red",
            "9C>black",
            "9C>odd",
        ]
        state = got["state"]
        assert state["bases"] == {"black": ["2S"], "even": ["4H"], "odd": ["7C"], "red": ["TD"]}
        assert all(not s["face_up"] and len(s["cards"]) == 9 for s in state["stocks"].values())

    def test_an_ordinary_win_after_the_draw(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """B5: checked after each draw: 5S on black draws 3H, making AH 2H 3H and 9S 9D 9C."""
        code, got, _ = replay(capsys, tmp_path, record(WIN_DEAL, ["5S>black"]))
        assert code == 0 and got["over"] and got["legal"] == []
        assert got["state"]["winner"] == 0 and got["state"]["result"] == "win"
        assert got["outcome"]["winners"] == [0]
        assert sorted(got["state"]["hands"][0]) == sorted(["AH", "2H", "3H", "9S", "9D", "9C"])
        assert got["state"]["bases"]["black"] == ["5S", "2S"]

    def test_a_natural_win(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """B5: 'Check after the deal (option natural_win, default on: the first qualifying seat
        in turn order wins at once)'."""
        deal = make_deal(["4S 6S 8S TS QS 2C", "AH 2H 3H 9S 9D 9C"])
        _, got, _ = replay(capsys, tmp_path, record(deal, []))
        assert got["over"] and got["state"]["winner"] == 1 and got["state"]["turn"] == 0
        _, off, _ = replay(capsys, tmp_path, record(deal, [], natural_win=False))
        assert not off["over"] and off["to_move"] == 0

    def test_an_any_stock_draw(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """B7: 'The player may draw from any non-empty stock instead of the base's own.'"""
        deal = make_deal(["7S AH 2H 9S 9D 5C", "4S 6S 8S TS QS 2C"], {"red": "3H", "black": "KC"})
        _, got, _ = replay(capsys, tmp_path, record(deal, ["7S>black/red"]))
        assert "3H" in got["state"]["hands"][0] and "KC" not in got["state"]["hands"][0]
        assert got["state"]["stocks"]["black"]["cards"][0] == "KC"
        assert got["state"]["bases"]["black"][0] == "7S"

    @pytest.mark.parametrize(
        ("action", "reason"),
        [
            ("9S>even", "9S cannot go on even: 9 is odd (B4)"),
            ("AH>black", "AH cannot go on black: AH is red (B4)"),
            ("5S>black/red", "only a 4 or 7 may draw from another stock (B7)"),
            ("QS>black", "QS is not in Player 1's hand"),
            (
                "5S",
                "'5S' is not a BEOR action: write CARD>BASE or CARD>BASE/STOCK, e.g. 7H>red or "
                "7H>red/black",
            ),
        ],
    )
    def test_illegal_actions_exit_2_naming_the_rule(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, action: str, reason: str
    ) -> None:
        code, got, err = replay(capsys, tmp_path, record(WIN_DEAL, [action]))
        assert code == 2 and got == {}
        assert err.strip() == f"parlour replay: error: action 0 {action!r} is illegal: {reason}"

    def test_a_base_with_no_stock_refuses(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """B4: 'A base whose stock is empty accepts no card.'"""
        from parlour.errors import IllegalAction
        from parlour.games.beor import BeorGame

        game = BeorGame()
        data = game.new(2, 0, None, WIN_DEAL).to_json()
        # The odd stock's cards moved under black's: a position with no odd stock.
        data["stocks"]["black"]["cards"] += data["stocks"]["odd"]["cards"]
        data["stocks"]["odd"]["cards"] = []
        emptied = game.state_from_json(data)
        assert not any(str(a).endswith(">odd") for a in emptied.legal_actions())
        with pytest.raises(IllegalAction, match=r"^odd has no stock left \(B4\)$"):
            emptied.apply("9S>odd")

    def test_bad_deals_exit_2(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        deal = make_deal(["AH 2H 9S 9D 9C 5S", "4S 6S 8S TS QS 2C"])
        deal["hands"][1] = deal["hands"][1][:5]
        code, _, err = replay(capsys, tmp_path, record(deal, []))
        assert code == 2 and "deal hand 2 has 5 cards, not 6" in err
        deal = make_deal(["AH 2H 9S 9D 9C 5S", "4S 6S 8S TS QS 2C"], bases="KS 4H 7C TD")
        deal["bases"]["even"], deal["bases"]["black"] = "KS", "4H"  # a King is no Even base
        code, _, err = replay(capsys, tmp_path, record(deal, []))
        assert code == 2 and "(B2)" in err
