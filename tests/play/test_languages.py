"""The terminal speaks en, ro and nl (``parlour play --lang``, by default from the locale): its
own words from ``parlour.play.words``, a game's from the game's catalog (the browser's)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from parlour.core.words import LANGUAGES, catalog, placeholders
from parlour.play.speech import WORDS, language_from_locale


def play(
    *args: str, lines: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
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
        env={**base, "NO_COLOR": "1", "COLUMNS": "100", **(env or {})},
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("lang", "needles"),
    [
        (
            "ro",
            (
                "Mâna ta:",
                "Jucătorul 1 (tu)",
                "2 jucători",
                "Mutările tale",
                "Ce s-a întâmplat:",
                "Jucătorul 1 joacă",
                "talonul",
                "Părăsești jocul?",
            ),
        ),
        (
            "nl",
            (
                "Je hand:",
                "Speler 1 (jij)",
                "2 spelers",
                "Je zetten",
                "Wat er gebeurde:",
                "Speler 1 speelt",
                "voorraad",
                "Het spel verlaten?",
            ),
        ),
    ],
)
def test_a_few_moves_in_another_language(lang: str, needles: tuple[str, ...]) -> None:
    done = play(
        "beor", "--lang", lang, "--seed", "3", "--seat", "2=random", lines="1\n1\nquit\nleave\n"
    )
    assert done.returncode == 0, done.stderr
    for needle in needles:
        assert needle in done.stdout, needle
    assert "Your hand:" not in done.stdout and "Recent events:" not in done.stdout


def test_help_reads_the_games_rules_in_the_language() -> None:
    done = play("death", "--lang", "ro", "--seed", "1", lines="help\n\nquit\nleave\n")
    assert done.returncode == 0, done.stderr
    assert "Jocul morții" in done.stdout and "Comenzi:" in done.stdout


def test_the_locale_chooses_and_english_stays_as_it_was() -> None:
    nl = play("beor", "--seed", "3", lines="quit\nleave\n", env={"LANG": "nl_NL.UTF-8"})
    assert "Je hand:" in nl.stdout
    en = play("beor", "--seed", "3", lines="quit\nleave\n", env={"LANG": "C.UTF-8"})
    assert "Your hand:" in en.stdout and "Recent events:" in en.stdout
    assert "BEOR · 2 players · move 1 · Player 1 (you) to move" in en.stdout


def test_an_unknown_language_is_refused_in_one_line() -> None:
    done = play("beor", "--lang", "xx", lines="")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "--lang" in done.stderr
    assert "'xx'" in done.stderr


def test_language_from_locale() -> None:
    assert language_from_locale({"LANGUAGE": "ro:en", "LANG": "nl_NL.UTF-8"}) == "ro"
    assert language_from_locale({"LANGUAGE": "de", "LC_ALL": "nl_BE.UTF-8"}) == "nl"
    assert language_from_locale({"LC_ALL": "de_DE.UTF-8", "LANG": "ro_RO.UTF-8"}) == "en"
    assert language_from_locale({"LANG": "ro_RO.UTF-8"}) == "ro"
    assert language_from_locale({}) == "en"


def test_the_terminals_catalogs_match_english() -> None:
    english = catalog(WORDS, "en").entries
    for lang in LANGUAGES:
        words = catalog(WORDS, lang).entries
        assert words.keys() == english.keys(), lang
        for key, entry in words.items():
            forms = [entry] if isinstance(entry, str) else list(entry.values())
            reference = english[key]
            wanted = placeholders(reference if isinstance(reference, str) else reference["other"])
            for form in forms:
                assert placeholders(form) <= wanted | {"count"}, (lang, key)


# English sentences a game says at the terminal that must not show through in ro or nl.
ENGLISH = (
    "wins after",
    "win with",
    "drinks taken",
    " drinks ",
    "Pile (top last)",
    "pile (top last)",
    "face down",
    "Scrap pile",
    "must pay",
    "takes the pile",
    "Trick ",
    "tricks",
    "running totals",
    "deals (G12)",
    "Game over",
    "Watching (",
    "Keys:",
    "No person at the table",
    "Random deal",
    "Play another",
    "[y/N]",
)

WHOLE_GAMES = {
    "beor": ("--seed", "3", "--seat", "1=random", "--seat", "2=random"),
    "beggar": ("--seed", "3", "--seat", "1=bot", "--seat", "2=bot"),
    "death": ("--seed", "3", *(f"--seat={k}=random" for k in (1, 2, 3, 4))),
}
RESULTS = {
    ("beor", "ro"): "Jucătorul 1 (random) câștigă după",
    ("beor", "nl"): "Speler 1 (random) wint na",
    ("beggar", "ro"): "Jucătorul 1 câștigă după 423 de cărți și 60 de levate.",
    ("beggar", "nl"): "Speler 1 wint na 423 kaarten en 60 slagen.",
    ("death", "ro"): "câștigă runda cu cele mai puține luate",
    ("death", "nl"): "wint de ronde met het minst genomen",
}


@pytest.mark.parametrize("lang", ["ro", "nl"])
@pytest.mark.parametrize("game", sorted(WHOLE_GAMES))
def test_a_whole_game_of_bots_speaks_the_language(game: str, lang: str) -> None:
    done = play(game, "--lang", lang, "--delay", "0", *WHOLE_GAMES[game], lines="n\n")
    assert done.returncode == 0, done.stderr
    shown = done.stdout
    assert RESULTS[game, lang] in shown
    assert [english for english in ENGLISH if english in shown] == []


def test_english_reads_its_sentences_from_the_catalog_as_before() -> None:
    done = play("beggar", "--delay", "0", *WHOLE_GAMES["beggar"], lines="n\n")
    assert done.returncode == 0, done.stderr
    assert "Player 1 wins after 423 cards and 60 tricks." in done.stdout
    assert "Trick 1: Player 1 A♥ → Player 2 pays 4:" in done.stdout
    assert "   cards 11 · tricks 1 · hands: Player 1 32, Player 2 20" in done.stdout


def test_yes_is_yes_in_the_language() -> None:
    from parlour.play.speech import agrees, spoken

    with spoken("ro"):
        assert agrees("da") and agrees("D") and agrees("y") and not agrees("nu")
    with spoken("nl"):
        assert agrees("ja") and agrees("j") and agrees("yes") and not agrees("da")
    assert agrees("y") and not agrees("ja")


@pytest.mark.parametrize(
    ("lang", "needles"),
    [
        ("ro", ("'zz' nu e o mutare din Jocul morții", "nu e nimic de dat: doar figurile")),
        ("nl", ("'zz' is geen zet in Becker's Game of Death", "er zijn geen slokken te geven")),
        ("en", ("'zz' is not an action of the Game of Death", "there are no drinks to give")),
    ],
)
def test_a_refusal_is_said_in_the_language(lang: str, needles: tuple[str, ...]) -> None:
    # A move that is no move (bad notation) and one the rules refuse (a give with nothing to
    # give, G5): the game's catalog says why, in the language spoken.
    done = play("death", "--lang", lang, "--seed", "1", lines="zz\ngive 3>P2\nquit\nleave\n")
    assert done.returncode == 0, done.stderr
    for needle in needles:
        assert needle in done.stdout, (needle, done.stdout[-2000:])
    if lang != "en":
        assert "is not an action" not in done.stdout and "no drinks to give" not in done.stdout
