"""The compiled BEOR engine (``games/beor/_kernel.py``, ``_policy.py``, ``_play.py``,
``fast.py``) against the rules engine, step by step: on seeded games of 2 to 5 players, at
every step the legal moves, the move the agent chooses (the heuristic and the random agent,
each with the arena's generator), the whole position after it (hands in order, bases, stocks
with their faces and known cards, cards known in hands, the scrap pile, who is out, the turn,
the result, the restocks), the generators' states and the lab's leader; then whole games as the
arena plays them (moves, result, length, lead changes, the step the game was decided, stuck
players, restocks, natural wins); the deal (B1-B3) on its own; the options (B5, B6, B9, B10).
Games come from fixed seeds only.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from parlour.bots.arena import play_to_end
from parlour.bots.random_agent import RandomAgent
from parlour.core import mersenne
from parlour.core.rng import derive_seed
from parlour.games.beor import _deal, _play, _policy
from parlour.games.beor import _kernel as k
from parlour.games.beor._tables import ACTION_ID, CARDS, OWN
from parlour.games.beor.deal import deal_from_seed
from parlour.games.beor.fast import play_games
from parlour.games.beor.game import BeorGame
from parlour.games.beor.notation import ACTIONS
from parlour.games.beor.options import BeorOptions
from parlour.games.beor.rules import BeorState
from parlour.games.beor.strategy import STRATEGY, BeorHeuristic
from parlour.lab.metrics import game_figures, leader

GAME = BeorGame()
PLAYERS = (2, 3, 4, 5)
# Games of each player count played whole on both engines (PARLOUR_BEOR_KERNEL_GAMES: the
# suite's 25 take about twenty seconds; 2,000, 10,664 whole games and 3,200 step by step in
# all, half an hour), a fifth of them also step by step.
WHOLE_GAMES = int(os.environ.get("PARLOUR_BEOR_KERNEL_GAMES", "25"))
STEP_GAMES = max(1, WHOLE_GAMES // 5)
AGENT_SETS = (("heuristic",), ("random",), ("heuristic", "random"))


# -- the kernel driven step by step -----------------------------------------------------------


def _options_array(options: BeorOptions) -> tuple[bool, bool, bool, int]:
    return (
        options.natural_win,
        options.flip_reverses_order,
        options.restock_skip_jokers,
        options.max_turns,
    )


class Kernel:
    """A kernel position driven from Python, one step at a time."""

    def __init__(self, players: int, seed: int, options: BeorOptions, restocks: int = 120):
        self.w = np.zeros(k.SIZE, np.int64)
        self.rng = mersenne.generators(1)[0]
        self.moves = np.zeros((64, 3), np.int64)
        self.pool = np.zeros(64, np.int64)
        self.parts = np.zeros(64, np.int64)
        self.scratch = np.zeros(128, np.int64)
        self.cache = np.zeros(108, np.float64)
        self.seeds = np.array(
            [derive_seed(seed, "restock", r + 1) for r in range(restocks)], np.int64
        )
        mersenne.seed(self.rng, seed)
        natural, reverse, skip, max_turns = _options_array(options)
        _deal.start(self.w, players, self.rng, np.zeros(162, np.int64), natural, reverse, skip,
                max_turns, restocks)  # fmt: skip

    def legal(self) -> list[tuple[int, int, int]]:
        n = k.legal_moves(self.w, self.moves)
        return [(int(c), int(b), int(s)) for c, b, s in self.moves[:n]]

    def apply(self, move: tuple[int, int, int]) -> None:
        k.apply(self.w, *move, self.seeds, self.rng, self.pool)

    def snapshot(self) -> dict[str, Any]:
        w = self.w
        n = int(w[k.N])
        result = {k.ONGOING: None, k.WIN: "win", k.DRAW: "draw"}[int(w[k.RESULT])]

        def cards(start: int, size: int, top_first: bool = False) -> tuple[str, ...]:
            found = [str(CARDS[w[start + i]]) for i in range(size)]
            return tuple(reversed(found)) if top_first else tuple(found)

        def mask(m: int) -> frozenset[str]:
            return frozenset(str(CARDS[c]) for c in range(54) if m >> c & 1)

        return {
            "to_move": None if result else int(w[k.TO]),
            "turn": int(w[k.TURN]),
            "result": result,
            "winner": None if w[k.WINNER] < 0 else int(w[k.WINNER]),
            "restocks": int(w[k.RESTOCKS]),
            "hands": tuple(cards(k.HAND + 8 * s, w[k.HAND_N + s]) for s in range(n)),
            "bases": tuple(cards(k.BASE + 54 * b, w[k.BASE_N + b], True) for b in range(4)),
            "stocks": tuple(cards(k.STOCK + 54 * i, w[k.STOCK_N + i], True) for i in range(4)),
            "face_up": tuple(bool(w[k.UP + i]) for i in range(4)),
            "known": tuple(
                frozenset(
                    (j, str(CARDS[w[k.STOCK + 54 * i + j]]))
                    for j in range(w[k.STOCK_N + i])
                    if w[k.KNOWN + 54 * i + j]
                )
                for i in range(4)
            ),
            "known_hands": tuple(mask(w[k.KNOWN_HAND + s]) for s in range(n)),
            "scrap": cards(k.SCRAP, w[k.SCRAP_N]),
            "out": tuple(int(s) for s in w[k.OUT : k.OUT + w[k.OUT_N]]),
        }


def rules_snapshot(state: BeorState) -> dict[str, Any]:
    """The same fields of a rules engine position."""
    return {
        "to_move": state.to_move,
        "turn": state.turn,
        "result": state._result,
        "winner": state._winner,
        "restocks": state._restocks,
        "hands": tuple(tuple(str(c) for c in h) for h in state._hands),
        "bases": tuple(tuple(str(c) for c in b) for b in state._bases),
        "stocks": tuple(tuple(str(c) for c in st) for st in state._stocks),
        "face_up": state._face_up,
        "known": tuple(frozenset((o, str(c)) for o, c in kn) for kn in state._known),
        "known_hands": tuple(frozenset(str(c) for c in kh) for kh in state._known_hands),
        "scrap": tuple(str(c) for c in state._scrap),
        "out": state._out,
    }


def move_text(move: tuple[int, int, int]) -> str:
    card, base, source = move
    return str(ACTIONS[ACTION_ID[card, base, OWN if source == base else source]])


def seeded_games(players: int, count: int) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Game seeds and agent sets, the sets in turn."""
    for i in range(count):
        yield derive_seed(7000 + players, "kernel", i), AGENT_SETS[i % len(AGENT_SETS)]


