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
import numpy.typing as npt
from numba import njit

from parlour.cards import deck52
from parlour.core import kernel_cache, mersenne, splitmix
from parlour.core.game import JSON
from parlour.core.record import Record
from parlour.core.rng import derive_seed
from parlour.games.death import _kernel, _policies
from parlour.games.death._kernel import (
    CARDS,
    DAF,
    FIRST,
    GIVE,
    GIVEN,
    HAND,
    LAST,
    OVER,
    PASS,
    PILE,
    PLEFT,
    PLEN,
    PSEAT,
    SEATS,
    SIZE,
    TAKEN,
    TO,
    TWO_OF_DIAMONDS,
    Int64Array,
    N,
    apply,
    bit,
    count,
    held_value,
    legal,
    throws,
)
from parlour.games.death._policies import heuristic_noisy
from parlour.games.death.figures import BLACK_FACE_TOTAL
from parlour.games.death.options import MAX_PLAYERS
from parlour.games.death.playout import action_of

__all__ = ["AGENTS", "KINDS", "kernel_rows", "play_games"]

RANDOM, HEURISTIC = 0, 1
KINDS = {"random": RANDOM, "heuristic": HEURISTIC, "medium": HEURISTIC}
"""The agents the kernel plays, by their specs, and the kernel's number for each."""
AGENTS = frozenset(KINDS)

MAX_ACTIONS = 52 + 52 * (MAX_PLAYERS - 1) + 52
"""The most actions a game takes (``DeathGame.info.max_game_length``)."""

# A game's numbers, one column each, then the drinks taken per seat.
FIRST_MOVER, LENGTH, PASSES, SOCIALS, ACES, FIRST_OUT, FIRST_OUT_AT = range(7)
LEAD_CHANGES, DECIDED, BLACK, DRINKS = 7, 8, 9, 10

_NUMBER = {card: k for k, card in enumerate(CARDS)}
DECK = np.array([_NUMBER[c] for c in deck52()], np.int64)
"""``deck52()``'s cards as the kernel numbers them: the deck that deals shuffle."""
TEXTS = tuple(str(action_of(code)) for code in range(GIVE + 20 * SEATS))
"""Each kernel code's action in notation, as records write it."""


@njit(cache=True, nogil=True)
def _deal(w: Int64Array, mt: Int64Array, deck: Int64Array, players: int, first: int) -> None:
    """``w`` the start of a deal: ``DECK`` shuffled by ``mt``, dealt one card at a time from seat
    ``first`` (G1; seat 0 for ``DeathGame.new``), the holder of 2♦ to move."""
    deck[:] = DECK
    mersenne.shuffle(mt, deck)
    w[:] = 0
    w[N] = players
    for i in range(52):
        s = (first + i) % players
        w[HAND + s] |= bit(deck[i])
    w[LAST] = -1
    w[FIRST] = -1
    w[PSEAT] = -1
    for s in range(players):
        if w[HAND + s] & bit(TWO_OF_DIAMONDS):
            w[TO] = s


@njit(cache=True, nogil=True)
def _leader(w: Int64Array) -> int:
    """The seat that took the fewest drinks alone (the lab's leader, G12), or -1 on a tie."""
    best = 0
    alone = True
    for s in range(1, w[N]):
        if w[TAKEN + s] < w[TAKEN + best]:
            best = s
            alone = True
        elif w[TAKEN + s] == w[TAKEN + best]:
            alone = False
    return best if alone else -1


@njit(cache=True, nogil=True)
def _choose(
    w: Int64Array, kind: int, mt: Int64Array, out: Int64Array, noise: npt.NDArray[np.float64]
) -> int:
    """The action of the agent ``kind`` to move in ``w``, drawing from ``mt`` as it does."""
    if kind == HEURISTIC:
        c = 0
        if w[PLEFT] == 0:
            c = count(throws(w))
            for i in range(c):
                noise[i] = mersenne.random(mt)
        return heuristic_noisy(w, noise[:c])
    c = legal(w, out)
    return int(out[mersenne.randbelow(mt, c)])


