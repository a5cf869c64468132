"""The lab's metrics: what each one means (:data:`METRICS`, and the game's own:
:func:`specs_for`), the raw figures of one finished game (:func:`game_figures`), and many games'
figures turned into estimates with 95% intervals (:func:`aggregate`, by :mod:`parlour.lab.stats`).

Every game gets the generic statistics of :data:`METRICS`; a game adds its own metrics and its
reading of a finished game through its ``FIGURES`` (:mod:`parlour.lab.figures`).

Steps and leaders. Step 0 is the deal and step k the k-th entry of the game's log after it (a
player action or a table entry). After each step a game has a standing per seat, given by the
game's reading (:data:`parlour.lab.figures.Reading`: a score, the drinks not taken, the cards
held ...), and the leader is the seat standing highest alone (``None`` on a tie). A game whose
figures give no standings has no lead figures.

``lead_changes`` counts the times the lead passed from one seat to another, ties skipped
(:func:`parlour.lab.stats.lead_changes`); ``decided_at`` is the step from which the sole winner
led alone for good (:func:`parlour.lab.stats.decided_at`) divided by the game's steps: 0 when
he led from the deal on, 1 when only the last step made him leader. A game without a sole
winner (a draw, a loop, a shared win) has no ``decided_at``.

Seats and positions. A seat is where a player sits (seat 0 left of the dealer, RULINGS
"Common"); his position is his place in the turn order: position 0 is the seat that moved first
and the others follow clockwise, so seat ``s`` is at position ``(s - first) % players``. The
game says who moves first: its reading's figure ``first``, else the seat to move at the deal
(0 for a game over at the deal). A game may deal its seats unequally (more cards to the first
seats dealt) and start elsewhere than seat 0 (the holder of a given card), so win rates and
balance are given both by seat and by position (``position_win_rate``, ``position_balance``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parlour.core.game import JSON, LogEntry, State
from parlour.core.inputs import quote
from parlour.games import find_game
from parlour.lab import stats
from parlour.lab.figures import AGGREGATIONS, GameFigures, MetricSpec, figures_for

__all__ = [
    "AGGREGATIONS",
    "METRICS",
    "GameFigures",
    "MetricSpec",
    "aggregate",
    "game_figures",
    "leader",
    "leaders",
    "position",
    "specs_for",
    "with_positions",
]

GAMES_DONE = "share of games"
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec(
        "seat_win_rate", GAMES_DONE, "rate",
        "The share of games each seat won, a win shared by k seats counting 1/k to each; a seat "
        "is where a player sits, dealt his cards in the same order every game (with a fixed "
        "dealer), which is not always the order of play.",
        per_seat=True,
        figure="win_shares",
    ),
    MetricSpec(
        "position_win_rate", GAMES_DONE, "rate",
        "The share of games won by the player at each position of the turn order (first the "
        "player who moved first, as the game says who, then clockwise), a shared win counting "
        "1/k; the first position's rate above 1/players is the first-player advantage.",
        per_seat=True,
        figure="position_win_shares",
    ),
    MetricSpec(
        "length", "actions", "summary",
        "Player actions from the deal to the end, with percentiles, and a survival curve when a "
        "cap stopped games.",
    ),
    MetricSpec(
        "lead_changes", "per game", "mean",
        "How many times the lead passed from one player to another, ties skipped (the leader "
        "as the game's figures stand its players).",
    ),
    MetricSpec(
        "decided_at", "share of game length", "mean",
        "The share of a game's steps after which its sole winner led alone for good (0: from "
        "the deal, 1: only at the last step); games without a sole winner are left out.",
    ),
)  # fmt: skip
"""The generic statistics, every game's; a game's figures add to them (:func:`specs_for`)."""


def specs_for(game: str) -> tuple[MetricSpec, ...]:
    """The metrics of ``game`` (a name or alias): :data:`METRICS`, each replaced by the game's
    own metric of that name if it has one, then the game's other metrics, in its order.

    Raises:
        InvalidOption: no game has that name.
    """
    own = figures_for(find_game(game)).metrics
    mine = {spec.name: spec for spec in own}
    generic = tuple(mine.get(spec.name, spec) for spec in METRICS)
    names = {spec.name for spec in METRICS}
    return generic + tuple(spec for spec in own if spec.name not in names)


# -- one game ---------------------------------------------------------------------------------


def leader(standing: Sequence[float]) -> int | None:
    """The seat standing highest alone, or None on a tie."""
    best = max(standing)
    top = [seat for seat, value in enumerate(standing) if value == best]
    return top[0] if len(top) == 1 else None


def _reading(
    state: State, log: Sequence[LogEntry]
) -> tuple[dict[str, JSON], list[tuple[float, ...]]]:
    """The game's own figures and standings (its figures' reading), of a finished game; none
    for a game whose figures have no reading."""
    if not state.is_over:
        raise ValueError("figures are read from a finished game; this one is still on")
    read = figures_for(state.game).read
    if read is None:
        return {}, []
    return read(state, log)


def leaders(state: State) -> list[int | None]:
    """The leader after each step of a finished game, step 0 (the deal) first (see the module
    docstring).

    Raises:
        ValueError: the game is not over, or its figures give no standings.
    """
    standings = _reading(state, state.log(None, 0))[1]
    if not standings:
        raise ValueError(f"the lab has no standings for {state.game.info.title}")
    return [leader(standing) for standing in standings]


def _first_to_move(state: State) -> int:
    """The seat to move at the deal of ``state``'s game (0 when the game was over at the deal):
    who moved first, unless the game's reading says otherwise."""
    root = state
    while root.previous is not None:
        root = root.previous
    return 0 if root.to_move is None else root.to_move


