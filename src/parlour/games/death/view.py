"""What one seat may know in the Game of Death (RULINGS "Public information"), and the readers
of Game of Death JSON that views and states share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.cards import Card, Rank, Suit, parse_card
from parlour.core.game import FORMAT, JSON, View
from parlour.core.inputs import quote
from parlour.core.options import validate_options
from parlour.core.record import check_format
from parlour.errors import InvalidNotation, InvalidRecord, ParlourError
from parlour.games.death.notation import card_texts
from parlour.games.death.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_SPECS,
    DeathOptions,
    typed_options,
)

__all__ = ["DeathView", "Fields"]

_SUITS = {s.value: s for s in Suit}
_SUIT_TEXT = {s: s.value for s in Suit}
_RANKS = frozenset(int(r) for r in Rank if r != Rank.JOKER)


@dataclass(frozen=True, slots=True)
class DeathView(View):
    """Own hand, the pile (and who threw each card), the cards swept so far, hand sizes, drinks
    taken and given, the give in progress, who passed since the last throw, the first player
    out, sober flags, and what passes showed: a player who passed on a card holds no card of
    its suit or rank (hands never grow, so that stays true).

    ``known_in_hands`` lists, per seat, the cards the rules have made public in that hand: 2♦
    until it is thrown (G1: its holder starts), a card shown in an illegal throw until it is
    thrown (G13), and at the end every hand, shown for the hand penalty (G11)."""

    seat: int | None
    players: int
    options: DeathOptions
    to_move: int | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    pile: tuple[Card, ...]
    pile_seats: tuple[int, ...]
    swept: tuple[Card, ...]
    drinks_taken: tuple[int, ...]
    drinks_given: tuple[int, ...]
    pending_give: tuple[int, int] | None
    passed: frozenset[int]
    last_thrower: int | None
    first_out: int | None
    void_suits: tuple[frozenset[Suit], ...]
    void_ranks: tuple[frozenset[int], ...]
    over: bool
    started: bool
    known_in_hands: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "seat": self.seat,
            "players": self.players,
            "to_move": self.to_move,
            "hand": None if self.hand is None else card_texts(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "pile": card_texts(reversed(self.pile)),
            "pile_seats": list(reversed(self.pile_seats)),
            "swept": card_texts(self.swept),
            "drinks_taken": list(self.drinks_taken),
            "drinks_given": list(self.drinks_given),
            "pending_give": None
            if self.pending_give is None
            else {"seat": self.pending_give[0], "drinks": self.pending_give[1]},
            "passed": sorted(self.passed),
            "last_thrower": self.last_thrower,
            "first_out": self.first_out,
            "sober": [s + 1 for s in sorted(self.options.sober)],
            "voids": voids_json(self.void_suits, self.void_ranks),
            "known_in_hands": [card_texts(cards) for cards in self.known_in_hands],
            "options": self.options.to_json(),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, obj: object) -> DeathView:
        """The view :meth:`to_json` wrote.

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """
        f = Fields(obj, "Game of Death view")
        players = f.int_in("players", MIN_PLAYERS, MAX_PLAYERS)
        options = f.options(players)
        if f.raw("sober") != options.to_json()["sober"]:
            raise InvalidRecord("Game of Death view field 'sober' must match its options (G14)")
        seat = f.seat("seat", players, nullable=True)
        hand = f.hand("hand")
        if (hand is None) != (seat is None):
            raise InvalidRecord("Game of Death view field 'hand' is null only for a spectator")
        pile = f.cards("pile")
        swept = f.cards("swept")
        suits, ranks = f.voids(players)
        view = cls(
            seat=seat,
            players=players,
            options=options,
            to_move=f.seat("to_move", players, nullable=True),
            hand=hand,
            hand_sizes=f.counts("hand_sizes", players),
            pile=tuple(reversed(pile)),
            pile_seats=tuple(reversed(f.seat_list("pile_seats", players, len(pile)))),
            swept=swept,
            drinks_taken=f.counts("drinks_taken", players),
            drinks_given=f.counts("drinks_given", players),
            pending_give=f.pending(players),
            passed=frozenset(f.seat_list("passed", players)),
            last_thrower=f.seat("last_thrower", players, nullable=True),
            first_out=f.seat("first_out", players, nullable=True),
            void_suits=suits,
            void_ranks=ranks,
            over=f.flag("over"),
            started=bool(pile or swept),
            known_in_hands=f.hands("known_in_hands", players),
        )
        f.check_canonical(view.to_json())
        view._check()
        return view

    def _check(self) -> None:
        """What a view read from JSON must hold for ``sample`` to deal hands that agree."""
        what = "Game of Death view"
        if sum(self.hand_sizes) + len(self.pile) + len(self.swept) != 52:
            raise InvalidRecord(
                f"{what} fields 'hand_sizes', 'pile' and 'swept' must hold the 52 cards (G1)"
            )
        own = self.hand or ()
        if self.seat is not None and len(own) != self.hand_sizes[self.seat]:
            raise InvalidRecord(f"{what} fields 'hand' and 'hand_sizes' disagree")
        others = [c for s, k in enumerate(self.known_in_hands) if s != self.seat for c in k]
        seen = [*own, *self.pile, *self.swept, *others]
        if len(set(seen)) != len(seen):
            raise InvalidRecord(
                f"{what} fields 'hand', 'pile', 'swept' and 'known_in_hands' list a card twice"
            )
        for seat, known in enumerate(self.known_in_hands):
            if len(known) > self.hand_sizes[seat] or (
                seat == self.seat and not set(known) <= set(own)
            ):
                raise InvalidRecord(
                    f"{what} field 'known_in_hands' lists more than hand {seat + 1} holds"
                )


def voids_json(suits: tuple[frozenset[Suit], ...], ranks: tuple[frozenset[int], ...]) -> list[JSON]:
    """What each seat's passes showed he lacks (G2), as JSON."""
    return [
        {"suits": sorted(_SUIT_TEXT[s] for s in seat_suits), "ranks": sorted(seat_ranks)}
        for seat_suits, seat_ranks in zip(suits, ranks, strict=True)
    ]


