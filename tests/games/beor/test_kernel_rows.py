"""BEOR in the lab on its compiled kernel (``games/beor/lab/kernel.py``): a run's rows from the
kernel are the rules engine's rows, row for row and byte for byte (who sat where, every figure:
the lead figures, ``first``, BEOR's own, the win shares by position; and the record), for 2 to
5 players, the heuristic and the random agent, and the options; ``fast`` is the default for the
agents the kernel plays, and an agent it does not play is left to the rules engine.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from parlour.errors import InvalidOption
from parlour.games.beor.lab.kernel import kernel_rows
from parlour.lab.engines import same_rows
from parlour.lab.run import RunSpec, play_batch

# Games of each player count and agents (the suite's 20; PARLOUR_BEOR_KERNEL_GAMES for more).
GAMES = max(1, int(os.environ.get("PARLOUR_BEOR_KERNEL_GAMES", "50")) * 2 // 5)


def rows_of(spec: RunSpec, indices: list[int]) -> list[str]:
    """The rows the lab's workers write for ``indices``, as they write them (JSON)."""
    return [row for _, row in play_batch(json.dumps(spec.to_json()), indices)]


def both_engines(spec: RunSpec, indices: list[int]) -> tuple[list[str], list[str]]:
    spec = spec.checked()
    return (
        rows_of(replace(spec, engine="python"), indices),
        rows_of(replace(spec, engine="fast"), indices),
    )


def first_difference(python: list[str], fast: list[str]) -> str:
    for a, b in zip(python, fast, strict=True):
        if a != b:
            one, two = json.loads(a), json.loads(b)
            figures = one["figures"]
            keys = sorted(k for k in figures if figures[k] != two["figures"].get(k))
            return (
                f"game {one['index']}: figures {keys}, same record {one['record'] == two['record']}"
            )
    return ""


@pytest.mark.slow
@pytest.mark.parametrize("agents", [("heuristic",), ("random", "heuristic")], ids=",".join)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_kernel_gives_the_rules_engines_rows(players: int, agents: tuple[str, ...]) -> None:
    spec = RunSpec("beor", players, agents, GAMES, 30_000 + players)
    python, fast = both_engines(spec, list(range(GAMES)))
    assert len(fast) == GAMES
    assert python == fast, first_difference(python, fast)
    rows = [json.loads(r) for r in fast]
    assert {r["figures"]["first"] for r in rows} == {0}  # B3
    assert any(r["figures"]["lead_changes"] for r in rows)
    assert all(len(r["record"]["actions"]) == r["figures"]["length"] for r in rows)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"max_turns": 20},
        {"natural_win": False, "flip_reverses_order": False},
        {"restock_skip_jokers": False},
    ],
    ids=["max-turns", "no-natural-no-reverse", "jokers-kept"],
)
def test_options_give_the_same_rows(options: dict[str, object]) -> None:
    for players in (2, 3, 4, 5):
        spec = RunSpec("beor", players, ("heuristic", "random"), 12, 40 + players, options)
        python, fast = both_engines(spec, list(range(12)))
        assert python == fast, first_difference(python, fast)


def test_a_game_does_not_depend_on_its_batch() -> None:
    spec = RunSpec("beor", 4, ("heuristic",), 12, 9).checked()
    whole = kernel_rows(spec, list(range(12)))
    parts = kernel_rows(spec, [11, 3]) + kernel_rows(spec, [7])
    by_index = {r["index"]: r for r in whole}
    assert [by_index[r["index"]] for r in parts] == parts


def test_fast_is_the_default_for_the_agents_the_kernel_plays() -> None:
    for agents in (("heuristic",), ("random",), ("Medium ", "random")):
        spec = RunSpec("beor", 4, agents, 10, 1).checked()
        assert spec.engine == "fast"
        assert same_rows(spec)  # either engine may resume the run: the rows are the same
    spec = RunSpec("beor", 4, ("easy", "heuristic"), 10, 1).checked()
    assert spec.engine == "python"
    with pytest.raises(InvalidOption, match=r"plays the agents .* not 'easy'"):
        RunSpec("beor", 4, ("easy",), 10, 1, engine="fast").checked()
