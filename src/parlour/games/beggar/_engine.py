"""The compiled Beggar-My-Neighbour engine behind :mod:`parlour.games.beggar.fast` (numba):
any number of players, card by card, with card limits (M11) and loop detection (M10).

Cards are their class, as M10 compares them: 0 for a number card, 1-4 for J, Q, K, A (the cards
each demands, M1). A hand is a ring buffer of 64 cards (a hand never holds more than 52), so
capturing the pile (M2) appends at the tail and turning a card advances the head; nothing is
allocated per deal. Every function here mirrors a step of ``rules.py`` so that the figures agree
with it deal by deal (M1-M11); ``tests/games/beggar/test_fast.py`` checks that they do.

One trick rule, :func:`turn` (what a card turned does, M1, M2), and one trick for any number of
players, :func:`trick`, serve play and search (:func:`play_game`) and backward play
(:mod:`._backward`, which also checks the tricks it unplays with :func:`turn`). Only the
two-player bit planes (:mod:`._bits`) have a trick of their own: a run of cards in one step.

Speed: a deal's state lives in two flat scratch arrays (``w8`` cards, ``w64`` counters) and the
trick is inlined into :func:`play_game`: every array a numba call passes costs two atomic
reference counts, which used to outweigh the play. Who is out (M5) is a bit mask.

Loop detection (M10) uses Brent's cycle finder on trick-boundary positions: one saved position
and one comparison per trick, which fails on the hand sizes almost always. When it finds a cycle
of ``lam`` tricks, the deal is replayed to find where the cycle starts, so the figures are those
of the first repeat, exactly as ``rules.py`` reports them.
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

# The two scratch arrays of a deal in play (scratch()): a call that takes them counts two refs.
# w8 (int8): the hands' ring buffers (seat s at s * 64), the pile, the kept M10 position.
_PILE = 4 * _RING
_SNAP = _PILE + _RING
_W8 = _SNAP + 52
# w64 (int64): heads and tails of the rings, the kept position's lead and hand sizes, and when
# the card limit was reached (M11): whether it was, cards and tricks by then, cards each held.
_HD = 0
_TL = 4
_KEPT = 8
_HIT = 13
_HIT_CARDS = 14
_HIT_TRICKS = 15
_HELD = 16
_W64 = 20


@njit(cache=True, nogil=True, inline="always")
def load(deal: np.ndarray, sizes: np.ndarray, n: int, w8: np.ndarray, w64: np.ndarray) -> None:
    """M7/M9: the hands of ``deal`` (seat by seat, top card first) into the ring buffers; no
    card limit reached yet (M11)."""
    off = 0
    for s in range(n):
        k = sizes[s]
        base = s << 6
        for j in range(k):
            w8[base + j] = deal[off + j]
        w64[_HD + s] = 0
        w64[_TL + s] = k
        off += k
    w64[_HIT] = 0
    w64[_HIT_TRICKS] = -1


@njit(cache=True, nogil=True, inline="always")
def _ix(i: int) -> np.uint64:
    """An index numba knows is not negative: no wraparound (compare, select) at each access."""
    return np.uint64(i)


@njit(cache=True, nogil=True, inline="always")
def _next_seat(outs: int, n: int, seat: int) -> int:
    """M5: the next player clockwise who is still in (``outs`` has bit ``s`` set when seat
    ``s`` is out)."""
    nxt = seat + 1 if seat + 1 < n else 0
    while (outs >> nxt) & 1:
        nxt = nxt + 1 if nxt + 1 < n else 0
    return nxt


@njit(cache=True, nogil=True, inline="always")
def turn(n: int, outs: int, p: int, c: int, owed: int, court: int) -> tuple[int, int, int, bool]:
    """The kernel's one trick rule (M1, M2, M5): seat ``p`` turned card ``c`` while ``owed``
    cards were due to seat ``court``'s court card (0: none). Returns ``(p, owed, court,
    captured)``: the seat to turn next, what is then owed to whom, and whether the payment is
    complete (``court`` takes the pile, M2). Whether the seat due holds a card (M3) is the
    caller's to check."""
    if c != 0:
        # M1: a court card demands 1-4 cards of the next player, ending any payment.
        return (p ^ 1 if n == 2 else _next_seat(outs, n, p)), c, p, False
    if owed != 0:
        # A payment goes on; M2: the last card owed completes it.
        return p, owed - 1, court, owed == 1
    # Seed text: the next player turns a card.
    return (p ^ 1 if n == 2 else _next_seat(outs, n, p)), 0, court, False


