"""What a front end needs from a game to show it to people: its presenter, in words.

Each game package exports ``PRESENTER`` from the module its parts name (found by
:attr:`parlour.core.game.Game.presenter`), so a front end knows no game by name. A presenter
describes only from what a seat may know: a :class:`~parlour.core.game.View`, an
:class:`~parlour.core.game.Outcome` and the seat's log, never a state, so a screen cannot show a
hidden card.

The core speaks words, the front end draws them: a presenter describes its table in the neutral
blocks of :mod:`parlour.core.describe` (re-exported here) and never imports a drawing library;
the terminal (:mod:`parlour.play.draw`) turns them into rich renderables. A presenter speaks the
language of the catalog it is given (:meth:`Presenter.speaking`): its events, refusals and
interface strings come from the game's words (:mod:`parlour.core.words`).

:class:`Presenter` is the protocol with the defaults a plain game needs (a game subclasses it
and overrides what it does differently).
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, Self

from parlour.cards import parse_card
from parlour.core.describe import (
    Block,
    Grid,
    Hand,
    Heading,
    Span,
    Styled,
    card_text,
    cards_text,
    numbered_text,
)
from parlour.core.game import JSON, Action, Event, Outcome, State, View, seat_name
from parlour.core.words import DEFAULT_LANGUAGE, Catalog
from parlour.errors import ParlourError

__all__ = [
    "Block",
    "Forfeit",
    "Grid",
    "Hand",
    "Heading",
    "Match",
    "MatchBoard",
    "Presenter",
    "Reply",
    "Span",
    "Styled",
    "TableCommand",
    "WatchLine",
    "Watched",
    "Watcher",
    "card_text",
    "cards_text",
    "numbered_text",
]


# -- what a game says and asks ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """What a game makes of a line a person typed at his own prompt (:meth:`Presenter.read`).

    ``actions`` are played in order, all of them or none (a split of one choice into several
    actions); ``message`` is shown to the person; ``auto`` asks the table to play this seat's
    only move for it from now on."""

    actions: tuple[str, ...] = ()
    message: str | None = None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A table entry the rules charge for a forbidden move (:meth:`Presenter.forfeit`), and
    what to tell the person once it is made, after the refusal's reason; ``question`` asks
    whether to make it (``{thing}`` and ``{cost}`` put in by the front end)."""

    entry: str
    note: str
    question: str = ""
    declined: str = ""


@dataclass(frozen=True, slots=True)
class TableCommand:
    """A table entry people may make at the table (``NAME Pk``): ``word`` starts it,
    ``usage`` shows its form, ``about`` says what it does."""

    word: str
    usage: str
    about: str


@dataclass(frozen=True, slots=True)
class WatchLine:
    """One line of a bots-only game shown a game's own way (:class:`Watcher`), and the state
    the game has reached with it; the front end pauses after a line with ``pause`` while the
    game is on (between tricks)."""

    shown: Styled
    state: State
    pause: bool = False


@dataclass(frozen=True, slots=True)
class Watched:
    """A bots-only game watched to its end: the last state, the player actions that led to it
    (for the record) and the result as JSON."""

    end: State
    actions: tuple[str, ...]
    result: JSON


class Watcher(Protocol):
    """A game's own way of showing a bots-only game (trick by trick). It only makes the lines;
    the front end prints them and keeps the pace, since games do no I/O."""

    def lines(self, start: State, *, fast: bool) -> Iterator[WatchLine]:
        """The game from ``start`` to its end in lines (``fast``: only the deal and the
        result); the last line's state is the end of the game."""
        ...

    def watched(self, end: State) -> Watched:
        """The record's actions and the JSON result of the game that ended in ``end``."""
        ...


