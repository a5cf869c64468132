"""Crazy Eights as OpenSpiel's ``crazy_eights`` plays it, with its default parameters.

A turn: play a card that matches the suit to follow or the rank of the top card of the discard
pile, or any 8; after an 8 the same player names the suit to follow (a separate action). Instead
of playing a player may draw from the stock, even holding a card he could play, up to
``max_draw_cards`` cards a turn; once he has drawn that many, or when the stock is empty, he may
pass. Drawing the last card of the stock counts as having drawn the most. Play goes to the next
seat (the seat after the dealer starts).

The game ends when a player plays his last card, when ``max_turns`` cards have been played, or
when the stock is empty and ``players + 1`` passes come in a row (everyone passed and the first
to pass passes again). Every hand is then shown and scored (:func:`~.deal.penalty`).

OpenSpiel's returns are minus each seat's penalty points; here they are the outcome's
``scores`` (the points), and ``returns`` follow Parlour's contract: a win share of 1 split among
the seats with the fewest points (the player who went out, or the best hands of a blocked game).
"""

from __future__ import annotations

from typing import ClassVar, Self

from parlour.cards import Card, Rank, Suit
from parlour.core.game import FORMAT, JSON, Action, Event, Game, Outcome, State
from parlour.core.inputs import quote
from parlour.errors import InvalidNotation
from parlour_crazy_eights.deal import Deal, hand_size, penalty_of, sort_hand
from parlour_crazy_eights.events import (
    Blocked,
    C8Event,
    Dealt,
    Drew,
    Nominated,
    Passed,
    Played,
    Showed,
    Started,
    TurnedBack,
    TurnLimit,
    WentOut,
)
from parlour_crazy_eights.notation import (
    CARDS,
    SUIT_NAMES,
    SUITS,
    Draw,
    Nominate,
    Pass,
    Play,
    card_id,
    parse_action,
)
from parlour_crazy_eights.options import Options
from parlour_crazy_eights.sentences import said
from parlour_crazy_eights.view import C8View, cards_json

__all__ = ["C8State", "follows"]

_NOMINATIONS: tuple[Action, ...] = tuple(Nominate(s) for s in SUITS)


def follows(card: Card, top: Card, suit: Suit) -> bool:
    """Whether ``card`` may be played on ``top`` with ``suit`` to follow: an 8 always, else the
    same suit or the same rank."""
    return card.rank is Rank.EIGHT or card.suit is suit or card.rank is top.rank


