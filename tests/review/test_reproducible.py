"""Issue 31: "Results are reproducible for a given record, seed of the review and budget." The
same review twice gives the same JSON; another review seed may move the estimates, never what
the review is made of (the decisions, their moves, the fields, the counts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from parlour.bots.review import review_record

from .helpers import budget, check_review, load, shape

# (record, seats reviewed (None: all), iterations a decision)
CASES = [
    pytest.param("beor_hidden_a", None, 60, id="beor"),
    pytest.param("death_hidden_a", [1, 3], 30, id="death"),
]


@pytest.mark.parametrize(("name", "seats", "iterations"), CASES)
def test_same_seed_same_review_other_seed_same_shape(
    name: str, seats: list[int] | None, iterations: int
) -> None:
    record, game = load(name)
    spent = budget(iterations)
    reviewed = list(range(record.players)) if seats is None else seats

    def review(seed: int) -> dict[str, Any]:
        made = review_record(record, game, seats=seats, budget=spent, seed=seed)
        return check_review(
            made, record, game, seats=reviewed, seed=seed, spent=spent, threshold=0.1
        )

    first = review(0)
    assert first["decisions"]
    assert review(0) == first
    other = review(1)
    assert shape(other) == shape(first)


SCRIPT = """
import json, sys
from parlour.bots import SearchBudget
from parlour.bots.review import review_record
from parlour.core import Record
from parlour.games import find_game

record = Record.from_json(json.loads(sys.stdin.read()))
budget = SearchBudget(iterations=int(sys.argv[1]))
review = review_record(record, find_game(record.game), budget=budget, seed=0)
print(json.dumps(review.to_json()))
"""


@pytest.mark.parametrize(("name", "iterations"), [("beor_hidden_a", 60), ("death_hidden_a", 20)])
def test_another_process_gives_the_same_review(name: str, iterations: int) -> None:
    """What ``parlour review`` run twice would see: another process, with another hash seed
    (the order of sets of strings), gives the JSON this process gives."""
    record, game = load(name)
    here = review_record(record, game, budget=budget(iterations), seed=0).to_json()
    hash_seed = "7" if os.environ.get("PYTHONHASHSEED") != "7" else "8"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(iterations)],
        input=json.dumps(record.to_json()),
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == here, f"PYTHONHASHSEED={hash_seed}"
