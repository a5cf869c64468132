"""Beggar-My-Neighbour, tested sentence by sentence against the rule texts and the rulings.

The rule texts are ``seeds/beggar-my-neighbour.nl.txt`` (Dutch) and ``.ro.txt`` (Romanian), the
same game; the rulings are ``rules/RULINGS.md`` ("Common" and M1-M11). Each test class is one
section of the text or one ruling; each test quotes its sentence in English, then the originals.

The deals are built by hand in the rank-only notation of M9 (``A K Q J`` court cards, ``-``
numbers, top card first, hands separated by ``/``), so that the first tricks do exactly what the
sentence under test describes. :func:`build_deal` fills each hand after a chosen prefix with
number cards, then the court cards left over, keeping the hand sizes of M7.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.cards import Card, Rank, Suit, deck52
from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption
from parlour.games.beggar import (
    BeggarGame,
    BeggarState,
    RankClass,
    format_deal,
    format_deal_ranks,
    parse_deal,
    play_deal,
)

GAME = BeggarGame()
SIZES = {2: (26, 26), 3: (18, 17, 17), 4: (13, 13, 13, 13)}
DECK_CLASSES = {"A": 4, "K": 4, "Q": 4, "J": 4, "-": 36}
OWED = {"J": 1, "Q": 2, "K": 3, "A": 4}
LOOP_DEAL = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


# -- helpers -----------------------------------------------------------------------------------


def build_deal(*prefixes: str) -> str:
    """A legal rank-only deal whose hands start with ``prefixes`` (one per seat).

    After its prefix a hand gets number cards, then (at its bottom) the court cards nobody was
    given, shared round-robin, so the first tricks play exactly as the prefixes say.
    """
    n = len(prefixes)
    sizes = SIZES[n]
    left = Counter(DECK_CLASSES)
    for prefix in prefixes:
        left.subtract(prefix)
    assert all(v >= 0 for v in left.values()), f"prefixes use too many cards: {left}"
    free = [size - len(p) for size, p in zip(sizes, prefixes, strict=True)]
    assert all(f >= 0 for f in free), "a prefix is longer than its hand"
    tails: list[list[str]] = [[] for _ in range(n)]
    seat = 0
    for court in "AKQJ":
        for _ in range(left[court]):
            while len(tails[seat % n]) >= free[seat % n]:
                seat += 1
            tails[seat % n].append(court)
            seat += 1
    hands = [
        p + "-" * (f - len(t)) + "".join(t) for p, f, t in zip(prefixes, free, tails, strict=True)
    ]
    deal = "/".join(hands)
    assert Counter(deal.replace("/", "")) == Counter(DECK_CLASSES)
    return deal


def full_cards(deal: str) -> str:
    """The rank-only ``deal`` with real cards: court cards by suit S H D C, numbers 2S, 3S, ..."""
    pools: dict[str, list[Card]] = {c: [] for c in DECK_CLASSES}
    for card in deck52():
        pools[card.rank.letter if card.rank.is_court else "-"].append(card)
    hands = [" ".join(str(pools[ch].pop(0)) for ch in hand) for hand in deal.split("/")]
    return "/".join(hands)


def new(deal: str, options: Mapping[str, object] | None = None) -> BeggarState:
    return GAME.new(deal.count("/") + 1, 0, options=options, deal=deal)


def play(state: BeggarState, times: int = 1) -> BeggarState:
    for _ in range(times):
        state = state.apply("play")
    return state


def hand(state: BeggarState, seat: int) -> str:
    """A rank-only hand as M9 text, top card first."""
    return "".join(str(t) for t in state.hands[seat])


def pile(state: BeggarState) -> str:
    """The pile as text in the order played (the top card last)."""
    return "".join(str(t) for t in state.pile)


def card_class(token: object) -> str:
    """The M9 class of a card: A K Q J, or - for a number card."""
    assert isinstance(token, Card)
    return token.rank.letter if token.rank.is_court else "-"


def kinds(state: BeggarState) -> list[str]:
    return [e.kind for e in state.events]


def event(state: BeggarState, kind: str) -> Mapping[str, object]:
    found = [e.data for e in state.events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind!r} event, got {state.events}"
    return found[0]


def play_to_end(state: BeggarState, limit: int = 5000) -> BeggarState:
    for _ in range(limit):
        if state.is_over:
            return state
        state = state.apply("play")
    raise AssertionError(f"no end after {limit} plays")


def all_cards(state: BeggarState) -> list[str]:
    """Every card in the hands and on the pile, sorted."""
    return sorted([str(t) for h in state.hands for t in h] + [str(t) for t in state.pile])


# The quick two-player games: seat 0 leads every trick and seat 1 pays with numbers only.
# AAAA KKK cost seat 1 25 of his 26 cards in 7 tricks (32 cards played); what follows decides
# how seat 1 ends.
SEVEN_TRICKS = "AAAAKKK"


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
        with pytest.raises(IllegalAction):
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


class TestM6End:
    def test_the_last_player_holding_cards_takes_the_pile_and_wins(self) -> None:
        """M6: "The game ends when one player holds cards and the others are out; that player
        takes any pile left and wins." """
        state = play(new(build_deal(SEVEN_TRICKS + "K", "-" * 26)), 34)
        assert state.is_over
        assert state.pile == ()
        assert [len(h) for h in state.hands] == [52, 0]
        assert hand(state, 0).endswith("K-")
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("win", (0,))

    def test_two_players_end_when_the_one_to_play_has_no_card(self) -> None:
        """M6: "With 2 players it ends as soon as the player who must play has no card." """
        state = play(new(build_deal(SEVEN_TRICKS + "--", "-" * 26)), 34)
        assert not state.is_over
        assert state.hands[1] == ()
        state = play(state)
        assert state.is_over
        assert state.out == (1,)
        assert [len(h) for h in state.hands] == [52, 0]
        assert (state.cards, state.tricks) == (35, 8)

    def test_three_players_end_when_two_are_out(self) -> None:
        """M6: "The game ends when one player holds cards and the others are out" """
        state = new(build_deal("AAAAKKKKQQQQJJJJ--", "-" * 17, "-" * 17))
        state = play(state, 45)
        assert not state.is_over
        state = play(state)
        assert state.outcome is not None
        assert state.outcome.winners == (0,)
        assert state.out == (1, 2)
        assert [len(h) for h in state.hands] == [52, 0, 0]