@njit(cache=True, nogil=True, inline="always")
def trick(
    n: int,
    mode: int,
    w8: np.ndarray,
    w64: np.ndarray,
    outs: int,
    n_in: int,
    lead: int,
    cards: int,
    limit: int,
    stop: bool,
) -> tuple[int, int, int, int, int, int]:
    """One trick of any number of players from a trick boundary (the leader holds a card), as
    rules.py plays it: the cards turned go through :func:`turn` (M1, M2), a player due with no
    card is out (M3, M5), M4 in ``mode`` when the payer runs out, and the game ends when one
    player is left (M6; with two players, as soon as the one due has no card).

    Returns ``(outcome, seat, outs, players_in, cards, limit)``: a capture (``seat`` leads
    next), a win (``seat`` wins; the last pile counts as a trick, M6/M8) or the card limit
    (M11, when ``stop``); ``outs`` is the bit mask of the seats that are out. The limit is
    checked before a card is placed, after everything the previous card settled; once
    reached, the cards held are recorded in ``w64`` and it comes back as ``NO_LIMIT``. No
    helper here takes an array: numba would count references to it at every card."""
    outcome = _T_CAPTURE
    p = lead
    owed = 0
    court = -1
    size = 0
    while True:
        h = w64[_ix(_HD + p)]
        if h == w64[_ix(_TL + p)]:
            # M3: the player who must play and has no card is out.
            outs |= 1 << p
            n_in -= 1
            if n_in == 1:
                # M6: the last player in takes the pile (a trick, M8) and wins.
                outcome = _T_WIN
                capturer = _next_seat(outs, n, p)
                break
            if owed != 0 and mode == CAPTURE:
                # M4 default: the court card's player captures, the rest is forgiven.
                capturer = court
                break
            # M4 next_player (or no payment running): the next player in plays on.
            p = _next_seat(outs, n, p)
            continue
        if cards >= limit:
            # M11: record who holds most cards now; stop, or play on for M10's sake.
            w64[_HIT] = 1
            w64[_HIT_CARDS] = cards
            for s in range(n):
                w64[_HELD + s] = w64[_TL + s] - w64[_HD + s]
            limit = NO_LIMIT
            if stop:
                return _T_LIMIT, -1, outs, n_in, cards, limit
        # Seed text: turn the top card (M8 counts it).
        c = w8[_ix((p << 6) + (h & _MASK))]
        w64[_ix(_HD + p)] = h + 1
        w8[_ix(_PILE + size)] = c
        size += 1
        cards += 1
        p, owed, court, captured = turn(n, outs, p, c, owed, court)
        if captured:
            capturer = court
            break
    # M2: the pile goes under the taker's hand in the order played.
    t = w64[_ix(_TL + capturer)]
    base = capturer << 6
    for i in range(size):
        w8[_ix(base + ((t + i) & _MASK))] = w8[_ix(_PILE + i)]
    w64[_ix(_TL + capturer)] = t + size
    if outcome == _T_CAPTURE:
        # M5: at the end of the trick every other player without a card is out.
        for o in range(n):
            if o != capturer and not (outs >> o) & 1 and w64[_ix(_TL + o)] == w64[_ix(_HD + o)]:
                outs |= 1 << o
                n_in -= 1
        if n_in == 1:
            outcome = _T_WIN
    return outcome, capturer, outs, n_in, cards, limit


