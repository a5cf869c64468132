"""Issue 31: the review "never uses a card the seat could not see: a test shows that changing
hidden cards in the record (same views) changes nothing in the review".

Each pair of records (records/README.md) has the same seed and actions and deals that differ in
two cards Player 1 (seat 0) never sees, kept apart the whole deal. The guard first checks that
every view of Player 1 is equal in both replays; then Player 1's reviews, with one review seed
and budget, must be identical, and not trivially so (decisions were reviewed).
"""

from __future__ import annotations

from typing import Any

from parlour.bots.review import review_record
from parlour.core import Record
from parlour.core.game import Game
from parlour.core.record import replay

from .helpers import budget, check_review, cut, load

SEAT = 0


def review_of(record: Record, game: Game, iterations: int) -> dict[str, Any]:
    spent = budget(iterations)
    review = review_record(record, game, seats=[SEAT], budget=spent, seed=3)
    out = check_review(review, record, game, seats=[SEAT], seed=3, spent=spent, threshold=0.1)
    assert out["decisions"], "the review has no decision: it would be equal for nothing"
    return out


def test_beor_hidden_cards_change_nothing() -> None:
    """KD in Player 2's hand against 8C in the Black stock: every view of Player 1 is equal,
    the last one too, so the reviews are."""
    first, game = load("beor_hidden_a")
    second, _ = load("beor_hidden_b")
    assert first.deal != second.deal
    views = [[s.view(SEAT) for s in replay(r, game)] for r in (first, second)]
    assert views[0] == views[1], "guard: Player 1 must see the same in both records"
    assert review_of(first, game, 100) == review_of(second, game, 100)


def test_death_hidden_cards_change_nothing_in_a_deal_saved_before_its_end() -> None:
    """3H and QD swapped between Players 2 and 4; the records stop one action before the
    end, so every view of Player 1, the last one too, is equal, and so are the reviews."""
    first, game = load("death_hidden_a")
    second, _ = load("death_hidden_b")
    short = len(first.actions) - 1
    first, second = cut(first, short), cut(second, short)
    views = [[s.view(SEAT) for s in replay(r, game)] for r in (first, second)]
    assert views[0] == views[1], "guard: Player 1 must see the same in both records"
    assert review_of(first, game, 40) == review_of(second, game, 40)


def test_death_hands_shown_at_the_end_change_nothing_before_it() -> None:
    """The whole deals: Player 1 sees every hand once the deal is over (G11), so the last
    views differ; every decision was taken before, from views that are equal, so the reviews
    are equal (hindsight is no part of a decision's review)."""
    first, game = load("death_hidden_a")
    second, _ = load("death_hidden_b")
    views = [[s.view(SEAT) for s in replay(r, game)] for r in (first, second)]
    assert views[0][:-1] == views[1][:-1], "guard: Player 1 sees the same until the end"
    assert views[0][-1] != views[1][-1]
    assert review_of(first, game, 40) == review_of(second, game, 40)