class TestM7Deal:
    @pytest.mark.parametrize(("players", "sizes"), list(SIZES.items()))
    def test_dealt_one_at_a_time_from_seat_zero(self, players: int, sizes: tuple[int, ...]) -> None:
        """M7: "Cards are dealt one at a time from the top of the shuffled deck starting with
        seat 0, so with 3 players seat 0 holds 18 cards. Seat 0 leads." """
        for seed in (0, 1, 2):
            state = GAME.new(players, seed)
            assert tuple(len(h) for h in state.hands) == sizes
            assert state.to_move == 0

    def test_uneven_hand_sizes_are_refused(self) -> None:
        """Setup: "deal the cards as evenly as possible" (M7: "with 3 players seat 0 holds 18
        cards"). A split as even as 17/18/17 is a deal a table could make and plays; 16/19/17
        and 25/27 are not."""
        hands = build_deal("", "", "").split("/")
        moved = "/".join([hands[0][1:], hands[1] + hands[0][0], hands[2]])
        assert [len(h) for h in parse_deal(moved)] == [17, 18, 17]
        twice = "/".join([hands[0][2:], hands[1] + hands[0][:2], hands[2]])
        with pytest.raises(InvalidNotation, match=r"16/19/17 cards.*18/17/17"):
            parse_deal(twice)
        hands = build_deal("", "").split("/")
        with pytest.raises(InvalidNotation, match=r"25/27 cards.*26/26"):
            parse_deal(hands[0][1:] + "/" + hands[1] + "-")


class TestM8Counting:
    def test_cards_count_each_card_placed_and_tricks_each_pile_taken(self) -> None:
        """M8: "cards = cards actually placed on the pile during the game [...]. tricks = piles
        taken" """
        state = new(build_deal("-A", "-----"))
        counts = []
        for _ in range(7):
            state = play(state)
            counts.append((state.cards, state.tricks))
        assert counts == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 1)]
        assert state.view(1).cards == 7
        assert state.view(1).tricks == 1

    def test_an_attempt_with_no_card_is_not_counted(self) -> None:
        """M8: "(an attempt by a player with no card is not counted)" and "tricks [...] including
        the final one": 32 cards in 7 tricks, then K and seat 1's last card; the pile left is
        the eighth trick."""
        state = play(new(build_deal(SEVEN_TRICKS + "K", "-" * 26)), 34)
        assert state.is_over
        assert (state.cards, state.tricks) == (34, 8)
        result = play_deal(build_deal(SEVEN_TRICKS + "K", "-" * 26))
        assert (result["cards"], result["tricks"]) == (34, 8)

    def test_the_final_capture_is_one_trick(self) -> None:
        """M8: "tricks = piles taken, including the final one." The game ends on a capture."""
        result = play_deal(build_deal(SEVEN_TRICKS + "J", "-" * 26))
        assert result["result"] == "win"
        assert result["winners"] == [0]
        assert (result["cards"], result["tricks"]) == (34, 8)


