"""Beggar-My-Neighbour: the rules as a state machine (seed texts ``beggar-my-neighbour.*.txt``,
rulings M1-M12).

There are no decisions: the only action is ``play`` (turn your top card). A player who must play
and holds no card goes out at once inside the action that made it his turn (M3), so the seat to
move always has a card and every action puts exactly one card on the pile (M8 counts those).
:mod:`.turn` works one action through, one method per ruling; :class:`BeggarState` is the
immutable position it goes from and to. The options (M4's ``unpaid_penalty``, M11's
``card_limit``, M12's ``time_limit``) are in :mod:`.options`, the loop history of M10 in
:mod:`.history`. The one table entry, ``time``, is the table's stop when the agreed time runs
out (M12, :meth:`BeggarState._table_entry`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from parlour.cards import Card
from parlour.core.game import FORMAT, JSON, Action, Event, Game, Outcome, State
from parlour.core.inputs import quote
from parlour.errors import InvalidNotation
from parlour.games.beggar.events import BeggarEvent, TurnedCard
from parlour.games.beggar.history import Cycle, History, Position, position_key
from parlour.games.beggar.notation import Deal, Token, format_deal_ranks, format_token
from parlour.games.beggar.options import BeggarOptions
from parlour.games.beggar.outcome import outcome_of
from parlour.games.beggar.sentences import said
from parlour.games.beggar.turn import Turn, refuse_time
from parlour.games.beggar.view import BeggarView

__all__ = ["PLAY", "BeggarState", "Play"]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Turn your top card face up onto the pile: the one action of the game (id 0)."""

    def __str__(self) -> str:
        return "play"


PLAY = Play()


