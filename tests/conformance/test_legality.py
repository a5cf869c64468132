"""``apply`` accepts exactly ``legal_actions()`` (ARCHITECTURE.md, "The contract": a State
"checks legality itself").

At every state of every playout each legal action applies, and actions that are legal elsewhere
in the game (anywhere in the case's playout, any action of the integer codec, or one made by
recombining the fields of those, such as a card on a base it does not fit) but not here
are refused with :class:`IllegalAction` (``GameOver`` once the game is over), and the refusal
changes nothing. Every state tries the near misses, the actions legal a step before or after it
and at the mover's turns before and after, and a share of the rest that moves on at each state;
four states spread over each game try every action of the pool.
"""

from __future__ import annotations

import json

import pytest

from parlour.core import Action, GameOver, IllegalAction, InvalidNotation, NotYourTurn, State
from tests.conformance.playouts import (
    CASES,
    Case,
    Playout,
    action_pool,
    case_id,
    playouts,
    spread,
)

WINDOW = 16  # pool actions each state tries besides the near misses


def _near_misses(p: Playout, index: int) -> set[Action]:
    """The actions legal just before and after ``index``, and at the mover's turns before and
    after (a card held but of the wrong suit now, a draw from a stock since emptied)."""
    near = {index - 1, index + 1, index - p.players, index + p.players}
    return {a for k in near if 0 <= k < len(p.states) for a in p.states[k].legal_actions()}


def _window(pool: tuple[Action, ...], index: int) -> tuple[Action, ...]:
    """A share of the pool that moves on at each state, so a game tries all of it."""
    start = index * WINDOW % len(pool)
    return (pool + pool)[start : start + WINDOW]


def _refuses(p: Playout, index: int, action: Action, *, as_text: bool) -> None:
    """``action`` is refused at ``index`` as illegal (as over, once the game is over), given
    as an action, by the mover, and (``as_text``) as its notation, which is well formed and
    so refused as illegal, not as bad text."""
    state = p.states[index]
    expected = GameOver if state.is_over else IllegalAction
    tries: list[tuple[Action | str, int | None]] = [(action, None)]
    if as_text:
        tries += [(str(action), None), (action, state.to_move)]
    for given, seat in tries:
        try:
            state.apply(given, seat=seat)
        except IllegalAction as err:
            refused: IllegalAction = err
        else:
            pytest.fail(
                f"{p.where(index)}: apply accepted {given!r}, which is not among the legal "
                f"actions {[str(a) for a in state.legal_actions()]}"
            )
        assert type(refused) is expected, (
            f"{p.where(index)}: {given!r} refused as {type(refused).__name__}: {refused}"
        )
        assert refused.code == expected.code and str(refused).strip()


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestApplyAcceptsExactlyTheLegalActions:
    def test_every_legal_action_applies(self, case: Case) -> None:
        for p in playouts(case):
            for i, state in enumerate(p.states[:-1]):
                legal = state.legal_actions()
                assert legal and len(set(legal)) == len(legal), p.where(i)
                assert p.actions[i] in legal
                for action in legal:
                    after = state.apply(action)
                    assert after is not state and after.previous is state, p.where(i)
                assert state.apply(p.actions[i]).to_json() == p.jsons[i + 1], p.where(i)

    def test_an_action_and_its_notation_play_alike(self, case: Case) -> None:
        for p in playouts(case):
            for i in spread(len(p.states) - 1):
                state = p.states[i]
                for action in state.legal_actions():
                    text = str(action)
                    assert state.parse_action(text) == action, p.where(i)
                    assert state.apply(text).to_json() == state.apply(action).to_json()
                    mover = state.to_move
                    assert mover is not None
                    assert state.apply(action, seat=mover).to_json() == (
                        state.apply(action).to_json()
                    )

    def test_actions_legal_elsewhere_are_refused_here(self, case: Case) -> None:
        pool = action_pool(case)
        for p in playouts(case):
            everything = set(spread(len(p.states), 4))
            for i, state in enumerate(p.states):
                legal = set(state.legal_actions())
                near = _near_misses(p, i) - legal
                rest = set(pool if i in everything else _window(pool, i)) - legal - near
                for action in sorted(near, key=str):
                    _refuses(p, i, action, as_text=True)
                for action in sorted(rest, key=str):
                    _refuses(p, i, action, as_text=False)
                assert state.to_json() == p.jsons[i], (
                    f"{p.where(i)}: a refused action changed the state"
                )

    def test_only_the_seat_to_move_may_act(self, case: Case) -> None:
        for p in playouts(case):
            for i in spread(len(p.states) - 1):
                state = p.states[i]
                before = state.to_json()
                mover = state.to_move
                assert mover is not None and 0 <= mover < state.players
                for seat in range(state.players):
                    if seat == mover:
                        continue
                    with pytest.raises(NotYourTurn, match="Player") as caught:
                        state.apply(state.legal_actions()[0], seat=seat)
                    assert caught.value.code == "not_your_turn"
                assert state.to_json() == before

    def test_bad_notation_is_told_apart_from_an_illegal_action(self, case: Case) -> None:
        state = playouts(case)[0].states[0]
        before = state.to_json()
        for text in ("", "no-such-action", "ZZ>nowhere", "give -3>P99"):
            with pytest.raises((InvalidNotation, IllegalAction)) as caught:
                state.apply(text)
            assert caught.value.code in ("bad_notation", "illegal")
            assert str(caught.value).strip()
        assert state.to_json() == before


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestPlayoutsEnd:
    def test_a_playout_ends_with_an_outcome(self, case: Case) -> None:
        for p in playouts(case):
            final = p.final
            assert final.is_over and final.outcome is not None
            assert final.to_move is None and final.legal_actions() == ()
            assert final.legal_action_ids() == () and not any(final.legal_mask())
            assert all(not s.is_over and s.outcome is None for s in p.states[:-1])
            with pytest.raises(GameOver):
                final.apply(p.actions[-1])
            with pytest.raises(GameOver):
                final.apply(str(p.actions[-1]))

    def test_the_outcome_is_well_formed(self, case: Case) -> None:
        for p in playouts(case):
            final: State = p.final
            outcome = final.outcome
            assert outcome is not None
            n = final.players
            assert len(outcome.ranks) == len(outcome.returns) == len(outcome.scores) == n
            assert set(outcome.winners) <= set(range(n))
            assert all(1 <= r <= n for r in outcome.ranks)
            assert all(outcome.ranks[w] == 1 for w in outcome.winners)
            assert sum(outcome.returns) == pytest.approx(1.0 if outcome.winners else 0.0)
            json.dumps(outcome.to_json())
