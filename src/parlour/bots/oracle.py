"""The oracle: the same search as a level's ISMCTS, given the true state. Measurement only.

``oracle-hands`` is a lesser oracle: the search samples its worlds from the seat's view with
every hand shown (the game's :attr:`~parlour.core.strategy.Strategy.show_hands`), so it knows
what each player holds but not what nobody has seen (the order of face-down
stocks). It bounds what any reading of the opponents' past moves could tell a view-only bot:
such reading can at best reveal their hands.

It is the upper bound a view-only bot is measured against (how much of the oracle's edge over
the heuristic the view-only search keeps). It sees every hidden card, so it is never offered at
a table: :func:`parlour.bots.make_agent` refuses ``oracle`` (``parlour play``, the server and
the arena's ``--agents`` all build agents there), and only :func:`play_measured` (used by
``benchmarks/bench_strength.py``) hands it the true state.

:func:`play_measured` plays game ``index`` of a run exactly as the arena does (the same deal,
seat rotation and generators, see :mod:`parlour.bots.arena`), so an oracle's figures line up
with the view-only bot's on the same deals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour.bots.ismcts import Ismcts
from parlour.core.game import Action, Agent, Game, State, View
from parlour.core.rng import derive_seed
from parlour.errors import InvalidOption
from parlour.games import find_game

__all__ = [
    "HANDS_ORACLE",
    "ORACLE",
    "ORACLES",
    "Measured",
    "Oracle",
    "make_oracle",
    "play_measured",
]

ORACLE = "oracle"
"""The spec's kind: ``oracle`` (the hard level's search) or ``oracle:LEVEL_OR_ISMCTS_SPEC``."""

HANDS_ORACLE = "oracle-hands"
"""The lesser oracle's kind, ``oracle-hands`` or ``oracle-hands:SPEC``: hands shown, the rest
sampled."""

ORACLES = (ORACLE, HANDS_ORACLE)


class Oracle:
    """A search that is handed the true state instead of sampling worlds from a view (or,
    with ``show_hands``, samples them from the view with every hand shown)."""

    def __init__(
        self,
        search: Ismcts,
        name: str,
        show_hands: Callable[[State, int], View] | None = None,
    ) -> None:
        self.search = search
        self.name = name
        self.show_hands = show_hands

    def choose_state(self, state: State, rng: random.Random) -> Action:
        """The search's choice for the seat to move, every iteration on ``state`` itself (or
        on worlds sampled with every hand shown)."""
        seat = state.to_move
        if seat is None:
            raise InvalidOption("the oracle chooses only while a seat is to move")
        view = state.view(seat)
        worlds: Callable[[random.Random], State] = lambda _: state  # noqa: E731
        if self.show_hands is not None:
            shown = self.show_hands(state, seat)
            game = self.search.game
            worlds = lambda r: game.sample(shown, r)  # noqa: E731
        return self.search._search(worlds, view, state.legal_actions(), rng)


def make_oracle(spec: str, game: Game) -> Oracle:
    """The oracle a spec names: ``oracle`` (the ``hard`` level's search) or ``oracle:SPEC``
    with SPEC any search spec (``expert``, ``ismcts:1600``...); ``oracle-hands`` and
    ``oracle-hands:SPEC`` for the lesser oracle that is shown every hand.

    Raises:
        InvalidOption: not an oracle spec, SPEC is not a search, or the game has no
            ``show_hands`` (its hands are all it hides: the ``oracle`` measures them).
    """
    from parlour.bots import build_agent

    kind, _, rest = spec.strip().lower().partition(":")
    if kind not in ORACLES:
        raise InvalidOption(
            f"{spec!r} is not an oracle spec (oracle, oracle:SEARCH, oracle-hands:SEARCH)"
        )
    search = build_agent(rest or "hard", game)
    if not isinstance(search, Ismcts):
        raise InvalidOption(f"agent {spec!r}: the oracle runs a search (ismcts or a level)")
    show_hands = None
    if kind == HANDS_ORACLE:
        show_hands = game.strategy.show_hands if game.strategy else None
        if show_hands is None:
            raise InvalidOption(
                f"agent {spec!r}: {game.title} hides nothing but the hands, so the oracle "
                "measures them"
            )
    return Oracle(search, spec.strip().lower(), show_hands)


@dataclass(frozen=True, slots=True)
class Measured:
    """One game of a measurement: who sat where, the outcome's returns and ranks, each seat's
    drinks where the game counts them, and each agent's decisions and seconds."""

    index: int
    plan: tuple[int, ...]
    returns: tuple[float, ...]
    figures: dict[str, tuple[float, ...]]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    times: tuple[tuple[float, ...], ...]


def play_measured(
    game_name: str, players: int, specs: Sequence[str], seed: int, index: int
) -> Measured:
    """Game ``index`` of a run of ``seed``, dealt and seated as the arena does; ``oracle`` specs
    get the true state, the others their view. Each decision's seconds are kept (for medians)."""
    from parlour.bots import make_agent
    from parlour.bots.arena import seat_plan

    game = find_game(game_name)
    agents: list[Agent | Oracle] = [
        make_oracle(s, game)
        if s.strip().lower().partition(":")[0] in ORACLES
        else make_agent(s, game)
        for s in specs
    ]
    plan = seat_plan(index, players, len(specs))
    state = game.new(players, derive_seed(seed, "game", index))
    rngs = [random.Random(derive_seed(seed, "agent", index, s)) for s in range(players)]
    times: list[list[float]] = [[] for _ in specs]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        who = plan[seat]
        agent = agents[who]
        began = time.perf_counter()
        if isinstance(agent, Oracle):
            action = agent.choose_state(state, rngs[seat])
        else:
            action = agent.choose(state.view(seat), state.legal_actions(), rngs[seat])
        times[who].append(time.perf_counter() - began)
        state = state.apply(action)
    outcome = state.outcome
    assert outcome is not None
    figures: dict[str, tuple[float, ...]] = {}
    for name in game.strategy.seat_figures if game.strategy else ():
        value = outcome.details.get(name)
        if isinstance(value, list):
            figures[name] = tuple(float(v) for v in value if isinstance(v, int | float))
    return Measured(
        index,
        plan,
        outcome.returns,
        figures,
        tuple(len(t) for t in times),
        tuple(sum(t) for t in times),
        tuple(tuple(t) for t in times),
    )