class BeggarState(State):
    """An immutable Beggar-My-Neighbour position (see the module docstring).

    Made only by :meth:`_make`: ``BeggarGame().new`` and ``sample`` start a line of play with
    it (through :meth:`_start`), ``state_from_json`` rebuilds one, :meth:`_apply` goes on."""

    __slots__ = (
        "_cards",
        "_court",
        "_cycle",
        "_deal",
        "_full",
        "_hands",
        "_history",
        "_known",
        "_log",
        "_options",
        "_out",
        "_owed",
        "_pile",
        "_to_move",
        "_tricks",
        "_turned",
        "_unseen",
        "_winners",
    )

    game: ClassVar[Game]
    _deal: Deal
    _options: BeggarOptions
    _hands: tuple[tuple[Token, ...], ...]
    _pile: tuple[Token, ...]
    _to_move: int
    _owed: int
    _court: int | None
    _out: tuple[int, ...]
    _cards: int
    _tricks: int
    _unseen: tuple[int, ...]
    _history: History
    _known: int
    _turned: tuple[int, Token] | None
    _log: tuple[BeggarEvent, ...]
    _winners: tuple[int, ...] | None
    _cycle: Cycle | None
    _full: bool

    def __init__(self) -> None:
        raise TypeError("a BeggarState comes from BeggarGame().new, sample or state_from_json")

    @classmethod
    def _make(
        cls,
        deal: Deal,
        options: BeggarOptions,
        full: bool,
        hands: tuple[tuple[Token, ...], ...],
        pile: tuple[Token, ...],
        to_move: int,
        owed: int,
        court: int | None,
        out: tuple[int, ...],
        cards: int,
        tricks: int,
        unseen: tuple[int, ...],
        history: History,
        known: int,
        turned: tuple[int, Token] | None,
        log: tuple[BeggarEvent, ...],
        winners: tuple[int, ...] | None,
        cycle: Cycle | None,
    ) -> Self:
        """The one constructor: every state is made here and nothing else writes its fields.

        ``full``: whether the cards are full cards (else classes, M9); ``unseen``: how many
        cards at the top of each hand nobody has seen; ``history`` and ``known``: the line of
        M10 and how many of its positions are this state's past; ``turned`` (seat, card) and
        ``log``: what the action that made the state did, the card it turned (M8) and the
        events that card settled. :meth:`_apply` passes them in this order (the hot path)."""
        state = cls.__new__(cls)
        state._deal = deal
        state._options = options
        state._full = full
        state._hands = hands
        state._pile = pile
        state._to_move = to_move
        state._owed = owed
        state._court = court
        state._out = out
        state._cards = cards
        state._tricks = tricks
        state._unseen = unseen
        state._history = history
        state._known = known
        state._turned = turned
        state._log = log
        state._winners = winners
        state._cycle = cycle
        return state

    @classmethod
    def _start(
        cls,
        deal: Deal,
        options: BeggarOptions,
        hands: tuple[tuple[Token, ...], ...],
        *,
        pile: tuple[Token, ...] = (),
        to_move: int = 0,
        owed: int = 0,
        court: int | None = None,
        out: tuple[int, ...] = (),
        cards: int = 0,
        tricks: int = 0,
        winners: tuple[int, ...] | None = None,
        cycle: Cycle | None = None,
    ) -> Self:
        """A state that starts a line of play (a new game, M7; a sample): nobody has seen a
        card of any hand, and its loop history (M10) holds this position if it is a trick
        boundary of a game in progress."""
        boundary = winners is None and owed == 0 and not pile
        first = [Position(position_key(hands, to_move), cards, tricks)] if boundary else []
        full = any(isinstance(t[0], Card) for t in (*hands, pile) if t)
        return cls._make(
            deal=deal,
            options=options,
            full=full,
            hands=hands,
            pile=pile,
            to_move=to_move,
            owed=owed,
            court=court,
            out=out,
            cards=cards,
            tricks=tricks,
            unseen=tuple(len(h) for h in hands),
            history=History(first),
            known=len(first),
            turned=None,
            log=(),
            winners=winners,
            cycle=cycle,
        )

    # -- the contract ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self._hands)

    @property
    def to_move(self) -> int | None:
        return None if self._winners is not None else self._to_move

    @property
    def outcome(self) -> Outcome | None:
        if self._winners is None:
            return None
        held = tuple(len(h) for h in self._hands)
        end = (self._cycle, self._cards, self._tricks, self._options.card_limit)
        return outcome_of(held, self._out, self._winners, *end)

    @property
    def is_over(self) -> bool:
        return self._winners is not None

    @property
    def options(self) -> BeggarOptions:
        return self._options

    @property
    def deal(self) -> Deal:
        """The deal this game started from (for a sampled state: the hands it was given)."""
        return self._deal

    @property
    def hands(self) -> tuple[tuple[Token, ...], ...]:
        """Every hand, top card first (hidden information: views never show it)."""
        return self._hands

    @property
    def pile(self) -> tuple[Token, ...]:
        """The face-up pile in the order played (its last card is on top)."""
        return self._pile

    @property
    def owed(self) -> int:
        """Cards still to pay for the last court card (0 when no payment is in progress)."""
        return self._owed

    @property
    def court_player(self) -> int | None:
        """Who turned the last court card of a payment in progress (M1, M2)."""
        return self._court

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that are out, in the order they went out (M3, M5)."""
        return self._out

    @property
    def cards(self) -> int:
        """Cards placed on the pile so far (M8)."""
        return self._cards

    @property
    def tricks(self) -> int:
        """Piles taken so far, the final one included (M8)."""
        return self._tricks

    @property
    def cycle(self) -> Cycle | None:
        """The repeat that ended a never-ending game (M10), else ``None``."""
        return self._cycle

    @property
    def positions(self) -> tuple[Position, ...]:
        """M10: the trick-boundary positions of this game line so far, oldest first."""
        return self._history.past(self._known)

    @property
    def typed_events(self) -> tuple[BeggarEvent, ...]:
        """What the last action did, as typed records (:mod:`.events`): the card it turned,
        then what that settled. A state that no action made has none."""
        if self._turned is None:
            return self._log
        return (TurnedCard(*self._turned), *self._log)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e.event() for e in self.typed_events)

    def _legal_actions(self) -> tuple[Action, ...]:
        return (PLAY,)

    def _is_legal(self, action: Action) -> bool:
        return isinstance(action, Play)

    def _parse(self, text: str) -> Action:
        """``play`` is the whole notation; anything else raises InvalidNotation."""
        if text.strip().lower() == "play":
            return PLAY
        raise InvalidNotation(self._refusal(text.strip()))

    def _refusal(self, text: str) -> str:
        return said("refusal.only_play", text=quote(text))

    def _apply(self, action: Action) -> Self:
        turn = self._turn()
        turn.play(self._options)
        return self._after(turn)

    def _turn(self) -> Turn:
        """The position as a :class:`Turn` to work a step through."""
        return Turn(
            self._hands,
            self._pile,
            self._to_move,
            self._owed,
            self._court,
            self._out,
            self._cards,
            self._tricks,
            self._unseen,
            self._history,
            self._known,
        )

    def _after(self, turn: Turn) -> Self:
        """The state that ``turn`` worked through to."""
        return self._make(self._deal, self._options, self._full, *turn.fields())

    def _table_entry(self, text: str, by: int | None, votes: frozenset[int]) -> tuple[str, Self]:
        """M12, the one table entry: ``time``, entered by the table when the agreed time ran
        out (:meth:`.turn.Turn.time_up`); refused as :func:`.turn.refuse_time` says."""
        refuse_time(text, self._options, self.is_over)
        turn = self._turn()
        turn.time_up()
        return "time", self._after(turn)

    def summary(self) -> dict[str, JSON]:
        """The result line of ``parlour beggar play --json`` (the game must be over)."""
        outcome = self.outcome
        if outcome is None:
            raise ValueError("the game is not over")
        return {
            "deal": format_deal_ranks(self._deal),
            "result": outcome.result,
            "winners": list(outcome.winners),
            "cards": self._cards,
            "tricks": self._tricks,
            "cycle": None if self._cycle is None else self._cycle.to_json(),
        }

    def view(self, seat: int | None) -> BeggarView:
        """What anyone at the table sees (:mod:`.view`): hand sizes and the face-up pile, no
        card of any hand (the hands are face down, even to their owners)."""
        self._check_seat(seat)
        return BeggarView(
            seat=seat,
            players=self.players,
            options=self._options,
            full_cards=self._full,
            hand_sizes=tuple(len(h) for h in self._hands),
            pile=self._pile,
            to_move=self.to_move,
            owed=self._owed,
            court_player=self._court,
            out=self._out,
            cards=self._cards,
            tricks=self._tricks,
            winners=self._winners,
            cycle=self._cycle,
        )

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards nobody has seen, the same for every seat: the top ``unseen`` cards of
        each hand, still face down from the deal. The hands are face down even to their
        owners, but every other card in them was turned face up on the pile before it was
        captured, in sight of the whole table (M2), so the rules keep it hidden no longer."""
        return frozenset(
            format_token(t)
            for hand, unseen in zip(self._hands, self._unseen, strict=True)
            for t in hand[:unseen]
        )

    def to_json(self) -> dict[str, JSON]:
        """The position (piles top card first, RULINGS 'Common'), with what playing on needs:
        the options, the deal, how many cards of each hand nobody has seen, the end, and the
        positions of this line (M10); ``BeggarGame().state_from_json`` rebuilds it."""
        return {
            "format": FORMAT,
            "to_move": self.to_move,
            "hands": [[format_token(t) for t in hand] for hand in self._hands],
            "pile": [format_token(t) for t in reversed(self._pile)],
            "owed": self._owed,
            "court_player": self._court,
            "out": list(self._out),
            "cards": self._cards,
            "tricks": self._tricks,
            "over": self.is_over,
            "options": self._options.to_json(),
            "deal": [[format_token(t) for t in hand] for hand in self._deal],
            "unseen": list(self._unseen),
            "winners": None if self._winners is None else list(self._winners),
            "cycle": None if self._cycle is None else self._cycle.to_json(),
            "history": [p.to_json() for p in self.positions],
        }
