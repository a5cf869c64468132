"""What a BEOR seat may know (RULINGS "Public information", B6), and what it may not."""

from __future__ import annotations

import json

from parlour.cards import parse_card
from parlour.core import make_rng
from parlour.games.beor import BeorGame, BeorState
from parlour.games.beor.events import Drew, Flipped, Played

from .helpers import make_deal, new

# Seat 0 holds 3H (flips red: hearts are red), 8D, 5H, 7S, AC, 4D; seat 1 plain low cards.
HANDS = ["3H 8D 5H 7S AC 4D", "6S 6C 2C 3C 5S 5C"]
STOCKS = {"red": "QH JD TH", "black": "KS", "odd": "9H"}


def state_after(*actions: str) -> BeorState:
    state = new(make_deal(HANDS, STOCKS))
    for action in actions:
        state = state.apply(action)
    return state


class TestFaceUpStocks:
    def test_a_flip_shows_the_new_top_to_everyone(self) -> None:
        """B6: 'Playing a 3 or 8 turns that base's stock over before the draw [...] The top
        card of a face-up stock is public.' Red holds QH JD TH ... (9 cards); flipped it is
        face up, reversed, and seat 0 draws its new top."""
        state = state_after("3H>red")
        full = state.to_json()
        red = full["stocks"]["red"]
        assert red["face_up"] is True
        assert red["cards"][-3:] == ["TH", "JD", "QH"]
        for seat in (None, 0, 1):
            view = state.view(seat).to_json()["stocks"]["red"]
            assert view["face_up"] is True and view["size"] == 8
            assert view["top"] == red["cards"][0]

    def test_a_card_drawn_from_a_face_up_stock_is_known_in_that_hand(self) -> None:
        """B6: 'a card drawn from a face-up stock is publicly known to be in that hand until
        played.'"""
        state = state_after("3H>red")  # red is face up when seat 0 draws its top
        drawn = state.to_json()["hands"][0][-1]
        assert state.view(1).to_json()["known_in_hands"][0] == [drawn]
        top = state.view(1).to_json()["stocks"]["red"]["top"]
        state = state.apply("6S>black")  # seat 1 draws KS from black (face down)
        assert state.view(0).to_json()["known_in_hands"][1] == []
        # Seat 0 plays the known card: it is on a base now, no longer "in the hand".
        legal = [str(a) for a in state.legal_actions() if str(a).startswith(drawn + ">")]
        state = state.apply(legal[0])
        assert drawn not in state.view(1).to_json()["known_in_hands"][0]
        assert top is not None

    def test_a_card_seen_on_top_before_a_flip_back_lies_at_the_bottom(self) -> None:
        """Issue, views: 'a card seen on top before a flip back lies at the bottom'."""
        state = state_after("3H>red", "6S>black")
        top = state.view(1).to_json()["stocks"]["red"]["top"]
        state = state.apply("8D>red")  # flips red back face down, reversed, then draws
        view = state.view(1).to_json()["stocks"]["red"]
        assert view["face_up"] is False and view["top"] is None
        assert {"position": view["size"] - 1, "card": top} in view["known"]
        assert state.to_json()["stocks"]["red"]["cards"][-1] == top


class TestHidden:
    def test_a_face_down_draw_is_one_event_named_to_the_drawer_only(self) -> None:
        """Common, "Public information", and B6: a card drawn from a face-down stock is seen by
        its drawer alone. The draw is one event naming the card for the drawer, carrying the
        public telling the other seats and spectators see."""
        state = state_after("5H>red")
        drawn = state.to_json()["hands"][0][-1]
        (draw,) = [e for e in state.events if e.kind == "drew"]
        assert draw.audience == frozenset({0})
        assert draw.redacted is not None and draw.redacted.text == "Player 1 draws from red"
        mine = state.log(0)[-1].events
        assert [e.text for e in mine] == [
            "Player 1 plays 5♥ on red",
            f"Player 1 draws {parse_card(drawn).pretty()} from red",
        ]
        assert mine[-1].to_json()["card"] == drawn
        for seat in (1, None):
            theirs = state.log(seat)[-1].events
            assert [e.text for e in theirs] == [
                "Player 1 plays 5♥ on red",
                "Player 1 draws from red",
            ]
            assert drawn not in json.dumps([e.to_json() for e in theirs])
            assert parse_card(drawn).pretty() not in json.dumps([e.to_json() for e in theirs])

    def test_events_are_typed_records_told_as_core_events(self) -> None:
        """What a turn did is kept as typed records; ``events`` tells each one once, in order
        (B6: the flip comes before the draw)."""
        state = state_after("3H>red")
        typed = state.typed_events
        assert [type(e) for e in typed] == [Played, Flipped, Drew]
        played, flipped, drew = typed
        assert isinstance(played, Played) and isinstance(flipped, Flipped)
        assert isinstance(drew, Drew)
        assert (played.seat, str(played.card), played.base) == (0, "3H", 3)
        assert (flipped.stock, flipped.face_up) == (3, True)
        assert (drew.seat, drew.stock, drew.public) == (0, 3, True)
        assert state.events == tuple(e.to_event() for e in typed)
        assert [e.kind for e in state.events] == ["played", "flipped", "drew"]

    def test_a_face_up_draw_is_one_public_event(self) -> None:
        """B6: 'a card drawn from a face-up stock is publicly known to be in that hand'."""
        state = state_after("3H>red")
        drawn = parse_card(state.to_json()["hands"][0][-1])
        for seat in (0, 1, None):
            texts = [e.text for e in state.log(seat)[-1].events]
            assert f"Player 1 draws {drawn.pretty()} from red" in texts

    def test_views_never_show_other_hands(self) -> None:
        state = state_after("5H>red", "6S>black")
        for seat in (0, 1):
            other = state.to_json()["hands"][1 - seat]
            view = state.view(seat).to_json()
            assert sorted(view["hand"]) == sorted(state.to_json()["hands"][seat])
            text = json.dumps(view)
            for card in other:
                if card not in view["known_in_hands"][1 - seat]:
                    assert f'"{card}"' not in text


class TestSample:
    def test_known_cards_stay_where_they_are_known(self) -> None:
        state = state_after("3H>red", "6S>black", "8D>red")
        game = BeorGame()
        for seat in (0, 1):
            view = state.view(seat)
            for k in range(10):
                sampled = game.sample(view, make_rng(k))
                assert sampled.view(seat) == view
                red = sampled.to_json()["stocks"]["red"]["cards"]
                assert red[-1] == state.to_json()["stocks"]["red"]["cards"][-1]
                known = view.known_in_hands[0]
                assert set(known) <= set(sampled.hands[0])
