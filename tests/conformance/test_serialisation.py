"""Round-trip serialisation (issue 11 item 6): every state and every view of every playout goes
through JSON text and back to an equal one that plays on exactly alike; records replay to the
same states and events; JSON from outside that is not a state or a view is refused as a bad
record, never with a crash."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from parlour.core import FORMAT, InvalidRecord, ParlourError, Record, State, replay
from parlour.games import GAMES, replay_json
from tests.conformance.playouts import CASES, Case, Playout, case_id, playouts, seats, spread

FOLLOW = 8  # actions played on from a restored state at the spread states


def _through_text(obj: object) -> Any:
    """``obj`` as a client gets it: written as JSON text and read back."""
    return json.loads(json.dumps(obj))


def _same_play(p: Playout, index: int, restored: State, steps: int) -> None:
    """``restored`` plays the playout's next ``steps`` actions exactly as the original did."""
    assert restored.legal_actions() == p.states[index].legal_actions(), p.where(index)
    assert restored.to_move == p.states[index].to_move, p.where(index)
    for k in range(index, min(index + steps, len(p.actions))):
        restored = restored.apply(p.actions[k])
        original = p.states[k + 1]
        assert restored.to_json() == p.jsons[k + 1], f"{p.where(k + 1)}, restored"
        assert restored.events == original.events, f"{p.where(k + 1)}, restored"
        assert restored.legal_actions() == original.legal_actions(), p.where(k + 1)


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestStatesAndViewsRoundTrip:
    def test_a_state_comes_back_equal_and_plays_on_alike(self, case: Case) -> None:
        for p in playouts(case):
            far = set(spread(len(p.states)))
            for i, state in enumerate(p.states):
                written = p.jsons[i]
                assert written["format"] == FORMAT, p.where(i)
                restored = p.game.state_from_json(_through_text(written))
                assert _through_text(restored.to_json()) == _through_text(written), p.where(i)
                assert restored.is_over == state.is_over, p.where(i)
                if state.outcome is not None:
                    assert restored.outcome is not None
                    assert restored.outcome.to_json() == state.outcome.to_json()
                _same_play(p, i, restored, FOLLOW if i in far else 1)

    def test_a_view_comes_back_equal(self, case: Case) -> None:
        for p in playouts(case):
            for i, state in enumerate(p.states):
                for seat in seats(state):
                    view = state.view(seat)
                    written = view.to_json()
                    assert written["format"] == FORMAT, p.where(i)
                    restored = p.game.view_from_json(_through_text(written))
                    assert restored == view, f"{p.where(i)}, seat {seat}"
                    assert restored.seat == seat
                    assert _through_text(restored.to_json()) == _through_text(written)

    def test_a_record_replays_to_the_same_states_and_events(self, case: Case) -> None:
        name = case[0]
        for p in playouts(case):
            record = Record(
                name,
                p.players,
                p.seed,
                dict(p.options),
                None,
                tuple(str(a) for a in p.actions),
            )
            written = _through_text(record.to_json())
            assert written["format"] == FORMAT
            again = replay(Record.from_json(written), GAMES[name])
            assert len(again) == len(p.states)
            for i, (a, b) in enumerate(zip(again, p.states, strict=True)):
                assert a.to_json() == p.jsons[i], p.where(i)
                assert a.events == b.events, p.where(i)
            for alias in GAMES[name].info.names:
                _, by_alias = replay_json({**written, "game": alias})
                assert by_alias[-1].to_json() == p.final.to_json()


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestJsonFromOutsideIsChecked:
    def test_a_later_format_is_refused(self, case: Case) -> None:
        p = playouts(case)[0]
        state = p.states[len(p.states) // 2]
        for read, written in (
            (p.game.state_from_json, state.to_json()),
            (p.game.view_from_json, state.view(0).to_json()),
        ):
            with pytest.raises(InvalidRecord, match="format"):
                read({**_through_text(written), "format": FORMAT + 1})
            with pytest.raises(InvalidRecord):
                read([written])

    def test_a_broken_field_is_a_bad_record_not_a_crash(self, case: Case) -> None:
        """Each field missing, or of another kind: refused with InvalidRecord (or, where the
        field may be left out, read), never a KeyError, TypeError or assertion."""
        p = playouts(case)[0]
        state = p.states[len(p.states) // 2]
        for read, written in (
            (p.game.state_from_json, _through_text(state.to_json())),
            (p.game.view_from_json, _through_text(state.view(0).to_json())),
        ):
            refusals: list[tuple[str, ParlourError]] = []
            for key in written:
                if key == "format":
                    continue
                missing = {k: v for k, v in written.items() if k != key}
                for broken in (missing, {**written, key: {"?": [None]}}, {**written, key: -7}):
                    try:
                        read(broken)
                    except ParlourError as err:
                        refusals.append((key, err))
            wrong = [(key, err) for key, err in refusals if err.code != "bad_record"]
            assert not wrong, f"refused, but not as a bad record: {wrong}"

    def test_a_record_with_a_bad_action_names_it(self, case: Case) -> None:
        name = case[0]
        p = playouts(case)[0]
        actions = [str(a) for a in p.actions[:3]]
        record = Record(name, p.players, p.seed, dict(p.options), None, (*actions, "nonsense"))
        with pytest.raises(InvalidRecord, match="nonsense"):
            replay(record, GAMES[name])
        with pytest.raises(InvalidRecord):
            replay(dataclasses.replace(record, players=99), GAMES[name])
