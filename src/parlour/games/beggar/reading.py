"""Beggar-My-Neighbour states and views read back from the JSON they write (``"format": 1``).

:func:`read_state` and :func:`read_view` are ``BeggarGame().state_from_json`` and
``view_from_json``: they check every field and rebuild an equal state or view, or raise
:class:`~parlour.errors.InvalidRecord` naming the field at fault and, where one applies, the
ruling it breaks.
"""

from __future__ import annotations

from typing import Any

from parlour.cards import Card
from parlour.core.inputs import quote
from parlour.core.record import check_format
from parlour.errors import InvalidNotation, InvalidOption, InvalidRecord
from parlour.games.beggar.history import Cycle, History, Position, position_key
from parlour.games.beggar.notation import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RankClass,
    Token,
    check_one_deck,
    format_token,
    parse_token,
)
from parlour.games.beggar.options import BeggarOptions, typed_options
from parlour.games.beggar.rules import BeggarState
from parlour.games.beggar.view import BeggarView

__all__ = ["read_state", "read_view"]

_TABLE_FIELDS: tuple[str, ...] = ("format", "to_move", "pile", "owed", "court_player", "out")
_TABLE_FIELDS += ("cards", "tricks", "over", "options", "winners", "cycle")
_STATE_FIELDS = frozenset((*_TABLE_FIELDS, "hands", "deal", "unseen", "history"))
_VIEW_FIELDS = frozenset((*_TABLE_FIELDS, "seat", "players", "full_cards", "hand_sizes"))
_CYCLE_FIELDS = ("found_at_cards", "found_at_tricks", "start_cards", "start_tricks")