class MatchBoard(Protocol):
    """One match under way (:class:`Match`): the deals finished so far, read from each end's
    spectator view and outcome, and what to say about them."""

    planned: int | None  # the deals asked for, ``None`` when they are played one at a time

    @property
    def deals(self) -> int:
        """The deals finished so far."""
        ...

    def add(self, outcome: Outcome, view: View) -> None:
        """Count a finished deal (``view``: the spectator's at its end)."""
        ...

    def deal_result(self, outcome: Outcome, view: View, labels: Sequence[str], moves: int) -> str:
        """One deal's result in words, as :meth:`Presenter.result_text` says a game's."""
        ...

    def table(self, labels: Sequence[str]) -> Grid:
        """The running totals and places after the last deal counted."""
        ...

    def standing(self, labels: Sequence[str]) -> Styled:
        """Who leads the match, or won it once the deals planned are played."""
        ...

    def next_dealer(self) -> str:
        """Who deals the next deal, in words, with the ruling (``Player 3 deals (R1)``)."""
        ...

    def totals(self) -> dict[str, JSON]:
        """The match so far as JSON (``parlour play --deals N --json``): the deals counted,
        the game's running totals and who leads (``winners``, seats counted from 0)."""
        return {"deals": self.deals}


class Match(Protocol):
    """A game played as a match of several deals with running totals: the front end plays each
    deal (dealt by ``Game.match_deal``), the game keeps the score. ``about`` says what a match
    of N deals is, for the command line's help."""

    about: str

    def board(self, players: int, planned: int | None, words: Catalog) -> MatchBoard:
        """A new match of ``players`` (``planned`` deals, or ``None``: one at a time), said in
        the language of ``words`` (the game's catalog)."""
        ...


