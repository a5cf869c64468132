"""Becker's Game of Death: the rules as a state machine (seed text
``beckers-game-of-death.txt``, rulings G1-G14).

The holder of 2♦ throws it first (G1). Each player throws a card of the top card's suit or rank,
or passes and drinks 1 when he has none (G2). A throw's effects come in the order of G6:
breaking suit (G4), going down (G3), the face card's give or take (G5), the social (G7), the Ace
sweep (G8), the end check (G10). A black face card's drinks are given by its thrower in ``give``
actions before play goes on (G5). The game ends when an Ace's thrower has no card to lead (G8)
or when the turn would come back to the first player who threw his last card (G10); then each
player drinks the give value of the black face cards he still holds (G11). The table's
penalties (G13) are table entries, not player actions (:meth:`DeathState._table_entry`).
Options: :mod:`parlour.games.death.options`.
"""

from __future__ import annotations

from typing import ClassVar, Self

from parlour.cards import Card, Rank
from parlour.core.game import JSON, Action, Event, Game, Outcome, State
from parlour.core.inputs import quote
from parlour.errors import GameOver, IllegalAction
from parlour.games.death.events import (
    DeathEvent,
    Drank,
    Ended,
    EndWhy,
    Gave,
    LastCard,
    OwesGive,
    Passed,
    Social,
    SweepWhy,
    Swept,
    Threw,
    Why,
)
from parlour.games.death.notation import (
    FACE,
    Give,
    TablePenalty,
    Throw,
    is_black_face,
    parse_action,
    parse_table_entry,
)
from parlour.games.death.options import DeathOptions
from parlour.games.death.position import Position
from parlour.games.death.refusals import refuse_action, refuse_penalty, refuse_show
from parlour.games.death.sentences import said
from parlour.games.death.view import DeathView

__all__ = ["DeathState"]


