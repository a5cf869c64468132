"""Beggar-My-Neighbour rulings "Common" and M1-M5 of ``rules/RULINGS.md``.

One test class per ruling: the common conventions (piles listed top card first, seats counted
from one in messages, replay from the seed), court cards (M1), the capture (M2), running out
(M3), a payer out in mid-payment and the ``unpaid_penalty`` option (M4), and who the next player
is (M5). Each test quotes its ruling; the deals come from :mod:`.rules_text_helpers`.
"""

from __future__ import annotations

from .rules_text_helpers import (
    GAME,
    SEVEN_TRICKS,
    build_deal,
    card_class,
    event,
    full_cards,
    hand,
    kinds,
    new,
    pile,
    play,
    play_to_end,
)

# -- the rulings ------------------------------------------------------------------------------


class TestCommon:
    def test_piles_in_json_are_listed_top_card_first(self) -> None:
        """Common: "Piles in JSON and strings are listed top card first (index 0 is the card
        drawn or seen next)." """
        state = new(full_cards(build_deal("-K", "Q-")))
        h0, h1 = state.hands
        played = [str(h0[0]), str(h1[0]), str(h0[1])]
        assert [c[0] for c in played] == ["2", "Q", "K"]
        state = play(state, 3)
        assert [str(c) for c in state.pile] == played
        data = state.to_json()
        assert data["pile"] == played[::-1]
        assert data["hands"][0] == [str(c) for c in h0[2:]]
        assert state.view(0).to_json()["pile"] == played[::-1]

    def test_messages_count_seats_from_one(self) -> None:
        """Common: "Seats are numbered 0..n-1 [...] Messages to people say "Player 1".."Player
        n"." """
        state = play(new(build_deal("--", "--", "-J")), 6)
        turned = next(e for e in state.events if e.kind == "turned")
        owes = next(e for e in state.events if e.kind == "owes")
        assert turned.data["seat"] == 2
        assert "Player 3" in turned.text
        assert owes.data["seat"] == 0
        assert "Player 1" in owes.text

    def test_the_same_seed_replays_the_same_game(self) -> None:
        """Common: "the same record always replays to the same states and events"."""
        a, b = GAME.new(3, 42), GAME.new(3, 42)
        for _ in range(200):
            a, b = play(a), play(b)
            assert a.to_json() == b.to_json()
            assert a.events == b.events


class TestM1CourtCards:
    def test_court_cards_demand_one_two_three_four(self) -> None:
        """M1: "J, Q, K, A demand 1, 2, 3, 4 cards from the next player." """
        state = new(build_deal("JK----", "QA"))
        owed = []
        for _ in range(4):
            state = play(state)
            owed.append((state.court_player, state.owed, state.to_move))
        assert pile(state) == "JQKA"
        assert owed == [(0, 1, 1), (1, 2, 0), (0, 3, 1), (1, 4, 0)]
        state = play(state, 4)
        assert event(state, "captured") == {"seat": 1, "cards": 8}

    def test_a_court_card_ends_the_payment(self) -> None:
        """M1: "A court card turned during a payment ends that payment; the next player must pay
        for the new card." """
        state = play(new(build_deal("A-", "--J-")), 4)
        assert pile(state) == "A--J"
        assert (state.to_move, state.owed, state.court_player) == (0, 1, 1)
        state = play(state)
        assert event(state, "captured") == {"seat": 1, "cards": 5}
        assert [len(h) for h in state.hands] == [24, 28]


class TestM2Capture:
    def test_the_pile_goes_under_the_hand_in_the_order_played(self) -> None:
        """M2: "the player of the last court card takes the pile, puts it under his hand in the
        order the cards were played (the first card played to the trick comes up first of the
        block)" """
        state = new(full_cards(build_deal("K---", "-Q--")))
        h0, h1 = state.hands
        order = (h0[0], h1[0], h1[1], h0[1], h0[2])
        assert "".join(card_class(c) for c in order) == "K-Q--"
        state = play(state, 4)
        assert state.pile == order[:4]
        state = play(state)
        assert event(state, "captured") == {"seat": 1, "cards": 5}
        assert state.hands[1][-5:] == order
        assert state.hands[1][:24] == h1[2:]

    def test_the_capturer_leads_the_next_trick(self) -> None:
        """M2: "... and leads the next trick." """
        state = play(new(build_deal("-J-", "-Q--", "---")), 7)
        assert event(state, "captured")["seat"] == 1
        assert state.to_move == 1
        state = play(state)
        assert event(state, "turned")["seat"] == 1
        assert state.to_move == 2


