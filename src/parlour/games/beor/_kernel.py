"""The compiled BEOR engine (numba): the rules of ``rules.py``, ``turn.py`` and ``deal.py``
step by step (B1-B11), for :mod:`parlour.games.beor.fast`. The deal is in :mod:`._deal`, the
agents in :mod:`._policy`, a whole game in :mod:`._play`.

Cards are numbers and sets of cards bit masks (:mod:`._tables`). A position is one int64 array
(``SIZE`` long, the layout below), worked on in place by functions that each mirror one method
of ``turn.Turn``, so the two engines agree step by step (``tests/games/beor/test_kernel.py``).
Piles are kept bottom card first, so a stock card's index is its offset from the bottom, which
is how the rules engine keeps what is known of a stock (B6). Hands keep the order of the rules
engine's tuples (the dealt cards, a drawn card last), which a scrapped hand brings to the next
restock's shuffle (B8, B9).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.core.mersenne import seed, shuffle
from parlour.games.beor._tables import (
    CARD_GROUPS,
    FIT_MASK,
    GROUP_MASK,
    JOKERS,
    RANK,
    SETUP,
)

Int64Array = npt.NDArray[np.int64]

# The header of a position.
N = 0  # players
TO = 1  # the seat to move
TURN = 2  # turns played (B10)
WINNER = 3  # -1 for none
RESULT = 4  # ONGOING, WIN or DRAW
RESTOCKS = 5  # restocks so far (B9)
ON_BASES = 6  # every card on a base, a mask
SCRAP_N = 7  # cards on the scrap pile (B8)
OUT_N = 8  # players out (B8)
NATURAL = 9  # 1 when a dealt hand won (B5)
REVERSE = 10  # option flip_reverses_order (B6)
SKIP_JOKERS = 11  # option restock_skip_jokers (B9)
MAX_TURNS = 12  # option max_turns (B10)
SEEDS = 13  # restock seeds given; a restock beyond them stops the game (NEED_SEEDS)
UP = 16  # per stock: face up (B6)
STOCK_N = 20  # per stock: its size
BASE_N = 24  # per base: its size
HAND_N = 28  # per seat: cards in hand
HAND_MASK = 33  # per seat: the hand as a mask
KNOWN_HAND = 38  # per seat: the cards publicly known in his hand (B5, B6)
OUT = 43  # the seats out, in the order they lost (B8)
IS_OUT = 48  # per seat: 1 when out
HAND = 64  # per seat, 8 slots: the hand in the rules engine's order
STOCK = HAND + 40  # per stock, 54 slots, bottom card first
KNOWN = STOCK + 216  # per stock, 54 slots: 1 where the card is publicly known (B6)
BASE = KNOWN + 216  # per base, 54 slots, bottom card first
SCRAP = BASE + 216  # the scrap pile, 54 slots (B8)
SIZE = SCRAP + 54

ONGOING, WIN, DRAW, NEED_SEEDS, NEED_SPACE = 0, 1, 2, 3, 4
HAND_SIZE = 6

# Bit tricks on uint64: a population count's masks, and the de Bruijn sequence that numbers an
# isolated bit.
_U1, _U2, _U4, _U56, _U58 = (np.uint64(k) for k in (1, 2, 4, 56, 58))
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, np.int64)
for _k in range(64):
    _DEBRUIJN_INDEX[((0x03F79D71B4CB0A89 << _k) & (2**64 - 1)) >> 58] = _k
del _k


@njit(cache=True, nogil=True, inline="always")
def bit(k: int) -> int:
    return int(np.int64(1) << np.int64(k))


@njit(cache=True, nogil=True, inline="always")
def count(mask: int) -> int:
    """How many cards ``mask`` holds (a SWAR population count)."""
    x = np.uint64(mask)
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> _U2) & _M2)
    x = (x + (x >> _U4)) & _M4
    return int((x * _H01) >> _U56)


@njit(cache=True, nogil=True, inline="always")
def lowest(mask: int) -> int:
    """The number of the lowest card of ``mask``, not empty (a de Bruijn multiply)."""
    return int(_DEBRUIJN_INDEX[(np.uint64(mask & -mask) * _DEBRUIJN) >> _U58])


@njit(cache=True, nogil=True)
def is_goal(hand: int) -> bool:
    """B5: six cards forming two groups of three (every split has a group holding the lowest
    card)."""
    if count(hand) != HAND_SIZE:
        return False
    first = lowest(hand)
    for g in CARD_GROUPS[first]:
        if g < 0:
            break
        group = GROUP_MASK[g]
        if hand & group != group:
            continue
        rest = hand ^ group
        for h in CARD_GROUPS[lowest(rest)]:
            if h < 0:
                break
            if GROUP_MASK[h] == rest:
                return True
    return False


@njit(cache=True, nogil=True, inline="always")
def open_stocks(w: Int64Array) -> int:
    """Bit i set when stock i has cards."""
    m = 0
    for i in range(4):
        if w[STOCK_N + i] > 0:
            m |= 1 << i
    return m


@njit(cache=True, nogil=True)
def has_play(w: Int64Array, seat: int) -> bool:
    """B4, B8: some card of the hand fits a base whose stock has cards."""
    fitting = 0
    for b in range(4):
        if w[STOCK_N + b] > 0:
            fitting |= FIT_MASK[b]
    return bool(w[HAND_MASK + seat] & fitting != 0)


@njit(cache=True, nogil=True)
def _reveal_top(w: Int64Array, i: int) -> None:
    """B6: the top card of a face-up stock is public."""
    n = w[STOCK_N + i]
    if w[UP + i] and n > 0:
        w[KNOWN + 54 * i + n - 1] = 1


@njit(cache=True, nogil=True)
def _flip(w: Int64Array, i: int) -> None:
    """B6: a 3 or 8 turns the stock over: its order reverses (option) and it changes face."""
    if w[REVERSE]:
        n = w[STOCK_N + i]
        o = 54 * i
        for k in range(n // 2):
            j = n - 1 - k
            t = w[STOCK + o + k]
            w[STOCK + o + k] = w[STOCK + o + j]
            w[STOCK + o + j] = t
            t = w[KNOWN + o + k]
            w[KNOWN + o + k] = w[KNOWN + o + j]
            w[KNOWN + o + j] = t
    w[UP + i] = 1 - w[UP + i]
    _reveal_top(w, i)


@njit(cache=True, nogil=True)
def _play(w: Int64Array, card: int, base: int) -> None:
    """'First, play a card from your hand onto one of the bases' (a 3 or 8 flips, B6)."""
    p = w[TO]
    h = HAND + 8 * p
    n = w[HAND_N + p]
    k = 0
    while w[h + k] != card:
        k += 1
    for j in range(k, n - 1):
        w[h + j] = w[h + j + 1]
    w[HAND_N + p] = n - 1
    w[HAND_MASK + p] &= ~bit(card)
    w[KNOWN_HAND + p] &= ~bit(card)
    w[BASE + 54 * base + w[BASE_N + base]] = card
    w[BASE_N + base] += 1
    w[ON_BASES] |= bit(card)
    if RANK[card] == 3 or RANK[card] == 8:
        _flip(w, base)


@njit(cache=True, nogil=True)
def _draw(w: Int64Array, i: int) -> None:
    """'Then, draw a card from that base's associated stock' (or any, B7); a card drawn from a
    face-up stock is publicly known to be in the hand (B6)."""
    p = w[TO]
    n = w[STOCK_N + i] - 1
    card = w[STOCK + 54 * i + n]
    public = w[KNOWN + 54 * i + n]
    w[KNOWN + 54 * i + n] = 0
    w[STOCK_N + i] = n
    w[HAND + 8 * p + w[HAND_N + p]] = card
    w[HAND_N + p] += 1
    w[HAND_MASK + p] |= bit(card)
    if public:
        w[KNOWN_HAND + p] |= bit(card)
    _reveal_top(w, i)


@njit(cache=True, nogil=True)
def _restock(w: Int64Array, seeds: Int64Array, rng: Int64Array, pool: Int64Array) -> bool:
    """B9: each base keeps its topmost card showing its theme; every other base card and the
    scrap pile are shuffled (the ``k``-th restock from the seed ``derive_seed(seed, "restock",
    k)``, ``seeds[k - 1]``) and dealt round-robin into four face-down stocks. False, doing
    nothing, when ``seeds`` lacks this restock's seed."""
    k = w[RESTOCKS]
    if k >= w[SEEDS]:
        w[RESULT] = NEED_SEEDS
        return False
    n = w[SCRAP_N]
    for i in range(n):
        pool[i] = w[SCRAP + i]
    kept = 0
    for b in range(4):
        o = BASE + 54 * b
        keep = -1
        for j in range(w[BASE_N + b] - 1, -1, -1):
            card = w[o + j]
            shows = not w[SKIP_JOKERS] if JOKERS >> card & 1 else SETUP[card, b]
            if keep < 0 and shows:
                keep = card
            else:
                pool[n] = card
                n += 1
        w[o] = keep
        w[BASE_N + b] = 1
        kept |= bit(keep)
    w[ON_BASES] = kept
    w[RESTOCKS] = k + 1
    seed(rng, seeds[k])
    shuffle(rng, pool[:n])
    for i in range(4):
        size = (n - i + 3) // 4
        for j in range(size):
            w[STOCK + 54 * i + size - 1 - j] = pool[i + 4 * j]
            w[KNOWN + 54 * i + j] = 0
        w[STOCK_N + i] = size
        w[UP + i] = 0
    w[SCRAP_N] = 0
    return True