class TestM9DealNotation:
    def test_one_string_per_hand_top_card_first_the_first_hand_leads(self) -> None:
        """M9: "One string per hand, top card first, hands separated by /, the first hand
        leads" """
        deal = build_deal("KQ-", "-JA")
        state = new(deal)
        assert [hand(state, s) for s in (0, 1)] == deal.split("/")
        state = play(state)
        assert event(state, "turned") == {"seat": 0, "card": "K"}

    def test_rank_only_tokens(self) -> None:
        """M9: "A K Q J for court cards and - for any number card" """
        parsed = parse_deal(build_deal("AKQJ-", ""))
        assert parsed[0][:5] == (
            RankClass.ACE,
            RankClass.KING,
            RankClass.QUEEN,
            RankClass.JACK,
            RankClass.NUMBER,
        )
        assert format_deal(parsed) == build_deal("AKQJ-", "")

    def test_full_card_hands_are_accepted(self) -> None:
        """M9: "Full-card hands (AS TH ...) are accepted too." Common: parsing also accepts 10H,
        lower case and the suit symbols."""
        deal = full_cards(build_deal("AKQJ-", ""))
        parsed = parse_deal(deal)
        assert parsed[0][:2] == (Card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.SPADES))
        assert format_deal(parsed) == deal
        assert format_deal_ranks(parsed) == build_deal("AKQJ-", "")
        loose = deal.lower().replace("ts", "10♠").replace("2h", "2♥")
        assert parse_deal(loose) == parsed
        state = new(deal)
        assert str(state.hands[0][0]) == "AS"

    @pytest.mark.parametrize(
        ("mangle", "problem"),
        [
            (lambda d: "A" + d[1:], "5 aces"),
            (lambda d: d[:-1] + "-", "3 jacks"),
            (lambda d: d.replace("-", "X", 1), "'X'"),
            (lambda d: d.replace("-", "7", 1), "'7'"),
            (lambda d: d.replace("/", ""), "hands"),
            (lambda d: d + "/", "hand"),
            (lambda d: "/".join([d, d, d, d, d]), "hands"),
        ],
    )
    def test_a_deal_must_use_one_deck_exactly_once(
        self, mangle: Callable[[str], str], problem: str
    ) -> None:
        """M9: "A deal must use the cards of one deck exactly once (rank-only: 4 of each court
        rank and 36 numbers)." Each refusal names the problem."""
        bad = mangle(build_deal("-", "-"))
        with pytest.raises(InvalidNotation, match=re.escape(problem)):
            parse_deal(bad)

    def test_mixed_notations_are_refused(self) -> None:
        """M9: rank-only hands or full-card hands ("Full-card hands (AS TH ...) are accepted
        too"), not both in one deal."""
        rank_only = build_deal("", "").split("/")
        full = full_cards(build_deal("", "")).split("/")
        with pytest.raises(InvalidNotation, match="mix"):
            parse_deal(rank_only[0] + "/" + full[1])

    def test_the_number_of_hands_must_match_the_players(self) -> None:
        """M9: "One string per hand" -- a 2-hand deal is not a 3-player deal."""
        with pytest.raises(InvalidNotation, match="3 players"):
            GAME.new(3, 0, deal=build_deal("", ""))
        with pytest.raises(InvalidNotation, match="3 players"):
            parse_deal(build_deal("", ""), 3)


