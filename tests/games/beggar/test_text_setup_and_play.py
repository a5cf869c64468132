"""Beggar-My-Neighbour rule text, first half: the game, players, deck, setup and play.

Tested sentence by sentence against ``seeds/beggar-my-neighbour.nl.txt`` (Dutch) and ``.ro.txt``
(Romanian), the same game: one test class per section (introduction, players, deck, object,
setup, gameplay, court cards and honours), each test quoting its sentence in English, then the
originals. The deals come from :mod:`.rules_text_helpers` (rank-only notation of M9).
"""

from __future__ import annotations

import re

import pytest

from parlour.cards import deck52
from parlour.errors import InvalidNotation, InvalidOption
from parlour.games.beggar import parse_deal

from .rules_text_helpers import (
    GAME,
    OWED,
    SEVEN_TRICKS,
    all_cards,
    build_deal,
    event,
    full_cards,
    new,
    pile,
    play,
)

# -- the rule text ----------------------------------------------------------------------------


class TestIntroduction:
    def test_players_take_no_decisions(self) -> None:
        """en: "A card game for children in which the players need not make any decisions."
        nl: "een kaartspel voor kinderen waarvoor de spelers geen beslissingen hoeven te nemen"
        ro: "un joc de cărți pentru copii care nu necesită ca jucătorii să ia nicio decizie"
        """
        state = GAME.new(3, 5)
        for _ in range(30):
            assert [str(a) for a in state.legal_actions()] == ["play"]
            state = play(state)
        # With no decision to make, 'play' is the whole notation: anything else is not an
        # action of the game at all (bad notation), not a move the rules forbid.
        with pytest.raises(InvalidNotation, match="the only action is 'play'"):
            state.apply("pass")


class TestPlayers:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_two_to_four_players(self, players: int) -> None:
        """en: "2 to 4 players."  nl: "2 tot 4 spelers."  ro: "2 până la 4 jucători." """
        state = GAME.new(players, 1)
        assert state.players == players
        assert len(state.hands) == players

    @pytest.mark.parametrize("players", [1, 5])
    def test_other_numbers_of_players_are_refused(self, players: int) -> None:
        """en: "2 to 4 players."  nl: "2 tot 4 spelers."  ro: "2 până la 4 jucători." """
        with pytest.raises(InvalidOption, match="2 to 4"):
            GAME.new(players, 1)


class TestDeck:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_a_standard_52_card_deck(self, players: int) -> None:
        """en: "Standard deck of 52 cards."
        nl: "Standaard deck met 52 kaarten."  ro: "Pachet standard de 52 de cărți."
        """
        for seed in range(5):
            state = GAME.new(players, seed)
            assert all_cards(state) == sorted(str(c) for c in deck52())

    def test_no_jokers_and_no_card_twice(self) -> None:
        """en: "Standard deck of 52 cards."
        nl: "Standaard deck met 52 kaarten."  ro: "Pachet standard de 52 de cărți."
        """
        deal = full_cards(build_deal("", ""))
        with pytest.raises(InvalidNotation):
            parse_deal(deal.replace("2S", "JK1", 1))
        with pytest.raises(InvalidNotation):
            parse_deal(deal.replace("2S", "3S", 1))


class TestObject:
    def test_to_win_all_the_cards(self) -> None:
        """en: "To win all the cards."  nl: "Om alle kaarten te winnen."
        ro: "Câștigați toate cărțile."
        The game does not end while two players hold cards; it ends with one holding all 52.
        """
        state = new(build_deal(SEVEN_TRICKS + "J", "-" * 26))
        for _ in range(34):
            assert not state.is_over
            assert len(state.hands[1]) > 0
            state = play(state)
        assert state.is_over
        assert [len(h) for h in state.hands] == [52, 0]
        assert state.pile == ()


class TestSetup:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_deal_as_evenly_as_possible(self, players: int) -> None:
        """en: "Shuffle the deck and deal the cards as evenly as possible."
        nl: "Schud het spel en deel de kaarten zo gelijkmatig mogelijk uit."
        ro: "Mestecați pachetul și distribuiți cărțile cât mai uniform posibil."
        """
        sizes = [len(h) for h in GAME.new(players, 3).hands]
        assert sum(sizes) == 52
        assert max(sizes) - min(sizes) <= 1

    def test_the_deck_is_shuffled_from_the_seed(self) -> None:
        """en: "Shuffle the deck ..."  nl: "Schud het spel ..."  ro: "Mestecați pachetul ..."
        Common: randomness comes only from the seed.
        """
        deals = {str(GAME.new(2, seed).to_json()["hands"]) for seed in range(6)}
        assert len(deals) == 6
        assert GAME.new(4, 11).to_json() == GAME.new(4, 11).to_json()

    def test_players_keep_their_cards_face_down(self) -> None:
        """en: "Players keep their cards in front of them, face down."
        nl: "Spelers houden hun kaarten voor zich, ondersteboven."
        ro: "Jucătorii își păstrează cărțile în fața lor, cu fața în jos."
        A seat's view shows how many cards each hand holds and the face-up pile, no hand card.
        """
        state = play(GAME.new(3, 8), 5)
        card_re = re.compile(r"\b[A2-9TJQK][SHDC]\b")
        for seat in (None, 0, 1, 2):
            view = state.view(seat)
            assert list(view.hand_sizes) == [len(h) for h in state.hands]
            text = str(view.to_json())
            assert sorted(card_re.findall(text)) == sorted(str(c) for c in state.pile)


