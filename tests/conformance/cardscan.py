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

_EDGE_BEFORE = r"(?<![A-Za-z0-9])"
_EDGE_AFTER = r"(?![A-Za-z0-9])"
_PATTERN = re.compile(
    # Canonical, 10H and pretty forms: AS, TH, 10H, 10♥, T♥, Q♠.
    rf"{_EDGE_BEFORE}(?P<rank>10|[A2-9TJQK])(?P<suit>[SHDC♠♥♦♣]){_EDGE_AFTER}"
    rf"|{_EDGE_BEFORE}JK(?P<joker>[12]){_EDGE_AFTER}"
    # repr: Card(Rank.TEN, Suit.HEARTS), Card(Rank.JOKER, joker=1).
    r"|Rank\.(?P<rank_name>[A-Z]+), Suit\.(?P<suit_name>[A-Z]+)"
    r"|Rank\.JOKER, joker=(?P<joker_repr>[12])"
    # Words: "ten of hearts", "Queen of Spades", "10 of clubs", "Joker 2".
    r"|(?i:\b(?P<rank_word>ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king"
    r"|10|[2-9])s? of (?P<suit_word>spade|heart|diamond|club)s?\b)"
    r"|(?i:\bjoker (?P<joker_word>[12])\b)"
)


def cards_named(text: str) -> set[str]:
    """The canonical notation of every card ``text`` names, in any of the forms above."""
    found: set[str] = set()
    for m in _PATTERN.finditer(text):
        if m["rank"]:
            found.add(("T" if m["rank"] == "10" else m["rank"]) + _SUIT_LETTERS[m["suit"]])
        elif m["rank_name"]:
            found.add(Rank[m["rank_name"]].letter + Suit[m["suit_name"]].value)
        elif m["rank_word"]:
            found.add(_RANK_WORDS[m["rank_word"].lower()] + _SUIT_WORDS[m["suit_word"].lower()])
        else:
            found.add("JK" + (m["joker"] or m["joker_repr"] or m["joker_word"]))
    return found


def text_of(*objects: object) -> str:
    """Every string a person or a client could be shown of ``objects``: ``repr`` and ``str``,
    and the JSON of those that have ``to_json`` (keys included, symbols unescaped)."""
    parts: list[str] = []
    for obj in objects:
        parts += (repr(obj), str(obj))
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
