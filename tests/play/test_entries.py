"""Table penalties at the table (RULINGS G13, as revised): "A player may always declare a D'oh!
on himself; a penalty on another player needs a majority of the other players ... and bots
vote no." They are table entries, saved in the record's ``table`` and replayed on resume."""

from __future__ import annotations

import json

from parlour.core.record import Record, TableEntry
from parlour.games import find_game
from parlour.play.table import Table, check_seat_specs
from tests.play.helpers import death_table, terminal


def four_at_the_table(specs: tuple[str, ...]) -> Table:
    """Four players of the Game of Death, Player 1 to throw first (he holds 2D, G1)."""
    game = find_game("death")
    seed = next(s for s in range(200) if game.new(4, s).to_move == 0)
    return Table(game, check_seat_specs(game, specs), seed)


def drinks(table: Table) -> list[int]:
    return list(table.state.view(None).drinks_taken)  # type: ignore[attr-defined]


class TestOnOneself:
    def test_a_doh_on_oneself_needs_no_vote(self) -> None:
        table = death_table()
        game, script, out = terminal(table, ["doh P1"])
        game.run()
        assert drinks(table) == [1, 0, 0]
        assert table.entries == [TableEntry(0, "doh P1", 0, ())]
        assert "Entered: doh P1 (G13)." in out.getvalue()
        assert not any("Do you agree" in p for p in script.prompts)
        assert table.actions == []  # not a player action: still Player 1 to throw
        assert script.prompts == ["Player 1> ", "Player 1> "]

    def test_the_old_form_with_drinks_is_read(self) -> None:
        table = death_table()
        game, _, _ = terminal(table, ["delay 1>P1"])
        game.run()
        assert table.entries == [TableEntry(0, "delay P1", 0, ())] and drinks(table) == [1, 0, 0]


class TestOnAnotherPlayer:
    def test_against_bots_it_is_refused_naming_the_rule(self) -> None:
        """Bots vote no, "so against bots a person can only penalise himself"."""
        table = death_table()
        game, script, out = terminal(table, ["doh P2"])
        game.run()
        text = out.getvalue()
        assert "Player 3 (random): no (bots never delay the game). Not entered:" in text
        assert "Not entered:" in text and "needs a majority" in text and "(G13)" in text
        assert table.entries == [] and drinks(table) == [0, 0, 0]
        assert not any("Do you agree" in p for p in script.prompts)

    def test_the_other_people_vote_and_a_majority_carries_it(self) -> None:
        table = four_at_the_table(("person", "person", "person", "random"))
        game, script, out = terminal(table, ["", "doh P4", "y", "n", ""])
        game.run()
        asked = [p for p in script.prompts if "Do you agree" in p]
        assert asked == [
            "Player 2, Player 1 asks for 'doh P4' (G13). Do you agree? [y/N]> ",
            "Player 3, Player 1 asks for 'doh P4' (G13). Do you agree? [y/N]> ",
        ]
        # The others vote at the keyboard: Player 1's hand is not on screen, and he is
        # given the keyboard back after.
        first = script.prompts.index(asked[0])
        before_vote = script.screens[first]
        assert "Becker's Game of Death" in before_vote  # the table is drawn again ...
        assert "Your hand" not in before_vote.rsplit("Becker's Game of Death", 1)[-1]  # public
        assert script.prompts[first + 2] == "Player 1, press Enter when you are ready> "
        # Player 1 and Player 2 of the 3 players other than Player 4: a majority.
        assert table.entries == [TableEntry(0, "doh P4", 0, (1,))]
        assert drinks(table) == [0, 0, 0, 1]
        assert "Entered: doh P4 (G13)." in out.getvalue()

    def test_without_a_majority_nobody_drinks(self) -> None:
        table = four_at_the_table(("person", "person", "person", "random"))
        game, _, out = terminal(table, ["", "delay P4", "n", "n", ""])
        game.run()
        assert table.entries == [] and drinks(table) == [0, 0, 0, 0]
        assert "needs a majority of the other 3 players, and 1 voted for it (G13)" in (
            out.getvalue()
        )

    def test_a_player_who_is_not_there_is_named_before_anyone_votes(self) -> None:
        table = four_at_the_table(("person", "person", "person", "random"))
        game, script, out = terminal(table, ["", "doh P9", "doh"])
        game.run()
        text = out.getvalue()
        assert "there is no Player 9: the players are 1 to 4 (G13)" in text
        assert "'doh' is not a table entry" in text
        assert table.entries == [] and not any("Do you agree" in p for p in script.prompts)


class TestSavedAndTakenBack:
    def test_the_record_keeps_them_and_a_resumed_game_replays_them(self) -> None:
        table = death_table()
        game, _, _ = terminal(table, ["5D", "y", "2D", "doh P1"])
        game.run()
        obj = json.loads(json.dumps(table.record().to_json()))
        assert [t["entry"] for t in obj["table"]] == ["illegal 5D", "doh P1"]
        assert obj["table"][1]["at"] == len(obj["actions"])
        again = Table.from_record(Record.from_json(obj))
        assert again.entries == table.entries and again.actions == table.actions
        assert again.state.to_json() == table.state.to_json()
        assert drinks(again)[0] == 3  # 2 for the illegal throw, 1 for the D'oh!

    def test_undo_does_not_go_back_past_a_penalty(self) -> None:
        """A penalty is the table's decision, not a move: it stands."""
        table = death_table()
        game, _, out = terminal(table, ["2D", "doh P1", "undo", "AD", "undo"])
        game.run()
        text = out.getvalue()
        assert (
            "Cannot undo: the table entry 'doh P1' was made after your last move, and table "
            "entries stand (G13)." in text
        )
        assert "Took back your last move" in text
        assert table.entries == [TableEntry(3, "doh P1", 0, ())]
        assert table.actions[0] == "2D" and "AD" not in table.actions
        assert drinks(table)[0] == 1

    def test_an_old_saved_game_with_penalties_among_its_actions_resumes(self) -> None:
        """Games saved before table entries kept ``illegal CARD`` and ``doh N>Pk`` among the
        actions: resumed, they are table entries made by a referee, nothing lost."""
        old = death_table()
        obj = {
            "game": "death",
            "players": 3,
            "seed": 7,
            "deal": old.deal,
            "actions": ["illegal 5D", "2D", "doh 1>P2"],
            "seats": ["person", "random", "random"],
        }
        table = Table.from_record(Record.from_json(obj))
        assert table.actions == ["2D"]
        assert table.entries == [
            TableEntry(0, "illegal 5D", None, ()),
            TableEntry(1, "doh P2", None, ()),
        ]
        assert drinks(table)[:2] == [2, 1]
        assert table.record().to_json()["actions"] == ["2D"]
