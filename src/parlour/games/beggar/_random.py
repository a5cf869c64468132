"""Random Beggar-My-Neighbour deals inside the compiled kernel (numba): a seed's stream.

Deal ``i`` of a seed comes from a generator of its own (splitmix64 seeded from the seed and
``i``), so a batch gives the same deals however it is split over workers and wherever it
starts. Deals are card classes, as play sees them (M10): 0 for a number card, 1-4 for J, Q, K,
A (the cards each demands, M1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.core.splitmix import GOLDEN, S32, draw, mix

__all__ = ["GOLDEN", "S32", "court_positions", "draw", "hand_sizes", "mix", "random_deal_into"]

_STREAM = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, nogil=True)
def court_positions(seed: int, index: int, pos: np.ndarray) -> None:
    """Deal ``index`` of ``seed``'s stream: ``pos[0:16]`` get the deck positions of the 4 J, 4 Q,
    4 K and 4 A (in that order) of a uniformly shuffled deck.

    A partial Fisher-Yates shuffle of the 52 positions: the 36 number cards are all alike in
    play (M10), so placing the 16 court cards deals the whole deck. Each 64-bit draw serves two
    positions."""
    state = mix(np.uint64(seed) * GOLDEN + np.uint64(index) * _STREAM + _STREAM)
    for i in range(52):
        pos[i] = i
    for i in range(0, 16, 2):
        state += GOLDEN
        z = mix(state)
        j = i + draw(z, 52 - i)
        t = pos[i]
        pos[i] = pos[j]
        pos[j] = t
        j = i + 1 + draw(z >> S32, 51 - i)
        t = pos[i + 1]
        pos[i + 1] = pos[j]
        pos[j] = t


@njit(cache=True, nogil=True)
def hand_sizes(n: int) -> np.ndarray:
    """M7: hand sizes when 52 cards are dealt one at a time from seat 0 (18/17/17)."""
    sizes = np.empty(n, np.int64)
    for s in range(n):
        sizes[s] = 52 // n + (1 if s < 52 % n else 0)
    return sizes


@njit(cache=True, nogil=True)
def random_deal_into(seed: int, index: int, pos: np.ndarray, out: np.ndarray) -> None:
    """Deal ``index`` of ``seed``'s stream as 52 classes (hands one after another, M7 sizes);
    ``pos`` is scratch space of 52 int8."""
    court_positions(seed, index, pos)
    for i in range(52):
        out[i] = 0
    for i in range(16):
        out[pos[i]] = 1 + (i >> 2)