class _Reader:
    """The fields of one JSON object, each checked as it is read."""

    def __init__(self, obj: object, what: str, fields: frozenset[str]) -> None:
        self.what = what
        self.obj = check_format(obj, what)
        unknown = sorted(set(self.obj) - fields)
        if unknown:
            raise InvalidRecord(f"{what} has unknown field {quote(unknown[0])}")
        missing = sorted(fields - {"format"} - set(self.obj))
        if missing:
            raise InvalidRecord(f"{what} has no field {quote(missing[0])}")
        self.players = 0

    def fail(self, name: str, problem: str) -> InvalidRecord:
        return InvalidRecord(f"{self.what} field {quote(name)} {problem}")

    def whole(self, name: str, value: Any, low: int = 0, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise self.fail(name, f"must be a whole number of at least {low}, got {quote(value)}")
        if high is not None and value > high:
            raise self.fail(name, f"must be {low} to {high}, got {quote(value)}")
        return value

    def flag(self, name: str) -> bool:
        value = self.obj[name]
        if not isinstance(value, bool):
            raise self.fail(name, f"must be true or false, got {quote(value)}")
        return value

    def items(self, name: str, value: Any, size: int | None = None) -> list[Any]:
        if not isinstance(value, list) or (size is not None and len(value) != size):
            count = "a list" if size is None else f"a list of {size}"
            raise self.fail(name, f"must be {count}, got {quote(value)}")
        return value

    def seat(self, name: str, value: Any, nullable: bool) -> int | None:
        if value is None and nullable:
            return None
        return self.whole(name, value, 0, self.players - 1)

    def seats(self, name: str) -> tuple[int, ...]:
        seats = tuple(
            self.whole(name, v, 0, self.players - 1) for v in self.items(name, self.obj[name])
        )
        if len(set(seats)) != len(seats):
            raise self.fail(name, f"lists a seat twice: {quote(self.obj[name])}")
        return seats

    def tokens(self, name: str, value: Any) -> tuple[Token, ...]:
        out: list[Token] = []
        for text in self.items(name, value):
            try:
                if not isinstance(text, str):
                    raise InvalidNotation(f"{quote(text)} is not a card")
                token = parse_token(text)
            except InvalidNotation as err:
                raise self.fail(name, f"holds a card that is not one: {err}") from None
            if format_token(token) != text:
                raise self.fail(name, f"writes {format_token(token)} as {quote(text)}")
            out.append(token)
        return tuple(out)

    def options(self) -> BeggarOptions:
        value = self.obj["options"]
        try:
            if not isinstance(value, dict):
                raise InvalidOption(f"options are a JSON object, got {quote(value)}")
            return typed_options(value)
        except InvalidOption as err:
            raise self.fail("options", f"is wrong: {err}") from None

    def cycle(self) -> Cycle | None:
        value = self.obj["cycle"]
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail("cycle", f"must be an object or null, got {quote(value)}")
        ints = [self.whole("cycle", value.get(k)) for k in _CYCLE_FIELDS]
        cycle = Cycle(*ints)
        if cycle.to_json() != value or cycle.length_cards < 1 or cycle.length_tricks < 1:
            raise self.fail("cycle", f"is not a cycle of M10: {quote(value)}")
        return cycle

    def table(self, full: bool) -> dict[str, Any]:
        """The fields states and views share, checked against each other."""
        pile = tuple(reversed(self.tokens("pile", self.obj["pile"])))
        if any(isinstance(t, RankClass) == full for t in pile):
            raise self.fail("pile", "mixes full cards and rank-only cards (M9)")
        owed = self.whole("owed", self.obj["owed"], high=4)
        court = self.seat("court_player", self.obj["court_player"], nullable=True)
        if (owed == 0) != (court is None):
            raise self.fail("court_player", "is set exactly while a payment is owed (M1, M2)")
        winners_json = self.obj["winners"]
        winners = None if winners_json is None else self.seats("winners")
        if self.flag("over") != (winners is not None):
            raise self.fail("over", "must be true exactly when 'winners' is set")
        to_move = self.seat("to_move", self.obj["to_move"], nullable=winners is not None)
        if winners is not None and to_move is not None:
            raise self.fail("to_move", "must be null once the game is over")
        out = self.seats("out")
        if to_move in out:
            raise self.fail("to_move", f"names seat {to_move}, which is out (M3)")
        if len(out) >= self.players:
            raise self.fail("out", "holds every seat; one player is always left (M6)")
        cycle = self.cycle()
        if cycle is not None and winners != ():
            raise self.fail("cycle", "is set only when a loop ended the game, with no winner")
        options = self.options()
        cards = self.whole("cards", self.obj["cards"])
        limit = options.card_limit
        if (
            winners is not None
            and cycle is None
            and len(out) < self.players - 1
            and (limit is None or cards < limit)
            and options.time_limit is None
        ):
            raise self.fail(
                "winners",
                "end a game with players still in only at the card limit (M11) or when the "
                "agreed time ran out (M12)",
            )
        return {
            "options": options,
            "pile": pile,
            "to_move": 0 if to_move is None else to_move,
            "owed": owed,
            "court": court,
            "out": out,
            "cards": cards,
            "tricks": self.whole("tricks", self.obj["tricks"]),
            "winners": winners,
            "cycle": cycle,
        }

    def history(
        self, hands: tuple[tuple[Token, ...], ...], at: dict[str, Any]
    ) -> tuple[History, int]:
        """M10: the positions of the line so far (the position on the table last when the game
        goes on from a trick boundary), as a new line and their number."""
        positions: list[Position] = []
        for i, item in enumerate(self.items("history", self.obj["history"])):
            name = f"history[{i}]"
            if not isinstance(item, dict) or set(item) != {"lead", "hands", "cards", "tricks"}:
                raise self.fail(name, "must be an object of lead, hands, cards and tricks")
            lead = self.seat(name, item["lead"], nullable=False)
            text = item["hands"]
            if not isinstance(text, str) or text.count("/") != self.players - 1:
                raise self.fail(name, f"hands must be {self.players} rank-only hands (M9)")
            if set(text) - set("AKQJ-/"):
                raise self.fail(name, f"hands must be rank-only hands of A K Q J - (M9): {text}")
            mark = (self.whole(name, item["cards"]), self.whole(name, item["tricks"]))
            if positions and mark <= (positions[-1].cards, positions[-1].tricks):
                raise self.fail(name, "must come after the position before it")
            positions.append(Position(f"{lead}|{text}", *mark))
        try:
            history = History(positions)
        except ValueError as err:
            raise self.fail("history", str(err)) from None
        boundary = at["winners"] is None and at["owed"] == 0 and not at["pile"]
        here = Position(position_key(hands, at["to_move"]), at["cards"], at["tricks"])
        if boundary and (not positions or positions[-1] != here):
            raise self.fail("history", "must end with the position on the table (M10)")
        return history, len(positions)


def read_state(obj: object) -> BeggarState:
    """The state that ``BeggarState.to_json`` wrote.

    Raises:
        InvalidRecord: naming the field that is missing or wrong.
    """
    read = _Reader(obj, "Beggar-My-Neighbour state", _STATE_FIELDS)
    hands_json = read.items("hands", read.obj["hands"])
    if not MIN_PLAYERS <= len(hands_json) <= MAX_PLAYERS:
        raise read.fail("hands", f"must hold {MIN_PLAYERS} to {MAX_PLAYERS} hands")
    read.players = len(hands_json)
    hands = tuple(read.tokens("hands", h) for h in hands_json)
    pile = read.tokens("pile", read.obj["pile"])
    full = any(isinstance(t, Card) for t in (*pile, *(t for h in hands for t in h)))
    at = read.table(full)
    if any(isinstance(t, RankClass) == full for h in hands for t in h):
        raise read.fail("hands", "mixes full cards and rank-only cards (M9)")
    try:
        check_one_deck((*hands, at["pile"]), full_cards=full)
    except InvalidNotation as err:
        raise read.fail("hands", f"and 'pile' must hold one deck: {err}") from None
    if any(hands[s] for s in at["out"]):
        raise read.fail("out", "names a seat that holds cards (M3, M5)")
    if at["winners"] is None and not hands[at["to_move"]]:
        raise read.fail("to_move", "names a seat with no card, who would be out (M3)")
    deal = tuple(read.tokens("deal", h) for h in read.items("deal", read.obj["deal"], read.players))
    if any(isinstance(t, RankClass) == full for h in deal for t in h):
        raise read.fail("deal", "must be in the notation of the hands (M9)")
    unseen = tuple(
        read.whole("unseen", v) for v in read.items("unseen", read.obj["unseen"], read.players)
    )
    if any(u > len(h) for u, h in zip(unseen, hands, strict=True)):
        raise read.fail("unseen", "counts more cards than a hand holds")
    history, known = read.history(hands, at)
    return BeggarState._make(
        deal=deal,
        full=full,
        hands=hands,
        unseen=unseen,
        history=history,
        known=known,
        turned=None,
        log=(),
        **at,
    )


def read_view(obj: object) -> BeggarView:
    """The view that ``BeggarView.to_json`` wrote.

    Raises:
        InvalidRecord: naming the field that is missing or wrong.
    """
    read = _Reader(obj, "Beggar-My-Neighbour view", _VIEW_FIELDS)
    read.players = read.whole("players", read.obj["players"], MIN_PLAYERS, MAX_PLAYERS)
    seat = read.seat("seat", read.obj["seat"], nullable=True)
    full = read.flag("full_cards")
    at = read.table(full)
    listed = read.items("hand_sizes", read.obj["hand_sizes"], read.players)
    sizes = tuple(read.whole("hand_sizes", v) for v in listed)
    if sum(sizes) + len(at["pile"]) != 52:
        raise read.fail("hand_sizes", "and the pile must hold the 52 cards of one deck (M9)")
    if any(sizes[s] for s in at["out"]):
        raise read.fail("out", "names a seat that holds cards (M3, M5)")
    return BeggarView(
        seat=seat,
        players=read.players,
        options=at["options"],
        full_cards=full,
        hand_sizes=sizes,
        pile=at["pile"],
        to_move=None if at["winners"] is not None else at["to_move"],
        owed=at["owed"],
        court_player=at["court"],
        out=at["out"],
        cards=at["cards"],
        tricks=at["tricks"],
        winners=at["winners"],
        cycle=at["cycle"],
    )
