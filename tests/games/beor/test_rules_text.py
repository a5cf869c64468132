"""BEOR multi-player, tested sentence by sentence against the rule text and the rulings.

The rule text is ``seeds/beor-multiplayer.txt``; the rulings are ``rules/RULINGS.md`` ("Common"
and B1-B11), which win where they differ from the text. Each test class is one section of the
text or one ruling; each test quotes its sentence.

The scenarios are hand-built deals (``{"bases", "hands", "stocks"}``, piles top card first).
:func:`build_deal` fills whatever a test leaves open legally, giving hands no group of three so
that no filler hand wins. :func:`script` builds a deal from the moves a test wants to play
("``QS>black:2D``": play QS on black and draw 2D), so that long scenarios (emptied stocks, losses,
restocks) read as the game they play. The expected results are worked out here from the rules,
never taken from the engine; :func:`is_goal` and :func:`fits` are independent oracles of B5
and B4, and :func:`check_step` checks every action of random playouts against the rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import State
from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption
from parlour.games.beor import BeorGame

GAME = BeorGame()
Deal = dict[str, Any]
RANKS = "A23456789TJQK"
SUITS = "SHDC"
VALUE = {rank: i + 1 for i, rank in enumerate(RANKS)}
BASES = ("black", "even", "odd", "red")
STOCK_SIZE = {2: 9, 3: 8, 4: 6, 5: 5}  # B1: all remaining cards, round-robin
CARD_RE = re.compile(r"\b(?:[A2-9TJQK][SHDC]|JK[12])\b|(?:10|[A2-9JQK])([♠♥♦♣])")
SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


# -- cards and the rules as oracles -----------------------------------------------------------


def deck(players: int) -> list[str]:
    """The cards of a game: 52, and the two Jokers when the starting number is odd (B11)."""
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    return [*cards, "JK1", "JK2"] if players % 2 else cards


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def colour(card: str) -> str:
    return "red" if card[-1] in "HD" else "black"


def parity(card: str) -> str:
    return "even" if VALUE[card[0]] % 2 == 0 else "odd"


def fits(card: str, base: str) -> bool:
    """B4: a card fits its colour and its parity; a King its colour, Even and Odd; a Joker all."""
    if is_joker(card):
        return True
    if card[0] == "K":
        return base in (colour(card), "even", "odd")
    return base in (colour(card), parity(card))


def fits_at_setup(card: str, base: str) -> bool:
    """B2: at setup a King counts only for its colour, and Jokers are set aside."""
    if is_joker(card):
        return False
    return base == colour(card) if card[0] == "K" else fits(card, base)


def is_group(three: Sequence[str]) -> bool:
    """B5: a set (three of one rank, K-K-K too) or a run (one suit, consecutive, A low, A..Q)."""
    if any(is_joker(c) for c in three):
        return False
    if len({c[0] for c in three}) == 1:
        return True
    if len({c[-1] for c in three}) != 1 or any(c[0] == "K" for c in three):
        return False
    low, mid, high = sorted(VALUE[c[0]] for c in three)
    return mid == low + 1 and high == mid + 1


def is_goal(hand: Sequence[str]) -> bool:
    """B5: six cards forming two groups of three."""
    if len(hand) != 6:
        return False
    for picked in combinations(range(1, 6), 2):
        first = [hand[0], *(hand[i] for i in picked)]
        rest = [hand[i] for i in range(1, 6) if i not in picked]
        if is_group(first) and is_group(rest):
            return True
    return False


def expected_actions(js: Mapping[str, Any]) -> set[str]:
    """B4 and B7: every legal action of the seat to move, worked out from the full state."""
    hand = js["hands"][js["to_move"]]
    live = [b for b in BASES if js["stocks"][b]["cards"]]
    actions = set()
    for card in hand:
        for base in live:
            if fits(card, base):
                actions.add(f"{card}>{base}")
                if card[0] in "47" and not is_joker(card):
                    actions.update(f"{card}>{base}/{other}" for other in live if other != base)
    return actions


def kept_base(pile: Sequence[str], base: str, skip_jokers: bool = True) -> str:
    """B9: the topmost card of a base pile that shows its theme (Jokers skipped by option,
    Kings skipped on Even and Odd)."""
    for card in pile:
        if is_joker(card) and skip_jokers:
            continue
        if card[0] == "K" and base in ("even", "odd"):
            continue
        return card
    raise AssertionError(f"no card of {pile} can stay as the {base} base")


def round_robin_sizes(total: int) -> list[int]:
    """B1/B3: ``total`` cards dealt round-robin Black, Even, Odd, Red."""
    return [total // 4 + (1 if i < total % 4 else 0) for i in range(4)]


# -- deals ------------------------------------------------------------------------------------


def _filler_order(cards: Sequence[str]) -> list[str]:
    """Plain cards first, then 3/8 (flip), 4/7 (any stock), Kings, Jokers, so fillers are dull."""

    def key(card: str) -> int:
        if is_joker(card):
            return 4
        return {"3": 1, "8": 1, "4": 2, "7": 2, "K": 3}.get(card[0], 0)

    return sorted(cards, key=key)


def _makes_group(hand: Sequence[str], card: str) -> bool:
    return any(is_group((a, b, card)) for a, b in combinations(hand, 2))


def build_deal(
    players: int,
    hands: Sequence[Sequence[str]] = (),
    stocks: Mapping[str, Sequence[str]] | None = None,
    bases: Mapping[str, str] | None = None,
) -> Deal:
    """A valid deal with the given hand cards, stock tops (top first) and bases.

    Open hand places get cards that make no group of three with the hand (so a filled hand is
    never a goal, and one draw cannot make it one); open stock places get the rest of the deck.
    """
    full = deck(players)
    chosen_bases = dict(bases or {})
    given = [c for h in hands for c in h] + [c for s in (stocks or {}).values() for c in s]
    given += list(chosen_bases.values())
    assert len(given) == len(set(given)), f"a card is given twice: {given}"
    assert set(given) <= set(full), f"not in this deck: {set(given) - set(full)}"
    pool = [c for c in _filler_order(full) if c not in given]
    for base in BASES:
        if base not in chosen_bases:
            card = next(c for c in pool if fits_at_setup(c, base))
            pool.remove(card)
            chosen_bases[base] = card
    hand_lists = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    for hand in hand_lists:
        assert len(hand) <= 6
        while len(hand) < 6:
            card = next(c for c in pool if not is_joker(c) and not _makes_group(hand, c))
            pool.remove(card)
            hand.append(card)
    stock_lists = {}
    for base in BASES:
        pile = list((stocks or {}).get(base, ()))
        assert len(pile) <= STOCK_SIZE[players]
        while len(pile) < STOCK_SIZE[players]:
            pile.append(pool.pop(0))
        stock_lists[base] = pile
    assert not pool
    return {
        "bases": {b: chosen_bases[b] for b in BASES},
        "hands": hand_lists,
        "stocks": stock_lists,
    }


def script(
    players: int,
    keep: Sequence[Sequence[str]],
    moves: Sequence[str],
    bases: Mapping[str, str] | None = None,
) -> tuple[Deal, list[str]]:
    """The deal that plays ``moves`` ("CARD>BASE[/STOCK]:DRAWN", seats in turn from 0, no flips,
    nobody out) with ``keep`` held throughout, and the actions to apply."""
    initial = [list(k) for k in keep] + [[] for _ in range(players - len(keep))]
    holding = [set(h) for h in initial]
    stocks: dict[str, list[str]] = {b: [] for b in BASES}
    actions = []
    for i, move in enumerate(moves):
        seat = i % players
        action, drawn = move.split(":")
        card, target = action.split(">")
        if card in holding[seat]:
            holding[seat].remove(card)
        else:
            initial[seat].append(card)
        holding[seat].add(drawn)
        stocks[target.split("/")[-1]].append(drawn)
        actions.append(action)
    return build_deal(players, initial, stocks, bases), actions


def new(deal: Deal, options: Mapping[str, object] | None = None) -> State:
    return GAME.new(len(deal["hands"]), 0, options=options, deal=deal)


def play(state: State, actions: Sequence[str]) -> State:
    for action in actions:
        state = state.apply(action)
    return state


def js(state: State) -> dict[str, Any]:
    return state.to_json()


def hand(state: State, seat: int) -> list[str]:
    return sorted(js(state)["hands"][seat])


def stock(state: State, base: str) -> list[str]:
    return list(js(state)["stocks"][base]["cards"])


def legal(state: State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def kinds(state: State) -> list[str]:
    return [e.kind for e in state.events]


def all_cards(data: Mapping[str, Any]) -> list[str]:
    """Every card of a full state: hands, base piles, stocks and the scrap pile."""
    cards = [c for h in data["hands"] for c in h] + list(data["scrap"])
    cards += [c for pile in data["bases"].values() for c in pile]
    cards += [c for s in data["stocks"].values() for c in s["cards"]]
    return sorted(cards)


def cards_named(text: str) -> set[str]:
    """The cards a text names, in the canonical or the pretty (``10♥``) form."""
    found = set()
    for match in CARD_RE.finditer(text):
        word = match.group(0)
        if match.group(1):
            word = word[:-1].replace("10", "T") + SYMBOL_SUIT[match.group(1)]
        found.add(word)
    return found


def event_cards(state: State, seat: int | None) -> set[str]:
    """The cards named by the events of ``state`` that ``seat`` may see."""
    named: set[str] = set()
    for e in state.events:
        if e.is_visible_to(seat):
            named |= cards_named(e.text + " " + str(dict(e.data)))
    return named


def assert_won(state: State, winner: int) -> None:
    data = js(state)
    assert state.is_over
    assert state.to_move is None
    assert state.legal_actions() == ()
    assert (data["winner"], data["result"]) == (winner, "win")
    assert state.outcome is not None
    assert (state.outcome.result, state.outcome.winners) == ("win", (winner,))
    assert state.outcome.returns == tuple(
        1.0 if s == winner else 0.0 for s in range(len(data["hands"]))
    )
    assert "won" in kinds(state) or not state.events


def draw_into(
    players: int,
    keep: Sequence[str],
    play_card: str,
    base: str,
    drawn: str,
    options: Mapping[str, object] | None = None,
) -> State:
    """Seat 0 holds ``keep`` and ``play_card``, plays it on ``base`` and draws ``drawn``."""
    deal = build_deal(players, [[*keep, play_card]], {base: [drawn]})
    state = new(deal, options)
    assert not state.is_over
    return state.apply(f"{play_card}>{base}")


# -- scenarios --------------------------------------------------------------------------------

# Two players drain Black, then Even. Seat 0 keeps five black even cards and ends with a sixth;
# seat 1 keeps five red odd cards (no group of three can hold three of them, so neither hand is
# ever a goal). After move 18 Black and Even have no stock and seat 0 can play nothing.
LOSS2_KEEP = [["2S", "6S", "TS", "QS", "2C"], ["AH", "5H", "9H", "JH", "AD"]]
LOSS2_MOVES = [
    "AS>black:5S", "5C>black:9C", "5S>black:9S", "9C>black:JC", "9S>black:JS", "JC>black:KS",
    "JS>black:AC", "KS>black:2D", "AC>black:2H", "2D>even:6D", "2H>even:6H", "6D>even:TD",
    "6H>even:TH", "TD>even:QD", "TH>even:QH", "QD>even:KC", "QH>even:6C", "KC>even:5D",
]  # fmt: skip

# Three players drain Black, then Even. Seats 1 and 2 keep black even cards and draw the last
# ones (QS, QC); seat 0 keeps red odd cards. After move 16 seats 1 and 2 can play nothing.
LOSS3_KEEP = [
    ["AH", "5H", "9H", "JH", "AD"],
    ["2S", "4S", "6S", "8S", "TS"],
    ["2C", "4C", "6C", "8C", "TC"],
]
LOSS3_MOVES = [
    "KS>black:5C", "AS>black:5S", "JS>black:AC", "5C>black:9C", "5S>black:9S", "AC>black:TH",
    "9C>black:KH", "9S>black:2H", "TH>even:QH", "KH>even:6D", "2H>even:6H", "QH>even:2D",
    "6D>even:TD", "6H>even:QS", "2D>even:QC", "TD>even:QD",
]  # fmt: skip


def loss3(seat2_last: str = "QC") -> tuple[Deal, list[str]]:
    """The three-player drain; with ``seat2_last="JC"`` seat 2 keeps a card for Odd."""
    moves = list(LOSS3_MOVES)
    moves[14] = f"2D>even:{seat2_last}"
    return script(3, LOSS3_KEEP, moves)


# Five players drain Black, Even, Odd, Red in that order (20 draws); move 20 empties the last
# stock. Each seat keeps five cards of one colour-and-parity class, so no hand is ever a goal.
# At the restock Black shows JC, Even a King (KC) over QH, Odd JK1 over 9D, Red KD.
RESTOCK_KEEP = [
    ["2S", "4S", "6S", "8S", "TS"],
    ["2C", "4C", "6C", "8C", "TC"],
    ["AH", "3H", "5H", "7H", "9H"],
    ["2H", "4H", "6H", "8H", "TH"],
    ["3S", "7S", "9S", "3C", "7C"],
]
RESTOCK_BASES = {"black": "9C", "even": "8D", "odd": "3D", "red": "KH"}
RESTOCK_MOVES = [
    "QS>black:2D", "AS>black:6D", "5S>black:TD", "JS>black:QH", "JC>black:KC",
    "2D>even:AC", "6D>even:5C", "TD>even:JH", "QH>even:9D", "KC>even:JK1",
    "AC>odd:QD", "5C>odd:AD", "JH>odd:5D", "9D>odd:JD", "JK1>odd:KD",
    "QD>red:QC", "AD>red:4D", "5D>red:7D", "JD>red:KS", "KD>red:JK2",
]  # fmt: skip
RESTOCK_KEPT = {"black": ["JC"], "even": ["QH"], "odd": ["9D"], "red": ["KD"]}
RESTOCK_RESHUFFLED = ["JS", "5S", "AS", "QS", "9C", "KC", "TD", "6D", "2D", "8D"]
RESTOCK_RESHUFFLED += ["JK1", "JH", "5C", "AC", "3D", "JD", "5D", "AD", "QD", "KH"]


def restock_game(
    options: Mapping[str, object] | None = None,
    changes: Mapping[int, str] | None = None,
    keep: Sequence[Sequence[str]] = RESTOCK_KEEP,
    bases: Mapping[str, str] = RESTOCK_BASES,
) -> tuple[State, list[str]]:
    moves = list(RESTOCK_MOVES)
    for index, move in (changes or {}).items():
        moves[index] = move
    deal, actions = script(5, keep, moves, bases)
    return new(deal, options), actions


# -- the rule text ----------------------------------------------------------------------------


class TestDescription:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_a_hand_of_six_cards(self, players: int) -> None:
        """ "In multi-player BEOR, your goal is to build your hand of 6 cards into runs and/or
        sets." """
        for seed in range(3):
            state = GAME.new(players, seed, options={"natural_win": False})
            assert [len(h) for h in js(state)["hands"]] == [6] * players

    def test_play_on_a_themed_base_then_draw_from_its_stock(self) -> None:
        """ "To get a new card into your hand, play a card from it onto one of four themed base
        piles, then draw a card from the base's associated stock pile." """
        state = new(build_deal(2, [["2D"]], {"even": ["JS", "5C"]}, {"even": "6C"}))
        before = js(state)
        after = state.apply("2D>even")
        data = js(after)
        assert data["bases"]["even"] == ["2D", "6C"]
        expected = [c for c in before["hands"][0] if c != "2D"] + ["JS"]
        assert sorted(data["hands"][0]) == sorted(expected)
        assert data["stocks"]["even"]["cards"] == before["stocks"]["even"]["cards"][1:]
        assert data["stocks"]["even"]["cards"][0] == "5C"
        for base in ("black", "odd", "red"):
            assert data["stocks"][base] == before["stocks"][base]
            assert data["bases"][base] == before["bases"][base]
        assert data["hands"][1] == before["hands"][1]
        assert {"played", "drew"} <= set(kinds(after))
        assert any("Player 1" in e.text for e in after.events)  # Common: seats count from 1

    def test_unable_to_play_you_lose(self) -> None:
        """ "If you are unable to play a card, you lose." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions)
        assert js(state)["out"] == [0]
        assert "lost" in kinds(state)
        assert_won(state, 1)

    def test_build_a_valid_hand_and_win(self) -> None:
        """ "If you build a valid hand, you win." """
        state = draw_into(2, ["5H", "6H", "7H", "9C", "9S"], "2D", "even", "9D")
        assert sorted(hand(state, 0)) == sorted(["5H", "6H", "7H", "9C", "9S", "9D"])
        assert_won(state, 0)


class TestSetup:
    @pytest.mark.parametrize("players", [2, 4])
    def test_a_standard_french_suited_deck(self, players: int) -> None:
        """ "This game uses a standard French-suited card deck." """
        for seed in range(4):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert all_cards(data) == sorted(deck(players))
            assert len(all_cards(data)) == 52

    @pytest.mark.parametrize("players", [3, 5])
    def test_odd_numbers_of_players_add_two_jokers(self, players: int) -> None:
        """ "For games with an odd number of players, add 2 Joker cards, so that the stocks will
        be of identical size." """
        for seed in range(4):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert all_cards(data) == sorted(deck(players))
            assert {"JK1", "JK2"} <= set(all_cards(data))
            sizes = {len(s["cards"]) for s in data["stocks"].values()}
            assert sizes == {STOCK_SIZE[players]}

    def test_deals_with_the_wrong_jokers_are_refused(self) -> None:
        """ "For games with an odd number of players, add 2 Joker cards" -- and only then (B11)."""
        two = build_deal(2)
        two["stocks"]["red"][-1] = "JK1"
        with pytest.raises(InvalidNotation):
            new(two)
        three = build_deal(3)
        jokers = [b for b in BASES if "JK1" in three["stocks"][b]]
        three["stocks"][jokers[0]][three["stocks"][jokers[0]].index("JK1")] = "KS"
        with pytest.raises(InvalidNotation):
            new(three)