@njit(cache=True, nogil=True)
def hands_into(w8: np.ndarray, w64: np.ndarray, n: int, out: np.ndarray, sizes: np.ndarray) -> None:
    """The hands in play (seat by seat, top card first) into ``out`` and their sizes into
    ``sizes``: the position as a deal of :func:`load`."""
    off = 0
    for s in range(n):
        h = w64[_HD + s]
        k = w64[_TL + s] - h
        sizes[s] = k
        base = s << 6
        for j in range(k):
            out[off + j] = w8[base + ((h + j) & _MASK)]
        off += k


@njit(cache=True, nogil=True)
def play_trick(
    n: int, mode: int, w8: np.ndarray, w64: np.ndarray, outs: int, n_in: int, lead: int, cards: int
) -> tuple[int, int, int, int, int]:
    """:func:`trick` without a card limit, called rather than inlined: for the paths that play
    few tricks (where a loop starts, M10; backward play), so that it is compiled once for them.
    Returns ``(outcome, seat, outs, players_in, cards)``."""
    outcome, seat, outs, n_in, cards, _ = trick(
        n, mode, w8, w64, outs, n_in, lead, cards, NO_LIMIT, False
    )
    return outcome, seat, outs, n_in, cards


@njit(cache=True, nogil=True, inline="always")
def _keep(
    w8: np.ndarray, w64: np.ndarray, n: int, lead: int, k8: np.ndarray, k64: np.ndarray
) -> None:
    """M10: keep the trick-boundary position of ``w8``/``w64`` (the hands by class in order,
    and the lead) in the kept-position fields of ``k8``/``k64``."""
    k64[_KEPT] = lead
    off = _SNAP
    for s in range(n):
        h = w64[_HD + s]
        k = w64[_TL + s] - h
        k64[_KEPT + 1 + s] = k
        base = s << 6
        for j in range(k):
            k8[off + j] = w8[base + ((h + j) & _MASK)]
        off += k


@njit(cache=True, nogil=True, inline="always")
def _same(w8: np.ndarray, w64: np.ndarray, n: int, lead: int) -> bool:
    """M10: whether the position is the kept one; the lead and hand sizes settle it almost
    always, before any card is compared."""
    if w64[_KEPT] != lead:
        return False
    for s in range(n):
        if w64[_ix(_TL + s)] - w64[_ix(_HD + s)] != w64[_ix(_KEPT + 1 + s)]:
            return False
    off = _SNAP
    for s in range(n):
        h = w64[_HD + s]
        k = w64[_KEPT + 1 + s]
        base = s << 6
        for j in range(k):
            if w8[_ix(base + ((h + j) & _MASK))] != w8[_ix(off + j)]:
                return False
        off += k
    return True


@njit(cache=True, nogil=True)
def loop_start(
    n: int, mode: int, deal: np.ndarray, sizes: np.ndarray, lam: int
) -> tuple[int, int, int]:
    """M10 figures of a deal whose trick-boundary positions repeat every ``lam`` tricks:
    replay it twice, ``lam`` tricks apart, until the positions meet. Returns the first
    repeated boundary ``mu`` with the cards played by then and by ``mu + lam``."""
    a8, a64 = scratch()
    b8, b64 = scratch()
    load(deal, sizes, n, a8, a64)
    load(deal, sizes, n, b8, b64)
    # Counters typed int64 from the start (not the literal 0 numba would first give them):
    # each literal seen in a call's arguments is one more compilation of the callee. (An int
    # to the type checker: numba's int64 is one.)
    zero: int = np.int64(0)  # type: ignore[assignment]
    outs_a = outs_b = lead_a = lead_b = cards_a = cards_b = zero
    in_a = n
    in_b = n
    for _ in range(lam):
        _, lead_b, outs_b, in_b, cards_b = play_trick(
            n, mode, b8, b64, outs_b, in_b, lead_b, cards_b
        )
    mu = 0
    while True:
        _keep(a8, a64, n, lead_a, b8, b64)
        if _same(b8, b64, n, lead_b):
            return mu, cards_a, cards_b
        _, lead_a, outs_a, in_a, cards_a = play_trick(
            n, mode, a8, a64, outs_a, in_a, lead_a, cards_a
        )
        _, lead_b, outs_b, in_b, cards_b = play_trick(
            n, mode, b8, b64, outs_b, in_b, lead_b, cards_b
        )
        mu += 1


