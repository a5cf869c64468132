"""Deals and results of the compiled kernel as numpy arrays: the data side of :mod:`.fast`.

Nothing here is compiled: these are the types that :mod:`.fast` hands to the kernel and gets
back, and their conversion from and to the M9 notation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from parlour.core.game import JSON
from parlour.errors import InvalidNotation
from parlour.games.beggar.history import Cycle
from parlour.games.beggar.notation import MAX_PLAYERS, MIN_PLAYERS, Deal, honour, parse_deal

__all__ = [
    "LOOP_SCORE",
    "RESULTS",
    "DealArray",
    "FastResults",
    "Int8Array",
    "Int64Array",
    "encode_deals",
    "format_classes",
]

RESULTS = ("win", "loop", "limit")
"""Result names by code, as ``rules.py``'s outcomes name them."""
LOOP_SCORE = 1 << 62
"""A never-ending game's score (M10) in :attr:`FastResults.scores`: above any game's cards."""

_CLASS_CHARS = "-JQKA"
_DECK_COUNTS = np.array([36, 4, 4, 4, 4])

Int8Array = npt.NDArray[np.int8]
Int64Array = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class DealArray:
    """Deals as arrays: ``classes`` (deals x 52, int8: 0 number card, 1-4 J Q K A), the hands
    one after another, each top card first, and ``sizes`` (deals x players, int64).

    Raises:
        InvalidNotation: a row that is not one deck (M9) dealt as evenly as possible (M7).
    """

    classes: Int8Array
    sizes: Int64Array

    def __post_init__(self) -> None:
        _check_deals(self.classes, self.sizes)

    @property
    def players(self) -> int:
        return int(self.sizes.shape[1])

    def __len__(self) -> int:
        return int(self.classes.shape[0])

    def deal(self, index: int) -> str:
        """Deal ``index`` in rank-only M9 notation, e.g. ``--A-K.../-Q--...``."""
        return format_classes(self.classes[index], self.sizes[index])

    def take(self, indices: Iterable[int]) -> DealArray:
        """The deals at ``indices``, in that order."""
        rows = np.fromiter(indices, dtype=np.int64)
        return DealArray(self.classes[rows], self.sizes[rows])


def format_classes(row: Sequence[int] | Int8Array, sizes: Sequence[int] | Int64Array) -> str:
    """One deal's 52 classes (hands one after another, ``sizes`` cards each) in M9 notation."""
    hands = []
    start = 0
    for size in sizes:
        hands.append("".join(_CLASS_CHARS[c] for c in row[start : start + int(size)]))
        start += int(size)
    return "/".join(hands)


def _check_deals(classes: Int8Array, sizes: Int64Array) -> None:
    """M9: every row uses one deck exactly once; M7: hands as even as possible."""
    if classes.dtype != np.int8 or classes.ndim != 2 or classes.shape[1] != 52:
        raise InvalidNotation("classes must be an int8 array of 52 card classes per deal")
    if sizes.dtype != np.int64 or sizes.ndim != 2 or sizes.shape[0] != classes.shape[0]:
        raise InvalidNotation("sizes must be an int64 array of hand sizes, one row per deal")
    if not MIN_PLAYERS <= sizes.shape[1] <= MAX_PLAYERS:
        raise InvalidNotation(
            f"a deal has {MIN_PLAYERS} to {MAX_PLAYERS} hands (M9), got {sizes.shape[1]}"
        )
    if not len(classes):
        return
    if classes.min() < 0 or classes.max() > 4:
        row = int(np.argmax((classes < 0).any(axis=1) | (classes > 4).any(axis=1)))
        raise InvalidNotation(f"deal {row}: card classes are 0 (number card) to 4 (ace)")
    counts = np.stack([(classes == c).sum(axis=1) for c in range(5)], axis=1)
    bad = np.flatnonzero((counts != _DECK_COUNTS).any(axis=1))
    if len(bad):
        raise InvalidNotation(
            f"deal {bad[0]}: a deal holds 4 aces, 4 kings, 4 queens, 4 jacks and 36 number "
            "cards (M9)"
        )
    uneven = np.flatnonzero((sizes.sum(axis=1) != 52) | (sizes.max(axis=1) - sizes.min(axis=1) > 1))
    if len(uneven):
        raise InvalidNotation(
            f"deal {uneven[0]}: the hands hold {'/'.join(map(str, sizes[uneven[0]]))} cards; "
            "the 52 cards are dealt as evenly as possible (M7)"
        )