@njit(cache=True, nogil=True)
def _play(
    w: Int64Array,
    mts: Int64Array,
    kinds: Int64Array,
    codes: Int64Array,
    led: Int64Array,
    stats: Int64Array,
) -> None:
    """Play the deal in ``w`` to the end, seat ``s`` by agent ``kinds[s]`` drawing from
    ``mts[s]``: the actions' codes into ``codes``, the leader after each step into ``led``
    (step 0 the deal) and the game's numbers into ``stats`` (the columns above)."""
    players = w[N]
    out = np.empty(200, np.int64)
    noise = np.empty(52, np.float64)
    stats[:] = 0
    stats[FIRST_MOVER] = w[TO]
    stats[FIRST_OUT] = -1
    stats[FIRST_OUT_AT] = -1
    led[0] = _leader(w)
    steps = 0
    while w[OVER] == 0:
        p = w[TO]
        code = _choose(w, kinds[p], mts[p], out, noise)
        if code == PASS:
            stats[PASSES] += 1
        elif code < PASS:
            if code >> 2 == 0:
                stats[ACES] += 1  # G8: every Ace sweeps once its gives are made
            plen = w[PLEN]
            if plen >= 3:
                base = PILE + plen
                rank = code >> 2
                if (
                    w[base - 1] >> 2 == rank
                    and w[base - 2] >> 2 == rank
                    and w[base - 3] >> 2 == rank
                ):
                    stats[SOCIALS] += 1  # G7
        codes[steps] = code
        apply(w, code)
        steps += 1
        if stats[FIRST_OUT] < 0 and w[FIRST] >= 0:
            stats[FIRST_OUT] = w[FIRST]
            stats[FIRST_OUT_AT] = steps
        led[steps] = _leader(w)
    stats[LENGTH] = steps
    changes = 0
    last = -1
    for k in range(steps + 1):
        if led[k] >= 0:
            if last >= 0 and led[k] != last:
                changes += 1
            last = led[k]
    stats[LEAD_CHANGES] = changes
    winner = _leader(w)
    start = steps + 1
    while start > 0 and led[start - 1] == winner:
        start -= 1
    stats[DECIDED] = start if winner >= 0 and start <= steps else -1
    black = 0
    for s in range(players):
        black += w[GIVEN + s] + held_value(w[HAND + s])
        stats[DRINKS + s] = w[TAKEN + s]
    stats[BLACK] = black


@njit(cache=True, nogil=True)
def play_games(
    players: int,
    daf: bool,
    deal_seeds: Int64Array,
    deal_first: Int64Array,
    agent_seeds: Int64Array,
    kinds: Int64Array,
    codes: Int64Array,
    stats: Int64Array,
) -> None:
    """Game ``g`` for each row: dealt by ``random.Random(deal_seeds[g])`` from seat
    ``deal_first[g]``, option ``difference_against_faces`` ``daf`` (G3), seat ``s`` played by
    agent ``kinds[g, s]`` from ``random.Random(agent_seeds[g, s])``; its actions' codes into
    ``codes[g]`` and its numbers into ``stats[g]`` (:func:`_play`)."""
    w = np.empty(SIZE, np.int64)
    deck = np.empty(52, np.int64)
    mts = np.empty((players, mersenne.STATE), np.int64)
    led = np.empty(MAX_ACTIONS + 1, np.int64)
    for g in range(deal_seeds.shape[0]):
        mersenne.seed(mts[0], deal_seeds[g])
        _deal(w, mts[0], deck, players, deal_first[g])
        w[DAF] = daf
        for s in range(players):
            mersenne.seed(mts[s], agent_seeds[g, s])
        _play(w, mts, kinds[g], codes[g], led, stats[g])


# Every function here is checked against the kernel's sources too (parlour.core.kernel_cache).
kernel_cache.share_stamp(
    [__import__(__name__, fromlist=["_"])], sources=(_kernel, _policies, splitmix, mersenne)
)


def kernel_rows(spec: object, indices: Sequence[int]) -> list[dict[str, JSON]]:
    """Games ``indices`` of the lab run ``spec`` (a checked RunSpec of the Game of Death whose
    agents are all in :data:`AGENTS`), one row each as the rules engine's path writes it:
    ``index``, ``plan``, ``figures`` and ``record``.

    Raises:
        ValueError: a game's black face card drinks do not add up to 52 (G5, G11), naming
            its record.
    """
    from parlour.bots.arena import seat_plan

    players: int = getattr(spec, "players")  # noqa: B009 (the RunSpec, not imported: no cycle)
    seed: int = getattr(spec, "seed")  # noqa: B009
    options: Mapping[str, JSON] = getattr(spec, "options")  # noqa: B009
    agents = [a.strip().lower() for a in getattr(spec, "agents")]  # noqa: B009
    rotate = getattr(spec, "dealer", "fixed") == "rotate"
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
        plan = seat_plan(i, players, len(agents))
        plans.append(plan)
        for s in range(players):
            agent_seeds[g, s] = derive_seed(seed, "agent", i, s)
            kinds[g, s] = KINDS[agents[plan[s]]]
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
        # parlour.lab.metrics.with_positions, not imported: the metrics load scipy
        "position_win_shares": [shares[(p + first) % players] for p in range(players)],
    }
