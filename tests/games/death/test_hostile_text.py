"""What a hostile player types in the Game of Death's notation and at the give prompt (G5,
G13): numbers in other scripts or of thousands of digits are refused by name, never a
ValueError from int()."""

from __future__ import annotations

import pytest

from parlour.errors import IllegalAction, InvalidNotation
from parlour.games.death.notation import parse_action, parse_table_entry
from parlour.games.death.present import parse_split

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "text", [f"give {HUGE}>P2", f"give 3>P{HUGE}", "give ²>P2", "give 1>P٣", "give 1234567>P1"]
)
def test_a_give_with_a_number_no_one_can_mean_is_not_notation(text: str) -> None:
    with pytest.raises(InvalidNotation) as err:
        parse_action(text)
    assert len(str(err.value)) < 200 and "\n" not in str(err.value)


@pytest.mark.parametrize("text", [f"doh {HUGE}>P1", f"doh P{HUGE}", f"delay P{HUGE}", "doh P²"])
def test_a_penalty_with_a_number_no_one_can_mean_is_not_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_table_entry(text)


def test_a_penalty_is_one_drink_g13() -> None:
    """G13: a D'oh or delay penalty is one drink; a bigger one is named and refused."""
    with pytest.raises(IllegalAction, match="one drink, not 999999"):
        parse_table_entry("doh 999999>P1")


@pytest.mark.parametrize("line", [HUGE, f"2={HUGE}", f"{HUGE}=1", "²", "2=³"])
def test_the_give_prompt_refuses_numbers_no_one_can_mean(line: str) -> None:
    said = parse_split(line, 5, "3")
    assert isinstance(said, str) and len(said) < 200


def test_the_give_prompt_still_splits() -> None:
    assert parse_split("2=3 3=2", 5, "3") == [(2, 3), (3, 2)]
    assert parse_split("3", 5, "3") == [(3, 5)]
