"""One BEOR turn worked through, one method per rule (B4-B9), and the legal moves of a hand
(B4, B7). :class:`~parlour.games.beor.rules.BeorState` is the state machine that uses them."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import chain
from operator import attrgetter
from typing import Protocol, TypeVar

from parlour.cards import Card, Rank
from parlour.core.game import Action
from parlour.core.rng import derive_seed, make_rng
from parlour.games.beor.deal import deck_for
from parlour.games.beor.events import BeorEvent, Drew, Flipped, Lost, Played, Restocked, Won
from parlour.games.beor.notation import (
    BASES,
    MOVES_BY_MASK,
    Move,
    fits,
    goal_groups,
    shows_theme,
    why_not_fits,
)
from parlour.games.beor.options import BeorOptions
from parlour.games.beor.sentences import said

__all__ = [
    "HELD_STRIDE",
    "Known",
    "Position",
    "Turn",
    "cards_of",
    "held_by",
    "held_mask",
    "legal_of",
    "mask_of",
    "refusal",
    "replace_at",
]

_T = TypeVar("_T")

Known = frozenset[tuple[int, Card]]
"""Publicly known cards of a stock, by offset from its bottom (stable while cards are drawn)."""

Stocks = tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]


def mask_of(cards: Iterable[Card]) -> int:
    """Cards as a bit mask (bit ``card.code``): the sets of cards shown and held grow on every
    turn, and an int grows at C speed."""
    mask = 0
    for card in cards:
        mask |= 1 << card.code
    return mask


HELD_STRIDE = 256
"""The cards each seat has held are one bit mask, seat ``s``'s at bits ``256 * s`` on (a card's
``code`` is below 256)."""


def held_mask(seats: Iterable[Iterable[Card]]) -> int:
    """The cards each seat has held (``seats[s]`` for seat ``s``) as one mask."""
    return sum(mask_of(cards) << HELD_STRIDE * s for s, cards in enumerate(seats))


def held_by(held: int, seat: int) -> int:
    """The mask of the cards ``seat`` has held."""
    return held >> HELD_STRIDE * seat & (1 << HELD_STRIDE) - 1


def cards_of(mask: int, players: int) -> tuple[Card, ...]:
    """The cards of ``players``' deck (B11) in ``mask``, in sort order (a card's ``code`` is
    its place in that order): one step a card held, not one a card of the deck."""
    deck, by_code = _deck_codes(players)
    mask &= deck
    found = []
    while mask:
        low = mask & -mask
        found.append(by_code[low.bit_length() - 1])
        mask ^= low
    return tuple(found)


@cache
def _deck_codes(players: int) -> tuple[int, dict[int, Card]]:
    """``players``' deck as a mask, and its cards by code."""
    cards = deck_for(players)
    return mask_of(cards), {c.code: c for c in cards}


