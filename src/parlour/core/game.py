"""The contract every game implements (ARCHITECTURE.md, "The contract").

A :class:`Game` holds static facts (:class:`~parlour.core.info.GameInfo`), makes states, and
codes actions as integers; a :class:`State` is immutable, and :meth:`State.apply` returns a new
one after checking legality itself; a :class:`View` is what one seat may know; :meth:`Game.sample`
builds a full state consistent with a view, so agents, which only ever see views, cannot cheat.
The base classes handle the edge cases (game over, not your turn, text matched against the legal
actions, the per-seat log, table entries' checks); a game implements only the in-progress case.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Protocol, Self, TypeVar

from parlour.core.info import GameInfo
from parlour.core.inputs import quote
from parlour.core.log import JSON, Event, LogEntry
from parlour.core.options import OptionValue, validate_options
from parlour.core.parts import GameParts, load_part
from parlour.core.state import FORMAT, Action, Outcome, State, View, seat_name
from parlour.core.words import DEFAULT_LANGUAGE, Catalog, catalog
from parlour.errors import InvalidNotation, InvalidOption, InvalidRecord

if TYPE_CHECKING:
    from parlour.core.present import Presenter
    from parlour.core.strategy import Strategy

__all__ = [
    "FORMAT",
    "JSON",
    "Action",
    "Agent",
    "Event",
    "Game",
    "GameInfo",
    "GameParts",
    "LogEntry",
    "Outcome",
    "State",
    "View",
    "seat_name",
]


V = TypeVar("V", bound=View)


class Game(ABC):
    """Static facts about a game (:attr:`info`), the factory of its states and its codecs.

    A game that people may play against an agreed time says how long it is for given options
    (:meth:`time_limit`, seconds, ``None``: no clock) and which table entry ends the game when
    the time is up (:attr:`time_up_entry`); front ends keep the clock, the rules never read
    one."""

    info: ClassVar[GameInfo]
    parts: ClassVar[GameParts]
    """Where the game keeps its presenter, strategy, words, web board, features, figures and
    commands (:mod:`parlour.core.parts`)."""

    time_up_entry: ClassVar[str | None] = None
    """The table entry (:meth:`State.apply_table`) that ends the game when an agreed time runs
    out, or ``None`` for a game that has no clock at any table. A table that keeps a clock
    (:meth:`time_limit`) makes it, ``by=None`` (the table, not a player), once the time is up;
    the record keeps it after its action count, so a replay ends exactly there."""

    _instances: ClassVar[dict[type[Game], Game]] = {}

    def __new__(cls) -> Self:
        """One instance a game: ``ChessGame() is ChessGame()``, the registry's game and the
        states' game are the same object."""
        found = Game._instances.get(cls)
        if found is None:
            found = Game._instances[cls] = super().__new__(cls)
        return found  # type: ignore[return-value]

    @property
    def name(self) -> str:
        """The canonical name (``info.name``)."""
        return self.info.name

    @property
    def title(self) -> str:
        """The name people read (``info.title``)."""
        return self.info.title

    @property
    def strategy(self) -> Strategy | None:
        """The bots' parts: ``STRATEGY`` of the module :attr:`parts` names; ``None`` for a
        game without decisions (:attr:`GameInfo.decisions`)."""
        if not self.info.decisions:
            return None
        found = load_part(self.parts, "strategy")
        return found  # type: ignore[return-value]

    @property
    def presenter(self) -> Presenter:
        """How front ends show the game and read its special input: ``PRESENTER`` of the
        module :attr:`parts` names (:mod:`parlour.core.present`)."""
        found = load_part(self.parts, "presenter")
        return found  # type: ignore[return-value]

    def words(self, lang: str = DEFAULT_LANGUAGE) -> Catalog:
        """The game's message catalog in ``lang`` (English behind it; :mod:`parlour.core.words`)."""
        return catalog(self.parts.words, lang)

    def check_players(self, players: object) -> int:
        """``players`` as an int within the game's range, or :class:`InvalidOption`."""
        info = self.info
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not info.min_players <= players <= info.max_players
        ):
            raise InvalidOption(
                f"{info.title} is for {info.min_players} to {info.max_players} players, "
                f"got {quote(players)}"
            )
        return players

    def options(self, given: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """All options with defaults filled in; raises :class:`InvalidOption` naming the option."""
        return validate_options(self.info.name, self.info.options, given)

    def time_limit(self, options: Mapping[str, object]) -> float | None:
        """The agreed time, in seconds, of a table with these (validated) ``options``, or
        ``None`` when the game has no clock there (the default). A table with a clock (the
        terminal, an online room) starts it with the first action, stops it while the game
        is saved and not played, and makes the entry :attr:`time_up_entry` when it runs out.
        Simulations have no clock: they never call it. A game whose option sets the time
        names it ``time_limit`` (whole minutes), so that front ends can offer it."""
        return None

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

    # -- the integer action codec (OpenSpiel style) --------------------------------------------

    @abstractmethod
    def action_id(self, action: Action) -> int:
        """The integer ``0 .. info.num_distinct_actions - 1`` of ``action``; the same action
        has the same id in every state.

        Raises:
            InvalidNotation: ``action`` is not an action of this game.
        """

    @abstractmethod
    def action_from_id(self, action_id: int) -> Action:
        """The action with integer id ``action_id``; ``action_id(action_from_id(i)) == i``.

        Raises:
            InvalidNotation: ``action_id`` is outside ``0 .. info.num_distinct_actions - 1``.
        """

    def _check_action_id(self, action_id: object) -> int:
        """``action_id`` as an int in range, or :class:`InvalidNotation` naming the range."""
        n = self.info.num_distinct_actions
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < n:
            raise InvalidNotation(
                f"an action id of {self.info.title} is a whole number from 0 to {n - 1}, "
                f"got {quote(action_id)}"
            )
        return action_id

    # -- JSON round trips -------------------------------------------------------------------------

    @abstractmethod
    def state_from_json(self, obj: object) -> State:
        """The state that ``State.to_json`` wrote: equal JSON, and it plays on exactly alike.

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """

    @abstractmethod
    def view_from_json(self, obj: object) -> View:
        """The view that ``View.to_json`` wrote: an equal view.

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """

    def checked_view(self, view: V) -> V:
        """``view`` if some full state gives it, as :meth:`view_from_json` promises: one world
        is sampled from it and must show its seat the same view. A view edited by hand (hand
        sizes that do not add up, a seat changed, a scrap pile of the wrong size) is refused,
        so :meth:`sample` is only ever given views it can keep its contract for.

        Raises:
            InvalidRecord: no deal agrees with the view.
        """
        refusal = "is not a view that any deal of the game gives (its cards and counts disagree)"
        try:
            world = self.sample(view, random.Random(0))
        except InvalidRecord as err:
            raise InvalidRecord(f"the view {refusal}: {err}") from None
        if world.view(view.seat) != view:
            raise InvalidRecord(f"the view {refusal}")
        return view

    def match_deal(self, players: int, seed: int, number: int) -> JSON:
        """The deal of deal ``number`` (from 0) of a match played from ``seed``, in the game's
        deal notation, or ``None`` when the game deals every game of a match from its seed
        alone. A game may move the dealer one seat each deal."""
        return None

    def upgrade_record_actions(
        self, actions: tuple[str, ...]
    ) -> tuple[tuple[str, ...], tuple[tuple[int, str, int | None], ...]]:
        """Records written before table entries existed may hold them among the actions: a
        game with table entries splits them out as ``(at, text, by)`` (``at``: the number of
        player actions before the entry). Other games keep the actions as they are."""
        return actions, ()


class Agent(Protocol):
    """A player that sees only a view: same view, legal actions and rng state, same choice."""

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        """One of ``legal_actions``."""
        ...
