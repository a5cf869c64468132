"""BEOR states and views through JSON (issue 11, "Round-trip serialisation"): written with
``"format": 1``, read back equal, and a state read back plays on exactly like the one written,
restocks included (the shuffle of restock k comes from the seed and k, B9). JSON that is not a
BEOR state or view is refused as a bad record naming the field, never with a crash."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import FORMAT, State
from parlour.errors import InvalidRecord

from .rules_oracles import BASES
from .rules_text_helpers import GAME, kinds

SEATS_OF = {n: [None, *range(n)] for n in range(2, 6)}


def through_text(obj: object) -> Any:
    return json.loads(json.dumps(obj))


def _source_size(stocks: dict[str, Any], action: str) -> int:
    """How many cards the stock ``action`` draws from holds."""
    return len(stocks[action.split(">")[1].split("/")[-1]]["cards"])


def drained_playout(players: int, seed: int, turns: int) -> tuple[list[State], list[str]]:
    """Random play that mostly draws from the smallest stock, so stocks run out and restock
    (B9) often; every state and action."""
    rng = random.Random(seed)
    state: State = GAME.new(players, seed, {"max_turns": turns})
    states, actions = [state], []
    while not state.is_over:
        legal = [str(a) for a in state.legal_actions()]
        if rng.random() < 0.8:
            stocks = state.to_json()["stocks"]
            sizes = {a: _source_size(stocks, a) for a in legal}
            smallest = min(sizes.values())
            legal = [a for a in legal if sizes[a] == smallest]
        action = rng.choice(legal)
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions


def check_state_round_trip(state: State, action: str | None, after: State | None) -> None:
    """``state`` through JSON text and back: equal JSON, views, hidden cards and legal actions,
    and ``action`` gives the same state and events as it gave the original."""
    written = through_text(state.to_json())
    assert written["format"] == FORMAT
    restored = GAME.state_from_json(written)
    assert through_text(restored.to_json()) == written
    assert restored.legal_actions() == state.legal_actions()
    assert restored.to_move == state.to_move and restored.outcome == state.outcome
    for seat in SEATS_OF[state.players]:
        assert restored.view(seat) == state.view(seat)
        assert restored.hidden_from(seat) == state.hidden_from(seat)
    if action is not None and after is not None:
        played = restored.apply(action)
        assert played.to_json() == after.to_json()
        assert played.events == after.events


def check_view_round_trip(state: State) -> None:
    for seat in SEATS_OF[state.players]:
        view = state.view(seat)
        written = through_text(view.to_json())
        assert written["format"] == FORMAT
        back = GAME.view_from_json(written)
        assert back == view
        assert through_text(back.to_json()) == written


class TestRoundTrips:
    @pytest.mark.slow
    @settings(max_examples=6, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4, 5]))
    def test_every_state_and_view_of_a_playout(self, seed: int, players: int) -> None:
        """Every state of a random playout (stocks drained, so restocks come often) comes back
        equal and makes the same next state as the original; every view comes back equal."""
        states, actions = drained_playout(players, seed, 200)
        for i, state in enumerate(states):
            nxt = (actions[i], states[i + 1]) if i < len(actions) else (None, None)
            check_state_round_trip(state, *nxt)
            check_view_round_trip(state)

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_across_restocks(self, players: int) -> None:
        """B9: the state right before a restock, read back, restocks exactly as the original
        did, and so does the state right after it at the next restock: the restock count and the
        seed travel in the JSON."""
        states, actions = drained_playout(players, 7, 600)
        restocks = [i for i, s in enumerate(states) if "restocked" in kinds(s)]
        assert len(restocks) >= 2, "the drained playout restocks at least twice"
        first, second = restocks[0], restocks[1]
        for start in (first - 1, first):
            restored = GAME.state_from_json(through_text(states[start].to_json()))
            for k in range(start, second + 1):
                restored = restored.apply(actions[k])
                assert restored.to_json() == states[k + 1].to_json(), k
                assert restored.events == states[k + 1].events, k
        assert states[second].to_json()["restocks"] == 2

    def test_a_finished_game(self) -> None:
        """A state whose game is over reads back over, with its outcome."""
        states, _ = drained_playout(3, 11, 300)
        check_state_round_trip(states[-1], None, None)
        check_view_round_trip(states[-1])
        assert GAME.state_from_json(states[-1].to_json()).is_over


def valid_state() -> dict[str, Any]:
    """A 3-player state after a few turns, with a flip (B6) so that stocks hold known cards."""
    states, _ = drained_playout(3, 5, 40)
    for state in states:
        data = state.to_json()
        if any(s["face_up"] for s in data["stocks"].values()) and not state.is_over:
            return data
    raise AssertionError("no face-up stock in the playout")


STATE = valid_state()


def _set(path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(STATE)
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is KeyError:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


def _face_up() -> str:
    return next(n for n in BASES if STATE["stocks"][n]["face_up"] and STATE["stocks"][n]["cards"])


class TestBadStates:
    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (lambda: _set("seed", KeyError), r"BEOR state field 'seed' is missing"),
            (lambda: _set("format", 2), r"field 'format' must be 1"),
            (lambda: {**STATE, "extra": 1}, r"unknown field 'extra'"),
            (lambda: _set("hands.0.0", "ZZ"), r"field 'hands' seat 0: 'ZZ' is not a card"),
            (lambda: _set("hands.0.0", STATE["hands"][1][0]), r"in two places"),
            (lambda: _set("hands.0", STATE["hands"][0][:5]), r"missing"),
            (lambda: _set("to_move", 7), r"field 'to_move' must be a seat"),
            (lambda: _set("seed", -1), r"field 'seed'"),
            (lambda: _set("restocks", -1), r"field 'restocks' must be a whole number"),
            (lambda: _set("options.max_turns", 0), r"field 'options': option max_turns"),
            (lambda: _set("result", "lost"), r"field 'result'"),
            (lambda: _set("turn", 5000), r"field 'turn' reached max_turns"),
            (lambda: _set("bases.even", ["KS"]), r"even holds no card showing its theme"),
            (lambda: _set(f"known_stocks.{_face_up()}", []), r"top of a face-up stock \(B6\)"),
            (lambda: _set("held.0", []), r"field 'held' seat 0 must hold the seat's hand"),
            (lambda: _set("shown", []), r"field 'shown' must hold every card in sight"),
            (lambda: [STATE], r"a BEOR state is a JSON object"),
        ],
    )
    def test_refused_naming_the_field(self, change: Any, message: str) -> None:
        with pytest.raises(InvalidRecord, match=message):
            GAME.state_from_json(change())

    def test_a_known_stock_card_must_be_there(self) -> None:
        """B6: a card known in a stock is where the stock holds it."""
        name = _face_up()
        known = copy.deepcopy(STATE["known_stocks"][name])
        other = next(c for c in STATE["stocks"][name]["cards"] if c != known[0]["card"])
        known[0]["card"] = other
        with pytest.raises(InvalidRecord, match=r"disagrees with the stock"):
            GAME.state_from_json(_set(f"known_stocks.{name}", known))

    @settings(max_examples=150, deadline=None)
    @given(
        field=st.sampled_from(sorted(STATE)),
        value=st.recursive(
            st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=4),
            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner),
            max_leaves=8,
        ),
    )
    def test_any_json_in_a_field_is_read_or_refused(self, field: str, value: object) -> None:
        """Whatever JSON a field holds, the reader answers with a state or a bad record."""
        with contextlib.suppress(InvalidRecord):
            GAME.state_from_json({**STATE, field: value})


class TestBadViews:
    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("players", 9, r"BEOR view field 'players' must be 2 to 5"),
            ("seat", 3, r"field 'seat' must be a seat from 0 to 2 or null"),
            ("hand", None, r"field 'hand' is null exactly for a spectator"),
            ("hand_sizes", [6, 6], r"field 'hand_sizes' must hold 3 sizes"),
            ("stocks", {}, r"field 'stocks' must have exactly black, even, odd and red"),
            ("scrap_size", -2, r"field 'scrap_size' must be a whole number"),
            ("to_move", None, r"field 'to_move' is null exactly once the game is over"),
        ],
    )
    def test_refused_naming_the_field(self, field: str, value: object, message: str) -> None:
        view = GAME.state_from_json(STATE).view(0).to_json()
        with pytest.raises(InvalidRecord, match=message):
            GAME.view_from_json({**view, field: value})

    def test_the_top_of_a_face_up_stock_must_be_the_known_top(self) -> None:
        view = GAME.state_from_json(STATE).view(1).to_json()
        name = _face_up()
        view["stocks"][name]["top"] = None
        with pytest.raises(InvalidRecord, match=r"top must be the known top \(B6\)"):
            GAME.view_from_json(view)
