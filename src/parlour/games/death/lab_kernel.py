"""The Game of Death's games for the lab on its compiled kernel (``parlour lab run death
--engine fast``): the rules of :mod:`._kernel`, its agents' choices made as the rules engine's
agents make them, and each game's row as :func:`parlour.lab.run.play_batch` writes it for the
rules engine (:class:`parlour.lab.figures.LabKernel`).

Game ``i`` of a run is the rules engine's game ``i``, action for action: its deal is shuffled
by :mod:`parlour.core.mersenne` (Python's ``random.Random`` in compiled code) from the same seed
as :meth:`DeathGame.new` (or :func:`~parlour.games.death.game.match_deal` with a rotating dealer),
and seat ``s`` draws from ``random.Random(derive_seed(seed, "agent", i, s))`` as the arena's
agents do:

- ``random``: ``legal_actions[rng.randrange(len(legal_actions))]`` (:class:`RandomAgent`), the
  legal actions in the rules engine's order (the kernel's ``legal``), a give split among
  players included;
- ``heuristic`` (and ``medium``, the same agent): ``DeathHeuristic``, one ``rng.random()``
  for each throw it may make, times 1e-6, added last to the throw's score
  (:func:`._policies.heuristic_noisy`), none for a pass or a give.

So the kernel's rows equal the rules engine's (``tests/lab/test_engines.py`` checks thousands of
seeded games for every player count and both agents).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from parlour.core import kernel_cache, mersenne, splitmix
from parlour.core.game import JSON
from parlour.core.record import Record
from parlour.core.rng import derive_seed
from parlour.games.death import _kernel, _lab, _policies
from parlour.games.death._kernel import BLACK_FACE, FACE_VALUE, GIVE, SEATS
from parlour.games.death._lab import (
    ACES,
    BLACK,
    DECIDED,
    DRINKS,
    FIRST_MOVER,
    FIRST_OUT,
    FIRST_OUT_AT,
    HEURISTIC,
    LEAD_CHANGES,
    LENGTH,
    MAX_ACTIONS,
    PASSES,
    RANDOM,
    SOCIALS,
    play_games,
)
from parlour.games.death.playout import action_of

__all__ = ["AGENTS", "KINDS", "kernel_rows"]

# Every function of _lab is checked against the kernel's sources too (parlour.core.kernel_cache).
kernel_cache.share_stamp((_lab,), sources=(_kernel, _policies, splitmix, mersenne))

KINDS = {"random": RANDOM, "heuristic": HEURISTIC, "medium": HEURISTIC}
"""The agents the kernel plays, by their specs, and the kernel's number for each."""
AGENTS = frozenset(KINDS)

BLACK_FACE_TOTAL = int(FACE_VALUE[BLACK_FACE].sum())
"""52: the drinks the black face cards give (G5) or cost their holders (G11) in every deal."""
TEXTS = tuple(str(action_of(code)) for code in range(GIVE + 20 * SEATS))
"""Each kernel code's action in notation, as records write it."""


def kernel_rows(
    players: int,
    seed: int,
    options: Mapping[str, JSON],
    agents: Sequence[str],
    rotate: bool,
    indices: Sequence[int],
) -> list[dict[str, JSON]]:
    """Games ``indices`` of a lab run (``players``, ``seed``, the checked ``options``, the
    ``agents`` that seats rotate over, all in :data:`AGENTS`, and whether the dealer rotates),
    one row each as the rules engine's path writes it: ``index``, ``plan`` (seat ``s`` plays
    agent ``(s + index) mod k``, as the arena seats them), ``figures`` and ``record``.

    Raises:
        ValueError: a game's black face card drinks do not add up to 52 (G5, G11), naming
            its record.
    """
    names = [a.strip().lower() for a in agents]
    games = len(indices)
    deal_seeds = np.empty(games, np.int64)
    deal_first = np.zeros(games, np.int64)
    agent_seeds = np.empty((games, players), np.int64)
    kinds = np.empty((games, players), np.int64)
    plans = []
    for g, i in enumerate(indices):
        if rotate:  # match_deal: the dealer moves one seat a deal, the cards from his left
            deal_seeds[g] = derive_seed(seed, "deal", i)
            deal_first[g] = i % players
        else:
            deal_seeds[g] = derive_seed(seed, "game", i)
        plan = tuple((s + i) % len(names) for s in range(players))
        plans.append(plan)
        for s in range(players):
            agent_seeds[g, s] = derive_seed(seed, "agent", i, s)
            kinds[g, s] = KINDS[names[plan[s]]]
    codes = np.empty((games, MAX_ACTIONS), np.int64)
    stats = np.empty((games, DRINKS + players), np.int64)
    daf = bool(options.get("difference_against_faces", False))
    play_games(players, daf, deal_seeds, deal_first, agent_seeds, kinds, codes, stats)
    rows: list[dict[str, JSON]] = []
    for g, i in enumerate(indices):
        numbers = stats[g].tolist()
        length = numbers[LENGTH]
        record = Record(
            "death",
            players,
            seed if rotate else int(deal_seeds[g]),
            dict(options),
            None,
            tuple(TEXTS[c] for c in codes[g, :length].tolist()),
            deal_number=i if rotate else None,
        ).to_json()
        if numbers[BLACK] != BLACK_FACE_TOTAL:
            raise ValueError(
                f"black face card drinks add up to {numbers[BLACK]}, not {BLACK_FACE_TOTAL} "
                f"(G5, G11), in the game {record}"
            )
        rows.append(
            {
                "index": i,
                "plan": list(plans[g]),
                "figures": _figures(players, numbers),
                "record": record,
            }
        )
    return rows


def _figures(players: int, numbers: list[int]) -> dict[str, JSON]:
    """A game's figures from its numbers, as :func:`parlour.lab.metrics.game_figures` gives them
    for the rules engine's game (the death reading's figures after the generic ones)."""
    drinks = numbers[DRINKS : DRINKS + players]
    fewest = min(drinks)
    winners = [s for s, d in enumerate(drinks) if d == fewest]
    steps = numbers[LENGTH]
    decided: float | None = None
    if len(winners) == 1 and numbers[DECIDED] >= 0:
        decided = numbers[DECIDED] / steps if steps else 0.0
    first_out = numbers[FIRST_OUT]
    first = numbers[FIRST_MOVER]
    shares = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    return {
        "game": "death",
        "players": players,
        "result": "end",
        "winners": winners,
        "win_shares": shares,
        "first": first,
        "length": steps,
        "lead_changes": numbers[LEAD_CHANGES],
        "decided_at": decided,
        "ended": True,
        "drinks_taken": drinks,
        "drinks_spread": max(drinks) - fewest,
        "passes": numbers[PASSES],
        "socials": numbers[SOCIALS],
        "ace_sweeps": numbers[ACES],
        "first_out": None if first_out < 0 else first_out,
        "first_out_at": None if first_out < 0 else numbers[FIRST_OUT_AT],
        "black_face_drinks": numbers[BLACK],
        # parlour.lab.metrics.with_positions, done here: a kernel's worker imports no metrics
        "position_win_shares": [shares[(p + first) % players] for p in range(players)],
    }
