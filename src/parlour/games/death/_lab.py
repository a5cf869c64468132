"""The compiled part of the Game of Death's lab games (numba; :mod:`.lab_kernel` makes their
rows): a deal shuffled as ``DeathGame.new`` shuffles it (Python's ``random.Random`` in compiled
code, :mod:`parlour.core.mersenne`), played to the end on :mod:`._kernel` with each seat's
agent drawing from its own generator as the rules engine's agent does, and the game's numbers
(the columns below) and actions kept.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.cards import deck52
from parlour.core import mersenne
from parlour.games.death._kernel import (
    CARDS,
    DAF,
    FIRST,
    GIVEN,
    HAND,
    LAST,
    OVER,
    PASS,
    PILE,
    PLEFT,
    PLEN,
    PSEAT,
    SIZE,
    TAKEN,
    TO,
    TWO_OF_DIAMONDS,
    Int64Array,
    N,
    apply,
    bit,
    count,
    held_value,
    legal,
    throws,
)
from parlour.games.death._policies import heuristic_noisy
from parlour.games.death.options import MAX_PLAYERS

RANDOM, HEURISTIC = 0, 1
"""The agents' numbers: ``RandomAgent`` and ``DeathHeuristic``."""

MAX_ACTIONS = 52 + 52 * (MAX_PLAYERS - 1) + 52
"""The most actions a game takes (``DeathGame.info.max_game_length``)."""

# A game's numbers, one column each, then the drinks taken per seat.
FIRST_MOVER, LENGTH, PASSES, SOCIALS, ACES, FIRST_OUT, FIRST_OUT_AT = range(7)
LEAD_CHANGES, DECIDED, BLACK, DRINKS = 7, 8, 9, 10

_NUMBER = {card: k for k, card in enumerate(CARDS)}
DECK = np.array([_NUMBER[c] for c in deck52()], np.int64)
"""``deck52()``'s cards as the kernel numbers them: the deck that deals shuffle."""


@njit(cache=True, nogil=True)
def _deal(w: Int64Array, mt: Int64Array, deck: Int64Array, players: int, first: int) -> None:
    """``w`` the start of a deal: ``DECK`` shuffled by ``mt``, dealt one card at a time from seat
    ``first`` (G1; seat 0 for ``DeathGame.new``), the holder of 2♦ to move."""
    deck[:] = DECK
    mersenne.shuffle(mt, deck)
    w[:] = 0
    w[N] = players
    for i in range(52):
        s = (first + i) % players
        w[HAND + s] |= bit(deck[i])
    w[LAST] = -1
    w[FIRST] = -1
    w[PSEAT] = -1
    for s in range(players):
        if w[HAND + s] & bit(TWO_OF_DIAMONDS):
            w[TO] = s


@njit(cache=True, nogil=True)
def _leader(w: Int64Array) -> int:
    """The seat that took the fewest drinks alone (the lab's leader, G12), or -1 on a tie."""
    best = 0
    alone = True
    for s in range(1, w[N]):
        if w[TAKEN + s] < w[TAKEN + best]:
            best = s
            alone = True
        elif w[TAKEN + s] == w[TAKEN + best]:
            alone = False
    return best if alone else -1


@njit(cache=True, nogil=True)
def _choose(
    w: Int64Array, kind: int, mt: Int64Array, out: Int64Array, noise: npt.NDArray[np.float64]
) -> int:
    """The action of the agent ``kind`` to move in ``w``, drawing from ``mt`` as it does."""
    if kind == HEURISTIC:
        c = 0
        if w[PLEFT] == 0:
            c = count(throws(w))
            for i in range(c):
                noise[i] = mersenne.random(mt)
        return heuristic_noisy(w, noise[:c])
    c = legal(w, out)
    return int(out[mersenne.randbelow(mt, c)])


@njit(cache=True, nogil=True)
def _play(
    w: Int64Array,
    mts: Int64Array,
    kinds: Int64Array,
    codes: Int64Array,
    led: Int64Array,
    stats: Int64Array,
) -> None:
    """Play the deal in ``w`` to the end, seat ``s`` by agent ``kinds[s]`` drawing from
    ``mts[s]``: the actions' codes into ``codes``, the leader after each step into ``led``
    (step 0 the deal) and the game's numbers into ``stats`` (the columns above)."""
    players = w[N]
    out = np.empty(200, np.int64)
    noise = np.empty(52, np.float64)
    stats[:] = 0
    stats[FIRST_MOVER] = w[TO]
    stats[FIRST_OUT] = -1
    stats[FIRST_OUT_AT] = -1
    led[0] = _leader(w)
    steps = 0
    while w[OVER] == 0:
        p = w[TO]
        code = _choose(w, kinds[p], mts[p], out, noise)
        if code == PASS:
            stats[PASSES] += 1
        elif code < PASS:
            if code >> 2 == 0:
                stats[ACES] += 1  # G8: every Ace sweeps once its gives are made
            plen = w[PLEN]
            if plen >= 3:
                base = PILE + plen
                rank = code >> 2
                if (
                    w[base - 1] >> 2 == rank
                    and w[base - 2] >> 2 == rank
                    and w[base - 3] >> 2 == rank
                ):
                    stats[SOCIALS] += 1  # G7
        codes[steps] = code
        apply(w, code)
        steps += 1
        if stats[FIRST_OUT] < 0 and w[FIRST] >= 0:
            stats[FIRST_OUT] = w[FIRST]
            stats[FIRST_OUT_AT] = steps
        led[steps] = _leader(w)
    stats[LENGTH] = steps
    changes = 0
    last = -1
    for k in range(steps + 1):
        if led[k] >= 0:
            if last >= 0 and led[k] != last:
                changes += 1
            last = led[k]
    stats[LEAD_CHANGES] = changes
    winner = _leader(w)
    start = steps + 1
    while start > 0 and led[start - 1] == winner:
        start -= 1
    stats[DECIDED] = start if winner >= 0 and start <= steps else -1
    black = 0
    for s in range(players):
        black += w[GIVEN + s] + held_value(w[HAND + s])
        stats[DRINKS + s] = w[TAKEN + s]
    stats[BLACK] = black


@njit(cache=True, nogil=True)
def play_games(
    players: int,
    daf: bool,
    deal_seeds: Int64Array,
    deal_first: Int64Array,
    agent_seeds: Int64Array,
    kinds: Int64Array,
    codes: Int64Array,
    stats: Int64Array,
) -> None:
    """Game ``g`` for each row: dealt by ``random.Random(deal_seeds[g])`` from seat
    ``deal_first[g]``, option ``difference_against_faces`` ``daf`` (G3), seat ``s`` played by
    agent ``kinds[g, s]`` from ``random.Random(agent_seeds[g, s])``; its actions' codes into
    ``codes[g]`` and its numbers into ``stats[g]`` (:func:`_play`)."""
    w = np.empty(SIZE, np.int64)
    deck = np.empty(52, np.int64)
    mts = np.empty((players, mersenne.STATE), np.int64)
    led = np.empty(MAX_ACTIONS + 1, np.int64)
    for g in range(deal_seeds.shape[0]):
        mersenne.seed(mts[0], deal_seeds[g])
        _deal(w, mts[0], deck, players, deal_first[g])
        w[DAF] = daf
        for s in range(players):
            mersenne.seed(mts[s], agent_seeds[g, s])
        _play(w, mts, kinds[g], codes[g], led, stats[g])
