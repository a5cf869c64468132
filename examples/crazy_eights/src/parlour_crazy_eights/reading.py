"""Crazy Eights states, views and deals read back from JSON, checked where they enter: the 52
cards once each, a discard pile to play on, a suit to follow, counts within the rules.

Every refusal is an :class:`~parlour.errors.InvalidRecord` naming the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from parlour.cards import Card, Rank, Suit, parse_card
from parlour.core.inputs import quote
from parlour.core.record import check_format
from parlour.errors import InvalidNotation, InvalidRecord
from parlour_crazy_eights.deal import Deal, hand_size, sort_hand
from parlour_crazy_eights.notation import CARDS, SUIT_NAMES
from parlour_crazy_eights.options import Options, options_from_json
from parlour_crazy_eights.rules import C8State
from parlour_crazy_eights.view import PHASES, RESULTS, C8View

__all__ = ["parse_deal", "read_state", "read_view"]

_STATE_FIELDS = (
    "format", "options", "dealer", "to_move", "phase", "hands", "stock", "discard", "suit",
    "turned", "draws", "passes", "plays", "result",
)  # fmt: skip
_VIEW_FIELDS = (
    "format", "seat", "players", "options", "dealer", "to_move", "phase", "hand", "hand_sizes",
    "stock_size", "discard", "suit", "turned", "draws", "passes", "plays", "result", "hands",
)  # fmt: skip
_DEAL_FIELDS = ("dealer", "hands", "turned", "starter", "stock")
_SUITS = {name: suit for suit, name in SUIT_NAMES.items()}


class _Doc:
    """One JSON object being read: ``what`` names it in messages."""

    def __init__(self, obj: object, what: str, fields: tuple[str, ...]) -> None:
        self.obj = check_format(obj, what)
        self.what = what
        unknown = sorted(set(self.obj) - set(fields) - {"format"})
        if unknown:
            raise InvalidRecord(f"{what} has unknown field {quote(unknown[0])}")

    def where(self, name: str) -> str:
        return f"{self.what} field {quote(name)}"

    def get(self, name: str) -> Any:
        if name not in self.obj:
            raise InvalidRecord(f"{self.where(name)} is missing")
        return self.obj[name]

    def whole(self, name: str, low: int, high: int, value: object = None) -> int:
        value = self.get(name) if value is None else value
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRecord(
                f"{self.where(name)} must be a whole number from {low} to {high}, "
                f"got {quote(value)}"
            )
        return value

    def seat(self, name: str, players: int, *, none: bool = False) -> int | None:
        value = self.get(name)
        if value is None and none:
            return None
        if value is None:
            raise InvalidRecord(f"{self.where(name)} must be a seat, got null")
        return self.whole(name, 0, players - 1, value)

    def choice(self, name: str, choices: tuple[str | None, ...]) -> Any:
        value = self.get(name)
        if value not in choices or isinstance(value, bool):
            shown = ", ".join("null" if c is None else c for c in choices)
            raise InvalidRecord(f"{self.where(name)} must be one of {shown}, got {quote(value)}")
        return value

    def cards(self, name: str, value: object = None, part: str = "") -> tuple[Card, ...]:
        value = self.get(name) if value is None else value
        where = self.where(name) + part
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise InvalidRecord(f'{where} must be a list of cards like ["AS", "TH"]')
        try:
            cards = tuple(parse_card(c) for c in value)
        except InvalidNotation as err:
            raise InvalidRecord(f"{where}: {err}") from None
        if any(c.is_joker for c in cards):
            raise InvalidRecord(f"{where}: Crazy Eights is played without Jokers")
        return cards

    def per_seat(self, name: str, low: int = 2, high: int = 5) -> tuple[tuple[Card, ...], ...]:
        value = self.get(name)
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise InvalidRecord(f"{self.where(name)} must hold {low} to {high} hands")
        return tuple(sort_hand(self.cards(name, v, f" seat {s}")) for s, v in enumerate(value))

    def suit(self) -> Suit:
        return _SUITS[self.choice("suit", tuple(_SUITS))]

    def turned(self) -> tuple[Card, ...]:
        turned = self.cards("turned")
        if any(c.rank is not Rank.EIGHT for c in turned):
            raise InvalidRecord(f"{self.where('turned')} holds only 8s")
        return turned


def _once_each(places: Iterable[Iterable[Card]], what: str, *, every: bool) -> None:
    """No card in two places (and, when ``every``, each of the 52 somewhere)."""
    counts = Counter(c for place in places for c in place)
    twice = [c for c, k in counts.items() if k > 1]
    if twice:
        raise InvalidRecord(f"{what} holds {twice[0]} in two places")
    if every and len(counts) != len(CARDS):
        missing = next(c for c in CARDS if c not in counts)
        raise InvalidRecord(f"{what} is missing {missing}: the 52 cards are each somewhere")


def _discard(doc: _Doc) -> tuple[Card, ...]:
    discard = doc.cards("discard")
    if not discard:
        raise InvalidRecord(f"{doc.where('discard')} holds at least the starter")
    return discard


def _play_fields(doc: _Doc, players: int, options: Options) -> tuple[str, int, int, int]:
    """The phase, draws, passes and cards played."""
    phase = doc.choice("phase", PHASES)
    draws = doc.whole("draws", 0, options.max_draw_cards)
    passes = doc.whole("passes", 0, players + 1)
    plays = doc.whole("plays", 0, options.max_turns)
    return phase, draws, passes, plays


def _check_play(
    doc: _Doc, result: str | None, hands: tuple[tuple[Card, ...], ...], phase: str, top: Card
) -> None:
    if phase == "nominate" and (result is not None or top.rank is not Rank.EIGHT):
        raise InvalidRecord(f"{doc.where('phase')}: a suit is named only after an 8, in play")
    if (result == "win") != any(not h for h in hands):
        raise InvalidRecord(f"{doc.where('result')}: a game is won exactly when a hand is empty")


def read_state(obj: object) -> C8State:
    """The state :meth:`C8State.to_json` wrote; it plays on exactly as the one written."""
    doc = _Doc(obj, "Crazy Eights state", _STATE_FIELDS)
    options = options_from_json(doc.get("options"), doc.where("options"))
    hands = doc.per_seat("hands")
    players = len(hands)
    dealer = doc.seat("dealer", players)
    stock, discard, turned = doc.cards("stock"), _discard(doc), doc.turned()
    _once_each([*hands, stock, discard], "Crazy Eights state", every=True)
    phase, draws, passes, plays = _play_fields(doc, players, options)
    result = doc.choice("result", RESULTS)
    to_move = doc.seat("to_move", players, none=True)
    if (to_move is None) != (result is not None):
        raise InvalidRecord(f"{doc.where('to_move')} is null exactly when the game is over")
    _check_play(doc, result, hands, phase, discard[-1])
    assert dealer is not None
    return C8State._make(
        options, dealer, hands, stock, discard, doc.suit(), turned, to_move or 0, phase, draws,
        passes, plays, result,
    )  # fmt: skip


def read_view(obj: object) -> C8View:
    """The view :meth:`C8View.to_json` wrote (the game checks a deal gives it)."""
    doc = _Doc(obj, "Crazy Eights view", _VIEW_FIELDS)
    players = doc.whole("players", 2, 5)
    seat = doc.seat("seat", players, none=True)
    options = options_from_json(doc.get("options"), doc.where("options"))
    dealer = doc.seat("dealer", players)
    sizes = doc.get("hand_sizes")
    if not isinstance(sizes, list) or len(sizes) != players:
        raise InvalidRecord(f"{doc.where('hand_sizes')} must hold {players} numbers")
    hand_sizes = tuple(doc.whole("hand_sizes", 0, 52, k) for k in sizes)
    raw_hand = doc.get("hand")
    hand = None if raw_hand is None else sort_hand(doc.cards("hand"))
    if (hand is None) != (seat is None):
        raise InvalidRecord(f"{doc.where('hand')} is null exactly for the spectator")
    hands = None if doc.get("hands") is None else doc.per_seat("hands", players, players)
    discard, turned = _discard(doc), doc.turned()
    phase, draws, passes, plays = _play_fields(doc, players, options)
    result = doc.choice("result", RESULTS)
    to_move = doc.seat("to_move", players, none=True)
    if (to_move is None) != (result is not None) or (hands is None) != (result is None):
        raise InvalidRecord(f"{doc.what}: to_move and hands say differently whether it is over")
    if hands is not None:
        _check_play(doc, result, hands, phase, discard[-1])
        if seat is not None and hand != hands[seat]:
            raise InvalidRecord(f"{doc.where('hand')} is the seat's hand among the hands shown")
    held = (hand or (),) if hands is None else hands
    _once_each([*held, discard], "Crazy Eights view", every=False)
    assert dealer is not None
    return C8View(
        seat=seat, players=players, options=options, dealer=dealer, to_move=to_move,
        phase=phase, hand=hand, hand_sizes=hand_sizes, stock_size=doc.whole("stock_size", 0, 52),
        discard=discard, suit=doc.suit(), turned=turned, draws=draws, passes=passes, plays=plays,
        result=result, hands=hands,
    )  # fmt: skip


def parse_deal(obj: object, players: int) -> Deal:
    """A deal in the game's deal notation: ``{"dealer", "hands", "turned", "starter",
    "stock"}`` (hands one list a seat, the stock top card first), as the state's fields write
    cards.

    Raises:
        InvalidRecord: naming the field at fault.
    """
    if not isinstance(obj, dict):
        raise InvalidRecord(f"a Crazy Eights deal is an object with {', '.join(_DEAL_FIELDS)}")
    doc = _Doc(obj, "Crazy Eights deal", _DEAL_FIELDS)
    hands = doc.per_seat("hands", players, players)
    if any(len(h) != hand_size(players) for h in hands):
        raise InvalidRecord(f"{doc.where('hands')}: {hand_size(players)} cards each")
    raw = doc.get("starter")
    if not isinstance(raw, str):
        raise InvalidRecord(f'{doc.where("starter")} must be a card like "7H"')
    (starter,) = doc.cards("starter", [raw])
    stock, turned = doc.cards("stock"), doc.turned()
    _once_each([*hands, (starter,), stock], "Crazy Eights deal", every=True)
    if starter.rank is Rank.EIGHT or not set(turned) <= set(stock):
        raise InvalidRecord(f"{doc.what}: the starter is no 8, and the 8s turned are in the stock")
    dealer = doc.seat("dealer", players)
    assert dealer is not None
    return Deal(dealer, hands, turned, starter, stock)
