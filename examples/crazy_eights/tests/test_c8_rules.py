"""The rules, each test quoting the comment of OpenSpiel's ``crazy_eights.h`` it checks (the
agreement with its code is ``test_openspiel.py``), and properties over random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cards import Card, Rank, Suit, parse_card
from parlour.core import IllegalAction, InvalidNotation, InvalidRecord
from parlour.games import GAMES, find_game
from parlour_crazy_eights.deal import Deal, hand_size, penalty
from parlour_crazy_eights.notation import CARDS, Draw, Nominate, Pass, Play, parse_action
from parlour_crazy_eights.rules import C8State

GAME = GAMES["crazy-eights"]


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split())


def _deal(hands: list[str], starter: str, dealer: int = 1) -> C8State:
    """A game from a hand-made deal (hands padded from the deck to the right size)."""
    n = len(hands)
    given = [list(_cards(h)) for h in hands]
    used = {c for h in given for c in h} | {parse_card(starter)}
    rest = [c for c in CARDS if c not in used and c.rank is not Rank.EIGHT]
    rest += [c for c in CARDS if c not in used and c.rank is Rank.EIGHT]
    for h in given:
        while len(h) < hand_size(n):
            h.append(rest.pop(0))
    deal = {
        "dealer": dealer,
        "hands": [[str(c) for c in h] for h in given],
        "turned": [],
        "starter": starter,
        "stock": [str(c) for c in rest],
    }
    state = GAME.new(n, 0, deal=deal)
    assert isinstance(state, C8State)
    return state


def test_the_deal() -> None:
    """ "each player is dealt 5 cards (7 cards if there are 2 players). Then the dealer draws
    one card from the deck and turns it face up. Then started with the player on the dealer's
    right" (the seat after the dealer)."""
    for players in range(2, 6):
        for seed in range(20):
            state = GAME.new(players, seed)
            assert isinstance(state, C8State)
            assert all(len(h) == (7 if players == 2 else 5) for h in state.hands)
            assert len(state.discard) == 1 and state.discard[0].rank is not Rank.EIGHT
            assert state.to_move == (state.dealer + 1) % players
            assert len(state.stock) == 52 - 1 - players * hand_size(players)


def test_an_eight_turned_up_goes_back() -> None:
    """ "for the first card turned up, keep drawing if it is an eight": the 8 goes back."""
    found = 0
    for seed in range(200):
        state = GAME.new(3, seed)
        assert isinstance(state, C8State)
        if state.turned:
            found += 1
            assert all(c.rank is Rank.EIGHT for c in state.turned)
            assert set(state.turned) <= set(state.stock) | {c for h in state.hands for c in h}
            assert "goes back into the stock" in state.events[1].text
    assert found >= 5


def test_follow_suit_or_rank_and_eights_are_wild() -> None:
    """ "it needs to play a card that either match the suit or the rank of the card on the top
    of the discard pile ... A player can play an 8 as a wild card, however, at anytime.\""""
    state = _deal(["7H 7C 8S 2C QD", "3S 4S 5S 6S 9S", "9D TD JD KD AD"], "7D", dealer=2)
    assert state.to_move == 0
    assert {str(a) for a in state.legal_actions()} == {"7H", "7C", "8S", "QD", "draw"}
    with pytest.raises(IllegalAction, match="does not follow"):
        state.apply("2C")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("9S")


def test_an_eight_names_the_suit() -> None:
    """ "If it does so then a color needs to be nominated for the next player to match.\""""
    state = _deal(["8S 2C 3C 4C 5C", "3H 4H 5H 6H 9S", "9D TD JD KD AD"], "7D", dealer=2)
    state = state.apply("8S")
    assert state.to_move == 0 and state.legal_actions() == tuple(
        Nominate(s) for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    )  # fmt: skip
    with pytest.raises(IllegalAction, match="name the suit"):
        state.apply("2C")
    state = state.apply("hearts")
    assert state.to_move == 1
    assert {str(a) for a in state.legal_actions()} == {"3H", "4H", "5H", "6H", "draw"}


def test_drawing_is_bounded_and_then_a_pass() -> None:
    """ "it doesn't prevent the player to draw cards even if it has playable cards. However,
    the maximum number of cards a player can draw at its turn is bounded. If a player plays a
    card, it cannot draw at the current turn anymore.\""""
    state = _deal(["7D 2C 3C 4C 5C", "3H 4H 5H 6H 9S", "9H TH JH KH AH"], "7S", dealer=2)
    assert Draw() in state.legal_actions() and Pass() not in state.legal_actions()
    for _ in range(5):
        state = state.apply("draw")
        assert state.to_move == 0
    assert Draw() not in state.legal_actions() and Pass() in state.legal_actions()
    with pytest.raises(IllegalAction, match="max_draw_cards"):
        state.apply("draw")
    assert state.apply("pass").to_move == 1


