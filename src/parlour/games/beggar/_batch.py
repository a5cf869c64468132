"""Batches of Beggar-My-Neighbour deals for :mod:`.fast`: the loops that the Python API hands
to worker threads (every kernel releases the GIL). Each deal is played on its own, from its own
row or its own index in a seed's stream, so a batch gives the same results however it is split.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.beggar._arrays import LOOP_SCORE
from parlour.games.beggar._bits import planes, play_game2, random_planes
from parlour.games.beggar._engine import LOOP, NO_LIMIT, play_game, scratch
from parlour.games.beggar._random import GOLDEN, S32, draw, hand_sizes, mix, random_deal_into

# Climbs start from deals far beyond any random search's indices in the same seed's stream.
CLIMB_BASE = 1 << 62


@njit(cache=True, nogil=True)
def play_batch(
    n: int,
    mode: int,
    limit: int,
    detect: bool,
    bits: bool,
    deals: np.ndarray,
    sizes: np.ndarray,
    res: np.ndarray,
) -> None:
    """Play the deals in the rows of ``deals`` (52 classes, hands one after another, hand
    sizes in the rows of ``sizes``) into the rows of ``res``. Two players without a card limit
    use the bit planes when ``bits`` is set."""
    w8, w64 = scratch()
    for i in range(deals.shape[0]):
        play_one(n, mode, limit, detect, bits, deals[i], sizes[i], w8, w64, res[i])


@njit(cache=True, nogil=True, inline="always")
def play_one(
    n: int,
    mode: int,
    limit: int,
    detect: bool,
    bits: bool,
    deal: np.ndarray,
    sizes: np.ndarray,
    w8: np.ndarray,
    w64: np.ndarray,
    res: np.ndarray,
) -> None:
    """One deal: on bit planes for two players without a card limit (when ``bits``), else
    card by card."""
    if bits and n == 2 and limit == NO_LIMIT:
        xc, xu, xw = planes(deal, 0, sizes[0])
        yc, yu, yw = planes(deal, sizes[0], sizes[1])
        play_game2(xc, xu, xw, sizes[0], yc, yu, yw, sizes[1], detect, res)
    else:
        play_game(n, mode, limit, detect, deal, sizes, w8, w64, res)


@njit(cache=True, nogil=True)
def random_batch(seed: int, start: int, deals: np.ndarray) -> None:
    """Deals ``start``, ``start + 1``, ... of ``seed``'s stream into the rows of ``deals``."""
    pos = np.empty(52, np.int8)
    for i in range(deals.shape[0]):
        random_deal_into(seed, start + i, pos, deals[i])


@njit(cache=True, nogil=True)
def play_random_batch(
    n: int, mode: int, limit: int, detect: bool, seed: int, start: int, res: np.ndarray
) -> None:
    """Play deals ``start``, ``start + 1``, ... of ``seed``'s stream (those of
    :func:`random_batch`) into the rows of ``res``, dealing each as it is played."""
    pos = np.empty(52, np.int8)
    if n == 2 and limit == NO_LIMIT:
        for i in range(res.shape[0]):
            xc, xu, xw, yc, yu, yw = random_planes(seed, start + i, pos)
            play_game2(xc, xu, xw, 26, yc, yu, yw, 26, detect, res[i])
        return
    w8, w64 = scratch()
    sizes = hand_sizes(n)
    deal = np.empty(52, np.int8)
    for i in range(res.shape[0]):
        random_deal_into(seed, start + i, pos, deal)
        play_game(n, mode, limit, detect, deal, sizes, w8, w64, res[i])


@njit(cache=True, nogil=True, inline="always")
def _score(res: np.ndarray) -> int:
    """What a search maximises: the cards of a game; a never-ending one (M10) beats any."""
    return LOOP_SCORE if res[0] == LOOP else res[2]


@njit(cache=True, nogil=True)
def climb_batch(
    n: int,
    mode: int,
    limit: int,
    detect: bool,
    seed: int,
    start: int,
    max_plays: int,
    patience: int,
    best: np.ndarray,
    best_res: np.ndarray,
    plays: np.ndarray,
) -> None:
    """Hill climbs ``start``, ``start + 1``, ... of ``seed``, one per row of ``best``.

    Climb ``k`` starts from deal ``CLIMB_BASE + k`` of the seed's stream and swaps two cards of
    different classes at a time (its own generator chooses them), keeping the swap when the
    game is at least as long (sideways moves let it cross plateaus), until ``patience`` plays
    without a new best or ``max_plays`` plays. Each row gets the longest deal the climb met,
    its results and the number of deals played."""
    w8, w64 = scratch()
    pos = np.empty(52, np.int8)
    sizes = hand_sizes(n)
    cur = np.empty(52, np.int8)
    res = np.zeros(6, np.int64)
    for w in range(best.shape[0]):
        walker = start + w
        random_deal_into(seed, CLIMB_BASE + walker, pos, cur)
        play_one(n, mode, limit, detect, True, cur, sizes, w8, w64, res)
        cur_score = _score(res)
        best_score = cur_score
        best[w, :] = cur
        best_res[w, :] = res
        state = mix(np.uint64(seed) * GOLDEN + np.uint64(walker))
        done = 1
        stale = 0
        while done < max_plays and stale < patience:
            state += GOLDEN
            z = mix(state)
            i = draw(z, 52)
            j = draw(z >> S32, 52)
            if cur[i] == cur[j]:
                continue
            t = cur[i]
            cur[i] = cur[j]
            cur[j] = t
            play_one(n, mode, limit, detect, True, cur, sizes, w8, w64, res)
            done += 1
            score = _score(res)
            if score > best_score:
                best_score = score
                best[w, :] = cur
                best_res[w, :] = res
                stale = 0
            else:
                stale += 1
            if score >= cur_score:
                cur_score = score
            else:
                cur[j] = cur[i]
                cur[i] = t
        plays[w] = done