class TestM10NeverEndingGames:
    def test_the_known_never_ending_deal_ends_as_a_loop(self) -> None:
        """M10: "Detect a repeated position [...] and end the game with the result "loop",
        reporting the cards and tricks played when the repeat was seen, where the cycle starts,
        and its length in cards and tricks." """
        result = play_deal(LOOP_DEAL)
        assert result["result"] == "loop"
        assert result["winners"] == []
        cycle = result["cycle"]
        assert isinstance(cycle, dict)
        assert cycle["found_at_cards"] == result["cards"]
        assert cycle["found_at_tricks"] == result["tricks"]
        assert cycle["found_at_cards"] == cycle["start_cards"] + cycle["length_cards"]
        assert cycle["found_at_tricks"] == cycle["start_tricks"] + cycle["length_tricks"]
        assert cycle["length_cards"] > 0
        assert cycle["length_tricks"] > 0

    def test_the_cycle_is_the_first_repeat_of_a_trick_boundary_position(self) -> None:
        """M10: "Detect a repeated position (all hands in order + whose lead, at a trick
        boundary, cards compared by class J/Q/K/A/number since suits and pips never matter)" """
        state = new(LOOP_DEAL)
        seen: dict[tuple[str, ...], tuple[int, int]] = {}

        def position(s: BeggarState) -> tuple[str, ...]:
            # Whose lead: the seat to move, or (once over) the capturer, who would lead.
            lead = s.to_move if not s.is_over else event(s, "captured")["seat"]
            return (str(lead), *(hand(s, seat) for seat in range(2)))

        seen[position(state)] = (0, 0)
        repeat = None
        while not state.is_over:
            state = play(state)
            if not state.pile and not state.is_over:
                key = position(state)
                if key in seen and repeat is None:
                    repeat = (seen[key], (state.cards, state.tricks))
                seen.setdefault(key, (state.cards, state.tricks))
        assert state.outcome is not None
        assert state.outcome.result == "loop"
        assert "loop" in kinds(state)
        cycle = state.cycle
        assert cycle is not None
        if repeat is None:
            # The final state itself is the repeat (it is over, so the loop above skipped it).
            key = position(state)
            assert key in seen
            repeat = (seen[key], (state.cards, state.tricks))
        assert repeat == (
            (cycle.start_cards, cycle.start_tricks),
            (cycle.found_at_cards, cycle.found_at_tricks),
        )

    def test_suits_and_pips_do_not_matter(self) -> None:
        """M10: "cards compared by class J/Q/K/A/number since suits and pips never matter" --
        the same deal with real cards loops at the same point."""
        ranks = play_deal(LOOP_DEAL)
        state = play_to_end(new(full_cards(LOOP_DEAL), {"card_limit": 5000}), 6000)
        assert state.outcome is not None
        assert state.outcome.result == "loop"
        assert (state.cards, state.tricks) == (ranks["cards"], ranks["tricks"])


class TestM11TimeLimit:
    def test_card_limit_stops_the_game_and_most_cards_wins(self) -> None:
        """M11: "Option card_limit = N: stop after N cards played; the player holding most cards
        wins" """
        state = play(new(build_deal("---", "---", "---"), {"card_limit": 3}), 2)
        assert not state.is_over
        state = play(state)
        assert state.is_over
        assert [len(h) for h in state.hands] == [17, 16, 16]
        assert state.cards == 3
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (0,))
        assert state.outcome.returns == (1.0, 0.0, 0.0)
        assert event(state, "limit")["winners"] == [0]
        with pytest.raises(GameOver):
            state.apply("play")

    def test_cards_on_the_pile_are_held_by_nobody(self) -> None:
        """M11: "the player holding most cards wins" -- a pile still in play counts for nobody,
        but a payment completed by the N-th card is taken first (M2)."""
        state = play(new(build_deal("K", "---"), {"card_limit": 2}), 2)
        assert pile(state) == "K-"
        assert state.outcome is not None
        assert state.outcome.scores == (25, 25)
        assert state.outcome.winners == (0, 1)
        state = play(new(build_deal("J", "-"), {"card_limit": 2}), 2)
        assert event(state, "captured") == {"seat": 0, "cards": 2}
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (0,))
        assert state.outcome.scores == (27, 25)

    def test_ties_share_the_win(self) -> None:
        """M11: "(ties share the win)" """
        state = play(new(build_deal("--", "--"), {"card_limit": 2}), 2)
        assert state.outcome is not None
        assert (state.outcome.result, state.outcome.winners) == ("limit", (0, 1))
        assert state.outcome.returns == (0.5, 0.5)
        assert state.outcome.ranks == (1, 1)
        state = play(new(build_deal("--", "--", "--"), {"card_limit": 5}), 5)
        assert [len(h) for h in state.hands] == [16, 15, 16]
        assert state.outcome is not None
        assert state.outcome.winners == (0, 2)
        assert state.outcome.returns == (0.5, 0.0, 0.5)
        assert state.outcome.ranks[0] == state.outcome.ranks[2] == 1
        assert state.outcome.ranks[1] > 1

    def test_without_a_limit_only_m6_or_m10_end_the_game(self) -> None:
        """M11: "Without it, only M6 or M10 end the game." """
        deal = "---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----"
        assert play_deal(deal)["cards"] == 681
        for seed in range(8):
            state = play_to_end(GAME.new(2 + seed % 3, seed), 20000)
            assert state.outcome is not None
            assert state.outcome.result in ("win", "loop")

    @pytest.mark.parametrize(
        "options",
        [{"card_limit": 0}, {"card_limit": "ten"}, {"unpaid_penalty": "pay"}, {"limit": 5}],
    )
    def test_bad_options_are_refused(self, options: dict[str, object]) -> None:
        """M4/M11 name the options unpaid_penalty and card_limit; other values are refused."""
        with pytest.raises(InvalidOption):
            GAME.new(2, 0, options=options)


