"""The Game of Death's lab figures (its ``FIGURES``, :mod:`parlour.lab.figures`): its own
metrics, and its reading of one finished game, from its public log (every event of the game is
public: RULINGS "Public information"); the leader of a step has taken the fewest drinks so far
(G12: fewest drinks wins).

Drinks are counted from the events: ``drank`` (a pass G2, a broken suit G4, going down G3, a
red face card's take G5), ``gave`` (a black face card's give, to its target, G5), ``social``
(everyone drinks 1, G7), ``hand_penalty`` (black face cards still held at the end, G11) and
``penalty`` (table entries, G13). A sober player's points count as drinks (G14). The counts must
come to the outcome's drinks taken, and the black face cards' drinks to :data:`BLACK_FACE_TOTAL`;
either mismatch is an accounting error and raises ``ValueError`` naming the deal.

Positions: the holder of 2♦ throws first (G1), so he is at position 0 and the others follow
clockwise (``first`` of the lab's rows: :func:`starter`). Seats are dealt unequally (52 cards
round-robin from the seat left of the dealer, G1: seat 0 unless the dealer moves, G12; with 6
players the first four seats dealt hold 9 cards, the last two 8), so the seats do not win
equally often even where the positions do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.core.game import JSON, LogEntry, State
from parlour.games.death.position import TWO_OF_DIAMONDS
from parlour.games.death.rules import DeathState
from parlour.lab.figures import GameFigures, LabKernel, MetricSpec

if TYPE_CHECKING:
    from parlour.lab.runspec import RunSpec

__all__ = [
    "BLACK_FACE",
    "BLACK_FACE_TOTAL",
    "FIGURES",
    "KERNEL_AGENTS",
    "check_black_face",
    "deal_text",
    "death_reading",
    "starter",
]

BLACK_FACE: dict[str, int] = {
    "AS": 20, "KS": 8, "QS": 6, "JS": 4,
    "AC": 5, "KC": 4, "QC": 3, "JC": 2,
}  # fmt: skip
"""The give values of the black face cards, from the seed text's table (G5)."""
BLACK_FACE_TOTAL = sum(BLACK_FACE.values())
"""52: every black face card is either thrown and its drinks given (G5) or still held at the
end and drunk by its holder (G11), so a deal's black face card drinks always add up to this."""

_DRINKS = ("drank", "hand_penalty", "penalty")


def deal_text(state: State) -> str:
    """The hands the game started from, as a record's deal (``{"hands": [...]}``), to name the
    deal in an error."""
    root = state
    while root.previous is not None:
        root = root.previous
    return json.dumps({"hands": root.to_json().get("hands")}, separators=(",", ":"))


def starter(state: State) -> int:
    """The seat that threw first in ``state``'s deal: the holder of 2♦ (G1).

    Raises:
        TypeError: not a state of the Game of Death.
    """
    root = state
    while root.previous is not None:
        root = root.previous
    if not isinstance(root, DeathState):
        raise TypeError("the starter of a deal is read from a state of the Game of Death")
    return next(seat for seat, hand in enumerate(root.hands) if TWO_OF_DIAMONDS in hand)


def check_black_face(given: int, held: int, state: State) -> int:
    """The black face cards' drinks of ``state``'s deal, ``given`` in gives (G5) and ``held``
    in hand penalties (G11), which must add up to :data:`BLACK_FACE_TOTAL` (52).

    Raises:
        ValueError: they do not, naming the deal.
    """
    total = given + held
    if total != BLACK_FACE_TOTAL:
        raise ValueError(
            f"black face card drinks add up to {total} ({given} given, G5, and {held} drunk "
            f"from hands at the end, G11), not {BLACK_FACE_TOTAL}, in the deal {deal_text(state)}"
        )
    return total


