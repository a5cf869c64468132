"""What one seat may know in the Game of Death (RULINGS "Public information")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.cards import Card, Suit
from parlour.core.game import JSON, View

if TYPE_CHECKING:
    from parlour.games.death.rules import DeathOptions

__all__ = ["DeathView"]


@dataclass(frozen=True, slots=True)
class DeathView(View):
    """Own hand, the pile (and who threw each card), the cards swept so far, hand sizes, drinks
    taken and given, the give in progress, who passed since the last throw, the first player
    out, sober flags, and what passes showed: a player who passed on a card holds no card of
    its suit or rank (hands never grow, so that stays true)."""

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

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "players": self.players,
            "to_move": self.to_move,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "pile": [str(c) for c in reversed(self.pile)],
            "pile_seats": list(reversed(self.pile_seats)),
            "swept": [str(c) for c in self.swept],
            "drinks_taken": list(self.drinks_taken),
            "drinks_given": list(self.drinks_given),
            "pending_give": None
            if self.pending_give is None
            else {"seat": self.pending_give[0], "drinks": self.pending_give[1]},
            "passed": sorted(self.passed),
            "last_thrower": self.last_thrower,
            "first_out": self.first_out,
            "sober": [s + 1 for s in sorted(self.options.sober)],
            "voids": [
                {"suits": sorted(s.value for s in suits), "ranks": sorted(ranks)}
                for suits, ranks in zip(self.void_suits, self.void_ranks, strict=True)
            ],
            "over": self.over,
        }