def position(seat: int, first: int, players: int) -> int:
    """The position of ``seat`` in the turn order when seat ``first`` moved first (position 0)
    and play goes clockwise."""
    return (seat - first) % players


def with_positions(figures: Mapping[str, JSON]) -> dict[str, JSON]:
    """A game's row with ``position_win_shares`` (the ``win_shares`` in the order of play,
    position 0 first), worked out from its ``first`` and ``win_shares`` (rows of a compiled
    kernel need carry only ``first``); None when the row has no ``first`` (a game stored by an
    older lab), which leaves the game out of the position figures.

    Raises:
        ValueError: ``first`` is not a seat of the row's players, or ``win_shares`` is not
            a list of one a seat.
    """
    row = dict(figures)
    first, shares, players = row.get("first"), row.get("win_shares"), row.get("players")
    if first is None:
        row["position_win_shares"] = None
        return row
    if (
        not isinstance(players, int)
        or not isinstance(first, int)
        or isinstance(first, bool)
        or not 0 <= first < players
    ):
        raise ValueError(f"figure 'first' is {quote(first)}, not a seat of {quote(players)}")
    if not isinstance(shares, list) or len(shares) != players:
        raise ValueError("figure 'win_shares' is not a list of one a seat")
    row["position_win_shares"] = [shares[(p + first) % players] for p in range(players)]
    return row


def game_figures(state: State) -> dict[str, JSON]:
    """The raw figures of one finished game, as JSON: ``game``, ``players``, ``result``,
    ``winners``, ``win_shares`` (1/k to each of k winners), ``first`` (the seat that moved
    first, at position 0), ``length`` (player actions), ``lead_changes``, ``decided_at``
    (None without a sole winner, and both None when the game's figures give no standings),
    then the game's own figures (its ``FIGURES``' reading; it may say who is ``first``),
    ``ended`` (false when a cap rather than the rules stopped it; true unless the reading says)
    and ``position_win_shares`` (the win shares by position: :func:`with_positions`).

    Raises:
        ValueError: the game is not over, or its accounting fails a check of its reading.
    """
    log = state.log(None, 0)
    own, standings = _reading(state, log)
    outcome = state.outcome
    assert outcome is not None
    led = [leader(standing) for standing in standings]
    winners = list(outcome.winners)
    steps = len(led) - 1
    decided: float | None = None
    if len(winners) == 1 and led:
        found = stats.decided_at(led, winners[0])
        if found is not None:
            decided = found / steps if steps else 0.0
    row: dict[str, JSON] = {
        "game": state.game.info.name,
        "players": state.players,
        "result": outcome.result,
        "winners": winners,
        "win_shares": [1 / len(winners) if s in winners else 0.0 for s in range(state.players)],
        "first": _first_to_move(state),
        "length": sum(entry.kind == "action" for entry in log),
        "lead_changes": stats.lead_changes(led) if led else None,
        "decided_at": decided,
        **own,
    }
    if "ended" not in row:
        row["ended"] = True
    return with_positions(row)


# -- many games -------------------------------------------------------------------------------


