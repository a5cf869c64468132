"""Finding the cards a text names, in every notation Parlour prints a card in, and walking what
an object can reach.

Cards are printed as their canonical notation (``TH``, ``JK1``), as the ``10H`` that parsing
accepts, as pretty text with suit symbols (``10♥``, ``T♥``), in ``repr`` (``Card(Rank.TEN,
Suit.HEARTS)``) and possibly in words (``ten of hearts``). A card is matched as a token, never
inside a longer word, so ``AS`` is found in ``"AS"`` and ``AS>black`` but not in ``PASS``.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from collections.abc import Iterable, Iterator
from types import CodeType, FrameType, ModuleType

from parlour.cards import Card, Rank, Suit

__all__ = ["cards_named", "reachable", "strings_and_cards", "text_of"]

_RANK_WORDS = {
    "ace": "A",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "T",
    "jack": "J",
    "queen": "Q",
    "king": "K",
    "10": "T",
    **{str(k): str(k) for k in range(2, 10)},
}
_SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "S": "S", "H": "H", "D": "D", "C": "C"}
_SUIT_WORDS = {"spade": "S", "heart": "H", "diamond": "D", "club": "C"}

# Each form has its own pattern, tried only when the text holds its cue, and a token's left
# edge is checked by hand: a pattern that starts with a look-behind or an alternation of words
# is several times slower, and these texts are searched at every state of every playout.
_COMPACT = re.compile(r"(10|[A2-9TJQK])([SHDC♠♥♦♣])(?![A-Za-z0-9])")  # AS TH 10H 10♥ T♥ Q♠
_JOKER = re.compile(r"JK([12])(?![A-Za-z0-9])")  # JK1
_REPR = re.compile(r"Rank\.([A-Z]+), (?:Suit\.([A-Z]+)|joker=([12]))")  # Card(Rank.TEN, ...)
_WORDS_CUE = re.compile(r" [oO][fF] |[jJ][oO][kK][eE][rR] ")
_WORDS = re.compile(
    r"(?i)\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|10|[2-9])s? of "
    r"(spade|heart|diamond|club)s?\b|\bjoker ([12])\b"
)


def _at_edge(text: str, start: int) -> bool:
    return start == 0 or not (text[start - 1].isascii() and text[start - 1].isalnum())


def cards_named(text: str) -> set[str]:
    """The canonical notation of every card ``text`` names, in any of the forms above."""
    found: set[str] = set()
    for m in _COMPACT.finditer(text):
        if _at_edge(text, m.start()):
            found.add(("T" if m[1] == "10" else m[1]) + _SUIT_LETTERS[m[2]])
    if "JK" in text:
        found.update("JK" + m[1] for m in _JOKER.finditer(text) if _at_edge(text, m.start()))
    if "Rank." in text:
        for m in _REPR.finditer(text):
            if m[2]:
                found.add(Rank[m[1]].letter + Suit[m[2]].value)
            elif m[1] == "JOKER":
                found.add("JK" + m[3])
    if _WORDS_CUE.search(text):
        for m in _WORDS.finditer(text):
            if m[3]:
                found.add("JK" + m[3])
            else:
                found.add(_RANK_WORDS[m[1].lower()] + _SUIT_WORDS[m[2].lower()])
    return found


def text_of(*objects: object) -> str:
    """Every string a person or a client could be shown of ``objects``: ``repr``, ``str`` where
    it is not ``repr``, and the JSON of those that have ``to_json`` (keys included, symbols
    unescaped)."""
    parts: list[str] = []
    for obj in objects:
        parts.append(repr(obj))
        if type(obj).__str__ is not object.__str__:
            parts.append(str(obj))
        to_json = getattr(obj, "to_json", None)
        if callable(to_json):
            parts.append(json.dumps(to_json(), ensure_ascii=False, default=repr))
    return "\n".join(parts)


def _module_dicts() -> set[int]:
    return {id(vars(m)) for m in list(sys.modules.values()) if isinstance(m, ModuleType)}


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through references (``gc.get_referents``: slots,
    ``__dict__``, containers, closures, bound methods), not going into classes, modules,
    module globals or code: what a piece of code holding ``root`` could get at."""
    stop = _module_dicts()
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, type | ModuleType | CodeType | FrameType) or id(obj) in stop:
            continue
        yield obj
        stack.extend(gc.get_referents(obj))


def strings_and_cards(objects: Iterable[object]) -> tuple[list[str], list[Card]]:
    """The strings and the card objects among ``objects``."""
    strings: list[str] = []
    cards: list[Card] = []
    for obj in objects:
        if isinstance(obj, str):
            strings.append(obj)
        elif isinstance(obj, Card):
            cards.append(obj)
    return strings, cards
