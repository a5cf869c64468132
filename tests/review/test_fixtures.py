"""The stored records say what records/README.md says they do, by the rules alone (no review):
the planted move throws away a move the seat could see was winning, and the hidden pairs
differ only in cards the reviewed seat never sees. If a change to a game's rules or deal
breaks one, the review tests would test nothing: these fail first."""

from __future__ import annotations

import random

from parlour.cards import parse_card
from parlour.core.record import replay
from parlour.games.beor import BeorState, BeorView, is_goal
from parlour.games.death import DeathState

from .helpers import before_each_action, cut, holdings, load


class TestBeorBlunder:
    def test_the_winning_move_is_seen_and_the_planted_one_is_not_it(self) -> None:
        """Before action 22 Player 1 holds 6H 7H 7C KS KD KC with 7S face up on the Even
        stock: 6H on Even wins at once in every deal its view allows (B5, B6); the record
        plays KS on Black instead, which does not end the deal, and Player 1 loses it."""
        record, game = load("beor_blunder")
        state = before_each_action(record, game)[22]
        assert state.to_move == 0
        view = state.view(0)
        assert isinstance(view, BeorView) and view.hand is not None
        assert sorted(map(str, view.hand)) == sorted(["6H", "7H", "7C", "KS", "KD", "KC"])
        even = view.stocks[1]
        assert even.face_up and even.top == parse_card("7S")
        kept = [c for c in view.hand if c != parse_card("6H")]
        assert is_goal([*kept, parse_card("7S")])
        for k in range(20):
            world = game.sample(view, random.Random(k))
            outcome = world.apply("6H>even").outcome
            assert outcome is not None and outcome.winners == (0,)
        assert record.actions[22] == "KS>black"
        assert not state.apply("KS>black").is_over
        end = replay(record, game)[-1].outcome
        assert end is not None and end.winners == (1,)


class TestDeathBlunder:
    def test_the_planted_throw_takes_ten_drinks_where_one_takes_none(self) -> None:
        """Before action 58 Player 1 leads on drinks (19 against 32, 31, 22) and may throw AD
        (take 10), KD (take 8) or 7D (nothing: JD on top is no number card, G3); the record
        throws AD, and Player 1 does not win the deal."""
        record, game = load("death_blunder")
        state = before_each_action(record, game)[58]
        assert isinstance(state, DeathState) and state.to_move == 0
        assert state.drinks_taken == (19, 32, 31, 22)
        assert sorted(str(a) for a in state.legal_actions()) == ["7D", "AD", "KD"]
        cost = {
            text: state.apply(text).drinks_taken[0] - state.drinks_taken[0]
            for text in ("AD", "KD", "7D")
        }
        assert cost == {"AD": 10, "KD": 8, "7D": 0}
        assert record.actions[58] == "AD"
        end = replay(record, game)[-1].outcome
        assert end is not None and 0 not in end.winners


class TestHiddenPairs:
    def test_beor_pair_differs_only_out_of_player_1s_sight(self) -> None:
        """Same seed and actions, deals that differ in two cards (KD in Player 2's hand, 8C in
        the Black stock), apart in every state, and every view of Player 1 the same."""
        first, game = load("beor_hidden_a")
        second, _ = load("beor_hidden_b")
        assert first.actions == second.actions and first.seed == second.seed
        assert first.deal != second.deal
        a, b = replay(first, game), replay(second, game)
        assert all(holdings(x) != holdings(y) for x, y in zip(a, b, strict=True))
        assert [s.view(0) for s in a] == [s.view(0) for s in b]
        final = a[-1]
        assert isinstance(final, BeorState)
        assert parse_card("KD") in final.hands[1]

    def test_death_pair_differs_only_out_of_player_1s_sight_until_the_end(self) -> None:
        """Same seed and actions; 3H and QD swapped between Players 2 and 4 and held to the
        end; Player 1's views agree at every step but the last (G11 shows every hand), and
        everywhere once the last action is cut."""
        first, game = load("death_hidden_a")
        second, _ = load("death_hidden_b")
        assert first.actions == second.actions and first.seed == second.seed
        a, b = replay(first, game), replay(second, game)
        assert all(holdings(x) != holdings(y) for x, y in zip(a, b, strict=True))
        assert [s.view(0) for s in a[:-1]] == [s.view(0) for s in b[:-1]]
        assert a[-1].view(0) != b[-1].view(0)
        assert a[-1].outcome == b[-1].outcome
        short = len(first.actions) - 1
        a_cut, b_cut = replay(cut(first, short), game), replay(cut(second, short), game)
        assert not a_cut[-1].is_over
        assert [s.view(0) for s in a_cut] == [s.view(0) for s in b_cut]
