"""The BEOR agents inside the compiled kernel (numba): ``BeorHeuristic`` and ``RandomAgent``
making exactly the rules engine agents' choices from the same generator
(:mod:`parlour.core.mersenne`), and the
hand potential both the heuristic and the lab's standings read (``strategy.potential``).

The heuristic's sums are of whole numbers, and its score is built in the rules engine's order
(value, plus safety, plus ``random() * 1e-6``) in IEEE doubles, so the comparisons come out the
same and so does the choice, tie-breaks included.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.core.mersenne import randbelow, random
from parlour.games.beor._kernel import (
    BASE_N,
    HAND_MASK,
    KNOWN,
    KNOWN_HAND,
    ON_BASES,
    REVERSE,
    STOCK,
    STOCK_N,
    TO,
    N,
    bit,
    count,
    lowest,
)
from parlour.games.beor._tables import CARD_GROUPS, DECK, FIT_MASK, GROUP_MASK, PARTNERS, RANK

Int64Array = npt.NDArray[np.int64]
Float64Array = npt.NDArray[np.float64]

RANDOM, HEURISTIC = 0, 1
"""The agents, as the kernel numbers them."""


@njit(cache=True, nogil=True)
def potential(cards: int, dead: int, parts: Int64Array) -> int:
    """``strategy.potential``: how many of ``cards`` sit in two disjoint partial groups (0..6),
    a group counting only when the cards it lacks are not in ``dead`` (B5). ``parts`` is
    scratch space for 64 numbers.

    Each group is taken once, from the lowest of the cards it holds; two groups holding the
    same cards (two sets lacking a different card) give the same part twice, which changes
    nothing: a part is never disjoint from itself, and otherwise only the biggest part's size
    counts."""
    np_ = 0
    biggest = 0
    rest = cards
    while rest:
        card = lowest(rest)
        rest &= rest - 1
        below = bit(card) - 1
        for g in CARD_GROUPS[card]:
            if g < 0:
                break
            group = GROUP_MASK[g]
            have = group & cards
            if have & below or have & (have - 1) == 0 or (group & ~have) & dead:
                continue  # taken from a lower card, fewer than two cards, or a dead card lacking
            size = 3 if have == group else 2
            parts[np_] = have
            parts[32 + np_] = size
            biggest = max(biggest, size)
            np_ += 1
    best = 0
    for a in range(np_):
        for b in range(a + 1, np_):
            if parts[a] & parts[b] == 0:
                best = max(best, parts[32 + a] + parts[32 + b])
    n = count(cards)
    if best == 0 and np_ > 0:
        best = biggest + (1 if n > biggest else 0)
    if best == 0:
        best = min(2, n)
    return best


@njit(cache=True, nogil=True)
def choose_random(nmoves: int, rng: Int64Array) -> int:
    """``RandomAgent``: ``legal_actions[rng.randrange(len(legal_actions))]``."""
    return randbelow(rng, nmoves)


@njit(cache=True, nogil=True)
def _drawn_card(w: Int64Array, card: int, source: int) -> int:
    """``strategy._drawn_card``: the card the move will draw when the table knows it (B6: a 3
    or 8 flips first, bringing the bottom card up), else -1."""
    n = w[STOCK_N + source]
    if n == 0:
        return -1
    k = 0 if (RANK[card] == 3 or RANK[card] == 8) and w[REVERSE] else n - 1
    if w[KNOWN + 54 * source + k]:
        return int(w[STOCK + 54 * source + k])
    return -1


@njit(cache=True, nogil=True)
def _safety(w: Int64Array, kept: int, source: int) -> float:
    """``BeorHeuristic._safety`` (B8): 0.05 for each base the kept cards fit whose stock keeps
    cards after this draw; none at all is -3 (0 when every stock is then empty)."""
    open_bases = 0
    any_left = False
    for b in range(4):
        size = w[STOCK_N + b] - (1 if b == source else 0)
        if size > 0:
            any_left = True
            if kept & FIT_MASK[b]:
                open_bases += 1
    if open_bases == 0:
        return -3.0 if any_left else 0.0
    return 0.05 * open_bases


@njit(cache=True, nogil=True)
def choose_heuristic(
    w: Int64Array,
    moves: Int64Array,
    nmoves: int,
    rng: Int64Array,
    scratch: Int64Array,
    cache: Float64Array,
) -> int:
    """``BeorHeuristic.choose`` for the seat to move: the index of its move in ``moves``.
    ``scratch`` holds 128 numbers, ``cache`` 2 * 54."""
    p = w[TO]
    n = w[N]
    hand = w[HAND_MASK + p]
    dead = w[ON_BASES]
    for s in range(n):
        if s != p:
            dead |= w[KNOWN_HAND + s]
    seen = dead | hand
    for i in range(4):
        for k in range(w[STOCK_N + i]):
            if w[KNOWN + 54 * i + k]:
                seen |= bit(w[STOCK + 54 * i + k])
    parts = scratch[0:64]
    sample = scratch[64:128]
    size = 54 if n % 2 else 52
    unseen = 0
    for i in range(size):
        if not seen >> DECK[i] & 1:
            unseen += 1
    step = max(1, unseen // 12)
    ns = 0
    k = 0
    for i in range(size):
        card = DECK[i]
        if not seen >> card & 1:
            if k % step == 0:
                sample[ns] = card
                ns += 1
            k += 1
    done = 0  # the cards whose value is worked out (cache[card], cache[54 + card])
    best = -1
    best_score = -np.inf
    for m in range(nmoves):
        card = moves[m, 0]
        kept = hand & ~bit(card)
        if not done >> card & 1:
            done |= bit(card)
            now = potential(kept, dead, parts)
            gain = 0.0
            if ns > 0:
                total = 0.0
                for j in range(ns):
                    drawn = sample[j]
                    # A card sharing no group with two or more kept cards leaves them their
                    # groups: a gain of 0, without the work.
                    if kept & PARTNERS[drawn] or count(kept) < 2:
                        more = potential(kept | bit(drawn), dead, parts)
                        total += max(0.0, float(more - now))
                gain = total / ns
            cache[card] = float(now)
            cache[54 + card] = gain
        drawn = _drawn_card(w, card, moves[m, 2])
        if drawn >= 0:
            value = float(potential(kept | bit(drawn), dead, parts))
            if value >= 6:
                return m  # a known winning draw (B5)
        else:
            value = cache[card] + cache[54 + card]
        score = value + _safety(w, kept, moves[m, 2]) + random(rng) * 1e-6
        if score > best_score:
            best = m
            best_score = score
    return best


@njit(cache=True, nogil=True)
def standing_leader(w: Int64Array, parts: Int64Array) -> int:
    """The seat whose hand ``strategy.evaluate`` weighs highest alone (``exp(2 * potential)``
    with the cards on the bases and in other hands dead; a seat without cards weighs 0), or -1
    on a tie; for a game still on."""
    n = w[N]
    everyone = 0
    for s in range(n):
        everyone |= w[HAND_MASK + s]
    best = -1
    leader = -1
    for s in range(n):
        hand = w[HAND_MASK + s]
        if hand == 0:
            continue
        value = potential(hand, w[ON_BASES] | (everyone & ~hand), parts)
        if value > best:
            best = value
            leader = s
        elif value == best:
            leader = -1
    return leader


assert BASE_N > 0  # the layout is shared with _kernel
