"""Hand-built BEOR deals for scenario tests."""

from __future__ import annotations

from typing import Any

from parlour.cards import deck52, deck54, parse_card
from parlour.games.beor import BASES, BeorGame, BeorState
from parlour.games.beor.deal import stock_sizes

GAME = BeorGame()


def make_deal(
    hands: list[str],
    stocks: dict[str, str] | None = None,
    bases: str = "2S 4H 7C TD",
) -> dict[str, Any]:
    """A valid deal: the given bases (black even odd red), hands (6 cards each) and stock tops
    (top first); every other card fills the stocks in deck order, sizes as B1 says."""
    players = len(hands)
    deck = deck54() if players % 2 else deck52()
    used = [parse_card(c) for c in bases.split()]
    hand_cards = [[parse_card(c) for c in h.split()] for h in hands]
    tops = {name: [parse_card(c) for c in (stocks or {}).get(name, "").split()] for name in BASES}
    used += [c for h in hand_cards for c in h] + [c for t in tops.values() for c in t]
    rest = [c for c in deck if c not in used]
    filled: dict[str, list[str]] = {}
    for name, size in zip(BASES, stock_sizes(players), strict=True):
        cards = tops[name] + rest[: size - len(tops[name])]
        del rest[: size - len(tops[name])]
        filled[name] = [str(c) for c in cards]
    assert not rest and len(set(used)) == len(used), "each card of the deck exactly once"
    return {
        "bases": dict(zip(BASES, bases.split(), strict=True)),
        "hands": [[str(c) for c in h] for h in hand_cards],
        "stocks": filled,
    }


def new(deal: dict[str, Any], seed: int = 0, **options: object) -> BeorState:
    return GAME.new(len(deal["hands"]), seed, options, deal)