class TestStart:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_four_bases_black_even_odd_red_in_that_order(self, players: int) -> None:
        """ "Draw cards from the top of the deck (ignoring Jokers) until you get 4 cards where one
        is black, one is even, one is odd, and one is red. Lay out these four cards side-by-side,
        in that order, as "bases"." """
        for seed in range(6):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert list(data["bases"]) == list(BASES)
            for base, pile in data["bases"].items():
                assert len(pile) == 1
                assert fits_at_setup(pile[0], base), (base, pile)

    def test_excess_drawn_cards_go_back_into_the_deck(self) -> None:
        """ "Shuffle any excess drawn cards back into the deck." -- no card is lost: the bases,
        hands and stocks hold the whole deck."""
        for seed in range(10):
            data = js(GAME.new(3, seed, options={"natural_win": False}))
            assert all_cards(data) == sorted(deck(3))
            assert data["scrap"] == []

    def test_six_cards_to_each_player(self) -> None:
        """ "Next, deal 6 cards to each player." """
        data = js(GAME.new(5, 7, options={"natural_win": False}))
        assert [len(h) for h in data["hands"]] == [6] * 5
        bad = build_deal(2)
        bad["stocks"]["red"].append(bad["hands"][0].pop())
        with pytest.raises(InvalidNotation):
            new(bad)

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_remaining_cards_face_down_into_four_stocks(self, players: int) -> None:
        """ "Finally, deal the remaining cards face-down into 4 stock piles, such that each base
        has a corresponding stock adjacent to it." """
        state = GAME.new(players, 3, options={"natural_win": False})
        data = js(state)
        assert list(data["stocks"]) == list(BASES)
        hands = data["hands"]
        for seat in range(players):
            view = state.view(seat).to_json()
            assert sorted(view["hand"]) == sorted(hands[seat])
            assert list(view["hand_sizes"]) == [6] * players
            for base in BASES:
                assert data["stocks"][base]["face_up"] is False
                entry = view["stocks"][base]
                assert entry["size"] == STOCK_SIZE[players]
                assert entry["face_up"] is False
                assert entry["top"] is None
            hidden = {c for s in data["stocks"].values() for c in s["cards"]}
            hidden |= {c for other, h in enumerate(hands) if other != seat for c in h}
            assert not cards_named(str(view)) & hidden

    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_stock_sizes(self, players: int) -> None:
        """ "For a 2- or 3-player game, each stock has 9 cards. For a 4- or 5-player game, each
        stock has 7 cards." -- B1 overrides: all remaining cards, 9/8/6/5."""
        data = js(GAME.new(players, 1, options={"natural_win": False}))
        sizes = [len(data["stocks"][b]["cards"]) for b in BASES]
        assert sizes == [STOCK_SIZE[players]] * 4

    @pytest.mark.parametrize("players", [1, 6])
    def test_two_to_five_players(self, players: int) -> None:
        """ "For a 2- or 3-player game [...] For a 4- or 5-player game" -- nothing else."""
        with pytest.raises(InvalidOption):
            GAME.new(players, 0)


