"""Beggar-My-Neighbour states and views through JSON (``"format": 1``) and back.

Issue 11: "``state.to_json()`` / ``game.state_from_json()`` and ``view.to_json()`` /
``game.view_from_json()`` round-trip exactly", and a state read back plays on exactly alike: the
same end, cards, tricks and cycle (M8, M10), with the options (M4, M11) it was made with. JSON
that is not a state or a view is refused with InvalidRecord naming the field.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import make_rng
from parlour.errors import InvalidRecord
from parlour.games.beggar import PLAY, BeggarGame, BeggarState, play_to_end

from .rules_text_helpers import LOOP_DEAL, full_cards

GAME = BeggarGame()
EXAMPLE = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"


def through_json(obj: dict[str, Any]) -> Any:
    return json.loads(json.dumps(obj))


def advance(state: BeggarState, actions: int) -> BeggarState:
    for _ in range(actions):
        if state.is_over:
            break
        state = state.apply(PLAY)
    return state


def assert_round_trip(state: BeggarState) -> BeggarState:
    """The state and every seat's view come back equal; returns the state read back."""
    text = state.to_json()
    assert text["format"] == 1
    back = GAME.state_from_json(through_json(text))
    assert back.to_json() == text
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        assert view.to_json()["format"] == 1
        assert GAME.view_from_json(through_json(view.to_json())) == view
        assert back.view(seat) == view
    assert back.hidden_from(None) == state.hidden_from(None)
    return back


class TestRoundTrip:
    @settings(max_examples=40, deadline=None)
    @given(
        st.integers(0, 2**32),
        st.sampled_from([2, 3, 4]),
        st.integers(0, 400),
        st.sampled_from(["capture", "next_player"]),
        st.sampled_from([None, 150, 600]),
    )
    def test_a_state_read_back_plays_on_to_the_same_end(
        self, seed: int, players: int, steps: int, penalty: str, limit: int | None
    ) -> None:
        """Random deals of 2 to 4 players, both M4 options, with and without an M11 limit: the
        state read back ends with the same figures as the original line."""
        options = {"unpaid_penalty": penalty, "card_limit": limit}
        state = advance(GAME.new(players, seed, options), steps)
        back = assert_round_trip(state)
        end, again = play_to_end(state), play_to_end(back)
        assert again.to_json() == end.to_json()
        assert again.outcome == end.outcome
        if end.is_over and end.outcome is not None:
            assert again.summary() == end.summary()

    @pytest.mark.parametrize("at", [0, 34, 35, 300, 474])
    def test_the_loop_history_travels_with_the_state(self, at: int) -> None:
        """M10: a state read back in the middle of the never-ending deal finds the repeat at
        the same card as the line it came from (474 cards, a cycle from card 34)."""
        state = advance(GAME.new(2, 0, deal=LOOP_DEAL), at)
        end = play_to_end(assert_round_trip(state))
        assert end.cycle == play_to_end(GAME.new(2, 0, deal=LOOP_DEAL)).cycle
        assert end.cycle is not None and end.cycle.found_at_cards == 474

    def test_full_card_games_keep_their_cards(self) -> None:
        """M9: full-card hands ``AS TH ...`` come back as the same cards, every one."""
        deal = full_cards(EXAMPLE)
        state = advance(GAME.new(2, 0, deal=deal), 60)
        back = assert_round_trip(state)
        assert back.hands == state.hands and back.pile == state.pile
        assert back.deal == state.deal

    def test_a_payment_in_progress_is_kept(self) -> None:
        """M1: the court card's demand, and who turned it, go on after the round trip."""
        state = advance(GAME.new(2, 0, deal=EXAMPLE), 6)
        assert state.owed == 1 and state.court_player == 0
        back = assert_round_trip(state)
        assert (back.owed, back.court_player, back.to_move) == (1, 0, 1)

    def test_finished_games_and_samples_round_trip(self) -> None:
        end = play_to_end(GAME.new(3, 7, {"card_limit": 100}))
        assert assert_round_trip(end).outcome == end.outcome
        loop = play_to_end(GAME.new(2, 0, deal=LOOP_DEAL))
        assert assert_round_trip(loop).cycle == loop.cycle
        sampled = GAME.sample(advance(GAME.new(4, 3), 77).view(2), make_rng(5))
        assert_round_trip(sampled)

    def test_the_json_of_a_state_names_what_playing_on_needs(self) -> None:
        """After the first trick (7 cards, Player 1 takes it): the options, the deal, the
        cards nobody has seen yet and both trick-boundary positions so far (M10)."""
        state = advance(GAME.new(2, 0, {"card_limit": 500}, EXAMPLE), 7)
        text = state.to_json()
        assert text["options"] == {
            "unpaid_penalty": "capture",
            "card_limit": 500,
            "time_limit": None,
        }
        assert text["history"][0] == {"lead": 0, "hands": EXAMPLE, "cards": 0, "tricks": 0}
        assert {k: text["history"][1][k] for k in ("lead", "cards", "tricks")} == {
            "lead": 0,
            "cards": 7,
            "tricks": 1,
        }
        # Player 1 turned 3 of his 26 cards, Player 2 four (M7: 26 each).
        assert text["unseen"] == [23, 22]
        assert text["deal"][0] == list(EXAMPLE.split("/")[0])


