"""A table at the terminal: who sits where, the game so far, undo, saving and resuming.

No I/O here: the terminal loop (:mod:`parlour.play.terminal`) asks a person for moves and
draws the screen; this module keeps the game (player actions and table entries, such as a
game's penalties), its agreed time's clock (:mod:`parlour.play.clock`) when it has one, lets
the bots move (they see only their views), and turns the game into a record and back.
Nothing here knows a game by name: it reads ``game.info``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from parlour.bots import Ismcts, RandomAgent, make_agent, warm_up
from parlour.cards import parse_card
from parlour.core.game import Action, Agent, Game, State, seat_name
from parlour.core.inputs import parse_int
from parlour.core.record import Record, TableEntry
from parlour.core.rng import derive_seed
from parlour.errors import InvalidInput, InvalidOption, InvalidRecord, ParlourError
from parlour.games import find_game
from parlour.play.clock import Clock, TableClock, clock_of
from parlour.play.speech import language, say, seat_called, title_of

__all__ = [
    "PERSON",
    "Seat",
    "Table",
    "check_seat_specs",
    "default_bot",
    "options_json",
    "parse_seat_flags",
]

PERSON = "person"
_PERSON_WORDS = frozenset({"person", "human", "me", "you", "p"})
# In a game without decisions a seat that is not a person just makes the only move it has.
_AUTO = "bot"


def _pretty(card: str) -> str:
    """A card's name as the screens show it (``3♥``), or the text as it is."""
    try:
        return parse_card(card).pretty()
    except ParlourError:
        return card