def step_by_step(players: int, seed: int, agents: tuple[str, ...], options: BeorOptions) -> int:
    """One game on both engines, checked at every step; returns its length."""
    state = GAME.new(players, seed, options.to_json())
    kernel = Kernel(players, seed, options)
    rngs = [random.Random(derive_seed(seed, "agent", s)) for s in range(players)]
    krngs = mersenne.generators(players)
    for s in range(players):
        mersenne.seed(krngs[s], derive_seed(seed, "agent", s))
    python: dict[str, BeorHeuristic | RandomAgent] = {
        "heuristic": BeorHeuristic(),
        "random": RandomAgent(),
    }
    parts = np.zeros(64, np.int64)
    steps = 0
    while True:
        where = f"{players} players, seed {seed}, step {steps}"
        assert kernel.snapshot() == rules_snapshot(state), where
        assert _play._leader(kernel.w, parts) == _leader(state), where
        if state.is_over:
            return steps
        seat = state.to_move
        assert seat is not None
        legal = kernel.legal()
        assert [move_text(m) for m in legal] == [str(a) for a in state.legal_actions()], where
        agent = agents[seat % len(agents)]
        action = python[agent].choose(state.view(seat), state.legal_actions(), rngs[seat])
        if agent == "heuristic":
            chosen = _policy.choose_heuristic(
                kernel.w, kernel.moves, len(legal), krngs[seat], kernel.scratch, kernel.cache
            )
        else:
            chosen = _policy.choose_random(len(legal), krngs[seat])
        assert move_text(legal[chosen]) == str(action), where
        assert tuple(int(v) for v in krngs[seat]) == rngs[seat].getstate()[1], where
        state = state.apply(action)
        kernel.apply(legal[chosen])
        steps += 1


