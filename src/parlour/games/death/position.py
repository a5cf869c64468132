"""A Game of Death position: everything on the table, as plain values, and what follows from
it alone: the legal actions (G1, G2, G5), the result (G12), what each seat may see (G11, G13)
and the position's JSON.

:class:`~parlour.games.death.rules.DeathState` wraps one with the game line that led to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import NamedTuple

from parlour.cards import Card, Rank, Suit
from parlour.core.game import FORMAT, JSON, Action, Outcome
from parlour.errors import InvalidNotation, InvalidRecord
from parlour.games.death.notation import (
    GIVES,
    PASS,
    THROWS,
    card_texts,
    check_deck,
    is_black_face,
)
from parlour.games.death.options import MAX_PLAYERS, MIN_PLAYERS, DeathOptions
from parlour.games.death.view import DeathView, Fields, voids_json

__all__ = ["TWO_OF_DIAMONDS", "Position", "g12_returns", "g12_winners"]

TWO_OF_DIAMONDS = Card(Rank.TWO, Suit.DIAMONDS)
_CODE = attrgetter("code")


def g12_winners(taken: Sequence[int]) -> tuple[int, ...]:
    """G12: the seats that took the fewest drinks."""
    fewest = min(taken)
    return tuple(s for s, t in enumerate(taken) if t == fewest)


def g12_returns(taken: Sequence[int]) -> tuple[float, ...]:
    """G12's returns: the winners share 1 (ties share), the others get 0."""
    winners = g12_winners(taken)
    return tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(taken)))


