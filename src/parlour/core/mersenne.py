"""Python's ``random.Random`` inside compiled kernels (numba): the same Mersenne Twister
(MT19937), seeded from a whole number as ``random.Random(seed)`` seeds it, and its draws as
CPython 3.11 makes them, so that a kernel's agent draws exactly the numbers the rules engine's
agent draws from the same seed.

- :func:`seed` is ``random.Random(seed)`` for a seed of 0 to 2**63 - 1 (the seed's 32-bit
  words, low first, through ``init_by_array``);
- :func:`random` is ``Random.random()`` (53 bits from two words);
- :func:`randbelow` is ``Random.randrange(n)`` (``_randbelow_with_getrandbits``: ``n``'s bit
  length of a word, drawn again while out of range), what ``choice`` and ``shuffle`` use;
- :func:`shuffle` is ``Random.shuffle`` of an array.

A generator is an int64 array of :data:`STATE` numbers (624 words of 32 bits, then the index of
the next word); :func:`generators` makes them. ``tests/core/test_mersenne.py`` holds every
function to ``random.Random`` over many seeds. Kernels that inline these name this module in
the ``sources`` of :func:`parlour.core.kernel_cache.share_stamp`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["STATE", "generators", "randbelow", "random", "seed", "shuffle", "word"]

Int64Array = npt.NDArray[np.int64]

_N = 624
_M = 397
STATE = _N + 1
"""The length of a generator: its 624 words, then the index of the next one."""
_LOW32 = 0xFFFFFFFF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX = 0x9908B0DF


def generators(count: int) -> Int64Array:
    """``count`` generators, not yet seeded (a row each)."""
    return np.zeros((count, STATE), np.int64)


def _init_genrand(s: int) -> Int64Array:
    """The words ``init_genrand(s)`` makes, where ``init_by_array`` starts (always from
    19650218)."""
    mt = [s & _LOW32]
    for i in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & _LOW32)
    return np.array(mt, np.int64)


_START = _init_genrand(19650218)


@njit(cache=True, nogil=True)
def seed(mt: Int64Array, value: int) -> None:
    """Seed ``mt`` as ``random.Random(value)`` is seeded (``0 <= value < 2**63``)."""
    low = value & _LOW32
    high = (value >> 32) & _LOW32
    length = 2 if high else 1
    mt[:_N] = _START
    i = 1
    j = 0
    for _ in range(max(_N, length)):
        prev = mt[i - 1]
        key = low if j == 0 else high
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1664525) & _LOW32)) + key + j) & _LOW32
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1566083941) & _LOW32)) - i) & _LOW32
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[_N] = _N


@njit(cache=True, nogil=True)
def _twist(mt: Int64Array) -> None:
    for k in range(_N - _M):
        y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
        mt[k] = mt[k + _M] ^ (y >> 1) ^ (_MATRIX * (y & 1))
    for k in range(_N - _M, _N - 1):
        y = (mt[k] & _UPPER) | (mt[k + 1] & _LOWER)
        mt[k] = mt[k + _M - _N] ^ (y >> 1) ^ (_MATRIX * (y & 1))
    y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
    mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (_MATRIX * (y & 1))
    mt[_N] = 0


@njit(cache=True, nogil=True)
def word(mt: Int64Array) -> int:
    """The next 32-bit word (``genrand_uint32``)."""
    if mt[_N] >= _N:
        _twist(mt)
    y = mt[mt[_N]]
    mt[_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _LOW32)


@njit(cache=True, nogil=True)
def random(mt: Int64Array) -> float:
    """``Random.random()``: a float in [0, 1) of 53 random bits."""
    a = word(mt) >> 5
    b = word(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def randbelow(mt: Int64Array, n: int) -> int:
    """``Random.randrange(n)`` for ``1 <= n < 2**32``: ``getrandbits`` of ``n``'s bit length,
    again while it is ``n`` or more."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = word(mt) >> (32 - k)
    while r >= n:
        r = word(mt) >> (32 - k)
    return r


@njit(cache=True, nogil=True)
def shuffle(mt: Int64Array, items: Int64Array) -> None:
    """``Random.shuffle(items)`` in place."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(mt, i + 1)
        items[i], items[j] = items[j], items[i]
