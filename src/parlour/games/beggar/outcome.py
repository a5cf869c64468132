"""How a game of Beggar-My-Neighbour ended, as an :class:`~parlour.core.game.Outcome`: one player
holds every card (M6, ``win``), a position repeated (M10, ``loop``) or the card limit came (M11,
``limit``)."""

from __future__ import annotations

from parlour.core.game import Outcome
from parlour.games.beggar.history import Cycle

__all__ = ["outcome_of"]


def outcome_of(
    held: tuple[int, ...],
    out: tuple[int, ...],
    winners: tuple[int, ...],
    cycle: Cycle | None,
    cards: int,
    tricks: int,
) -> Outcome:
    """The outcome of a finished game: ``held`` cards in each hand, the seats ``out`` in the
    order they went out (M3, M5), the ``winners`` and the ``cycle`` (M10) if any; the figures
    are the counts of M8.

    Places: the players still in by cards held (all equal in a loop; in a limit game, M11,
    ties share a place), then those out, the last one out best. Returns: the win shared by the
    winners, nothing to anyone in a loop. Scores: the cards each player holds.
    """
    n = len(held)
    if cycle is not None:
        result = "loop"
    elif len(out) == n - 1:
        result = "win"
    else:
        result = "limit"
    still_in = [s for s in range(n) if s not in out]
    ranks = [0] * n
    for seat in still_in:
        ahead = 0 if result == "loop" else sum(held[o] > held[seat] for o in still_in)
        ranks[seat] = 1 + ahead
    for place, seat in enumerate(reversed(out)):
        ranks[seat] = len(still_in) + 1 + place
    share = 1.0 / len(winners) if winners else 0.0
    return Outcome(
        result=result,
        winners=winners,
        ranks=tuple(ranks),
        returns=tuple(share if s in winners else 0.0 for s in range(n)),
        scores=held,
        details={
            "cards": cards,
            "tricks": tricks,
            "cycle": None if cycle is None else cycle.to_json(),
        },
    )
