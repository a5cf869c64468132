"""BEOR multi-player: the rules as a state machine (seed text ``beor-multiplayer.txt``, rulings
B1-B11).

A turn is one action: play a card on a base whose theme it fits and whose stock is not empty,
then draw (B4); a 3 or 8 turns the base's stock over first (B6); a 4 or 7 may draw from any
non-empty stock (B7). A player with no legal play at the start of his turn loses inside the
action that made it his turn (B8), so the seat to move always has a legal action.

States are made one way, by :meth:`BeorState._make`: from a deal (:meth:`BeorState._start`),
after an action (:meth:`BeorState._apply`), and by ``sample`` and ``state_from_json``. The rule
work of one turn is in :mod:`parlour.games.beor.turn`.
"""

from __future__ import annotations

from typing import ClassVar, Self

from parlour.cards import Card, Rank
from parlour.core.game import FORMAT, JSON, Action, Event, Game, Outcome, State
from parlour.core.inputs import quote
from parlour.errors import InvalidNotation
from parlour.games.beor.deal import BeorDeal, deck_for
from parlour.games.beor.events import BeorEvent, TurnLimit, Won
from parlour.games.beor.notation import (
    BASES,
    FITS,
    Move,
    goal_groups,
    parse_action,
)
from parlour.games.beor.options import BeorOptions
from parlour.games.beor.sentences import said
from parlour.games.beor.turn import (
    Known,
    Turn,
    cards_of,
    held_by,
    held_mask,
    legal_of,
    mask_of,
    refusal,
    replace_at,
)
from parlour.games.beor.view import BeorView, StockView

__all__ = ["BeorState"]


