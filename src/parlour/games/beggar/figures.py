"""Beggar-My-Neighbour's lab figures (its ``FIGURES``, :mod:`parlour.lab.figures`): its own
metrics, and its figures of one finished game of the rules engine, from its public log, and of
many deals played by the compiled kernel (:mod:`parlour.games.beggar.fast`), from its results.

The game has no decisions, so ``parlour lab run`` plays its deals on the kernel rather than
through agents (:func:`kernel_rows`): game ``i`` of a run is deal ``i`` of the seed's stream
(:func:`~parlour.games.beggar.fast.random_deals`), so a game's figures depend only on the seed
and ``i``, whatever the batch or the worker. The kernel keeps no history, so its deals have no
lead figures.

The standing of a step is the cards each player holds at the last trick boundary (the deal, or
the last capture, M2; and the game's last step). Cards turned onto the pile mid-trick belong to
nobody yet: counted card by card, two players with 26 each would swap the lead on every card
turned, which is no lead at all. The leader is the player holding most cards, alone.

Positions: cards are dealt from seat 0, who leads (M7), so a seat's position in the turn order
is its number (``first`` is 0 in every row, the kernel's too); with 3 players seat 0 also holds
the extra card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from parlour.core.game import JSON, LogEntry, State
from parlour.games.beggar.game import GAME
from parlour.lab.figures import GameFigures, MetricSpec
from parlour.lab.metrics import with_positions

__all__ = ["FIGURES", "KernelResults", "beggar_figures", "beggar_reading", "kernel_rows"]

GAMES_DONE = "share of games"


class KernelResults(Protocol):
    """What :func:`beggar_figures` reads of the kernel's ``FastResults`` (``play_deals``,
    ``play_random``): the number of deals and each deal's summary ``{"result", "winners",
    "cards", "tricks", "cycle"}``."""

    def __len__(self) -> int: ...

    def summary(self, index: int) -> dict[str, JSON]: ...


def _result_figures(result: str, cards: int, tricks: int) -> dict[str, JSON]:
    """The figures both engines give: who leads first (seat 0, M7), cards and tricks (M8), a
    loop (M10), the card limit (M11), and whether the rules ended the game (M6) rather than a
    loop or the limit."""
    return {
        "first": 0,  # Ruling M7: seat 0 leads
        "ended": result == "win",
        "cards": cards,
        "tricks": tricks,
        "loop": result == "loop",
        "card_limit": result == "limit",
    }


def beggar_reading(
    state: State, log: Sequence[LogEntry]
) -> tuple[dict[str, JSON], list[tuple[float, ...]]]:
    """The figures of a finished game of the rules engine and each step's standing (see the
    module docstring). Every action puts one card on the pile, so the game's length in
    actions is its ``cards`` (M8).

    Raises:
        ValueError: the cards counted from the log are not the hands the outcome names.
    """
    outcome = state.outcome
    assert outcome is not None
    root = state
    while root.previous is not None:
        root = root.previous
    held = [int(n) for n in root.view(None).to_json()["hand_sizes"]]
    standing = tuple(float(n) for n in held)
    standings: list[tuple[float, ...]] = []
    for number, entry in enumerate(log):
        boundary = number == len(log) - 1
        for event in entry.events:
            if event.kind == "turned":
                held[event.data["seat"]] -= 1
            elif event.kind == "captured":
                held[event.data["seat"]] += event.data["cards"]
                boundary = True
        if boundary:
            standing = tuple(float(n) for n in held)
        standings.append(standing)
    if tuple(held) != tuple(outcome.scores):
        raise ValueError(
            f"the log leaves the hands with {held} cards, the outcome says "
            f"{list(outcome.scores)} (M8)"
        )
    details = outcome.details
    return _result_figures(outcome.result, details["cards"], details["tricks"]), standings


def beggar_figures(results: KernelResults, players: int) -> list[dict[str, JSON]]:
    """One row of figures a deal played by the compiled kernel, as
    :func:`parlour.lab.metrics.game_figures` gives
    them for a game of the rules engine: ``winners``, ``win_shares``, ``length`` (cards, M8;
    for a loop, the cards when the repeat was seen, M10), ``cards``, ``tricks``, ``loop``,
    ``card_limit`` and ``ended``. The kernel keeps no history, so ``lead_changes`` and
    ``decided_at`` are None (undefined); ``first`` is 0 (M7) and ``position_win_shares``
    the ``win_shares`` (:func:`parlour.lab.metrics.with_positions`).

    Raises:
        ValueError: a winner outside the ``players`` seats.
    """
    rows: list[dict[str, JSON]] = []
    for index in range(len(results)):
        summary = results.summary(index)
        winners = [int(s) for s in summary["winners"]]
        if any(not 0 <= s < players for s in winners):
            raise ValueError(f"deal {index} has winners {winners}, not seats of {players}")
        result = str(summary["result"])
        cards, tricks = int(summary["cards"]), int(summary["tricks"])
        rows.append(
            with_positions(
                {
                    "game": GAME.info.name,
                    "players": players,
                    "result": result,
                    "winners": winners,
                    "win_shares": [
                        1 / len(winners) if s in winners else 0.0 for s in range(players)
                    ],
                    "length": cards,
                    "lead_changes": None,
                    "decided_at": None,
                    **_result_figures(result, cards, tricks),
                }
            )
        )
    return rows


def _runs(indices: Sequence[int]) -> list[tuple[int, int]]:
    """``indices`` as (start, count) runs of consecutive numbers."""
    out: list[tuple[int, int]] = []
    for i in sorted(indices):
        if out and out[-1][0] + out[-1][1] == i:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((i, 1))
    return out


def kernel_rows(
    players: int, seed: int, options: Mapping[str, object], indices: Sequence[int]
) -> list[dict[str, JSON]]:
    """Each deal's row of a lab run: its index, the deal in notation (M9: replay it with
    ``parlour beggar play --deal``) and its figures (:func:`beggar_figures`)."""
    # Imported here: the kernel (numba) loads only when deals are played.
    from parlour.games.beggar.fast import play_deals, random_deals

    rows: list[dict[str, JSON]] = []
    for start, count in _runs(indices):
        deals = random_deals(players, count, seed, start=start)
        figures = beggar_figures(play_deals(deals, dict(options)), players)
        for k, found in enumerate(figures):
            rows.append({"index": start + k, "plan": [], "deal": deals.deal(k), "figures": found})
    return rows


FIGURES = GameFigures(
    metrics=(
        MetricSpec(
            "length", "cards", "summary",
            "Cards played (M8), a never-ending game up to where its repeat was seen (M10), with "
            "percentiles, and a survival curve when loops or the card limit (M11) stopped games.",
        ),
        MetricSpec("tricks", "tricks", "mean", "Piles taken in a game, the last one too (M8)."),
        MetricSpec(
            "loop_rate", GAMES_DONE, "rate",
            "The share of deals that never end, found by a repeated position (M10).",
            figure="loop",
        ),
        MetricSpec(
            "card_limit_rate", GAMES_DONE, "rate",
            "The share of games stopped by option card_limit (M11).",
            figure="card_limit",
        ),
    ),
    read=beggar_reading,
    play_batch=kernel_rows,
)  # fmt: skip
"""Beggar-My-Neighbour's metrics on top of the lab's generic ones (its length in cards); the
leader holds the most cards at a trick boundary."""