def aggregate(game: str, players: int, rows: Sequence[Mapping[str, JSON]]) -> dict[str, JSON]:
    """Many games' figures (rows of :func:`game_figures`, or of a game's own batch player) as the
    lab's metrics: ``{name: {"value", "ci95": [lo, hi], "unit", "games"}}`` for each metric of
    :func:`specs_for` (a list of one such entry a seat for per-seat metrics), where ``games``
    counts the games that define it; ``length`` adds ``summary`` (count, mean, sd, min, p10,
    p25, median, p75, p90, max) and, when a cap stopped some game, ``survival`` (``[length,
    share of games still running]`` pairs, Kaplan-Meier); ``seat_balance`` is the chi-square
    test of equal wins by seat, ``{"statistic", "dof", "p_value", "games"}``, and
    ``position_balance`` the same test by position in the turn order (the module docstring).
    A metric that no game defines (the lead figures of games played without history, the
    positions of games stored without ``first``) is left out.

    Raises:
        InvalidOption: no game has that name.
        ValueError: no rows, a row of another game or player count, or a row that lacks a
            figure or holds one that is not a number (or a list of one a seat).
    """
    name = find_game(game).name
    if not rows:
        raise ValueError("metrics need the figures of at least one game")
    for number, row in enumerate(rows):
        if row.get("game") != name or row.get("players") != players:
            raise ValueError(
                f"row {number} is a game of {quote(row.get('game'))} "
                f"for {quote(row.get('players'))} "
                f"players, not of {quote(name)} for {players}"
            )
    rows = [_placed(number, row) for number, row in enumerate(rows)]
    found: dict[str, JSON] = {}
    for spec in specs_for(name):
        if spec.per_seat:
            seats = [_estimate(spec, rows, seat) for seat in range(players)]
            if all(entry is not None for entry in seats):
                found[spec.name] = seats
        elif (entry := _estimate(spec, rows, None)) is not None:
            found[spec.name] = entry
    found["seat_balance"] = _balance(rows, "win_shares", players)
    placed = [row for row in rows if row["position_win_shares"] is not None]
    if placed:
        found["position_balance"] = _balance(placed, "position_win_shares", players)
    return found


def _placed(number: int, row: Mapping[str, JSON]) -> dict[str, JSON]:
    """Row ``number`` :func:`with_positions`, a refusal naming it."""
    try:
        return with_positions(row)
    except ValueError as err:
        raise ValueError(f"row {number}: {err}") from None


def _balance(rows: Sequence[Mapping[str, JSON]], key: str, players: int) -> dict[str, JSON]:
    """The chi-square test of equal wins (figure ``key``, one a seat or position) over
    ``rows``, with the number of games it rests on."""
    wins = [sum(_numbers(rows, key, seat)) for seat in range(players)]
    balance = stats.seat_balance(wins, len(rows))
    return {
        "statistic": _round(balance.statistic),
        "dof": balance.dof,
        "p_value": _round(balance.p_value),
        "games": len(rows),
    }


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def _numbers(rows: Sequence[Mapping[str, JSON]], key: str, seat: int | None) -> list[float]:
    """Figure ``key`` of each row (its entry for ``seat``), leaving out None (undefined)."""
    values: list[float] = []
    for number, row in enumerate(rows):
        if key not in row:
            raise ValueError(f"row {number} has no figure {quote(key)}")
        value = row[key]
        if value is None:  # undefined for this game (per-seat figures too)
            continue
        if seat is not None:
            if not isinstance(value, list) or len(value) <= seat:
                raise ValueError(f"row {number}: figure {quote(key)} is not a list of one a seat")
            value = value[seat]
            if value is None:
                continue
        if isinstance(value, str) or not isinstance(value, int | float):
            raise ValueError(f"row {number}: figure {quote(key)} is {quote(value)}, not a number")
        values.append(float(value))
    return values


def _estimate(
    spec: MetricSpec, rows: Sequence[Mapping[str, JSON]], seat: int | None
) -> dict[str, JSON] | None:
    """One estimate of ``spec`` (for ``seat``) over the rows that define it; None if none."""
    values = _numbers(rows, spec.key, seat)
    if not values:
        return None
    if spec.aggregation == "rate":
        interval = stats.rate(sum(values), len(values))
    else:
        interval = stats.mean(values)
    entry: dict[str, JSON] = {**interval.to_json(), "unit": spec.unit, "games": len(values)}
    if spec.aggregation == "summary":
        entry["summary"] = stats.summary(values)
        ended = [bool(row["ended"]) for row in rows if row[spec.key] is not None]
        if not all(ended):
            curve = stats.survival([int(v) for v in values], ended)
            entry["survival"] = [[length, _round(share)] for length, share in curve]
    return entry