Mutation = Callable[[dict[str, Any]], object]


def _set(field: str, value: object) -> Mutation:
    return lambda obj: obj.__setitem__(field, value)


STATE_MUTATIONS: list[tuple[str, Mutation, str]] = [
    ("format 2", _set("format", 2), "'format'"),
    ("an unknown field", _set("colour", "red"), "'colour'"),
    ("no hands", lambda obj: obj.pop("hands"), "'hands'"),
    ("one hand", _set("hands", [["-"] * 52]), "'hands'"),
    ("a card that is not one", lambda obj: obj["hands"][0].__setitem__(0, "ZZ"), "'hands'"),
    ("a card written lower case", lambda obj: obj["hands"][0].__setitem__(0, "q"), "'hands'"),
    ("a card too many", lambda obj: obj["hands"][0].append("-"), "one deck"),
    ("owed 5", _set("owed", 5), "'owed'"),
    ("owed without a court player", _set("owed", 2), "'court_player'"),
    ("a seat out of range", _set("to_move", 7), "'to_move'"),
    ("a negative count", _set("cards", -1), "'cards'"),
    ("over without winners", _set("over", True), "'over'"),
    ("a seat out twice", _set("out", [1, 1]), "'out'"),
    ("unseen past the hand", _set("unseen", [99, 0]), "'unseen'"),
    ("bad options", _set("options", {"unpaid_penalty": "never"}), "'options'"),
    ("a cycle while in progress", _set("cycle", {"found_at_cards": 1}), "'cycle'"),
    ("a history entry of the wrong shape", _set("history", [[0, "--"]]), "'history[0]'"),
    (
        "a repeated position",
        lambda obj: obj["history"].append(dict(obj["history"][0], cards=999, tricks=999)),
        "M10",
    ),
    ("history without the position on the table", _set("history", []), "'history'"),
]


class TestBadJson:
    @pytest.mark.parametrize(
        ("mutate", "field"),
        [pytest.param(m, f, id=name) for name, m, f in STATE_MUTATIONS],
    )
    def test_a_bad_state_is_refused_naming_the_field(self, mutate: Mutation, field: str) -> None:
        text = advance(GAME.new(2, 0, deal=EXAMPLE), 7).to_json()
        assert text["pile"] == [] and text["owed"] == 0  # a trick boundary
        bad = copy.deepcopy(text)
        mutate(bad)
        with pytest.raises(InvalidRecord, match=re.escape(field)):
            GAME.state_from_json(bad)

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("players", 5),
            ("seat", 2),
            ("hand_sizes", [26, 27]),
            ("full_cards", "yes"),
            ("pile", ["AS"]),
            ("winners", [0]),
        ],
    )
    def test_a_bad_view_is_refused_naming_the_field(self, field: str, value: object) -> None:
        text = GAME.new(2, 0, deal=EXAMPLE).view(0).to_json()
        with pytest.raises(InvalidRecord, match=f"'{field}'"):
            GAME.view_from_json({**text, field: value})

    @pytest.mark.parametrize("obj", [None, [], "state", 3])
    def test_what_is_not_an_object_is_refused(self, obj: object) -> None:
        with pytest.raises(InvalidRecord):
            GAME.state_from_json(obj)
        with pytest.raises(InvalidRecord):
            GAME.view_from_json(obj)
