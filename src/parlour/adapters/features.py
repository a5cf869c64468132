"""What a game gives the adapters: its observation features and its chance deal.

A game that plays in the adapters names a module in its parts record
(``features="parlour.games.NAME.features"``) that exports ``FEATURES``, an object with the
members of :class:`Features`. The adapters find it with
``load_part(game.parts, "features")`` (:func:`features_of`), never by the game's name; a game
without the part plays everywhere but here.

An observation is built from the seat's typed :class:`~parlour.core.game.View` alone: the view
holds nothing hidden from its seat (the conformance suite's leak tests), so an observation
cannot hold anything hidden either. :class:`Blocks` fills the float32 vector block by block;
:class:`DealtOnce` is the chance deal of a game dealt once, one card to each seat in turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from parlour.cards import Card, deck52, deck54, parse_card
from parlour.core.game import JSON, Game, State, View
from parlour.core.options import OptionValue
from parlour.core.parts import load_part
from parlour.errors import InvalidOption

__all__ = [
    "CARD_INDEX",
    "CARD_SLOT",
    "DECK54",
    "Blocks",
    "DealtOnce",
    "Features",
    "Observation",
    "card_slot",
    "features_of",
]

Observation = npt.NDArray[np.float32]
"""An observation: a float32 vector, every entry in 0..1."""

DECK54: tuple[Card, ...] = deck54()
"""Card slots of every card block and chance outcome: ``parlour.cards.deck54()`` order (the 52
cards, then the two Jokers at 52 and 53)."""
CARD_SLOT: dict[Card, int] = {c: i for i, c in enumerate(DECK54)}
"""Each card's slot."""
CARD_INDEX: dict[str, int] = {str(c): i for i, c in enumerate(DECK54)}
"""Each card's slot, by its text in Parlour's notation (``"TH"``, ``"JK1"``)."""


def card_slot(card: Card | str) -> int:
    """The slot of a card, or of a card written in Parlour's notation (``"TH"``, ``"J1"``)."""
    if isinstance(card, Card):
        return CARD_SLOT[card]
    found = CARD_INDEX.get(card)
    return CARD_SLOT[parse_card(card)] if found is None else found


class Blocks:
    """A float32 vector of ``size`` entries filled block by block, in the order a game's
    features document them; :meth:`done` checks that every entry was reached."""

    __slots__ = ("_at", "_vector")

    def __init__(self, size: int) -> None:
        self._vector: Observation = np.zeros(size, dtype=np.float32)
        self._at = 0

    def cards(self, cards: Iterable[Card | str], width: int = 54) -> None:
        """A multi-hot block of ``width`` card slots (52: no Jokers)."""
        for card in cards:
            self._vector[self._at + card_slot(card)] = 1.0
        self._at += width

    def card(self, card: Card | str | None, width: int = 54) -> None:
        """A one-hot block of ``width`` card slots; all zero for ``None``."""
        self.cards(() if card is None else (card,), width)

    def seat(self, seat: int | None, players: int) -> None:
        """A one-hot block of ``players`` seats; all zero for ``None``."""
        if seat is not None:
            self._vector[self._at + seat] = 1.0
        self._at += players

    def flags(self, values: Iterable[bool]) -> None:
        """One entry a value: 1 for true, 0 for false."""
        for value in values:
            self._vector[self._at] = 1.0 if value else 0.0
            self._at += 1

    def scaled(self, values: Iterable[float], scale: float) -> None:
        """One entry a value: the value divided by ``scale``, kept within 0..1."""
        for value in values:
            self._vector[self._at] = min(1.0, max(0.0, value / scale))
            self._at += 1

    def done(self) -> Observation:
        """The vector, once every entry was reached.

        Raises:
            AssertionError: the blocks filled more or fewer entries than the size.
        """
        if self._at != len(self._vector):
            raise AssertionError(f"the blocks filled {self._at} of {len(self._vector)} entries")
        return self._vector


