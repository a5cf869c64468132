"""Crazy Eights' lab figures (its ``FIGURES``, :mod:`parlour.lab.figures`): how games end, what
they cost, and the standing of each step, read from the public log.

The standing of a step is minus each hand's size (fewer cards is better: the player who goes
out wins), counted from the public log alone: the cards dealt, one more for each card drawn and
one fewer for each card played.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import JSON, LogEntry, State
from parlour.lab.figures import GameFigures, MetricSpec

__all__ = ["FIGURES", "reading"]


def reading(
    state: State, log: Sequence[LogEntry]
) -> tuple[dict[str, JSON], list[tuple[float, ...]]]:
    """The figures of a finished game and each step's standing (see the module docstring).

    Figures: ``went_out`` (a player played every card), ``blocked`` (the stock ran out and
    everyone passed), ``card_limit`` (``max_turns`` cards were played; ``ended`` is false
    exactly then), ``draws`` and ``eights`` (cards drawn, 8s played) and ``points`` (each
    seat's penalty points).

    Raises:
        ValueError: the log's hand sizes do not end as the state's hands.
    """
    outcome = state.outcome
    assert outcome is not None
    sizes = [0] * state.players
    standings: list[tuple[float, ...]] = []
    draws = eights = 0
    for entry in log:
        for event in entry.events:
            data = event.data
            if event.kind == "dealt":
                sizes = [int(data["cards"])] * state.players
            elif event.kind == "drew":
                sizes[int(data["seat"])] += 1
                draws += 1
            elif event.kind == "played":
                sizes[int(data["seat"])] -= 1
                eights += str(data["card"]).startswith("8")
        standings.append(tuple(-float(k) for k in sizes))
    final = state.view(None).to_json()["hand_sizes"]
    if sizes != final:
        raise ValueError(f"the log's hand sizes {sizes} do not end as the hands {final}")
    figures: dict[str, JSON] = {
        "ended": outcome.result != "limit",
        "went_out": outcome.result == "win",
        "blocked": outcome.result == "blocked",
        "card_limit": outcome.result == "limit",
        "draws": draws,
        "eights": eights,
        "points": list(outcome.scores),
    }
    return figures, standings


FIGURES = GameFigures(
    metrics=(
        MetricSpec(
            "went_out",
            "share of games",
            "rate",
            "The share of games won by a player who played every card.",
        ),
        MetricSpec(
            "blocked",
            "share of games",
            "rate",
            "The share of games that ended with the stock empty and every player passing.",
        ),
        MetricSpec(
            "card_limit",
            "share of games",
            "rate",
            "The share of games stopped by the card limit (option max_turns).",
        ),
        MetricSpec("draws", "per game", "mean", "Cards drawn from the stock in a game."),
        MetricSpec("eights", "per game", "mean", "Eights played in a game."),
        MetricSpec(
            "points", "points", "mean", "The penalty points each seat ends with.", per_seat=True
        ),
    ),
    read=reading,
)
