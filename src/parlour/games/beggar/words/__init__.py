"""The game's words: its message catalogs ``en.json``, ``ro.json`` and ``nl.json``, keyed as
:mod:`parlour.core.words` describes."""

from parlour.core.words import sentence
from parlour.errors import Sentence, Value

__all__ = ["said"]


def said(key: str, /, count: int | None = None, **values: Value) -> Sentence:
    """The game's English sentence ``key`` (a refusal, ``refusal.*``), remembering its key and
    values: the rules raise their refusals with it (:func:`parlour.core.words.sentence`)."""
    return sentence(__name__, key, count, **values)
