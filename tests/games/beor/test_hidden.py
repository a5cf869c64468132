"""What the BEOR rules keep hidden from a seat (``hidden_from``), case by case.

RULINGS "Common": "Public information is everything a player at a real table could see or
remember: every card played face up, every card drawn from a face-up pile, pile sizes, the order
of past events." So hidden from a seat are the cards it has never been shown: a card once face
up stays public (also after a restock shuffles it back, B9), and a seat remembers what it held.
The win by two groups shows them (B5). Each case also checks that the log names what it shows,
so that a ``hidden_from`` still listing those cards would fail the leak checks.
"""

from __future__ import annotations

from parlour.core import State, make_rng

from .helpers import make_deal, new
from .rules_text_helpers import (
    GAME,
    RESTOCK_RESHUFFLED,
    build_deal,
    cards_named,
    js,
    kinds,
    loss3,
    play,
    restock_game,
    stock,
)
from .rules_text_helpers import new as new_state
from .test_json import drained_playout


def told(state: State, seat: int | None) -> set[str]:
    """Every card the whole log names to ``seat``."""
    return cards_named(" ".join(e.text for entry in state.log(seat) for e in entry.events))


class TestWhatIsHidden:
    def test_at_the_deal_other_hands_and_the_stocks(self) -> None:
        """B3: the deal is face down but for the four bases."""
        state = GAME.new(3, 4, {"natural_win": False})
        data = js(state)
        stocks = {c for s in data["stocks"].values() for c in s["cards"]}
        for seat in (0, 1, 2):
            others = {c for s, h in enumerate(data["hands"]) if s != seat for c in h}
            assert state.hidden_from(seat) == others | stocks
        assert state.hidden_from(None) == {c for h in data["hands"] for c in h} | stocks

    def test_a_face_down_draw_is_hidden_from_the_others_only(self) -> None:
        """Common: the drawer sees the card; the others see that he drew."""
        state = new_state(build_deal(2, [["2D"]], {"even": ["JS"]})).apply("2D>even")
        assert "JS" not in state.hidden_from(0)
        assert "JS" in state.hidden_from(1) and "JS" in state.hidden_from(None)
        assert "JS" in told(state, 0) and "JS" not in told(state, 1) | told(state, None)

    def test_the_top_of_a_face_up_stock_and_a_card_drawn_from_it(self) -> None:
        """B6: "The top card of a face-up stock is public; a card drawn from a face-up stock is
        publicly known to be in that hand until played." """
        state = new_state(build_deal(2, [["3H"]]))
        red = stock(state, "red")
        state = state.apply("3H>red")  # red turns face up, reversed; seat 0 draws red[-1]
        for seat in (0, 1, None):
            assert not {red[-1], red[-2]} & state.hidden_from(seat)
            assert red[-1] in told(state, seat)

    def test_a_card_seen_on_top_stays_known_after_a_flip_back(self) -> None:
        """B6: "it changes face-down <-> face-up" -- the card seen on top before the flip back
        lies at the bottom, still public; the card then drawn face down is private."""
        state = new_state(build_deal(2, [["3H"], ["8D"]]))
        red = stock(state, "red")
        state = play(state, ["3H>red", "8D>red"])
        assert red[-2] not in state.hidden_from(0) | state.hidden_from(None)
        assert red[0] in state.hidden_from(0) and red[0] not in state.hidden_from(1)

    def test_a_winner_shows_his_two_groups(self) -> None:
        """B5: "Six cards forming two groups of three"; the win shows them, so they are hidden
        from nobody and known in the winner's hand."""
        deal = make_deal(["AH 2H 9S 9D 9C 5S", "4S 6S 8S TS QS 2C"], {"black": "3H"})
        state = new(deal).apply("5S>black")
        won = {"AH", "2H", "3H", "9S", "9D", "9C"}
        assert state.is_over and set(js(state)["hands"][0]) == won
        for seat in (0, 1, None):
            assert not won & state.hidden_from(seat)
            assert won <= told(state, seat)
            assert {str(c) for c in state.view(seat).known_in_hands[0]} == won

    def test_a_natural_win_shows_the_dealt_groups(self) -> None:
        """B5: "Check after the deal (option natural_win, default on ...)" -- the groups are
        shown at once."""
        deal = make_deal(["4S 6S 8S TS QS 2C", "AH 2H 3H 9S 9D 9C"])
        state = new(deal)
        shown = {"AH", "2H", "3H", "9S", "9D", "9C"}
        assert state.is_over
        assert not shown & state.hidden_from(None) and shown <= told(state, None)
        assert set(js(state)["hands"][0]) <= state.hidden_from(1)

    def test_a_scrapped_hand_is_hidden_from_the_others_not_its_owner(self) -> None:
        """B8: "his hand goes face down to the scrap pile" -- face down for the others; he
        remembers it."""
        deal, actions = loss3("JC")
        state = play(new_state(deal), actions)
        scrap = set(js(state)["scrap"])
        assert js(state)["out"] == [1] and len(scrap) == 6
        assert not scrap & state.hidden_from(1)
        assert scrap <= state.hidden_from(0) & state.hidden_from(2) & state.hidden_from(None)

    def test_cards_once_face_up_stay_public_after_a_restock(self) -> None:
        """B9 shuffles the base cards into face-down stocks: where each lies is hidden, but every
        one of them was face up on a base, so none is news to anyone (Common, "remember")."""
        state, actions = restock_game()
        state = play(state, actions)
        assert "restocked" in kinds(state)
        for seat in (None, 0, 1, 2, 3, 4):
            assert not set(RESTOCK_RESHUFFLED) & state.hidden_from(seat)
            assert not told(state, seat) & state.hidden_from(seat)

    def test_a_seat_is_kept_from_no_more_than_a_spectator(self) -> None:
        """A seat sees what the table sees and its own cards: its hidden cards are among the
        spectator's, and its hand is never hidden from it."""
        states, _ = drained_playout(4, 3, 150)
        for state in states[::10]:
            spectator = state.hidden_from(None)
            for seat in range(4):
                hidden = state.hidden_from(seat)
                assert hidden <= spectator
                assert not set(state.view(seat).to_json()["hand"]) & hidden


class TestSampleKeepsTheMoverIn:
    def test_the_seat_to_move_always_has_a_legal_play(self) -> None:
        """B8: a player with no legal play at the start of his turn loses, so in every world a
        seat may be in, the seat to move has one, however few stocks are left."""
        tight = 0
        for seed in range(6):
            states, _ = drained_playout(5, seed, 300)
            for state in states:
                open_stocks = sum(1 for s in js(state)["stocks"].values() if s["cards"])
                if state.is_over or open_stocks > 1:
                    continue
                tight += 1
                for seat in (None, *range(5)):
                    if seat == state.to_move:
                        continue
                    for k in range(3):
                        sampled = GAME.sample(state.view(seat), make_rng(k))
                        assert sampled.legal_actions(), (seed, seat, k)
        assert tight >= 20, "playouts reach states with a single stock left"
