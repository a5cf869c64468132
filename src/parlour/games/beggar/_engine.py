"""The compiled Beggar-My-Neighbour engine behind :mod:`parlour.games.beggar.fast` (numba):
any number of players, card limits (M11), loop detection (M10), and the random deals.

Cards are their class, as M10 compares them: 0 for a number card, 1-4 for J, Q, K, A (the cards
each demands, M1). A hand is a ring buffer of 64 cards (a hand never holds more than 52), so
capturing the pile (M2) appends at the tail and turning a card advances the head; nothing is
allocated per deal. Every function here mirrors a step of ``rules.py`` so that the figures agree
with it deal by deal (M1-M11); ``tests/games/beggar/test_fast.py`` checks that they do.

Loop detection (M10) uses Brent's cycle finder on trick-boundary positions: one saved position
and one comparison per trick, which fails on the hand sizes almost always. When it finds a cycle
of ``lam`` tricks, the deal is replayed to find where the cycle starts, so the figures are those
of the first repeat, exactly as ``rules.py`` reports them.

The kernels are typed for numba only; :mod:`.fast` is the typed Python API.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Results, as in rules.py's Outcome.result.
WIN = 0
LOOP = 1
LIMIT = 2
# M4 modes.
CAPTURE = 0
NEXT_PLAYER = 1
# "No card limit": beyond any game a computer plays.
NO_LIMIT = 1 << 62

_RING = 64
_MASK = 63
# Trick outcomes inside the game loop.
_T_CAPTURE = 0
_T_WIN = 1
_T_LIMIT = 2

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)



@njit(cache=True, nogil=True, inline="always")
def mix(z: np.uint64) -> np.uint64:
    """The splitmix64 finaliser: a 64-bit value to a well-mixed one."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True, inline="always")
def draw(z: np.uint64, bound: int) -> np.int64:
    """A 32-bit half of a draw to ``0..bound-1`` by a multiply-shift (bias below 2**-26)."""
    return np.int64(((z & _LOW32) * np.uint64(bound)) >> _S32)


@njit(cache=True, nogil=True)
def court_positions(seed: int, index: int, pos: np.ndarray) -> None:
    """Deal ``index`` of ``seed``'s stream: ``pos[0:16]`` get the deck positions of the 4 J, 4 Q,
    4 K and 4 A (in that order) of a uniformly shuffled deck.

    A partial Fisher-Yates shuffle of the 52 positions: the 36 number cards are all alike in
    play (M10), so placing the 16 court cards deals the whole deck. Each deal has a generator
    of its own (splitmix64 seeded from seed and index), so a batch gives the same deals however
    it is split over workers; each 64-bit draw serves two positions."""
    state = mix(np.uint64(seed) * _GOLDEN + np.uint64(index) * _STREAM + _STREAM)
    for i in range(52):
        pos[i] = i
    for i in range(0, 16, 2):
        state += _GOLDEN
        z = mix(state)
        j = i + draw(z, 52 - i)
        t = pos[i]
        pos[i] = pos[j]
        pos[j] = t
        j = i + 1 + draw(z >> _S32, 51 - i)
        t = pos[i + 1]
        pos[i + 1] = pos[j]
        pos[j] = t


@njit(cache=True, nogil=True)
def random_deal_into(seed: int, index: int, pos: np.ndarray, out: np.ndarray) -> None:
    """Deal ``index`` of ``seed``'s stream as 52 classes (hands one after another, M7 sizes)."""
    court_positions(seed, index, pos)
    for i in range(52):
        out[i] = 0
    for i in range(16):
        out[pos[i]] = 1 + (i >> 2)


@njit(cache=True, nogil=True, inline="always")
def _load(deal: np.ndarray, sizes: np.ndarray, n: int, hb: np.ndarray, hd: np.ndarray,
          tl: np.ndarray, out: np.ndarray) -> None:
    """M7/M9: the hands of ``deal`` (seat by seat, top card first) into the ring buffers."""
    off = 0
    for s in range(n):
        k = sizes[s]
        for j in range(k):
            hb[s, j] = deal[off + j]
        hd[s] = 0
        tl[s] = k
        out[s] = 0
        off += k


