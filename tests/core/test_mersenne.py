"""parlour.core.mersenne is Python's random.Random in compiled code: the same numbers from the
same seed, draw for draw, which the lab's kernels rely on to play the rules engine's games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from parlour.core import mersenne
from parlour.core.rng import MAX_SEED, derive_seed

SEEDS = [0, 1, 42, 2**31, 2**32 - 1, 2**32, 2**32 + 7, MAX_SEED] + [
    derive_seed(5, "seed", k) for k in range(20)
]


@pytest.mark.parametrize("seed", SEEDS)
def test_random_draws_the_floats_of_random_random(seed: int) -> None:
    mine, theirs = mersenne.generators(1)[0], random.Random(seed)
    mersenne.seed(mine, seed)
    # 1,500 floats: 3,000 words, past the generator's 624-word refills four times
    assert [mersenne.random(mine) for _ in range(1500)] == [theirs.random() for _ in range(1500)]


@pytest.mark.parametrize("seed", SEEDS)
def test_randbelow_is_randrange_for_every_bound(seed: int) -> None:
    mine, theirs = mersenne.generators(1)[0], random.Random(seed)
    mersenne.seed(mine, seed)
    bounds = [*range(1, 300), 2**31 - 1, 2**31, 2**32 - 1, 1000, 1]
    assert [mersenne.randbelow(mine, n) for n in bounds] == [theirs.randrange(n) for n in bounds]


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_is_random_shuffle(seed: int) -> None:
    mine, theirs = mersenne.generators(1)[0], random.Random(seed)
    mersenne.seed(mine, seed)
    for size in (52, 1, 2, 53):
        items = list(range(size))
        array = np.arange(size, dtype=np.int64)
        theirs.shuffle(items)
        mersenne.shuffle(mine, array)
        assert array.tolist() == items


def test_draws_of_both_kinds_interleave_as_in_python() -> None:
    mine, theirs = mersenne.generators(1)[0], random.Random(99)
    mersenne.seed(mine, 99)
    for k in range(2000):
        if k % 3:
            assert mersenne.randbelow(mine, k % 17 + 1) == theirs.randrange(k % 17 + 1)
        else:
            assert mersenne.random(mine) == theirs.random()


def test_seeding_again_starts_the_stream_again() -> None:
    mine = mersenne.generators(1)[0]
    mersenne.seed(mine, 3)
    first = [mersenne.word(mine) for _ in range(700)]
    mersenne.seed(mine, 3)
    assert [mersenne.word(mine) for _ in range(700)] == first
    theirs = random.Random(3)
    assert first == [theirs.getrandbits(32) for _ in range(700)]
