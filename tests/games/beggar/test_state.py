"""Beggar-My-Neighbour states as the contract promises them: immutable, events people can
follow, views that show no hand card, samples that agree with the view."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import Card
from parlour.core import Record, make_rng, replay
from parlour.games.beggar import PLAY, BeggarGame, BeggarState, play_to_end

GAME = BeggarGame()
EXAMPLE = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"


def advance(state: BeggarState, actions: int) -> BeggarState:
    for _ in range(actions):
        state = state.apply(PLAY)
    return state


class TestImmutability:
    def test_apply_leaves_the_old_state_as_it_was(self) -> None:
        start = GAME.new(2, 0, deal=EXAMPLE)
        before = start.to_json()
        after = advance(start, 10)
        assert start.to_json() == before
        assert after.cards == 10 and start.cards == 0

    def test_public_fields_cannot_be_set(self) -> None:
        state = GAME.new(2, 0)
        with pytest.raises(AttributeError):
            state.cards = 5  # type: ignore[misc]

    def test_playing_on_from_an_old_state_gives_the_same_line(self) -> None:
        """M10: playing on from an earlier state (a branch of the line) must neither see
        false repeats nor miss the real one (more in ``test_history.py``)."""
        start = GAME.new(2, 0, deal="---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA")
        end = play_to_end(start)
        middle = advance(start, 300)
        again = play_to_end(middle)
        assert again.to_json() == end.to_json() and again.cycle == end.cycle
        assert play_to_end(start).cycle == end.cycle


class TestEvents:
    def test_turn_pay_and_capture_in_plain_words(self) -> None:
        """Seat 0 leads -,-,Q ...; seat 1 must pay 2 with number cards; seat 0 takes 7 cards."""
        state = GAME.new(2, 0, deal=EXAMPLE)
        texts: list[str] = []
        while state.tricks == 0:
            state = state.apply("play")
            texts.extend(e.text for e in state.events)
        # A rank-only deal (M9) names no number card's rank: the log says "a number card",
        # never the notation's "-" (issue 18).
        assert texts == [
            "Player 1 turns a number card",
            "Player 2 turns a number card",
            "Player 1 turns a number card",
            "Player 2 turns a number card",
            "Player 1 turns a queen",
            "Player 2 must pay 2 cards",
            "Player 2 turns a number card",
            "Player 2 turns a number card",
            "Player 1 takes the pile (7 cards)",
        ]
        assert state.to_move == 0

    def test_full_cards_are_named_with_symbols(self) -> None:
        state = GAME.new(2, 4).apply("play")
        turned = state.events[0]
        card = state.pile[-1]
        assert isinstance(card, Card)
        assert turned.kind == "turned" and turned.data == {"seat": 0, "card": str(card)}
        assert turned.text == f"Player 1 turns {card.pretty()}"

    def test_the_end_is_announced(self) -> None:
        end = play_to_end(GAME.new(2, 0, deal=EXAMPLE))
        kinds = [e.kind for e in end.events]
        assert kinds[-1] == "won" and end.events[-1].text == "Player 1 wins with all 52 cards"

    def test_events_are_all_public(self) -> None:
        state = advance(GAME.new(3, 2), 40)
        assert all(e.audience is None for e in state.events)


class TestViews:
    @given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.integers(0, 200))
    def test_no_hand_card_in_any_view(self, seed: int, players: int, steps: int) -> None:
        """Issue: 'A view shows no card in any hand (the hands are face down, even to their
        owners): only hand sizes and the face-up pile.'"""
        state = GAME.new(players, seed)
        for _ in range(steps):
            if state.is_over:
                break
            state = state.apply(PLAY)
        pile = {str(c) for c in state.pile}
        for seat in [None, *range(players)]:
            text = json.dumps(state.view(seat).to_json())
            for hand in state.hands:
                for card in hand:
                    if str(card) not in pile:
                        assert f'"{card}"' not in text
            assert state.view(seat).hand_sizes == tuple(len(h) for h in state.hands)

    def test_every_seat_sees_the_same_table(self) -> None:
        state = advance(GAME.new(4, 1), 25)
        views = [state.view(s).to_json() for s in [None, 0, 1, 2, 3]]
        for view in views:
            view.pop("seat")
        assert all(v == views[0] for v in views)

    def test_pile_is_listed_top_card_first(self) -> None:
        """RULINGS 'Common': piles in JSON are listed top card first."""
        state = advance(GAME.new(2, 0, deal=EXAMPLE), 5)
        assert state.view(0).to_json()["pile"] == ["Q", "-", "-", "-", "-"]
        assert state.to_json()["pile"] == ["Q", "-", "-", "-", "-"]


class TestSample:
    @given(
        st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.integers(0, 300), st.integers(0, 99)
    )
    def test_sample_agrees_with_the_view(self, seed: int, players: int, steps: int, k: int) -> None:
        state = GAME.new(players, seed)
        for _ in range(steps):
            if state.is_over:
                break
            state = state.apply(PLAY)
        view = state.view(k % players)
        sampled = GAME.sample(view, make_rng(k))
        assert sampled.view(k % players) == view

        def every_card(s: BeggarState) -> list[str]:
            return sorted(str(c) for c in [*(c for h in s.hands for c in h), *s.pile])

        assert every_card(sampled) == every_card(state)

    def test_samples_differ_where_the_view_is_silent(self) -> None:
        view = GAME.new(2, 3).view(0)
        hands = {GAME.sample(view, make_rng(k)).hands for k in range(5)}
        assert len(hands) == 5

    def test_rank_only_games_sample_classes(self) -> None:
        state = advance(GAME.new(2, 0, deal=EXAMPLE), 7)
        sampled = GAME.sample(state.view(1), make_rng(1))
        classes = sorted(str(t) for h in sampled.hands for t in h) + [str(t) for t in sampled.pile]
        assert sorted(classes) == sorted("AAAAKKKKQQQQJJJJ" + "-" * 36)


class TestRecords:
    @given(
        st.integers(0, 2**63 - 1),
        st.sampled_from([2, 3, 4]),
        st.integers(0, 400),
        st.sampled_from(["capture", "next_player"]),
    )
    def test_replay_equality(self, seed: int, players: int, steps: int, penalty: str) -> None:
        """A record (through JSON) replays to the same states and events."""
        options = {"unpaid_penalty": penalty}
        states = [GAME.new(players, seed, options)]
        while len(states) <= steps and not states[-1].is_over:
            states.append(states[-1].apply(PLAY))
        record = Record("beggar", players, seed, options, None, ("play",) * (len(states) - 1))
        again = replay(Record.from_json(json.loads(json.dumps(record.to_json()))), GAME)
        assert [s.to_json() for s in again] == [s.to_json() for s in states]
        assert [s.events for s in again] == [s.events for s in states]


class TestCardLimitReading:
    @pytest.mark.parametrize(
        "deal",
        [
            "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J",
            "-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----",
        ],
    )
    def test_a_limit_at_the_game_length_changes_nothing(self, deal: str) -> None:
        """M11 'stop after N cards played': card N's own consequences (a capture, a player with
        no card going out, the end) still happen, so a limit of the game's length keeps its
        result; one card less stops it."""
        free = play_to_end(GAME.new(deal.count("/") + 1, 0, deal=deal))
        capped = play_to_end(GAME.new(free.players, 0, {"card_limit": free.cards}, deal))
        assert capped.summary() == free.summary()
        short = play_to_end(GAME.new(free.players, 0, {"card_limit": free.cards - 1}, deal))
        assert short.summary()["result"] == "limit" and short.cards == free.cards - 1