class TestGameplay:
    def test_the_player_left_of_the_dealer_turns_his_top_card(self) -> None:
        """en: "The player to the left of the dealer starts by turning his top card up and playing
        it in the middle of the table."
        nl: "De speler links van de dealer start het spel door zijn bovenste kaart omhoog te
        draaien en deze in het midden van de tafel te spelen."
        ro: "Jucătorul din stânga dealerului începe jocul întorcându-și cartea de sus și
        jucând-o în mijlocul mesei."
        """
        state = new(full_cards(build_deal("K-", "")))
        assert state.to_move == 0
        top = state.hands[0][0]
        after = play(state)
        assert after.pile == (top,)
        assert after.hands[0] == state.hands[0][1:]
        assert after.hands[1] == state.hands[1]
        assert event(after, "turned") == {"seat": 0, "card": "KS"}
        turned = next(e for e in after.events if e.kind == "turned")
        assert "Player 1" in turned.text
        assert "K♠" in turned.text

    def test_a_number_card_passes_play_to_the_left(self) -> None:
        """en: "If the card is 2 to 10, play passes to the left and the next player does the same."
        nl: "Als de kaart een waarde van 2 tot 10 heeft, gaat het spel naar links en de volgende
        speler doet hetzelfde."
        ro: "Dacă cartea are un rang de la 2 la 10, jocul trece în stânga și următorul jucător
        face același lucru."
        """
        state = new(build_deal("--", "--", "--"))
        movers = []
        for _ in range(5):
            movers.append(state.to_move)
            state = play(state)
            assert state.owed == 0
            assert state.court_player is None
        assert movers == [0, 1, 2, 0, 1]
        assert pile(state) == "-----"
        assert [len(h) for h in state.hands] == [16, 15, 16]


def _pay_for(court: str) -> None:
    """Seat 0 leads ``court``; seat 1 turns its honour with number cards, one at a time."""
    due = OWED[court]
    state = play(new(build_deal(court, "-" * 4)))
    assert (state.to_move, state.owed, state.court_player) == (1, due, 0)
    assert event(state, "owes") == {"seat": 1, "cards": due}
    for paid in range(1, due):
        state = play(state)
        assert (state.to_move, state.owed, len(state.pile)) == (1, due - paid, 1 + paid)
    state = play(state)
    assert event(state, "captured")["seat"] == 0
    assert state.pile == ()
    assert [len(h) for h in state.hands] == [26 + due, 26 - due]
    assert (state.to_move, state.cards, state.tricks) == (0, 1 + due, 1)


class TestCourtCardsAndHonours:
    def test_a_court_card_makes_the_next_player_pay_an_honour(self) -> None:
        """en: "When a face card or an ace ("court cards" in this game) is turned up, the next
        player must pay an "honour" as follows."
        nl: "Wanneer een gezichtskaart of een aas (in dit spel "rechterkaarten" genoemd) wordt
        weergegeven, moet de volgende speler een "eer" betalen volgens het volgende:"
        ro: "Când o carte cu fața sau un As (cunoscute ca „cărți de curte” în acest joc) este
        întoarsă, următorul jucător trebuie să plătească o „onoare” [...]"
        """
        state = play(new(build_deal("-", "Q", "")), 2)
        assert pile(state) == "-Q"
        assert (state.to_move, state.owed, state.court_player) == (2, 2, 1)
        assert event(state, "owes") == {"seat": 2, "cards": 2}

    def test_an_ace_costs_four_cards(self) -> None:
        """en: "If an ace is played, the next player must turn four cards, one by one."
        nl: "Als een aas wordt gespeeld, moet de volgende speler vier kaarten omdraaien, één voor
        één."  ro: "Dacă este jucat un As, următorul jucător trebuie să întoarcă patru cărți,
        una câte una."
        """
        _pay_for("A")

    def test_a_king_costs_three_cards(self) -> None:
        """en: "If a king is played, the next player must turn three cards, one by one."
        nl: "Als een koning wordt gespeeld, moet de volgende speler drie kaarten omdraaien, één
        voor één."  ro: "Dacă se joacă un Rege, următorul jucător trebuie să întoarcă trei
        cărți, una câte una."
        """
        _pay_for("K")

    def test_a_queen_costs_two_cards(self) -> None:
        """en: "If a queen is played, the next player must turn two cards, one by one."
        nl: "Als een koningin wordt gespeeld, moet de volgende speler twee kaarten omdraaien, één
        voor één."  ro: "Dacă se joacă o Damă, următorul jucător trebuie să întoarcă două
        cărți, una câte una."
        """
        _pay_for("Q")

    def test_a_jack_costs_one_card(self) -> None:
        """en: "If a jack is played, the next player must turn one card."
        nl: "Als een boer wordt gespeeld, moet de volgende speler één kaart omdraaien."
        ro: "Dacă se joacă un Valet, următorul jucător trebuie să întoarcă o carte."
        """
        _pay_for("J")
