"""A game's words: one message catalog per language, read by the terminal and the browser alike.

A catalog is a JSON object in the game's ``words`` package (:class:`~parlour.core.parts.
GameParts`), one file a language (``en.json``, ``ro.json``, ``nl.json``). Each key names one
sentence or label; keys are grouped by a prefix: ``event.`` (what an action did), ``refusal.``
(why an input was refused), ``rules.`` (the short rules) and ``ui.`` (the game's interface
strings). A value is either a template, ``"{name} drinks {n}"``, or a plural object keyed by the
CLDR plural categories of the language (``{"one": "1 drink", "other": "{n} drinks"}``; Romanian
uses ``few`` too: ``"2 pahare"`` but ``"20 de pahare"``), chosen by the number in ``count``.
The browser formats the same catalogs with ``Intl.PluralRules``, which gives the same categories.

A game's rules raise their refusals with :func:`sentence`: the error's message is the English
of a ``refusal.`` key, and the error carries the key and values for a front end to say it in
its own language.

English is the reference: every other catalog has exactly its keys and placeholders (a test
checks it), and a key missing from a language falls back to English rather than showing a key.

The keys a game's catalog holds (the browser reads them at ``/games/NAME/words/LANG.json``):

- ``game.title``, ``game.summary``: the game's name and a one-line description;
- ``rules.title``, ``rules.goal``, and the short rules as numbered sections:
  ``rules.section.N.heading`` with its items ``rules.section.N.item.M`` (N and M count from 1,
  without gaps; a reader stops at the first number missing);
- ``event.KIND``: what an action did, one key per event kind; ``event.KIND.VARIANT`` where one
  kind reads differently by its data;
- ``refusal.*``: why an input was refused;
- ``ui.*``: the table's interface strings (``ui.notation``: the notation help; ``ui.option.NAME``:
  the help of option NAME; ``ui.end.*``: the outcome in words).

Placeholders: ``{player}`` a seat's name, ``{names}`` several, ``{card}`` a card's name,
``{count}`` the number that picks a plural form.
In ``refusal.*`` a seat is its number, written ``Player {player}``, and what was typed is
quoted as it came (``{text}``).
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Protocol

from parlour.core.parts import part_file
from parlour.errors import Sentence, Value

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Catalog",
    "Entry",
    "catalog",
    "placeholders",
    "plural_category",
    "sentence",
    "speaker",
]

LANGUAGES: tuple[str, ...] = ("en", "ro", "nl")
"""The languages every catalog is written in (the browser and the terminal speak them all)."""
DEFAULT_LANGUAGE = "en"

Entry = str | Mapping[str, str]
"""A template, or templates by plural category."""


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of the whole number ``n`` in ``lang``: ``one`` or ``other`` in
    English and Dutch; in Romanian ``one`` (1), ``few`` (0, 2 to 19, and any number whose last
    two digits are 1 to 19, such as 101) or ``other`` (20, 21, 100 ...: "20 de pahare")."""
    n = abs(n)
    if lang == "ro":
        if n == 1:
            return "one"
        if n == 0 or 1 <= n % 100 <= 19:
            return "few"
        return "other"
    return "one" if n == 1 else "other"


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a template."""
    return frozenset(
        field for _, field, _, _ in string.Formatter().parse(template) if field is not None
    )


class Catalog:
    """The words of one game (or one front end) in one language, with English behind them."""

    def __init__(self, lang: str, entries: Mapping[str, Entry], fallback: Catalog | None = None):
        self.lang = lang
        self.entries: Mapping[str, Entry] = MappingProxyType(dict(entries))
        self.fallback = fallback

    def __contains__(self, key: object) -> bool:
        return key in self.entries or (self.fallback is not None and key in self.fallback)

    def entry(self, key: str) -> tuple[str, Entry]:
        """The language the entry was found in and the entry itself.

        Raises:
            KeyError: no catalog, English included, has ``key``.
        """
        if key in self.entries:
            return self.lang, self.entries[key]
        if self.fallback is not None:
            return self.fallback.entry(key)
        raise KeyError(key)

    def __call__(self, key: str, /, count: int | None = None, **values: object) -> str:
        """The sentence ``key`` with ``values`` put in; ``count`` picks the plural form and is
        also the ``{count}`` placeholder.

        Raises:
            KeyError: no catalog has ``key``, or the template names a value not given.
        """
        lang, found = self.entry(key)
        if not isinstance(found, str):
            category = plural_category(lang, count if count is not None else 0)
            found = found.get(category) or found["other"]
        if count is not None:
            values.setdefault("count", count)
        return found.format(**values)


def _read(package: str, lang: str) -> dict[str, Entry]:
    raw = part_file(package, f"{lang}.json")
    if raw is None:
        return {}
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError(f"{package}/{lang}.json: a catalog is a JSON object")
    return data


@lru_cache(maxsize=64)
def catalog(package: str, lang: str = DEFAULT_LANGUAGE) -> Catalog:
    """The catalog of the words package ``package`` in ``lang`` (English behind it); a language
    nobody wrote is English.

    Raises:
        ValueError: a catalog file is not a JSON object.
    """
    english = Catalog(DEFAULT_LANGUAGE, _read(package, DEFAULT_LANGUAGE))
    if lang == DEFAULT_LANGUAGE or lang not in LANGUAGES:
        return english
    return Catalog(lang, _read(package, lang), english)


def sentence(package: str, key: str, /, count: int | None = None, **values: Value) -> Sentence:
    """The English sentence ``key`` of the words package ``package`` that remembers its key and
    values (``count`` among them): a game's rules raise their refusals with it, so that the
    error's message is the catalog's English and a front end can say the key in the language
    it speaks (:meth:`~parlour.core.present.Presenter.refusal`, the browser's reject frames).

    Raises:
        KeyError: the English catalog has no ``key``, or the template names a value not given.
    """
    text = catalog(package)(key, count, **values)
    if count is not None:
        values = {**values, "count": count}
    return Sentence(text, key, values)


class Speaker(Protocol):
    """:func:`sentence` bound to one words package: ``said("refusal.KEY", **values)``."""

    def __call__(self, key: str, /, count: int | None = None, **values: Value) -> Sentence: ...


def speaker(package: str) -> Speaker:
    """:func:`sentence` for the words package ``package``: a game's rules raise their refusals
    with ``said = speaker(WORDS)``, ``raise IllegalAction(said("refusal.KEY", ...))``."""

    def said(key: str, /, count: int | None = None, **values: Value) -> Sentence:
        return sentence(package, key, count, **values)

    return said
