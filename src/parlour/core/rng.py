"""Seeded randomness: every random choice in Parlour comes from a generator made here from a
seed that a record carries (RULINGS "Common", Randomness). Nothing uses the global ``random``."""

from __future__ import annotations

import hashlib
import random

from parlour.core.inputs import quote
from parlour.errors import InvalidOption

__all__ = ["MAX_SEED", "check_seed", "derive_seed", "make_rng"]

MAX_SEED = 2**63 - 1


def check_seed(seed: object, *, field: str = "seed") -> int:
    """Return ``seed`` as an int in ``0..2**63-1`` or raise naming the field."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidOption(
            f"{field} must be a whole number from 0 to {MAX_SEED}, got {quote(seed)}"
        )
    return seed


def make_rng(seed: int) -> random.Random:
    """A generator of its own for ``seed``; the same seed gives the same stream on any machine."""
    return random.Random(check_seed(seed))


def derive_seed(seed: int, *labels: int | str) -> int:
    """A seed for a sub-stream (game ``i`` of a batch, a bot's rollouts), stable across runs,
    machines and Python hash seeds, so batches split over workers give the same results."""
    text = ":".join([str(check_seed(seed)), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & MAX_SEED
