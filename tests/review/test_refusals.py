"""The spec of issue 31: a bad record or seat is refused with a one-line message naming the
fault (InvalidRecord, InvalidOption), before any search."""

from __future__ import annotations

import dataclasses

import pytest

from parlour.bots.review import review_record
from parlour.errors import InvalidOption, InvalidRecord
from parlour.games import find_game

from .helpers import budget, load


@pytest.mark.parametrize(("seats", "said"), [([2], "Player 3"), ([0, 5], "Player 6")])
def test_a_seat_not_at_the_table_is_refused(seats: list[int], said: str) -> None:
    record, game = load("beor_hidden_a")
    with pytest.raises(InvalidOption) as caught:
        review_record(record, game, seats=seats, budget=budget(5))
    message = str(caught.value)
    assert said in message and "\n" not in message


def test_an_illegal_action_is_refused_naming_it() -> None:
    """Action 3 of the record becomes a card Player 2 does not hold."""
    record, game = load("beor_hidden_a")
    bad = dataclasses.replace(record, actions=(*record.actions[:3], "9C>odd"))
    with pytest.raises(InvalidRecord) as caught:
        review_record(bad, game, budget=budget(5))
    message = str(caught.value)
    assert "9C>odd" in message and "\n" not in message


def test_a_record_of_another_game_is_refused() -> None:
    record, _ = load("beor_hidden_a")
    with pytest.raises(InvalidRecord) as caught:
        review_record(record, find_game("death"), budget=budget(5))
    assert "beor" in str(caught.value) and "\n" not in str(caught.value)
