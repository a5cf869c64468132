"""The game's refusals in words: each is a sentence of its catalog (``refusal.*`` in
:mod:`parlour.games.beor.words`), said in English here and in the language spoken by the front
ends, which read the key and values the error carries."""

from __future__ import annotations

from parlour.core.words import sentence
from parlour.errors import Sentence, Value

__all__ = ["WORDS", "said"]

WORDS = "parlour.games.beor.words"
"""The game's words package (its parts' ``words``)."""


def said(key: str, /, count: int | None = None, **values: Value) -> Sentence:
    """The game's English sentence ``key`` (a refusal), remembering its key and values: the
    rules raise their refusals with it (:func:`parlour.core.words.sentence`)."""
    return sentence(WORDS, key, count, **values)