@njit(cache=True, nogil=True, inline="always")
def _take(hb: np.ndarray, tl: np.ndarray, seat: int, pile: np.ndarray, size: int) -> None:
    """M2: the pile goes under ``seat``'s hand in the order played."""
    t = tl[seat]
    for i in range(size):
        hb[seat, (t + i) & _MASK] = pile[i]
    tl[seat] = t + size


@njit(cache=True, nogil=True, inline="always")
def _next_in(out: np.ndarray, n: int, seat: int) -> int:
    """M5: the next player clockwise who is still in."""
    nxt = seat + 1 if seat + 1 < n else 0
    while out[nxt]:
        nxt = nxt + 1 if nxt + 1 < n else 0
    return nxt


@njit(cache=True, nogil=True)
def _save(hb: np.ndarray, hd: np.ndarray, tl: np.ndarray, n: int, lead: int,
          snap: np.ndarray, meta: np.ndarray) -> None:
    """Keep a trick-boundary position (M10: the hands by class in order, and the lead)."""
    meta[0] = lead
    off = 0
    for s in range(n):
        k = tl[s] - hd[s]
        meta[1 + s] = k
        h = hd[s]
        for j in range(k):
            snap[off + j] = hb[s, (h + j) & _MASK]
        off += k


@njit(cache=True, nogil=True, inline="always")
def _same(hb: np.ndarray, hd: np.ndarray, tl: np.ndarray, n: int, lead: int,
          snap: np.ndarray, meta: np.ndarray) -> bool:
    """Whether the position is the kept one; the hand sizes settle it almost always."""
    if meta[0] != lead:
        return False
    for s in range(n):
        if tl[s] - hd[s] != meta[1 + s]:
            return False
    off = 0
    for s in range(n):
        h = hd[s]
        k = meta[1 + s]
        for j in range(k):
            if hb[s, (h + j) & _MASK] != snap[off + j]:
                return False
        off += k
    return True


@njit(cache=True, nogil=True)
def _trick(n: int, mode: int, hb: np.ndarray, hd: np.ndarray, tl: np.ndarray,
           out: np.ndarray, pile: np.ndarray, n_in: int, lead: int, cards: int,
           lim: np.ndarray) -> tuple[int, int, int, int]:
    """Play one trick from a trick boundary, any number of players, as rules.py does.

    Returns ``(outcome, seat, players_in, cards)``: a capture (``seat`` leads next), a win
    (``seat`` wins; the last pile counts as a trick, M6/M8) or the card limit (M11). The
    limit is checked before a card is placed, that is after everything the previous card
    settled (capture, outs, end); ``lim`` is ``[limit, stop, hit, cards, counts...]``."""
    p = lead
    owed = 0
    court = -1
    size = 0
    while True:
        if cards >= lim[0]:
            # M11: record who holds most cards now; stop, or play on for M10's sake.
            lim[2] = 1
            lim[3] = cards
            for s in range(n):
                lim[5 + s] = tl[s] - hd[s]
            lim[0] = NO_LIMIT
            if lim[1]:
                return _T_LIMIT, -1, n_in, cards
        # Seed text: turn the top card (M8 counts it).
        c = hb[p, hd[p] & _MASK]
        hd[p] += 1
        pile[size] = c
        size += 1
        cards += 1
        capturer = -1
        if c != 0:
            # M1: a court card demands 1-4 cards of the next player, ending any payment.
            owed = c
            court = p
            p = _next_in(out, n, p)
        elif owed != 0:
            owed -= 1
            if owed == 0:
                capturer = court
        else:
            p = _next_in(out, n, p)
        if capturer < 0:
            # M3: the player who must play and has no card is out.
            while tl[p] == hd[p]:
                out[p] = 1
                n_in -= 1
                if n_in == 1:
                    # M6: the last player in takes the pile (a trick, M8) and wins.
                    winner = _next_in(out, n, p)
                    _take(hb, tl, winner, pile, size)
                    return _T_WIN, winner, n_in, cards
                if owed != 0 and mode == CAPTURE:
                    # M4 default: the court card's player captures, the rest is forgiven.
                    capturer = court
                    break
                # M4 next_player (or no payment running): the next player in plays on.
                p = _next_in(out, n, p)
        if capturer >= 0:
            _take(hb, tl, capturer, pile, size)
            # M5: at the end of the trick every other player without a card is out.
            for k in range(1, n):
                o = (capturer + k) % n
                if out[o] == 0 and tl[o] == hd[o]:
                    out[o] = 1
                    n_in -= 1
            if n_in == 1:
                return _T_WIN, capturer, n_in, cards
            return _T_CAPTURE, capturer, n_in, cards


