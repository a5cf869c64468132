"""Hand-built deals, state helpers and the rules as small oracles for the Game of Death tests.

Shared by the ``test_text_*``, ``test_rulings_*`` and ``test_death_properties`` modules, which
test the game sentence by sentence against ``seeds/beckers-game-of-death.txt`` and rulings G1-G14
of ``rules/RULINGS.md``. Deals are whole hands (``{"hands": [[...], ...]}``, any sizes, G1), built
by :func:`build_deal` from the cards a scenario needs, with every other card given to one seat.
:func:`swept` opens a game in which seat 0 throws 2♦, everyone else passes and seat 0 leads on a
clean table (G9), so that a scenario starts from the card it is about. The expected drinks come
from the text (:data:`GIVE`, :data:`TAKE`, :func:`hand_penalty`), never from the engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.core import State
from parlour.games.death import DeathGame

GAME = DeathGame()
Deal = dict[str, Any]
RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]

# "Values of Face Cards": black face cards give, red face cards take.
GIVE = {"AS": 20, "KS": 8, "QS": 6, "JS": 4, "AC": 5, "KC": 4, "QC": 3, "JC": 2}
TAKE = {"AH": 5, "KH": 4, "QH": 3, "JH": 2, "AD": 10, "KD": 8, "QD": 6, "JD": 4}
NUMBER = {r: v for v, r in enumerate("23456789T", start=2)}  # G3: number cards 2-10
FACE_NUMBER = {"J": 11, "Q": 12, "K": 13}  # G3 option difference_against_faces
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD_RE = re.compile(r"\b(?:[A2-9TJQK][SHDC])\b|(?:10|[A2-9TJQK])([♠♥♦♣])")
SYMBOL_SUIT = {v: k for k, v in SYMBOL.items()}


# -- deals ------------------------------------------------------------------------------------


def build_deal(*hands: str, rest: int | None = 0) -> Deal:
    """A deal with the given hands (space-separated cards, one string per seat); every card no
    hand names goes to seat ``rest``, the seat after the given hands if need be (``None``: the
    hands must hold the whole deck)."""
    lists = [h.split() for h in hands]
    given = [c for h in lists for c in h]
    assert len(given) == len(set(given)), f"a card is dealt twice: {given}"
    assert set(given) <= set(DECK), f"not a card of the deck: {set(given) - set(DECK)}"
    if rest is not None:
        lists += [[] for _ in range(rest + 1 - len(lists))]
        lists[rest] += [c for c in DECK if c not in given]
    assert sorted(c for h in lists for c in h) == sorted(DECK)
    return {"hands": lists}


def new(deal: Deal, options: Mapping[str, object] | None = None) -> State:
    return GAME.new(len(deal["hands"]), 0, options=options, deal=deal)


def swept(lead: str, *others: str, options: Mapping[str, object] | None = None) -> State:
    """Seat 0 holds 2♦, ``lead`` and every card not named; seat k holds ``others[k-1]``. Seat 0
    throws 2♦, everyone else holding cards passes (drinking 1, G2) and seat 0 leads on a swept
    table (G9). ``others`` may hold no diamond and no 2, or they could not pass."""
    for card in " ".join(others).split():
        assert card[1] != "D" and card[0] != "2", f"{card} would follow 2D"
    state = new(build_deal(f"2D {lead}", *others, rest=0), options).apply("2D")
    for hand in others:
        if hand.split():
            state = state.apply("pass")
    assert (state.to_move, js(state)["pile"]) == (0, []), "G9: the all-pass sweep (see TestG9)"
    return state


# -- state helpers ----------------------------------------------------------------------------


def js(state: State) -> dict[str, Any]:
    return state.to_json()


def play(state: State, actions: Sequence[str]) -> State:
    for action in actions:
        state = state.apply(action)
    return state


def legal(state: State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def hand(state: State, seat: int) -> list[str]:
    return sorted(js(state)["hands"][seat])


def taken(state: State) -> list[int]:
    return list(js(state)["drinks_taken"])


def delta(before: State, after: State) -> list[int]:
    """The drinks each seat took between two states."""
    return [b - a for a, b in zip(taken(before), taken(after), strict=True)]


def texts(state: State) -> list[str]:
    return [e.text for e in state.events]


def text_with(state: State, *parts: str) -> str:
    """The one event text of the last action that holds all ``parts``."""
    found = [t for t in texts(state) if all(p in t for p in parts)]
    assert found, f"no event text with {parts} in {texts(state)}"
    return found[0]


def index_of(state: State, part: str) -> int:
    """Where the first event text holding ``part`` comes among the last action's events."""
    for i, text in enumerate(texts(state)):
        if part in text:
            return i
    raise AssertionError(f"no event text with {part!r} in {texts(state)}")


def pending(state: State) -> tuple[int, int] | None:
    """The pending give as (seat, drinks), or None."""
    entry = js(state)["pending_give"]
    return None if entry is None else (entry["seat"], entry["drinks"])


def gives(seat: int, drinks: int, players: int) -> set[str]:
    """Every give a thrower ``seat`` owing ``drinks`` may make (G5): N of them to another player."""
    return {f"give {n}>P{k + 1}" for n in range(1, drinks + 1) for k in range(players) if k != seat}


def hand_penalty(cards: Sequence[str]) -> int:
    """G11: the give value of every black J, Q, K, A still in a hand; red cards cost nothing."""
    return sum(GIVE.get(c, 0) for c in cards)


def follows(card: str, top: str) -> bool:
    """G2: same suit or same rank as the top card."""
    return card[0] == top[0] or card[1] == top[1]


def cards_named(text: str) -> set[str]:
    """The cards a text names, in the canonical (``TH``) or the pretty (``10♥``) form."""
    found = set()
    for match in CARD_RE.finditer(text):
        word = match.group(0)
        if match.group(1):
            word = word[:-1].replace("10", "T") + SYMBOL_SUIT[match.group(1)]
        found.add(word)
    return found


def pretty(card: str) -> str:
    return card[0].replace("T", "10") + SYMBOL[card[1]]


def sober_seats(value: object, players: int) -> set[int]:
    """The sober seats a view shows, as flags per seat or as a list of seats."""
    assert isinstance(value, list), value
    if len(value) == players and all(isinstance(v, bool) for v in value):
        return {s for s, flag in enumerate(value) if flag}
    assert all(isinstance(v, int) and not isinstance(v, bool) for v in value), value
    return set(value)


# -- the scenarios of the text ----------------------------------------------------------------

# "Broken Suit Social", five players A-E (seats 0-4). Seat 0 throws 2♦, seat 1 9♦, seats 2-4 hold
# no diamond and no 9 and pass, seat 0 throws A♦ (takes 10, sweeps) and leads 5♣.
SOCIAL5_HANDS = ("2D AD 5C", "9D 5D 6H", "5H 7H", "5S 7S", "7C 8C")
SOCIAL5_INTRO = ["2D", "9D", "pass", "pass", "pass", "AD"]
SOCIAL5_FIVES = ["5C", "5D", "5H", "5S"]

# "Ending the Game", five players 1-5 (seats 0-4). Seat 0 holds 2♦ 9♣ only: 2♦, then 2♣ (seat 0
# drinks 1, suit broken), 3♣, 4♣, 5♣ and seat 0 throws 9♣, his last card. Seat 4 holds the rest.
ENDING5_HANDS = ("2D 9C", "2C 3H", "3C 4H", "4C 9H 5H", "5C TH")
ENDING5_ACTIONS = ["2D", "2C", "3C", "4C", "5C", "9C", "pass", "pass", "9H", "TH"]
