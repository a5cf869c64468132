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

Speed: an observation is made at every step of every environment, so the blocks note only
where the vector holds a 1 and where another value (:class:`Sparse`), and the vector is made
from that at once. A game's features may also give ``encode_sparse(view, players)`` (what
:class:`SparseEncoded` builds ``encode`` from): the adapters then keep the observation in
that form, and OpenSpiel's list of floats is made from it without a dense vector.
"""

from __future__ import annotations

from array import array
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
    "Sparse",
    "SparseEncoded",
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
_DECK52: tuple[str, ...] = tuple(str(c) for c in deck52())
_ANY_SLOT: dict[Card | str, int] = {
    key: i for i, card in enumerate(DECK54) for key in (card, str(card))
}
"""Each card's slot by the card or its canonical text (cards hash by identity, texts by value)."""


def card_slot(card: Card | str) -> int:
    """The slot of a card, or of a card written in Parlour's notation (``"TH"``, ``"J1"``)."""
    if isinstance(card, Card):
        return CARD_SLOT[card]
    found = CARD_INDEX.get(card)
    return CARD_SLOT[parse_card(card)] if found is None else found


def _add_slots(hot: list[int], cards: Iterable[Card | str], at: int) -> None:
    """``at`` plus the slot of each card, added to ``hot``. (Plain loops: in this Python
    they cost less than comprehensions or ``map``.)"""
    if not isinstance(cards, tuple | list):
        cards = list(cards)
    slots = _ANY_SLOT
    mark = len(hot)
    try:
        for card in cards:
            hot.append(at + slots[card])
    except KeyError:  # a card written in another notation ("J1"): the slow way
        del hot[mark:]
        for card in cards:
            hot.append(at + card_slot(card))


class Sparse:
    """An observation of ``size`` entries as where it holds a 1 (``hot``) and where another
    value (``values`` at ``spots``, float32 already); every other entry is 0."""

    __slots__ = ("hot", "size", "spots", "values")

    def __init__(self, size: int, hot: list[int], spots: list[int], values: array[float]) -> None:
        self.size = size
        self.hot = hot
        self.spots = spots
        self.values = values

    @classmethod
    def of(cls, vector: Observation) -> Sparse:
        """The sparse form of a dense observation."""
        at = vector.nonzero()[0]
        found = vector[at]
        ones = found == 1.0
        other = at[~ones]
        values = array("f")
        values.frombytes(vector[other].astype(np.float32).tobytes())
        return cls(len(vector), at[ones].tolist(), other.tolist(), values)

    def dense(self) -> Observation:
        """The float32 vector."""
        vector: Observation = np.zeros(self.size, dtype=np.float32)
        self.write(vector)
        return vector

    def write(self, out: Observation) -> None:
        """The vector into the first ``size`` entries of ``out``."""
        out[: self.size] = 0.0
        out.put(self.hot, 1.0)
        out.put(self.spots, self.values)

    def listed(self) -> list[float]:
        """The vector as a list of floats, each the float32 value (``dense().tolist()``)."""
        listed = [0.0] * self.size
        for i in self.hot:
            listed[i] = 1.0
        for i, value in zip(self.spots, self.values, strict=True):
            listed[i] = value
        return listed


class Blocks:
    """A float32 vector of ``size`` entries filled block by block, in the order a game's
    features document them; :meth:`done` checks that every entry was reached.

    The blocks only note where the vector holds a 1 and where a scaled value, and
    :meth:`done` writes them all at once: an observation is made on every step of every
    environment, and writing entry by entry into a numpy array costs more than the rest."""

    __slots__ = ("_at", "_hot", "_size", "_spots", "_values")

    def __init__(self, size: int) -> None:
        self._size = size
        self._at = 0
        self._hot: list[int] = []
        self._spots: list[int] = []
        self._values = array("f")

    def cards(self, cards: Iterable[Card | str], width: int = 54) -> None:
        """A multi-hot block of ``width`` card slots (52: no Jokers)."""
        at = self._at
        _add_slots(self._hot, cards, at)
        self._at = at + width

    def card(self, card: Card | str | None, width: int = 54) -> None:
        """A one-hot block of ``width`` card slots; all zero for ``None``."""
        if card is not None:
            found = _ANY_SLOT.get(card)
            self._hot.append(self._at + (card_slot(card) if found is None else found))
        self._at += width

    def card_rows(self, rows: Iterable[Iterable[Card | str]], width: int = 54) -> None:
        """One multi-hot block of ``width`` card slots per row (:meth:`cards` for each)."""
        at = self._at
        hot = self._hot
        for row in rows:
            _add_slots(hot, row, at)
            at += width
        self._at = at

    def seat(self, seat: int | None, players: int) -> None:
        """A one-hot block of ``players`` seats; all zero for ``None``."""
        if seat is not None:
            self._hot.append(self._at + seat)
        self._at += players

    def flags(self, values: Iterable[bool]) -> None:
        """One entry a value: 1 for true, 0 for false."""
        at = self._at
        hot = self._hot
        for value in values:
            if value:
                hot.append(at)
            at += 1
        self._at = at

    def positions(self, hot: Iterable[int], width: int) -> None:
        """A block of ``width`` flags with a 1 at each of the positions ``hot`` (0 to
        ``width - 1``): what :meth:`flags` makes, for a block where few are true."""
        at = self._at
        added = self._hot
        for i in hot:
            added.append(at + i)
        self._at = at + width

    def position_rows(self, rows: Iterable[Iterable[int]], width: int) -> None:
        """One block of :meth:`positions` per row."""
        at = self._at
        hot = self._hot
        for row in rows:
            for i in row:
                hot.append(at + i)
            at += width
        self._at = at

    def scaled(self, values: Iterable[float], scale: float) -> None:
        """One entry a value: the value divided by ``scale``, kept within 0..1."""
        at = self._at
        spots = self._spots
        made = self._values
        for value in values:
            if value > 0:  # an entry left out is 0, as a negative value is made
                x = value / scale
                spots.append(at)
                made.append(x if x <= 1.0 else 1.0)
            at += 1
        self._at = at

    def sparse(self) -> Sparse:
        """The observation as :class:`Sparse`, once every entry was reached.

        Raises:
            AssertionError: the blocks filled more or fewer entries than the size.
        """
        if self._at != self._size:
            raise AssertionError(f"the blocks filled {self._at} of {self._size} entries")
        return Sparse(self._size, self._hot, self._spots, self._values)

    def done(self) -> Observation:
        """The vector, once every entry was reached.

        Raises:
            AssertionError: the blocks filled more or fewer entries than the size.
        """
        return self.sparse().dense()


class SparseEncoded:
    """``encode`` for features that give ``encode_sparse(view, players)`` (a
    :class:`Sparse`, made with :meth:`Blocks.sparse`)."""

    def encode_sparse(self, view: View, players: int) -> Sparse:
        raise NotImplementedError

    def encode(self, view: View, players: int) -> Observation:
        return self.encode_sparse(view, players).dense()


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
        where given, the adapters take it in place of ``GameInfo.max_game_length`` (which
        bounds games with the default options), so it must hold whatever the options."""
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
        return _DECK52

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