class TestWorkedExamples:
    @pytest.mark.parametrize(
        ("deal", "penalty", "winner", "cards", "tricks"),
        [
            ("--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J", "capture", 0, 192, 20),
            ("---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----", "capture", 0, 681, 92),
            ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "capture", 2, 782, 97),
            ("-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----", "next_player", 2, 586, 79),
            ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "capture", 1, 167, 22),
            ("K---Q---Q------K--/--K---A--J-A-J---/--K----JAQA--J-Q-", "next_player", 1, 839, 108),
        ],
    )
    def test_worked_example(
        self, deal: str, penalty: str, winner: int, cards: int, tricks: int
    ) -> None:
        """RULINGS.md, "Worked examples (deal notation of M9; counts by M8)"."""
        result = play_deal(deal, {"unpaid_penalty": penalty})
        assert result["result"] == "win"
        assert result["winners"] == [winner]
        assert (result["cards"], result["tricks"]) == (cards, tricks)
        assert result["cycle"] is None
        state = play_to_end(new(deal, {"unpaid_penalty": penalty}))
        assert (state.cards, state.tricks) == (cards, tricks)
        assert len(state.hands[winner]) == 52


# -- properties -------------------------------------------------------------------------------


class TestProperties:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        seed=st.integers(0, 2**32),
        players=st.sampled_from([2, 3, 4]),
        penalty=st.sampled_from(["capture", "next_player"]),
    )
    def test_cards_are_conserved(self, seed: int, players: int, penalty: str) -> None:
        """Hands and pile hold exactly the 52 dealt cards at every step; each play puts one
        card on the pile, by a seat that holds a card (M3, M8)."""
        state = GAME.new(players, seed, options={"unpaid_penalty": penalty, "card_limit": 1500})
        deck = all_cards(state)
        assert len(deck) == 52
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            assert len(state.hands[mover]) > 0
            assert mover not in state.out
            before = state
            state = play(state)
            assert state.cards == before.cards + 1
            assert all_cards(state) == deck
            assert state.pile[-1:] == (before.hands[mover][0],) or (
                "captured" in kinds(state) or state.is_over
            )
            assert (state.to_move is None) == state.is_over

    @settings(max_examples=60, deadline=None)
    @given(
        deck=st.permutations(list("AAAAKKKKQQQQJJJJ" + "-" * 36)),
        players=st.sampled_from([2, 3, 4]),
    )
    def test_rank_only_notation_round_trips(self, deck: list[str], players: int) -> None:
        """M9 and STYLE: format_deal(parse_deal(s)) == s for canonical rank-only deals."""
        text = "/".join("".join(deck[s::players]) for s in range(players))
        assert format_deal(parse_deal(text)) == text
        assert format_deal_ranks(parse_deal(text)) == text

    @settings(max_examples=60, deadline=None)
    @given(deck=st.permutations(list(deck52())), players=st.sampled_from([2, 3, 4]))
    def test_full_card_notation_round_trips(self, deck: list[Card], players: int) -> None:
        """M9 and STYLE: format_deal(parse_deal(s)) == s for canonical full-card deals."""
        text = "/".join(" ".join(str(c) for c in deck[s::players]) for s in range(players))
        parsed = parse_deal(text)
        assert format_deal(parsed) == text
        ranks = "/".join(
            "".join(c.rank.letter if c.rank.is_court else "-" for c in deck[s::players])
            for s in range(players)
        )
        assert format_deal_ranks(parsed) == ranks
