"""Beggar-My-Neighbour rule text, second half: collecting the pile, running out and winning.

Tested sentence by sentence against ``seeds/beggar-my-neighbour.nl.txt`` (Dutch) and ``.ro.txt``
(Romanian): one test class per section (collecting the pile, running out, winning, the agreed
time limit), each test quoting its sentence in English, then the originals. The deals come from
:mod:`.rules_text_helpers` (rank-only notation of M9).
"""

from __future__ import annotations

import pytest

from parlour.errors import GameOver

from .rules_text_helpers import (
    SEVEN_TRICKS,
    build_deal,
    event,
    full_cards,
    hand,
    kinds,
    new,
    pile,
    play,
)


class TestCollectingThePile:
    def test_paid_in_numbers_the_court_card_player_collects_everything(self) -> None:
        """en: "If all the honour cards are number cards, the player who played the court card
        collects all the cards in the middle of the table."
        nl: "Als alle kaarten ter ere van nummerkaarten zijn, verzamelt de speler die de
        speelkaart speelde alle kaarten in het midden van de tafel."
        ro: "Dacă toate cărțile de onoare sunt cărți cu numere, jucătorul care a jucat cartea de
        curte adună toate cărțile în mijlocul mesei."
        Seat 0's number, turned before the jack, is collected too.
        """
        state = play(new(build_deal("--", "J-", "--")), 3)
        assert event(state, "captured") == {"seat": 1, "cards": 3}
        assert state.pile == ()
        assert [len(h) for h in state.hands] == [17, 19, 16]
        assert hand(state, 1).endswith("-J-")
        assert state.to_move == 1

    def test_a_court_card_in_the_honour_stops_the_payer(self) -> None:
        """en: "However, if one of the honour cards is a court card, the player paying stops at once
        and the next player must pay an honour by the schedule above."
        nl: "Echter, als een van de kaarten ter ere van een rechtbankkaart is, stopt de speler die
        de eer betaalt onmiddellijk en moet de volgende speler een eer betalen op basis van het
        bovenstaande schema."
        ro: "Cu toate acestea, dacă una dintre cărțile din onoare este o carte de curte, jucătorul
        care plătește onoarea se oprește imediat și următorul jucător trebuie să plătească o
        onoare pe baza protocolului de mai sus."
        """
        state = play(new(build_deal("A-", "-K--", "----")), 3)
        assert pile(state) == "A-K"
        assert (state.to_move, state.owed, state.court_player) == (2, 3, 1)
        assert len(state.hands[1]) == 15
        assert event(state, "owes") == {"seat": 2, "cards": 3}

    def test_the_last_court_card_player_collects(self) -> None:
        """en: "If that honour is paid with number cards only, the cards in the middle are collected
        by the last player who played a court card."
        nl: "Als die eer wordt betaald met alleen nummerkaarten, worden de kaarten in het midden
        van de tafel verzameld door de laatste speler die een speelkaart speelde."
        ro: "Dacă acea onoare este plătită doar cu cărți cu numere, cărțile din mijlocul mesei
        sunt colectate de ultimul jucător care a jucat o carte de curte."
        """
        state = play(new(build_deal("K-", "-Q", "-J")), 5)
        assert pile(state) == "K-Q-J"
        state = play(state)
        assert event(state, "captured") == {"seat": 2, "cards": 6}
        assert hand(state, 2).endswith("K-Q-J-")
        assert state.to_move == 2

    def test_the_winner_puts_the_pile_under_his_own_face_down(self) -> None:
        """en: "This goes on until a player wins the pile. That player puts it at the bottom of his
        own pile, face down."
        nl: "Dit gaat door totdat een speler de stapel wint. Die speler legt dan de stapel
        onderaan zijn stapel neer, met de afbeelding naar beneden."
        ro: "Acest lucru continuă până când un jucător câștigă grămada. Acel jucător pune apoi
        teancul în partea de jos a teancului său, cu fața în jos."
        """
        state = new(full_cards(build_deal("Q-", "--")))
        before = state.hands[0]
        state = play(state, 3)
        assert state.hands[0][:25] == before[1:]
        assert len(state.hands[0]) == 28
        assert state.view(1).pile == ()
        assert state.view(1).hand_sizes == (28, 24)


class TestRunningOut:
    def test_a_player_out_of_cards_leaves_and_the_others_play_on(self) -> None:
        """en: "When a player has no cards left he is out of the game and the others play on."
        nl: "Als een speler geen kaarten meer heeft, wordt hij uit het spel verwijderd en blijven
        de andere spelers spelen."
        ro: "Când un jucător rămâne fără cărți, este eliminat din joc, iar ceilalți jucători
        continuă să joace."
        """
        # AAA cost seat 1 twelve cards; he pays his 13th, and last, for the jack.
        state = play(new(build_deal("AAAJ--", "-" * 13, "--", "--")), 17)
        assert "captured" in kinds(state)
        assert event(state, "out") == {"seat": 1}
        assert state.out == (1,)
        assert not state.is_over
        assert state.to_move == 0
        state = play(state, 3)
        assert [e.data["seat"] for e in state.events if e.kind == "turned"] == [3]
        assert state.out == (1,)


class TestWinning:
    def test_the_first_player_to_win_the_whole_deck_wins(self) -> None:
        """en: "The first player to win the whole deck is the winner."
        nl: "De eerste speler die het volledige spel kaarten wint, is de winnaar."
        ro: "Primul jucător care câștigă întregul pachet de cărți este câștigătorul."
        """
        state = play(new(build_deal(SEVEN_TRICKS + "J", "-" * 26)), 34)
        assert state.is_over
        assert state.to_move is None
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("win", (0,))
        assert state.outcome.returns == (1.0, 0.0)
        assert event(state, "won") == {"seat": 0}
        with pytest.raises(GameOver):
            state.apply("play")


class TestTimeLimit:
    def test_most_cards_at_the_agreed_time_wins(self) -> None:
        """en: "A game may last long, so players may agree that whoever holds the most cards at the
        end of an agreed time is the winner."
        nl: "Het is mogelijk dat een spel met Beggar My Neighbor lang duurt, dus spelers kunnen
        overeenkomen dat de speler met de meeste kaarten aan het einde van een vooraf bepaalde
        tijd de winnaar is."
        ro: "[...] jucătorii pot conveni că jucătorul care are cele mai multe cărți la
        sfârșitul unui timp prestabilit este câștigătorul."
        """
        state = play(new(build_deal("--", "--"), {"card_limit": 1}))
        assert state.is_over
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (1,))
        assert "limit" in kinds(state)
