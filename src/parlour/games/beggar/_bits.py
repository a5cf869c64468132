"""Two-player Beggar-My-Neighbour on bit planes: the fast path of :mod:`.fast` (numba).

A hand holds at most 52 cards, so it fits in 64 bits: bit ``j`` of three bit planes describes
the card ``j`` from the top. Plane ``c`` marks court cards; for a court card, planes ``u`` and
``w`` hold its class less one (J=0, Q=1, K=2, A=3); a number card is all zeros. Turning ``k``
cards is a shift, capturing the pile is a shift and an or (M2), and the first court card among
a player's next cards is one count-trailing-zeros instruction. So a trick costs a few operations
per court card played instead of a few per card, and the pile needs no more than the positions
of its court cards: between two court cards every card turned is a number card.

An M10 position (both hands and the lead) is seven machine words, so Brent's cycle finder costs
one comparison per trick. Card limits (M11) and three or four players go through the per-card
engine of :mod:`._engine`; both are checked against ``rules.py`` deal by deal.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

from parlour.games.beggar._engine import CAPTURE, LOOP, WIN, loop_start
from parlour.games.beggar._random import court_positions

_LOW26 = (1 << 26) - 1


@intrinsic
def _cttz(typingctx, src):  # type: ignore[no-untyped-def]
    """Trailing zero bits of an integer (its width for 0): LLVM's cttz, one instruction."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return src(src), codegen


@njit(cache=True, nogil=True, inline="always")
def _ctz(x: int) -> int:
    """Trailing zero bits of ``x``: the index of its lowest set bit, or 64 for 0."""
    return _cttz(x)  # type: ignore[call-arg]


@njit(cache=True, nogil=True, inline="always")
def _class_at(u: int, w: int, j: int) -> int:
    """The class (1-4, M1) of the court card at bit ``j``."""
    return 1 + ((u >> j) & 1) + (((w >> j) & 1) << 1)


@njit(cache=True, nogil=True)
def planes(deal: np.ndarray, start: int, size: int) -> tuple[int, int, int]:
    """The bit planes ``(c, u, w)`` of the hand ``deal[start:start + size]`` (classes)."""
    c = 0
    u = 0
    w = 0
    for j in range(size):
        v = int(deal[start + j])
        court = int(v != 0)
        low = (v - 1) & 3
        c |= court << j
        u |= (low & court & 1) << j
        w |= ((low >> 1) & court) << j
    return c, u, w


@njit(cache=True, nogil=True)
def deal_of_planes(
    xc: int, xu: int, xw: int, lx: int, yc: int, yu: int, yw: int, ly: int
) -> np.ndarray:
    """The 52 classes of a two-player deal given as bit planes (seat 0 first)."""
    deal = np.zeros(52, np.int8)
    for j in range(lx):
        if (xc >> j) & 1:
            deal[j] = _class_at(xu, xw, j)
    for j in range(ly):
        if (yc >> j) & 1:
            deal[lx + j] = _class_at(yu, yw, j)
    return deal


@njit(cache=True, nogil=True)
def random_planes(seed: int, index: int, pos: np.ndarray) -> tuple[int, int, int, int, int, int]:
    """Deal ``index`` of ``seed``'s stream (that of :func:`._random.random_deal_into`) as the
    bit planes of two hands of 26 cards: ``(xc, xu, xw, yc, yu, yw)``."""
    court_positions(seed, index, pos)
    c = 0
    u = 0
    w = 0
    for i in range(16):
        q = int(pos[i])
        low = i >> 2
        c |= 1 << q
        u |= (low & 1) << q
        w |= (low >> 1) << q
    return c & _LOW26, u & _LOW26, w & _LOW26, c >> 26, u >> 26, w >> 26