@runtime_checkable
class Features(Protocol):
    """What a game's ``FEATURES`` provides (every member is required; a game dealt once from
    52 cards and never shuffled again can take the chance members from :class:`DealtOnce`).

    Cards are written in Parlour's notation (``"TH"``, ``"JK1"``) wherever they are text; a
    chance outcome is a card, its slot in :data:`DECK54`.
    """

    @property
    def env_id(self) -> str:
        """The game's Gymnasium id, ``"parlour/NAME-v0"``."""
        ...

    def size(self, players: int) -> int:
        """The observation's length at ``players`` seats."""
        ...

    def encode(self, view: View, players: int) -> Observation:
        """The observation of ``view`` (the game's own View class, read by its attributes, a
        spectator's included) at ``players`` seats: float32, ``size(players)`` entries, each
        in 0..1. Raises TypeError for a view of another game."""
        ...

    def deck(self, players: int) -> tuple[str, ...]:
        """Every card the deal may take at ``players`` seats."""
        ...

    def deal_outcomes(self, players: int, drawn: Sequence[str]) -> tuple[str, ...]:
        """The cards the next chance outcome of the deal may be, each equally likely, after
        the cards ``drawn`` so far; empty once the deal is complete. Dealt so, the deals have
        the distribution of ``Game.new`` from a seed."""
        ...

    def deal(self, players: int, drawn: Sequence[str]) -> JSON:
        """The deal the complete ``drawn`` cards make, in the game's deal notation (the
        ``deal`` argument of ``Game.new``). Raises ValueError while the deal is incomplete."""
        ...

    def reshuffle(self, state: State) -> tuple[str, ...]:
        """The cards that chance deals again, position by position, after the action that
        made ``state`` (a shuffle the rules made from the seed); ``()`` when none."""
        ...

    def redeal(self, state: State, cards: Sequence[str]) -> State:
        """``state`` with the cards :meth:`reshuffle` named laid in the order ``cards``."""
        ...

    def length_bound(self, options: Mapping[str, OptionValue]) -> int | None:
        """A bound on player actions that ``options`` set (a turn limit ...), or ``None``;
        the adapters take the larger of it and ``GameInfo.max_game_length``."""
        ...


def features_of(game: Game) -> Features:
    """The ``FEATURES`` that ``game``'s parts name.

    Raises:
        InvalidOption: the game has no features part, or its ``FEATURES`` lacks a member of
            :class:`Features` (one line naming the game).
    """
    try:
        found = load_part(game.parts, "features")
    except ImportError as err:
        raise InvalidOption(
            f"the observation features of {game.title} did not load: {err}"
        ) from None
    if found is None:
        raise InvalidOption(f"{game.title} has no observation features for the adapters")
    if not isinstance(found, Features):
        missing = [n for n in vars(Features) if not n.startswith("_") and not hasattr(found, n)]
        raise InvalidOption(f"the observation features of {game.title} lack {', '.join(missing)}")
    return found


class DealtOnce:
    """The chance deal of a game dealt once from 52 cards, one card to each seat in turn from
    Player 1, and never shuffled again. A game's features add ``env_id``, ``size``, ``encode``
    and :meth:`deal` (how the drawn cards make the game's deal notation)."""

    def deck(self, players: int) -> tuple[str, ...]:
        return tuple(str(c) for c in deck52())

    def deal_outcomes(self, players: int, drawn: Sequence[str]) -> tuple[str, ...]:
        seen = set(drawn)
        return tuple(c for c in self.deck(players) if c not in seen)

    @staticmethod
    def hands(players: int, drawn: Sequence[str]) -> list[list[str]]:
        """The 52 drawn cards dealt round: seat ``s`` gets cards ``s``, ``s + players``, ...

        Raises:
            ValueError: fewer or more than 52 cards.
        """
        if len(drawn) != 52:
            raise ValueError("the deal is not complete")
        return [list(drawn[seat::players]) for seat in range(players)]

    def reshuffle(self, state: State) -> tuple[str, ...]:
        """No shuffle after the deal."""
        return ()

    def redeal(self, state: State, cards: Sequence[str]) -> State:
        raise ValueError("nothing is dealt again after the deal")

    def length_bound(self, options: Mapping[str, OptionValue]) -> int | None:
        """No option bounds the game."""
        return None
