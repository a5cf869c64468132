"""How a game of Beggar-My-Neighbour ended, as an :class:`~parlour.core.game.Outcome`: one player
holds every card (M6, ``win``), a position repeated (M10, ``loop``), the card limit came (M11,
``limit``) or the agreed time ran out (M12, ``time``)."""

from __future__ import annotations

from parlour.core.game import Outcome
from parlour.games.beggar.history import Cycle

__all__ = ["ended_by", "outcome_of"]


def ended_by(
    players: int, out: tuple[int, ...], cycle: Cycle | None, cards: int, card_limit: int | None
) -> str:
    """How a finished game ended: ``loop`` (M10), ``win`` (M6: one player left), ``limit``
    (M11: stopped at the card limit) or ``time`` (M12: stopped by the table before it, when
    the agreed time ran out). A time stop always comes before the card limit, since a game
    stopped by the limit is over and takes no entry."""
    if cycle is not None:
        return "loop"
    if len(out) == players - 1:
        return "win"
    if card_limit is not None and cards >= card_limit:
        return "limit"
    return "time"


def outcome_of(
    held: tuple[int, ...],
    out: tuple[int, ...],
    winners: tuple[int, ...],
    cycle: Cycle | None,
    cards: int,
    tricks: int,
    card_limit: int | None,
) -> Outcome:
    """The outcome of a finished game: ``held`` cards in each hand, the seats ``out`` in the
    order they went out (M3, M5), the ``winners`` and the ``cycle`` (M10) if any; the figures
    are the counts of M8; ``card_limit`` tells a stop at the limit (M11) from one when the
    agreed time ran out (M12).

    Places: the players still in by cards held (all equal in a loop; in a game stopped by the
    card limit or the time, M11 and M12, ties share a place), then those out, the last one out
    best. Returns: the win shared by the winners, nothing to anyone in a loop. Scores: the
    cards each player holds (the pile of a stopped game counts for nobody).
    """
    n = len(held)
    result = ended_by(n, out, cycle, cards, card_limit)
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
