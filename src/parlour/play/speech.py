"""The language the terminal speaks, and its own words.

``parlour play --lang ro`` (or the locale) picks one of :data:`~parlour.core.words.LANGUAGES`
for the whole table: the terminal's generic strings (menu, prompts, help, the end) come from
the play layer's catalog (``parlour.play.words``), a game's from the game's own catalog (the
same one the browser reads), through a presenter speaking it (:func:`presenter_of`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from parlour.core.game import Game
from parlour.core.present import Presenter
from parlour.core.words import DEFAULT_LANGUAGE, LANGUAGES, Catalog, catalog

__all__ = [
    "COMMANDS",
    "WORDS",
    "agrees",
    "answer_word",
    "answers",
    "command_names",
    "command_word",
    "command_words",
    "language",
    "language_from_locale",
    "presenter_of",
    "say",
    "seat_called",
    "spoken",
    "title_of",
    "use_language",
    "words",
]

WORDS = "parlour.play.words"
# The commands typed at the table's prompt. Each has its words in every language (the catalog's
# ``command.NAME``, separated by ``|``, the first the one the table shows); English's words work
# in every language, so what the documentation and other people say always works.
COMMANDS = ("help", "moves", "hint", "undo", "save", "quit")
_LANGUAGE: ContextVar[str] = ContextVar("parlour_play_language", default=DEFAULT_LANGUAGE)


def language_from_locale(environ: Mapping[str, str] | None = None) -> str:
    """The first language of the locale that the terminal speaks (``LANGUAGE``, a list such as
    ``ro:en``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        for part in value.split(":"):
            code = part.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
        if value and name != "LANGUAGE":
            break  # the first locale variable set decides (as gettext does)
    return DEFAULT_LANGUAGE


def use_language(lang: str) -> None:
    """Speak ``lang`` from now on (one of :data:`~parlour.core.words.LANGUAGES`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"not a language of Parlour: {lang!r}")
    _LANGUAGE.set(lang)


@contextmanager
def spoken(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block, and the language spoken before after it."""
    if lang not in LANGUAGES:
        raise ValueError(f"not a language of Parlour: {lang!r}")
    token = _LANGUAGE.set(lang)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def language() -> str:
    return _LANGUAGE.get()


def words() -> Catalog:
    """The terminal's own words in the language spoken."""
    return catalog(WORDS, language())


def say(key: str, /, count: int | None = None, **values: object) -> str:
    """The terminal's sentence ``key`` in the language spoken; ``{help_word}``, ``{quit_word}``
    and the other commands' ``{NAME_word}`` name the commands as that language types them."""
    return words()(key, count, **(_command_values(language()) | values))


def _first(listed: str) -> str:
    return listed.split("|", 1)[0].strip()


def agrees(answer: str) -> bool:
    """Whether ``answer`` to a ``[y/N]`` question is yes in the language spoken (``y`` or
    ``yes`` always, ``d``/``da`` in Romanian, ``j``/``ja`` in Dutch)."""
    return answer.strip().lower() in {"y", "yes", *say("yes").split()}


def answers(key: str) -> frozenset[str]:
    """The answers that the terminal's entry ``key`` lists (separated by ``|``, in any case)
    in the language spoken, English's always among them: people may answer in either."""
    found: set[str] = set()
    for said in (catalog(WORDS)(key), say(key)):
        found.update(word.strip().lower() for word in said.split("|"))
    return frozenset(found - {""})


def answer_word(key: str) -> str:
    """The answer that the terminal's entry ``key`` shows in the language spoken (its first)."""
    return _first(say(key))


def command_words(name: str) -> frozenset[str]:
    """The words that give the table's command ``name`` (one of :data:`COMMANDS`), lower case:
    the language spoken's and English's."""
    return answers(f"command.{name}")


def command_word(name: str, lang: str | None = None) -> str:
    """The word the table shows for its command ``name`` in ``lang`` (the language spoken)."""
    return _first(catalog(WORDS, lang or language())(f"command.{name}"))


@lru_cache(maxsize=len(LANGUAGES))
def _command_values(lang: str) -> dict[str, str]:
    """``{help_word: "ajutor", ...}``: the commands' words that every sentence of ``lang`` may
    name (:func:`say`), worked out once a language."""
    return {f"{name}_word": command_word(name, lang) for name in COMMANDS}


def command_names() -> list[str]:
    """Every word of every command, the language spoken's first, for Tab to complete (words of
    one letter and ``?`` left out: there is nothing to complete in them)."""
    spoken_first = [command_word(name) for name in COMMANDS]
    others = sorted({w for name in COMMANDS for w in command_words(name)} - set(spoken_first))
    return [*spoken_first, *(w for w in others if len(w) > 1 and w.isalpha())]


def seat_called(seat: int) -> str:
    """``Player 3`` in the language spoken (seats count from 0, people from 1)."""
    return say("seat", number=seat + 1)


def presenter_of(game: Game) -> Presenter:
    """The game's presenter speaking the language spoken, from the game's catalog."""
    return game.presenter.speaking(game.words(language()))


def title_of(game: Game) -> str:
    """The game's name in the language spoken (its catalog's ``game.title``)."""
    found = game.words(language())
    if found.lang == DEFAULT_LANGUAGE or "game.title" not in found.entries:
        return game.title
    return found("game.title")
