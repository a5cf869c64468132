"""Agents that see only views (random, heuristic, ISMCTS, the difficulty levels) and the arena
that measures them.

Agent specs, as the arena and play commands take them:

- the levels ``easy``, ``medium``, ``hard``, ``expert`` (see :mod:`parlour.bots.levels`), and
  ``hard:N`` / ``expert:N`` (``:Ns``) for a level's search with another budget (measurement);
- ``random``, ``heuristic``, ``ismcts`` (the game's default budget), ``ismcts:500``
  (iterations, deterministic per seed), ``ismcts:1s`` (seconds), and ``ismcts:500:heuristic``
  or ``ismcts:500:random`` to choose the rollout policy (the game's default otherwise; the
  heuristic is stronger per rollout and slower).

``oracle`` (the search given the true state) is for measurement only and is refused here with
a one-line error: see :mod:`parlour.bots.oracle`. Every agent is built from the game's
:class:`~parlour.core.strategy.Strategy` (``game.strategy``) and, for the levels, the settings
in :mod:`parlour.bots.levels`.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from parlour.bots.ismcts import Ismcts, SearchBudget
from parlour.bots.levels import LEVELS, Careless, default_setting, level_setting, slip_for
from parlour.bots.random_agent import RandomAgent
from parlour.core.game import Agent, Game
from parlour.core.inputs import parse_duration, parse_int
from parlour.core.strategy import POLICIES, SearchSetting
from parlour.errors import InvalidOption

__all__ = [
    "LEVELS",
    "Ismcts",
    "RandomAgent",
    "SearchBudget",
    "build_agent",
    "make_agent",
    "warm_up",
]

_KINDS = (
    "agents are easy, medium, hard, expert, random, heuristic, ismcts, ismcts:N "
    "(iterations), ismcts:Ns (seconds), ismcts:N:random (random rollouts)"
)


def make_agent(spec: str, game: Game) -> Agent:
    """The agent a spec names, for ``game`` (what tables, the server and the arena use).

    Raises:
        InvalidOption: an unknown kind, a bad budget, a game without decisions, or the
            oracle (measurement only).
    """
    from parlour.bots.oracle import ORACLES  # oracle.py builds its search here: import late

    if spec.strip().lower().partition(":")[0] in ORACLES:
        raise InvalidOption(
            f"agent {spec!r}: the oracle sees hidden cards, so it is for measurement "
            "only (benchmarks/bench_strength.py), never at a table"
        )
    return build_agent(spec, game)


def build_agent(spec: str, game: Game) -> Agent:
    """:func:`make_agent` without the oracle check (the oracle builds its search here)."""
    strategy = game.strategy
    if strategy is None:
        raise InvalidOption(f"{game.title} has no decisions to make: there are no agents for it")
    name = spec.strip().lower()
    kind, _, rest = name.partition(":")
    if kind == "random" and not rest:
        return RandomAgent()
    if kind in ("heuristic", "medium") and not rest:
        return strategy.heuristic()
    if kind == "easy" and not rest:
        return Careless(strategy.heuristic(), slip_for(strategy))
    if kind in ("hard", "expert"):
        setting = level_setting(kind, strategy)
        budget = _budget(spec, rest, setting.iterations) if rest else None
        return _search(game, setting, budget, name)
    if kind != "ismcts":
        raise InvalidOption(f"unknown agent {spec!r}: {_KINDS}")
    budget_text, _, policy = rest.partition(":")
    budget = _budget(spec, budget_text, strategy.budget)
    policy = policy or strategy.policy
    if policy not in POLICIES:
        raise InvalidOption(f"agent {spec!r}: the rollout policy is heuristic or random")
    setting = replace(default_setting(strategy), policy=policy)
    return _search(game, setting, budget, name)


def _search(game: Game, setting: SearchSetting, budget: SearchBudget | None, name: str) -> Ismcts:
    strategy = game.strategy
    assert strategy is not None
    return Ismcts(
        game,
        strategy.evaluate,
        budget or SearchBudget(iterations=setting.iterations),
        rollout=None if setting.policy == "random" else strategy.heuristic(),
        rollout_actions=setting.rollout_actions,
        exploration=setting.exploration,
        candidates=strategy.candidates if setting.narrow else strategy.wide_candidates,
        prior=strategy.heuristic() if setting.prior_weight else None,
        prior_weight=setting.prior_weight,
        result_weight=setting.result_weight,
        prior_everywhere=setting.prior_everywhere,
        playout=strategy.playout,
        name=name,
    )


def warm_up(game: Game, *, background: bool = True) -> threading.Thread | None:
    """Load the game's compiled playouts (``Strategy.playout``) now, compiling them on a fresh
    install, so that a search's first decision does not pay for it (a second or so in a new
    process, several on a fresh install). In a daemon thread by default (returned); nothing
    to do for a game without compiled playouts."""
    strategy = game.strategy
    playout = strategy.playout if strategy is not None else None
    if playout is None:
        return None

    def load() -> None:
        playout(game.new(game.info.min_players, 0), 0, 1, False)

    if not background:
        load()
        return None
    thread = threading.Thread(target=load, name=f"parlour-warm-{game.name}", daemon=True)
    thread.start()
    return thread


MAX_ITERATIONS = 10_000_000
"""The most iterations a search spec may ask for a decision (hours of thinking)."""

MAX_SECONDS = 600.0
"""The most seconds a search spec may ask for a decision."""


def _budget(spec: str, text: str, default: int) -> SearchBudget:
    """A search's budget from its spec: ``500`` iterations or ``1s``, bounded (``ismcts:infs``
    or ``ismcts:1e308s`` would think forever)."""
    if not text:
        return SearchBudget(iterations=default)
    what = (
        f"agent {spec!r}: the budget is a number of iterations (500, at most {MAX_ITERATIONS}) "
        f"or seconds (1s, at most {MAX_SECONDS:g})"
    )
    try:
        if text.endswith("s"):
            return SearchBudget(
                seconds=parse_duration(
                    text[:-1], field=what, maximum=MAX_SECONDS, error=InvalidOption
                )
            )
        return SearchBudget(
            iterations=parse_int(
                text, field=what, minimum=1, maximum=MAX_ITERATIONS, error=InvalidOption
            )
        )
    except InvalidOption:
        raise InvalidOption(what) from None
