"""The values of the contract: actions, outcomes, views and the immutable :class:`State`
(ARCHITECTURE.md, "The contract"); :mod:`parlour.core.game` adds the :class:`Game`.

The base :class:`State` handles the edge cases (game over, not your turn, text matched against
the legal actions, the per-seat log, table entries' checks); a game implements only the
in-progress case.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Self

from parlour.core.inputs import check_int, quote
from parlour.core.log import JSON, Event, LogEntry, Step
from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption, NotYourTurn

if TYPE_CHECKING:
    from parlour.core.game import Game

__all__ = ["FORMAT", "Action", "Outcome", "State", "View", "seat_name"]

FORMAT = 1
"""The ``"format"`` of every JSON document Parlour writes (records, states, views)."""


MAX_ACTION_TEXT = 200
"""The longest text read as an action or a table entry (the longest notation is a few dozen
characters); longer text is refused before any game reads it, so no message quotes it whole."""


def seat_name(seat: int) -> str:
    """How messages to people name a seat: seat 0 is "Player 1"."""
    return f"Player {seat + 1}"


class Action:
    """Base of every game's actions: frozen, hashable, and ``str()`` is the canonical notation."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``result`` names how it ended (``win``, ``loop``, ``limit``, ``draw`` ...), ``winners`` the
    seats that won (shared wins list several, a game with no winner none), ``ranks`` the place of
    each seat (1 is best, equal places share a number), ``returns`` each seat's payoff for
    learning and search (a win share of 1 split among the winners, 0 otherwise), ``scores`` a
    per-seat figure of the game (cards held, drinks taken), ``details`` game-specific figures.
    """

    result: str
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[int, ...]
    details: Mapping[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        clash = sorted(set(self.details) & {"result", "winners", "ranks", "returns", "scores"})
        if clash:
            raise ValueError(f"an outcome's details may not be named {quote(clash[0])}")

    def to_json(self) -> dict[str, JSON]:
        return {
            "result": self.result,
            "winners": list(self.winners),
            "ranks": list(self.ranks),
            "returns": list(self.returns),
            "scores": list(self.scores),
            **self.details,
        }


class View(ABC):
    """What one seat (or a spectator, ``seat is None``) may know. Equal views compare equal.

    A view holds plain values only, never a reference to the state it came from, so nothing
    hidden from its seat is reachable from it."""

    seat: int | None

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The view as JSON with ``"format"``; it holds nothing hidden from its seat, and
        :meth:`Game.view_from_json` rebuilds an equal view from it."""