class Position(NamedTuple):
    """The table: hands (as dealt, less what was thrown), the pile and who threw each card
    (top card last), the cards swept, drinks taken and given, the give in progress (giver,
    drinks left, G5), the seat to move (``None`` once over), the last thrower and who passed
    since (G9), the first player out (G10), what passes showed each seat lacks (G2), the cards
    known to be in each hand (G13) and whether the game is over.

    Immutable like every value of a state; a named tuple rather than a frozen dataclass
    because every step of every game and rollout builds one, and a tuple builds eight times
    faster."""

    options: DeathOptions
    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    pile_seats: tuple[int, ...]
    swept: tuple[Card, ...]
    taken: tuple[int, ...]
    given: tuple[int, ...]
    pending: tuple[int, int] | None
    to_move: int | None
    last_thrower: int | None
    passed: frozenset[int]
    first_out: int | None
    void_suits: tuple[frozenset[Suit], ...]
    void_ranks: tuple[frozenset[int], ...]
    known: tuple[frozenset[Card], ...]
    over: bool

    @classmethod
    def start(cls, hands: tuple[tuple[Card, ...], ...], options: DeathOptions) -> Position:
        """The start of a deal: G1, the holder of 2♦ is to throw it, so everyone knows where
        2♦ is."""
        n = len(hands)
        first = next(s for s, h in enumerate(hands) if TWO_OF_DIAMONDS in h)
        return cls(
            options=options,
            hands=hands,
            pile=(),
            pile_seats=(),
            swept=(),
            taken=(0,) * n,
            given=(0,) * n,
            pending=None,
            to_move=first,
            last_thrower=None,
            passed=frozenset(),
            first_out=None,
            void_suits=(frozenset(),) * n,
            void_ranks=(frozenset(),) * n,
            known=tuple(
                frozenset({TWO_OF_DIAMONDS}) if s == first else frozenset() for s in range(n)
            ),
            over=False,
        )

    @property
    def started(self) -> bool:
        """Whether 2♦ has been thrown (G1)."""
        return bool(self.pile or self.swept)

    def legal_actions(self) -> tuple[Action, ...]:
        """G5: while drinks are owed, the gives of 1 to all that is left to each other player;
        G1: 2♦ first; G2: a card of the top card's suit or rank, any card on a new lead, a
        pass with none. Only while the game is on."""
        p = self.to_move
        assert p is not None
        if self.pending is not None:
            left = self.pending[1]
            return tuple(
                GIVES[k][s] for s in range(len(self.hands)) if s != p for k in range(1, left + 1)
            )
        if not self.started:
            return (THROWS[TWO_OF_DIAMONDS],)
        hand = sorted(self.hands[p], key=_CODE)
        if not self.pile:
            return tuple(THROWS[c] for c in hand)
        top = self.pile[-1]
        suit, rank = top.suit, top.rank
        follows = [THROWS[c] for c in hand if c.suit is suit or c.rank is rank]
        return tuple(follows) if follows else (PASS,)

    def outcome(self) -> Outcome | None:
        """G12: drinks taken and given; the winners took the fewest (ties share)."""
        if not self.over:
            return None
        taken = self.taken
        winners = g12_winners(taken)
        return Outcome(
            result="end",
            winners=winners,
            ranks=tuple(1 + sum(o < t for o in taken) for t in taken),
            returns=g12_returns(taken),
            scores=taken,
            details={
                "drinks_taken": list(taken),
                "drinks_given": list(self.given),
                "first_out": self.first_out,
            },
        )

    def shown(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of each hand the rules have made public: 2♦ before it is thrown (G1), a
        card shown in an illegal throw, until thrown (G13); at the end every hand, shown for
        the hand penalty (G11)."""
        if self.over:
            return tuple(tuple(sorted(h)) for h in self.hands)
        return tuple(tuple(sorted(k)) if k else () for k in self.known)

    def hidden_from(self, seat: int | None) -> frozenset[str]:
        """The cards in other seats' hands that the rules have not made public (G11, G13)."""
        if self.over:
            return frozenset()
        return frozenset(
            card_texts(
                c
                for s, hand in enumerate(self.hands)
                if s != seat
                for c in hand
                if c not in self.known[s]
            )
        )

    def view(self, seat: int | None) -> DeathView:
        """What ``seat`` (``None``: a spectator) may know (RULINGS "Public information")."""
        return DeathView(
            seat=seat,
            players=len(self.hands),
            options=self.options,
            to_move=self.to_move,
            hand=None if seat is None else tuple(sorted(self.hands[seat])),
            hand_sizes=tuple(len(h) for h in self.hands),
            pile=self.pile,
            pile_seats=self.pile_seats,
            swept=self.swept,
            drinks_taken=self.taken,
            drinks_given=self.given,
            pending_give=self.pending,
            passed=self.passed,
            last_thrower=self.last_thrower,
            first_out=self.first_out,
            void_suits=self.void_suits,
            void_ranks=self.void_ranks,
            over=self.over,
            started=self.started,
            known_in_hands=self.shown(),
        )

    def to_json(self) -> dict[str, JSON]:
        """Everything on the table, hidden cards included; piles top card first."""
        return {
            "format": FORMAT,
            "to_move": self.to_move,
            "hands": [card_texts(h) for h in self.hands],
            "pile": card_texts(reversed(self.pile)),
            "pile_seats": list(reversed(self.pile_seats)),
            "swept": card_texts(self.swept),
            "drinks_taken": list(self.taken),
            "drinks_given": list(self.given),
            "pending_give": None
            if self.pending is None
            else {"seat": self.pending[0], "drinks": self.pending[1]},
            "passed": sorted(self.passed),
            "last_thrower": self.last_thrower,
            "first_out": self.first_out,
            "voids": voids_json(self.void_suits, self.void_ranks),
            "known_in_hands": [card_texts(sorted(k)) for k in self.known],
            "options": self.options.to_json(),
            "over": self.over,
        }

    @classmethod
    def from_json(cls, obj: object) -> Position:
        """The position :meth:`to_json` wrote.

        Raises:
            InvalidRecord: naming the field that is missing, wrong, or at odds with the rest.
        """
        what = "Game of Death state"
        f = Fields(obj, what)
        hands = f.raw("hands")
        if not isinstance(hands, list) or not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
            raise InvalidRecord(f"{what} field 'hands' must list 2 to 10 hands (G1)")
        n = len(hands)
        pile = f.cards("pile")
        over = f.flag("over")
        suits, ranks = f.voids(n)
        to_move = f.seat("to_move", n, nullable=True)
        if (to_move is None) != over:
            raise InvalidRecord(f"{what} field 'to_move' is null when, and only when, it is over")
        position = cls(
            options=f.options(n),
            hands=f.hands("hands", n),
            pile=tuple(reversed(pile)),
            pile_seats=tuple(reversed(f.seat_list("pile_seats", n, len(pile)))),
            swept=f.cards("swept"),
            taken=f.counts("drinks_taken", n),
            given=f.counts("drinks_given", n),
            pending=f.pending(n),
            to_move=to_move,
            last_thrower=f.seat("last_thrower", n, nullable=True),
            passed=frozenset(f.seat_list("passed", n)),
            first_out=f.seat("first_out", n, nullable=True),
            void_suits=suits,
            void_ranks=ranks,
            known=tuple(frozenset(k) for k in f.hands("known_in_hands", n)),
            over=over,
        )
        position._check(what)
        f.check_canonical(position.to_json())
        return position

    def _check(self, what: str) -> None:
        """What a position read from JSON must hold to play on by the rules."""
        try:
            check_deck((*(c for h in self.hands for c in h), *self.pile, *self.swept), what)
        except InvalidNotation as err:
            raise InvalidRecord(f"{err} (fields 'hands', 'pile' and 'swept')") from None
        for seat, known in enumerate(self.known):
            if not known <= set(self.hands[seat]):
                raise InvalidRecord(
                    f"{what} field 'known_in_hands' lists a card not in hand {seat + 1} (G13)"
                )
        p = self.to_move
        if self.pending is not None:
            top = self.pile[-1] if self.pile else None
            if top is None or not is_black_face(top) or self.pending[0] != p:
                raise InvalidRecord(
                    f"{what} field 'pending_give' needs the giver to move and his black face "
                    "card on top of the pile (G5)"
                )
        elif p is not None and not self.hands[p]:
            raise InvalidRecord(f"{what} field 'to_move' names a player with no card (G10)")
        if self.started != (TWO_OF_DIAMONDS not in {c for h in self.hands for c in h}):
            raise InvalidRecord(f"{what} fields 'pile' and 'swept': 2D is thrown first (G1)")