@njit(cache=True, nogil=True)
def trick2(hb: np.ndarray, hd: np.ndarray, tl: np.ndarray, pile: np.ndarray, lead: int,
            cards: int, lim: np.ndarray) -> tuple[int, int, int]:
    """:func:`_trick` for two players, where the next player is always the other one and a
    player out ends the game (M6), so M4 never arises. Returns ``(outcome, seat, cards)``."""
    p = lead
    owed = 0
    court = 0
    size = 0
    limit = lim[0]
    while True:
        if tl[p] == hd[p]:
            # M3/M6: the player who must play has no card: the other takes the pile, wins.
            _take(hb, tl, 1 - p, pile, size)
            return _T_WIN, 1 - p, cards
        if cards >= limit:
            lim[2] = 1
            lim[3] = cards
            lim[5] = tl[0] - hd[0]
            lim[6] = tl[1] - hd[1]
            lim[0] = NO_LIMIT
            limit = NO_LIMIT
            if lim[1]:
                return _T_LIMIT, -1, cards
        c = hb[p, hd[p] & _MASK]
        hd[p] += 1
        pile[size] = c
        size += 1
        cards += 1
        if c != 0:
            owed = c
            court = p
            p ^= 1
        elif owed != 0:
            owed -= 1
            if owed == 0:
                _take(hb, tl, court, pile, size)
                if tl[1 - court] == hd[1 - court]:
                    return _T_WIN, court, cards
                return _T_CAPTURE, court, cards
        else:
            p ^= 1


@njit(cache=True, nogil=True)
def loop_start(n: int, mode: int, deal: np.ndarray, sizes: np.ndarray,
                lam: int) -> tuple[int, int, int]:
    """M10 figures of a deal whose trick-boundary positions repeat every ``lam`` tricks:
    replay it twice, ``lam`` tricks apart, until the positions meet. Returns the first
    repeated boundary ``mu`` with the cards played by then and by ``mu + lam``."""
    hb_a = np.zeros((4, _RING), np.int8)
    hb_b = np.zeros((4, _RING), np.int8)
    hd_a = np.zeros(4, np.int64)
    hd_b = np.zeros(4, np.int64)
    tl_a = np.zeros(4, np.int64)
    tl_b = np.zeros(4, np.int64)
    out_a = np.zeros(4, np.int8)
    out_b = np.zeros(4, np.int8)
    pile = np.zeros(_RING, np.int8)
    snap = np.zeros(52, np.int8)
    meta = np.zeros(5, np.int64)
    lim = np.zeros(9, np.int64)
    lim[0] = NO_LIMIT
    _load(deal, sizes, n, hb_a, hd_a, tl_a, out_a)
    _load(deal, sizes, n, hb_b, hd_b, tl_b, out_b)
    in_a = n
    in_b = n
    lead_a = 0
    lead_b = 0
    cards_a = 0
    cards_b = 0
    for _ in range(lam):
        _, lead_b, in_b, cards_b = _trick(n, mode, hb_b, hd_b, tl_b, out_b, pile, in_b,
                                          lead_b, cards_b, lim)
    mu = 0
    while True:
        _save(hb_a, hd_a, tl_a, n, lead_a, snap, meta)
        if _same(hb_b, hd_b, tl_b, n, lead_b, snap, meta):
            return mu, cards_a, cards_b
        _, lead_a, in_a, cards_a = _trick(n, mode, hb_a, hd_a, tl_a, out_a, pile, in_a,
                                          lead_a, cards_a, lim)
        _, lead_b, in_b, cards_b = _trick(n, mode, hb_b, hd_b, tl_b, out_b, pile, in_b,
                                          lead_b, cards_b, lim)
        mu += 1


