"""The compiled Game of Death engine behind :mod:`parlour.games.death.playout` (numba): the
rules of ``rules.py`` step by step (G1-G11). The policies and playouts are in :mod:`._policies`.

A card is a number 0-51 in the order of ``Card.code`` (rank A..K, then suit S H D C): card
``k`` has rank ``k // 4 + 1`` (A = 1, J Q K = 11 12 13) and suit ``k % 4``. A hand is a bit
mask of its cards, so a throw's legal cards are one ``and`` (G2) and the lowest bit first is
the order in which ``Position.legal_actions`` lists the throws.

A position is one int64 array (``SIZE`` long, the layout below): every function works on it in
place, mirroring one method of ``rules._Turn`` each, so that the two engines agree step by step
(``tests/games/death/test_playout.py`` checks that they do). Actions are codes: a card's
number throws it, ``PASS`` passes, ``GIVE + (drinks - 1) * 10 + seat`` gives (G5).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.cards import Rank, Suit, deck52
from parlour.games.death.notation import FACE, is_black_face

Int64Array = npt.NDArray[np.int64]

# The layout of a position: the header, then per seat drinks taken, drinks given and hand, then
# the pile (top card last) and who threw each of its cards.
N = 0  # players
TO = 1  # the seat to move; -1 once over
LAST = 2  # the last thrower (G9); -1 for none
FIRST = 3  # the first player out (G10); -1 for none
PASSED = 4  # who passed since the last throw, a bit mask of seats
PSEAT = 5  # the giver of a give in progress (G5); -1 for none
PLEFT = 6  # the drinks he has left to give; 0 for none
OVER = 7
STARTED = 8  # whether 2♦ has been thrown (G1)
DAF = 9  # option difference_against_faces (G3)
PLEN = 10  # cards on the pile
HEADER = 11
TAKEN = 16
GIVEN = TAKEN + 10
HAND = GIVEN + 10
PILE = HAND + 10
PSEATS = PILE + 52
SIZE = PSEATS + 52

PASS = 52
GIVE = 53
SEATS = 10  # a give's code holds the seat in its last decimal digit
TWO_OF_DIAMONDS = 4 + 2  # rank 2, suit D


def card_number(rank: int, suit: int) -> int:
    """The number of the card of ``rank`` (A = 1 .. K = 13) and ``suit`` (S H D C = 0-3)."""
    return (rank - 1) * 4 + suit


_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
CARDS = tuple(sorted(deck52(), key=lambda c: c.code))  # card number -> Card
assert all(CARDS[card_number(int(c.rank), _SUITS.index(c.suit))] is c for c in CARDS)
# G5 and G11: what each card gives (black face cards) or takes (red ones), from notation.FACE.
FACE_VALUE = np.array([FACE.get(c, 0) for c in CARDS], np.int64)
BLACK_FACE = np.array([is_black_face(c) for c in CARDS], np.bool_)
BLACK_MASK = sum(1 << k for k, c in enumerate(CARDS) if is_black_face(c))
SUIT_MASK = np.array([sum(1 << k for k in range(s, 52, 4)) for s in range(4)], np.int64)
RANK_MASK = np.array([0] + [0xF << (4 * (r - 1)) for r in range(1, 14)], np.int64)
assert int(Rank.ACE) == 1 and int(Rank.KING) == 13
# Bit tricks on uint64: a population count's masks, and the de Bruijn sequence that numbers
# an isolated bit.
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


@njit(cache=True, nogil=True)
def load(src: Int64Array, w: Int64Array) -> None:
    """A position from its compact form (:func:`playout.compact`): the header, then per seat
    drinks taken, per seat drinks given, per seat the hand, the pile and its throwers."""
    w[:] = 0
    n = src[N]
    for i in range(HEADER):
        w[i] = src[i]
    o = HEADER
    for s in range(n):
        w[TAKEN + s] = src[o + s]
        w[GIVEN + s] = src[o + n + s]
        w[HAND + s] = src[o + 2 * n + s]
    o += 3 * n
    plen = w[PLEN]
    for i in range(plen):
        w[PILE + i] = src[o + i]
        w[PSEATS + i] = src[o + plen + i]


@njit(cache=True, nogil=True, inline="always")
def bit(k: int) -> int:
    return int(np.int64(1) << np.int64(k))


@njit(cache=True, nogil=True, inline="always")
def count(mask: int) -> int:
    """How many cards (bits) ``mask`` holds (a SWAR population count)."""
    x = np.uint64(mask)
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> _U2) & _M2)
    x = (x + (x >> _U4)) & _M4
    return int((x * _H01) >> _U56)


@njit(cache=True, nogil=True, inline="always")
def lowest(mask: int) -> int:
    """The number of the lowest card (bit) of ``mask``, not empty (a de Bruijn multiply)."""
    return int(_DEBRUIJN_INDEX[(np.uint64(mask & -mask) * _DEBRUIJN) >> _U58])


@njit(cache=True, nogil=True)
def held_value(hand: int) -> int:
    """G11: the give value of the black face cards in ``hand``."""
    total = 0
    hand &= BLACK_MASK
    while hand:
        total += FACE_VALUE[lowest(hand)]
        hand &= hand - 1
    return total


@njit(cache=True, nogil=True)
def end(w: Int64Array) -> None:
    """G10/G8 end; G11: each player drinks the give value of his black face cards."""
    w[OVER] = 1
    w[TO] = -1
    for s in range(w[N]):
        w[TAKEN + s] += held_value(w[HAND + s])


@njit(cache=True, nogil=True, inline="always")
def sweep(w: Int64Array, leader: int) -> None:
    """G8, G9: the pile is swept off and ``leader`` leads any card."""
    w[PLEN] = 0
    w[PASSED] = 0
    w[TO] = leader


@njit(cache=True, nogil=True)
def advance(w: Int64Array, p: int) -> None:
    """The turn goes clockwise. G10: when it would come back to the first player out the
    game ends; players with no cards are skipped. G9: when it comes back to the last thrower,
    sweep, and he leads."""
    n = w[N]
    seat = p
    for _ in range(n):
        seat += 1
        if seat == n:
            seat = 0
        if seat == w[FIRST]:
            end(w)
            return
        if w[HAND + seat] == 0:
            continue
        if seat == w[LAST]:
            sweep(w, seat)
            return
        w[TO] = seat
        return
    raise AssertionError("no player to move")


@njit(cache=True, nogil=True)
def after_throw(w: Int64Array, p: int, ace: bool) -> None:
    """G8: after an Ace the pile is swept and its thrower leads; with no card the game ends.
    Otherwise the turn passes on."""
    if ace:
        sweep(w, p)
        if w[HAND + p] == 0:
            end(w)
        return
    advance(w, p)


@njit(cache=True, nogil=True)
def throw(w: Int64Array, k: int) -> None:
    """G2 and G6: card ``k`` goes on the pile, then breaking suit (G4), going down (G3), the
    face card (G5), the social (G7), the Ace sweep (G8) and the end check (G10)."""
    p = w[TO]
    w[HAND + p] &= ~bit(k)
    plen = w[PLEN]
    w[PILE + plen] = k
    w[PSEATS + plen] = p
    w[PLEN] = plen + 1
    w[LAST] = p
    w[PASSED] = 0
    w[STARTED] = 1
    if w[HAND + p] == 0 and w[FIRST] < 0:
        w[FIRST] = p
    rank = (k >> 2) + 1
    suit = k & 3
    if plen > 0:
        top = w[PILE + plen - 1]
        top_rank = (top >> 2) + 1
        if rank == top_rank and suit != top & 3:
            w[TAKEN + w[PSEATS + plen - 1]] += 1  # G4
        if (
            suit == top & 3
            and 2 <= rank <= 10
            and rank < top_rank
            and (top_rank <= 10 or (w[DAF] != 0 and 11 <= top_rank <= 13))
        ):
            w[TAKEN + p] += top_rank - rank  # G3 (rank >= 2, so top_rank >= 3 here)
    value = FACE_VALUE[k]
    if value:
        if BLACK_FACE[k]:
            w[PSEAT] = p
            w[PLEFT] = value
        else:
            w[TAKEN + p] += value
    if plen >= 3:
        base = PILE + plen
        if w[base - 1] >> 2 == k >> 2 and w[base - 2] >> 2 == k >> 2 and w[base - 3] >> 2 == k >> 2:
            for s in range(w[N]):
                w[TAKEN + s] += 1  # G7
    if w[PLEFT] == 0:
        after_throw(w, p, rank == 1)


@njit(cache=True, nogil=True)
def give(w: Int64Array, drinks: int, target: int) -> None:
    """G5: ``drinks`` of those owed go to ``target``; once all are given play goes on (after
    a black Ace, G8 sweeps: the Ace is still on top)."""
    p = w[PSEAT]
    w[GIVEN + p] += drinks
    w[TAKEN + target] += drinks
    w[PLEFT] -= drinks
    if w[PLEFT] == 0:
        w[PSEAT] = -1
        after_throw(w, p, w[PILE + w[PLEN] - 1] >> 2 == 0)


@njit(cache=True, nogil=True)
def pass_turn(w: Int64Array) -> None:
    """G2: with no legal card he passes and drinks 1."""
    p = w[TO]
    w[PASSED] |= bit(p)
    w[TAKEN + p] += 1
    advance(w, p)


@njit(cache=True, nogil=True)
def apply(w: Int64Array, code: int) -> None:
    """Play the action ``code`` (a legal one: nothing is checked)."""
    if code < PASS:
        throw(w, code)
    elif code == PASS:
        pass_turn(w)
    else:
        g = code - GIVE
        give(w, g // SEATS + 1, g % SEATS)


@njit(cache=True, nogil=True)
def throws(w: Int64Array) -> int:
    """G1, G2: the cards the player to move may throw, as a mask: 2♦ first, any card on a new
    lead, else a card of the top card's suit or rank."""
    hand = w[HAND + w[TO]]
    if w[STARTED] == 0:
        return int(hand & bit(TWO_OF_DIAMONDS))
    plen = w[PLEN]
    if plen == 0:
        return int(hand)
    top = w[PILE + plen - 1]
    return int(hand & (SUIT_MASK[top & 3] | RANK_MASK[(top >> 2) + 1]))


@njit(cache=True, nogil=True)
def legal(w: Int64Array, out: Int64Array) -> int:
    """The legal actions' codes into ``out`` (room for 200); returns how many. G5: while
    drinks are owed, every give of 1 to all that is left to each other player."""
    p = w[TO]
    left = w[PLEFT]
    c = 0
    if left > 0:
        for s in range(w[N]):
            if s != p:
                for d in range(1, left + 1):
                    out[c] = GIVE + (d - 1) * SEATS + s
                    c += 1
        return c
    mask = throws(w)
    if mask == 0:
        out[0] = PASS
        return 1
    while mask:
        out[c] = lowest(mask)
        mask &= mask - 1
        c += 1
    return c
