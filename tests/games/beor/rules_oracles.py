"""The BEOR rules as oracles, for the rule-text tests: worked out from the rules, never the engine.

The deck (B11), the themes of the bases (B4, and B2 at setup), groups and the goal (B5), the
legal actions of a full state (B4, B7), the base kept at a restock (B9) and round-robin stock
sizes (B1, B3), all written from ``seeds/beor-multiplayer.txt`` and ``rules/RULINGS.md`` alone.
:func:`is_goal` and :func:`fits` are independent oracles of B5 and B4; the ``test_text_*``,
``test_rulings_*`` and ``test_properties`` modules check the engine against them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "SHDC"
VALUE = {rank: i + 1 for i, rank in enumerate(RANKS)}
BASES = ("black", "even", "odd", "red")
STOCK_SIZE = {2: 9, 3: 8, 4: 6, 5: 5}  # B1: all remaining cards, round-robin


# -- cards and the rules as oracles -----------------------------------------------------------


def deck(players: int) -> list[str]:
    """The cards of a game: 52, and the two Jokers when the starting number is odd (B11)."""
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    return [*cards, "JK1", "JK2"] if players % 2 else cards


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def colour(card: str) -> str:
    return "red" if card[-1] in "HD" else "black"


def parity(card: str) -> str:
    return "even" if VALUE[card[0]] % 2 == 0 else "odd"


def fits(card: str, base: str) -> bool:
    """B4: a card fits its colour and its parity; a King its colour, Even and Odd; a Joker all."""
    if is_joker(card):
        return True
    if card[0] == "K":
        return base in (colour(card), "even", "odd")
    return base in (colour(card), parity(card))


def fits_at_setup(card: str, base: str) -> bool:
    """B2: at setup a King counts only for its colour, and Jokers are set aside."""
    if is_joker(card):
        return False
    return base == colour(card) if card[0] == "K" else fits(card, base)


def is_group(three: Sequence[str]) -> bool:
    """B5: a set (three of one rank, K-K-K too) or a run (one suit, consecutive, A low, A..Q)."""
    if any(is_joker(c) for c in three):
        return False
    if len({c[0] for c in three}) == 1:
        return True
    if len({c[-1] for c in three}) != 1 or any(c[0] == "K" for c in three):
        return False
    low, mid, high = sorted(VALUE[c[0]] for c in three)
    return mid == low + 1 and high == mid + 1


def is_goal(hand: Sequence[str]) -> bool:
    """B5: six cards forming two groups of three."""
    if len(hand) != 6:
        return False
    for picked in combinations(range(1, 6), 2):
        first = [hand[0], *(hand[i] for i in picked)]
        rest = [hand[i] for i in range(1, 6) if i not in picked]
        if is_group(first) and is_group(rest):
            return True
    return False


def expected_actions(js: Mapping[str, Any]) -> set[str]:
    """B4 and B7: every legal action of the seat to move, worked out from the full state."""
    hand = js["hands"][js["to_move"]]
    live = [b for b in BASES if js["stocks"][b]["cards"]]
    actions = set()
    for card in hand:
        for base in live:
            if fits(card, base):
                actions.add(f"{card}>{base}")
                if card[0] in "47" and not is_joker(card):
                    actions.update(f"{card}>{base}/{other}" for other in live if other != base)
    return actions


def kept_base(pile: Sequence[str], base: str, skip_jokers: bool = True) -> str:
    """B9: the topmost card of a base pile that shows its theme (Jokers skipped by option,
    Kings skipped on Even and Odd)."""
    for card in pile:
        if is_joker(card) and skip_jokers:
            continue
        if card[0] == "K" and base in ("even", "odd"):
            continue
        return card
    raise AssertionError(f"no card of {pile} can stay as the {base} base")


def round_robin_sizes(total: int) -> list[int]:
    """B1/B3: ``total`` cards dealt round-robin Black, Even, Odd, Red."""
    return [total // 4 + (1 if i < total % 4 else 0) for i in range(4)]
