"""How long ``parlour review`` takes on a whole deal, at the default budget (the game's
``expert`` search), against issue 31's targets on a 2-core machine: at most 30 s for a
2-player BEOR deal, 60 s for a 4-player Game of Death deal.

.venv/bin/python benchmarks/bench_review.py                 # 4 deals of each kind
.venv/bin/python benchmarks/bench_review.py --deals 10 --budget 800

Each row plays ``--deals`` deals (seeds 0, 1, ...) with every seat played by ``--players``'s
bot (``medium``: rules of thumb, games of the usual length; ``random``: long, aimless games,
the worst case a review meets), then reviews every seat of each deal and reports the
decisions judged and the seconds a deal took (wall clock, one process). The reference beside
each row is the time the ``expert`` bot itself takes to choose every move of that deal, the
same search with its own root: the review's price over simply playing the deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour.bots import make_agent
from parlour.bots.review import parse_review_budget, review_record
from parlour.core.record import Record
from parlour.games import find_game

TARGETS = {("beor", 2): 30.0, ("death", 4): 60.0}
"""Issue 31's limit on a deal's review, seconds on this 2-core machine."""


def deal(name: str, players: int, seed: int, bot: str) -> Record:
    """A whole deal played by ``bot`` at every seat, as a record."""
    game = find_game(name)
    agent = make_agent(bot, game)
    rng = random.Random(seed)
    state = game.new(players, seed)
    actions = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = agent.choose(state.view(seat), state.legal_actions(), rng)
        actions.append(str(action))
        state = state.apply(action)
    return Record.from_json(
        {"game": name, "players": players, "seed": seed, "options": {}, "actions": actions}
    )


def expert_time(record: Record) -> float:
    """Seconds the ``expert`` bot takes to choose at each decision of ``record``."""
    game = find_game(record.game)
    agent = make_agent("expert", game)
    rng = random.Random(0)
    state = game.new(record.players, record.seed)
    began = time.perf_counter()
    for text in record.actions:
        seat = state.to_move
        assert seat is not None
        if len(state.legal_actions()) > 1:
            agent.choose(state.view(seat), state.legal_actions(), rng)
        state = state.apply(text)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--budget", default=None, help="review budget (default: the expert's)")
    args = parser.parse_args()
    print(
        f"{'game':<8}{'players':>8}{'bots':>8}{'budget':>8}{'decisions':>10}"
        f"{'mean s':>9}{'max s':>8}{'target':>8}{'expert s':>10}"
    )
    for (name, players), target in TARGETS.items():
        game = find_game(name)
        budget = parse_review_budget(args.budget, game)
        review_record(deal(name, players, 99, "medium"), game, budget=budget)  # warm up
        for bot in ("medium", "random"):
            times, decisions, experts = [], [], []
            for seed in range(args.deals):
                record = deal(name, players, seed, bot)
                began = time.perf_counter()
                review = review_record(record, game, budget=budget, seed=seed)
                times.append(time.perf_counter() - began)
                decisions.append(len(review.decisions))
                experts.append(expert_time(record))
            verdict = "ok" if max(times) <= target else "OVER"
            print(
                f"{name:<8}{players:>8}{bot:>8}{budget!s:>8}"
                f"{statistics.mean(decisions):>10.0f}{statistics.mean(times):>9.1f}"
                f"{max(times):>8.1f}{f'{target:g} {verdict}':>8}"
                f"{statistics.mean(experts):>10.1f}"
            )


if __name__ == "__main__":
    main()
