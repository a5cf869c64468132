"""The table behind ``parlour play``: seats, bots from views, undo, records and resuming."""

from __future__ import annotations

import json

import pytest

from parlour.core.record import Record, replay
from parlour.errors import InvalidOption, InvalidRecord
from parlour.games import find_game
from parlour.play.table import PERSON, Table, check_seat_specs, parse_seat_flags


def bots_table(game: str, players: int, seed: int, spec: str = "random") -> Table:
    g = find_game(game)
    if game == "beggar":
        spec = "bot"
    return Table(g, check_seat_specs(g, [spec] * players), seed)


def play_out(table: Table, limit: int = 10_000) -> None:
    while not table.state.is_over and limit:
        table.bot_move()
        limit -= 1


class TestSeats:
    def test_seat_flags_count_players_from_one(self) -> None:
        specs = parse_seat_flags(["2=heuristic", "3=person"], 3, ["person", "ismcts", "ismcts"])
        assert specs == ("person", "heuristic", "person")

    @pytest.mark.parametrize(
        ("flag", "needle"),
        [
            ("2", "write PLAYER=WHO"),
            ("x=ismcts", "write PLAYER=WHO"),
            ("4=random", "1 to 3"),
            ("0=random", "1 to 3"),
            ("2=", "write PLAYER=WHO"),
        ],
    )
    def test_bad_seat_flag_is_named(self, flag: str, needle: str) -> None:
        with pytest.raises(InvalidOption, match="--seat") as err:
            parse_seat_flags([flag], 3, ["person"] * 3)
        assert needle in str(err.value)

    def test_unknown_bot_names_the_player(self) -> None:
        with pytest.raises(InvalidOption, match=r"Player 2: unknown agent 'wizard'"):
            check_seat_specs(find_game("beor"), ["person", "wizard"])

    def test_people_words(self) -> None:
        seats = check_seat_specs(find_game("death"), ["Human", "me", "ismcts:50"])
        assert [s.is_person for s in seats] == [True, True, False]
        assert seats[0].spec == PERSON

    def test_beggar_seats_are_people_or_bots(self) -> None:
        beggar = find_game("beggar")
        seats = check_seat_specs(beggar, ["person", "bot", "Bot"])
        assert [s.is_person for s in seats] == [True, False, False]
        for spec in ("wizard", "ismcts"):
            with pytest.raises(InvalidOption, match="a person or a bot"):
                check_seat_specs(beggar, ["person", spec])

    def test_a_seat_given_twice_is_refused(self) -> None:
        with pytest.raises(InvalidOption, match="Player 2 is seated twice"):
            parse_seat_flags(["2=ismcts", "2=random"], 3, ["person"] * 3)

    def test_labels(self) -> None:
        g = find_game("beor")
        alone = Table(g, check_seat_specs(g, ["person", "heuristic"]), 1)
        assert alone.seat_label(0) == "Player 1 (you)"
        assert alone.seat_label(1) == "Player 2 (heuristic)"
        two = Table(g, check_seat_specs(g, ["person", "person"]), 1)
        assert two.seat_label(1) == "Player 2"


class TestBots:
    @pytest.mark.parametrize(("game", "players"), [("beor", 3), ("death", 4), ("beggar", 2)])
    def test_same_seed_same_game(self, game: str, players: int) -> None:
        one, two = bots_table(game, players, 5), bots_table(game, players, 5)
        play_out(one)
        play_out(two)
        assert one.state.is_over and one.actions == two.actions

    @pytest.mark.parametrize("game", ["beor", "death"])
    def test_resumed_game_goes_on_as_the_saved_one(self, game: str) -> None:
        """Bots draw their randomness from the seed and the move number, so stopping, saving
        and resuming never changes how the game goes on."""
        whole = bots_table(game, 3, 21, "heuristic")
        play_out(whole)
        half = bots_table(game, 3, 21, "heuristic")
        for _ in range(len(whole.actions) // 2):
            half.bot_move()
        record = Record.from_json(json.loads(json.dumps(half.record().to_json())))
        resumed = Table.from_record(record)
        play_out(resumed)
        assert resumed.actions == whole.actions

    def test_a_person_is_not_moved_by_the_table(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "random"]), 2)
        with pytest.raises(InvalidOption, match="is a person"):
            table.bot_move()


class TestUndo:
    def test_undo_takes_back_the_persons_move_and_the_bots_replies(self) -> None:
        g = find_game("death")
        table = Table(g, check_seat_specs(g, ["random", "person", "random", "random"]), 3)
        while table.state.to_move != 1:
            table.bot_move()
        before = list(table.actions)
        table.apply(table.state.legal_actions()[0])
        while table.state.to_move != 1 and not table.state.is_over:
            table.bot_move()
        taken = table.undo(1)
        assert table.actions == before and taken >= 1
        assert table.state.to_move == 1 and table.undone == 1
        # The record after an undo replays to the same position.
        assert replay(table.record(), g)[-1].to_json() == table.state.to_json()

    def test_undo_needs_a_move(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "random"]), 2)
        assert table.undo_refusal(0) == "Player 1 has made no move yet"

    def test_no_undo_between_people(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "person"]), 2)
        table.apply(table.state.legal_actions()[0])
        with pytest.raises(InvalidOption, match="only for a person playing alone"):
            table.undo(0)

    def test_no_undo_without_decisions(self) -> None:
        g = find_game("beggar")
        table = Table(g, check_seat_specs(g, ["person", "bot"]), 2)
        table.apply("play")
        assert "no decisions" in str(table.undo_refusal(0))


class TestRecords:
    def test_record_keeps_the_seats_and_options(self) -> None:
        g = find_game("death")
        table = Table(g, check_seat_specs(g, ["person", "ismcts:20"]), 9, {"sober": "2"})
        table.apply(table.state.legal_actions()[0])
        obj = table.record().to_json()
        assert obj["seats"] == ["person", "ismcts:20"]
        assert obj["options"]["sober"] == [2]
        again = Table.from_record(Record.from_json(obj))
        assert again.state.to_json() == table.state.to_json()
        assert [s.spec for s in again.seats] == ["person", "ismcts:20"]

    def test_seat_flags_reseat_a_resumed_game(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "random"]), 4)
        again = Table.from_record(table.record(), ["2=person"])
        assert again.people == (0, 1)

    def test_bad_seats_field_is_named(self) -> None:
        obj = bots_table("beor", 2, 1).record().to_json()
        obj["seats"] = ["person"]
        with pytest.raises(InvalidRecord, match="'seats'"):
            Record.from_json(obj)

    def test_a_bad_action_in_a_saved_game_is_named(self) -> None:
        obj = bots_table("beor", 2, 1).record().to_json()
        obj["actions"] = ["zz"]
        with pytest.raises(InvalidRecord, match="action 0 'zz'"):
            Table.from_record(Record.from_json(obj))


class TestEvents:
    def test_a_blind_draw_is_named_to_the_drawer_only(self) -> None:
        """B6: a card drawn face down is seen by the drawer alone; the table shows each seat
        its own log, where the drawer sees the draw once, with the card."""
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "random"]), 3)
        # Not a 3 or 8: they turn the stock face up before the draw.
        table.apply(next(a for a in table.state.legal_actions() if str(a)[0] not in "38"))
        mine = [e.text for entry in table.state.log(0) for e in entry.events]
        theirs = [e.text for entry in table.state.log(1) for e in entry.events]
        drawn = next(t for t in mine if "draws" in t)
        assert drawn not in theirs
        assert any(t.startswith("Player 1 draws from") for t in theirs)
        assert not any(t.startswith("Player 1 draws from") for t in mine)