def replace_at(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _open_stocks(stocks: Stocks) -> int:
    """Bit i set when stock i has cards."""
    return (
        (1 if stocks[0] else 0)
        | (2 if stocks[1] else 0)
        | (4 if stocks[2] else 0)
        | (8 if stocks[3] else 0)
    )


_CODE = attrgetter("code")

# Events are immutable values, and turns make the same few again and again (a seat, a card and
# a base or stock): each is made once, on the hot path of search.
_played = cache(Played)
_flipped = cache(Flipped)
_drew = cache(Drew)


def legal_of(hand: tuple[Card, ...], stocks: Stocks) -> tuple[Action, ...]:
    """Every legal move of ``hand`` (cards in sort order, so in id order), B4 and B7."""
    table = MOVES_BY_MASK[_open_stocks(stocks)]
    return tuple(chain.from_iterable(map(table.__getitem__, sorted(hand, key=_CODE))))


def refusal(move: Move, seat: int, hand: tuple[Card, ...], stocks: Stocks) -> str | None:
    """Why ``move`` is not legal for ``seat`` holding ``hand``, naming the rule (B4, B7); None
    when no rule refuses it."""
    if move.card not in hand:
        return said("refusal.not_in_hand", card=str(move.card), player=seat + 1)
    if not fits(move.card, move.base):
        return why_not_fits(move.card, move.base)
    if not stocks[move.base]:
        return said("refusal.no_stock", base=BASES[move.base])
    if move.stock is not None and move.card.rank not in (Rank.FOUR, Rank.SEVEN):
        return said("refusal.draw_other")
    if move.stock is not None and not stocks[move.stock]:
        return said("refusal.no_stock_draw", base=BASES[move.stock])
    return None


class Position(Protocol):
    """The fields of the state a turn starts from (:class:`~.rules.BeorState`'s; see its
    ``_make``)."""

    _options: BeorOptions
    _seed: int
    _restocks: int
    _hands: tuple[tuple[Card, ...], ...]
    _bases: tuple[tuple[Card, ...], ...]
    _stocks: tuple[tuple[Card, ...], ...]
    _face_up: tuple[bool, ...]
    _known: tuple[Known, ...]
    _known_hands: tuple[frozenset[Card], ...]
    _scrap: tuple[Card, ...]
    _known_scrap: frozenset[Card]
    _shown: int
    _held: int
    _out: tuple[int, ...]
    _to_move: int
    _turn: int


class Turn:
    """One action worked through on shallow copies (only what the action touches is rebuilt);
    one method per rule. Made and used up inside ``BeorState._apply``, so states stay
    immutable; it is given the fields of the state it starts from."""

    __slots__ = (
        "bases",
        "events",
        "face_up",
        "hands",
        "held",
        "known",
        "known_hands",
        "known_scrap",
        "legal",
        "options",
        "out",
        "restocks",
        "result",
        "scrap",
        "seed",
        "shown",
        "stocks",
        "to_move",
        "turn",
        "winner",
    )

    def __init__(self, s: Position) -> None:
        self.options = s._options
        self.seed = s._seed
        self.restocks = s._restocks
        self.hands = list(s._hands)
        self.bases = list(s._bases)
        self.stocks = list(s._stocks)
        self.face_up = s._face_up
        self.known = s._known
        self.known_hands = s._known_hands
        self.scrap = s._scrap
        self.known_scrap = s._known_scrap
        self.shown = s._shown
        self.held = s._held
        self.out = s._out
        self.to_move = s._to_move
        self.turn = s._turn
        self.winner: int | None = None
        self.result: str | None = None
        self.events: list[BeorEvent] = []
        self.legal: tuple[Action, ...] | None = None

    def play(self, move: Move) -> None:
        """Text: 'First, play a card from your hand onto one of the bases'."""
        p = self.to_move
        card = move.card
        hand = self.hands[p]
        k = hand.index(card)
        self.hands[p] = hand[:k] + hand[k + 1 :]
        if card in self.known_hands[p]:
            self.known_hands = replace_at(self.known_hands, p, self.known_hands[p] - {card})
        self.bases[move.base] = (card, *self.bases[move.base])
        self.shown |= 1 << card.code
        self.events.append(_played(p, card, move.base))
        if card.rank is Rank.THREE or card.rank is Rank.EIGHT:
            self.flip(move.base)

    def flip(self, i: int) -> None:
        """B6: a 3 or 8 turns the base's stock over before the draw: its order reverses (option
        ``flip_reverses_order``) and it changes face."""
        stock = self.stocks[i]
        if self.options.flip_reverses_order:
            n = len(stock)
            self.stocks[i] = stock[::-1]
            if self.known[i]:
                self.known = replace_at(
                    self.known, i, frozenset((n - 1 - k, c) for k, c in self.known[i])
                )
        up = not self.face_up[i]
        self.face_up = replace_at(self.face_up, i, up)
        self.reveal_top(i)
        self.events.append(_flipped(i, up))

    def reveal_top(self, i: int) -> None:
        """B6: the top card of a face-up stock is public."""
        stock = self.stocks[i]
        if self.face_up[i] and stock:
            self.known = replace_at(self.known, i, self.known[i] | {(len(stock) - 1, stock[0])})
            self.shown |= 1 << stock[0].code

    def draw(self, i: int) -> None:
        """Text: 'Then, draw a card from that base's associated stock' (or any stock, B7). A
        card drawn from a face-up stock is publicly known to be in that hand (B6)."""
        p = self.to_move
        stock = self.stocks[i]
        card = stock[0]
        self.stocks[i] = stock[1:]
        known = self.known[i]
        public = False
        if known:
            entry = (len(stock) - 1, card)
            public = entry in known
            if public:
                self.known = replace_at(self.known, i, known - {entry})
        self.hands[p] = (*self.hands[p], card)
        self.held |= 1 << (card.code + HELD_STRIDE * p)
        if public:
            self.known_hands = replace_at(self.known_hands, p, self.known_hands[p] | {card})
        self.events.append(_drew(p, i, card, public))
        self.reveal_top(i)

    def check_goal(self, seat: int) -> bool:
        """B5: six cards forming two groups of three win; the winner shows them, so they are
        publicly known to be in his hand from then on."""
        hand = self.hands[seat]
        groups = goal_groups(hand)
        if groups is None:
            return False
        self.known_hands = replace_at(self.known_hands, seat, frozenset(hand))
        self.shown |= mask_of(hand)
        self.win(seat, groups)
        return True

    def win(self, seat: int, groups: tuple[tuple[Card, ...], tuple[Card, ...]] | None) -> None:
        """The game ends: B5, ``seat`` made two groups (``groups``); or B8, it is the last
        player left (``groups`` is None)."""
        self.winner = seat
        self.result = "win"
        self.events.append(Won(seat, groups))

    def restock(self) -> None:
        """B9: for each base keep the topmost card that shows its theme; shuffle every other
        base card with the scrap pile and deal it all round-robin into four face-down stocks.
        The shuffle is the ``restocks``-th of a stream drawn from the game's seed."""
        skip = self.options.restock_skip_jokers
        kept: list[Card] = []
        pool: list[Card] = list(self.scrap)
        for i, pile in enumerate(self.bases):
            keep = next(c for c in pile if shows_theme(c, i, skip_jokers=skip))
            kept.append(keep)
            pool += [c for c in pile if c != keep]
            self.bases[i] = (keep,)
        self.restocks += 1
        rng = make_rng(derive_seed(self.seed, "restock", self.restocks))
        rng.shuffle(pool)
        self.stocks = [tuple(pool[i::4]) for i in range(4)]
        self.face_up = (False,) * 4
        self.known = (frozenset(),) * 4
        self.scrap = ()
        self.known_scrap = frozenset()
        self.events.append(Restocked(tuple(kept), len(pool)))

    def next_turn(self) -> None:
        """Clockwise to the next player still in; B8: a player with no legal play at the start
        of his turn loses. With 2 players the other wins (the loser keeps his hand); with more,
        his hand goes face down to the scrap pile and the last player left wins."""
        n = len(self.hands)
        seat = self.to_move
        while self.winner is None:
            seat = (seat + 1) % n
            if seat in self.out:
                continue
            self.to_move = seat
            # B8 needs the legal plays anyway; the new state keeps them.
            self.legal = legal_of(self.hands[seat], self.stocks)
            if self.legal:
                return
            self.out = (*self.out, seat)
            self.events.append(Lost(seat))
            if n > 2:
                self.scrap_hand(seat)
            left = [s for s in range(n) if s not in self.out]
            if len(left) == 1:
                self.win(left[0], None)

    def scrap_hand(self, seat: int) -> None:
        """B8: 'With more [than 2 players], his hand goes face down to the scrap pile'; what the
        table knew of it stays known there."""
        hand = self.hands[seat]
        self.scrap = self.scrap + hand
        self.known_scrap = self.known_scrap | self.known_hands[seat]
        self.hands[seat] = ()
        self.known_hands = replace_at(self.known_hands, seat, frozenset())
