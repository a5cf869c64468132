"""Issue 31, "Done when": on records with planted blunders for BEOR and the Game of Death, the
review names the blunder as the costliest decision. The records and why each planted move is a
blunder: records/README.md (the rules' sentences), checked by test_fixtures.py.

Every seat is reviewed, as ``parlour review`` does by default, so the blunder must also cost
more than anything the bots did; the budget is small to keep the test fast, and the blunders are
plain enough that a small search sees them.
"""

from __future__ import annotations

import pytest

from parlour.bots.review import review_record
from parlour.games.death import DeathState

from .helpers import before_each_action, budget, check_review, load

# (record, step, seat, the move played, budget: iterations a decision)
BLUNDERS = [
    pytest.param("beor_blunder", 22, 0, "KS>black", 100, id="beor"),
    pytest.param("death_blunder", 58, 0, "AD", 100, id="death"),
]


def good_moves(name: str, step: int, seat: int) -> set[str]:
    """The moves the blunder threw away: in BEOR the moves that win at once (B5), in the Game
    of Death the throws that cost the seat no drink at once (G3, G5)."""
    record, game = load(name)
    state = before_each_action(record, game)[step]
    good: set[str] = set()
    for action in state.legal_actions():
        after = state.apply(action)
        if name.startswith("beor"):
            if after.outcome is not None and after.outcome.winners == (seat,):
                good.add(str(action))
        else:
            assert isinstance(state, DeathState) and isinstance(after, DeathState)
            if after.drinks_taken[seat] == state.drinks_taken[seat]:
                good.add(str(action))
    return good


@pytest.mark.parametrize(("name", "step", "seat", "blunder", "iterations"), BLUNDERS)
def test_the_planted_blunder_is_the_costliest_decision(
    name: str, step: int, seat: int, blunder: str, iterations: int
) -> None:
    record, game = load(name)
    spent = budget(iterations)
    review = review_record(record, game, budget=spent, seed=0)
    everyone = list(range(record.players))
    out = check_review(review, record, game, seats=everyone, seed=0, spent=spent, threshold=0.1)
    assert out["decisive"], "no decisive moment at all"
    top = out["decisive"][0]
    assert (top["step"], top["seat"], top["played"]) == (step, seat, blunder), (
        f"the costliest decision is {top}, not the blunder at step {step}; the blunder: "
        f"{next((d for d in out['decisions'] if d['step'] == step), None)}"
    )
    good = good_moves(name, step, seat)
    assert good and blunder not in good
    assert top["best"] in good, f"best {top['best']} is none of {sorted(good)}"
    assert top["cost"] >= 0.3, top
    blundered = next(d for d in out["decisions"] if d["step"] == step)
    assert blundered["chances"][top["best"]] >= 0.5, blundered
    summary = next(s for s in out["summary"] if s["seat"] == seat)
    assert summary["mistakes"] >= 1 and summary["worst_step"] == step, summary