@njit(cache=True, nogil=True)
def _next_turn(w: Int64Array) -> None:
    """Clockwise to the next player still in; B8: one with no legal play loses (with more than
    2 players his hand goes to the scrap pile), and the last player left wins."""
    n = w[N]
    seat = w[TO]
    while w[RESULT] == ONGOING:
        seat = (seat + 1) % n
        if w[IS_OUT + seat]:
            continue
        w[TO] = seat
        if has_play(w, seat):
            return
        w[OUT + w[OUT_N]] = seat
        w[OUT_N] += 1
        w[IS_OUT + seat] = 1
        if n > 2:
            for k in range(w[HAND_N + seat]):
                w[SCRAP + w[SCRAP_N]] = w[HAND + 8 * seat + k]
                w[SCRAP_N] += 1
            w[HAND_N + seat] = 0
            w[HAND_MASK + seat] = 0
            w[KNOWN_HAND + seat] = 0
        if w[OUT_N] == n - 1:
            for s in range(n):
                if not w[IS_OUT + s]:
                    w[WINNER] = s
                    w[RESULT] = WIN


@njit(cache=True, nogil=True)
def apply(
    w: Int64Array,
    card: int,
    base: int,
    source: int,
    seeds: Int64Array,
    rng: Int64Array,
    pool: Int64Array,
) -> None:
    """``BeorState._apply``: play ``card`` on ``base`` and draw from stock ``source`` (B4, B6,
    B7), the goal (B5), a restock when the draw emptied the last stock (B9), the turn limit
    (B10), the next seat (B8)."""
    _play(w, card, base)
    _draw(w, source)
    w[TURN] += 1
    p = w[TO]
    if is_goal(w[HAND_MASK + p]):
        w[KNOWN_HAND + p] = w[HAND_MASK + p]  # B5: the winner shows his groups
        w[WINNER] = p
        w[RESULT] = WIN
        return
    if open_stocks(w) == 0 and not _restock(w, seeds, rng, pool):
        return
    if w[TURN] >= w[MAX_TURNS]:
        w[RESULT] = DRAW
        return
    _next_turn(w)


@njit(cache=True, nogil=True)
def legal_moves(w: Int64Array, moves: Int64Array) -> int:
    """``turn.legal_of`` for the seat to move: ``moves[k] = (card, base, source)``, cards in
    sort order, then bases, the base's own stock first (B4, B7); returns how many."""
    op = open_stocks(w)
    hand = w[HAND_MASK + w[TO]]
    k = 0
    while hand:
        card = lowest(hand)
        hand &= hand - 1
        for b in range(4):
            if not (op >> b & 1 and FIT_MASK[b] >> card & 1):
                continue
            moves[k, 0] = card
            moves[k, 1] = b
            moves[k, 2] = b
            k += 1
            if RANK[card] == 4 or RANK[card] == 7:
                for s in range(4):
                    if s != b and op >> s & 1:
                        moves[k, 0] = card
                        moves[k, 1] = b
                        moves[k, 2] = s
                        k += 1
    return k
