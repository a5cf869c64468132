"""A game the table was never told about (``tests/play/toy``: Race to Seven, with its own
``present.py``) plays at the terminal like the three real ones: its table, moves, help, refusals
and result all come from its package, so nothing in ``play/`` knows a game by name."""

from __future__ import annotations

from parlour.core.record import replay
from parlour.play.table import Table, check_seat_specs
from tests.play.helpers import terminal
from tests.play.toy.game import RaceGame


def test_two_people_play_a_whole_game_of_a_new_game() -> None:
    game = RaceGame()
    table = Table(game, check_seat_specs(game, ["person", "person"]), 1)
    lines = ["", "help", "9", "+3", "+2", "", "+2", "", "+2", "", "+2", "1"]
    terminal_game, script, out = terminal(table, lines)
    assert terminal_game.run() == "over"
    text = out.getvalue()
    assert "Race to Seven: add 1 or 2 to the count; whoever makes it 7 wins (T1)." in text
    assert "Commands: a number picks that move" in text
    assert "Your moves (type the number or the notation):" in text and "1)\u00a0+1" in text
    assert "There is no move 9: the moves are 1 to 2." in text
    assert "'+3' is not a move of Race to Seven: +1 or +2. Try again" in text
    assert "+2 would pass 7 (T1). Try again" in text
    assert "Player 1 adds 2: count 6" in text  # the events come from the seat's log
    assert "Player 2 makes it 7 after 4 moves (T1)." in text
    assert table.actions == ["+2", "+2", "+2", "+1"]
    assert script.prompts.count("Player 2, press Enter when you are ready> ") == 2


def test_a_person_against_a_bot_and_the_record_replays() -> None:
    game = RaceGame()
    table = Table(game, check_seat_specs(game, ["person", "random"]), 5)
    terminal_game, _, out = terminal(table, ["1"] * 7)
    assert terminal_game.run() == "over"
    assert "makes it 7 after" in out.getvalue() and "Game over" in out.getvalue()
    record = table.record()
    assert record.game == "race" and record.seats == ("person", "random")
    assert replay(record, game)[-1].to_json() == table.state.to_json()
