"""Hand-built BEOR deals, state helpers and scripted scenarios for the rule-text tests.

The scenarios are hand-built deals (``{"bases", "hands", "stocks"}``, piles top card first).
:func:`build_deal` fills whatever a test leaves open legally, giving hands no group of three so
that no filler hand wins. :func:`script` builds a deal from the moves a test wants to play
("``QS>black:2D``": play QS on black and draw 2D), so that long scenarios (emptied stocks, losses,
restocks) read as the game they play; the scenarios themselves (a two- and a three-player loss, a
five-player restock) are defined here too. The expected results come from the rules
(:mod:`.rules_oracles`), never from the engine. (``helpers.py`` is a different, smaller helper.)
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from parlour.core import State
from parlour.games.beor import BeorGame

from .rules_oracles import BASES, STOCK_SIZE, deck, fits_at_setup, is_group, is_joker

GAME = BeorGame()
Deal = dict[str, Any]
CARD_RE = re.compile(r"\b(?:[A2-9TJQK][SHDC]|JK[12])\b|(?:10|[A2-9JQK])([♠♥♦♣])")
SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


# -- deals ------------------------------------------------------------------------------------


def _filler_order(cards: Sequence[str]) -> list[str]:
    """Plain cards first, then 3/8 (flip), 4/7 (any stock), Kings, Jokers, so fillers are dull."""

    def key(card: str) -> int:
        if is_joker(card):
            return 4
        return {"3": 1, "8": 1, "4": 2, "7": 2, "K": 3}.get(card[0], 0)

    return sorted(cards, key=key)


def _makes_group(hand: Sequence[str], card: str) -> bool:
    return any(is_group((a, b, card)) for a, b in combinations(hand, 2))


def build_deal(
    players: int,
    hands: Sequence[Sequence[str]] = (),
    stocks: Mapping[str, Sequence[str]] | None = None,
    bases: Mapping[str, str] | None = None,
) -> Deal:
    """A valid deal with the given hand cards, stock tops (top first) and bases.

    Open hand places get cards that make no group of three with the hand (so a filled hand is
    never a goal, and one draw cannot make it one); open stock places get the rest of the deck.
    """
    full = deck(players)
    chosen_bases = dict(bases or {})
    given = [c for h in hands for c in h] + [c for s in (stocks or {}).values() for c in s]
    given += list(chosen_bases.values())
    assert len(given) == len(set(given)), f"a card is given twice: {given}"
    assert set(given) <= set(full), f"not in this deck: {set(given) - set(full)}"
    pool = [c for c in _filler_order(full) if c not in given]
    for base in BASES:
        if base not in chosen_bases:
            card = next(c for c in pool if fits_at_setup(c, base))
            pool.remove(card)
            chosen_bases[base] = card
    hand_lists = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    for hand in hand_lists:
        assert len(hand) <= 6
        while len(hand) < 6:
            card = next(c for c in pool if not is_joker(c) and not _makes_group(hand, c))
            pool.remove(card)
            hand.append(card)
    stock_lists = {}
    for base in BASES:
        pile = list((stocks or {}).get(base, ()))
        assert len(pile) <= STOCK_SIZE[players]
        while len(pile) < STOCK_SIZE[players]:
            pile.append(pool.pop(0))
        stock_lists[base] = pile
    assert not pool
    return {
        "bases": {b: chosen_bases[b] for b in BASES},
        "hands": hand_lists,
        "stocks": stock_lists,
    }


def script(
    players: int,
    keep: Sequence[Sequence[str]],
    moves: Sequence[str],
    bases: Mapping[str, str] | None = None,
) -> tuple[Deal, list[str]]:
    """The deal that plays ``moves`` ("CARD>BASE[/STOCK]:DRAWN", seats in turn from 0, no flips,
    nobody out) with ``keep`` held throughout, and the actions to apply."""
    initial = [list(k) for k in keep] + [[] for _ in range(players - len(keep))]
    holding = [set(h) for h in initial]
    stocks: dict[str, list[str]] = {b: [] for b in BASES}
    actions = []
    for i, move in enumerate(moves):
        seat = i % players
        action, drawn = move.split(":")
        card, target = action.split(">")
        if card in holding[seat]:
            holding[seat].remove(card)
        else:
            initial[seat].append(card)
        holding[seat].add(drawn)
        stocks[target.split("/")[-1]].append(drawn)
        actions.append(action)
    return build_deal(players, initial, stocks, bases), actions


def new(deal: Deal, options: Mapping[str, object] | None = None) -> State:
    return GAME.new(len(deal["hands"]), 0, options=options, deal=deal)


def play(state: State, actions: Sequence[str]) -> State:
    for action in actions:
        state = state.apply(action)
    return state


def js(state: State) -> dict[str, Any]:
    return state.to_json()


def hand(state: State, seat: int) -> list[str]:
    return sorted(js(state)["hands"][seat])


def stock(state: State, base: str) -> list[str]:
    return list(js(state)["stocks"][base]["cards"])


def legal(state: State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def kinds(state: State) -> list[str]:
    return [e.kind for e in state.events]


def all_cards(data: Mapping[str, Any]) -> list[str]:
    """Every card of a full state: hands, base piles, stocks and the scrap pile."""
    cards = [c for h in data["hands"] for c in h] + list(data["scrap"])
    cards += [c for pile in data["bases"].values() for c in pile]
    cards += [c for s in data["stocks"].values() for c in s["cards"]]
    return sorted(cards)


def cards_named(text: str) -> set[str]:
    """The cards a text names, in the canonical or the pretty (``10♥``) form."""
    found = set()
    for match in CARD_RE.finditer(text):
        word = match.group(0)
        if match.group(1):
            word = word[:-1].replace("10", "T") + SYMBOL_SUIT[match.group(1)]
        found.add(word)
    return found


def event_cards(state: State, seat: int | None) -> set[str]:
    """The cards named by the events of ``state`` as ``seat`` sees them (a private event's
    public telling for the other seats)."""
    named: set[str] = set()
    for event in state.events:
        e = event.for_seat(seat)
        if e is not None:
            named |= cards_named(e.text + " " + str(dict(e.data)))
    return named


def assert_won(state: State, winner: int) -> None:
    data = js(state)
    assert state.is_over
    assert state.to_move is None
    assert state.legal_actions() == ()
    assert (data["winner"], data["result"]) == (winner, "win")
    assert state.outcome is not None
    assert (state.outcome.result, state.outcome.winners) == ("win", (winner,))
    assert state.outcome.returns == tuple(
        1.0 if s == winner else 0.0 for s in range(len(data["hands"]))
    )
    assert "won" in kinds(state) or not state.events


def draw_into(
    players: int,
    keep: Sequence[str],
    play_card: str,
    base: str,
    drawn: str,
    options: Mapping[str, object] | None = None,
) -> State:
    """Seat 0 holds ``keep`` and ``play_card``, plays it on ``base`` and draws ``drawn``."""
    deal = build_deal(players, [[*keep, play_card]], {base: [drawn]})
    state = new(deal, options)
    assert not state.is_over
    return state.apply(f"{play_card}>{base}")


# -- scenarios --------------------------------------------------------------------------------

# Two players drain Black, then Even. Seat 0 keeps five black even cards and ends with a sixth;
# seat 1 keeps five red odd cards (no group of three can hold three of them, so neither hand is
# ever a goal). After move 18 Black and Even have no stock and seat 0 can play nothing.
LOSS2_KEEP = [["2S", "6S", "TS", "QS", "2C"], ["AH", "5H", "9H", "JH", "AD"]]
LOSS2_MOVES = [
    "AS>black:5S", "5C>black:9C", "5S>black:9S", "9C>black:JC", "9S>black:JS", "JC>black:KS",
    "JS>black:AC", "KS>black:2D", "AC>black:2H", "2D>even:6D", "2H>even:6H", "6D>even:TD",
    "6H>even:TH", "TD>even:QD", "TH>even:QH", "QD>even:KC", "QH>even:6C", "KC>even:5D",
]  # fmt: skip

# Three players drain Black, then Even. Seats 1 and 2 keep black even cards and draw the last
# ones (QS, QC); seat 0 keeps red odd cards. After move 16 seats 1 and 2 can play nothing.
LOSS3_KEEP = [
    ["AH", "5H", "9H", "JH", "AD"],
    ["2S", "4S", "6S", "8S", "TS"],
    ["2C", "4C", "6C", "8C", "TC"],
]
LOSS3_MOVES = [
    "KS>black:5C", "AS>black:5S", "JS>black:AC", "5C>black:9C", "5S>black:9S", "AC>black:TH",
    "9C>black:KH", "9S>black:2H", "TH>even:QH", "KH>even:6D", "2H>even:6H", "QH>even:2D",
    "6D>even:TD", "6H>even:QS", "2D>even:QC", "TD>even:QD",
]  # fmt: skip


def loss3(seat2_last: str = "QC") -> tuple[Deal, list[str]]:
    """The three-player drain; with ``seat2_last="JC"`` seat 2 keeps a card for Odd."""
    moves = list(LOSS3_MOVES)
    moves[14] = f"2D>even:{seat2_last}"
    return script(3, LOSS3_KEEP, moves)


# Five players drain Black, Even, Odd, Red in that order (20 draws); move 20 empties the last
# stock. Each seat keeps five cards of one colour-and-parity class, so no hand is ever a goal.
# At the restock Black shows JC, Even a King (KC) over QH, Odd JK1 over 9D, Red KD.
RESTOCK_KEEP = [
    ["2S", "4S", "6S", "8S", "TS"],
    ["2C", "4C", "6C", "8C", "TC"],
    ["AH", "3H", "5H", "7H", "9H"],
    ["2H", "4H", "6H", "8H", "TH"],
    ["3S", "7S", "9S", "3C", "7C"],
]
RESTOCK_BASES = {"black": "9C", "even": "8D", "odd": "3D", "red": "KH"}
RESTOCK_MOVES = [
    "QS>black:2D", "AS>black:6D", "5S>black:TD", "JS>black:QH", "JC>black:KC",
    "2D>even:AC", "6D>even:5C", "TD>even:JH", "QH>even:9D", "KC>even:JK1",
    "AC>odd:QD", "5C>odd:AD", "JH>odd:5D", "9D>odd:JD", "JK1>odd:KD",
    "QD>red:QC", "AD>red:4D", "5D>red:7D", "JD>red:KS", "KD>red:JK2",
]  # fmt: skip
RESTOCK_KEPT = {"black": ["JC"], "even": ["QH"], "odd": ["9D"], "red": ["KD"]}
RESTOCK_RESHUFFLED = ["JS", "5S", "AS", "QS", "9C", "KC", "TD", "6D", "2D", "8D"]
RESTOCK_RESHUFFLED += ["JK1", "JH", "5C", "AC", "3D", "JD", "5D", "AD", "QD", "KH"]


def restock_game(
    options: Mapping[str, object] | None = None,
    changes: Mapping[int, str] | None = None,
    keep: Sequence[Sequence[str]] = RESTOCK_KEEP,
    bases: Mapping[str, str] = RESTOCK_BASES,
) -> tuple[State, list[str]]:
    moves = list(RESTOCK_MOVES)
    for index, move in (changes or {}).items():
        moves[index] = move
    deal, actions = script(5, keep, moves, bases)
    return new(deal, options), actions


def play_until_restock(state: State, tries: int = 40) -> State:
    """Random legal play from ``state`` (seeded) until a restock; the first seed that gets one."""
    for seed in range(tries):
        rng = random.Random(seed)
        current = state
        while not current.is_over:
            current = current.apply(rng.choice(current.legal_actions()))
            if "restocked" in kinds(current):
                return current
    raise AssertionError("no random continuation reached a restock")
