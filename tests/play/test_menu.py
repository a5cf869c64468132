"""The menu of ``parlour play``: every game, player range and default comes from the games'
``info``, so a game is offered without the menu knowing its name."""

from __future__ import annotations

from parlour.games import GAMES
from parlour.play.menu import ask_menu, menu_games
from tests.play.helpers import Script, console


def test_the_games_people_decide_in_come_first() -> None:
    names = [g.name for g in menu_games()]
    deciding = [n for n in names if GAMES[n].info.decisions]
    assert names[: len(deciding)] == deciding and deciding == sorted(deciding)
    assert names[0] == "beor" and "beggar" not in deciding
    assert sorted(names) == sorted(GAMES)


def test_enter_takes_each_default() -> None:
    con, out = console()
    choice = ask_menu(Script(["", "", "", ""], out), con)
    assert choice.game.name == "beor" and choice.seats == ("person", "expert")
    text = out.getvalue()
    beggar = 1 + [g.name for g in menu_games()].index("beggar")
    assert "1) BEOR (2-5 players)" in text
    assert f"{beggar}) Beggar-My-Neighbour (2-4 players)" in text


def test_a_name_or_alias_answers_and_the_game_brings_its_default() -> None:
    con, out = console()
    script = Script(["game-of-death", "", "2", "2"], out)
    choice = ask_menu(script, con)
    assert choice.game.name == "death"
    assert "How many players (2-10)? [4]> " in script.prompts
    assert choice.seats == ("person", "person", "hard", "hard")


def test_no_bot_strength_is_asked_where_nobody_decides() -> None:
    con, out = console()
    script = Script(["bmn", "3", "1", ""], out)  # Enter: no agreed time
    choice = ask_menu(script, con)
    assert choice.game.name == "beggar" and choice.seats == ("person", "bot", "bot")
    assert not any("strong" in p for p in script.prompts)