class TestRulesOfPlay:
    def test_clockwise_from_the_left_of_the_dealer(self) -> None:
        """ "Players take turns in clockwise order, starting from the left of the dealer." """
        state = new(build_deal(3, [["2D"], ["6D"], ["TD"]]))
        movers = []
        for action in ("2D>even", "6D>even", "TD>even"):
            movers.append(state.to_move)
            state = state.apply(action)
        assert movers == [0, 1, 2]
        assert state.to_move == 0

    def test_play_according_to_the_base_theme(self) -> None:
        """ "First, play a card from your hand onto one of the bases, according to that base's
        theme (black, even, odd, or red)." """
        state = new(build_deal(2, [["7H", "2S", "QD", "JC", "AH", "6C"]]))
        assert legal(state) == expected_actions(js(state))
        assert {"2S>black", "2S>even", "QD>even", "QD>red", "JC>black", "JC>odd"} <= legal(state)
        with pytest.raises(IllegalAction, match=re.escape("7H cannot go on even: 7 is odd (B4)")):
            state.apply("7H>even")
        with pytest.raises(IllegalAction, match=r"cannot go on red.*\(B4\)"):
            state.apply("2S>red")
        with pytest.raises(IllegalAction):
            state.apply("5D>red")  # not in the hand

    def test_then_draw_from_that_base_stock(self) -> None:
        """ "Then, draw a card from that base's associated stock." """
        state = new(build_deal(2, [["JC"]], {"odd": ["QD"], "black": ["9H"]}))
        after = state.apply("JC>odd")
        assert "QD" in hand(after, 0) and "9H" not in hand(after, 0)
        assert stock(after, "black")[0] == "9H"

    def test_no_draw_before_playing(self) -> None:
        """ "(To be clear: You may not draw until you play a card, [...])" """
        state = new(build_deal(2))
        assert all(">" in a for a in legal(state))
        for text in ("draw", "red", "draw red"):
            with pytest.raises((IllegalAction, InvalidNotation)):
                state.apply(text)

    def test_no_play_on_a_base_without_stock(self) -> None:
        """ "(To be clear: [...] you may not play on a base that has no stock.)" """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions[:10])
        assert stock(state, "black") == []
        assert state.to_move == 0
        evens = {f"{c}>even" for c in ("2S", "6S", "TS", "QS", "2C", "2H")}
        assert legal(state) == {*evens, "2H>red"}
        with pytest.raises(IllegalAction, match=re.escape("black has no stock left (B4)")):
            state.apply("2S>black")

    @pytest.mark.parametrize(
        ("keep", "play_card", "drawn"),
        [
            (["9C", "9S", "9H", "5C", "5S"], "2D", "5H"),
            (["AS", "2S", "3S", "TD", "JD"], "6H", "QD"),
            (["5H", "6H", "7H", "9C", "9S"], "2D", "9D"),
        ],
        ids=["two sets", "two runs", "run and set"],
    )
    def test_two_groups_of_three_win(self, keep: list[str], play_card: str, drawn: str) -> None:
        """ "Your goal is to build a hand of two groups of three cards, where each of the two
        groups may be either a run of one suit ("straight flush") or a set of identical rank
        ("three of a kind")." """
        state = draw_into(2, keep, play_card, "even", drawn)
        assert is_goal([*keep, drawn])
        assert_won(state, 0)

    def test_no_legal_play_loses_immediately(self) -> None:
        """ "In the unlikely event that a player cannot play a card -- for example, they hold only
        red cards that are even, but the red and even bases have no stock -- that player
        immediately loses." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions[:-1])
        assert not state.is_over and state.to_move == 1
        assert stock(state, "even") == ["5D"]
        state = state.apply(actions[-1])
        assert js(state)["out"] == [0]
        assert_won(state, 1)

    def test_a_losing_player_surrenders_cards_to_the_scrap_pile(self) -> None:
        """ "In games with more than 2 players, a losing player surrenders their cards to a
        "scrap pile"." """
        deal, actions = loss3("JC")
        state = play(new(deal), actions)
        data = js(state)
        assert data["out"] == [1]
        assert data["hands"][1] == []
        assert sorted(data["scrap"]) == sorted(["2S", "4S", "6S", "8S", "TS", "QS"])
        assert all_cards(data) == sorted(deck(3))
        assert not state.is_over
        assert state.to_move == 2
        assert legal(state) == {"JC>odd"}
        assert "lost" in kinds(state)
        view = state.view(2).to_json()
        assert list(view["out"]) == [1]
        assert list(view["hand_sizes"]) == [6, 0, 6]
        assert not cards_named(str(view)) & {"2S", "4S", "6S", "8S", "TS", "QS"}


