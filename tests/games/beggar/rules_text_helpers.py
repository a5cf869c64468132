"""Deal builders and state helpers for the Beggar-My-Neighbour rule-text tests.

Shared by the ``test_text_*``, ``test_rulings_*`` and ``test_properties`` modules, which test
the game sentence by sentence against ``seeds/beggar-my-neighbour.nl.txt`` / ``.ro.txt`` and the
rulings of ``rules/RULINGS.md``. The deals are built by hand in the rank-only notation of M9
(``A K Q J`` court cards, ``-`` numbers, top card first, hands separated by ``/``), so that the
first tricks do exactly what the sentence under test describes. :func:`build_deal` fills each
hand after a chosen prefix with number cards, then the court cards left over, keeping the hand
sizes of M7.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from parlour.cards import Card, deck52
from parlour.games.beggar import BeggarGame, BeggarState

GAME = BeggarGame()
SIZES = {2: (26, 26), 3: (18, 17, 17), 4: (13, 13, 13, 13)}
DECK_CLASSES = {"A": 4, "K": 4, "Q": 4, "J": 4, "-": 36}
OWED = {"J": 1, "Q": 2, "K": 3, "A": 4}
LOOP_DEAL = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


# -- helpers -----------------------------------------------------------------------------------


def build_deal(*prefixes: str) -> str:
    """A legal rank-only deal whose hands start with ``prefixes`` (one per seat).

    After its prefix a hand gets number cards, then (at its bottom) the court cards nobody was
    given, shared round-robin, so the first tricks play exactly as the prefixes say.
    """
    n = len(prefixes)
    sizes = SIZES[n]
    left = Counter(DECK_CLASSES)
    for prefix in prefixes:
        left.subtract(prefix)
    assert all(v >= 0 for v in left.values()), f"prefixes use too many cards: {left}"
    free = [size - len(p) for size, p in zip(sizes, prefixes, strict=True)]
    assert all(f >= 0 for f in free), "a prefix is longer than its hand"
    tails: list[list[str]] = [[] for _ in range(n)]
    seat = 0
    for court in "AKQJ":
        for _ in range(left[court]):
            while len(tails[seat % n]) >= free[seat % n]:
                seat += 1
            tails[seat % n].append(court)
            seat += 1
    hands = [
        p + "-" * (f - len(t)) + "".join(t) for p, f, t in zip(prefixes, free, tails, strict=True)
    ]
    deal = "/".join(hands)
    assert Counter(deal.replace("/", "")) == Counter(DECK_CLASSES)
    return deal


def full_cards(deal: str) -> str:
    """The rank-only ``deal`` with real cards: court cards by suit S H D C, numbers 2S, 3S, ..."""
    pools: dict[str, list[Card]] = {c: [] for c in DECK_CLASSES}
    for card in deck52():
        pools[card.rank.letter if card.rank.is_court else "-"].append(card)
    hands = [" ".join(str(pools[ch].pop(0)) for ch in hand) for hand in deal.split("/")]
    return "/".join(hands)


def new(deal: str, options: Mapping[str, object] | None = None) -> BeggarState:
    return GAME.new(deal.count("/") + 1, 0, options=options, deal=deal)


def play(state: BeggarState, times: int = 1) -> BeggarState:
    for _ in range(times):
        state = state.apply("play")
    return state


def hand(state: BeggarState, seat: int) -> str:
    """A rank-only hand as M9 text, top card first."""
    return "".join(str(t) for t in state.hands[seat])


def pile(state: BeggarState) -> str:
    """The pile as text in the order played (the top card last)."""
    return "".join(str(t) for t in state.pile)


def card_class(token: object) -> str:
    """The M9 class of a card: A K Q J, or - for a number card."""
    assert isinstance(token, Card)
    return token.rank.letter if token.rank.is_court else "-"


def kinds(state: BeggarState) -> list[str]:
    return [e.kind for e in state.events]


def event(state: BeggarState, kind: str) -> Mapping[str, object]:
    found = [e.data for e in state.events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind!r} event, got {state.events}"
    return found[0]


def play_to_end(state: BeggarState, limit: int = 5000) -> BeggarState:
    for _ in range(limit):
        if state.is_over:
            return state
        state = state.apply("play")
    raise AssertionError(f"no end after {limit} plays")


def all_cards(state: BeggarState) -> list[str]:
    """Every card in the hands and on the pile, sorted."""
    return sorted([str(t) for h in state.hands for t in h] + [str(t) for t in state.pile])


# The quick two-player games: seat 0 leads every trick and seat 1 pays with numbers only.
# AAAA KKK cost seat 1 25 of his 26 cards in 7 tricks (32 cards played); what follows decides
# how seat 1 ends.
SEVEN_TRICKS = "AAAAKKK"
