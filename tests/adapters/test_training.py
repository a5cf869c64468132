"""examples/train_beor.py, short: a few thousand steps of MaskablePPO already beat an untrained
policy of the same shape on the same deals, and the random bot."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_beor.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_beor", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_beor"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_short_training_run_learns() -> None:
    example = load_example()
    example.torch.set_num_threads(1)
    untrained = example.train(0, seed=0)
    # Six rollouts of 2 x 1,024 steps. Seeded and on one thread, the run is the same each time:
    # 12,288 steps score 0.667 against the untrained policy's 0.483 on these 60 deals (16,000
    # scored 0.642; 10,240 only 0.608, too near the bar to keep).
    trained = example.train(12_288, seed=0)
    games = 60
    before = example.evaluate(untrained, games)
    after = example.evaluate(trained, games)

    def score(wins: int, draws: int, losses: int) -> float:
        return (wins + draws / 2) / games

    assert sum(after) == games
    assert score(*after) >= score(*before) + 0.1, (before, after)
    assert after[0] > after[2], f"trained policy: {after} wins, draws, losses"


def test_the_example_reports_its_interval() -> None:
    example = load_example()
    mean, low, high = example.interval([1.0] * 300 + [0.0] * 200)
    assert (round(mean, 3), round(low, 3), round(high, 3)) == (0.6, 0.557, 0.643)