class BeorState(State):
    """An immutable BEOR position (see the module docstring)."""

    __slots__ = (
        "_bases",
        "_events",
        "_face_up",
        "_hands",
        "_held",
        "_known",
        "_known_hands",
        "_known_scrap",
        "_legal",
        "_options",
        "_out",
        "_restocks",
        "_result",
        "_scrap",
        "_seed",
        "_shown",
        "_stocks",
        "_to_move",
        "_turn",
        "_winner",
    )

    game: ClassVar[Game]
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
    _winner: int | None
    _result: str | None
    _events: tuple[BeorEvent, ...]
    _legal: tuple[Action, ...] | None

    @classmethod
    def _make(
        cls,
        options: BeorOptions,
        seed: int,
        restocks: int,
        hands: tuple[tuple[Card, ...], ...],
        bases: tuple[tuple[Card, ...], ...],
        stocks: tuple[tuple[Card, ...], ...],
        face_up: tuple[bool, ...],
        known: tuple[Known, ...],
        known_hands: tuple[frozenset[Card], ...],
        scrap: tuple[Card, ...],
        known_scrap: frozenset[Card],
        shown: int,
        held: int,
        out: tuple[int, ...],
        to_move: int,
        turn: int,
        winner: int | None,
        result: str | None,
        events: tuple[BeorEvent, ...] = (),
        legal: tuple[Action, ...] | None = None,
    ) -> Self:
        """The one constructor: every field given. ``restocks`` counts the restocks so far,
        whose shuffles come from ``seed`` (B9); ``known`` holds each stock's publicly known
        cards by offset from its bottom (B6); ``known_hands`` the cards publicly known in each
        hand (B5, B6); ``shown`` every card ever shown to the table and ``held`` every card each
        seat has held, as bit masks (:func:`~.turn.mask_of`, :func:`~.turn.held_mask`);
        ``events`` what made this state; ``legal`` the legal actions, if already known."""
        state = cls.__new__(cls)
        state._options = options
        state._seed = seed
        state._restocks = restocks
        state._hands = hands
        state._bases = bases
        state._stocks = stocks
        state._face_up = face_up
        state._known = known
        state._known_hands = known_hands
        state._scrap = scrap
        state._known_scrap = known_scrap
        state._shown = shown
        state._held = held
        state._out = out
        state._to_move = to_move
        state._turn = turn
        state._winner = winner
        state._result = result
        state._events = events
        state._legal = legal
        return state

    @classmethod
    def _start(cls, deal: BeorDeal, options: BeorOptions, seed: int) -> Self:
        """The start of ``deal``: seat 0 to play (B3), a natural win checked first (B5, option
        ``natural_win``: the first qualifying seat in turn order wins at once)."""
        n = len(deal.hands)
        known_hands: tuple[frozenset[Card], ...] = (frozenset(),) * n
        shown = mask_of(deal.bases)
        winner: int | None = None
        events: tuple[BeorEvent, ...] = ()
        if options.natural_win:
            for seat in range(n):
                groups = goal_groups(deal.hands[seat])
                if groups is not None:
                    # B5: the winner shows his two groups.
                    winner, events = seat, (Won(seat, groups),)
                    known_hands = replace_at(known_hands, seat, frozenset(deal.hands[seat]))
                    shown |= mask_of(deal.hands[seat])
                    break
        return cls._make(
            options=options,
            seed=seed,
            restocks=0,
            hands=deal.hands,
            bases=tuple((c,) for c in deal.bases),
            stocks=deal.stocks,
            face_up=(False,) * 4,
            known=(frozenset(),) * 4,
            known_hands=known_hands,
            scrap=(),
            known_scrap=frozenset(),
            shown=shown,
            held=held_mask(deal.hands),
            out=(),
            to_move=0,
            turn=0,
            winner=winner,
            result=None if winner is None else "win",
            events=events,
        )

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
    def turn(self) -> int:
        """Turns played so far (B10)."""
        return self._turn

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._hands

    @property
    def bases(self) -> tuple[tuple[Card, ...], ...]:
        """The base piles, top card first, in the order black, even, odd, red."""
        return self._bases

    @property
    def options(self) -> BeorOptions:
        return self._options

    @property
    def outcome(self) -> Outcome | None:
        if self._result is None:
            return None
        n = self.players
        winners = () if self._winner is None else (self._winner,)
        ranks = [1 if self._result == "draw" and s not in self._out else 2 for s in range(n)]
        if self._winner is not None:
            ranks = [1 if s == self._winner else 2 for s in range(n)]
        for place, seat in enumerate(reversed(self._out)):
            ranks[seat] = n - len(self._out) + 1 + place
        return Outcome(
            result=self._result,
            winners=winners,
            ranks=tuple(ranks),
            returns=tuple(1.0 if s in winners else 0.0 for s in range(n)),
            scores=tuple(1 if s in winners else 0 for s in range(n)),
            details={"turns": self._turn, "out": list(self._out)},
        )

    @property
    def typed_events(self) -> tuple[BeorEvent, ...]:
        """What the step that made this state did, as typed records (:mod:`.events`)."""
        return self._events

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e.to_event() for e in self._events)

    def _legal_actions(self) -> tuple[Action, ...]:
        # States are immutable, so the legal actions are worked out once per state.
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_of(self._hands[self._to_move], self._stocks)
        return legal

    def _is_legal(self, action: Action) -> bool:
        """B4 and B7 checked directly: the card in hand, fitting a base with stock, and a 4 or
        7 for a draw from another non-empty stock."""
        if not isinstance(action, Move):
            return False
        card, stocks = action.card, self._stocks
        if card not in self._hands[self._to_move] or not stocks[action.base]:
            return False
        if not FITS[card][action.base]:
            return False
        if action.stock is None:
            return True
        return (
            card.rank in (Rank.FOUR, Rank.SEVEN)
            and action.stock != action.base
            and bool(stocks[action.stock])
        )

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    def _refusal(self, text: str) -> str:
        try:
            move = parse_action(text)
        except InvalidNotation as err:
            return err.sentence
        why = refusal(move, self._to_move, self._hands[self._to_move], self._stocks)
        return why or said("refusal.not_legal", text=quote(text.strip()))

    def _apply(self, action: Action) -> Self:
        """A turn: play and draw (B4, B6, B7), the goal (B5), a restock when the draw emptied
        the last stock and did not win (B9), the turn limit (B10), the next seat (B8)."""
        assert isinstance(action, Move)  # State.apply passes only legal actions
        t = Turn(self)
        t.play(action)
        t.draw(action.base if action.stock is None else action.stock)
        t.turn += 1
        if not t.check_goal(self._to_move):
            if not any(t.stocks):
                t.restock()
            if t.turn >= self._options.max_turns:
                t.result = "draw"
                t.events.append(TurnLimit(t.turn))
            else:
                t.next_turn()
        return self._make(
            options=self._options,
            seed=self._seed,
            restocks=t.restocks,
            hands=tuple(t.hands),
            bases=tuple(t.bases),
            stocks=tuple(t.stocks),
            face_up=t.face_up,
            known=t.known,
            known_hands=t.known_hands,
            scrap=t.scrap,
            known_scrap=t.known_scrap,
            shown=t.shown,
            held=t.held,
            out=t.out,
            to_move=t.to_move,
            turn=t.turn,
            winner=t.winner,
            result=t.result,
            events=tuple(t.events),
            legal=None if t.result is not None else t.legal,
        )

    def view(self, seat: int | None) -> BeorView:
        """RULINGS 'Public information' and B6: own hand, bases, each stock's size, face and
        publicly known cards, cards known to be in other hands, sizes, who is out."""
        self._check_seat(seat)
        return BeorView(
            seat=seat,
            players=self.players,
            options=self._options,
            to_move=self.to_move,
            turn=self._turn,
            hand=None if seat is None else tuple(sorted(self._hands[seat])),
            hand_sizes=tuple(len(h) for h in self._hands),
            known_in_hands=tuple(tuple(sorted(k)) for k in self._known_hands),
            bases=self._bases,
            stocks=tuple(
                StockView(len(st), up, tuple(sorted(k, key=lambda kc: kc[0])))
                for st, up, k in zip(self._stocks, self._face_up, self._known, strict=True)
            ),
            scrap_size=len(self._scrap),
            known_scrap=tuple(sorted(self._known_scrap)),
            out=self._out,
            winner=self._winner,
            result=self._result,
        )

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` has never been shown. RULINGS 'Public information' is what a
        player could see or remember: a card once face up (a base, a card played, the top of a
        face-up stock and so a card drawn from one, B6; a winner's two groups, B5) is public for
        good, and a seat remembers every card it has held; where such a card lies after a
        restock shuffle (B9) is hidden, but the card is news to nobody. So hidden are the cards
        dealt into other hands or the stocks, or drawn face down by others, and never shown
        since; a hand scrapped face down (B8) stays hidden from the others."""
        self._check_seat(seat)
        seen = self._shown if seat is None else self._shown | held_by(self._held, seat)
        return frozenset(str(c) for c in deck_for(self.players) if not seen >> c.code & 1)

    def to_json(self) -> dict[str, JSON]:
        """The full position (``BeorGame.state_from_json`` reads it back): everything a view
        shows and every hidden card, piles top card first, plus the seed and the number of
        restocks so far (so later restocks shuffle alike, B9) and the options."""
        return {
            "format": FORMAT,
            "to_move": self.to_move,
            "turn": self._turn,
            "hands": [[str(c) for c in h] for h in self._hands],
            "bases": {n: [str(c) for c in b] for n, b in zip(BASES, self._bases, strict=True)},
            "stocks": {
                n: {"cards": [str(c) for c in st], "face_up": up}
                for n, st, up in zip(BASES, self._stocks, self._face_up, strict=True)
            },
            "scrap": [str(c) for c in self._scrap],
            "out": list(self._out),
            "winner": self._winner,
            "result": self._result,
            "seed": self._seed,
            "restocks": self._restocks,
            "options": self._options.to_json(),
            "known_stocks": {
                n: [
                    {"position": len(st) - 1 - k, "card": str(c)}
                    for k, c in sorted(known, key=lambda kc: kc[0], reverse=True)
                ]
                for n, st, known in zip(BASES, self._stocks, self._known, strict=True)
            },
            "known_in_hands": [[str(c) for c in sorted(k)] for k in self._known_hands],
            "known_scrap": [str(c) for c in sorted(self._known_scrap)],
            "shown": [str(c) for c in cards_of(self._shown, self.players)],
            "held": [
                [str(c) for c in cards_of(held_by(self._held, s), self.players)]
                for s in range(self.players)
            ],
        }
