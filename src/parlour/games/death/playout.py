"""Game of Death playouts in compiled code (numba: the rules in :mod:`._kernel`, the policies in
:mod:`._policies`), for search: from any state a search reaches, play on to the end (or for a
number of actions) with every seat by the heuristic of :mod:`~parlour.games.death.strategy` or
at random, and read the drinks.

:func:`playout` is what a search calls. The step functions below it (:func:`encode`,
:func:`legal_codes`, :func:`apply_code`, :func:`heuristic_code`, :func:`table`) play the kernel
one action at a time, so that tests can hold it against ``rules.py`` step by step.

Options: ``difference_against_faces`` (G3) changes the rules and goes into the kernel;
``sober`` (G14) keeps points of the same numbers and ``illegal_throw_penalty`` (G13) only
concerns throws that engines never offer, so neither changes a playout.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from parlour.cards import Card
from parlour.core import kernel_cache, splitmix
from parlour.core.game import Action
from parlour.games.death import _kernel, _policies
from parlour.games.death._kernel import CARDS, GIVE, PASS, SEATS, SIZE, Int64Array
from parlour.games.death.notation import FACE, GIVES, THROWS, Give, Pass, Throw, is_black_face
from parlour.games.death.position import Position
from parlour.games.death.rules import DeathState

__all__ = [
    "Table",
    "action_of",
    "apply_code",
    "code_of",
    "compact",
    "encode",
    "heuristic_code",
    "legal_codes",
    "play_many",
    "playout",
    "random_code",
    "table",
]

# Every kernel function's cache is checked against both kernel modules (see
# parlour.core.kernel_cache): a changed source never runs old machine code.
kernel_cache.share_stamp((_kernel, _policies), sources=(splitmix,))

_NUMBER = {card: k for k, card in enumerate(CARDS)}
_BIT = {card: 1 << k for k, card in enumerate(CARDS)}
_HELD = {card: value for card, value in FACE.items() if is_black_face(card)}  # G11
_SEED_BITS = (1 << 63) - 1


def compact(pos: Position) -> Int64Array:
    """The position as the kernel reads it (:func:`._kernel.load`): the header, drinks taken,
    drinks given and hands (bit masks) per seat, the pile's card numbers and throwers."""
    n = len(pos.hands)
    bits = _BIT.__getitem__
    pending = pos.pending
    pile = pos.pile
    values = [
        n,
        -1 if pos.to_move is None else pos.to_move,
        -1 if pos.last_thrower is None else pos.last_thrower,
        -1 if pos.first_out is None else pos.first_out,
        sum(1 << s for s in pos.passed),
        -1 if pending is None else pending[0],
        0 if pending is None else pending[1],
        int(pos.over),
        int(bool(pile or pos.swept)),
        int(pos.options.difference_against_faces),
        len(pile),
        *pos.taken,
        *pos.given,
        *[sum(map(bits, hand)) for hand in pos.hands],
        *map(_NUMBER.__getitem__, pile),
        *pos.pile_seats,
    ]
    return np.array(values, np.int64)


