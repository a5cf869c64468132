"""The expert's eye on a finished game: every decision judged from what its player knew.

For each decision of a reviewed seat (the position before ``record.actions[step]``, where that
seat had at least two moves worth telling apart), :func:`review_record` runs the game's
``expert`` search (:mod:`parlour.bots.ismcts`, with the game's evaluation, rollouts and
candidates) from the seat's *view* only, so no card the seat could not see is ever read. The
root of that search is a review's root rather than a player's: the budget is spread over the
root moves by sequential halving (each round gives every remaining move the same number of
iterations over the same sampled worlds, then keeps the better half), and the move played is
never dropped. Moves dropped early whose mean still tops the last round's best are judged
again beside it (:data:`CHALLENGES`); one still above it after that is the best. So every
move gets an estimate, and the move played and the best move get the most iterations (but for
such a last rival, which a tiny budget leaves).

A move's *chance* is the seat's mean reward over its iterations: its share of the win where a
search reached the end of the game, the game's evaluation before it (a share of 1 among the
seats, :attr:`~parlour.core.strategy.Strategy.evaluate`). Its interval is the half-width of a
95% normal interval of that mean. ``best`` is the move with the highest chance among the last
round's moves and those judged again (or a rival still above them); the *cost* of the move
played is how much chance it gave away, ``max(0, chance[best] - chance[played])``.

Each decision's generator is seeded from the review's seed and the step alone, never from the
record's seed: two records whose reviewed seat saw the same views get the same review. With an
iteration budget a review is reproducible; a budget in seconds is not.

A game without decisions has no search to run: its review is the story its ``story`` part tells
(:mod:`parlour.core.parts`), e.g. a trick-by-trick account.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable

from parlour.bots import build_agent
from parlour.bots.ismcts import Ismcts, SearchBudget, _Node
from parlour.bots.review_figures import (
    DECISIVE,
    Decision,
    MoveEstimate,
    Review,
    SeatSummary,
)
from parlour.core.game import JSON, Action, Game, State
from parlour.core.parts import load_part
from parlour.core.record import Record, replay
from parlour.errors import InvalidOption, InvalidRecord

__all__ = [
    "DECISIVE",
    "Decision",
    "MoveEstimate",
    "Review",
    "SeatSummary",
    "parse_review_budget",
    "review_record",
]

CHALLENGES = 2
"""How many times, after the last round, moves dropped earlier whose mean is above the best's
are judged again beside it (each time with one round's share of the budget)."""
"""The version of the review's JSON (``parlour schema review``)."""

Progress = Callable[[int, int], None]


def parse_review_budget(spec: str | None, game: Game) -> SearchBudget:
    """A review's budget per decision: ``None`` or ``""`` for the game's ``expert`` search
    budget, ``N`` iterations, or ``Ns`` seconds (not reproducible).

    Raises:
        InvalidOption: not a budget, or a game without decisions given one.
    """
    agent = _expert(game)
    if spec is None or not spec.strip():
        return agent.budget
    try:
        searched = build_agent(f"expert:{spec.strip()}", game)
    except InvalidOption:
        raise InvalidOption(
            f"budget {spec!r}: a number of iterations a decision (1600) or seconds (2s)"
        ) from None
    assert isinstance(searched, Ismcts)
    return searched.budget


def _expert(game: Game) -> Ismcts:
    if game.strategy is None:
        raise InvalidOption(f"{game.title} has no decisions: its review is its story, no budget")
    agent = build_agent("expert", game)
    assert isinstance(agent, Ismcts)
    return agent


def review_record(
    record: Record,
    game: Game,
    *,
    seats: Iterable[int] | None = None,
    budget: SearchBudget | None = None,
    seed: int = 0,
    threshold: float = 0.1,
    progress: Progress | None = None,
) -> Review:
    """The review of ``record`` for ``seats`` (every seat by default); see the module
    docstring. ``progress(done, total)`` is called after each judged decision.

    Raises:
        InvalidRecord: the record does not replay.
        InvalidOption: a seat outside the game, a threshold outside [0, 1].
    """
    record = record.upgraded(game)
    states = replay(record, game)
    chosen = tuple(range(record.players)) if seats is None else tuple(sorted(set(seats)))
    if not chosen:
        raise InvalidOption("seat: name at least one seat to review")
    for seat in chosen:
        if not 0 <= seat < record.players:
            raise InvalidOption(
                f"seat: Player {seat + 1} is not at this table of {record.players} players"
            )
    if not 0 <= threshold <= 1:
        raise InvalidOption(f"threshold: a drop in win chance from 0 to 1, got {threshold:g}")
    if game.strategy is None:
        return Review(
            game.name,
            record.players,
            chosen,
            seed,
            "",
            threshold,
            (),
            (0,) * record.players,
            _story(game, record, states),
        )
    agent = _expert(game)
    if budget is not None:
        agent.budget = budget
    todo, forced = _decisions(record, states, agent, chosen)
    decisions = []
    for done, (step, state, moves) in enumerate(todo, 1):
        decisions.append(_judge(agent, state, moves, record.actions[step], step, seed))
        if progress is not None:
            progress(done, len(todo))
    return Review(
        game.name,
        record.players,
        chosen,
        seed,
        str(agent.budget),
        threshold,
        tuple(decisions),
        tuple(forced),
    )


def _story(game: Game, record: Record, states: tuple[State, ...]) -> dict[str, JSON]:
    tell = load_part(game.parts, "story")
    if tell is None:
        raise InvalidRecord(f"{game.title} has no decisions and no story to tell")
    told: dict[str, JSON] = tell(record, states)  # type: ignore[operator]
    return told


Todo = list[tuple[int, State, tuple[Action, ...]]]


def _decisions(
    record: Record, states: tuple[State, ...], agent: Ismcts, seats: tuple[int, ...]
) -> tuple[Todo, list[int]]:
    """The decisions to judge (step, position, moves) and each seat's forced ones."""
    entries: dict[int, int] = {}
    for entry in record.table:
        entries[entry.at] = entries.get(entry.at, 0) + 1
    todo: Todo = []
    forced = [0] * record.players
    index = 0
    for step, played in enumerate(record.actions):
        index += entries.get(step, 0)
        state = states[index]
        index += 1
        seat = state.to_move
        if seat is None or seat not in seats:
            continue
        moves = agent.candidates(state.legal_actions())
        if played not in {str(m) for m in moves}:
            moves = (*moves, _action(state, played))
        if len(moves) < 2:
            forced[seat] += 1
            continue
        todo.append((step, state, moves))
    return todo, forced


def _action(state: State, text: str) -> Action:
    """The legal action whose notation is ``text`` (the move played, in the record)."""
    return next(a for a in state.legal_actions() if str(a) == text)


def _judge(
    agent: Ismcts, state: State, moves: tuple[Action, ...], played: str, step: int, seed: int
) -> Decision:
    """One decision judged by sequential halving over ``moves`` from the mover's view."""
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    game = agent.game
    rng = random.Random(f"parlour-review:{seed}:{step}")
    root = _Node()
    rewards: dict[str, list[float]] = {str(m): [] for m in moves}
    alive = list(moves)
    rounds = max(1, math.ceil(math.log2(len(moves))))
    budget = agent.budget

    def spend(group: list[Action], share: float) -> None:
        """``share`` of the budget over ``group``, every move over the same worlds."""
        if budget.iterations is not None:
            worlds = [
                game.sample(view, rng)
                for _ in range(max(1, int(budget.iterations * share) // len(group)))
            ]
            for move in group:
                for world in worlds:
                    rewards[str(move)].append(agent._iterate(root, world, rng, None, move)[seat])
            return
        assert budget.seconds is not None
        deadline = time.perf_counter() + budget.seconds * share
        while True:
            world = game.sample(view, rng)
            for move in group:
                rewards[str(move)].append(agent._iterate(root, world, rng, None, move)[seat])
            if time.perf_counter() >= deadline:
                return

    order = {str(m): i for i, m in enumerate(moves)}

    def top(group: list[Action]) -> Action:
        return max(
            group, key=lambda m: (_mean(rewards[str(m)]), len(rewards[str(m)]), -order[str(m)])
        )

    for round_ in range(rounds):
        spend(alive, 1 / rounds)
        if round_ < rounds - 1:
            ranked = sorted(alive, key=lambda m: -_mean(rewards[str(m)]))
            keep = ranked[: max(1, (len(ranked) + 1) // 2)]
            alive = keep + [m for m in alive if str(m) == played and m not in keep]

    # A move dropped early on a few worlds may show a higher mean than the last round's best:
    # such rivals are judged again beside the best, so the best is rarely below another.
    def rivals_of(leader: Action) -> list[Action]:
        above = _mean(rewards[str(leader)])
        return [m for m in moves if m not in alive and _mean(rewards[str(m)]) > above]

    for _ in range(CHALLENGES):
        leader = top(alive)
        rivals = rivals_of(leader)
        if not rivals:
            break
        alive += rivals
        spend([leader, *rivals], 1 / rounds)
    # One still above the leader once the challenges are spent (a tiny budget) is the best on
    # what is known: the best never shows a lower chance than another move of the review.
    best = str(top(alive + rivals_of(top(alive))))
    estimates = tuple(
        sorted(
            (MoveEstimate(k, _mean(r), _half_width(r), len(r)) for k, r in rewards.items()),
            key=lambda e: (-e.chance, order[e.move]),
        )
    )
    return Decision(step, seat, played, best, estimates)


def _mean(values: list[float]) -> float:
    return min(1.0, max(0.0, sum(values) / len(values))) if values else 0.0


def _half_width(values: list[float]) -> float:
    """A 95% normal half-width of the mean of ``values`` (0.5 with fewer than two)."""
    n = len(values)
    if n < 2:
        return 0.5
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return 1.96 * math.sqrt(variance / n)
