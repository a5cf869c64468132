"""What one Crazy Eights seat may know.

Public: the whole discard pile (every card played was played face up), the suit to follow,
the 8s turned up at the deal and put back, the size of each hand and of the stock, whose turn
it is, how many cards the player to move has drawn this turn, the passes in a row since the
stock ran out, the cards played so far, and at the end every hand (shown to be scored). Hidden:
the other hands while the game is on, and the stock's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.cards import Card, Suit
from parlour.core.game import FORMAT, JSON, View
from parlour_crazy_eights.notation import SUIT_NAMES
from parlour_crazy_eights.options import Options

__all__ = ["PHASES", "RESULTS", "C8View"]

PHASES = ("play", "nominate")
"""``play``: play a card, draw or pass; ``nominate``: name a suit after an 8."""
RESULTS = (None, "win", "blocked", "limit")
"""How a game ended: a player went out, the stock ran out and everyone passed, or
``max_turns`` cards were played."""


def cards_json(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True, slots=True)
class C8View(View):
    """One seat's view (``seat is None``: a spectator's). ``discard`` lies bottom card first
    (the last is the top); ``hands`` holds every hand once the game is over, else ``None``."""

    seat: int | None
    players: int
    options: Options
    dealer: int
    to_move: int | None
    phase: str
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard: tuple[Card, ...]
    suit: Suit
    turned: tuple[Card, ...]
    draws: int
    passes: int
    plays: int
    result: str | None
    hands: tuple[tuple[Card, ...], ...] | None

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": None if self.hand is None else cards_json(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard": cards_json(self.discard),
            "suit": SUIT_NAMES[self.suit],
            "turned": cards_json(self.turned),
            "draws": self.draws,
            "passes": self.passes,
            "plays": self.plays,
            "result": self.result,
            "hands": None if self.hands is None else [cards_json(h) for h in self.hands],
        }