def _leader(state: BeorState) -> int:
    found = leader(STRATEGY.evaluate(state))
    return -1 if found is None else found


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_step_by_step(players: int) -> None:
    """Every step of seeded games of the heuristic, the random agent and both together."""
    lengths = [
        step_by_step(players, seed, agents, BeorOptions())
        for seed, agents in seeded_games(players, STEP_GAMES)
    ]
    assert sum(lengths) > 20 * STEP_GAMES  # whole games were played, not just deals


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        BeorOptions(flip_reverses_order=False),
        BeorOptions(restock_skip_jokers=False),
        BeorOptions(natural_win=False),
        BeorOptions(max_turns=25),
    ],
    ids=["no-reverse", "jokers-kept", "no-natural-win", "max-turns-25"],
)
def test_step_by_step_options(options: BeorOptions) -> None:
    """The options (B5, B6, B9, B10) step by step, for every player count."""
    for players in PLAYERS:
        for seed, agents in seeded_games(players, max(1, STEP_GAMES // 4)):
            step_by_step(players, seed, agents, options)


# -- deals and whole games --------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_deals_are_the_rules_engines(players: int) -> None:
    """B1-B3: the kernel deals from a seed exactly what ``deal_from_seed`` deals, for 2,000
    seeds (bases, hands in order, stocks top first)."""
    for i in range(2000):
        seed = derive_seed(players, "deal", i)
        dealt = deal_from_seed(players, random.Random(seed))
        found = Kernel(players, seed, BeorOptions(natural_win=False), 0).snapshot()
        assert found["bases"] == tuple((str(c),) for c in dealt.bases), seed
        assert found["hands"] == tuple(tuple(str(c) for c in h) for h in dealt.hands), seed
        assert found["stocks"] == tuple(tuple(str(c) for c in st) for st in dealt.stocks), seed


def whole_games(players: int, agents: list[str], count: int, options: BeorOptions) -> int:
    """Games 0..count-1 of a run of seed ``players``, played whole by the arena and by the
    kernel (:func:`play_games`): the same moves and the same figures. Returns the restocks."""
    restocks = 0
    for game in play_games(players, players, agents, options, range(count)):
        played = play_to_end("beor", players, agents, players, game.index, options.to_json())
        figures = game_figures(played.state)
        where = f"{players} players, agents {agents}, game {game.index}"
        assert game.actions == played.actions, where
        assert game.seed == played.seed and game.plan == played.plan, where
        decided = figures["decided_at"]
        assert (
            game.result,
            [] if game.winner is None else [game.winner],
            game.turns,
            game.lead_changes,
            None if game.decided is None else (game.decided / game.turns if game.turns else 0.0),
            game.stuck_losses,
            game.restocks,
            game.natural_win,
        ) == (
            figures["result"],
            figures["winners"],
            figures["length"],
            figures["lead_changes"],
            decided,
            figures["stuck_losses"],
            figures["restocks"],
            figures["natural_win"],
        ), where
        restocks += game.restocks
    return restocks


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_whole_games(players: int) -> None:
    """Seeded games played whole by the arena's agents and by the kernel: the heuristic, then
    the random agent with the heuristic, seats rotating."""
    assert whole_games(players, ["heuristic"], WHOLE_GAMES, BeorOptions()) > 0
    assert whole_games(players, ["random", "heuristic"], WHOLE_GAMES // 3, BeorOptions()) > 0


@pytest.mark.parametrize("limit", ["_FIRST_SEEDS", "_FIRST_SPACE"])
def test_games_beyond_the_first_room_are_played_again(
    monkeypatch: pytest.MonkeyPatch, limit: str
) -> None:
    """A game that restocks more often than the seeds made for it first (B9), or plays more
    moves than its record has room for at first, is played again with more, and is still the
    rules engine's game."""
    from parlour.games.beor import fast

    monkeypatch.setattr(fast, limit, 1)
    options = BeorOptions(max_turns=300)
    assert whole_games(4, ["random"], 6, options) > 6  # some game restocked twice or more


def test_turn_limit_and_natural_wins() -> None:
    """B10: a game stopped by max_turns is a draw, the same one on both engines; B5: a dealt
    winning hand wins at the deal, after no move, on both."""
    games = play_games(2, 2, ["heuristic"], BeorOptions(max_turns=3), range(40))
    assert {(g.result, g.turns, g.winner, g.decided) for g in games} == {("draw", 3, None, None)}
    whole_games(2, ["heuristic"], 40, BeorOptions(max_turns=3))
    natural = [551, 570, 2706]  # games of a 5-player run of seed 5 dealt a winning hand
    assert all(GAME.new(5, derive_seed(5, "game", i)).is_over for i in natural)
    found = play_games(5, 5, ["heuristic"], BeorOptions(), [*natural, 552])
    assert [g.natural_win for g in found] == [True, True, True, False]
    assert all(g.turns == 0 and g.winner is not None for g in found[:3])
    assert all(g.decided == 0 and g.lead_changes == 0 for g in found[:3])
    whole_games(5, ["heuristic"], 3, BeorOptions())
