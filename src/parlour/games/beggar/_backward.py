"""Backward play for two players: deals whose game runs into a given game (numba).

A trick-boundary position ``P`` (two hands and the lead) was reached by a trick that its leader
``s`` captured (M2: the capturer leads): the last ``m`` cards of ``s``'s hand are that trick's
pile in the order played. Putting them back on top of the hands, as the players turned them from
a lead by seat ``l``, gives a position ``Q`` one trick earlier, provided that playing the trick
forward from ``Q`` turns exactly those cards and ends with ``s`` capturing (M1, M2). When ``Q``
holds 26 cards in each hand and seat 0 leads, it is a deal (M7) whose game runs into ``P``'s and
is longer by the cards put back. :func:`unplay_search` explores the positions before a deal
depth first, within a budget, and keeps the longest deals it meets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.beggar._engine import CAPTURE, hands_into, load, play_trick, scratch, turn


@njit(cache=True, nogil=True, inline="always")
def _trick_ends_at(
    pile: np.ndarray, start: int, m: int, lead: int, capturer: int, who: np.ndarray
) -> bool:
    """Whether a trick led by ``lead`` turning ``pile[start:start + m]`` in order ends with its
    last card, captured by ``capturer`` (M1, M2); ``who`` gets the seat of each card."""
    p = lead
    owed = 0
    court = -1
    for i in range(m):
        who[i] = p
        p, owed, court, captured = turn(2, 0, p, pile[start + i], owed, court)
        if captured:
            return i == m - 1 and court == capturer
    return False


@njit(cache=True, nogil=True)
def unplay_search(
    start: np.ndarray,
    size0: int,
    first_lead: int,
    budget: int,
    max_depth: int,
    found: np.ndarray,
    extra: np.ndarray,
) -> int:
    """Deals whose game runs into ``deal``'s (26/26 cards, seat 0 leads) after one or more
    tricks, found by unplaying tricks depth first over at most ``budget`` positions and
    ``max_depth`` tricks back. The longest ones go to the rows of ``found``, with the cards and
    tricks they add in the rows of ``extra``; returns how many rows were filled."""
    hands = np.zeros((max_depth + 1, 2, 52), np.int8)
    sizes = np.zeros((max_depth + 1, 2), np.int64)
    lead = np.zeros(max_depth + 1, np.int64)
    added = np.zeros(max_depth + 1, np.int64)
    step = np.zeros(max_depth + 1, np.int64)
    who = np.zeros(52, np.int64)
    for j in range(size0):
        hands[0, 0, j] = start[j]
    for j in range(52 - size0):
        hands[0, 1, j] = start[size0 + j]
    sizes[0, 0] = size0
    sizes[0, 1] = 52 - size0
    lead[0] = first_lead
    filled = 0
    nodes = 0
    level = 0
    while level >= 0 and nodes < budget:
        # Candidates at a level: pile sizes m = 2, 3, ... taken from the leader's hand, each
        # with seat 0 or seat 1 having led the trick.
        s = lead[level]
        o = 1 - s
        size_s = sizes[level, s]
        cand = step[level]
        m = 2 + (cand >> 1)
        if m > size_s:
            level -= 1
            continue
        step[level] = cand + 1
        first = cand & 1
        rest = size_s - m
        if not _trick_ends_at(hands[level, s], rest, m, first, s, who):
            continue
        nodes += 1
        # Q: each player's cards of the trick back on top of his hand, in the order turned.
        nxt = level + 1
        if nxt > max_depth:
            continue
        ks = 0
        ko = 0
        for i in range(m):
            if who[i] == s:
                ks += 1
            else:
                ko += 1
        qs = 0
        qo = 0
        for i in range(m):
            c = hands[level, s, rest + i]
            if who[i] == s:
                hands[nxt, s, qs] = c
                qs += 1
            else:
                hands[nxt, o, qo] = c
                qo += 1
        for j in range(rest):
            hands[nxt, s, ks + j] = hands[level, s, j]
        for j in range(sizes[level, o]):
            hands[nxt, o, ko + j] = hands[level, o, j]
        sizes[nxt, s] = ks + rest
        sizes[nxt, o] = ko + sizes[level, o]
        lead[nxt] = first
        added[nxt] = added[level] + m
        step[nxt] = 0
        if first == 0 and sizes[nxt, 0] == 26:
            # A deal (M7): keep it if it beats the shortest kept one.
            row = filled
            if filled == found.shape[0]:
                row = int(np.argmin(extra[:, 0]))
                if extra[row, 0] >= added[nxt]:
                    row = -1
            else:
                filled += 1
            if row >= 0:
                for j in range(26):
                    found[row, j] = hands[nxt, 0, j]
                    found[row, 26 + j] = hands[nxt, 1, j]
                extra[row, 0] = added[nxt]
                extra[row, 1] = nxt
        level = nxt
    return filled


@njit(cache=True, nogil=True)
def _holds(rows: np.ndarray, filled: int, row: np.ndarray) -> bool:
    """Whether ``row`` is one of the first ``filled`` rows of ``rows``."""
    for i in range(filled):
        same = True
        for j in range(row.shape[0]):
            if rows[i, j] != row[j]:
                same = False
                break
        if same:
            return True
    return False


@njit(cache=True, nogil=True)
def extend_deal(
    deal: np.ndarray,
    max_tricks: int,
    budget: int,
    max_depth: int,
    found: np.ndarray,
    lengths: np.ndarray,
) -> int:
    """Longer deals that reach a trick-boundary position of ``deal``'s game (two players, 26
    cards each): play the game forward trick by trick (M1-M8) and unplay from each of its first
    ``max_tricks`` boundaries (:func:`unplay_search`). A deal found from a boundary reached
    after ``c`` cards of a game of ``L`` cards plays the cards it puts back and then ``L - c``
    more. The longest (predicted) go to the rows of ``found`` and ``lengths``, each deal once;
    returns how many rows were filled. The caller plays them forward to confirm (a loop may
    come first, M10)."""
    w8, w64 = scratch()
    load(deal, np.array([26, 26], np.int64), 2, w8, w64)
    starts = np.zeros((max_tricks, 52), np.int8)
    sizes = np.zeros((max_tricks, 2), np.int64)
    leads = np.zeros(max_tricks, np.int64)
    at = np.zeros(max_tricks, np.int64)
    # int64 from the start, not literals: one compilation of play_trick for this call.
    zero: int = np.int64(0)  # type: ignore[assignment]
    cards = lead = zero
    count = 0
    while count < max_tricks:
        outcome, lead, _, _, cards = play_trick(2, CAPTURE, w8, w64, 0, 2, lead, cards)
        if outcome != 0:
            break
        hands_into(w8, w64, 2, starts[count], sizes[count])
        leads[count] = lead
        at[count] = cards
        count += 1
    if count == max_tricks:
        # The game goes on past the boundaries unplayed from: its length is still to come.
        while True:
            outcome, lead, _, _, cards = play_trick(2, CAPTURE, w8, w64, 0, 2, lead, cards)
            if outcome != 0:
                break
            if cards > 1 << 24:
                return 0
    total = cards
    filled: int = np.int64(0)  # type: ignore[assignment]
    some = np.zeros((found.shape[0], 52), np.int8)
    extra = np.zeros((found.shape[0], 2), np.int64)
    for t in range(count):
        k = unplay_search(starts[t], sizes[t, 0], leads[t], budget, max_depth, some, extra)
        for r in range(k):
            if _holds(found, filled, some[r]):
                # Found again from a later boundary of the same game: it passes through both.
                continue
            length = extra[r, 0] + total - at[t]
            row = filled
            if filled == found.shape[0]:
                row = int(np.argmin(lengths[:filled]))
                if lengths[row] >= length:
                    continue
            else:
                filled += 1
            found[row, :] = some[r]
            lengths[row] = length
    return filled