class State(ABC):
    """An immutable game position. Subclasses implement the ``_`` hooks for play in progress.

    Every state made by :meth:`apply` or :meth:`apply_table` remembers the state it came from
    and the step that made it, so :meth:`log` can tell each seat the game so far; a state made
    by :meth:`Game.new`, :meth:`Game.sample` or :meth:`Game.state_from_json` starts a log."""

    __slots__ = ("_entries", "_parent", "_step")

    game: ClassVar[Game]
    _parent: State
    # How this state was made: (kind, seat, action or entry text, log index), a plain tuple
    # because it is made on every step of every search; :attr:`step` makes the Step from it.
    _step: tuple[str, int | None, object, int]
    _entries: dict[int | None, LogEntry]

    @property
    @abstractmethod
    def players(self) -> int:
        """The number of seats."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose decision it is, ``None`` once the game is over."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    @abstractmethod
    def events(self) -> tuple[Event, ...]:
        """What the step that made this state did (for a new game: what the deal did), each
        private event carrying its public telling (:class:`~parlour.core.log.Event`)."""

    @abstractmethod
    def _legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to move; called only while the game is on."""

    @abstractmethod
    def _apply(self, action: Action) -> Self:
        """The state after a legal ``action``; called only with one of :meth:`legal_actions`."""

    def _is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one of the legal actions; games may answer faster."""
        return action in self._legal_actions()

    @abstractmethod
    def _refusal(self, text: str) -> str:
        """Why ``text`` is not a legal action here, naming the rule (for :class:`IllegalAction`);
        a :class:`~parlour.errors.Sentence` of the game's catalog gives the error its key."""

    def _check_seat(self, seat: int | None) -> None:
        """Views are for seats 0..n-1 or a spectator (``None``); InvalidOption otherwise."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players
        ):
            raise InvalidOption(f"seat must be 0 to {self.players - 1}, got {quote(seat)}")

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; ``None`` gives the spectator's view."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The full position with ``"format"``, hidden cards included, and everything needed to
        go on exactly as this state would (:meth:`Game.state_from_json` rebuilds it). The log
        is history, not position: records carry it."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The canonical notation of every card the rules keep hidden from ``seat`` now
        (``None``: a spectator), and nothing the rules have made public.

        Leak tests check that none of them appears in the seat's view, log or JSON, and
        servers may use it to check what they send."""

    # -- actions ----------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, in a fixed order; empty once the game is over."""
        return () if self.is_over else self._legal_actions()

    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions' integer ids (:meth:`Game.action_id`), sorted."""
        code = self.game.action_id
        return tuple(sorted(code(a) for a in self.legal_actions()))

    def legal_mask(self) -> list[int]:
        """One entry per action id: 1 where the action is legal here, else 0."""
        mask = [0] * self.game.info.num_distinct_actions
        for i in self.legal_action_ids():
            mask[i] = 1
        return mask

    def _parse(self, text: str) -> Action | None:
        """The action ``text`` names, legal or not, or None. The default matches the text
        against the legal actions; games with a notation parse it (and raise
        :class:`InvalidNotation` naming the part at fault)."""
        wanted = text.strip().lower()
        for action in self._legal_actions():
            if str(action).lower() == wanted:
                return action
        return None

    def parse_action(self, text: str) -> Action:
        """A person's text as a legal action (python-chess style: matched against legality).

        Raises:
            GameOver: the game has ended.
            InvalidNotation: the text is not an action in the game's notation.
            IllegalAction: the text names an action the rules forbid here; the message names
                the rule.
        """
        if not isinstance(text, str):
            raise InvalidNotation(f"an action is written as text, got {quote(text)}")
        if len(text) > MAX_ACTION_TEXT:
            raise InvalidNotation(
                f"an action is at most {MAX_ACTION_TEXT} characters, got {quote(text)}"
            )
        if self.is_over:
            raise GameOver(f"the game is over: {quote(text.strip())} cannot be played")
        action = self._parse(text)
        if action is not None and self._is_legal(action):
            return action
        raise IllegalAction(self._refusal(text.strip()))

    def apply(self, action: Action | str, *, seat: int | None = None) -> Self:
        """The state after ``action`` (an action or its notation), played by ``seat`` if given.

        Raises:
            GameOver: the game has ended.
            NotYourTurn: ``seat`` is given and is not the seat to move.
            InvalidOption: ``seat`` is not a seat of this game.
            InvalidNotation: ``action`` is text that is not in the game's notation.
            IllegalAction: the action is not legal here; the message names the rule.
        """
        if self.is_over:
            raise GameOver(f"the game is over: {quote(str(action))} cannot be played")
        mover = self.to_move
        self._check_seat(seat)
        if seat is not None and seat != mover:
            who = "nobody" if mover is None else seat_name(mover)
            raise NotYourTurn(f"it is {who}'s turn, not {seat_name(seat)}'s")
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not self._is_legal(action):
            raise IllegalAction(self._refusal(str(action)))
        nxt = self._apply(action)
        nxt._parent = self
        try:
            index = self._step[3] + 1
        except AttributeError:
            index = 1
        nxt._step = ("action", mover, action, index)
        return nxt

    def apply_id(self, action_id: int, *, seat: int | None = None) -> Self:
        """The state after the action with integer id ``action_id`` (:meth:`Game.action_id`)."""
        return self.apply(self.game.action_from_id(action_id), seat=seat)

    # -- table entries ------------------------------------------------------------------------

    def apply_table(self, text: str, *, by: int | None = None, votes: Iterable[int] = ()) -> Self:
        """The state after a table entry (a game's penalties): something the
        table decides, made by seat ``by`` (``None``: a referee) with the seats in ``votes``
        voting for it, outside the turn order and outside :meth:`legal_actions`.

        Raises:
            InvalidOption: ``by`` or a vote is not a seat.
            InvalidNotation: the text is not a table entry of this game.
            IllegalAction: the rules refuse the entry here; the message names the rule.
        """
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            raise InvalidNotation(
                f"a table entry is text of at most {MAX_ACTION_TEXT} characters, got {quote(text)}"
            )
        self._check_seat(by)
        try:
            voters = frozenset(votes)
        except TypeError:
            raise InvalidOption(f"votes are a list of seats, got {quote(votes)}") from None
        for voter in voters:
            self._check_seat(voter)
        canonical, nxt = self._table_entry(text.strip(), by, voters)
        nxt._parent = self
        nxt._step = ("table", by, canonical, self.log_length())
        return nxt

    def _table_entry(self, text: str, by: int | None, votes: frozenset[int]) -> tuple[str, Self]:
        """A game with table entries parses and checks ``text`` and returns its canonical
        notation and the state after it. Games without any refuse every entry."""
        raise IllegalAction(f"{self.game.info.title} has no table entries")

    # -- the log ------------------------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        """The step that made this state from the one before it; ``None`` at the start."""
        try:
            kind, seat, made_by, index = self._step
        except AttributeError:
            return None
        return Step(kind, seat, str(made_by), index)

    @property
    def previous(self) -> State | None:
        """The state this one was made from by :attr:`step`; ``None`` at the start."""
        try:
            return self._parent
        except AttributeError:
            return None

    def _entry(self, seat: int | None) -> LogEntry:
        """This state's own log entry for ``seat``, made once and kept."""
        try:
            cache = self._entries
        except AttributeError:
            cache = {}
            self._entries = cache
        entry = cache.get(seat)
        if entry is None:
            step = self.step
            shown = (e.for_seat(seat) for e in self.events)
            entry = LogEntry(
                0 if step is None else step.index,
                "deal" if step is None else step.kind,
                None if step is None else step.seat,
                None if step is None else step.text,
                tuple(e for e in shown if e is not None),
            )
            cache[seat] = entry
        return entry

    def log_length(self) -> int:
        """How many entries :meth:`log` has: one for the start, one per step since."""
        try:
            return self._step[3] + 1
        except AttributeError:
            return 1

    def log(self, seat: int | None, since: int = 0) -> tuple[LogEntry, ...]:
        """Every step so far as ``seat`` may see it (``None``: a spectator), oldest first,
        from entry ``since`` on. Each state makes its own entry once, so asking for the
        entries since the last one shown costs only the new ones.

        Raises:
            InvalidOption: ``seat`` is not a seat of this game, or ``since`` is negative.
        """
        self._check_seat(seat)
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise InvalidOption(f"since must be a whole number of at least 0, got {quote(since)}")
        wanted = self.log_length() - since
        chain: list[State] = []
        state: State | None = self
        while state is not None and len(chain) < wanted:
            chain.append(state)
            state = state.previous
        return tuple(s._entry(seat) for s in reversed(chain))

    def tail(self, seat: int | None, count: int) -> tuple[LogEntry, ...]:
        """The last ``count`` entries of :meth:`log` for ``seat``, at a cost of ``count``."""
        self._check_seat(seat)
        count = check_int(count, field="count", minimum=0, error=InvalidOption)
        return self.log(seat, max(0, self.log_length() - count))
