"""What a front end needs from a game to show it to people: its presenter, in words.

Each game package exports ``PRESENTER`` from the module its parts name (found by
:attr:`parlour.core.game.Game.presenter`), so a front end knows no game by name. A presenter
describes only from what a seat may know: a :class:`~parlour.core.game.View`, an
:class:`~parlour.core.game.Outcome` and the seat's log, never a state, so a screen cannot show a
hidden card.

The core speaks words, the front end draws them: a presenter describes its table in the neutral
blocks below and never imports a drawing library. :class:`Styled` is text in runs, each with a
style named as a word list (``"bold red"``, ``"dim"``); :class:`Grid` a table of labelled
columns; :class:`Heading` the line over a table and :class:`Hand` the seat's own hand, whose
words (``Your hand:``, ``3 players``) are the front end's own. The terminal
(:mod:`parlour.play.draw`) turns them into rich renderables; another front end may draw them its
own way. A presenter speaks the language of the catalog it is given (:meth:`Presenter.speaking`).

:class:`Presenter` is the protocol with the defaults a plain game needs (a game subclasses it
and overrides what it does differently).
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, Self

from parlour.cards import Card
from parlour.core.game import JSON, Action, Outcome, State, View, seat_name
from parlour.core.words import Catalog

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


# -- the neutral description ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text in one style (style words as a front end reads them, ``""``: plain)."""

    text: str
    style: str = ""


class Styled:
    """Text made of styled runs, with a ``style`` under all of them (as a whole line in bold
    with a red card in it). Built by appending; :meth:`stylize` styles what is there so far."""

    __slots__ = ("spans", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        self.style = style
        self.spans: list[Span] = [Span(text)] if text else []

    @property
    def plain(self) -> str:
        return "".join(s.text for s in self.spans)

    def append(self, text: str | Styled, style: str = "") -> Self:
        """Add ``text`` after what is there (a :class:`Styled` keeps its own styles)."""
        if isinstance(text, Styled):
            for span in text.spans:
                self.spans.append(Span(span.text, _joined(style, text.style, span.style)))
        elif text:
            self.spans.append(Span(text, style))
        return self

    def stylize(self, style: str) -> Self:
        """Add ``style`` to the text so far (not to what is appended later)."""
        self.spans = [Span(s.text, _joined(s.style, style)) for s in self.spans]
        return self

    def join(self, items: Iterable[Styled | str]) -> Styled:
        """``items`` with this text between them, as ``str.join``."""
        out = Styled()
        for k, item in enumerate(items):
            if k:
                out.append(self)
            out.append(item)
        return out

    @classmethod
    def assemble(cls, *parts: Styled | str) -> Styled:
        out = cls()
        for part in parts:
            out.append(part)
        return out


def _joined(*styles: str) -> str:
    return " ".join(s for s in styles if s)


@dataclass(slots=True)
class Grid:
    """A table: ``columns`` (their headings), rows of cells, a ``title``; ``boxed`` draws lines
    around and between the cells (a result), else it is a plain grid with bold headings.
    ``title_left`` puts the title over the left edge instead of the middle."""

    columns: tuple[str, ...]
    rows: list[tuple[Styled | str, ...]] = field(default_factory=list)
    title: str | None = None
    boxed: bool = False
    title_left: bool = False

    def add_row(self, *cells: Styled | str) -> None:
        self.rows.append(cells)


@dataclass(frozen=True, slots=True)
class Heading:
    """The line over a table: the game's ``title``, the players, a ``detail`` of the game's
    own (``move 8``) and who is to move (the front end names the seats and the players)."""

    title: str
    detail: str
    to_move: int | None


@dataclass(frozen=True, slots=True)
class Hand:
    """The seat's own hand; when ``marking``, the cards with a legal move (``playable``) are
    marked and the others greyed."""

    cards: tuple[Card, ...]
    playable: frozenset[Card] = frozenset()
    marking: bool = False


Block = Styled | Grid | Heading | Hand
"""One part of a table as a presenter describes it, drawn one under the other."""


def card_text(card: Card | str) -> Styled:
    """A card as people read it: ``10♥`` in red, ``K♠`` in bold, a Joker in magenta; a rank
    class (``K``, ``-``) or other token as it is."""
    if isinstance(card, str):
        return Styled(card, style="bold")
    if card.is_joker:
        return Styled(card.pretty(), style="magenta")
    red = card.suit is not None and card.suit.is_red
    return Styled(card.pretty(), style="bold red" if red else "bold")


def cards_text(cards: Sequence[Card], *, empty: str) -> Styled:
    """Cards side by side (``empty`` in grey when there are none)."""
    if not cards:
        return Styled(empty, style="dim")
    return Styled(" ").join(card_text(c) for c in cards)


def numbered_text(actions: Sequence[Action], pretty: Callable[[Action], Styled]) -> Styled:
    """Moves numbered on one line: ``1) 7♣  2) 9♣  3) pass``. No-break spaces keep a number
    with its move when the line wraps."""
    out = Styled()
    for number, action in enumerate(actions, 1):
        out.append("  " if number > 1 else "")
        out.append(f"{number})\u00a0", style="dim")
        out.append(pretty(action))
    return out


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
