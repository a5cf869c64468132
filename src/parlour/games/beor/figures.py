"""BEOR's lab figures (its ``FIGURES``, :mod:`parlour.lab.figures`): its own metrics, and its
reading of one finished game, from its public log, with each step's standing.

BEOR keeps no score, so the standing of a step is the game's own search evaluation of that
full position (``game.strategy.evaluate``, :mod:`parlour.games.beor.strategy`): each seat's
weight grows with how many of his cards sit in two disjoint partial groups whose missing cards
are still to be had (not buried on a base nor held by another player; B5), a seat that is out
weighs 0 (B8), and a finished game weighs its result. The leader is thus the player whose hand
is closest to two groups; it is read from the full state (hands are hidden), which is what a
referee looking at every hand would say.

Positions: seat 0 plays first (B3), so a seat's position in the turn order is its number
(``first`` is 0 in every row), and seat 0's win rate above 1/players is the first-player
advantage.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import JSON, LogEntry, State
from parlour.games.beor.lab.kernel import KERNEL
from parlour.lab.figures import GameFigures, MetricSpec

__all__ = ["FIGURES", "beor_reading", "own_figures"]

GAMES_DONE = "share of games"


def beor_reading(
    state: State, log: Sequence[LogEntry]
) -> tuple[dict[str, JSON], list[tuple[float, ...]]]:
    """The figures of a finished game and each step's standing (see the module docstring).

    Figures: ``first`` (0: seat 0 plays first, B3), ``stuck_losses`` (players who lost for
    having no legal play at the start of their turn, B8) and ``stuck`` (at least one did),
    ``restocks`` (B9), ``natural_win`` (a hand was dealt as two groups and won at once, B5
    with option ``natural_win``), ``turn_cap_draw`` (the game reached option ``max_turns``
    and is a draw, B10) and ``ended`` (false exactly then: the cap, not the rules, ended it).

    Raises:
        ValueError: the game has no strategy to evaluate positions with.
    """
    outcome = state.outcome
    assert outcome is not None
    strategy = state.game.strategy
    if strategy is None:
        raise ValueError(f"{state.game.info.title} has no strategy to find a leader with")
    chain: list[State] = []
    step: State | None = state
    while step is not None and len(chain) < len(log):
        chain.append(step)
        step = step.previous
    standings = [tuple(strategy.evaluate(s)) for s in reversed(chain)]
    kinds = [(entry.kind, event.kind) for entry in log for event in entry.events]
    figures = own_figures(
        draw=outcome.result == "draw",
        stuck=sum(kind == "lost" for _, kind in kinds),
        restocks=sum(kind == "restocked" for _, kind in kinds),
        natural_win=("deal", "won") in kinds,
    )
    return figures, standings


def own_figures(*, draw: bool, stuck: int, restocks: int, natural_win: bool) -> dict[str, JSON]:
    """BEOR's own figures of a game (see :func:`beor_reading`), from either engine: a draw at
    the turn limit, the players stuck (B8), the restocks (B9), a natural win (B5)."""
    return {
        "ended": not draw,
        "first": 0,  # Ruling B3: seat 0 plays first
        "stuck_losses": stuck,
        "stuck": stuck > 0,
        "restocks": restocks,
        "natural_win": natural_win,
        "turn_cap_draw": draw,
    }


FIGURES = GameFigures(
    metrics=(
        MetricSpec(
            "length", "actions", "summary",
            "Player actions from the deal to the end (turns), with percentiles, and a survival "
            "curve when the turn limit stopped games (B10).",
        ),
        MetricSpec(
            "stuck_loss_rate", GAMES_DONE, "rate",
            "The share of games in which a player lost for having no legal play at the start of "
            "his turn (B8).",
            figure="stuck",
        ),
        MetricSpec(
            "restocks", "per game", "mean",
            "Restocks of the four stocks from the bases and scrap pile in a game (B9).",
        ),
        MetricSpec(
            "natural_win_rate", GAMES_DONE, "rate",
            "The share of games won at the deal by a hand dealt as two groups (B5).",
            figure="natural_win",
        ),
        MetricSpec(
            "turn_cap_draw_rate", GAMES_DONE, "rate",
            "The share of games drawn at the turn limit, option max_turns (B10).",
            figure="turn_cap_draw",
        ),
    ),
    read=beor_reading,
    kernel=KERNEL,
)  # fmt: skip
"""BEOR's metrics on top of the lab's generic ones; the leader is the hand closest to two
groups."""
