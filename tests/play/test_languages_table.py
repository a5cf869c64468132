"""Everything the table says in Romanian and Dutch comes from the catalogs: help with the options
in force, hint, undo refused and accepted, saving, leaving, input ending and a fault of Parlour's
own, with no English sentence left (English itself stays word for word as it was)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from parlour.core.words import LANGUAGES, catalog, placeholders
from parlour.games import find_game
from parlour.play.keys import Keyboard
from parlour.play.speech import WORDS, answers, spoken
from parlour.play.table import Table, check_seat_specs
from parlour.play.terminal import TerminalGame
from tests.play.helpers import Script, console, death_table, terminal

# English sentences of the table that must not show through in ro or nl.
ENGLISH = (
    "at this table option",
    "Options at this table",
    "so this does not apply here",
    "while your cards are turned for you",
    "Watching keys",
    "heuristic bot would play",
    "(move ",
    "There is nothing to decide",
    "Cannot undo",
    "has no decisions to take back",
    "only for a person playing alone",
    "has made no move yet",
    "was made after your last move",
    "since your last move you have seen",
    "undo never goes back past",
    "shown by",
    "Took back your last move",
    "bot move",
    "Input ended",
    "nothing to save",
    "the game is saved in",
    "The game is saved in",
    "could not be saved",
    "resume with",
    "internal error",
    "Stopped watching",
    "Leave the game?",
    "Left the table",
    "Saved to",
    "Game over",
    "Player 1",
    "[y/N]",
)

# What the table says, by language: the sentences each test looks for.
SAID: dict[str, dict[str, str]] = {
    "ro": {
        "off": (
            "la această masă opțiunea illegal_throw_penalty e dezactivată, deci aici nu se "
            "aplică: o aruncare nepermisă costă 2 înghițituri, iar cartea se întoarce în mână "
            "(la mesele pentru oameni) (G13)."
        ),
        "natural_win": (
            "la această masă opțiunea natural_win e dezactivată, deci aici nu se aplică: o mână "
            "care vine din împărțire deja ca două grupuri câștigă pe loc (B5)."
        ),
        "set": "la această masă opțiunea max_turns are valoarea 50: după atâtea ture",
        "options": "Opțiunile de la această masă:",
        "sober": "la această masă opțiunea sober are valoarea Jucătorul 2, Jucătorul 3:",
        "hint": r"Botul euristic ar juca \S+ \(mutarea \d+\)\.",
        "no_move": "Nu se poate lua înapoi: Jucătorul 1 nu a făcut încă nicio mutare.",
        "undone": "Ți-ai luat înapoi ultima mutare.",
        "undone_bots": (
            "Ți-ai luat înapoi ultima mutare și cele 2 mutări ale boților care au urmat."
        ),
        "stands": (
            "Nu se poate lua înapoi: penalizarea 'doh P1' a fost trecută după ultima ta mutare, "
            "iar penalizările la masă rămân (G13)."
        ),
        "saved": "Salvat în parlour-death-7.json; continui cu: parlour play --resume",
        "saved_beor": "Salvat în parlour-beor-3.json; continui cu:",
        "question": "Părăsești jocul?",
        "left": "Ai plecat de la masă fără să salvezi.",
        "back": "înapoi",
        "save": "salvează",
        "leave": "pleacă",
        "nothing": "În Beggar-My-Neighbour nu e nimic de decis.",
        "no_decisions": (
            "Nu se poate lua înapoi: în Beggar-My-Neighbour nu există decizii de luat înapoi."
        ),
        "watching": "  cât timp cărțile îți sunt întoarse automat: Taste: f mai repede",
        "watch_keys": "Pentru urmărire: Taste: f mai repede",
        "ended_nothing": "Intrarea s-a terminat înainte de prima mutare: nu e nimic de salvat.",
        "ended_saved": (
            "Intrarea s-a terminat; jocul e salvat în parlour-death-7.json; continui cu: "
            "parlour play --resume parlour-death-7.json"
        ),
        "error_saved": "Parlour a dat de o eroare internă; jocul e salvat în parlour-death-7.json",
        "stopped": "Nu mai urmărești; jocul de până acum e în w.json: parlour play --resume w.json",
        "every_trick": "Jocul se salvează în w.json după fiecare levată.",
        "game_in": "Jocul e salvat în w.json.",
    },
    "nl": {
        "off": (
            "aan deze tafel staat optie illegal_throw_penalty uit, dus dit geldt hier niet: een "
            "ongeldige worp kost 2 slokken en de kaart gaat terug (aan tafels voor mensen) (G13)."
        ),
        "natural_win": (
            "aan deze tafel staat optie natural_win uit, dus dit geldt hier niet: een hand die "
            "meteen bij het delen twee groepen vormt, wint direct (B5)."
        ),
        "set": "aan deze tafel staat optie max_turns op 50: na zoveel beurten",
        "options": "Opties aan deze tafel:",
        "sober": "aan deze tafel staat optie sober op Speler 2, Speler 3:",
        "hint": r"De heuristische bot zou \S+ spelen \(zet \d+\)\.",
        "no_move": "Terugnemen kan niet: Speler 1 heeft nog geen zet gedaan.",
        "undone": "Je laatste zet is teruggenomen.",
        "undone_bots": "Je laatste zet is teruggenomen, en de 2 zetten van de bots daarna.",
        "stands": (
            "Terugnemen kan niet: de tafelstraf 'doh P1' is na je laatste zet genoteerd, en "
            "tafelstraffen blijven staan (G13)."
        ),
        "saved": "Opgeslagen in parlour-death-7.json; verder spelen met: parlour play --resume",
        "saved_beor": "Opgeslagen in parlour-beor-3.json; verder spelen met:",
        "question": "Het spel verlaten?",
        "left": "Je hebt de tafel verlaten zonder op te slaan.",
        "back": "terug",
        "save": "opslaan",
        "leave": "weggaan",
        "nothing": "In Beggar-My-Neighbour valt niets te beslissen.",
        "no_decisions": (
            "Terugnemen kan niet: in Beggar-My-Neighbour zijn er geen beslissingen om terug te "
            "nemen."
        ),
        "watching": "  terwijl je kaarten voor je worden omgedraaid: Toetsen: f sneller",
        "watch_keys": "Bij het meekijken: Toetsen: f sneller",
        "ended_nothing": "De invoer is gestopt vóór de eerste zet: er is niets om op te slaan.",
        "ended_saved": (
            "De invoer is gestopt; het spel is opgeslagen in parlour-death-7.json; verder spelen "
            "met: parlour play --resume parlour-death-7.json"
        ),
        "error_saved": "Parlour kreeg een interne fout; het spel is opgeslagen in parlour-death-7",
        "stopped": (
            "Gestopt met kijken; het spel tot nu toe staat in w.json: parlour play --resume w.json"
        ),
        "every_trick": "Het spel wordt na elke slag opgeslagen in w.json.",
        "game_in": "Het spel is opgeslagen in w.json.",
    },
}


# The table's commands as each language types them: help, hint, undo, save, quit.
TYPED = {
    "ro": ("ajutor", "sfat", "anulează", "salvează", "ieși"),
    "nl": ("hulp", "tip", "terugnemen", "opslaan", "stoppen"),
}


# Undo refused past a card seen since (a card drawn blind), in parts: the cards named vary.
SEEN = {
    "ro": (
        "Nu se poate lua înapoi: de la ultima ta mutare ai văzut",
        "(la mutarea ta ",
        "anulează nu se întoarce niciodată dincolo de o carte pe care înainte n-o puteai vedea",
    ),
    "nl": (
        "Terugnemen kan niet: sinds je laatste zet heb je",
        "(bij je zet ",
        "terugnemen gaat nooit terug voorbij een kaart die je eerder niet kon zien",
    ),
}


def flat(text: str) -> str:
    """The screen with its lines joined: a long sentence may wrap."""
    return " ".join(text.split())


def english_in(text: str) -> list[str]:
    return [english for english in ENGLISH if english in text]


def play(*args: str, lines: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    return subprocess.run(
        [sys.executable, "-m", "parlour", "play", *args],
        input=lines,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**base, "NO_COLOR": "1", "COLUMNS": "100"},
        check=False,
        timeout=120,
    )


def death(options: dict[str, object]) -> Table:
    """:func:`death_table`'s deal (Player 1 leads 2♦, the others cannot follow) with
    ``options``."""
    base = death_table()
    return Table(base.game, base.seats, 7, options, base.deal)


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_a_game_of_death_at_the_table_in_the_language(lang: str, tmp_path: Path) -> None:
    """Help with an option off, hint, undo refused (no move yet, a penalty stands) and
    accepted (alone, then with the bots' moves), back to the game and leaving with a save,
    answered in the language's own words."""
    said = SAID[lang]
    lines = ["help", "hint", "undo", "2D", "AD", "undo", "undo", "2D", "doh P1", "undo"]
    lines += ["quit", said["back"], "quit", said["save"], ""]
    with spoken(lang):
        game, script, out = terminal(death({"illegal_throw_penalty": False}), lines)
        assert game.run() == "quit"
    shown = flat(out.getvalue())
    assert said["off"] in shown
    assert re.search(said["hint"], shown), shown
    for key in ("no_move", "undone", "undone_bots", "stands", "saved"):
        assert said[key] in shown, (key, shown[-3000:])
    # Back to the game once, then saved and left: the question was asked twice.
    assert sum(said["question"] in prompt for prompt in script.prompts) == 2
    record = json.loads((tmp_path / "parlour-death-7.json").read_text())
    assert record["actions"][0] == "2D" and record["options"]["illegal_throw_penalty"] is False
    assert english_in(shown + " ".join(script.prompts)) == []


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_beor_from_the_command_line_in_the_language(lang: str, tmp_path: Path) -> None:
    """``parlour play beor --lang L --options natural_win=false max_turns=50``: help, hint,
    undo refused before a move and past a card drawn blind, save, leave, each typed in the
    language (``ajutor``, ``sfat``, ``anulează``...)."""
    said = SAID[lang]
    help_, hint, undo, save, quit_ = TYPED[lang]
    lines = f"{help_}\n{hint}\n{undo}\n1\n{undo}\n{save}\n{quit_}\n{said['leave']}\n"
    done = play(
        "beor",
        *("--lang", lang, "--seed", "3", "--seat", "2=random"),
        *("--options", "natural_win=false", "max_turns=50"),
        lines=lines,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    shown = flat(done.stdout)
    for key in ("natural_win", "set", "options", "no_move", "saved_beor", "left"):
        assert said[key] in shown, (key, shown[-3000:])
    for part in SEEN[lang]:
        assert part in shown, part
    assert re.search(said["hint"], shown), shown
    assert (tmp_path / "parlour-beor-3.json").exists()
    assert english_in(shown) == []


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_a_game_without_decisions_says_so_in_the_language(lang: str) -> None:
    said = SAID[lang]
    g = find_game("beggar")
    with spoken(lang):
        table = Table(g, check_seat_specs(g, ["person", "bot"]), 4)
        game, _, out = terminal(table, ["help", "hint", "undo"])
        game.run()
    shown = out.getvalue()
    assert said["watching"] in shown
    shown = flat(shown)
    assert said["nothing"] in shown and said["no_decisions"] in shown
    assert english_in(shown) == []


class _Keys(Keyboard):
    """A keyboard where nobody presses a key."""

    def __init__(self) -> None:
        super().__init__(-1)

    def discard(self) -> None:
        return None

    def key(self, timeout: float) -> str | None:
        return None


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_cards_turned_for_you_name_the_watching_keys(lang: str) -> None:
    g = find_game("beggar")
    with spoken(lang):
        table = Table(g, check_seat_specs(g, ["person", "bot"]), 4)
        con, out = console()
        game = TerminalGame(table, con, Script(["auto"], out), keys=_Keys())
        assert game.run() == "over"
    assert SAID[lang]["watch_keys"] in out.getvalue()
    assert english_in(out.getvalue()) == []


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_help_names_the_players_an_option_lists(lang: str) -> None:
    from parlour.play.help import rules_text

    with spoken(lang):
        text = rules_text(find_game("death"), {"sober": [2, 3]})
    assert SAID[lang]["sober"] in text
    assert english_in(text) == []


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_input_ending_and_a_fault_keep_the_game_in_the_language(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = SAID[lang]
    with spoken(lang):
        game, _, out = terminal(death({}), [])
        game.run()
    assert said["ended_nothing"] in out.getvalue()
    with spoken(lang):
        game, _, out = terminal(death({}), ["2D"])
        game.run()
    assert said["ended_saved"] in flat(out.getvalue())
    (tmp_path / "parlour-death-7.json").unlink()
    with spoken(lang):
        game, _, out = terminal(death({}), ["2D", "hint"])

        def broken(seat: int) -> None:
            raise RuntimeError("a fault of Parlour's own")

        monkeypatch.setattr(game.turn, "_hint", broken)
        with pytest.raises(RuntimeError):
            game.run()
    assert said["error_saved"] in flat(out.getvalue())
    assert english_in(out.getvalue()) == []


@pytest.mark.parametrize("lang", ["ro", "nl"])
def test_a_watched_game_says_where_it_is_saved_in_the_language(lang: str, tmp_path: Path) -> None:
    """A bots-only game watched its own way, saved after every trick, to its end."""
    done = play(
        "beggar",
        *("--lang", lang, "--watch", "--seed", "5", "--delay", "0", "--save", "w.json"),
        lines="",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert SAID[lang]["every_trick"] in done.stdout
    assert SAID[lang]["game_in"] in done.stdout
    assert english_in(done.stdout) == []


STOPPED = {
    "en": "Stopped watching; the game so far is in w.json: parlour play --resume w.json",
    "ro": SAID["ro"]["stopped"],
    "nl": SAID["nl"]["stopped"],
}


@pytest.mark.parametrize("lang", sorted(STOPPED))
def test_q_stops_watching_in_the_language(lang: str, tmp_path: Path) -> None:
    """At a real terminal ``q`` stops watching: said in the language, with where the game is
    (English as it was)."""
    watch = ("beggar", "--lang", lang, "--watch", "--seed", "5", "--delay", "2.5")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "parlour", "play", *watch, "--save", "w.json"],
        cwd=str(tmp_path),
        env=dict(os.environ, COLUMNS="120", LINES="50", TERM="xterm", NO_COLOR="1"),
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )
    child.expect({"en": "Keys: ", "ro": "Taste: ", "nl": "Toetsen: "}[lang])
    child.expect(r"\n.*\n")  # a trick is shown: the keys are read now
    child.send("q")
    child.expect(re.escape(STOPPED[lang]))
    child.expect(pexpect.EOF)
    assert (tmp_path / "w.json").exists()


def test_answers_are_english_and_the_languages_own() -> None:
    with spoken("ro"):
        assert {"înapoi", "back", "b", "nu", "no"} <= answers("leave.back")
        assert {"pleacă", "leave", "q"} <= answers("leave.leave")
        assert {"salvează", "save", "da", "y"} <= answers("leave.save")
        assert "weggaan" not in answers("leave.leave")
    with spoken("nl"):
        assert {"weggaan", "leave", "terug", "back", "opslaan", "save"} <= (
            answers("leave.leave") | answers("leave.back") | answers("leave.save")
        )
        assert "pleacă" not in answers("leave.leave")
    assert answers("leave.leave") == {"l", "leave", "leave without saving", "quit", "q"}
    for lang in LANGUAGES:
        with spoken(lang):
            kinds = [answers(f"leave.{kind}") for kind in ("back", "save", "leave")]
        assert not kinds[0] & kinds[1] and not kinds[0] & kinds[2] and not kinds[1] & kinds[2]


def test_every_english_key_is_in_each_language_with_the_same_placeholders() -> None:
    """Each sentence of ``parlour.play.words`` in ro and nl takes exactly the values English
    gives it (a plural form may leave out ``{count}``: "o mutare"), with its language's plural
    forms."""
    english = catalog(WORDS, "en").entries
    forms = {"en": {"one", "other"}, "ro": {"one", "few", "other"}, "nl": {"one", "other"}}
    wrong: list[str] = []
    for lang in LANGUAGES:
        words = catalog(WORDS, lang).entries
        wrong += [f"{lang}: {key} missing" for key in english if key not in words]
        wrong += [f"{lang}: {key} not in English" for key in words if key not in english]
        for key, entry in words.items():
            reference = english.get(key)
            if reference is None:
                continue
            if isinstance(reference, str):
                if not isinstance(entry, str):
                    wrong.append(f"{lang}: {key} is a plural, English a template")
                elif placeholders(entry) != placeholders(reference):
                    wrong.append(f"{lang}: {key} {sorted(placeholders(entry))}")
                continue
            if isinstance(entry, str):
                wrong.append(f"{lang}: {key} is a template, English a plural")
                continue
            if set(entry) != forms[lang]:
                wrong.append(f"{lang}: {key} has the forms {sorted(entry)}")
            wanted = placeholders(reference["other"]) - {"count"}
            for form, template in entry.items():
                if placeholders(template) - {"count"} != wanted:
                    wrong.append(f"{lang}: {key}.{form} {sorted(placeholders(template))}")
    assert wrong == []


def test_english_is_word_for_word_as_it_was() -> None:
    """The English of the options block, hint, undo and the watching keys, as before the
    catalogs held them."""
    from parlour.play.help import commands_text, rules_text

    game = find_game("death")
    spec = next(s for s in game.info.options if s.name == "illegal_throw_penalty")
    # ``--options sober=1,3``: Player 1 and Player 3 play sober (players count from 1).
    sober = Table(game, death_table().seats, 7, {"sober": "1,3", "illegal_throw_penalty": False})
    text = rules_text(game, sober.state_options())
    assert (
        "  ↳ at this table option illegal_throw_penalty is off, so this does not apply here: "
        f"{spec.help} (G13)." in text
    )
    assert "at this table option sober is Player 1, Player 3: players (numbered from 1)" in text
    beor = find_game("beor")
    text = rules_text(beor, {"flip_reverses_order": False, "max_turns": 50})
    assert "at this table option max_turns is 50: the game is a draw after this many turns" in text
    beggar = find_game("beggar")
    assert "\n  while your cards are turned for you: Keys: f faster · s slower" in commands_text(
        beggar
    )
    table = Table(beggar, check_seat_specs(beggar, ["person", "bot"]), 4)
    con, out = console()
    TerminalGame(table, con, Script(["auto"], out), keys=_Keys()).run()
    assert "Watching keys: Keys: f faster" in out.getvalue()
    game_, _, out = terminal(death({}), ["undo", "2D", "hint"])
    game_.run()
    shown = out.getvalue()
    assert "Cannot undo: Player 1 has made no move yet." in shown
    assert re.search(r"The heuristic bot would play \S+ \(move \d+\)\.", shown)
