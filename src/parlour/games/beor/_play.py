"""One BEOR game played to its end inside the compiled kernel (numba), as
:func:`parlour.bots.arena.play_to_end` plays it on the rules engine: the deal from the game's
generator, each seat's agent with its own generator, and what the lab reads of the game (its
moves, its result, the leader after every step: :func:`play_game`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from parlour.core.mersenne import seed
from parlour.games.beor._deal import start
from parlour.games.beor._kernel import (
    DRAW,
    NATURAL,
    NEED_SEEDS,
    NEED_SPACE,
    ONGOING,
    OUT_N,
    RESTOCKS,
    RESULT,
    TO,
    TURN,
    WIN,
    WINNER,
    apply,
    legal_moves,
)
from parlour.games.beor._policy import HEURISTIC, choose_heuristic, choose_random, standing_leader
from parlour.games.beor._tables import ACTION_ID, OWN

Int64Array = npt.NDArray[np.int64]

# What play_game writes to its ``out``.
O_RESULT = 0  # WIN, DRAW, or NEED_SEEDS or NEED_SPACE: play it again with more seeds or space
O_WINNER = 1  # -1 for none
O_TURNS = 2  # player actions (B10)
O_LEAD_CHANGES = 3
O_DECIDED = 4  # the step from which the winner led alone for good; -1 for none
O_STUCK = 5  # players who lost for having no legal play (B8)
O_RESTOCKS = 6  # B9
O_NATURAL = 7  # a dealt hand won (B5)
OUT_SIZE = 8


@njit(cache=True, nogil=True)
def _leader(w: Int64Array, parts: Int64Array) -> int:
    """The lab's leader after a step (``lab.metrics.leader`` of ``strategy.evaluate``): the
    winner of a game won, nobody (-1) for a draw, else the hand closest to two groups."""
    if w[RESULT] == WIN:
        return int(w[WINNER])
    if w[RESULT] == DRAW:
        return -1
    return standing_leader(w, parts)


@njit(cache=True, nogil=True)
def play_game(
    players: int,
    kinds: Int64Array,
    game_seed: int,
    agent_seeds: Int64Array,
    seeds: Int64Array,
    options: Int64Array,
    actions: Int64Array,
    out: Int64Array,
    w: Int64Array,
    rngs: Int64Array,
    scratch: Int64Array,
) -> None:
    """Play one game: dealt from the generator of ``game_seed``, seat ``s`` played by agent
    ``kinds[s]`` (``_policy.RANDOM`` or ``HEURISTIC``) with the generator of ``agent_seeds[s]``;
    ``seeds`` the seeds of the restocks (B9) in order;
    ``options`` natural_win, flip_reverses_order, restock_skip_jokers, max_turns. Writes each
    move's id to ``actions`` (NEED_SPACE when it is too short) and the figures to ``out`` (``O_*``).
    ``w``, ``rngs`` (``players + 1`` generators) and ``scratch`` (600 numbers) are work space."""
    rng = rngs[players]
    seed(rng, game_seed)
    start(
        w,
        players,
        rng,
        scratch[0:162],
        options[0] != 0,
        options[1] != 0,
        options[2] != 0,
        options[3],
        seeds.shape[0],
    )
    for s in range(players):
        seed(rngs[s], agent_seeds[s])
    parts = scratch[162:226]
    pool = scratch[226:290]
    policy = scratch[290:418]
    moves = scratch[418:610].reshape((64, 3))
    cache = np.empty(108, np.float64)
    led = _leader(w, parts)
    last_alone = led
    changes = 0
    run_start = 0
    step = 0
    while w[RESULT] == ONGOING:
        nmoves = legal_moves(w, moves)
        p = w[TO]
        if kinds[p] == HEURISTIC:
            m = choose_heuristic(w, moves, nmoves, rngs[p], policy, cache)
        else:
            m = choose_random(nmoves, rngs[p])
        card, base, source = moves[m, 0], moves[m, 1], moves[m, 2]
        if w[TURN] >= actions.shape[0]:
            out[O_RESULT] = NEED_SPACE
            return
        actions[w[TURN]] = ACTION_ID[card, base, OWN if source == base else source]
        apply(w, card, base, source, seeds, rng, pool)
        if w[RESULT] == NEED_SEEDS:
            out[O_RESULT] = NEED_SEEDS
            return
        step += 1
        now = _leader(w, parts)
        if now != led:
            run_start = step
        led = now
        if now >= 0:
            if last_alone >= 0 and now != last_alone:
                changes += 1
            last_alone = now
    out[O_RESULT] = w[RESULT]
    out[O_WINNER] = w[WINNER]
    out[O_TURNS] = w[TURN]
    out[O_LEAD_CHANGES] = changes
    out[O_DECIDED] = run_start if w[RESULT] == WIN else -1
    out[O_STUCK] = w[OUT_N]
    out[O_RESTOCKS] = w[RESTOCKS]
    out[O_NATURAL] = w[NATURAL]