class TestRestocking:
    def test_not_while_a_stock_remains(self) -> None:
        """ "When the last stock is exhausted:" -- not before: three empty stocks are not enough."""
        state, actions = restock_game()
        state = play(state, actions[:15])
        data = js(state)
        assert [len(data["stocks"][b]["cards"]) for b in BASES] == [0, 0, 0, 5]
        state = play(state, actions[15:19])
        assert [len(stock(state, b)) for b in BASES] == [0, 0, 0, 1]
        assert "restocked" not in kinds(state)
        assert js(state)["bases"]["red"][0] == "JD"

    def test_top_cards_stay_as_bases_but_a_king_on_even_or_odd_gives_way(self) -> None:
        """ "Save the top cards of each base pile to form the new bases. (If the top card of the
        Even pile or Odd pile is a King, save the card below it instead.)" -- B9: Jokers are
        skipped too; a King stays on its colour base (KD on Red)."""
        state, actions = restock_game()
        state = play(state, actions)
        assert "restocked" in kinds(state)
        assert js(state)["bases"] == RESTOCK_KEPT

    def test_other_base_cards_are_shuffled_into_the_stocks(self) -> None:
        """ "Shuffle the piles' other cards together, along with any "scrap pile" cards." """
        state, actions = restock_game()
        state = play(state, actions)
        data = js(state)
        assert sorted(c for s in data["stocks"].values() for c in s["cards"]) == sorted(
            RESTOCK_RESHUFFLED
        )
        assert data["scrap"] == []
        assert all_cards(data) == sorted(deck(5))

    def test_the_scrap_pile_goes_into_the_new_stocks(self) -> None:
        """ "Shuffle the piles' other cards together, along with any "scrap pile" cards." --
        after seat 1 lost in a three-player game, play on to the restock."""
        deal, actions = loss3("JC")
        start = play(new(deal), actions)
        scrap = sorted(js(start)["scrap"])
        state = _play_until_restock(start)
        data = js(state)
        stocked = sorted(c for s in data["stocks"].values() for c in s["cards"])
        assert data["scrap"] == []
        assert set(scrap) <= set(stocked)
        assert all_cards(data) == sorted(deck(3))

    def test_four_stocks_are_dealt_again(self) -> None:
        """ "Repeat the process of dealing four stocks for the bases." -- all the cards,
        round-robin from Black (B1, B3)."""
        state, actions = restock_game()
        state = play(state, actions)
        assert [len(stock(state, b)) for b in BASES] == [5, 5, 5, 5]
        assert not state.is_over
        assert state.to_move == 0
        assert legal(state) == expected_actions(js(state))

    def test_new_stocks_start_face_down(self) -> None:
        """ "All the new stocks start face-down." -- even when the last draw was from a stock an
        8 had just turned face up."""
        changes = {14: "JK1>odd:8D", 16: "AD>red:KD", 19: "8D>red:JK2"}
        bases = {**RESTOCK_BASES, "even": "4D"}
        state, actions = restock_game(changes=changes, bases=bases)
        state = play(state, actions)
        assert {"flipped", "restocked"} <= set(kinds(state))
        assert "JK2" in hand(state, 4)
        data = js(state)
        assert data["bases"]["red"] == ["8D"]
        for base in BASES:
            assert data["stocks"][base]["face_up"] is False
            assert state.view(0).to_json()["stocks"][base]["top"] is None


def _play_until_restock(state: State, tries: int = 40) -> State:
    """Random legal play from ``state`` (seeded) until a restock; the first seed that gets one."""
    for seed in range(tries):
        rng = random.Random(seed)
        current = state
        while not current.is_over:
            current = current.apply(rng.choice(current.legal_actions()))
            if "restocked" in kinds(current):
                return current
    raise AssertionError("no random continuation reached a restock")


class TestCards:
    def test_aces_jacks_queens_values(self) -> None:
        """ "Aces are 1 (odd), Jacks are 11 (odd), Queens are 12 (even)." """
        state = new(build_deal(2, [["AH", "JS", "QD", "AC", "JD", "QS"]]))
        assert legal(state) == {
            "AH>odd", "AH>red", "JS>odd", "JS>black", "QD>even", "QD>red",
            "AC>odd", "AC>black", "JD>odd", "JD>red", "QS>even", "QS>black",
        }  # fmt: skip

    def test_kings_go_on_their_colour_even_or_odd(self) -> None:
        """ "Kings may be played on their color base, or on the even or odd bases." """
        state = new(build_deal(2, [["KH", "KC", "AS", "9C", "JH", "5D"]]))
        assert {a for a in legal(state) if a.startswith("K")} == {
            "KH>red", "KH>even", "KH>odd", "KC>black", "KC>even", "KC>odd",
        }  # fmt: skip
        with pytest.raises(IllegalAction, match=r"\(B4\)"):
            state.apply("KH>black")

    @pytest.mark.parametrize(
        ("keep", "drawn"),
        [(["JS", "QS", "9C", "9H", "9D"], "KS"), (["QS", "KS", "9C", "9H", "9D"], "AS")],
        ids=["J-Q-K", "Q-K-A"],
    )
    def test_kings_are_not_used_in_runs(self, keep: list[str], drawn: str) -> None:
        """ "They are not used in runs." (B5: ranks A..Q, no wrap, no King.)"""
        state = draw_into(2, keep, "2D", "even", drawn)
        assert drawn in hand(state, 0)
        assert not state.is_over
        assert state.to_move == 1

    @pytest.mark.parametrize("base", BASES)
    def test_jokers_go_on_any_base(self, base: str) -> None:
        """ "Jokers may be played on any of the four bases." """
        state = new(build_deal(3, [["JK1"]]))
        assert {a for a in legal(state) if a.startswith("JK")} == {f"JK1>{b}" for b in BASES}
        after = state.apply(f"JK1>{base}")
        assert js(after)["bases"][base][0] == "JK1"

    @pytest.mark.parametrize(
        ("keep", "drawn"),
        [(["9C", "9S", "JK1", "5C", "5S"], "5H"), (["5H", "6H", "JK2", "9C", "9S"], "9D")],
        ids=["set", "run"],
    )
    def test_jokers_are_not_used_in_runs_or_sets(self, keep: list[str], drawn: str) -> None:
        """ "They are not used in runs or sets." """
        state = draw_into(3, keep, "2D", "even", drawn)
        assert drawn in hand(state, 0)
        assert not state.is_over
        assert state.to_move == 1

    def test_a_three_or_eight_turns_the_stock_over_before_the_draw(self) -> None:
        """ "When you play a 3 or 8 onto a base, turn over its corresponding stock pile (face-down
        to face-up or vice versa) before you draw." (B6: its order reverses.)"""
        state = new(build_deal(2, [["3H"], ["8D"]]))
        before = js(state)
        red = stock(state, "red")
        state = state.apply("3H>red")
        data = js(state)
        assert data["stocks"]["red"] == {"cards": red[-2::-1], "face_up": True}
        assert red[-1] in data["hands"][0]
        for base in ("black", "even", "odd"):
            assert data["stocks"][base] == before["stocks"][base]
        assert "flipped" in kinds(state)
        state = state.apply("8D>red")
        data = js(state)
        assert data["stocks"]["red"] == {"cards": red[1:-1], "face_up": False}
        assert red[0] in data["hands"][1]

    @pytest.mark.parametrize("card", ["7H", "4C"])
    def test_a_four_or_seven_may_draw_from_any_stock(self, card: str) -> None:
        """ "When you play a 4 or 7 onto a base, you may instead draw from any of the four stock
        piles." """
        state = new(build_deal(2, [[card]], {"black": ["QH"], "red": ["QC"], "even": ["5D"]}))
        own = [b for b in BASES if fits(card, b)]
        assert {a for a in legal(state) if a.startswith(card)} == {f"{card}>{b}" for b in own} | {
            f"{card}>{b}/{o}" for b in own for o in BASES if o != b
        }
        base, other = own[-1], "black"  # Red for 7H, Even for 4C
        before = js(state)
        after = state.apply(f"{card}>{base}/{other}")
        data = js(after)
        assert data["bases"][base][0] == card
        assert before["stocks"][other]["cards"][0] in data["hands"][0]
        assert data["stocks"][other]["cards"] == before["stocks"][other]["cards"][1:]
        assert data["stocks"][base] == before["stocks"][base]