def test_the_end_and_the_penalties() -> None:
    """ "The game ends if a player has played all of its card. The other players are penalized
    according to the cards on their hand. That is, -50 for each 8, -10 for each court card"
    (J, Q, K and A in OpenSpiel's code) "and -{face value} for others": the code takes the
    card's id plus 2, which this game follows (see ``penalty``)."""
    assert [penalty(parse_card(c)) for c in ("8H", "JC", "AS", "2C", "2S", "TS")] == [
        50, 10, 10, 2, 5, 37,
    ]  # fmt: skip
    hands = ["7D", "3H 8H JS KC 2S", "9H TH JH KH AH"]
    held = {c for h in hands for c in _cards(h)} | {parse_card("7S")}
    state = GAME.state_from_json(
        {
            "format": 1, "options": {"max_draw_cards": 5, "max_turns": 100}, "dealer": 2,
            "to_move": 0, "phase": "play", "hands": [h.split() for h in hands],
            "stock": [str(c) for c in CARDS if c not in held], "discard": ["7S"],
            "suit": "spades", "turned": [], "draws": 0, "passes": 0, "plays": 0, "result": None,
        }
    ).apply("7D")  # fmt: skip
    outcome = state.outcome
    assert outcome is not None and outcome.result == "win" and outcome.winners == (0,)
    # 3H is id 6 (8 points), 2S id 3 (5), 9H id 30 (32), TH id 34 (36).
    assert outcome.scores == (0, 8 + 50 + 10 + 10 + 5, 32 + 36 + 10 + 10 + 10)
    assert outcome.returns == (1.0, 0.0, 0.0)


def test_notation_reads_people_and_round_trips() -> None:
    for action in (Play(parse_card("TH")), Draw(), Pass(), Nominate(Suit.HEARTS)):
        assert parse_action(str(action)) == action
        assert GAME.action_from_id(GAME.action_id(action)) == action
    assert parse_action("play 10♥") == Play(parse_card("TH"))
    assert parse_action("nominate ♠") == Nominate(Suit.SPADES)
    for bad in ("", "JK1", "draw 2", "nominate", "8"):
        with pytest.raises(InvalidNotation):
            parse_action(bad)


def test_the_aliases_name_the_game() -> None:
    assert find_game("crazy_eights") is find_game("Crazy-Eights") is GAME


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32), st.integers(1, 5), st.integers(5, 100))
def test_random_games_keep_the_cards_and_end(
    players: int, seed: int, draws: int, limit: int
) -> None:
    """Every position holds the 52 cards once each, the mover always has a move, and a game
    ends within ``max_game_length`` with the points of the hands it ends with."""
    options = {"max_draw_cards": draws, "max_turns": limit}
    state = GAME.new(players, seed, options)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        assert isinstance(state, C8State)
        cards = [*state.stock, *state.discard, *(c for h in state.hands for c in h)]
        assert sorted(cards, key=CARDS.index) == list(CARDS)
        legal = state.legal_actions()
        assert legal
        state = state.apply(rng.choice(legal))
        steps += 1
    bound = GAME.info.max_game_length
    assert bound is not None and steps <= bound + 52 * 5  # fewer draws a turn, more passes
    outcome = state.outcome
    assert isinstance(state, C8State) and outcome is not None and state.plays <= limit
    assert outcome.scores == state.points


def test_a_deal_is_checked() -> None:
    good = _deal(["7D", "3H", "9H"], "7S").to_json()
    assert good["hands"]
    with pytest.raises(InvalidRecord, match="deal field 'hands' is missing"):
        GAME.new(2, 0, deal={"dealer": 0})
    deal = _deal_json()
    assert GAME.new(3, 0, deal=deal).to_json() == GAME.new(3, 4).to_json()
    stock = deal["stock"]
    assert isinstance(stock, list)
    eight = next(c for c in stock if c.startswith("8"))
    stock[stock.index(eight)] = deal["starter"]
    with pytest.raises(InvalidRecord, match="the starter is no 8"):
        GAME.new(3, 0, deal={**deal, "starter": eight})


def _deal_json() -> dict[str, object]:
    state = GAME.new(3, 4)
    assert isinstance(state, C8State)
    deal = Deal(state.dealer, state.hands, state.turned, state.discard[0], state.stock)
    return {
        "dealer": deal.dealer,
        "hands": [[str(c) for c in h] for h in deal.hands],
        "turned": [str(c) for c in deal.turned],
        "starter": str(deal.starter),
        "stock": [str(c) for c in deal.stock],
    }