class _Turn:
    """One step worked through on copies; one method per rule. Never escapes
    :class:`DeathState`, so states stay immutable."""

    def __init__(self, s: Position) -> None:
        self.options = s.options
        self.hands = list(s.hands)
        self.pile = s.pile
        self.pile_seats = s.pile_seats
        self.swept = s.swept
        self.taken = list(s.taken)
        self.given = list(s.given)
        self.pending = s.pending
        assert s.to_move is not None
        self.to_move: int = s.to_move
        self.last_thrower = s.last_thrower
        self.passed = s.passed
        self.first_out = s.first_out
        self.void_suits = list(s.void_suits)
        self.void_ranks = list(s.void_ranks)
        self.known = list(s.known)
        self.over = False
        self.log: list[DeathEvent] = []

    def position(self) -> Position:
        """The position the step leads to."""
        # In Position's field order: keywords would cost a microsecond on every step.
        return Position(
            self.options,
            tuple(self.hands),
            self.pile,
            self.pile_seats,
            self.swept,
            tuple(self.taken),
            tuple(self.given),
            self.pending,
            None if self.over else self.to_move,
            self.last_thrower,
            self.passed,
            self.first_out,
            tuple(self.void_suits),
            tuple(self.void_ranks),
            tuple(self.known),
            self.over,
        )

    def drink(
        self, seat: int, drinks: int, why: Why, card: Card | None = None, other: Card | None = None
    ) -> None:
        """``seat`` drinks; ``why`` names the rule."""
        self.taken[seat] += drinks
        self.log.append(Drank(seat, drinks, why, card, other))

    def throw(self, card: Card) -> None:
        """G2 and G6: the card goes on the pile, then its effects in order."""
        p = self.to_move
        hand = self.hands[p]
        k = hand.index(card)
        self.hands[p] = hand[:k] + hand[k + 1 :]
        if card in self.known[p]:
            self.known[p] = self.known[p] - {card}
        covered = self.pile[-1] if self.pile else None
        covered_by = self.pile_seats[-1] if self.pile_seats else None
        self.pile = (*self.pile, card)
        self.pile_seats = (*self.pile_seats, p)
        self.last_thrower = p
        self.passed = frozenset()
        self.log.append(Threw(p, card))
        if not self.hands[p] and self.first_out is None:
            # G10: the first player to throw his last card; the game ends when the turn would
            # come back to him.
            self.first_out = p
            self.log.append(LastCard(p))
        if covered is not None and covered_by is not None:
            self.break_suit(card, covered, covered_by)
            self.go_down(card, covered)
        self.face(card)
        self.social()
        if self.pending is None:
            self.after_throw(p, card.rank == Rank.ACE)

    def break_suit(self, card: Card, covered: Card, covered_by: int) -> None:
        """G4: a same-rank card of another suit makes the thrower of the covered card drink
        1, even if he has since passed or run out of cards."""
        if card.rank == covered.rank and card.suit != covered.suit:
            self.drink(covered_by, 1, Why.BROKEN)

    def go_down(self, card: Card, covered: Card) -> None:
        """G3: same suit, both cards 2-10, the new card lower: the thrower drinks the
        difference (option ``difference_against_faces``: J, Q, K count 11-13 as the covered
        card)."""
        if card.suit != covered.suit or not 2 <= card.rank <= 10:
            return
        top = int(covered.rank)
        if not 2 <= top <= 10 and not (
            self.options.difference_against_faces and Rank.JACK <= covered.rank <= Rank.KING
        ):
            return
        if card.rank < top:
            self.drink(self.to_move, top - int(card.rank), Why.DOWN, card, covered)

    def face(self, card: Card) -> None:
        """G5: black face cards give, red face cards take, on every throw, leads included."""
        value = FACE.get(card)
        if value is None:
            return
        p = self.to_move
        if is_black_face(card):
            self.pending = (p, value)
            self.log.append(OwesGive(p, value, card))
        else:
            self.drink(p, value, Why.TAKE, card)

    def social(self) -> None:
        """G7: the last four cards since the last sweep are the four of one rank: every
        player drinks 1. No sweep."""
        if len(self.pile) >= 4 and len({c.rank for c in self.pile[-4:]}) == 1:
            self.log.append(Social(self.pile[-1]))
            for seat in range(len(self.hands)):
                self.taken[seat] += 1

    def give(self, drinks: int, target: int) -> None:
        """G5: the thrower splits the drinks as he likes among the other players; play goes
        on once all are given (after a black Ace, G8 then sweeps: the Ace is still on top)."""
        assert self.pending is not None
        p, left = self.pending
        self.given[p] += drinks
        self.taken[target] += drinks
        self.log.append(Gave(p, target, drinks))
        self.pending = None if drinks == left else (p, left - drinks)
        if self.pending is None:
            self.after_throw(p, self.pile[-1].rank == Rank.ACE)

    def after_throw(self, p: int, ace: bool) -> None:
        """G8: after an Ace the pile is swept and its thrower leads; with no card the game
        ends. Otherwise the turn passes on."""
        if ace:
            self.sweep(p, SweepWhy.ACE)
            if not self.hands[p]:
                self.end(EndWhy.ACE, p)
            return
        self.advance(p)

    def sweep(self, leader: int, why: SweepWhy) -> None:
        """G8, G9: the pile is swept off and ``leader`` leads any card."""
        self.swept = self.swept + self.pile
        self.pile = ()
        self.pile_seats = ()
        self.passed = frozenset()
        self.to_move = leader
        self.log.append(Swept(leader, why))

    def pass_turn(self) -> None:
        """G2: with no legal card he passes and drinks 1. What he lacks is public: no card of
        the top card's suit or rank."""
        p = self.to_move
        top = self.pile[-1]
        assert top.suit is not None
        self.void_suits[p] = self.void_suits[p] | {top.suit}
        self.void_ranks[p] = self.void_ranks[p] | {int(top.rank)}
        self.passed = self.passed | {p}
        self.log.append(Passed(p))
        self.drink(p, 1, Why.PASS)
        self.advance(p)

    def advance(self, p: int) -> None:
        """The turn goes clockwise. G10: when it would come back to the first player out the
        game ends; players with no cards are skipped. G9: when it comes back to the last
        thrower, everyone else holding cards has passed: sweep, and he leads."""
        n = len(self.hands)
        seat = p
        for _ in range(n):
            seat = (seat + 1) % n
            if seat == self.first_out:
                self.end(EndWhy.FIRST_OUT, seat)
                return
            if not self.hands[seat]:
                continue
            if seat == self.last_thrower:
                self.sweep(seat, SweepWhy.ALL_PASS)
                return
            self.to_move = seat
            return
        raise AssertionError("no player to move")

    def end(self, why: EndWhy, seat: int) -> None:
        """G10/G8 end; G11: each player drinks the give value of his black face cards (the
        hands are shown for it)."""
        self.over = True
        self.log.append(Ended(why, seat))
        for holder, hand in enumerate(self.hands):
            for card in sorted(hand):
                if is_black_face(card):
                    self.drink(holder, FACE[card], Why.HAND, card)

    def penalty(self, seat: int, why: Why) -> None:
        """G13: a D'oh! or a delay of game: one drink."""
        self.drink(seat, 1, why)

    def show(self, card: Card) -> None:
        """G13: the player to move threw ``card``, which does not follow: 2 drinks, the card
        goes back, and it is known to be in his hand until he throws it."""
        p = self.to_move
        self.drink(p, 2, Why.ILLEGAL, card)
        self.known[p] = self.known[p] | {card}