class TestEndingTheGame:
    def test_the_first_player_to_accomplish_the_goal_wins(self) -> None:
        """ "The first player to accomplish the goal wins." """
        state = draw_into(3, ["AS", "2S", "3S", "TD", "JD"], "6H", "even", "QD")
        assert_won(state, 0)
        assert js(state)["out"] == []
        with pytest.raises(GameOver):
            state.apply("QD>red")

    def test_the_first_in_turn_order_wins_on_the_deal(self) -> None:
        """ "The first player to accomplish the goal wins." -- two goal hands on the deal: the
        first in turn order (B5)."""
        goals = [["9C", "9S", "9H", "5C", "5S", "5H"], ["AS", "2S", "3S", "TD", "JD", "QD"]]
        state = new(build_deal(3, [[], *goals]))
        assert_won(state, 1)

    def test_the_last_remaining_player_wins(self) -> None:
        """ "Or, when all but one player have lost, the last remaining player wins." """
        deal, actions = loss3()
        state = play(new(deal), actions[:-1])
        assert not state.is_over
        state = state.apply(actions[-1])
        data = js(state)
        assert data["out"] == [1, 2]
        assert data["hands"][1] == [] and data["hands"][2] == []
        assert sorted(data["scrap"]) == sorted(
            ["2S", "4S", "6S", "8S", "TS", "QS", "2C", "4C", "6C", "8C", "TC", "QC"]
        )
        assert kinds(state).count("lost") == 2
        assert_won(state, 0)


# -- the rulings ------------------------------------------------------------------------------


class TestB1StockSize:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_all_remaining_cards_go_into_the_stocks(self, players: int) -> None:
        """B1: "Deal all remaining cards round-robin into the four stocks (9/8/6/5 each)." """
        for seed in range(3):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            assert [len(data["stocks"][b]["cards"]) for b in BASES] == [STOCK_SIZE[players]] * 4

    def test_uneven_stocks_are_refused(self) -> None:
        """B1: the stocks of a deal hold all remaining cards, round-robin: equal at the start."""
        deal = build_deal(2)
        deal["stocks"]["black"].append(deal["stocks"]["red"].pop())
        with pytest.raises(InvalidNotation):
            new(deal)
        deal = build_deal(4)
        deal["stocks"]["even"].append(deal["stocks"]["odd"].pop())
        with pytest.raises(InvalidNotation):
            new(deal)

    def test_after_an_elimination_black_gets_the_extra_cards_first(self) -> None:
        """B1 with B9: "sizes may differ by one after eliminations" -- 38 cards: 10/10/9/9."""
        deal, actions = loss3("JC")
        state = _play_until_restock(play(new(deal), actions))
        assert [len(stock(state, b)) for b in BASES] == [10, 10, 9, 9]


class TestB2ChoosingBases:
    @pytest.mark.parametrize("players", [2, 3, 4, 5])
    def test_bases_from_the_seed_fit_their_theme_without_kings_or_jokers(
        self, players: int
    ) -> None:
        """B2: "Turn cards from the top one at a time, setting Jokers aside. [...] At setup a King
        counts only for its colour, never as Even or Odd." """
        for seed in range(20):
            data = js(GAME.new(players, seed, options={"natural_win": False}))
            for base in BASES:
                assert fits_at_setup(data["bases"][base][0], base), (seed, data["bases"])

    @pytest.mark.parametrize(
        ("base", "card"),
        [("even", "KS"), ("odd", "KD"), ("black", "2H"), ("red", "2S"), ("even", "5C")],
    )
    def test_a_deal_with_a_base_off_its_theme_is_refused(self, base: str, card: str) -> None:
        """B2: the four base cards are "matched one-to-one to Black, Even, Odd, Red"; "At setup a
        King counts only for its colour"."""
        deal = build_deal(2, bases={base: card})
        with pytest.raises(InvalidNotation, match=card):
            new(deal)

    def test_a_joker_is_never_a_base(self) -> None:
        """B2: "Turn cards from the top one at a time, setting Jokers aside." """
        deal = build_deal(3)
        where = next(b for b in BASES if "JK1" in deal["stocks"][b])
        pile = deal["stocks"][where]
        pile[pile.index("JK1")] = deal["bases"]["odd"]
        deal["bases"]["odd"] = "JK1"
        with pytest.raises(InvalidNotation, match="JK1"):
            new(deal)


class TestB3Deal:
    def test_the_deal_is_played_as_given(self) -> None:
        """B3: "6 cards to each player [...] then the stocks [...] Seat 0 plays first." """
        deal = build_deal(4)
        data = js(new(deal))
        assert data["to_move"] == 0
        assert [sorted(h) for h in data["hands"]] == [sorted(h) for h in deal["hands"]]
        assert data["bases"] == {b: [deal["bases"][b]] for b in BASES}
        assert data["stocks"] == {b: {"cards": deal["stocks"][b], "face_up": False} for b in BASES}
        assert data["out"] == [] and data["scrap"] == []
        assert (data["winner"], data["result"]) == (None, None)

    @pytest.mark.parametrize(
        "mangle",
        ["duplicate", "missing", "hand of 7", "three hands"],
    )
    def test_a_deal_must_use_each_card_once(self, mangle: str) -> None:
        """B3 and the issue: each card of the deck exactly once, 6 cards to each player."""
        deal = build_deal(2)
        if mangle == "duplicate":
            deal["stocks"]["red"][0] = deal["hands"][0][0]
        elif mangle == "missing":
            deal["stocks"]["red"].pop()
        elif mangle == "hand of 7":
            deal["hands"][0].append(deal["hands"][1].pop())
        else:
            deal["hands"].append(deal["hands"][1][:])
        with pytest.raises(InvalidNotation):
            GAME.new(2, 0, deal=deal)

    @pytest.mark.parametrize("seed", range(4))
    def test_the_seed_deals_the_same_game(self, seed: int) -> None:
        """B3 and Common: "Randomness comes only from a seed"."""
        assert js(GAME.new(4, seed)) == js(GAME.new(4, seed))
        assert js(GAME.new(4, seed)) != js(GAME.new(4, seed + 100))


class TestB4Themes:
    def test_every_card_fits_exactly_its_bases(self) -> None:
        """B4: "Black: ♠♣. Red: ♥♦. Even/Odd by value [...] Every card except a King or Joker fits
        exactly two bases (its colour and its parity). A King fits its colour base, Even and
        Odd. A Joker fits all four." -- every card of a three-player deck, six at a time."""
        cards = [c for c in deck(3) if c[0] not in "47"]
        for start in range(0, len(cards), 6):
            chunk = cards[start : start + 6]
            chunk += [c for c in ("2S", "6D", "TC", "QH") if c not in chunk][: 6 - len(chunk)]
            state = new(build_deal(3, [chunk]), {"natural_win": False})
            assert legal(state) == expected_actions(js(state))
            for card in chunk:
                bases = {a.split(">")[1] for a in legal(state) if a.startswith(card + ">")}
                count = 4 if is_joker(card) else 3 if card[0] == "K" else 2
                assert len(bases) == count, (card, bases)

    def test_legality_ignores_the_top_card(self) -> None:
        """B4: "Legality depends on the base's theme only, never on its top card." """
        state = new(build_deal(2, [["KS"], ["6D", "5D"]], bases={"red": "9D"}))
        state = state.apply("KS>even")
        assert js(state)["bases"]["even"][0] == "KS"
        assert "6D>even" in legal(state)
        assert "5D>even" not in legal(state)
        assert "6D>red" in legal(state)  # Red shows 9D, an odd card
        with pytest.raises(IllegalAction, match=re.escape("5D cannot go on even: 5 is odd (B4)")):
            state.apply("5D>even")
        after = state.apply("6D>even")
        assert js(after)["bases"]["even"][:2] == ["6D", "KS"]

    def test_a_base_without_stock_accepts_no_card(self) -> None:
        """B4: "A base whose stock is empty accepts no card." -- not a Joker either."""
        moves = ["2H>red:JK1", "6H>red:9S", "TH>red:9C", "QH>red:JS", "2D>red:JC"]
        deal, actions = script(5, [], moves)
        state = play(new(deal), actions)
        assert stock(state, "red") == []
        assert state.to_move == 0
        assert "JK1" in hand(state, 0)
        assert {a for a in legal(state) if a.startswith("JK1")} == {
            "JK1>black", "JK1>even", "JK1>odd",
        }  # fmt: skip
        with pytest.raises(IllegalAction, match=re.escape("red has no stock left (B4)")):
            state.apply("JK1>red")

    def test_notation_takes_short_names_and_any_case(self) -> None:
        """Issue 3: "input also takes b e o r, any case; the canonical form is lower-case full
        names and canonical cards"."""
        deal = build_deal(2, [["7H"]])
        canonical = js(new(deal).apply("7H>red/black"))
        for text in ("7h>R/B", "7H>r/b", "7h>RED/black", " 7H>red/b "):
            assert js(new(deal).apply(text)) == canonical
        assert all(a == a.strip() and ">" in a for a in legal(new(deal)))
        assert "7H>red/black" in legal(new(deal))


