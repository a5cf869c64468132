"""What one BEOR seat may know (RULINGS "Public information", B6, B8).

:meth:`BeorView.to_json` writes it with ``"format"``; ``BeorGame.view_from_json`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.cards import Card
from parlour.core.game import FORMAT, JSON, View
from parlour.games.beor.notation import BASES
from parlour.games.beor.options import BeorOptions

__all__ = ["BeorView", "StockView"]


@dataclass(frozen=True, slots=True)
class StockView:
    """A stock as the table sees it: its size, face, and the cards publicly known in it by
    offset from its bottom (the top of a face-up stock; a card seen on top before a flip back
    lies at the bottom)."""

    size: int
    face_up: bool
    known: tuple[tuple[int, Card], ...]

    @property
    def top(self) -> Card | None:
        """The visible top card of a face-up stock."""
        if not self.face_up or not self.size:
            return None
        return next((c for k, c in self.known if k == self.size - 1), None)

    def to_json(self) -> dict[str, JSON]:
        top = self.top
        return {
            "size": self.size,
            "face_up": self.face_up,
            "top": None if top is None else str(top),
            # Positions counted from the top (0 is the card drawn next), as people say it.
            "known": [{"position": self.size - 1 - k, "card": str(c)} for k, c in self.known],
        }


@dataclass(frozen=True, slots=True)
class BeorView(View):
    """One seat's view: own hand, every base pile, each stock's size, face and known cards,
    cards publicly known to be in each hand (a winner's two groups too, B5), hand sizes, scrap
    size and its publicly known cards, who is out, whose turn."""

    seat: int | None
    players: int
    options: BeorOptions
    to_move: int | None
    turn: int
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    known_in_hands: tuple[tuple[Card, ...], ...]
    bases: tuple[tuple[Card, ...], ...]
    stocks: tuple[StockView, ...]
    scrap_size: int
    known_scrap: tuple[Card, ...]
    out: tuple[int, ...]
    winner: int | None
    result: str | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "to_move": self.to_move,
            "turn": self.turn,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "known_in_hands": [[str(c) for c in k] for k in self.known_in_hands],
            "bases": {n: [str(c) for c in b] for n, b in zip(BASES, self.bases, strict=True)},
            "stocks": {n: s.to_json() for n, s in zip(BASES, self.stocks, strict=True)},
            "scrap_size": self.scrap_size,
            "known_scrap": [str(c) for c in self.known_scrap],
            "out": list(self.out),
            "winner": self.winner,
            "result": self.result,
        }
