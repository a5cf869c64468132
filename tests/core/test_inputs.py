"""The parsers of values from outside (parlour.core.inputs, parlour.core.jsontext): each
refuses hostile text with one line naming the field, and returns the value of its kind
otherwise."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.core.inputs import (
    check_int,
    parse_duration,
    parse_int,
    parse_option_pair,
    parse_path,
    parse_player_count,
    parse_seat,
    quote,
)
from parlour.core.jsontext import check_json, json_depth, parse_json
from parlour.errors import ERROR_CODES, InvalidInput, InvalidOption, ParlourError


def _one_line(err: pytest.ExceptionInfo[ParlourError]) -> str:
    text = str(err.value)
    assert "\n" not in text and len(text) < 300
    return text


def _outcome(call: Callable[[], object]) -> object:
    """What ``call`` returns, or the InvalidInput it raises."""
    try:
        return call()
    except InvalidInput as err:
        return err


class TestParseInt:
    @pytest.mark.parametrize("text", ["²", "٣", "1²", "1_000", "+1", "1.0", "0x10", "", " ", "-"])
    def test_only_ascii_digits(self, text: str) -> None:
        with pytest.raises(InvalidInput) as err:
            parse_int(text, field="--view", minimum=0)
        assert "--view must be a whole number of at least 0" in _one_line(err)

    def test_more_digits_than_int_converts_is_refused_by_name(self) -> None:
        with pytest.raises(InvalidInput) as err:
            parse_int("9" * 5000, field="seed", minimum=0)
        assert "got one of 5000 digits" in _one_line(err)

    def test_bounds(self) -> None:
        assert parse_int(" 42 ", field="n", minimum=1, maximum=42) == 42
        assert parse_int("-3", field="n") == -3
        assert parse_int("007", field="n", max_digits=1) == 7
        with pytest.raises(InvalidInput, match="from 1 to 42, got 43"):
            parse_int("43", field="n", minimum=1, maximum=42)
        with pytest.raises(InvalidInput):
            parse_int("-3", field="n", minimum=0)

    def test_error_type_is_the_callers(self) -> None:
        with pytest.raises(InvalidOption):
            parse_int("x", field="option max_turns", error=InvalidOption)

    @given(st.text(max_size=30))
    def test_any_text_gives_an_int_or_a_one_line_error(self, text: str) -> None:
        got = _outcome(lambda: parse_int(text, field="n", minimum=0, maximum=10**6))
        if isinstance(got, InvalidInput):
            assert "\n" not in str(got)
        else:
            assert str(got) == text.strip().lstrip("0") or (got == 0 and set(text.strip()) == {"0"})

    def test_check_int_refuses_bools_floats_and_huge(self) -> None:
        assert check_int(5, field="x", minimum=0) == 5
        for bad in (True, 1.0, "1", None, 10**5000):
            with pytest.raises(InvalidInput) as err:
                check_int(bad, field="seed", minimum=0)
            assert "seed must be a whole number" in _one_line(err)


class TestSeatsAndPlayers:
    def test_player_count(self) -> None:
        assert parse_player_count("3", minimum=2, maximum=5) == 3
        for bad in ("0", "6", "²", "9" * 50):
            with pytest.raises(
                InvalidInput, match="number of players must be a whole number from 2 to 5"
            ):
                parse_player_count(bad, minimum=2, maximum=5)

    def test_seat_counts_from_one_for_people(self) -> None:
        assert parse_seat("1", players=4) == 0
        assert parse_seat("P4", players=4) == 3
        for bad in ("0", "5", "²", "p", ""):
            with pytest.raises(InvalidInput, match="from 1 to 4"):
                parse_seat(bad, players=4)


class TestDuration:
    @pytest.mark.parametrize(
        "text", ["inf", "nan", "-1", "1e999", "1e3", "0x1p3", "½", "", "-0", "0", "400000000"]
    )
    def test_refused(self, text: str) -> None:
        with pytest.raises(InvalidInput) as err:
            parse_duration(text, field="--delay")
        assert _one_line(err).startswith("--delay must be a number of seconds, more than 0")

    def test_accepted(self) -> None:
        assert parse_duration("0.5", field="d") == 0.5
        assert parse_duration(".25", field="d") == 0.25
        assert parse_duration("0", field="d", allow_zero=True) == 0.0
        assert parse_duration(2, field="d") == 2.0
        for bad in (math.inf, math.nan, True, 10**5000):
            with pytest.raises(InvalidInput):
                parse_duration(bad, field="d")


class TestOptionPair:
    def test_name_and_value(self) -> None:
        assert parse_option_pair(" max-turns = 12 ") == ("max_turns", "12")
        assert parse_option_pair("x=") == ("x", "")

    @pytest.mark.parametrize("text", ["noequals", "=3", "a b=1", "x\0=1", "²=1"])
    def test_refused(self, text: str) -> None:
        with pytest.raises(InvalidInput) as err:
            parse_option_pair(text)
        _one_line(err)


class TestPath:
    def test_empty_and_nul(self) -> None:
        with pytest.raises(InvalidInput, match="--save is empty"):
            parse_path("", field="--save")
        with pytest.raises(InvalidInput, match="--save is empty"):
            parse_path("  ", field="--save")
        with pytest.raises(InvalidInput, match="NUL"):
            parse_path("a\0b", field="--save")

    def test_names_too_long_for_the_system(self) -> None:
        with pytest.raises(InvalidInput, match="too long for a file name"):
            parse_path("[" * 300, field="--out")
        with pytest.raises(InvalidInput, match="too long for a file name"):
            parse_path("/".join(["d" * 200] * 30))
        assert str(parse_path("é" * 127)) == "é" * 127  # 254 bytes

    def test_home_is_expanded(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("HOME", "/home/somebody")
        assert str(parse_path("~/game.json")) == "/home/somebody/game.json"


class TestJson:
    def test_deep_nesting_is_refused_without_recursion(self) -> None:
        for text in ("[" * 100_000, "[" * 3000 + "]" * 3000, '{"a":' * 3000 + "1" + "}" * 3000):
            with pytest.raises(InvalidInput) as err:
                parse_json(text, field="record.json")
            assert "nests arrays and objects" in _one_line(err)

    def test_brackets_in_strings_do_not_count(self) -> None:
        assert json_depth('["[[[[", {"a": "]]]"}]') == 2
        assert parse_json('{"deal": "[[[[[[" }', max_depth=1) == {"deal": "[[[[[["}

    @pytest.mark.parametrize(
        ("text", "says"),
        [
            ("NaN", "NaN"),
            ("[Infinity]", "Infinity"),
            ("1e999", "too large"),
            ("1" * 5000, "5000 digits"),
            ('{"a": 1', "not JSON"),
            ("", "not JSON"),
        ],
    )
    def test_refused_values(self, text: str, says: str) -> None:
        with pytest.raises(InvalidInput) as err:
            parse_json(text, field="x.json")
        assert says in _one_line(err)

    def test_size_and_encoding(self) -> None:
        with pytest.raises(InvalidInput, match="larger than 10 bytes"):
            parse_json("[" + "1," * 10 + "1]", max_bytes=10)
        with pytest.raises(InvalidInput, match="not UTF-8"):
            parse_json(b'"\xff"')
        assert parse_json(b'{"seed": 3}') == {"seed": 3}

    @given(
        st.recursive(
            st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(),
            lambda c: st.lists(c) | st.dictionaries(st.text(), c),
            max_leaves=20,
        )
    )
    def test_plain_json_round_trips(self, value: object) -> None:
        import json

        assert parse_json(json.dumps(value)) == value
        assert check_json(value) is value

    @given(st.text(alphabet='[]{}"\\,:1 ae', max_size=200))
    def test_any_bracket_soup_gives_a_value_or_a_one_line_error(self, text: str) -> None:
        got = _outcome(lambda: parse_json(text, max_depth=8))
        assert not isinstance(got, InvalidInput) or "\n" not in str(got)

    def test_check_json_refuses_non_data(self) -> None:
        loop: list[object] = []
        loop.append(loop)
        for bad in (math.nan, {1: 2}, {"a": object()}, loop, 10**5000):
            with pytest.raises(InvalidInput) as err:
                check_json(bad, field="options")
            _one_line(err)


def test_quote_is_short_and_one_line() -> None:
    assert quote("a\nb") == "'a\\nb'"
    assert len(quote("x" * 10_000)) == 60
    assert "digits" in quote(10**10_000)
    assert len(quote(list(range(10_000)))) <= 60


def test_error_codes_list_the_new_codes() -> None:
    assert "bad_input" in ERROR_CODES and "file_error" in ERROR_CODES
    assert len(set(ERROR_CODES)) == len(ERROR_CODES)