def default_bot(game: Game) -> str:
    """The bot that takes a seat nobody asked for: the ``hard`` level (a search of about a
    tenth of a second a move; ``--seat N=expert`` for the strongest), or in a game without
    decisions the one that makes the only move."""
    return "hard" if game.info.decisions else _AUTO


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: a person at the keyboard, or a bot named by its spec (``ismcts``, ...)."""

    spec: str
    agent: Agent | None = field(default=None, compare=False)

    @property
    def is_person(self) -> bool:
        return self.agent is None


def _normalise(spec: str) -> str:
    text = spec.strip().lower()
    return PERSON if text in _PERSON_WORDS else text


def check_seat_specs(game: Game, specs: Sequence[str]) -> tuple[Seat, ...]:
    """The seats ``specs`` name (``person`` or a bot), or InvalidOption naming the seat."""
    seats = []
    for number, spec in enumerate(specs, 1):
        text = _normalise(spec)
        if text == PERSON:
            seats.append(Seat(PERSON))
            continue
        if not game.info.decisions:
            if text != _AUTO:
                raise InvalidOption(
                    f"Player {number}: in {game.title} a seat is a person or a bot, got {spec!r}"
                )
            seats.append(Seat(_AUTO, RandomAgent()))
            continue
        try:
            seats.append(Seat(text, make_agent(text, game)))
        except ParlourError as err:
            raise InvalidOption(f"Player {number}: {err}") from None
    if any(isinstance(seat.agent, Ismcts) for seat in seats):
        warm_up(game)  # the search's compiled playouts load while the table is drawn
    return tuple(seats)


def parse_seat_flags(flags: Sequence[str], players: int, default: Sequence[str]) -> tuple[str, ...]:
    """``--seat 2=ismcts`` flags (players counted from 1, as the screen names them) over the
    default seating; raises InvalidOption naming the flag."""
    specs = list(default)
    given: set[int] = set()
    for flag in flags:
        number, sep, spec = flag.partition("=")
        try:
            k = parse_int(number, field="the player", max_digits=4)
        except InvalidInput:
            k = None
        if not sep or k is None or not spec.strip():
            raise InvalidOption(
                f"--seat {flag!r}: write PLAYER=WHO, e.g. 2=ismcts or 3=person "
                "(players count from 1)"
            )
        if not 1 <= k <= players:
            raise InvalidOption(f"--seat {flag!r}: the players are 1 to {players}")
        if k in given:
            raise InvalidOption(f"--seat {flag!r}: Player {k} is seated twice")
        given.add(k)
        specs[k - 1] = spec.strip()
    return tuple(specs)


def options_json(game: Game, given: Mapping[str, object]) -> dict[str, object]:
    """A game's options as a record holds them, defaults filled in (lists for player lists).

    Raises:
        InvalidOption: naming the option that ``game`` refuses.
    """
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in game.options(given).items()
    }


class Table:
    """A game in progress with its seats; every state so far is kept for undo and saving,
    one for each step (a player action or a table entry)."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: object = None,
        actions: Sequence[str] = (),
        entries: Sequence[TableEntry] = (),
        deal_number: int | None = None,
        time_used: float = 0.0,
        now: Clock | None = None,
    ) -> None:
        """A new game, played on by ``actions`` and the table ``entries`` made between them
        (a saved game); ``deal_number`` is the deal of a match (a game may move the
        dealer each deal), dealt by ``game.match_deal`` when no ``deal`` is given. A game
        with an agreed time has a :attr:`clock` reading ``now`` (``time.monotonic``), not
        running, ``time_used`` seconds of it gone (a saved game's).
        Raises InvalidRecord naming the action or entry that is refused."""
        self.game = game
        self.seats = tuple(seats)
        self.seed = seed
        self.deal = deal
        self.deal_number = deal_number
        given = {k: v for k, v in (options or {}).items() if v is not None}
        if deal is None and deal_number is not None:
            deal = game.match_deal(len(self.seats), seed, deal_number)
        start = game.new(len(self.seats), seed, given, deal)
        # Keep the options as given (typed values); records hold them as JSON.
        self.options: dict[str, object] = dict(given)
        self.clock: TableClock | None = clock_of(game, given, time_used, now)
        self.states: list[State] = [start]
        self.actions: list[str] = []
        self.entries: list[TableEntry] = []
        self.forced: set[int] = set()  # indices in actions of moves made for a person
        self.undone = 0
        pending = list(entries)
        for index, text in enumerate((*actions, None)):
            while pending and pending[0].at == index:
                entry = pending.pop(0)
                try:
                    self.enter(entry.entry, by=entry.by, votes=entry.votes)
                except ParlourError as err:
                    number = len(entries) - len(pending) - 1
                    raise InvalidRecord(
                        f"table entry {number} {entry.entry!r} is refused: {err}"
                    ) from None
            if text is None:
                break
            try:
                self.apply(text)
            except ParlourError as err:
                raise InvalidRecord(f"action {index} {text!r} is illegal: {err}") from None
        if pending:  # never dropped silently
            number = len(entries) - len(pending)
            raise InvalidRecord(
                f"table entry {number} {pending[0].entry!r} is at {pending[0].at}, but the "
                f"game has {len(actions)} actions"
            )

    # -- the game ---------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(s for s, seat in enumerate(self.seats) if seat.is_person)

    @property
    def has_decisions(self) -> bool:
        return self.game.info.decisions

    def seat_label(self, seat: int) -> str:
        """``Player 2 (ismcts)``, ``Player 1 (you)`` with one person, ``Player 3`` for people."""
        name = seat_called(seat)
        spec = self.seats[seat]
        if spec.is_person:
            return say("seat_you", name=name) if len(self.people) == 1 else name
        return f"{name} ({spec.spec})"

    def apply(self, action: Action | str, *, forced: bool = False) -> State:
        """Play ``action`` for the seat to move; refusals raise as :meth:`State.apply` does.
        ``forced``: the seat had no choice and the table made it (undo passes over it)."""
        if isinstance(action, str):
            action = self.state.parse_action(action)
        state = self.state.apply(action)
        if forced:
            self.forced.add(len(self.actions))
        self.states.append(state)
        self.actions.append(str(action))
        return state

    def bot_move(self) -> State:
        """Let the bot to move choose from its view and play. Its generator is seeded by the
        game's seed and the move number, so a resumed game goes on as the saved one would."""
        state = self.state
        seat = state.to_move
        if seat is None:
            raise InvalidOption("the game is over")
        agent = self.seats[seat].agent
        if agent is None:
            raise InvalidOption(f"{seat_name(seat)} is a person, not a bot")
        rng = random.Random(derive_seed(self.seed, "table", len(self.actions)))
        action = agent.choose(state.view(seat), state.legal_actions(), rng)
        return self.apply(action)

    def enter(self, text: str, *, by: int | None, votes: Sequence[int] = ()) -> State:
        """Make a table entry (:meth:`State.apply_table`: a game's penalties)
        by seat ``by`` with the seats in ``votes`` voting for it; refusals raise as there."""
        state = self.state.apply_table(text, by=by, votes=votes)
        step = state.step
        assert step is not None
        self.states.append(state)
        self.entries.append(TableEntry(len(self.actions), step.text, by, tuple(sorted(votes))))
        return state

    # -- undo -------------------------------------------------------------------------------

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` cannot take back its last move now, or None if it can.

        A table entry made after that move (a penalty) is the table's decision, not a
        move: it stands, so undo cannot go back past it (it is never dropped silently)."""
        if not self.has_decisions:
            return say("undo.no_decisions", title=title_of(self.game))
        if len(self.people) != 1:
            return say("undo.alone")
        index = self._last_own_move(seat)
        if index is None:
            return say("undo.no_move", seat=seat_called(seat))
        for state in self.states[index:]:
            step = state.step
            if step is not None and step.kind == "table":
                words = self.game.words(language())  # the game's ruling, in the language spoken
                if "ui.undo.entry_stands" in words:
                    return words("ui.undo.entry_stands", entry=repr(step.text))
                return say("undo.entry_stands", entry=repr(step.text))
        return self._seen_since(seat, index)

    def _seen_since(self, seat: int, index: int) -> str | None:
        """Why undo may not go back before ``states[index]``: what ``seat`` has seen since
        that it could not see before it (a card drawn blind, a stock turned face up, a
        restock, another player's card), or None. Undo never goes back past new information
        (as Board Game Arena's undo), so nobody can peek at a face-down card and take it back."""
        before = self.states[index - 1].hidden_from(seat)
        now = self.state.hidden_from(seat)
        for state in self.states[index:]:
            seen = before - state.hidden_from(seat)
            if not seen:
                continue
            step = state.step
            assert step is not None
            named = sorted(seen - now)  # cards the seat may see now, so they may be named
            cards = " ".join(_pretty(c) for c in named) if named else say("undo.a_card")
            if step.seat is None:
                shown = say("undo.shown_by_table", move=step.text)
            elif step.seat == seat:
                shown = say("undo.shown_by_you", move=step.text)
            else:
                shown = say("undo.shown_by_seat", seat=seat_called(step.seat), move=step.text)
            return say("undo.seen", cards=cards, shown=shown)
        return None

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last move and every bot move after it; returns how many
        actions were taken back. Raises InvalidOption with :meth:`undo_refusal`'s reason."""
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise InvalidOption(reason)
        index = self._last_own_move(seat)
        assert index is not None
        del self.states[index:]
        kept = sum(1 for s in self.states[1:] if s.step is not None and s.step.kind == "action")
        taken = len(self.actions) - kept
        del self.actions[kept:]
        self.forced = {k for k in self.forced if k < kept}
        self.undone += 1
        return taken

    def _last_own_move(self, seat: int) -> int | None:
        """The index in :attr:`states` of the state that ``seat``'s last action made."""
        for index in range(len(self.states) - 1, 0, -1):
            step = self.states[index].step
            if step is not None and step.kind == "action" and step.seat == seat:
                if self._action_index(index) in self.forced:
                    continue  # made for the seat: it chose nothing there
                return index
        return None

    def _action_index(self, index: int) -> int:
        """The index in :attr:`actions` of the action that made ``states[index]``."""
        return sum(
            1 for s in self.states[1:index] if s.step is not None and s.step.kind == "action"
        )

    # -- records ----------------------------------------------------------------------------

    def record(self) -> Record:
        return Record(
            self.game.name,
            self.players,
            self.seed,
            {k: v for k, v in self.state_options().items() if v is not None},
            self.deal,
            tuple(self.actions),
            tuple(seat.spec for seat in self.seats),
            tuple(self.entries),
            deal_number=self.deal_number,
            time_used=None if self.clock is None else round(self.clock.used, 3),
        )

    def state_options(self) -> dict[str, object]:
        """The game's options as JSON, defaults filled in (:func:`options_json`)."""
        return options_json(self.game, self.options)

    @classmethod
    def from_record(
        cls, record: Record, seat_flags: Sequence[str] = (), now: Clock | None = None
    ) -> Table:
        """The saved game, seated as it was (``--seat`` flags may change who sits where);
        an old record's penalties kept among its actions are read as table entries; an
        agreed time goes on with the time it had (its clock reading ``now``).

        Raises:
            InvalidRecord: the record does not replay, naming the action or entry and the rule.
        """
        try:
            game = find_game(record.game)
        except InvalidOption as err:
            raise InvalidRecord(f"record field 'game': {err}") from None
        record = record.upgraded(game)
        default = record.seats or (PERSON,) + (default_bot(game),) * (record.players - 1)
        specs = parse_seat_flags(seat_flags, record.players, default)
        return cls(
            game,
            check_seat_specs(game, specs),
            record.seed,
            record.options,
            record.deal,
            record.actions,
            record.table,
            record.deal_number,
            record.time_used or 0.0,
            now,
        )