class DeathState(State):
    """An immutable Game of Death state: a :class:`Position` and what the step that made it
    did. Made only by :meth:`_make`, for :meth:`DeathGame.new`, the steps, ``sample`` and
    ``state_from_json``."""

    __slots__ = ("_legal", "_log", "_pos")

    game: ClassVar[Game]
    _legal: tuple[Action, ...]
    _log: tuple[DeathEvent, ...]
    _pos: Position

    def __init__(self) -> None:
        raise TypeError("a DeathState is made by DeathGame.new, sample or state_from_json")

    @classmethod
    def _make(cls, position: Position, log: tuple[DeathEvent, ...] = ()) -> Self:
        """The one constructor: ``position``, reached by a step that did ``log``."""
        s = cls.__new__(cls)
        s._pos = position
        s._log = log
        return s

    @property
    def players(self) -> int:
        return len(self._pos.hands)

    @property
    def to_move(self) -> int | None:
        return self._pos.to_move

    @property
    def is_over(self) -> bool:
        return self._pos.over

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._pos.hands

    @property
    def drinks_taken(self) -> tuple[int, ...]:
        return self._pos.taken

    @property
    def drinks_given(self) -> tuple[int, ...]:
        return self._pos.given

    @property
    def options(self) -> DeathOptions:
        return self._pos.options

    @property
    def outcome(self) -> Outcome | None:
        """G12: drinks taken and given; the winners took the fewest (ties share)."""
        return self._pos.outcome()

    @property
    def events(self) -> tuple[Event, ...]:
        options = self._pos.options
        return tuple(e.event(options) for e in self._log)

    def _legal_actions(self) -> tuple[Action, ...]:
        # States are immutable, so the legal actions are worked out once per state.
        try:
            return self._legal
        except AttributeError:
            self._legal = self._pos.legal_actions()
            return self._legal

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    def _refusal(self, text: str) -> str:
        return refuse_action(parse_action(text), self._pos)

    def _apply(self, action: Action) -> Self:
        t = _Turn(self._pos)
        if isinstance(action, Throw):
            t.throw(action.card)
        elif isinstance(action, Give):
            t.give(action.drinks, action.seat)
        else:
            t.pass_turn()
        return self._make(t.position(), tuple(t.log))

    def _table_entry(self, text: str, by: int | None, votes: frozenset[int]) -> tuple[str, Self]:
        """G13, table entries: ``doh Pk`` or ``delay Pk``, one drink for Player k, and
        ``illegal CARD``, 2 drinks for the player to move, whose card goes back and is known
        to be in his hand until thrown. A penalty on oneself needs no vote; on another player
        it needs a majority of the other players (``by`` voting for it); a referee (``by``
        None) enters what the table decided. An illegal throw is entered by the player to
        move or a referee, with option ``illegal_throw_penalty`` on.

        Penalties may come at any time during play, a give in progress included (the text: "a
        player who is obviously delaying drinking a previous drink"); an illegal throw not
        while drinks are still to give (G5: nobody throws before they are given). Once the
        game is over the result is settled (G12): entries are refused.

        Raises:
            InvalidNotation: the text is not a table entry.
            GameOver: the game is over.
            IllegalAction: the rules refuse the entry here, naming G13 (or G5).
        """
        entry = parse_table_entry(text)
        pos = self._pos
        if pos.over or pos.to_move is None:
            raise GameOver(said("refusal.over.entry", text=quote(text)))
        if isinstance(entry, TablePenalty):
            refusal = refuse_penalty(entry, by=by, votes=votes, players=self.players)
        else:
            refusal = refuse_show(entry, by, pos, self._legal_actions())
        if refusal is not None:
            raise IllegalAction(refusal)
        t = _Turn(pos)
        if isinstance(entry, TablePenalty):
            t.penalty(entry.seat, Why.DOH if entry.reason == "doh" else Why.DELAY)
        else:
            t.show(entry.card)
        return str(entry), self._make(t.position(), tuple(t.log))

    def view(self, seat: int | None) -> DeathView:
        self._check_seat(seat)
        return self._pos.view(seat)

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every card in another seat's hand, but those the rules made public: 2♦ before it
        is thrown (G1), a card shown in an illegal throw (G13), and at the end every hand
        (G11)."""
        self._check_seat(seat)
        return self._pos.hidden_from(seat)

    def to_json(self) -> dict[str, JSON]:
        return self._pos.to_json()
