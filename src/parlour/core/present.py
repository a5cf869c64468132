"""What a front end needs from a game to show it to people: its presenter.

Each game package exports ``PRESENTER`` from its ``present.py`` (found by
:attr:`parlour.core.game.Game.presenter`), so the terminal table (and any later front end that
draws with rich) knows no game by name. A presenter draws only from what a seat may know: a
:class:`~parlour.core.game.View`, an :class:`~parlour.core.game.Outcome` and the seat's log,
never a state, so a screen cannot show a hidden card.

:class:`Presenter` is the protocol with the defaults a plain game needs (a game subclasses it
and overrides what it does differently). The drawing helpers below (:func:`card_text`,
:func:`hand_line` ...) are what every game's table is made of.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.console import RenderableType
from rich.text import Text

from parlour.cards import Card
from parlour.core.game import JSON, Action, Outcome, State, View, seat_name

__all__ = [
    "Forfeit",
    "Match",
    "MatchBoard",
    "Presenter",
    "Reply",
    "TableCommand",
    "WatchLine",
    "Watched",
    "Watcher",
    "card_text",
    "cards_text",
    "hand_line",
    "header",
    "numbered_text",
]


# -- drawing helpers --------------------------------------------------------------------------


def card_text(card: Card | str) -> Text:
    """A card as people read it: ``10♥`` in red, ``K♠`` in bold, a Joker in magenta; a rank
    class (``K``, ``-``) or other token as it is."""
    if isinstance(card, str):
        return Text(card, style="bold")
    if card.is_joker:
        return Text(card.pretty(), style="magenta")
    red = card.suit is not None and card.suit.is_red
    return Text(card.pretty(), style="bold red" if red else "bold")


def cards_text(cards: Sequence[Card], *, empty: str = "none") -> Text:
    """Cards side by side (``empty`` in grey when there are none)."""
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(c) for c in cards)


def hand_line(hand: Sequence[Card], playable: set[Card], marking: bool) -> Text:
    """``Your hand: 3♠ 7♣ 9♦``; when ``marking``, the cards with a legal move underlined and
    marked ``*``, the others grey."""
    line = Text("Your hand: ", style="bold")
    for k, card in enumerate(hand):
        line.append(" " if k else "")
        text = card_text(card)
        if marking and card not in playable:
            text.stylize("dim")
        elif marking:
            text.stylize("underline")
            text.append("*")
        line.append_text(text)
    if marking:
        line.append("   (* can be played now)", style="dim")
    return line


def header(title: str, to_move: int | None, detail: str, labels: Sequence[str]) -> Text:
    """``BEOR · 3 players · move 8 · Player 3 (ismcts) to move``."""
    head = Text(title, style="bold underline")
    head.append(f" · {len(labels)} players · {detail}")
    if to_move is not None:
        head.append(" · ")
        head.append(f"{labels[to_move]} to move", style="bold green")
    return head


def numbered_text(actions: Sequence[Action], pretty: Callable[[Action], Text]) -> Text:
    """Moves numbered on one line: ``1) 7♣  2) 9♣  3) pass``. No-break spaces keep a number
    with its move when the line wraps."""
    out = Text()
    for number, action in enumerate(actions, 1):
        out.append("  " if number > 1 else "")
        out.append(f"{number})\u00a0", style="dim")
        out.append_text(pretty(action))
    return out


# -- what a game says and asks ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """What a game makes of a line a person typed at his own prompt (:meth:`Presenter.read`).

    ``actions`` are played in order, all of them or none (a give's split, G5); ``message`` is
    shown to the person; ``auto`` asks the table to play this seat's only move for it from now
    on (Beggar-My-Neighbour's ``auto``)."""

    actions: tuple[str, ...] = ()
    message: str | None = None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A table entry the rules charge for a forbidden move (:meth:`Presenter.forfeit`), and
    what to tell the person once it is made, after the refusal's reason."""

    entry: str
    note: str


@dataclass(frozen=True, slots=True)
class TableCommand:
    """A table entry people may make at the table (the Game of Death's ``doh Pk``, G13):
    ``word`` starts it, ``usage`` shows its form, ``about`` says what it does."""

    word: str
    usage: str
    about: str


@dataclass(frozen=True, slots=True)
class WatchLine:
    """One line of a bots-only game shown a game's own way (:class:`Watcher`), and the state
    the game has reached with it; the front end pauses after a line with ``pause`` while the
    game is on (between Beggar-My-Neighbour's tricks)."""

    shown: RenderableType
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
    """A game's own way of showing a bots-only game (Beggar-My-Neighbour: trick by trick). It
    only makes the lines; the front end prints them and keeps the pace, since games do no
    I/O."""

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

    def table(self, labels: Sequence[str]) -> RenderableType:
        """The running totals and places after the last deal counted."""
        ...

    def standing(self, labels: Sequence[str]) -> RenderableType:
        """Who leads the match, or won it once the deals planned are played."""
        ...

    def next_dealer(self) -> str:
        """Who deals the next deal, in words (``Player 3 deals``)."""
        ...


class Match(Protocol):
    """A game played as a match of several deals with running totals (the Game of Death,
    G12): the front end plays each deal (dealt by ``Game.match_deal``), the game keeps the
    score. ``about`` says what a match of N deals is, for the command line's help."""

    about: str

    def board(self, players: int, planned: int | None) -> MatchBoard:
        """A new match of ``players`` (``planned`` deals, or ``None``: one at a time)."""
        ...


class Presenter(Protocol):
    """How a front end shows one game and reads its special input.

    Attributes:
        rules: the rules in short for ``help``, ruling ids in brackets, one item a line.
        input_help: what a person types at his prompt, for ``help``, when it is not a move's
            number or notation (Beggar-My-Neighbour: Enter turns the card), else ``None``.
        table_commands: the table entries people may make at the table (``help`` lists them;
            typing one asks the other people to vote where the rules want it).
        watcher: a game's own way of showing a bots-only game, or ``None`` to show it at the
            table like any other.
        deal_usage: how a deal is typed on the command line (``--deal``), or ``None`` when the
            game is only dealt from a seed there.
        match: the game played as a match of deals with running totals, or ``None`` when
            each game stands alone.
    """

    rules: str
    input_help: str | None = None
    table_commands: tuple[TableCommand, ...] = ()
    watcher: Watcher | None = None
    deal_usage: str | None = None
    match: Match | None = None

    @abstractmethod
    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> RenderableType:
        """The table as ``view``'s seat sees it: header, piles, seats, own hand (with the
        cards of ``legal`` marked when the seat is to move). ``labels`` name the seats."""
        ...

    @abstractmethod
    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        """The result in words, one sentence without its final full stop: who won, how (the
        ruling) and how long the game was (``moves``: the player actions played)."""
        ...

    def end_table(
        self, outcome: Outcome, view: View, labels: Sequence[str]
    ) -> RenderableType | None:
        """A table shown under the result (the Game of Death's drinks), from the spectator's
        ``view``, or ``None``."""
        return None

    def numbered(self, legal: Sequence[Action]) -> list[Action]:
        """The legal moves a person picks by number (all of them unless a game asks for some
        in its own way, such as a give, G5)."""
        return list(legal)

    def pretty_action(self, action: Action) -> Text:
        """An action as people read it (cards with suit symbols), typed as its notation."""
        return Text(str(action))

    def moves_text(self, actions: Sequence[Action]) -> Text:
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
        """What the rules charge when the seat of ``view`` tries the forbidden move ``text``
        (the Game of Death's illegal throw, G13), or ``None`` when a refusal costs nothing."""
        return None

    def entry_target(self, entry: str) -> int | None:
        """The seat that a table entry typed at the table penalises (others vote on it,
        G13), or ``None``. Raises InvalidNotation for text that is not one of
        :attr:`table_commands`."""
        return None

    def is_out(self, view: View) -> bool:
        """Whether the seat of ``view`` is out of the game and has no move left to make."""
        return False

    def deal_players(self, deal: str) -> int | None:
        """The number of players of a deal typed on the command line, ``None`` for a game
        without :attr:`deal_usage`. Raises InvalidNotation naming what is wrong."""
        return None
