"""The table's commands typed in the language spoken: ``ajutor``/``hulp`` (help), ``mutări``/
``zetten`` (moves), ``sfat``/``tip`` (hint), ``anulează``/``terugnemen`` (undo),
``salvează``/``opslaan`` (save), ``ieși``/``stoppen`` (quit). English's words work in every
language, help names the words of the language spoken (and English's), and no command's word
can shadow a move or a game's own input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from parlour.games import GAMES, find_game
from parlour.play.help import commands_text
from parlour.play.speech import COMMANDS, command_names, command_words, spoken
from parlour.play.table import Table, check_seat_specs
from parlour.play.turn import PersonTurn
from tests.play.helpers import death_table, terminal

# What a Romanian and a Dutch player type, written here from the language, not from the catalog.
TYPED = {
    "ro": {
        "help": ("ajutor", "reguli"),
        "moves": ("mutări", "mutari", "masa"),
        "hint": ("sfat", "indiciu"),
        "undo": ("anulează", "anuleaza"),
        "save": ("salvează", "salveaza"),
        "quit": ("ieși", "iesi", "ieșire", "iesire"),
    },
    "nl": {
        "help": ("hulp", "regels"),
        "moves": ("zetten", "tafel"),
        "hint": ("tip",),
        "undo": ("terugnemen",),
        "save": ("opslaan",),
        "quit": ("stoppen", "stop"),
    },
}
ENGLISH = {
    "help": ("help", "?", "h"),
    "moves": ("moves", "m", "board", "table"),
    "hint": ("hint",),
    "undo": ("undo",),
    "save": ("save",),
    "quit": ("quit", "exit", "q"),
}


@pytest.mark.parametrize("lang", ["en", "ro", "nl"])
def test_each_command_reads_its_words_and_englishs(lang: str) -> None:
    with spoken(lang):
        for name in COMMANDS:
            wanted = set(ENGLISH[name]) | set(TYPED.get(lang, {}).get(name, ()))
            assert command_words(name) == wanted, name


@pytest.mark.parametrize("lang", ["en", "ro", "nl"])
def test_no_two_commands_share_a_word(lang: str) -> None:
    with spoken(lang):
        seen: dict[str, str] = {}
        for name in COMMANDS:
            for word in command_words(name):
                assert word not in seen, (word, seen.get(word), name)
                seen[word] = name


def _typed_first_words(game_name: str) -> set[str]:
    """The first word of every move seen in random games of ``game_name``, lower case, with
    its table entries' words."""
    game = find_game(game_name)
    found = {c.word.lower() for c in game.presenter.table_commands}
    low, high = game.info.min_players, game.info.max_players
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new(rng.randint(low, high), seed)
        for _ in range(300):
            if state.is_over:
                break
            actions = state.legal_actions()
            found.update(str(a).lower().split(" ", 1)[0] for a in actions)
            state = state.apply(rng.choice(actions))
    return found


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_no_command_word_shadows_a_move_or_a_table_entry(game_name: str) -> None:
    """The commands are read before a line goes to the game: a translator's word that is also a
    move of some game (or one of its table entries) would make that move impossible to type."""
    moves = _typed_first_words(game_name)
    for lang in ("en", "ro", "nl"):
        with spoken(lang):
            words = {w for name in COMMANDS for w in command_words(name)}
        assert words.isdisjoint(moves), (lang, sorted(words & moves))


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_help_names_the_languages_words_then_englishs(lang: str) -> None:
    help_, moves, hint, undo, save, quit_ = (TYPED[lang][name][0] for name in COMMANDS)
    with spoken(lang):
        text = commands_text(find_game("death"), undo=True)
        lone = commands_text(find_game("beggar"))
    for word in (help_, moves, hint, undo):
        assert f"{word}: " in text, word
    assert f"{save} [" in text and f"  {quit_} (" in text
    assert text.splitlines()[-1].endswith(": help, moves, hint, undo, save, quit.")
    # A game without decisions has no hint or undo to name, in either language.
    assert lone.splitlines()[-1].endswith(": help, moves, save, quit.")
    assert hint not in lone and undo not in lone


