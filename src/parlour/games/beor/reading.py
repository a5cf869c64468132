"""BEOR states and views read back from the JSON that ``to_json`` writes, checked where they
enter: each card of the deck once (B11), hands of 6 (B3, B8), bases that show their themes
(B2, B9), the top of a face-up stock known (B6), a seat to move with a legal play (B8).

Every refusal is an :class:`~parlour.errors.InvalidRecord` naming the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from parlour.cards import Card, parse_card
from parlour.core.inputs import quote
from parlour.core.record import check_format
from parlour.core.rng import check_seed
from parlour.errors import InvalidNotation, InvalidOption, InvalidRecord
from parlour.games.beor.deal import HAND_SIZE, deck_for
from parlour.games.beor.notation import BASES, shows_theme
from parlour.games.beor.options import options_from_json
from parlour.games.beor.rules import BeorState
from parlour.games.beor.turn import Known, held_mask, legal_of, mask_of
from parlour.games.beor.view import BeorView, StockView

__all__ = ["read_state", "read_view"]

_STATE_FIELDS = (
    "format", "to_move", "turn", "hands", "bases", "stocks", "scrap", "out", "winner", "result",
    "seed", "restocks", "options", "known_stocks", "known_in_hands", "known_scrap", "shown",
    "held",
)  # fmt: skip
_VIEW_FIELDS = (
    "format", "seat", "players", "options", "to_move", "turn", "hand", "hand_sizes",
    "known_in_hands", "bases", "stocks", "scrap_size", "known_scrap", "out", "winner", "result",
)  # fmt: skip
_RESULTS = (None, "win", "draw")


class _Doc:
    """One JSON object being read: ``what`` names it in messages (``BEOR state``)."""

    def __init__(self, obj: object, what: str, fields: tuple[str, ...]) -> None:
        self.obj = check_format(obj, what)
        self.what = what
        unknown = sorted(set(self.obj) - set(fields))
        if unknown:
            raise InvalidRecord(f"{what} has unknown field {quote(unknown[0])}")

    def where(self, name: str) -> str:
        return f"{self.what} field {quote(name)}"

    def get(self, name: str) -> Any:
        if name not in self.obj:
            raise InvalidRecord(f"{self.where(name)} is missing")
        return self.obj[name]

    def count(self, name: str) -> int:
        return self.whole(name, self.get(name))

    def whole(self, name: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidRecord(
                f"{self.where(name)} must be a whole number of at least 0, got {quote(value)}"
            )
        return value

    def seat(self, name: str, players: int, value: object, *, none: bool = False) -> int | None:
        if value is None and none:
            return None
        return self.one_seat(name, players, value, " or null" if none else "")

    def one_seat(self, name: str, players: int, value: object, also: str = "") -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            raise InvalidRecord(
                f"{self.where(name)} must be a seat from 0 to {players - 1}{also}, "
                f"got {quote(value)}"
            )
        return value

    def seats(self, name: str, players: int) -> tuple[int, ...]:
        value = self.get(name)
        if not isinstance(value, list):
            raise InvalidRecord(f"{self.where(name)} must be a list of seats")
        seats = tuple(self.one_seat(name, players, s) for s in value)
        if len(set(seats)) != len(seats):
            raise InvalidRecord(f"{self.where(name)} names a seat twice")
        return seats

    def cards(self, name: str, value: object, part: str = "") -> tuple[Card, ...]:
        where = self.where(name) + part
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise InvalidRecord(f'{where} must be a list of cards like ["AS", "TH"]')
        try:
            return tuple(parse_card(c) for c in value)
        except InvalidNotation as err:
            raise InvalidRecord(f"{where}: {err}") from None

    def per_seat(self, name: str, players: int) -> list[tuple[Card, ...]]:
        value = self.get(name)
        if not isinstance(value, list) or len(value) != players:
            raise InvalidRecord(f"{self.where(name)} must hold {players} lists, one per seat")
        return [self.cards(name, v, f" seat {seat}") for seat, v in enumerate(value)]

    def per_base(self, name: str) -> dict[str, Any]:
        value = self.get(name)
        if not isinstance(value, dict) or set(value) != set(BASES):
            raise InvalidRecord(f"{self.where(name)} must have exactly black, even, odd and red")
        return value

    def bases(self, skip_jokers: bool) -> tuple[tuple[Card, ...], ...]:
        """B2 and B9: each base pile holds a card that shows its theme (the one a restock
        keeps)."""
        piles = self.per_base("bases")
        bases = tuple(self.cards("bases", piles[n], f" {n}") for n in BASES)
        for i, pile in enumerate(bases):
            if not any(shows_theme(c, i, skip_jokers=skip_jokers) for c in pile):
                raise InvalidRecord(
                    f"{self.where('bases')} {BASES[i]} holds no card showing its theme (B2, B9)"
                )
        return bases

    def known_stock(self, name: str, base: str, value: object, size: int) -> Known:
        """Known stock cards as ``[{"position", "card"}]`` (position 0 is the top)."""
        where = f"{self.where(name)} {base}"
        if not isinstance(value, list):
            raise InvalidRecord(f"{where} must be a list of positions and cards")
        known: list[tuple[int, Card]] = []
        for entry in value:
            if not isinstance(entry, dict) or set(entry) != {"position", "card"}:
                raise InvalidRecord(f'{where} entries are {{"position": N, "card": "AS"}}')
            position = entry["position"]
            if isinstance(position, bool) or not isinstance(position, int):
                raise InvalidRecord(f"{where} position must be a whole number")
            if not 0 <= position < size:
                raise InvalidRecord(f"{where} position {position} is outside a stock of {size}")
            (card,) = self.cards(name, [entry["card"]], f" {base}")
            known.append((size - 1 - position, card))
        if len({k for k, _ in known}) != len(known):
            raise InvalidRecord(f"{where} names a position twice")
        return frozenset(known)

    def result(self, players: int) -> tuple[int | None, str | None]:
        winner = self.seat("winner", players, self.get("winner"), none=True)
        result = self.get("result")
        if result not in _RESULTS or (result == "win") != (winner is not None):
            raise InvalidRecord(
                f"{self.where('result')} must be null, win (with a winner) or draw (without), "
                f"got {quote(result)}"
            )
        return winner, result


def _once_each(places: Iterable[Iterable[Card]], deck: Iterable[Card], what: str) -> None:
    """No card in two places, and every card from ``deck`` (B11)."""
    counts = Counter(c for place in places for c in place)
    twice = [c for c, k in counts.items() if k > 1]
    if twice:
        raise InvalidRecord(f"{what} holds {twice[0]} in two places")
    extra = sorted(set(counts) - set(deck))
    if extra:
        raise InvalidRecord(
            f"{what} holds {extra[0]}, which its deck does not (Jokers only with an odd number "
            "of players, B11)"
        )


def read_state(obj: object) -> BeorState:
    """The state that ``BeorState.to_json`` wrote; it plays on exactly as the one written."""
    doc = _Doc(obj, "BEOR state", _STATE_FIELDS)
    options = options_from_json(doc.get("options"), doc.where("options"))
    hands_list = doc.get("hands")
    if not isinstance(hands_list, list) or not 2 <= len(hands_list) <= 5:
        raise InvalidRecord(f"{doc.where('hands')} must hold 2 to 5 hands")
    players = len(hands_list)
    hands = doc.per_seat("hands", players)
    bases = doc.bases(options.restock_skip_jokers)
    stock_obj = doc.per_base("stocks")
    stocks: list[tuple[Card, ...]] = []
    face_up: list[bool] = []
    for n in BASES:
        entry = stock_obj[n]
        if not isinstance(entry, dict) or set(entry) != {"cards", "face_up"}:
            raise InvalidRecord(f"{doc.where('stocks')} {n} must be {{cards, face_up}}")
        if not isinstance(entry["face_up"], bool):
            raise InvalidRecord(f"{doc.where('stocks')} {n} face_up must be true or false")
        stocks.append(doc.cards("stocks", entry["cards"], f" {n}"))
        face_up.append(entry["face_up"])
    scrap = doc.cards("scrap", doc.get("scrap"))
    deck = deck_for(players)
    _once_each([*hands, *bases, *stocks, scrap], deck, "BEOR state")
    missing = [c for c in deck if not any(c in p for p in (*hands, *bases, *stocks, scrap))]
    if missing:
        raise InvalidRecord(f"BEOR state is missing {missing[0]} (B11)")

    out = doc.seats("out", players)
    for seat, hand in enumerate(hands):
        size = HAND_SIZE if seat not in out or players == 2 else 0
        if len(hand) != size:
            raise InvalidRecord(
                f"{doc.where('hands')} seat {seat} holds {len(hand)} cards, not {size} (B3, B8)"
            )
    known_obj = doc.per_base("known_stocks")
    known = tuple(
        doc.known_stock("known_stocks", n, known_obj[n], len(st))
        for n, st in zip(BASES, stocks, strict=True)
    )
    for n, st, up, k in zip(BASES, stocks, face_up, known, strict=True):
        if any(st[len(st) - 1 - offset] != card for offset, card in k):
            raise InvalidRecord(f"{doc.where('known_stocks')} {n} disagrees with the stock")
        if up and st and (len(st) - 1, st[0]) not in k:
            raise InvalidRecord(
                f"{doc.where('known_stocks')} {n} must hold the top of a face-up stock (B6)"
            )
    known_hands = doc.per_seat("known_in_hands", players)
    for seat, (in_hand, hand) in enumerate(zip(known_hands, hands, strict=True)):
        if not set(in_hand) <= set(hand):
            raise InvalidRecord(f"{doc.where('known_in_hands')} seat {seat} is not in the hand")
    known_scrap = doc.cards("known_scrap", doc.get("known_scrap"))
    if not set(known_scrap) <= set(scrap):
        raise InvalidRecord(f"{doc.where('known_scrap')} is not in the scrap pile")
    shown = doc.cards("shown", doc.get("shown"))
    public = [*(c for b in bases for c in b), *(c for k in known for _, c in k), *known_scrap]
    public += [c for k in known_hands for c in k]
    if not set(public) <= set(shown):
        raise InvalidRecord(f"{doc.where('shown')} must hold every card in sight (B6)")
    held = doc.per_seat("held", players)
    for seat, (cards, hand) in enumerate(zip(held, hands, strict=True)):
        if not set(hand) <= set(cards):
            raise InvalidRecord(f"{doc.where('held')} seat {seat} must hold the seat's hand")
    _once_each([shown], deck, "BEOR state field 'shown'")
    for seat, cards in enumerate(held):
        _once_each([cards], deck, f"BEOR state field 'held' seat {seat}")

    winner, result = doc.result(players)
    to_move = doc.seat("to_move", players, doc.get("to_move"), none=result is not None)
    if result is None:
        if to_move in out or winner is not None:
            raise InvalidRecord(f"{doc.where('to_move')} must be a seat still in the game")
        if to_move is None or not legal_of(hands[to_move], stocks):
            raise InvalidRecord(f"{doc.where('to_move')} has no legal play: he has lost (B8)")
    elif to_move is not None:
        raise InvalidRecord(f"{doc.where('to_move')} must be null once the game is over")
    turn = doc.count("turn")
    if result is None and turn >= options.max_turns:
        raise InvalidRecord(f"{doc.where('turn')} reached max_turns: the game is a draw (B10)")
    try:
        seed = check_seed(doc.get("seed"), field=doc.where("seed"))
    except InvalidOption as err:
        raise InvalidRecord(str(err)) from None
    return BeorState._make(
        options=options,
        seed=seed,
        restocks=doc.count("restocks"),
        hands=tuple(hands),
        bases=bases,
        stocks=tuple(stocks),
        face_up=tuple(face_up),
        known=known,
        known_hands=tuple(frozenset(k) for k in known_hands),
        scrap=scrap,
        known_scrap=frozenset(known_scrap),
        shown=mask_of(shown),
        held=held_mask(held),
        out=out,
        to_move=0 if to_move is None else to_move,
        turn=turn,
        winner=winner,
        result=result,
    )


def read_view(obj: object) -> BeorView:
    """The view that ``BeorView.to_json`` wrote; an equal view."""
    doc = _Doc(obj, "BEOR view", _VIEW_FIELDS)
    players = doc.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InvalidRecord(f"{doc.where('players')} must be 2 to 5, got {quote(players)}")
    seat = doc.seat("seat", players, doc.get("seat"), none=True)
    options = options_from_json(doc.get("options"), doc.where("options"))
    hand_obj = doc.get("hand")
    if (hand_obj is None) != (seat is None):
        raise InvalidRecord(f"{doc.where('hand')} is null exactly for a spectator (seat null)")
    hand = None if hand_obj is None else doc.cards("hand", hand_obj)
    sizes_obj = doc.get("hand_sizes")
    if not isinstance(sizes_obj, list) or len(sizes_obj) != players:
        raise InvalidRecord(f"{doc.where('hand_sizes')} must hold {players} sizes")
    hand_sizes = tuple(doc.whole("hand_sizes", s) for s in sizes_obj)
    if any(s > HAND_SIZE for s in hand_sizes):
        raise InvalidRecord(f"{doc.where('hand_sizes')} must be at most {HAND_SIZE} (B3)")
    if hand is not None and seat is not None and len(hand) != hand_sizes[seat]:
        raise InvalidRecord(f"{doc.where('hand')} does not hold hand_sizes[{seat}] cards")
    known_hands = doc.per_seat("known_in_hands", players)
    for s, k in enumerate(known_hands):
        if len(k) > hand_sizes[s] or (s == seat and hand is not None and not set(k) <= set(hand)):
            raise InvalidRecord(f"{doc.where('known_in_hands')} seat {s} is not in the hand")
    bases = doc.bases(options.restock_skip_jokers)
    stock_obj = doc.per_base("stocks")
    stocks: list[StockView] = []
    for n in BASES:
        entry = stock_obj[n]
        if not isinstance(entry, dict) or set(entry) != {"size", "face_up", "top", "known"}:
            raise InvalidRecord(f"{doc.where('stocks')} {n} must be {{size, face_up, top, known}}")
        if not isinstance(entry["face_up"], bool):
            raise InvalidRecord(f"{doc.where('stocks')} {n} face_up must be true or false")
        size = doc.whole("stocks", entry["size"])
        known = doc.known_stock("stocks", n, entry["known"], size)
        order = [size - 1 - e["position"] for e in entry["known"]]
        by_offset = dict(known)
        stock = StockView(size, entry["face_up"], tuple((k, by_offset[k]) for k in order))
        top = stock.top
        if entry["top"] != (None if top is None else str(top)) or (
            stock.face_up and size and top is None
        ):
            raise InvalidRecord(f"{doc.where('stocks')} {n} top must be the known top (B6)")
        stocks.append(stock)
    known_scrap = doc.cards("known_scrap", doc.get("known_scrap"))
    scrap_size = doc.count("scrap_size")
    if len(known_scrap) > scrap_size:
        raise InvalidRecord(f"{doc.where('scrap_size')} is smaller than the scrap known")
    out = doc.seats("out", players)
    others = [k for s, k in enumerate(known_hands) if s != seat]
    stock_cards = [[c for _, c in st.known] for st in stocks]
    _once_each(
        [*bases, hand or (), *others, *stock_cards, known_scrap], deck_for(players), "BEOR view"
    )
    winner, result = doc.result(players)
    to_move = doc.seat("to_move", players, doc.get("to_move"), none=True)
    if (to_move is None) != (result is not None):
        raise InvalidRecord(f"{doc.where('to_move')} is null exactly once the game is over")
    return BeorView(
        seat=seat,
        players=players,
        options=options,
        to_move=to_move,
        turn=doc.count("turn"),
        hand=hand,
        hand_sizes=hand_sizes,
        known_in_hands=tuple(known_hands),
        bases=bases,
        stocks=tuple(stocks),
        scrap_size=scrap_size,
        known_scrap=known_scrap,
        out=out,
        winner=winner,
        result=result,
    )