def death_reading(
    state: State, log: Sequence[LogEntry]
) -> tuple[dict[str, JSON], list[tuple[float, ...]]]:
    """The figures of a finished game and each step's standing (minus the drinks taken so far,
    so that the seat with the fewest drinks stands highest: G12, fewest drinks wins).

    Figures: ``first`` (the holder of 2♦, who threw first: G1), ``drinks_taken`` (per seat),
    ``drinks_spread`` (most minus fewest drinks taken),
    ``passes`` (G2), ``socials`` (G7), ``ace_sweeps`` (G8), ``first_out`` (the seat that first
    threw his last card, G10) and ``first_out_at`` (the player actions up to and including that
    throw), ``black_face_drinks`` (always 52: G5, G11) and ``ended`` (always true: the game has
    no cap).

    Raises:
        ValueError: the drinks counted from the log are not the outcome's, or the black face
            card drinks do not add up to 52; both name the deal.
    """
    outcome = state.outcome
    assert outcome is not None
    drinks = [0] * state.players
    standings: list[tuple[float, ...]] = []
    passes = socials = sweeps = given = held = actions = 0
    first_out: int | None = None
    first_out_at: int | None = None
    for entry in log:
        actions += entry.kind == "action"
        for event in entry.events:
            kind, data = event.kind, event.data
            if kind in _DRINKS:
                drinks[data["seat"]] += data["drinks"]
                held += data["drinks"] if kind == "hand_penalty" else 0
            elif kind == "gave":
                drinks[data["to"]] += data["drinks"]
                given += data["drinks"]
            elif kind == "social":
                drinks = [d + 1 for d in drinks]
                socials += 1
            elif kind == "passed":
                passes += 1
            elif kind == "swept" and data["why"] == "ace":
                sweeps += 1
            elif kind == "last_card" and first_out is None:
                first_out, first_out_at = data["seat"], actions
        standings.append(tuple(-float(d) for d in drinks))
    if tuple(drinks) != tuple(outcome.scores):
        raise ValueError(
            f"the log's drinks {drinks} are not the outcome's {list(outcome.scores)} (G12), "
            f"in the deal {deal_text(state)}"
        )
    black = check_black_face(given, held, state)
    figures: dict[str, JSON] = {
        "ended": True,
        "first": starter(state),
        "drinks_taken": drinks,
        "drinks_spread": max(drinks) - min(drinks),
        "passes": passes,
        "socials": socials,
        "ace_sweeps": sweeps,
        "first_out": first_out,
        "first_out_at": first_out_at,
        "black_face_drinks": black,
    }
    return figures, standings


KERNEL_AGENTS = frozenset({"random", "heuristic", "medium"})
"""The agents of the lab's compiled kernel (:mod:`parlour.games.death.lab_kernel`), each making
the rules engine agent's choices from the same generator, so that its rows equal the rules
engine's."""


def kernel_rows(spec: RunSpec, indices: Sequence[int]) -> list[dict[str, JSON]]:
    """Games ``indices`` of the run ``spec`` on the compiled kernel
    (:func:`parlour.games.death.lab_kernel.kernel_rows`; numba loads only when games are
    played)."""
    from parlour.games.death.lab_kernel import kernel_rows as rows

    rotate = spec.dealer == "rotate"
    return rows(spec.players, spec.seed, spec.options, spec.agents, rotate, indices)


FIGURES = GameFigures(
    metrics=(
        MetricSpec(
            "length", "actions", "summary",
            "Player actions from the deal to the end (throws, passes and gives), with "
            "percentiles.",
        ),
        MetricSpec(
            "drinks_taken", "drinks", "mean",
            "Drinks each seat took in a game, points for a sober player (G12, G14).",
            per_seat=True,
        ),
        MetricSpec(
            "drinks_spread", "drinks", "mean",
            "The most drinks any player took in a game minus the fewest (G12).",
        ),
        MetricSpec("passes", "per game", "mean", "Passes in a game, a drink each (G2)."),
        MetricSpec(
            "socials", "per game", "mean",
            "Socials in a game: four cards of one rank in a row, everyone drinks (G7).",
        ),
        MetricSpec(
            "ace_sweeps", "per game", "mean", "Aces thrown in a game, each sweeping the pile (G8)."
        ),
        MetricSpec(
            "first_out_at", "actions", "mean",
            "Player actions up to the throw of the first player's last card, after which the "
            "game ends when his turn comes back (G10).",
        ),
        MetricSpec(
            "black_face_drinks", "drinks", "mean",
            "Drinks the black face cards gave (G5) or cost their holders at the end (G11) in a "
            "deal: exactly 52, checked in every game.",
        ),
    ),
    read=death_reading,
    kernel=LabKernel(agents=KERNEL_AGENTS, play=kernel_rows, same=KERNEL_AGENTS),
)  # fmt: skip
"""The Game of Death's metrics on top of the lab's generic ones."""