class TestB5Goal:
    @pytest.mark.parametrize(
        ("keep", "drawn", "wins"),
        [
            (["AS", "2S", "3S", "9C", "9H"], "9D", True),
            (["TD", "JD", "QD", "5C", "5S"], "5H", True),
            (["KS", "KH", "KD", "4C", "5C"], "6C", True),
            (["QS", "KS", "AS", "9C", "9H"], "9D", False),
            (["JH", "QH", "KH", "9C", "9S"], "9D", False),
            (["5H", "6S", "7H", "9C", "9S"], "9D", False),
            (["5H", "6H", "8H", "9C", "9S"], "9D", False),
            (["9C", "9S", "9H", "5C", "5S"], "6D", False),
        ],
        ids=["A-2-3", "T-J-Q", "K-K-K", "Q-K-A", "J-Q-K", "two suits", "gap", "one group"],
    )
    def test_two_groups_runs_and_sets(self, keep: list[str], drawn: str, wins: bool) -> None:
        """B5: "a group is a run (three consecutive ranks of one suit, A low, ranks A..Q, no wrap,
        no King, no Joker) or a set (three cards of one rank; K-K-K is a set; no Jokers)" and it
        is checked "after each draw"."""
        state = draw_into(2, keep, "2D", "even", drawn)
        assert is_goal([*keep, drawn]) is wins
        if wins:
            assert_won(state, 0)
        else:
            assert not state.is_over and state.to_move == 1

    def test_a_natural_win_on_the_deal(self) -> None:
        """B5: "Check after the deal (option natural_win, default on: the first qualifying seat in
        turn order wins at once)"."""
        goal = ["9C", "9S", "9H", "5C", "5S", "5H"]
        assert_won(new(build_deal(2, [goal])), 0)
        assert_won(new(build_deal(2, [[], goal])), 1)
        assert_won(new(build_deal(4, [[], [], goal])), 2)

    def test_natural_win_off(self) -> None:
        """B5: option natural_win off: a goal hand on the deal does not end the game."""
        goal = ["9C", "9S", "9H", "5C", "5S", "5H"]
        state = new(build_deal(2, [[], goal]), {"natural_win": False})
        assert not state.is_over
        assert state.to_move == 0
        assert js(state)["winner"] is None

    def test_a_natural_win_from_the_seed(self) -> None:
        """B5: the natural win applies to dealt games too: a seed deal ends at once exactly when a
        hand qualifies, and the first qualifying seat wins."""
        for seed in range(60):
            state = GAME.new(2 + seed % 4, seed)
            hands = js(state)["hands"]
            winners = [s for s, h in enumerate(hands) if is_goal(h)]
            assert state.is_over == bool(winners)
            if winners:
                assert_won(state, winners[0])


class TestB6Flip:
    def test_the_order_reverses_and_the_face_changes(self) -> None:
        """B6: "Playing a 3 or 8 turns that base's stock over before the draw: its order reverses
        and it changes face-down <-> face-up. The player then draws the new top card." """
        state = new(build_deal(2, [["8S"]]))
        black = stock(state, "black")
        state = state.apply("8S>black")
        assert js(state)["stocks"]["black"] == {"cards": black[-2::-1], "face_up": True}
        assert black[-1] in hand(state, 0)
        assert "flipped" in kinds(state)

    def test_the_top_of_a_face_up_stock_is_public(self) -> None:
        """B6: "The top card of a face-up stock is public; a card drawn from a face-up stock is
        publicly known to be in that hand until played." """
        state = new(build_deal(2, [["3H"]]))
        red = stock(state, "red")
        state = state.apply("3H>red")
        for seat in (0, 1):
            entry = state.view(seat).to_json()["stocks"]["red"]
            assert (entry["size"], entry["face_up"], entry["top"]) == (8, True, red[-2])
        assert red[-1] in cards_named(str(state.view(1).to_json())) | event_cards(state, 1)

    def test_a_face_down_draw_is_named_only_to_the_drawer(self) -> None:
        """B6 and Common ("Public information"): a card drawn from a face-down stock is seen by
        its drawer alone; the events name it only to him."""
        state = new(build_deal(2, [["2D"]], {"even": ["JS"]}))
        state = state.apply("2D>even")
        assert "JS" in event_cards(state, 0)
        assert "JS" not in event_cards(state, 1)
        assert "JS" not in event_cards(state, None)
        assert "JS" not in cards_named(str(state.view(1).to_json()))

    def test_a_flip_back_hides_the_stock_again(self) -> None:
        """B6: "it changes face-down <-> face-up" -- a second 3 or 8 turns it face down, reversed
        again, and the card then drawn is private."""
        state = new(build_deal(2, [["3H"], ["8D"]]))
        red = stock(state, "red")
        state = play(state, ["3H>red", "8D>red"])
        assert js(state)["stocks"]["red"] == {"cards": red[1:-1], "face_up": False}
        assert red[0] in hand(state, 1)
        view = state.view(0).to_json()
        assert view["stocks"]["red"]["top"] is None
        assert view["stocks"]["red"]["face_up"] is False
        assert not cards_named(str(view)) & {red[0], *red[1:-2]}
        assert red[-2] in cards_named(str(view))  # seen on top, now known to lie at the bottom
        assert red[0] not in event_cards(state, 0)

    def test_option_flip_without_reversing(self) -> None:
        """B6: option flip_reverses_order off: the stock only changes face."""
        state = new(build_deal(2, [["3H"]]), {"flip_reverses_order": False})
        red = stock(state, "red")
        state = state.apply("3H>red")
        assert js(state)["stocks"]["red"] == {"cards": red[1:], "face_up": True}
        assert red[0] in hand(state, 0)
        assert state.view(1).to_json()["stocks"]["red"]["top"] == red[1]


class TestB7AnyStockDraw:
    def test_draw_from_any_non_empty_stock(self) -> None:
        """B7: "The player may draw from any non-empty stock instead of the base's own." """
        moves = ["2H>red:7H", "6H>red:9S", "TH>red:9C", "QH>red:JS", "2D>red:JC"]
        deal, actions = script(5, [], moves)
        state = play(new(deal), actions)
        assert stock(state, "red") == []
        sevens = {a for a in legal(state) if a.startswith("7H")}
        assert sevens == {"7H>odd", "7H>odd/black", "7H>odd/even"}
        with pytest.raises(IllegalAction):
            state.apply("7H>odd/red")

    def test_the_card_still_needs_a_base_with_stock(self) -> None:
        """B7: "The card must still be played on a base whose stock is not empty." """
        moves = ["2H>red:7H", "6H>red:9S", "TH>red:9C", "QH>red:JS", "2D>red:JC"]
        deal, actions = script(5, [], moves)
        state = play(new(deal), actions)
        with pytest.raises(IllegalAction, match=re.escape("red has no stock left (B4)")):
            state.apply("7H>red/black")

    def test_only_a_four_or_seven(self) -> None:
        """B7 (issue 3): "only a 4 or 7 may draw from another stock (B7)"."""
        state = new(build_deal(2, [["5H", "3D", "KC"]]))
        for text in ("5H>red/black", "3D>red/odd", "KC>even/odd"):
            with pytest.raises(
                IllegalAction, match=re.escape("only a 4 or 7 may draw from another stock (B7)")
            ):
                state.apply(text)