def encode_deals(deals: Iterable[str | Deal], players: int | None = None) -> DealArray:
    """Deals in M9 notation (or parsed :data:`.notation.Deal` tuples) as a :class:`DealArray`.

    Raises:
        InvalidNotation: a bad deal (naming it by its index), or deals of different player
            counts.
    """
    rows: list[list[int]] = []
    sizes: list[list[int]] = []
    for index, given in enumerate(deals):
        try:
            hands = parse_deal(given, players) if isinstance(given, str) else given
        except InvalidNotation as err:
            raise InvalidNotation(f"deal {index}: {err}") from None
        if sizes and len(hands) != len(sizes[0]):
            raise InvalidNotation(
                f"deal {index} has {len(hands)} hands, the first one {len(sizes[0])}"
            )
        rows.append([honour(t) for hand in hands for t in hand])
        sizes.append([len(hand) for hand in hands])
    width = len(sizes[0]) if sizes else (players or MIN_PLAYERS)
    return DealArray(
        np.array(rows, dtype=np.int8).reshape(len(rows), 52),
        np.array(sizes, dtype=np.int64).reshape(len(sizes), width),
    )


@dataclass(frozen=True, slots=True)
class FastResults:
    """Results by deal: ``result`` (int8 codes into :data:`RESULTS`), ``winners`` (a bit per
    seat), ``cards`` and ``tricks`` (M8; for a loop, when the repeat was seen), and for a loop
    (M10) the cards and tricks where the cycle starts (-1 otherwise)."""

    result: Int8Array
    winners: npt.NDArray[np.uint8]
    cards: Int64Array
    tricks: Int64Array
    cycle_start_cards: Int64Array
    cycle_start_tricks: Int64Array

    @classmethod
    def from_rows(cls, rows: Int64Array) -> FastResults:
        """The kernel's result rows ``[result, winners, cards, tricks, cycle start cards,
        cycle start tricks]``, one per deal."""
        # The counts stay views of the kernel's rows: no copy of a large batch.
        return cls(
            rows[:, 0].astype(np.int8),
            rows[:, 1].astype(np.uint8),
            rows[:, 2],
            rows[:, 3],
            rows[:, 4],
            rows[:, 5],
        )

    def __len__(self) -> int:
        return int(self.result.shape[0])

    @property
    def scores(self) -> Int64Array:
        """What a search for long games maximises: the cards played (M8), and for a game that
        never ends (M10) :data:`LOOP_SCORE`, above any."""
        return np.where(self.result == RESULTS.index("loop"), LOOP_SCORE, self.cards)

    def winners_of(self, index: int) -> tuple[int, ...]:
        mask = int(self.winners[index])
        return tuple(seat for seat in range(MAX_PLAYERS) if mask >> seat & 1)

    def summary(self, index: int) -> dict[str, JSON]:
        """Deal ``index``'s result as ``rules.py``'s ``summary()`` gives it (less ``deal``):
        ``{"result", "winners", "cards", "tricks", "cycle"}``."""
        cards = int(self.cards[index])
        tricks = int(self.tricks[index])
        cycle: JSON = None
        if self.result[index] == RESULTS.index("loop"):
            start = (int(self.cycle_start_cards[index]), int(self.cycle_start_tricks[index]))
            cycle = Cycle(cards, tricks, *start).to_json()
        return {
            "result": RESULTS[int(self.result[index])],
            "winners": list(self.winners_of(index)),
            "cards": cards,
            "tricks": tricks,
            "cycle": cycle,
        }