@njit(cache=True, nogil=True)
def play_game(
    n: int,
    mode: int,
    limit: int,
    detect: bool,
    deal: np.ndarray,
    sizes: np.ndarray,
    w8: np.ndarray,
    w64: np.ndarray,
    res: np.ndarray,
) -> None:
    """Play one deal to its end (M6), loop (M10) or card limit (M11).

    ``res`` receives ``[result, winners bitmask, cards, tricks, cycle start cards, cycle start
    tricks]`` (the cycle fields are -1 without a loop). ``w8`` and ``w64`` are scratch space
    (:func:`scratch`). M10 uses Brent's cycle finder on trick-boundary positions. With loop
    detection and a card limit both on, play goes on past the limit until Brent's finder would
    have seen any repeat from before the limit (within 3x the tricks played), so a loop seen by
    rules.py before the limit is reported as a loop."""
    load(deal, sizes, n, w8, w64)
    stop = not detect
    outs = 0
    n_in = n
    lead = 0
    cards = 0
    tricks = 0
    power = 1
    lam: int = np.int64(1)  # type: ignore[assignment]  # int64 at once: see loop_start
    if detect:
        _keep(w8, w64, n, lead, w8, w64)
    while True:
        if n == 2:
            # The same trick with the player count a constant: the compiler drops what only
            # three or four players need (M4, M5's search for the next player in).
            outcome, seat, outs, n_in, cards, limit = trick(
                2, mode, w8, w64, outs, n_in, lead, cards, limit, stop
            )
        else:
            outcome, seat, outs, n_in, cards, limit = trick(
                n, mode, w8, w64, outs, n_in, lead, cards, limit, stop
            )
        hit = w64[_HIT] != 0
        if hit and w64[_HIT_TRICKS] < 0:
            # The limit was reached during this trick: the tricks before it count (M8).
            w64[_HIT_TRICKS] = tricks
        if outcome == _T_LIMIT:
            break
        tricks += 1
        if outcome == _T_WIN:
            if hit:
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
            if _same(w8, w64, n, lead):
                mu, start_cards, found_cards = loop_start(n, mode, deal, sizes, lam)
                if hit and mu + lam > w64[_HIT_TRICKS]:
                    break
                res[0] = LOOP
                res[1] = 0
                res[2] = found_cards
                res[3] = mu + lam
                res[4] = start_cards
                res[5] = mu
                return
            if power == lam:
                _keep(w8, w64, n, lead, w8, w64)
                power *= 2
                lam = 0
            lam += 1
            if hit and tricks > 3 * w64[_HIT_TRICKS] + 4:
                break
    # M11: the player(s) holding most cards when the limit was reached; ties share.
    top = 0
    for s in range(n):
        top = max(top, w64[_HELD + s])
    won = 0
    for s in range(n):
        if w64[_HELD + s] == top:
            won |= 1 << s
    res[0] = LIMIT
    res[1] = won
    res[2] = w64[_HIT_CARDS]
    res[3] = w64[_HIT_TRICKS]
    res[4] = -1
    res[5] = -1


@njit(cache=True, nogil=True)
def scratch() -> tuple[np.ndarray, np.ndarray]:
    """The scratch arrays of :func:`play_game` (``w8`` and ``w64``), made once per batch."""
    return np.zeros(_W8, np.int8), np.zeros(_W64, np.int64)