MAX_COUNT = 2**31 - 1
"""The largest count (cards held, drinks) a view read from JSON may give."""


class Fields:
    """Reads the fields of a Game of Death state or view in JSON; every refusal is an
    :class:`InvalidRecord` naming the field. Lists come as written (a pile top card first);
    callers turn them round where they keep them the other way."""

    def __init__(self, obj: object, what: str) -> None:
        self.obj: dict[str, Any] = check_format(obj, what)
        self.what = what

    def _bad(self, name: str, wanted: str) -> InvalidRecord:
        value = self.obj.get(name)
        return InvalidRecord(
            f"{self.what} field {quote(name)} must be {wanted}, got {quote(value)}"
        )

    def raw(self, name: str) -> object:
        if name not in self.obj:
            raise InvalidRecord(f"{self.what} has no {quote(name)} field")
        return self.obj[name]

    def int_in(self, name: str, low: int, high: int) -> int:
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self._bad(name, f"a whole number from {low} to {high}")
        return value

    def flag(self, name: str) -> bool:
        value = self.raw(name)
        if not isinstance(value, bool):
            raise self._bad(name, "true or false")
        return value

    def seat(self, name: str, players: int, *, nullable: bool = False) -> int | None:
        value = self.raw(name)
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            raise self._bad(name, f"a seat from 0 to {players - 1}" + (" or null" * nullable))
        return value

    def seat_list(self, name: str, players: int, length: int | None = None) -> tuple[int, ...]:
        """Seats as written; ``length`` of them when given."""
        value = self.raw(name)
        if (
            not isinstance(value, list)
            or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in value
            )
            or (length is not None and len(value) != length)
        ):
            many = "" if length is None else f"{length} "
            raise self._bad(name, f"a list of {many}seats from 0 to {players - 1}")
        return tuple(value)

    def counts(self, name: str, players: int) -> tuple[int, ...]:
        value = self.raw(name)
        if (
            not isinstance(value, list)
            or len(value) != players
            or not all(
                isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= MAX_COUNT
                for k in value
            )
        ):
            raise self._bad(name, f"a list of {players} whole numbers from 0 to {MAX_COUNT}")
        return tuple(value)

    def _card_list(self, name: str, value: object) -> tuple[Card, ...]:
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise InvalidRecord(
                f'{self.what} field {quote(name)} must be a list of cards like ["AS"]'
            )
        try:
            cards = tuple(parse_card(c) for c in value)
        except InvalidNotation as err:
            raise InvalidRecord(f"{self.what} field {quote(name)}: {err}") from None
        if any(c.rank == Rank.JOKER for c in cards) or len(set(cards)) != len(cards):
            raise InvalidRecord(
                f"{self.what} field {quote(name)} must list different cards of the 52 (G1)"
            )
        return cards

    def cards(self, name: str) -> tuple[Card, ...]:
        """A list of cards, as written."""
        return self._card_list(name, self.raw(name))

    def hand(self, name: str) -> tuple[Card, ...] | None:
        """A list of cards or null."""
        value = self.raw(name)
        return None if value is None else self._card_list(name, value)

    def hands(self, name: str, players: int) -> tuple[tuple[Card, ...], ...]:
        """One list of cards a seat, as written."""
        value = self.raw(name)
        if not isinstance(value, list) or len(value) != players:
            raise self._bad(name, f"a list of {players} lists of cards")
        return tuple(self._card_list(f"{name}[{k}]", cards) for k, cards in enumerate(value))

    def check_canonical(self, written: dict[str, JSON]) -> None:
        """The object must be what Parlour writes for the value read from it (sorted hands
        and sets, no extra field), so that JSON round trips are exact."""
        for name in self.obj:
            if name not in written:
                raise InvalidRecord(f"{self.what} has unknown field {quote(name)}")
        for name, value in written.items():
            if self.obj.get(name, value) != value:
                raise InvalidRecord(
                    f"{self.what} field {quote(name)} is not as Parlour writes it: "
                    f"expected {quote(value)}"
                )

    def pending(self, players: int) -> tuple[int, int] | None:
        value = self.raw("pending_give")
        if value is None:
            return None
        if (
            not isinstance(value, dict)
            or set(value) != {"seat", "drinks"}
            or isinstance(value["seat"], bool)
            or not isinstance(value["seat"], int)
            or not 0 <= value["seat"] < players
            or isinstance(value["drinks"], bool)
            or not isinstance(value["drinks"], int)
            or not 1 <= value["drinks"] <= 20
        ):
            raise self._bad("pending_give", '{"seat": SEAT, "drinks": 1 to 20} or null (G5)')
        return value["seat"], value["drinks"]

    def voids(self, players: int) -> tuple[tuple[frozenset[Suit], ...], tuple[frozenset[int], ...]]:
        value = self.raw("voids")
        wanted = f'a list of {players} {{"suits": ["S", ...], "ranks": [1 to 13, ...]}}'
        if not isinstance(value, list) or len(value) != players:
            raise self._bad("voids", wanted)
        suits, ranks = [], []
        for entry in value:
            if (
                not isinstance(entry, dict)
                or set(entry) != {"suits", "ranks"}
                or not isinstance(entry["suits"], list)
                or not isinstance(entry["ranks"], list)
                or not all(isinstance(s, str) and s in _SUITS for s in entry["suits"])
                or not all(
                    isinstance(r, int) and not isinstance(r, bool) and r in _RANKS
                    for r in entry["ranks"]
                )
            ):
                raise self._bad("voids", wanted)
            suits.append(frozenset(_SUITS[s] for s in entry["suits"]))
            ranks.append(frozenset(entry["ranks"]))
        return tuple(suits), tuple(ranks)

    def options(self, players: int) -> DeathOptions:
        value = self.raw("options")
        if not isinstance(value, dict):
            raise self._bad("options", "an object of the game's options")
        try:
            return typed_options(validate_options("death", OPTION_SPECS, value), players)
        except ParlourError as err:
            raise InvalidRecord(f"{self.what} field 'options': {err}") from None
