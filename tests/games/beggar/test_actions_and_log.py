"""Beggar-My-Neighbour's integer actions, typed events, per-seat log, hidden cards and the one
way states are made (issue 11, items 3-5 and 9).

Seed text: "A card game for children in which the players need not make any decisions", so
``play`` (turn your top card) is the only action: id 0 of an action space of one.
"""

from __future__ import annotations

import pytest

from parlour.cards import Card
from parlour.errors import IllegalAction, InvalidNotation
from parlour.games.beggar import PLAY, BeggarGame, BeggarState, RankClass, play_to_end
from parlour.games.beggar.events import BeggarEvent, Captured, Owes, TurnedCard, WentOut, Won

from .rules_text_helpers import full_cards, new, play

GAME = BeggarGame()
EXAMPLE = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"


class TestActionCodec:
    def test_play_is_action_zero_of_one(self) -> None:
        assert GAME.info.num_distinct_actions == 1
        assert GAME.action_id(PLAY) == 0
        assert GAME.action_from_id(0) == PLAY

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_every_state_offers_action_zero_until_the_end(self, players: int) -> None:
        state = GAME.new(players, 11, {"card_limit": 300})
        while not state.is_over:
            assert state.legal_action_ids() == (0,) and state.legal_mask() == [1]
            assert [GAME.action_id(a) for a in state.legal_actions()] == [0]
            nxt = state.apply_id(0)
            assert nxt.to_json() == state.apply(PLAY).to_json()
            state = nxt
        assert state.legal_action_ids() == () and state.legal_mask() == [0]

    @pytest.mark.parametrize("bad", [-1, 1, 2, True, "0", 0.0, None])
    def test_an_id_out_of_range_is_bad_notation(self, bad: object) -> None:
        with pytest.raises(InvalidNotation, match="0 to 0"):
            GAME.action_from_id(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidNotation):
            GAME.new(2, 0).apply_id(bad)  # type: ignore[arg-type]

    def test_an_action_of_another_game_has_no_id_and_is_refused(self) -> None:
        foreign = GAME.new(2, 0)  # any object that is not ``play``
        with pytest.raises(InvalidNotation, match="only action is 'play'"):
            GAME.action_id(foreign)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="only action is 'play'"):
            GAME.new(2, 0).apply(foreign)  # type: ignore[arg-type]

    @pytest.mark.parametrize("text", ["play", " PLAY ", "Play"])
    def test_play_is_read_in_any_case(self, text: str) -> None:
        assert GAME.new(2, 0).parse_action(text) == PLAY


class TestTypedEvents:
    def test_a_first_trick_in_typed_events(self) -> None:
        """M1: the Q asks Player 2 for 2 cards; M2: paid with numbers, Player 1 takes the 7."""
        state = new(EXAMPLE)
        typed: list[BeggarEvent] = []
        while state.tricks == 0:
            state = play(state)
            typed.extend(state.typed_events)
        assert [type(e) for e in typed] == [TurnedCard] * 5 + [Owes] + [TurnedCard] * 2 + [Captured]
        assert typed[5] == Owes(1, 2) and typed[-1] == Captured(0, 7)
        assert [e.event() for e in state.typed_events] == list(state.events)

    def test_the_end_in_typed_events(self) -> None:
        """M3: Player 2 pays his last card and, owing more, has none: he is out. M6: "that
        player takes any pile left and wins"."""
        end = play_to_end(new(EXAMPLE))
        assert end.typed_events == (
            TurnedCard(1, RankClass.NUMBER),
            WentOut(1),
            Captured(0, 22),
            Won(0),
        )
        assert end.events[-1].text == "Player 1 wins with all 52 cards"

    def test_events_are_frozen(self) -> None:
        event = Owes(1, 2)
        with pytest.raises(AttributeError):
            event.cards = 3  # type: ignore[misc]


class TestLog:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_every_seat_reads_the_same_words_as_the_events(self, players: int) -> None:
        """Every card is turned face up and every payment, capture and exit happens in sight
        of the table, so every seat and a spectator read the same log: the events' words."""
        states = [GAME.new(players, 5)]
        for _ in range(120):
            states.append(states[-1].apply(PLAY))
        said = [[e.text for e in s.events] for s in states]
        for seat in [None, *range(players)]:
            log = states[-1].log(seat)
            assert [entry.index for entry in log] == list(range(121))
            assert log[0].kind == "deal" and all(e.kind == "action" for e in log[1:])
            assert all(e.text == "play" for e in log[1:])
            assert [[e.text for e in entry.events] for entry in log] == said
        assert [e.seat for e in states[-1].log(None)[1:]] == [s.to_move for s in states[:-1]]

    def test_a_full_card_is_named_with_its_suit(self) -> None:
        state = play(new(full_cards(EXAMPLE)))
        card = state.pile[-1]
        assert isinstance(card, Card)
        assert state.log(1)[-1].events[0].text == f"Player 1 turns {card.pretty()}"


class TestHiddenFrom:
    def test_at_the_deal_every_card_is_hidden_from_everyone(self) -> None:
        """Seed text (setup): players "keep their cards in front of them, face down" -- even
        from themselves."""
        state = new(full_cards(EXAMPLE))
        every = {str(c) for hand in state.hands for c in hand}
        assert len(every) == 52
        for seat in [None, 0, 1]:
            assert state.hidden_from(seat) == every

    def test_a_card_turned_face_up_is_hidden_no_longer(self) -> None:
        """Seed text: the player turns "his top card" onto "the middle of the table"; M2: the
        trick goes under the capturer's hand, but everyone saw it, so it is hidden no more."""
        state = new(full_cards(EXAMPLE))
        while state.tricks == 0:
            state = play(state)
        taken = [str(c) for c in state.hands[0][-7:]]
        hidden = state.hidden_from(None)
        assert not hidden & set(taken)
        assert hidden == {str(c) for hand in state.hands for c in hand} - set(taken)
        assert len(hidden) == 52 - 7 and hidden == state.hidden_from(0) == state.hidden_from(1)


class TestOneConstructor:
    def test_states_come_only_from_the_game(self) -> None:
        with pytest.raises(TypeError, match="BeggarGame"):
            BeggarState()