@njit(cache=True, nogil=True)
def play_game(n: int, mode: int, limit: int, detect: bool, deal: np.ndarray,
              sizes: np.ndarray, hb: np.ndarray, hd: np.ndarray, tl: np.ndarray,
              out: np.ndarray, pile: np.ndarray, snap: np.ndarray, meta: np.ndarray,
              lim: np.ndarray, res: np.ndarray) -> None:
    """Play one deal to its end (M6), loop (M10) or card limit (M11).

    ``res`` receives ``[result, winners bitmask, cards, tricks, cycle start cards, cycle start
    tricks]`` (the cycle fields are -1 without a loop). The other arrays are scratch space.
    With loop detection and a card limit both on, play goes on past the limit until Brent's
    finder would have seen any repeat from before the limit (within 3x the tricks played),
    so a loop seen by rules.py before the limit is reported as a loop."""
    _load(deal, sizes, n, hb, hd, tl, out)
    lim[0] = limit
    lim[1] = 0 if detect else 1
    lim[2] = 0
    lim[4] = -1
    n_in = n
    lead = 0
    cards = 0
    tricks = 0
    power = 1
    lam = 1
    if detect:
        _save(hb, hd, tl, n, lead, snap, meta)
    while True:
        if n == 2:
            outcome, seat, cards = trick2(hb, hd, tl, pile, lead, cards, lim)
        else:
            outcome, seat, n_in, cards = _trick(n, mode, hb, hd, tl, out, pile, n_in, lead,
                                                cards, lim)
        if lim[2] and lim[4] < 0:
            # The limit was reached during this trick: the tricks before it count (M8).
            lim[4] = tricks
        if outcome == _T_LIMIT:
            break
        tricks += 1
        if outcome == _T_WIN:
            if lim[2]:
                break
            res[0] = WIN
            res[1] = 1 << seat
            res[2] = cards
            res[3] = tricks
            res[4] = -1
            res[5] = -1
            return
        lead = seat
        if detect:
            # M10: a trick-boundary position seen before repeats forever.
            if _same(hb, hd, tl, n, lead, snap, meta):
                mu, start_cards, found_cards = loop_start(n, mode, deal, sizes, lam)
                if lim[2] and mu + lam > lim[4]:
                    break
                res[0] = LOOP
                res[1] = 0
                res[2] = found_cards
                res[3] = mu + lam
                res[4] = start_cards
                res[5] = mu
                return
            if power == lam:
                _save(hb, hd, tl, n, lead, snap, meta)
                power *= 2
                lam = 0
            lam += 1
            if lim[2] and tricks > 3 * lim[4] + 4:
                break
    # M11: the player(s) holding most cards when the limit was reached; ties share.
    top = 0
    for s in range(n):
        top = max(top, lim[5 + s])
    won = 0
    for s in range(n):
        if lim[5 + s] == top:
            won |= 1 << s
    res[0] = LIMIT
    res[1] = won
    res[2] = lim[3]
    res[3] = lim[4]
    res[4] = -1
    res[5] = -1


@njit(cache=True, nogil=True)
def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                       np.ndarray, np.ndarray]:
    """The scratch arrays of :func:`play_game`, made once per batch."""
    return (
        np.zeros((4, _RING), np.int8),
        np.zeros(4, np.int64),
        np.zeros(4, np.int64),
        np.zeros(4, np.int8),
        np.zeros(_RING, np.int8),
        np.zeros(52, np.int8),
        np.zeros(5, np.int64),
        np.zeros(9, np.int64),
    )


@njit(cache=True, nogil=True)
def deal_sizes(n: int) -> np.ndarray:
    """M7: hand sizes when 52 cards are dealt one at a time from seat 0 (18/17/17)."""
    sizes = np.empty(n, np.int64)
    for s in range(n):
        sizes[s] = 52 // n + (1 if s < 52 % n else 0)
    return sizes