class Presenter(Protocol):
    """How a front end shows one game and reads its special input, in the language of its
    :attr:`words` (a copy in another language: :meth:`speaking`).

    Attributes:
        words: the game's message catalog the presenter speaks from.
        rules: the rules in short for ``help``, ruling ids in brackets, one item a line.
        input_help: what a person types at his prompt, for ``help``, when it is not a move's
            number or notation (Enter turns the card), else ``None``.
        table_commands: the table entries people may make at the table (``help`` lists them;
            typing one asks the other people to vote where the rules want it).
        table_rules: what ``help`` says about the table entries as a whole, or ``None``.
        watcher: a game's own way of showing a bots-only game, or ``None`` to show it at the
            table like any other.
        deal_usage: how a deal is typed on the command line (``--deal``), or ``None`` when the
            game is only dealt from a seed there.
        match: the game played as a match of deals with running totals, or ``None`` when
            each game stands alone.
    """

    words: Catalog = Catalog("en", {})
    rules: str = ""
    input_help: str | None = None
    table_commands: tuple[TableCommand, ...] = ()
    table_rules: str | None = None
    watcher: Watcher | None = None
    deal_usage: str | None = None
    match: Match | None = None

    def speaking(self, words: Catalog) -> Self:
        """This presenter speaking from ``words`` (the game's catalog in one language)."""
        spoken = copy.copy(self)
        spoken.words = words
        return spoken

    @abstractmethod
    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        """The table as ``view``'s seat sees it: heading, piles, seats, own hand (with the
        cards of ``legal`` marked when the seat is to move). ``labels`` name the seats."""
        ...

    @abstractmethod
    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        """The result in words, one sentence without its final full stop: who won, how (the
        ruling) and how long the game was (``moves``: the player actions played)."""
        ...

    def event_words(
        self, event: Event, name: Callable[[int], str]
    ) -> tuple[str, dict[str, object]]:
        """The catalog key of ``event`` and the values its words take: ``event.KIND`` and the
        event's data, with ``player`` the name of its seat (``name``) and ``card`` as people
        write it (a game names a variant key or adds values of its own)."""
        values: dict[str, object] = {
            k: v
            for k, v in event.data.items()
            if isinstance(v, str | int) and not isinstance(v, bool)
        }
        seat = event.data.get("seat")
        if isinstance(seat, int):
            values["player"] = name(seat)
        card = event.data.get("card")
        if isinstance(card, str):
            values["card"] = _pretty(card)
        return f"event.{event.kind}", values

    def event_text(self, event: Event, name: Callable[[int], str]) -> str:
        """``event`` in words in the language spoken (:meth:`event_words`); its own text
        (English) when speaking English or when the catalog has no words for it."""
        if self.words.lang == DEFAULT_LANGUAGE:
            return event.text
        key, values = self.event_words(event, name)
        if key not in self.words:
            return event.text
        count = values.pop("count", None)
        try:
            return self.words(key, count if isinstance(count, int) else None, **values)
        except (KeyError, IndexError, ValueError):
            return event.text

    def say(self, key: str, /, count: int | None = None, **values: object) -> str:
        """The game's sentence ``key`` in the language spoken (:attr:`words`)."""
        return self.words(key, count, **values)

    def refusal(self, error: ParlourError) -> str:
        """Why ``error`` refused an input, in the language spoken: the catalog's sentence for
        the error's key (a game's ``refusal.*``), else its own message (English)."""
        key = error.key
        if key is None or self.words.lang == DEFAULT_LANGUAGE or key not in self.words:
            return str(error)
        values: dict[str, object] = dict(error.values)
        count = values.pop("count", None)
        try:
            return self.words(key, count if isinstance(count, int) else None, **values)
        except (KeyError, IndexError, ValueError):
            return str(error)

    def names(self, names: Sequence[str]) -> str:
        """Several names in one phrase in the language spoken (``Player 1, Player 2 and
        Player 3``), with the catalog's ``ui.and`` (``{names} and {last}``) when it has one."""
        if len(names) <= 1:
            return "".join(names)
        head, last = ", ".join(names[:-1]), names[-1]
        if "ui.and" in self.words:
            return self.words("ui.and", names=head, last=last)
        return f"{head} and {last}"

    def end_table(self, outcome: Outcome, view: View, labels: Sequence[str]) -> Grid | None:
        """A table shown under the result, from the spectator's ``view``, or ``None``."""
        return None

    def numbered(self, legal: Sequence[Action]) -> list[Action]:
        """The legal moves a person picks by number (all of them unless a game asks for some
        in its own way, such as a split of one choice over several players)."""
        return list(legal)

    def pretty_action(self, action: Action) -> Styled:
        """An action as people read it (cards with suit symbols), typed as its notation."""
        return Styled(str(action))

    def moves_text(self, actions: Sequence[Action]) -> Styled:
        """The numbered moves as the person reads them (:func:`numbered_text` unless a game
        groups them)."""
        return numbered_text(actions, self.pretty_action)

    def prompt(self, view: View) -> str:
        """The prompt of the seat of ``view`` when it is to move."""
        assert view.seat is not None
        return f"{seat_name(view.seat)}> "

    def read(self, view: View, line: str) -> Reply | None:
        """A game's own reading of a line typed by the seat of ``view`` when it is to move,
        or ``None`` to read it as a move's number or notation."""
        return None

    def forfeit(self, view: View, text: str) -> Forfeit | None:
        """What the rules charge when the seat of ``view`` tries the forbidden move ``text``,
        or ``None`` when a refusal costs nothing."""
        return None

    def entry_target(self, entry: str) -> int | None:
        """The seat that a table entry typed at the table penalises (others vote on it), or
        ``None``. Raises InvalidNotation for text that is not one of :attr:`table_commands`."""
        return None

    def is_out(self, view: View) -> bool:
        """Whether the seat of ``view`` is out of the game and has no move left to make."""
        return False

    def deal_players(self, deal: str) -> int | None:
        """The number of players of a deal typed on the command line, ``None`` for a game
        without :attr:`deal_usage`. Raises InvalidNotation naming what is wrong."""
        return None


def _pretty(card: str) -> str:
    """A card's name as people write it (``10♥``), or the text as it is."""
    try:
        return parse_card(card).pretty()
    except ParlourError:
        return card
