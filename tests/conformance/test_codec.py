"""Actions as integers (issue 11 item 4; ARCHITECTURE.md, "The contract": the action codec):
exact both ways for every legal action of every visited state, ids in range, sorted legal ids
and a mask that marks exactly them; ids out of range are bad notation; no game runs longer
than ``info.max_game_length``."""

from __future__ import annotations

import pytest

from parlour.core import Action, Game, InvalidNotation
from parlour.games import GAMES
from tests.conformance.playouts import CASES, Case, case_id, play, playouts

GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
class TestTheCodecOfAGame:
    def test_every_id_names_one_action_and_back(self, name: str) -> None:
        game = GAMES[name]
        n = game.info.num_distinct_actions
        actions = [game.action_from_id(i) for i in range(n)]
        assert all(isinstance(a, Action) for a in actions)
        assert [game.action_id(a) for a in actions] == list(range(n))
        assert len(set(actions)) == n, "two ids name the same action"
        assert len({str(a) for a in actions}) == n, "two actions share a notation"

    def test_an_id_out_of_range_is_bad_notation(self, name: str) -> None:
        game = GAMES[name]
        n = game.info.num_distinct_actions
        state = game.new(game.info.default_players, 0)
        before = state.to_json()
        for bad in (-1, n, n + 1, True, 1.0, "0", None):
            with pytest.raises(InvalidNotation) as caught:
                game.action_from_id(bad)  # type: ignore[arg-type]
            assert caught.value.code == "bad_notation"
            assert str(n - 1) in str(caught.value), "the message gives the range"
            with pytest.raises(InvalidNotation):
                state.apply_id(bad)  # type: ignore[arg-type]
        assert state.to_json() == before


@pytest.mark.parametrize("case", CASES, ids=case_id)
class TestTheCodecInPlay:
    def test_legal_ids_and_mask_match_the_legal_actions(self, case: Case) -> None:
        for p in playouts(case):
            game: Game = p.game
            n = game.info.num_distinct_actions
            for i, state in enumerate(p.states):
                legal = state.legal_actions()
                ids = [game.action_id(a) for a in legal]
                assert all(0 <= k < n for k in ids), p.where(i)
                assert [game.action_from_id(k) for k in ids] == list(legal), p.where(i)
                assert state.legal_action_ids() == tuple(sorted(ids)), p.where(i)
                assert len(set(ids)) == len(ids), f"{p.where(i)}: two legal actions, one id"
                mask = state.legal_mask()
                assert len(mask) == n and set(mask) <= {0, 1}, p.where(i)
                assert [k for k, bit in enumerate(mask) if bit] == sorted(ids), p.where(i)

    def test_an_id_plays_as_its_action(self, case: Case) -> None:
        for p in playouts(case):
            for i, action in enumerate(p.actions):
                after = p.states[i].apply_id(p.game.action_id(action))
                assert after.to_json() == p.jsons[i + 1], p.where(i)


BOUNDED = [c for c in CASES if GAMES[c[0]].info.max_game_length is not None]


@pytest.mark.parametrize("case", BOUNDED, ids=case_id)
def test_no_game_runs_longer_than_its_bound(case: Case) -> None:
    """``max_game_length`` bounds the player actions of a game with the default options:
    heuristic and purely random play (which in BEOR runs to the turn limit, B10). A game
    without a bound (``None``) is left out of the cases."""
    name, players = case
    game = GAMES[name]
    bound = game.info.max_game_length
    assert bound is not None
    for p in (playouts(case)[0], play(game, players, 2, heuristic=False)):
        assert len(p.actions) <= bound, p.where(len(p.actions))