@njit(cache=True, nogil=True)
def play_game2(
    xc: int,
    xu: int,
    xw: int,
    lx: int,
    yc: int,
    yu: int,
    yw: int,
    ly: int,
    detect: bool,
    res: np.ndarray,
) -> None:
    """Play a two-player deal (seat 0's planes, then seat 1's) with no card limit, as
    ``rules.py`` does (M1-M8, M10); ``res`` as in :func:`._engine.play_game`.

    ``x`` is the hand of seat ``xs``: the leader at a trick boundary, the court card's player
    during a payment; ``y`` is the other hand."""
    start = (xc, xu, xw, lx, yc, yu, yw, ly)
    xs = 0
    cards = 0
    tricks = 0
    # Brent's cycle finder (M10): the kept position and its counters.
    s_xs = xs
    s_lx = lx
    s_xc, s_xu, s_xw, s_yc, s_yu, s_yw = xc, xu, xw, yc, yu, yw
    power = 1
    lam: int = np.int64(1)  # type: ignore[assignment]  # int64 at once: see loop_start
    while True:
        # The lead: x and y turn one card each in turn until a court card (M1) or an empty
        # hand (M3): x's cards go to the even places of the pile, y's to the odd ones.
        kx = _ctz(xc)
        ky = _ctz(yc)
        e = min(min(2 * kx, 2 * ky + 1), min(2 * lx, 2 * ly + 1))
        odd = e & 1
        m = -odd
        court = e == ((2 * kx) ^ (((2 * kx) ^ (2 * ky + 1)) & m))
        placed = e + 1 if court else e
        na = (placed + 1) >> 1
        nb = placed >> 1
        cards += placed
        if not court:
            # M3/M6: the player due has no card; the other takes the pile (M8) and wins.
            tricks += 1
            res[0] = WIN
            res[1] = 1 << (xs if odd else 1 - xs)
            break
        vx = _class_at(xu, xw, kx & 63)
        v = vx ^ ((vx ^ _class_at(yu, yw, ky & 63)) & m)
        xc >>= na
        xu >>= na
        xw >>= na
        lx -= na
        yc >>= nb
        yu >>= nb
        yw >>= nb
        ly -= nb
        size = placed
        low = v - 1
        pc = 1 << (size - 1)
        pu = (low & 1) << (size - 1)
        pw = (low >> 1) << (size - 1)
        # The court card's player becomes x (a swap without a branch: odd is a coin toss).
        t = (xc ^ yc) & m
        xc ^= t
        yc ^= t
        t = (xu ^ yu) & m
        xu ^= t
        yu ^= t
        t = (xw ^ yw) & m
        xw ^= t
        yw ^= t
        t = (lx ^ ly) & m
        lx ^= t
        ly ^= t
        xs ^= odd
        # Payments: y pays v cards unless he turns a court card first (M1) or runs out (M3).
        while True:
            k = _ctz(yc)
            again = k < v
            turned = _class_at(yu, yw, k & 63)
            k = k + 1 if again else min(v, ly)
            yc >>= k
            yu >>= k
            yw >>= k
            ly -= k
            size += k
            cards += k
            if not again:
                break
            v = turned
            low = v - 1
            pc |= 1 << (size - 1)
            pu |= (low & 1) << (size - 1)
            pw |= (low >> 1) << (size - 1)
            xc, xu, xw, lx, yc, yu, yw, ly = yc, yu, yw, ly, xc, xu, xw, lx
            xs ^= 1
        # M2: x takes the pile under his hand in the order played, and leads.
        xc |= pc << lx
        xu |= pu << lx
        xw |= pw << lx
        lx += size
        tricks += 1
        if ly == 0:
            # M5/M6: y holds no card at the end of the trick (or ran out paying): x wins.
            res[0] = WIN
            res[1] = 1 << xs
            break
        if detect:
            # M10: a trick-boundary position seen before repeats forever.
            if (
                lx == s_lx
                and xs == s_xs
                and xc == s_xc
                and yc == s_yc
                and xu == s_xu
                and yu == s_yu
                and xw == s_xw
                and yw == s_yw
            ):
                deal = deal_of_planes(*start)
                sizes = np.array([start[3], start[7]], np.int64)
                two: int = np.int64(2)  # type: ignore[assignment]  # one compilation (see lam)
                capture: int = np.int64(CAPTURE)  # type: ignore[assignment]
                mu, start_cards, found_cards = loop_start(two, capture, deal, sizes, lam)
                res[0] = LOOP
                res[1] = 0
                res[2] = found_cards
                res[3] = mu + lam
                res[4] = start_cards
                res[5] = mu
                return
            if power == lam:
                s_xs = xs
                s_lx = lx
                s_xc, s_xu, s_xw, s_yc, s_yu, s_yw = xc, xu, xw, yc, yu, yw
                power *= 2
                lam = 0
            lam += 1
    res[2] = cards
    res[3] = tricks
    res[4] = -1
    res[5] = -1
