"""The policies of the compiled Game of Death engine (:mod:`._kernel`) and its playouts: the
heuristic of ``strategy.py`` (``DeathHeuristic``), uniform random choices, and playouts that
play on with either for every seat (what :func:`parlour.games.death.playout.playout` runs).

The random choices come from a splitmix64 stream (:mod:`parlour.core.splitmix`, shared with
Beggar-My-Neighbour's kernel) seeded from the playout's seed, so a seed gives the same playout
on any machine.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.core.splitmix import GOLDEN, draw, mix
from parlour.games.death._kernel import (
    BLACK_FACE,
    DAF,
    FACE_VALUE,
    FIRST,
    GIVE,
    HAND,
    OVER,
    PASS,
    PILE,
    PLEFT,
    PLEN,
    PSEATS,
    SEATS,
    SIZE,
    TAKEN,
    TO,
    Int64Array,
    N,
    apply,
    count,
    held_value,
    load,
    lowest,
    throws,
)


@njit(cache=True, nogil=True)
def leader(w: Int64Array, exclude: int) -> int:
    """The player doing best (fewest drinks taken, lowest seat on ties) but ``exclude``."""
    best = -1
    for s in range(w[N]):
        if s != exclude and (best < 0 or w[TAKEN + s] < w[TAKEN + best]):
            best = s
    return best


_NO_NOISE = np.zeros(0, np.float64)


@njit(cache=True, nogil=True)
def heuristic(w: Int64Array) -> int:
    """``DeathHeuristic.choose``: the whole give to the leader (G5); else the throw of the
    highest score, the same sums in the same order (so the same floats), the first in the
    listed order on ties; a pass with no throw."""
    return heuristic_noisy(w, _NO_NOISE)


@njit(cache=True, nogil=True, inline="always")
def heuristic_noisy(w: Int64Array, noise: npt.NDArray[np.float64]) -> int:
    """:func:`heuristic` with ``noise[i]`` (each a ``random()``, times 1e-6) added last to the
    score of the ``i``-th throw in the listed order, as ``DeathHeuristic`` adds its
    generator's draws (no noise: ``noise`` empty). A pass or a give draws none."""
    p = w[TO]
    lead = leader(w, p)
    if w[PLEFT] > 0:
        return int(GIVE + (w[PLEFT] - 1) * SEATS + lead)
    mask = throws(w)
    if mask == 0:
        return PASS
    plen = w[PLEN]
    top_rank = -1
    top_suit = -1
    covered_by = -1
    if plen > 0:
        top = w[PILE + plen - 1]
        top_rank = (top >> 2) + 1
        top_suit = top & 3
        covered_by = w[PSEATS + plen - 1]
    ending = w[FIRST] >= 0 or count(w[HAND + p]) <= 3
    down_counts = 2 <= top_rank <= 10 or (w[DAF] != 0 and 11 <= top_rank <= 13)
    best = -1
    best_score = -np.inf
    i = 0
    while mask:
        k = lowest(mask)
        mask &= mask - 1
        rank = (k >> 2) + 1
        suit = k & 3
        score = 0.0
        if suit == top_suit and 2 <= rank <= 10 and down_counts:
            score -= max(0, top_rank - rank)  # G3
        value = FACE_VALUE[k]
        if value and BLACK_FACE[k]:
            score += value * (1.5 if ending else 1.0)  # G5 gives, and G11 looms
        elif value:
            score -= value  # G5 takes
        if rank == top_rank and suit != top_suit:
            score += 1.0 if covered_by == lead else 0.3  # G4 on the leader
        if 2 <= rank <= 10:
            score += rank / 20
        if i < len(noise):
            score += noise[i] * 1e-6
        i += 1
        if score > best_score:
            best = k
            best_score = score
    return best


@njit(cache=True, nogil=True)
def random_action(w: Int64Array, z: np.uint64) -> int:
    """A uniform choice, by the 64 random bits ``z``, among the throws (or the pass), or of
    the receiver of all the drinks left to give (G5)."""
    p = w[TO]
    left = w[PLEFT]
    if left > 0:
        s = draw(z, w[N] - 1)
        if s >= p:
            s += 1
        return int(GIVE + (left - 1) * SEATS + s)
    mask = throws(w)
    if mask == 0:
        return PASS
    for _ in range(draw(z, count(mask))):
        mask &= mask - 1
    return lowest(mask)


@njit(cache=True, nogil=True)
def run(w: Int64Array, seed: int, max_actions: int, by_heuristic: bool) -> int:
    """Play on for at most ``max_actions`` actions or to the end, every seat by the heuristic
    or at random (a splitmix64 stream seeded from ``seed``); returns the actions played."""
    state = mix(np.uint64(seed) * GOLDEN + GOLDEN)
    played = 0
    while played < max_actions and w[OVER] == 0:
        if by_heuristic:
            code = heuristic(w)
        else:
            state += GOLDEN
            code = random_action(w, mix(state))
        apply(w, code)
        played += 1
    return played


@njit(cache=True, nogil=True)
def playout(src: Int64Array, seed: int, max_actions: int, by_heuristic: bool) -> int:
    """:func:`run` from the compact position ``src``; writes the drinks taken per seat and the
    G11 value of the black face cards each still holds over ``src[0:2n]``; returns whether
    the game is over (1) or not (0)."""
    w = np.empty(SIZE, np.int64)
    load(src, w)
    run(w, seed, max_actions, by_heuristic)
    n = w[N]
    for s in range(n):
        src[s] = w[TAKEN + s]
        src[n + s] = held_value(w[HAND + s])
    return int(w[OVER])


@njit(cache=True, nogil=True)
def run_many(ws: Int64Array, seed: int, max_actions: int, by_heuristic: bool) -> int:
    """:func:`run` on each row of ``ws`` (positions), row ``i`` with seed ``seed + i``;
    returns the actions played in all (for measuring the kernel alone)."""
    total = 0
    for i in range(ws.shape[0]):
        total += run(ws[i], seed + i, max_actions, by_heuristic)
    return total
