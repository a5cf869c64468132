"""The contract every game implements (ARCHITECTURE.md, "The contract").

A :class:`Game` holds static facts and makes states; a :class:`State` is immutable, and
:meth:`State.apply` returns a new one after checking legality itself; a :class:`View` is what one
seat may know; :meth:`Game.sample` builds a full state consistent with a view, so agents, which
only ever see views, cannot cheat. The base classes handle the edge cases (game over, not your
turn, text matched against the legal actions); a game implements only the in-progress case.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, TypeAlias

from parlour.core.options import OptionSpec, OptionValue, validate_options
from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption, NotYourTurn

__all__ = [
    "JSON",
    "Action",
    "Agent",
    "Event",
    "Game",
    "Outcome",
    "State",
    "View",
    "seat_name",
]

JSON: TypeAlias = Any
"""A JSON-serialisable value (dict, list, str, int, float, bool or None)."""


def seat_name(seat: int) -> str:
    """How messages to people name a seat: seat 0 is "Player 1"."""
    return f"Player {seat + 1}"


class Action:
    """Base of every game's actions: frozen, hashable, and ``str()`` is the canonical notation."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Event:
    """What an action did, for people (``text``, plain words) and machines (``kind``, ``data``).

    ``audience`` is ``None`` for a public event, otherwise the seats allowed to see it; views
    and logs show a seat only the events it may see.
    """

    kind: str
    text: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    audience: frozenset[int] | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "text": self.text, **self.data}


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
    """What one seat (or a spectator, ``seat is None``) may know. Equal views compare equal."""

    seat: int | None

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The view as JSON; it holds nothing hidden from its seat."""


class State(ABC):
    """An immutable game position. Subclasses implement the ``_`` hooks for play in progress."""

    __slots__ = ()

    game: ClassVar[Game]

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
        """What the action that made this state did (empty for a new game)."""

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
        """Why ``text`` is not a legal action here, naming the rule (for :class:`IllegalAction`)."""

    def _check_seat(self, seat: int | None) -> None:
        """Views are for seats 0..n-1 or a spectator (``None``); InvalidOption otherwise."""
        if seat is not None and not 0 <= seat < self.players:
            raise InvalidOption(f"seat must be 0 to {self.players - 1}, got {seat}")

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; ``None`` gives the spectator's view."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The full state, hidden cards included (for records, tests and ``parlour replay``)."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The canonical notation of every card ``seat`` cannot see (``None``: a spectator).

        Leak tests check that none of them appears in the seat's view or events, and servers
        may use it to check what they send."""

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, in a fixed order; empty once the game is over."""
        return () if self.is_over else self._legal_actions()

    def _parse(self, text: str) -> Action | None:
        """The action ``text`` names, legal or not, or None. The default matches the text
        against the legal actions; games with a notation parse it (and may raise
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
            IllegalAction: the text names no legal action; the message names the rule.
        """
        if self.is_over:
            raise GameOver(f"the game is over: {text.strip()!r} cannot be played")
        try:
            action = self._parse(text)
        except InvalidNotation as err:
            raise IllegalAction(str(err)) from None
        if action is not None and self._is_legal(action):
            return action
        raise IllegalAction(self._refusal(text.strip()))

    def apply(self, action: Action | str, *, seat: int | None = None) -> Self:
        """The state after ``action`` (an action or its notation), played by ``seat`` if given.

        Raises:
            GameOver: the game has ended.
            NotYourTurn: ``seat`` is given and is not the seat to move.
            IllegalAction: the action is not legal here; the message names the rule.
        """
        if self.is_over:
            raise GameOver(f"the game is over: {str(action)!r} cannot be played")
        if seat is not None and seat != self.to_move:
            mover = "nobody" if self.to_move is None else seat_name(self.to_move)
            raise NotYourTurn(f"it is {mover}'s turn, not {seat_name(seat)}'s")
        if isinstance(action, str):
            action = self.parse_action(action)
        elif not self._is_legal(action):
            raise IllegalAction(self._refusal(str(action)))
        return self._apply(action)


class Game(ABC):
    """Static facts about a game and the factory of its states."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]

    def check_players(self, players: object) -> int:
        """``players`` as an int within the game's range, or :class:`InvalidOption`."""
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not self.min_players <= players <= self.max_players
        ):
            raise InvalidOption(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"got {players!r}"
            )
        return players

    def options(self, given: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """All options with defaults filled in; raises :class:`InvalidOption` naming the option."""
        return validate_options(self.name, self.option_specs, given)

    @abstractmethod
    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> State:
        """A new game: ``deal`` (the game's deal notation) if given, else dealt from ``seed``."""

    @abstractmethod
    def sample(self, view: View, rng: random.Random) -> State:
        """A full state with ``sample(v, rng).view(v.seat) == v`` (determinization)."""


class Agent(Protocol):
    """A player that sees only a view: same view, legal actions and rng state, same choice."""

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        """One of ``legal_actions``."""
        ...