class TestB8Losing:
    def test_two_players_the_other_wins(self) -> None:
        """B8: "At the start of his turn a player who has no legal play loses. With 2 players the
        other wins." """
        deal, actions = script(2, LOSS2_KEEP, LOSS2_MOVES)
        state = play(new(deal), actions[:-1])
        assert hand(state, 0) == sorted(["2S", "6S", "TS", "QS", "2C", "6C"])
        assert not state.is_over  # Even still has a card for seat 0: not lost yet
        state = state.apply(actions[-1])
        assert js(state)["out"] == [0]
        assert state.outcome is not None
        assert state.outcome.ranks[1] < state.outcome.ranks[0]
        assert_won(state, 1)

    def test_more_players_scrap_the_hand_and_play_continues(self) -> None:
        """B8: "With more, his hand goes face down to the scrap pile and play continues" """
        deal, actions = loss3("JC")
        state = play(new(deal), actions)
        data = js(state)
        assert (data["out"], data["hands"][1], state.to_move) == ([1], [], 2)
        assert len(data["scrap"]) == 6
        state = state.apply("JC>odd")
        assert state.to_move == 0  # seat 1 is skipped from now on
        state = state.apply(min(legal(state)))
        assert state.to_move == 2

    def test_the_last_player_left_wins(self) -> None:
        """B8: "the last player left wins." """
        deal, actions = loss3()
        state = play(new(deal), actions)
        assert js(state)["out"] == [1, 2]
        assert_won(state, 0)


class TestB9Restock:
    def test_right_after_the_draw_that_empties_the_last_stock(self) -> None:
        """B9: "Restock happens right after the draw that empties the last non-empty stock" """
        state, actions = restock_game()
        state = play(state, actions)
        data = js(state)
        assert "restocked" in kinds(state)
        assert "JK2" in data["hands"][4]
        assert data["bases"] == RESTOCK_KEPT
        assert all(s["cards"] and not s["face_up"] for s in data["stocks"].values())

    def test_the_goal_is_checked_first(self) -> None:
        """B9: "(unless that draw completes the goal: B5 is checked first and ends the game)" """
        keep = [list(k) for k in RESTOCK_KEEP]
        keep[2] = ["AH", "3H", "5H", "9S", "9H"]
        keep[4] = ["3S", "3C", "7S", "7C", "7H"]
        changes = {17: "5D>red:JK2", 19: "KD>red:3D"}
        bases = {**RESTOCK_BASES, "odd": "7D"}
        state, actions = restock_game(changes=changes, keep=keep, bases=bases)
        state = play(state, actions)
        assert "restocked" not in kinds(state)
        assert all(not s["cards"] for s in js(state)["stocks"].values())
        assert_won(state, 4)

    def test_option_keep_a_joker_as_base(self) -> None:
        """B9: "skip Jokers on any base [...] option restock_skip_jokers, default on" -- off, a
        Joker on top stays as the base (Kings on Even/Odd are still skipped)."""
        state, actions = restock_game({"restock_skip_jokers": False})
        state = play(state, actions)
        data = js(state)
        assert data["bases"] == {**RESTOCK_KEPT, "odd": ["JK1"]}
        stocked = sorted(c for s in data["stocks"].values() for c in s["cards"])
        assert stocked == sorted([c for c in RESTOCK_RESHUFFLED if c != "JK1"] + ["9D"])


class TestB10NoNaturalEnd:
    def test_max_turns_ends_in_a_draw(self) -> None:
        """B10: "Option max_turns (default 2000): the game is a draw when reached." """
        deal = build_deal(2, [["2D"], ["6D"]], {"even": ["TD", "QD", "JS"]})
        state = new(deal, {"max_turns": 3})
        state = play(state, ["2D>even", "6D>even"])
        assert not state.is_over
        state = state.apply("TD>even")
        data = js(state)
        assert state.is_over and state.to_move is None
        assert (data["result"], data["winner"]) == ("draw", None)
        assert state.outcome is not None and state.outcome.result == "draw"
        assert "draw" in kinds(state)
        assert state.legal_actions() == ()
        with pytest.raises(GameOver):
            state.apply("QD>red")

    def test_a_win_on_the_last_turn_is_a_win(self) -> None:
        """B10 with B5: the goal is checked after the draw, so a win on the last allowed turn
        stands."""
        state = draw_into(2, ["5H", "6H", "7H", "9C", "9S"], "2D", "even", "9D", {"max_turns": 1})
        assert_won(state, 0)

    def test_the_default_is_2000(self) -> None:
        """B10: "(default 2000)" -- random play never outlasts it."""
        rng = random.Random(5)
        state = GAME.new(2, 5)
        turns = 0
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            turns += 1
        assert turns <= 2000
        assert js(state)["result"] != "draw" or turns == 2000

    @pytest.mark.parametrize(
        "options",
        [
            {"natural_win": "maybe"},
            {"flip_reverses_order": 2},
            {"restock_skip_jokers": "sometimes"},
            {"max_turns": -1},
            {"max_turns": "many"},
            {"max_rounds": 10},
        ],
    )
    def test_bad_options_are_refused(self, options: dict[str, object]) -> None:
        """B5, B6, B9, B10 name the options; other names and values are refused."""
        with pytest.raises(InvalidOption):
            GAME.new(2, 0, options=options)


class TestB11Jokers:
    @pytest.mark.parametrize(("players", "count"), [(2, 52), (3, 54), (4, 52), (5, 54)])
    def test_jokers_by_the_starting_number_of_players(self, players: int, count: int) -> None:
        """B11: "Jokers are added by the starting number of players" """
        assert len(all_cards(js(GAME.new(players, 2, options={"natural_win": False})))) == count

    def test_jokers_stay_after_an_elimination(self) -> None:
        """B11: "[Jokers] stay in the game." -- two players left of three, 54 cards still."""
        deal, actions = loss3("JC")
        state = play(new(deal), actions)
        assert all_cards(js(state)) == sorted(deck(3))
        state = _play_until_restock(state)
        assert all_cards(js(state)) == sorted(deck(3))


# -- properties -------------------------------------------------------------------------------


def check_step(
    before: Mapping[str, Any], action: str, after: State, options: Mapping[str, Any]
) -> None:
    """One action of any game, checked against the rules: cards conserved (B11), the play and
    the draw (B4, B6, B7), the goal (B5), losses and the next seat (B8), restocks (B9), hands of
    6 for the players still in, and the legal actions that follow."""
    data = js(after)
    players = len(data["hands"])
    mover = before["to_move"]
    card, target = action.split(">")
    base, _, other = target.partition("/")
    source = other or base
    assert all_cards(data) == sorted(deck(players))

    # The play and the draw (B6 flip before the draw, B7 another stock).
    cards = list(before["stocks"][source]["cards"])
    face_up = before["stocks"][source]["face_up"]
    if card[0] in "38" and not is_joker(card):
        face_up = not face_up
        if options.get("flip_reverses_order", True):
            cards.reverse()
    drawn = cards[0]
    mine = list(before["hands"][mover])
    mine.remove(card)
    assert sorted(data["hands"][mover]) == sorted([*mine, drawn])

    restocked = "restocked" in kinds(after)
    piles = {b: list(before["bases"][b]) for b in BASES}
    piles[base].insert(0, card)
    if not restocked:
        assert data["bases"] == piles
        for name in BASES:
            expected = {"cards": cards[1:], "face_up": face_up}
            if name != source:
                expected = before["stocks"][name]
            assert data["stocks"][name] == expected
        assert after.is_over or any(s["cards"] for s in data["stocks"].values())
    else:
        assert sum(len(s["cards"]) for s in before["stocks"].values()) == 1
        skip = options.get("restock_skip_jokers", True)
        kept = {b: kept_base(piles[b], b, skip) for b in BASES}
        assert data["bases"] == {b: [kept[b]] for b in BASES}
        rest = [c for b in BASES for c in piles[b] if c != kept[b]] + list(before["scrap"])
        stocked = [c for b in BASES for c in data["stocks"][b]["cards"]]
        assert sorted(stocked) == sorted(rest)
        assert [len(data["stocks"][b]["cards"]) for b in BASES] == round_robin_sizes(len(rest))
        assert not any(s["face_up"] for s in data["stocks"].values())

    # The goal (B5), losses and the turn (B8).
    assert data["out"][: len(before["out"])] == before["out"]
    newly_out = data["out"][len(before["out"]) :]
    if is_goal(data["hands"][mover]):
        assert (data["winner"], data["result"], newly_out) == (mover, "win", [])
    live = [b for b in BASES if data["stocks"][b]["cards"]]
    for seat in newly_out:
        assert not any(fits(c, b) for c in before["hands"][seat] for b in live)
        if players > 2:
            assert data["hands"][seat] == []
    if players > 2 and newly_out:
        scrap = ([] if restocked else list(before["scrap"])) + [
            c for s in newly_out for c in before["hands"][s]
        ]
        assert sorted(data["scrap"]) == sorted(scrap)
    still_in = [s for s in range(players) if s not in data["out"]]
    for seat in still_in:
        assert len(data["hands"][seat]) == 6
    if after.is_over:
        assert after.to_move is None and after.legal_actions() == ()
        if data["result"] == "win" and not is_goal(data["hands"][data["winner"]]):
            assert still_in == [data["winner"]]
    else:
        skipped, seat = [], mover
        for _ in range(players):
            seat = (seat + 1) % players
            if seat in newly_out:
                skipped.append(seat)
            elif seat not in before["out"]:
                break
        assert (after.to_move, skipped) == (seat, newly_out)
        assert data["to_move"] == seat
        assert {str(a) for a in after.legal_actions()} == expected_actions(data)
        assert expected_actions(data), "B8: a seat with no legal play loses at once"