def playout(
    state: DeathState, seed: int, max_actions: int, heuristic: bool
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Play on from ``state`` in compiled code for at most ``max_actions`` actions (throws,
    passes and gives count one each), every seat by the heuristic (``heuristic=True``) or
    uniformly at random among the throws or the pass; gives are always all the drinks left
    to one receiver (a random one, or the heuristic's: the leader, fewest drinks taken, lowest
    seat on ties, as ``DeathHeuristic`` does).

    Returns the drinks taken per seat, the G11 give value of the black face cards each seat
    still holds, and whether the game is over. Once over, the drinks taken include G11's
    penalty, as ``rules.py`` has them (so the held values are then already counted). The same
    seed gives the same playout; a state already over returns at once. The heuristic takes
    the first action of the highest score (``DeathHeuristic`` breaks such ties by noise), so
    heuristic playouts do not depend on the seed."""
    pos = state._pos
    if pos.over or max_actions <= 0:
        held = tuple(sum(_HELD.get(c, 0) for c in hand) for hand in pos.hands)
        return pos.taken, held, pos.over
    src = compact(pos)
    # A playout is never longer than max_game_length (1,052 actions): a bound keeps it int64.
    over = _policies.playout(src, seed & _SEED_BITS, min(max_actions, 1 << 40), heuristic)
    n = len(pos.hands)
    out = src[: 2 * n].tolist()
    return tuple(out[:n]), tuple(out[n:]), bool(over)


# -- step by step, for tests -------------------------------------------------------------------


def encode(state: DeathState) -> Int64Array:
    """The kernel's position of ``state``, to play on with :func:`apply_code`."""
    w = np.empty(SIZE, np.int64)
    _kernel.load(compact(state._pos), w)
    return w


def play_many(positions: Int64Array, seed: int, max_actions: int, heuristic: bool) -> int:
    """Playouts as :func:`playout` plays them, from each row of ``positions`` (kernel positions
    of :func:`encode`, stacked; row ``i`` with seed ``seed + i``, played in place) in one
    compiled call; returns the actions played in all. For measuring the kernel alone."""
    return int(_policies.run_many(positions, seed & _SEED_BITS, max_actions, heuristic))


def code_of(action: Action) -> int:
    """The kernel's code of a Game of Death action."""
    if isinstance(action, Throw):
        return _NUMBER[action.card]
    if isinstance(action, Pass):
        return PASS
    assert isinstance(action, Give)
    return GIVE + (action.drinks - 1) * SEATS + action.seat


def action_of(code: int) -> Action:
    """The action of a kernel code."""
    if code < PASS:
        return THROWS[CARDS[code]]
    if code == PASS:
        return Pass()
    g = code - GIVE
    return GIVES[g // SEATS + 1][g % SEATS]


def legal_codes(w: Int64Array) -> tuple[int, ...]:
    """The codes of the legal actions in the kernel's position ``w``."""
    out = np.empty(200, np.int64)
    k = _kernel.legal(w, out)
    return tuple(out[:k].tolist())


def apply_code(w: Int64Array, code: int) -> None:
    """Play ``code`` (a legal one) on ``w`` in place."""
    _kernel.apply(w, code)


def heuristic_code(w: Int64Array) -> int:
    """The compiled heuristic's choice in ``w``."""
    return int(_policies.heuristic(w))


class Table(NamedTuple):
    """What a kernel position and a rules position must agree on."""

    to_move: int | None
    taken: tuple[int, ...]
    given: tuple[int, ...]
    hands: tuple[frozenset[Card], ...]
    pile: tuple[Card, ...]
    pile_seats: tuple[int, ...]
    pending: tuple[int, int] | None
    last_thrower: int | None
    passed: frozenset[int]
    first_out: int | None
    over: bool


def random_code(w: Int64Array, bits: int) -> int:
    """The random policy's choice in ``w`` by the 64 random ``bits`` (as playouts draw it)."""
    return int(_policies.random_action(w, np.uint64(bits)))


def table(w: Int64Array) -> Table:
    """The kernel position ``w`` in the terms of ``Position``."""
    v = w.tolist()
    n = v[_kernel.N]
    plen = v[_kernel.PLEN]

    def seat(x: int) -> int | None:
        return None if x < 0 else x

    def cards(mask: int) -> frozenset[Card]:
        return frozenset(c for k, c in enumerate(CARDS) if mask >> k & 1)

    return Table(
        to_move=seat(v[_kernel.TO]),
        taken=tuple(v[_kernel.TAKEN : _kernel.TAKEN + n]),
        given=tuple(v[_kernel.GIVEN : _kernel.GIVEN + n]),
        hands=tuple(cards(m) for m in v[_kernel.HAND : _kernel.HAND + n]),
        pile=tuple(CARDS[k] for k in v[_kernel.PILE : _kernel.PILE + plen]),
        pile_seats=tuple(v[_kernel.PSEATS : _kernel.PSEATS + plen]),
        pending=None if v[_kernel.PLEFT] == 0 else (v[_kernel.PSEAT], v[_kernel.PLEFT]),
        last_thrower=seat(v[_kernel.LAST]),
        passed=frozenset(s for s in range(n) if v[_kernel.PASSED] >> s & 1),
        first_out=seat(v[_kernel.FIRST]),
        over=bool(v[_kernel.OVER]),
    )
