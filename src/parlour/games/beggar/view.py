"""What a seat sees at a Beggar-My-Neighbour table: every hand face down, even to its owner.

The seed texts deal the cards face down and have each player turn "his top card" without
looking at it, so nobody at the table, the owner included, sees a card of any hand. Everyone
sees the same: how many cards each hand holds, the face-up pile, the payment in progress, who is
out and the counts of M8. A spectator (``seat is None``) sees exactly what a player sees.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core.game import FORMAT, JSON, View
from parlour.games.beggar.history import Cycle
from parlour.games.beggar.notation import Token, format_token
from parlour.games.beggar.options import BeggarOptions

__all__ = ["BeggarView"]


@dataclass(frozen=True, slots=True)
class BeggarView(View):
    """A seat's view: hand sizes, the face-up pile (in play order), the payment in progress,
    who is out, the counts of M8 and the end; never a card of any hand.

    ``full_cards`` says whether the game is played with full cards (``7H``) or card classes
    (rank-only deals, M9); ``winners`` is ``None`` while the game is on."""

    seat: int | None
    players: int
    options: BeggarOptions
    full_cards: bool
    hand_sizes: tuple[int, ...]
    pile: tuple[Token, ...]
    to_move: int | None
    owed: int
    court_player: int | None
    out: tuple[int, ...]
    cards: int
    tricks: int
    winners: tuple[int, ...] | None
    cycle: Cycle | None

    def to_json(self) -> dict[str, JSON]:
        """The view as JSON (piles top card first, RULINGS 'Common');
        ``BeggarGame().view_from_json`` rebuilds an equal view."""
        return {
            "format": FORMAT,
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "full_cards": self.full_cards,
            "hand_sizes": list(self.hand_sizes),
            "pile": [format_token(t) for t in reversed(self.pile)],
            "to_move": self.to_move,
            "owed": self.owed,
            "court_player": self.court_player,
            "out": list(self.out),
            "cards": self.cards,
            "tricks": self.tricks,
            "over": self.winners is not None,
            "winners": None if self.winners is None else list(self.winners),
            "cycle": None if self.cycle is None else self.cycle.to_json(),
        }
