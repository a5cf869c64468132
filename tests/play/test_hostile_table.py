"""What a hostile person types at ``parlour play``'s questions: a number of thousands of digits
is refused and the question asked again (``int()`` fails past 4,300 digits), a number with
leading zeros is its value, and a seat flag in other digits is refused in one line."""

from __future__ import annotations

import pytest

from parlour.errors import InvalidOption
from parlour.games import find_game
from parlour.play.menu import ask_menu
from parlour.play.table import Table, check_seat_specs, parse_seat_flags
from tests.fuzz.harness import HUGE, run_main
from tests.play.helpers import Script, console, terminal


def test_a_huge_number_at_each_menu_question_is_asked_again() -> None:
    con, out = console()
    script = Script([HUGE, "0003", HUGE, "0" * 5000 + "3", HUGE, "-" + HUGE, "02", HUGE, "1"])
    choice = ask_menu(script, con)
    assert choice.game.name == "death"
    assert choice.seats == ("person", "person", "expert")
    questions = [p.split("?")[0] for p in script.prompts]
    assert questions == [
        "Which game",
        "Which game",
        "How many players (2-10)",
        "How many players (2-10)",
        "How many people at this keyboard (0 watches bots play, up to 3)",
        "How many people at this keyboard (0 watches bots play, up to 3)",
        "How many people at this keyboard (0 watches bots play, up to 3)",
        "How strong are the bots",
        "How strong are the bots",
    ]
    said = out.getvalue()
    assert said.count("Please answer a number from") == 4
    assert "Please answer 1 to 4 or a name" in said


def test_the_agreed_time_in_thousands_of_digits() -> None:
    """Beggar-My-Neighbour's agreed time (M12) is read by its option's parser: leading zeros
    are dropped, a huge number is asked again."""
    con, out = console()
    script = Script(["beggar", "", "1", HUGE, "0" * 5000 + "10"])
    choice = ask_menu(script, con)
    assert choice.game.name == "beggar" and choice.options == {"time_limit": 10}
    assert out.getvalue().count("Please answer a number from") == 1


def test_the_menu_session_goes_on_after_a_huge_number() -> None:
    """The whole command: the huge answer is refused, the session ends as input ends."""
    answer = run_main(["play"], stdin=f"{HUGE}\n")
    assert answer.code == 0, answer.err
    assert "internal error" not in answer.err and answer.err == ""
    assert answer.out.count("Which game? [1]>") == 2
    assert "Please answer 1 to 4 or a name" in answer.out


@pytest.mark.parametrize("flag", ["²=random", "٣=random", f"{HUGE}=random", "-1=random"])
def test_a_seat_flag_in_other_digits_is_refused_in_one_line(flag: str) -> None:
    """A saved game resumed with ``--seat`` reads the flags here too (Table.from_record)."""
    with pytest.raises(InvalidOption) as caught:
        parse_seat_flags([flag], 2, ("person", "random"))
    assert "\n" not in str(caught.value) and "--seat" in str(caught.value)


def test_a_seat_flag_with_leading_zeros_is_its_player() -> None:
    assert parse_seat_flags(["0002=random"], 2, ("person", "person")) == ("person", "random")


def test_a_move_number_with_leading_zeros_is_that_move() -> None:
    """At the table ``0001`` plays move 1; a number of 5,000 digits is no move and asked
    again."""
    beor = find_game("beor")
    table = Table(beor, check_seat_specs(beor, ("person", "random")), 3)
    assert table.state.to_move == 0
    first = beor.presenter.numbered(table.state.legal_actions())[0]
    game, _, out = terminal(table, [HUGE, "0" * 5000 + "1"])
    game.run()
    assert "There is no move 99999999" in out.getvalue()
    assert table.record().actions[0] == str(first)
