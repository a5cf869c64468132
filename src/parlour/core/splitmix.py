"""splitmix64 inside compiled kernels (numba): the generator both games' kernels inline.

A stream is a 64-bit state that moves on by :data:`GOLDEN` each step and is read through
:func:`mix`; :func:`draw` turns 32 bits of a mixed value into a bounded whole number. The same
seed gives the same stream on any machine. Kernels that inline these name this module in the
``sources`` of :func:`parlour.core.kernel_cache.share_stamp`, so a change here compiles them
again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["GOLDEN", "S32", "draw", "mix"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""The step of a splitmix64 stream."""

S32 = np.uint64(32)
"""A shift to the high 32 bits of a mixed value (its second draw)."""

_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def mix(z: np.uint64) -> np.uint64:
    """The splitmix64 finaliser: a 64-bit value to a well-mixed one."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True, inline="always")
def draw(z: np.uint64, bound: int) -> np.int64:
    """``0 .. bound - 1`` from the low 32 bits of ``z`` by a multiply-shift (bias below
    2**-26)."""
    return np.int64(((z & _LOW32) * np.uint64(bound)) >> S32)