class TestM3RunningOut:
    def test_out_when_he_must_pay_and_has_no_card(self) -> None:
        """M3: "A player is out when he must play (to lead, to follow, or to pay) and has no
        card." Seat 1 pays his last card for a king and still owes two."""
        state = play(new(build_deal(SEVEN_TRICKS + "K", "-" * 26)), 32)
        assert len(state.hands[1]) == 1
        state = play(state)
        assert (state.to_move, state.owed, len(state.hands[1])) == (1, 3, 1)
        state = play(state)
        assert event(state, "out") == {"seat": 1}
        assert state.out == (1,)
        assert state.is_over

    def test_out_when_he_must_follow_and_has_no_card(self) -> None:
        """M3: "A player is out when he must play (to lead, to follow, or to pay) and has no
        card." Seat 1 follows with his last card; he is out when his turn comes round again."""
        state = play(new(build_deal("AAA---", "-" * 13, "----", "----")), 15)
        assert len(state.hands[1]) == 1
        state = play(state, 2)
        assert state.hands[1] == ()
        assert state.out == ()
        assert state.to_move == 2
        state = play(state, 2)
        assert state.out == ()
        assert state.to_move == 0
        state = play(state)
        assert event(state, "out") == {"seat": 1}
        assert state.out == (1,)
        assert state.to_move == 2
        assert pile(state) == "-----"

    def test_a_last_court_card_captures_and_plays_on(self) -> None:
        """M3: "A player whose last card was a court card is not out yet: if the payment then
        completes, he captures and plays on." """
        state = play(new(build_deal(SEVEN_TRICKS + "--", "-" * 25 + "J")), 34)
        assert pile(state) == "-J"
        assert state.hands[1] == ()
        assert state.out == ()
        assert not state.is_over
        assert (state.to_move, state.owed, state.court_player) == (0, 1, 1)
        state = play(state)
        assert event(state, "captured") == {"seat": 1, "cards": 3}
        assert hand(state, 1) == "-J-"
        assert state.out == ()
        assert state.to_move == 1
        state = play(state)
        assert event(state, "turned")["seat"] == 1

    def test_a_last_court_card_answered_by_a_court_card_puts_him_out(self) -> None:
        """M3: "A player whose last card was a court card is not out yet" -- but when the honour
        is paid with a court card he must pay and has no card: out (and with 2 players, M6)."""
        state = play(new(build_deal(SEVEN_TRICKS + "-Q", "-" * 25 + "J")), 35)
        assert event(state, "out") == {"seat": 1}
        assert state.out == (1,)
        assert hand(state, 0).endswith("-JQ")
        assert state.outcome is not None
        assert state.outcome.winners == (0,)
        assert [len(h) for h in state.hands] == [52, 0]
        assert (state.cards, state.tricks) == (35, 8)


class TestM4PayerOutMidPayment:
    def test_default_three_players_the_court_player_captures(self) -> None:
        """M4: "Default: the last court-card player captures the pile (the unpaid rest is
        forgiven)." Seat 1 pays 16 cards for AAAA, then his last for a king."""
        state = play(new(build_deal("AAAAKKKKQQQQJJJJ--", "-" * 17, "-" * 17)), 22)
        assert set(kinds(state)) >= {"turned", "out", "captured"}
        assert event(state, "captured") == {"seat": 0, "cards": 2}
        assert state.out == (1,)
        assert (state.to_move, state.owed, state.pile) == (0, 0, ())
        assert hand(state, 0).endswith("K-")
        assert len(state.hands[2]) == 17
        state = play_to_end(state)
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("win", (0,))
        assert state.out == (1, 2)
        assert (state.cards, state.tricks) == (46, 12)

    def test_next_player_three_players_the_next_player_pays_the_rest(self) -> None:
        """M4: "Option unpaid_penalty = "next_player": the next player still in pays the rest of
        the penalty." """
        deal = build_deal("AAAAKKKKQQQQJJJJ--", "-" * 17, "-" * 17)
        state = play(new(deal, {"unpaid_penalty": "next_player"}), 22)
        assert event(state, "out") == {"seat": 1}
        assert "captured" not in kinds(state)
        assert (state.to_move, state.owed, state.court_player) == (2, 2, 0)
        state = play(state, 2)
        assert event(state, "captured") == {"seat": 0, "cards": 4}
        assert len(state.hands[2]) == 15
        state = play_to_end(state)
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("win", (0,))
        assert (state.cards, state.tricks) == (45, 11)

    def test_default_four_players(self) -> None:
        """M4: "Default: the last court-card player captures the pile (the unpaid rest is
        forgiven)." """
        state = play(new(build_deal("AAAK-", "-" * 13, "--", "--")), 17)
        assert event(state, "captured") == {"seat": 0, "cards": 2}
        assert state.out == (1,)
        assert state.to_move == 0
        assert [len(h) for h in state.hands] == [13 + 12 + 1, 0, 13, 13]
        assert (state.cards, state.tricks) == (17, 4)

    def test_next_player_four_players(self) -> None:
        """M4: "Option unpaid_penalty = "next_player": the next player still in pays the rest of
        the penalty." """
        deal = build_deal("AAAK-", "-" * 13, "--", "--")
        state = play(new(deal, {"unpaid_penalty": "next_player"}), 17)
        assert state.out == (1,)
        assert (state.to_move, state.owed, state.court_player) == (2, 2, 0)
        state = play(state, 2)
        assert event(state, "captured") == {"seat": 0, "cards": 4}
        assert [len(h) for h in state.hands] == [13 + 12 + 3, 0, 11, 13]
        assert state.to_move == 0


class TestM5NextPlayer:
    def test_the_next_player_is_the_next_one_still_in(self) -> None:
        """M5: "Next player always means the next player clockwise who is still in." """
        state = play(new(build_deal("AAAJ-K", "-" * 13, "---", "---")), 17)
        assert state.out == (1,)
        state = play(state)
        assert state.to_move == 2
        state = play(state, 3)
        assert pile(state) == "---K"
        assert (state.to_move, state.owed) == (2, 3)

    def test_players_without_cards_are_out_at_the_end_of_the_trick(self) -> None:
        """M5: "At the end of each trick, every player other than the capturer who holds no card
        is out." Seat 1 turns his last card, a jack; seat 2 answers with a queen and captures."""
        state = play(new(build_deal("AAA-", "-" * 12 + "J", "Q", "--")), 17)
        assert pile(state) == "-J"
        state = play(state)
        assert (state.to_move, state.owed, state.out) == (3, 2, ())
        state = play(state, 2)
        assert event(state, "captured") == {"seat": 2, "cards": 5}
        assert event(state, "out") == {"seat": 1}
        assert state.out == (1,)
        assert state.to_move == 2