class C8State(State):
    """An immutable Crazy Eights position (see the module docstring)."""

    __slots__ = (
        "_dealer",
        "_discard",
        "_draws",
        "_events",
        "_hands",
        "_legal",
        "_options",
        "_passes",
        "_phase",
        "_plays",
        "_result",
        "_stock",
        "_suit",
        "_to_move",
        "_turned",
    )

    game: ClassVar[Game]
    _options: Options
    _dealer: int
    _hands: tuple[tuple[Card, ...], ...]
    _stock: tuple[Card, ...]
    _discard: tuple[Card, ...]
    _suit: Suit
    _turned: tuple[Card, ...]
    _to_move: int
    _phase: str
    _draws: int
    _passes: int
    _plays: int
    _result: str | None
    _events: tuple[C8Event, ...]
    _legal: tuple[Action, ...] | None

    @classmethod
    def _make(
        cls,
        options: Options,
        dealer: int,
        hands: tuple[tuple[Card, ...], ...],
        stock: tuple[Card, ...],
        discard: tuple[Card, ...],
        suit: Suit,
        turned: tuple[Card, ...],
        to_move: int,
        phase: str,
        draws: int,
        passes: int,
        plays: int,
        result: str | None,
        events: tuple[C8Event, ...] = (),
    ) -> Self:
        """The one constructor: every field given (hands sorted, the stock top card first,
        the discard pile bottom card first)."""
        state = cls.__new__(cls)
        state._options = options
        state._dealer = dealer
        state._hands = hands
        state._stock = stock
        state._discard = discard
        state._suit = suit
        state._turned = turned
        state._to_move = to_move
        state._phase = phase
        state._draws = draws
        state._passes = passes
        state._plays = plays
        state._result = result
        state._events = events
        state._legal = None
        return state

    @classmethod
    def _start(cls, deal: Deal, options: Options) -> Self:
        """The start of ``deal``: the seat after the dealer to play."""
        n = len(deal.hands)
        first = (deal.dealer + 1) % n
        events: tuple[C8Event, ...] = (
            Dealt(deal.dealer, hand_size(n)),
            *(TurnedBack(c) for c in deal.turned),
            Started(deal.starter, first),
        )
        return cls._make(
            options, deal.dealer, deal.hands, deal.stock, (deal.starter,), deal.starter.suit,  # type: ignore[arg-type]
            deal.turned, first, "play", 0, 0, 0, None, events,
        )  # fmt: skip

    # -- what anyone may ask -------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self._hands)

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self._to_move

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def options(self) -> Options:
        return self._options

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._hands

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first (the next card drawn)."""
        return self._stock

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom card first (the last is the top)."""
        return self._discard

    @property
    def suit(self) -> Suit:
        """The suit to follow: the top card's, or the one named after an 8."""
        return self._suit

    @property
    def turned(self) -> tuple[Card, ...]:
        """The 8s turned up at the deal and put back into the stock, in the order turned."""
        return self._turned

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def plays(self) -> int:
        return self._plays

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's penalty points for the cards in its hand now."""
        return tuple(penalty_of(h) for h in self._hands)

    @property
    def outcome(self) -> Outcome | None:
        if self._result is None:
            return None
        points = self.points
        best = min(points)
        winners = tuple(s for s, p in enumerate(points) if p == best)
        share = 1.0 / len(winners)
        return Outcome(
            result=self._result,
            winners=winners,
            ranks=tuple(1 + sum(q < p for q in points) for p in points),
            returns=tuple(share if s in winners else 0.0 for s in range(self.players)),
            scores=points,
            details={"plays": self._plays, "openspiel_returns": [-float(p) for p in points]},
        )

    @property
    def typed_events(self) -> tuple[C8Event, ...]:
        return self._events

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e.to_event() for e in self._events)

    # -- legality ------------------------------------------------------------------------------

    def _legal_actions(self) -> tuple[Action, ...]:
        """In id order, as OpenSpiel lists them: the cards that follow, then draw, then pass
        (ids 52 and 53); after an 8, the four suits."""
        legal = self._legal
        if legal is None:
            if self._phase == "nominate":
                legal = _NOMINATIONS
            else:
                top, suit = self._discard[-1], self._suit
                hand = self._hands[self._to_move]
                plays = [Play(c) for c in hand if follows(c, top, suit)]
                legal = (*plays, *((Draw(),) if self._may_draw() else ()))
                legal += (Pass(),) if self._may_pass() else ()
            self._legal = legal
        return legal

    def _may_draw(self) -> bool:
        return bool(self._stock) and self._draws < self._options.max_draw_cards

    def _may_pass(self) -> bool:
        return not self._stock or self._draws >= self._options.max_draw_cards

    def _is_legal(self, action: Action) -> bool:
        if self._phase == "nominate":
            return isinstance(action, Nominate)
        if isinstance(action, Play):
            hand = self._hands[self._to_move]
            return action.card in hand and follows(action.card, self._discard[-1], self._suit)
        if isinstance(action, Draw):
            return self._may_draw()
        if isinstance(action, Pass):
            return self._may_pass()
        return False

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    def _refusal(self, text: str) -> str:
        """Why ``text`` is refused, naming the rule: a sentence of the game's catalog
        (``refusal.*``), said in the language spoken by the front ends."""
        try:
            action = parse_action(text)
        except InvalidNotation as err:
            return err.sentence
        if self._phase == "nominate":
            return said("refusal.name_suit_first", text=quote(text))
        if isinstance(action, Nominate):
            return said("refusal.suit_after_eight", text=quote(text))
        limit = self._options.max_draw_cards
        if isinstance(action, Draw):
            if not self._stock:
                return said("refusal.draw.empty")
            return said("refusal.draw.limit", limit)
        if isinstance(action, Pass):
            return said("refusal.pass", limit)
        assert isinstance(action, Play)
        card = action.card
        if card not in self._hands[self._to_move]:
            return said("refusal.not_in_hand", card=card.pretty())
        top = self._discard[-1]
        key = f"refusal.not_following.{SUIT_NAMES[self._suit]}"  # the suit to follow, in words
        return said(key, card=card.pretty(), top=top.pretty(), rank=top.rank.letter)

    # -- a step --------------------------------------------------------------------------------

    def _apply(self, action: Action) -> Self:
        seat, n, opts = self._to_move, self.players, self._options
        hands, stock, discard = self._hands, self._stock, self._discard
        suit, phase, draws, passes, plays = (
            self._suit,
            "play",
            self._draws,
            self._passes,
            self._plays,
        )
        to_move, result = seat, None
        events: list[C8Event] = []
        if isinstance(action, Nominate):
            suit, passes, to_move = action.suit, 0, (seat + 1) % n
            events.append(Nominated(seat, suit))
        elif isinstance(action, Draw):
            card, stock = stock[0], stock[1:]
            hands = _replace(hands, seat, sort_hand((*hands[seat], card)))
            draws, passes = (draws + 1 if stock else opts.max_draw_cards), 0
            events.append(Drew(seat, card))
        elif isinstance(action, Pass):
            passes = passes + 1 if not stock else 0
            draws, to_move = 0, (seat + 1) % n
            events.append(Passed(seat))
            if passes == n + 1:
                result = "blocked"
                events.append(Blocked())
        else:
            assert isinstance(action, Play)
            card = action.card
            hands = _replace(hands, seat, tuple(c for c in hands[seat] if c is not card))
            discard, suit = (*discard, card), card.suit  # type: ignore[assignment]
            draws, passes, plays = 0, 0, plays + 1
            events.append(Played(seat, card))
            if not hands[seat]:
                result = "win"
                events.append(WentOut(seat))
            elif plays >= opts.max_turns:
                result = "limit"
                events.append(TurnLimit(plays))
            elif card.rank is Rank.EIGHT:
                phase = "nominate"
            else:
                to_move = (seat + 1) % n
        if result is not None:
            events += [Showed(s, h, penalty_of(h)) for s, h in enumerate(hands)]
        return self._make(
            opts, self._dealer, hands, stock, discard, suit, self._turned, to_move, phase,
            draws, passes, plays, result, tuple(events),
        )  # fmt: skip

    # -- what a seat may know ------------------------------------------------------------------

    def view(self, seat: int | None) -> C8View:
        self._check_seat(seat)
        over = self._result is not None
        return C8View(
            seat=seat,
            players=self.players,
            options=self._options,
            dealer=self._dealer,
            to_move=self.to_move,
            phase=self._phase,
            hand=None if seat is None else self._hands[seat],
            hand_sizes=tuple(len(h) for h in self._hands),
            stock_size=len(self._stock),
            discard=self._discard,
            suit=self._suit,
            turned=self._turned,
            draws=self._draws,
            passes=self._passes,
            plays=self._plays,
            result=self._result,
            hands=self._hands if over else None,
        )

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` has not seen: the stock's cards and the other hands' (every hand
        is shown at the end), less the cards ever face up: the discard pile and the 8s turned
        up at the deal (a card once seen is news to nobody, wherever it went)."""
        self._check_seat(seat)
        seen = {*self._discard, *self._turned}
        if self._result is not None:
            seen.update(c for h in self._hands for c in h)
        elif seat is not None:
            seen.update(self._hands[seat])
        return frozenset(str(c) for c in CARDS if c not in seen)

    def to_json(self) -> dict[str, JSON]:
        """The full position (``state_from_json`` reads it back)."""
        return {
            "format": FORMAT,
            "options": self._options.to_json(),
            "dealer": self._dealer,
            "to_move": self.to_move,
            "phase": self._phase,
            "hands": [cards_json(h) for h in self._hands],
            "stock": cards_json(self._stock),
            "discard": cards_json(self._discard),
            "suit": SUIT_NAMES[self._suit],
            "turned": cards_json(self._turned),
            "draws": self._draws,
            "passes": self._passes,
            "plays": self._plays,
            "result": self._result,
        }


def _replace(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


assert [card_id(c) for c in CARDS] == list(range(52))
