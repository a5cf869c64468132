"""The BEOR deal inside the compiled kernel (numba): ``deal.deal_from_seed`` and
``BeorState._start`` on a kernel position (:mod:`._kernel`'s layout), B1-B3, B5 and B11.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.core.mersenne import shuffle
from parlour.games.beor._kernel import (
    BASE,
    BASE_N,
    HAND,
    HAND_MASK,
    HAND_N,
    HAND_SIZE,
    KNOWN_HAND,
    MAX_TURNS,
    NATURAL,
    ON_BASES,
    RESULT,
    REVERSE,
    SEEDS,
    SKIP_JOKERS,
    STOCK,
    STOCK_N,
    WIN,
    WINNER,
    N,
    bit,
    is_goal,
)
from parlour.games.beor._tables import DECK, JOKERS, PERMS, SETUP

Int64Array = npt.NDArray[np.int64]


@njit(cache=True, nogil=True)
def _choose_bases(turned: Int64Array, nt: int, pick: Int64Array) -> bool:
    """B2 (``deal._choose_bases``): the earliest-turned four cards that fit Black, Even, Odd,
    Red at setup, the earliest card for each base in that order; only sets holding the newest
    card are tried, the others having failed before it was turned."""
    d = nt - 1
    for a in range(d):
        for b in range(a + 1, d):
            for c in range(b + 1, d):
                four = (a, b, c, d)
                for p in range(24):
                    ok = True
                    for base in range(4):
                        if not SETUP[turned[four[PERMS[p, base]]], base]:
                            ok = False
                            break
                    if ok:
                        for base in range(4):
                            pick[base] = four[PERMS[p, base]]
                        return True
    return False


@njit(cache=True, nogil=True)
def deal(w: Int64Array, players: int, rng: Int64Array, scratch: Int64Array) -> None:
    """``deal.deal_from_seed`` and ``BeorState._start``'s piles (B1-B3, B11): ``rng`` seeded
    from the game's seed; ``scratch`` holds 3 * 54 numbers."""
    size = 54 if players % 2 else 52
    deck = scratch[0:54]
    turned = scratch[54:108]
    aside = scratch[108:162]
    for i in range(size):
        deck[i] = DECK[i]
    shuffle(rng, deck[:size])
    top = 0
    nt = 0
    na = 0
    pick = np.empty(4, np.int64)
    while True:
        card = deck[top]
        top += 1
        if JOKERS >> card & 1:
            aside[na] = card
            na += 1
            continue
        turned[nt] = card
        nt += 1
        if nt >= 4 and _choose_bases(turned, nt, pick):
            break
    rest = size - top
    for i in range(rest):
        deck[i] = deck[top + i]
    for i in range(nt):
        if i != pick[0] and i != pick[1] and i != pick[2] and i != pick[3]:
            deck[rest] = turned[i]
            rest += 1
    for i in range(na):
        deck[rest] = aside[i]
        rest += 1
    shuffle(rng, deck[:rest])
    for b in range(4):
        card = turned[pick[b]]
        w[BASE + 54 * b] = card
        w[BASE_N + b] = 1
        w[ON_BASES] |= bit(card)
    dealt = players * HAND_SIZE
    for s in range(players):
        mask = 0
        for k in range(HAND_SIZE):
            card = deck[s + k * players]
            w[HAND + 8 * s + k] = card
            mask |= bit(card)
        w[HAND_N + s] = HAND_SIZE
        w[HAND_MASK + s] = mask
    left = rest - dealt
    for i in range(4):
        # Stock i is deck[dealt + i :: 4], top first: kept bottom first.
        n = (left - i + 3) // 4
        for k in range(n):
            w[STOCK + 54 * i + n - 1 - k] = deck[dealt + i + 4 * k]
        w[STOCK_N + i] = n


@njit(cache=True, nogil=True)
def start(
    w: Int64Array,
    players: int,
    rng: Int64Array,
    scratch: Int64Array,
    natural_win: bool,
    reverse: bool,
    skip_jokers: bool,
    max_turns: int,
    seeds: int,
) -> None:
    """``BeorState._start``: a new game dealt from ``rng`` (seeded from the game's seed), seat 0
    to play (B3), a natural win checked first (B5, option ``natural_win``)."""
    w[:] = 0
    w[N] = players
    w[WINNER] = -1
    w[REVERSE] = reverse
    w[SKIP_JOKERS] = skip_jokers
    w[MAX_TURNS] = max_turns
    w[SEEDS] = seeds
    deal(w, players, rng, scratch)
    if natural_win:
        for s in range(players):
            if is_goal(w[HAND_MASK + s]):
                w[KNOWN_HAND + s] = w[HAND_MASK + s]  # the winner shows his groups
                w[WINNER] = s
                w[RESULT] = WIN
                w[NATURAL] = 1
                return
