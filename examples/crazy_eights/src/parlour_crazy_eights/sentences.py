"""The game's refusals in words: each is a sentence of its catalog (``refusal.*`` in
:mod:`parlour_crazy_eights.words`), said in English here and in the language spoken by the front
ends, which read the key and values the error carries (:func:`parlour.core.words.speaker`)."""

from __future__ import annotations

from parlour.core.words import speaker

__all__ = ["WORDS", "said"]

WORDS = "parlour_crazy_eights.words"
"""The game's words package: its parts' ``words`` (:mod:`.game`), its events' and its
refusals'."""

said = speaker(WORDS)