def test_english_help_names_no_other_language() -> None:
    with spoken("en"):
        text = commands_text(find_game("death"), undo=True)
    assert text.splitlines()[1] == (
        "  help: this page · moves: draw the table again · hint: what the heuristic bot would play"
    )
    assert "English" not in text


@pytest.mark.parametrize("lang", ["ro", "nl"])
@pytest.mark.parametrize("index", [0, -1])
def test_a_game_of_death_answers_the_commands_typed_in_the_language(
    lang: str, index: int, tmp_path: Path
) -> None:
    """Help, moves, hint, undo (refused before a move, then accepted), save to a file, and
    quit with leave, each typed with the language's first or last word for it."""
    word = {name: TYPED[lang][name][index] for name in COMMANDS}
    leave = {"ro": "pleacă", "nl": "weggaan"}[lang]
    lines = [
        word["help"],
        "",
        word["moves"],
        word["hint"],
        word["undo"],
        "2D",
        word["undo"],
        f"{word['save']} {tmp_path / 'g.json'}",
        word["quit"],
        leave,
    ]
    with spoken(lang):
        table = death_table(("person", "random", "random"))
        game, script, out = terminal(table, lines)
        assert game.run() == "quit"
    shown = " ".join(out.getvalue().split())
    heading = {"ro": "Comenzi:", "nl": "Commando's:"}[lang]
    hinted = {"ro": "Botul euristic ar juca", "nl": "De heuristische bot zou"}[lang]
    refused = {"ro": "Nu se poate lua înapoi", "nl": "Terugnemen kan niet"}[lang]
    undone = {"ro": "Ți-ai luat înapoi ultima mutare", "nl": "Je laatste zet is teruggenomen"}
    assert heading in shown and hinted in shown and refused in shown
    assert undone[lang] in shown
    # Nothing typed was taken for a move: the undo took the one move back (with the bots'
    # replies), and the record saved after it holds no move.
    assert table.actions == []
    assert json.loads((tmp_path / "g.json").read_text())["actions"] == []
    assert script.lines == []


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_the_leave_question_shows_the_languages_answers(lang: str) -> None:
    """Quit, an answer that is none, back to the game, quit again and leave: the question and
    its reminder name the answers as the language says them."""
    back, save, leave = {
        "ro": ("înapoi", "salvează", "pleacă"),
        "nl": ("terug", "opslaan", "weggaan"),
    }[lang]
    quit_ = TYPED[lang]["quit"][0]
    with spoken(lang):
        table = death_table(("person", "random", "random"))
        game, script, out = terminal(table, [quit_, "?!", back, quit_, leave])
        assert game.run() == "quit"
    question = [p for p in script.prompts if p.endswith(f"[{back}]> ")]
    assert len(question) == 3, script.prompts
    assert f"({save}: " in question[0] and f" / {leave}: " in question[0]
    reminder = {
        "ro": f"Răspunde {save}, {leave} sau {back}",
        "nl": f"Antwoord {save}, {leave} of {back}",
    }
    assert reminder[lang] in out.getvalue()
    assert script.lines == []


@pytest.mark.parametrize(
    ("lang", "typed", "offered"),
    [("ro", "anu", "anulează"), ("nl", "terug", "terugnemen"), ("ro", "he", "help")],
)
def test_tab_completes_the_languages_commands(lang: str, typed: str, offered: str) -> None:
    with spoken(lang):
        assert offered in command_names()
        table = Table(find_game("death"), check_seat_specs(find_game("death"), ["person"] * 3), 1)
        game, _, _ = terminal(table, [])
        turn: PersonTurn = game.turn
        turn._completions = turn._candidates(table.state)
        offered_all = []
        k = 0
        while (found := turn.complete(typed, k)) is not None:
            offered_all.append(found)
            k += 1
    assert offered in offered_all