class Knowledge:
    """What each seat may know (Common, "Public information"), over-estimated: every card ever on
    a base or on top of a face-up stock, every card drawn from a face-up stock, a winner's hand,
    and every card the seat itself has held."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.public: set[str] = set()
        self.held: list[set[str]] = [set() for _ in data["hands"]]
        self.update(data)

    def update(self, data: Mapping[str, Any], *shown: str | None) -> None:
        """Learn from a full state and the cards an action showed (played, drawn face up)."""
        self.public |= {c for pile in data["bases"].values() for c in pile}
        self.public |= {
            s["cards"][0] for s in data["stocks"].values() if s["face_up"] and s["cards"]
        }
        self.public |= {c for c in shown if c}
        if data["result"] == "win":  # the winner shows his hand
            self.public |= set(data["hands"][data["winner"]])
        for seat, h in enumerate(data["hands"]):
            self.held[seat] |= set(h)

    def check(self, state: State) -> None:
        data = js(state)
        spectator = state.view(None).to_json()
        assert cards_named(str(spectator)) | event_cards(state, None) <= self.public
        for seat in range(len(data["hands"])):
            view = state.view(seat).to_json()
            allowed = self.public | self.held[seat]
            assert cards_named(str(view)) <= allowed, (seat, cards_named(str(view)) - allowed)
            assert event_cards(state, seat) <= allowed
            assert sorted(view["hand"]) == sorted(data["hands"][seat])
            assert list(view["hand_sizes"]) == [len(h) for h in data["hands"]]
            assert list(view["out"]) == data["out"]
            assert view["to_move"] == data["to_move"]
            for name, entry in data["stocks"].items():
                shown = view["stocks"][name]
                top = entry["cards"][0] if entry["face_up"] and entry["cards"] else None
                assert (shown["size"], shown["face_up"], shown["top"]) == (
                    len(entry["cards"]),
                    entry["face_up"],
                    top,
                )


def _face_up_draw(before: Mapping[str, Any], action: str, reverse: bool) -> str | None:
    """The card drawn by ``action`` if it came off a face-up stock (public, B6)."""
    card, target = action.split(">")
    base, _, other = target.partition("/")
    entry = before["stocks"][other or base]
    face_up, cards = entry["face_up"], list(entry["cards"])
    if card[0] in "38" and not is_joker(card):
        face_up = not face_up
        cards = cards[::-1] if reverse else cards
    return cards[0] if face_up else None


def playout(
    state: State,
    rng: random.Random,
    options: Mapping[str, Any],
    drain: bool = False,
    views: bool = True,
) -> tuple[list[str], list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Random legal play to the end, every step checked; the actions, states and events.

    ``drain`` prefers draws from the smallest stock, which empties stocks sooner (restocks and
    losses)."""
    actions, states, seen = [], [js(state)], []
    knowledge = Knowledge(states[0])
    while not state.is_over:
        before = states[-1]
        choices = [str(a) for a in state.legal_actions()]
        if drain and rng.random() < 0.8:
            sizes = {b: len(before["stocks"][b]["cards"]) for b in BASES}
            smallest = min(sizes[a.split(">")[1].split("/")[-1]] for a in choices)
            choices = [a for a in choices if sizes[a.split(">")[1].split("/")[-1]] == smallest]
        action = rng.choice(choices)
        state = state.apply(action)
        check_step(before, action, state, options)
        states.append(js(state))
        actions.append(action)
        seen.append([e.to_json() | {"audience": e.audience} for e in state.events])
        if views:
            reverse = options.get("flip_reverses_order", True)
            shown = (action.split(">")[0], _face_up_draw(before, action, reverse))
            knowledge.update(states[-1], *shown)
            knowledge.check(state)
    return actions, states, seen


OPTIONS = st.fixed_dictionaries(
    {
        "flip_reverses_order": st.booleans(),
        "restock_skip_jokers": st.booleans(),
        "max_turns": st.integers(40, 300),
    }
)


class TestProperties:
    @settings(max_examples=60)
    @given(
        seed=st.integers(0, 2**32 - 1),
        players=st.sampled_from([2, 3, 4, 5]),
        options=OPTIONS,
        drain=st.booleans(),
    )
    def test_random_playouts_keep_the_rules(
        self, seed: int, players: int, options: dict[str, Any], drain: bool
    ) -> None:
        """Every action of a random game: 52 or 54 cards conserved (B11), hands of 6 for the
        players still in, the play and the draw (B4, B6, B7), the goal (B5), losses (B8),
        restocks (B9), legal actions, views and events that leak nothing."""
        state = GAME.new(players, seed, options=options)
        actions, states, _ = playout(state, random.Random(seed), options, drain)
        assert states[-1]["result"] in ("win", "draw")
        if states[-1]["result"] == "draw":
            assert len(actions) == options["max_turns"]

    @settings(max_examples=30)
    @given(seed=st.integers(0, 2**32 - 1), options=OPTIONS, drain=st.booleans())
    def test_random_play_after_a_loss(
        self, seed: int, options: dict[str, Any], drain: bool
    ) -> None:
        """The same checks from the three-player game where seat 1 has lost: the scrap pile goes
        into the next restock, Jokers stay (B8, B9, B11)."""
        deal, moves = loss3("JC")
        state = play(new(deal, options), moves)
        assert js(state)["out"] == [1]
        playout(state, random.Random(seed), options, drain)

    @settings(max_examples=40)
    @given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4, 5]))
    def test_replay_equality(self, seed: int, players: int) -> None:
        """Common: "the same record always replays to the same states and events" -- from the
        seed, and from the deal the seed made."""
        options = {"max_turns": 300}
        actions, states, events = playout(
            GAME.new(players, seed, options=options), random.Random(seed), options, views=False
        )
        first = states[0]
        deal = {
            "bases": {b: first["bases"][b][0] for b in BASES},
            "hands": first["hands"],
            "stocks": {b: first["stocks"][b]["cards"] for b in BASES},
        }
        for start in (
            GAME.new(players, seed, options=options),
            GAME.new(players, seed, options=options, deal=deal),
        ):
            state = start
            assert js(state) == states[0]
            for action, expected, said in zip(actions, states[1:], events, strict=True):
                state = state.apply(action)
                assert js(state) == expected
                assert [e.to_json() | {"audience": e.audience} for e in state.events] == said

    def test_playouts_reach_restocks_and_losses(self) -> None:
        """The properties above are not vacuous: seeded random playouts (half of them draining
        the smallest stock) flip stocks, draw from other stocks, restock, lose, win and draw."""
        seen: set[str] = set()
        for seed in range(24):
            options = {"max_turns": 400}
            actions, _, events = playout(
                GAME.new(2 + seed % 4, seed, options=options),
                random.Random(seed),
                options,
                drain=seed % 2 == 0,
                views=False,
            )
            seen |= {e["kind"] for said in events for e in said}
            seen |= {"other stock" for a in actions if "/" in a}
        assert {"flipped", "other stock", "restocked", "lost", "won", "draw"} <= seen
