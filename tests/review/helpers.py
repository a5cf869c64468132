"""What the review tests share: the stored records, the states they pass through, and the
checks every review's JSON must pass (the spec of issue 31, ``Review.to_json``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from parlour.bots import SearchBudget
from parlour.bots.review import Review
from parlour.core import Record
from parlour.core.game import JSON, Game, State
from parlour.core.record import replay
from parlour.games import find_game

RECORDS = Path(__file__).parent / "records"

TOLERANCE = 1e-9
"""How far a review's cost may be from its chances' difference (floating point)."""

ROUNDING = 1.5e-4
"""How far the JSON's cost may be from the difference of its chances: three figures rounded to
four decimals or more."""


def load(name: str) -> tuple[Record, Game]:
    """A stored record (``records/NAME.json``) and its game."""
    record = Record.from_json(json.loads((RECORDS / f"{name}.json").read_text()))
    return record, find_game(record.game)


def cut(record: Record, actions: int) -> Record:
    """The record with its first ``actions`` actions only (a deal saved before its end)."""
    return dataclasses.replace(record, actions=record.actions[:actions])


def holdings(state: State) -> JSON:
    """Where every card is in ``state`` (its JSON, each hand in sorted order: the order of a
    hand is nobody's business)."""
    obj = state.to_json()
    hands = obj["hands"]
    assert isinstance(hands, list)
    obj["hands"] = [sorted(hand) for hand in hands]
    return obj


def budget(iterations: int) -> SearchBudget:
    return SearchBudget(iterations=iterations)


def before_each_action(record: Record, game: Game) -> list[State]:
    """The state in which each action of the record was played (table entries skipped)."""
    states = replay(record, game)
    out: list[State] = []
    for index in range(len(record.actions)):
        entries = sum(1 for t in record.table if t.at <= index)
        out.append(states[index + entries])
    return out


def moves_of(record: Record, game: Game, seat: int) -> list[int]:
    """The steps (indices into ``record.actions``) at which ``seat`` moved."""
    return [k for k, s in enumerate(before_each_action(record, game)) if s.to_move == seat]


def check_review(
    review: Review,
    record: Record,
    game: Game,
    *,
    seats: list[int],
    seed: int,
    spent: SearchBudget,
    threshold: float,
) -> dict[str, Any]:
    """Every promise of the spec about one review and its JSON, checked against the record;
    the JSON. The JSON's figures are rounded (the spec's example has two decimals): its cost
    agrees with its chances within :data:`ROUNDING`, the review's own figures within
    :data:`TOLERANCE`."""
    for decision in review.decisions:
        chance = {m.move: m.chance for m in decision.moves}
        # The cost is taken from the chances as the JSON prints them (4 decimals).
        expected = round(
            max(0.0, round(chance[decision.best], 4) - round(chance[decision.played], 4)), 4
        )
        assert abs(decision.cost - expected) <= TOLERANCE, (decision.step, decision.cost, expected)
    out: dict[str, Any] = review.to_json()
    assert out["format"] == 1
    assert out["kind"] == "review"
    assert out["game"] == game.name
    assert out["players"] == record.players
    assert out["seats"] == seats
    assert out["seed"] == seed
    assert out["budget"] == str(spent)
    assert out["threshold"] == threshold
    assert out["story"] is None
    before = before_each_action(record, game)
    decisions = out["decisions"]
    steps = [d["step"] for d in decisions]
    assert len(set(steps)) == len(steps), f"a step reviewed twice: {steps}"
    for d in decisions:
        where = f"decision at step {d['step']}"
        step, seat = d["step"], d["seat"]
        assert 0 <= step < len(record.actions), where
        assert seat in seats, where
        # The step indexes record.actions (table entries are never decisions).
        assert before[step].to_move == seat, where
        assert d["played"] == record.actions[step], where
        chances, intervals, visits = d["chances"], d["intervals"], d["visits"]
        legal = {str(a) for a in before[step].legal_actions()}
        assert len(chances) >= 2, f"{where}: a decision has at least two candidate moves"
        assert set(chances) <= legal, f"{where}: {sorted(set(chances) - legal)} are not legal"
        assert set(intervals) == set(chances) == set(visits), where
        assert d["played"] in chances, where
        assert d["best"] in chances, where
        for move, chance in chances.items():
            assert 0.0 <= chance <= 1.0, f"{where}: {move} {chance}"
            assert intervals[move] >= 0.0, f"{where}: {move}"
            assert isinstance(visits[move], int) and visits[move] >= 0, f"{where}: {move}"
        best = d["best"]
        # The best move is the search's preference: the highest estimate, or the most visits.
        assert chances[best] >= max(chances.values()) - TOLERANCE or visits[best] == max(
            visits.values()
        ), f"{where}: best {best} has neither the top estimate nor the most visits"
        expected = round(max(0.0, chances[best] - chances[d["played"]]), 4)
        assert abs(d["cost"] - expected) <= TOLERANCE, f"{where}: cost {d['cost']} != {expected}"
        if d["played"] == best:
            assert d["cost"] == 0.0, where
        assert d["cost_interval"] >= 0.0, where
    # The review's own costs rank and count (the JSON's are rounded, and may tie).
    exact = {d.step: d.cost for d in review.decisions}
    assert sorted(exact) == sorted(steps), "the JSON lists the review's decisions"
    ranked = sorted(
        (d for d in decisions if exact[d["step"]] > 0), key=lambda d: (-exact[d["step"]], d["step"])
    )
    wanted = [{k: d[k] for k in ("step", "seat", "played", "best", "cost")} for d in ranked[:5]]
    got = [{k: d[k] for k in ("step", "seat", "played", "best", "cost")} for d in out["decisive"]]
    assert got == wanted, "decisive: the (at most 5) costliest decisions, largest first"
    summary = {s["seat"]: s for s in out["summary"]}
    assert sorted(summary) == seats and len(summary) == len(out["summary"])
    for seat in seats:
        mine = [d for d in decisions if d["seat"] == seat]
        row = summary[seat]
        moved = len(moves_of(record, game, seat))
        # Every move of the seat is listed or forced (one candidate only).
        assert len(mine) + row["forced"] == moved, f"seat {seat}: {row} over {moved} moves"
        assert row["decisions"] in (len(mine), moved), f"seat {seat}: {row}"
        costs = [exact[d["step"]] for d in mine]
        assert row["mistakes"] == sum(1 for c in costs if c >= threshold), f"seat {seat}"
        averages = [sum(costs) / n for n in (len(mine), moved) if n]
        if averages:
            assert any(abs(row["average_cost"] - a) <= ROUNDING for a in averages), row
        else:
            assert row["average_cost"] == 0.0, row
        if row["worst_step"] is not None:
            assert exact[row["worst_step"]] == max(costs), f"seat {seat}: {row}"
        else:
            assert not any(costs), f"seat {seat}: no worst step, yet costs {costs}"
    return out


def shape(out: dict[str, Any]) -> dict[str, Any]:
    """What two reviews of one record with one budget share whatever their seeds: the fields,
    the decisions reviewed (step, seat, move played, moves estimated) and the counts of
    moves."""
    return {
        "keys": sorted(out),
        "same": {k: out[k] for k in ("format", "kind", "game", "players", "seats", "budget")},
        "decisions": [
            (d["step"], d["seat"], d["played"], sorted(d), sorted(d["chances"]))
            for d in out["decisions"]
        ],
        "summary": [(s["seat"], s["decisions"], s["forced"], sorted(s)) for s in out["summary"]],
    }
