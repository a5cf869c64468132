"""Game of Death records written before table entries (G13): ``doh N>Pk``, ``delay N>Pk`` and
``illegal CARD`` were kept among the actions. They are read as table entries made by a referee,
where they were made; a penalty of more than one drink is refused naming G13 ("Records that give
more than one drink in one penalty are refused naming G13")."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.core import InvalidRecord, Record, replay
from parlour.games import replay_json

from .rules_text_helpers import GAME, build_deal, js

# Seat 0 throws 2D; seat 1 (9D 3C) must follow with 9D: 3C is an illegal throw.
DEAL = build_deal("2D 9C KS", "9D 3C", "5H", rest=2)


def record(actions: list[str], **extra: Any) -> dict[str, Any]:
    return {"game": "death", "players": 3, "seed": 1, "deal": DEAL, "actions": actions, **extra}


class TestUpgrade:
    def test_penalties_move_out_of_the_actions(self) -> None:
        """Each goes where it was made: ``at`` counts the player actions before it."""
        actions = ("2D", "illegal 3C", "doh 1>P3", "9D", "DELAY 1>p1")
        kept, moved = GAME.upgrade_record_actions(actions)
        assert kept == ("2D", "9D")
        assert moved == ((1, "illegal 3C", None), (1, "doh P3", None), (2, "delay P1", None))

    def test_a_record_without_penalties_is_unchanged(self) -> None:
        assert GAME.upgrade_record_actions(("2D", "9D")) == (("2D", "9D"), ())

    @pytest.mark.parametrize("old", ["doh 2>P3", "delay 3>P1"])
    def test_more_than_one_drink_is_refused_naming_g13(self, old: str) -> None:
        """ "Records that give more than one drink in one penalty are refused naming G13." """
        with pytest.raises(InvalidRecord, match=r"action 1 .*one drink.*\(G13\)"):
            GAME.upgrade_record_actions(("2D", old))
        with pytest.raises(InvalidRecord, match="G13"):
            replay_json(record(["2D", old]))

    def test_an_old_record_replays_as_its_new_form(self) -> None:
        """The old record and the same game written with a ``table`` give the same states."""
        _, old = replay_json(record(["2D", "illegal 3C", "doh 1>P3", "9D"]))
        table = [
            {"at": 1, "entry": "illegal 3C", "by": None, "votes": []},
            {"at": 1, "entry": "doh P3", "by": None, "votes": []},
        ]
        _, new = replay_json(record(["2D", "9D"], table=table))
        assert [js(s) for s in old] == [js(s) for s in new]
        assert js(old[-1])["drinks_taken"] == [0, 2, 1]
        assert [e.kind for e in old[-1].log(None)] == ["deal", "action", "table", "table", "action"]

    def test_the_upgraded_record_is_written_in_the_new_form(self) -> None:
        rec = Record.from_json(record(["2D", "doh 1>P2"])).upgraded(GAME)
        assert rec.actions == ("2D",)
        assert [t.to_json() for t in rec.table] == [
            {"at": 1, "entry": "doh P2", "by": None, "votes": []}
        ]
        assert js(replay(rec, GAME)[-1])["drinks_taken"] == [0, 1, 0]
