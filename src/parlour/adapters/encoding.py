"""What the three environments share: observations built from a seat's View alone, action masks
from the integer action codec, and each game's chance deal for OpenSpiel.

A game's observation layout and chance deal live in ``parlour.adapters.layouts.<game name>``,
found from ``game.info.name`` the way :attr:`Game.strategy` finds a game's strategy module, so
nothing here knows a game by name. A layout reads only ``view.to_json()``: the JSON a seat's
view writes holds nothing hidden from that seat (the conformance suite's leak tests), so an
observation cannot hold anything hidden either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from parlour.cards import Card, deck52, deck54, parse_card
from parlour.core.game import JSON, Game, State, View
from parlour.errors import InvalidOption

__all__ = [
    "CARD_INDEX",
    "DECK54",
    "DealtOnce",
    "Encoder",
    "Features",
    "Layout",
    "Observation",
    "action_mask",
    "layout_for",
]

Observation = npt.NDArray[np.float32]

DECK54: tuple[Card, ...] = deck54()
"""Card slots of every layout: ``parlour.cards.deck54()`` order (the 52 cards, then the two
Jokers at 52 and 53)."""
CARD_INDEX: dict[str, int] = {str(c): i for i, c in enumerate(DECK54)}


def card_slot(text: str) -> int:
    """The slot of a card written in Parlour's notation (``"TH"``, ``"J1"``)."""
    found = CARD_INDEX.get(text)
    if found is None:
        found = CARD_INDEX[str(parse_card(text))]
    return found


class Features:
    """A float32 vector filled block by block, each block named for the layout's docs."""

    __slots__ = ("_at", "_vector")

    def __init__(self, size: int) -> None:
        self._vector: Observation = np.zeros(size, dtype=np.float32)
        self._at = 0

    def cards(self, cards: Sequence[str], width: int = 54) -> None:
        """A multi-hot block of ``width`` card slots."""
        for text in cards:
            self._vector[self._at + card_slot(text)] = 1.0
        self._at += width

    def card(self, card: str | None, width: int = 54) -> None:
        """A one-hot block of ``width`` card slots; all zero for ``None``."""
        self.cards(() if card is None else (card,), width)

    def seat(self, seat: int | None, players: int) -> None:
        """A one-hot block of ``players`` seats; all zero for ``None``."""
        if seat is not None:
            self._vector[self._at + seat] = 1.0
        self._at += players

    def flags(self, values: Sequence[bool]) -> None:
        for i, value in enumerate(values):
            self._vector[self._at + i] = 1.0 if value else 0.0
        self._at += len(values)

    def scaled(self, values: Sequence[float], scale: float) -> None:
        """Each value divided by ``scale``, kept within 0..1."""
        for i, value in enumerate(values):
            self._vector[self._at + i] = min(1.0, max(0.0, value / scale))
        self._at += len(values)

    def done(self) -> Observation:
        if self._at != len(self._vector):
            raise AssertionError(f"layout filled {self._at} of {len(self._vector)} entries")
        return self._vector


class Encoder(Protocol):
    """A game's observation layout (one module of ``parlour.adapters.layouts``)."""

    def size(self, players: int) -> int: ...

    def encode(self, view: dict[str, Any], players: int) -> Observation: ...

    def deck(self, players: int) -> tuple[str, ...]: ...

    def deal_outcomes(self, players: int, drawn: Sequence[str]) -> tuple[str, ...]: ...

    def deal(self, players: int, drawn: Sequence[str]) -> JSON: ...

    def reshuffle(
        self, events: Sequence[str], state: Callable[[], dict[str, Any]]
    ) -> tuple[str, ...]: ...

    def redeal(self, state: dict[str, Any], cards: Sequence[str]) -> dict[str, Any]: ...


class DealtOnce:
    """The chance deal of a game dealt once from 52 cards, one card to each seat in turn, and
    never shuffled again (the Game of Death, Beggar-My-Neighbour): a layout module adds
    ``size``, ``encode`` and how the drawn cards make the game's ``deal``."""

    def deck(self, players: int) -> tuple[str, ...]:
        return tuple(str(c) for c in deck52())

    def deal_outcomes(self, players: int, drawn: Sequence[str]) -> tuple[str, ...]:
        seen = set(drawn)
        return tuple(c for c in self.deck(players) if c not in seen)

    @staticmethod
    def hands(players: int, drawn: Sequence[str]) -> list[list[str]]:
        """The drawn cards dealt round: seat ``s`` gets cards ``s``, ``s + players``, ..."""
        if len(drawn) != 52:
            raise ValueError("the deal is not complete")
        return [list(drawn[seat::players]) for seat in range(players)]

    def reshuffle(
        self, events: Sequence[str], state: Callable[[], dict[str, Any]]
    ) -> tuple[str, ...]:
        """No shuffle after the deal."""
        return ()

    def redeal(self, state: dict[str, Any], cards: Sequence[str]) -> dict[str, Any]:
        raise ValueError("nothing is dealt again after the deal")


@dataclass(frozen=True)
class Layout:
    """A game's observation layout and chance deal at one player count."""

    game: Game
    players: int
    encoder: Encoder

    @property
    def size(self) -> int:
        return self.encoder.size(self.players)

    def observe(self, view: View) -> Observation:
        """The observation of ``view``, made from its JSON only."""
        return self.encoder.encode(view.to_json(), self.players)

    def deal_outcomes(self, drawn: Sequence[str]) -> tuple[str, ...]:
        """The cards the next chance outcome of the deal may be (each equally likely), given
        the cards drawn so far; empty once the deal is complete."""
        return self.encoder.deal_outcomes(self.players, drawn)

    def deal(self, drawn: Sequence[str]) -> JSON:
        """The deal, in the game's deal notation, that the drawn cards make."""
        return self.encoder.deal(self.players, drawn)

    @property
    def deck(self) -> tuple[str, ...]:
        return self.encoder.deck(self.players)


def layout_for(game: Game, players: int) -> Layout:
    """The observation layout of ``game`` at ``players`` seats.

    Raises:
        InvalidOption: a bad player count, or a game without a layout here.
    """
    players = game.check_players(players)
    try:
        module = import_module(f"parlour.adapters.layouts.{game.info.name}")
    except ModuleNotFoundError:
        raise InvalidOption(
            f"{game.title} has no observation layout in parlour.adapters.layouts"
        ) from None
    encoder: Encoder = module.ENCODER
    return Layout(game, players, encoder)


def action_mask(state: State, seat: int, size: int) -> npt.NDArray[np.int8]:
    """1 for each action id ``seat`` may play now, 0 elsewhere (all 0 when not its turn)."""
    mask = np.zeros(size, dtype=np.int8)
    if state.to_move == seat and not state.is_over:
        mask[list(state.legal_action_ids())] = 1
    return mask
