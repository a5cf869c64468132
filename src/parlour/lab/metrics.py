"""The lab's metrics: what each one means (:data:`METRICS`), the raw figures of one finished game
(:func:`game_figures`; Beggar-My-Neighbour's kernel: :func:`beggar_figures`), and many games'
figures turned into estimates with 95% intervals (:func:`aggregate`, by :mod:`parlour.lab.stats`).

Steps and leaders. Step 0 is the deal and step k the k-th entry of the game's log after it (a
player action or a table entry, G13). After each step a game has a standing per seat and the
leader is the seat standing highest alone (``None`` on a tie):

- BEOR: the hand closest to two groups by the game's own search evaluation of the full
  position (:mod:`parlour.lab.metrics_beor`; BEOR keeps no score, B5, B8);
- the Game of Death: the fewest drinks taken so far (G12: fewest drinks wins);
- Beggar-My-Neighbour: the most cards held at the last trick boundary (M2; the kernel keeps no
  history, so its deals have no lead figures).

``lead_changes`` counts the times the lead passed from one seat to another, ties skipped
(:func:`parlour.lab.stats.lead_changes`); ``decided_at`` is the step from which the sole winner
led alone for good (:func:`parlour.lab.stats.decided_at`) divided by the game's steps: 0 when
he led from the deal on, 1 when only the last step made him leader. A game without a sole
winner (a draw, a loop, a shared win) has no ``decided_at``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.core.game import JSON, LogEntry, State
from parlour.core.inputs import quote
from parlour.games import find_game
from parlour.lab import stats
from parlour.lab.metrics_beggar import KernelResults, beggar_figures, beggar_reading
from parlour.lab.metrics_beor import beor_reading
from parlour.lab.metrics_death import death_reading

__all__ = [
    "AGGREGATIONS",
    "METRICS",
    "KernelResults",
    "MetricSpec",
    "aggregate",
    "beggar_figures",
    "game_figures",
    "leader",
    "leaders",
    "specs_for",
]

AGGREGATIONS = ("rate", "mean", "summary")
BEOR, DEATH, BEGGAR = "beor", "death", "beggar"
ALL = (BEOR, DEATH, BEGGAR)


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """One metric of the lab, as the README's table lists it.

    Attributes:
        name: its JSON and README name (snake_case).
        unit: what its value counts ("share of games", "actions", "drinks", "per game" ...).
        games: the games it applies to (canonical names).
        per_seat: one estimate per seat (a list in the JSON) rather than one in all.
        aggregation: ``rate`` (a proportion of games with its Wilson interval), ``mean`` (a
            mean with its t interval) or ``summary`` (a mean with its t interval, and the
            percentiles; for length, a survival curve when a cap stopped games).
        doc: one plain sentence for the README table.
        figure: the key of :func:`game_figures`' rows it reads (default: ``name``).
    """

    name: str
    unit: str
    games: tuple[str, ...]
    per_seat: bool
    aggregation: str
    doc: str
    figure: str = ""

    def __post_init__(self) -> None:
        if self.aggregation not in AGGREGATIONS:
            raise ValueError(f"aggregation is one of {AGGREGATIONS}, got {quote(self.aggregation)}")

    @property
    def key(self) -> str:
        """The row key it reads."""
        return self.figure or self.name


def _spec(
    name: str, unit: str, games: tuple[str, ...], how: str, doc: str, **kw: str
) -> MetricSpec:
    return MetricSpec(name, unit, games, False, how, doc, **kw)


GAMES_DONE = "share of games"
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec(
        "seat_win_rate", GAMES_DONE, ALL, True, "rate",
        "The share of games each seat won, a win shared by k seats counting 1/k to each; seat 0 "
        "moves first, so its rate above 1/players is the first-player advantage.",
        figure="win_shares",
    ),
    _spec(
        "length", "actions", (BEOR, DEATH), "summary",
        "Player actions from the deal to the end (BEOR: turns; the Game of Death: throws, "
        "passes and gives), with percentiles, and a survival curve when a cap stopped games.",
    ),
    _spec(
        "length", "cards", (BEGGAR,), "summary",
        "Cards played (M8), a never-ending game up to where its repeat was seen (M10), with "
        "percentiles, and a survival curve when loops or the card limit (M11) stopped games.",
    ),
    _spec(
        "lead_changes", "per game", ALL, "mean",
        "How many times the lead passed from one player to another, ties skipped (leaders: "
        "BEOR the hand closest to two groups, the Game of Death the fewest drinks, "
        "Beggar-My-Neighbour the most cards at a trick boundary).",
    ),
    _spec(
        "decided_at", "share of game length", ALL, "mean",
        "The share of a game's steps after which its sole winner led alone for good (0: from "
        "the deal, 1: only at the last step); games without a sole winner are left out.",
    ),
    _spec(
        "stuck_loss_rate", GAMES_DONE, (BEOR,), "rate",
        "The share of games in which a player lost for having no legal play at the start of "
        "his turn (B8).",
        figure="stuck",
    ),
    _spec(
        "restocks", "per game", (BEOR,), "mean",
        "Restocks of the four stocks from the bases and scrap pile in a game (B9).",
    ),
    _spec(
        "natural_win_rate", GAMES_DONE, (BEOR,), "rate",
        "The share of games won at the deal by a hand dealt as two groups (B5).",
        figure="natural_win",
    ),
    _spec(
        "turn_cap_draw_rate", GAMES_DONE, (BEOR,), "rate",
        "The share of games drawn at the turn limit, option max_turns (B10).",
        figure="turn_cap_draw",
    ),
    MetricSpec(
        "drinks_taken", "drinks", (DEATH,), True, "mean",
        "Drinks each seat took in a game, points for a sober player (G12, G14).",
    ),
    _spec(
        "drinks_spread", "drinks", (DEATH,), "mean",
        "The most drinks any player took in a game minus the fewest (G12).",
    ),
    _spec("passes", "per game", (DEATH,), "mean", "Passes in a game, a drink each (G2)."),
    _spec(
        "socials", "per game", (DEATH,), "mean",
        "Socials in a game: four cards of one rank in a row, everyone drinks (G7).",
    ),
    _spec(
        "ace_sweeps", "per game", (DEATH,), "mean",
        "Aces thrown in a game, each sweeping the pile (G8).",
    ),
    _spec(
        "first_out_at", "actions", (DEATH,), "mean",
        "Player actions up to the throw of the first player's last card, after which the game "
        "ends when his turn comes back (G10).",
    ),
    _spec(
        "black_face_drinks", "drinks", (DEATH,), "mean",
        "Drinks the black face cards gave (G5) or cost their holders at the end (G11) in a "
        "deal: exactly 52, checked in every game.",
    ),
    _spec("tricks", "tricks", (BEGGAR,), "mean", "Piles taken in a game, the last one too (M8)."),
    _spec(
        "loop_rate", GAMES_DONE, (BEGGAR,), "rate",
        "The share of deals that never end, found by a repeated position (M10).",
        figure="loop",
    ),
    _spec(
        "card_limit_rate", GAMES_DONE, (BEGGAR,), "rate",
        "The share of games stopped by option card_limit (M11).",
        figure="card_limit",
    ),
)  # fmt: skip


def specs_for(game: str) -> tuple[MetricSpec, ...]:
    """The metrics of ``game`` (a name or alias), in :data:`METRICS` order.

    Raises:
        InvalidOption: no game has that name.
    """
    name = find_game(game).name
    return tuple(spec for spec in METRICS if name in spec.games)


# -- one game ---------------------------------------------------------------------------------

Reading = Callable[[State, Sequence[LogEntry]], tuple[dict[str, JSON], list[tuple[float, ...]]]]
_READINGS: tuple[tuple[str, Reading], ...] = (
    (BEOR, beor_reading),
    (DEATH, death_reading),
    (BEGGAR, beggar_reading),
)


def leader(standing: Sequence[float]) -> int | None:
    """The seat standing highest alone, or None on a tie."""
    best = max(standing)
    top = [seat for seat, value in enumerate(standing) if value == best]
    return top[0] if len(top) == 1 else None


def _reading(
    state: State, log: Sequence[LogEntry]
) -> tuple[dict[str, JSON], list[tuple[float, ...]]]:
    """The game's own figures and standings (:data:`_READINGS`), of a finished game."""
    if not state.is_over:
        raise ValueError("figures are read from a finished game; this one is still on")
    name = state.game.info.name
    read = next((read for game, read in _READINGS if game == name), None)
    if read is None:
        raise ValueError(f"the lab has no figures for {state.game.info.title}")
    return read(state, log)


def leaders(state: State) -> list[int | None]:
    """The leader after each step of a finished game, step 0 (the deal) first (see the module
    docstring).

    Raises:
        ValueError: the game is not over, or the lab has no figures for it.
    """
    return [leader(standing) for standing in _reading(state, state.log(None, 0))[1]]


def game_figures(state: State) -> dict[str, JSON]:
    """The raw figures of one finished game, as JSON: ``game``, ``players``, ``result``,
    ``winners``, ``win_shares`` (1/k to each of k winners), ``length`` (player actions; in
    Beggar-My-Neighbour cards, M8), ``ended`` (false when a cap stopped it: BEOR's turn limit
    B10, Beggar-My-Neighbour's loop M10 or card limit M11), ``lead_changes``, ``decided_at``
    (None without a sole winner) and the game's own figures (:mod:`.metrics_beor`,
    :mod:`.metrics_death`, :mod:`.metrics_beggar`).

    Raises:
        ValueError: the game is not over, the lab has no figures for it, or its accounting
            fails a check (the Game of Death's 52 black face card drinks, G5, G11).
    """
    log = state.log(None, 0)
    own, standings = _reading(state, log)
    outcome = state.outcome
    assert outcome is not None
    led = [leader(standing) for standing in standings]
    winners = list(outcome.winners)
    steps = len(led) - 1
    decided: float | None = None
    if len(winners) == 1:
        found = stats.decided_at(led, winners[0])
        if found is not None:
            decided = found / steps if steps else 0.0
    return {
        "game": state.game.info.name,
        "players": state.players,
        "result": outcome.result,
        "winners": winners,
        "win_shares": [1 / len(winners) if s in winners else 0.0 for s in range(state.players)],
        "length": sum(entry.kind == "action" for entry in log),
        "lead_changes": stats.lead_changes(led),
        "decided_at": decided,
        **own,
    }


# -- many games -------------------------------------------------------------------------------


def aggregate(game: str, players: int, rows: Sequence[Mapping[str, JSON]]) -> dict[str, JSON]:
    """Many games' figures (rows of :func:`game_figures` or :func:`beggar_figures`) as the
    lab's metrics: ``{name: {"value", "ci95": [lo, hi], "unit", "games"}}`` for each metric of
    :func:`specs_for` (a list of one such entry a seat for per-seat metrics), where ``games``
    counts the games that define it; ``length`` adds ``summary`` (count, mean, sd, min, p10,
    p25, median, p75, p90, max) and, when a cap stopped some game, ``survival`` (``[length,
    share of games still running]`` pairs, Kaplan-Meier); ``seat_balance`` is the chi-square
    test of equal wins by seat, ``{"statistic", "dof", "p_value"}``. A metric that no game
    defines (the lead figures of kernel deals) is left out.

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
    found: dict[str, JSON] = {}
    for spec in specs_for(name):
        if spec.per_seat:
            seats = [_estimate(spec, rows, seat) for seat in range(players)]
            if all(entry is not None for entry in seats):
                found[spec.name] = seats
        elif (entry := _estimate(spec, rows, None)) is not None:
            found[spec.name] = entry
    wins = [sum(_numbers(rows, "win_shares", seat)) for seat in range(players)]
    balance = stats.seat_balance(wins, len(rows))
    found["seat_balance"] = {
        "statistic": _round(balance.statistic),
        "dof": balance.dof,
        "p_value": _round(balance.p_value),
    }
    return found


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def _numbers(rows: Sequence[Mapping[str, JSON]], key: str, seat: int | None) -> list[float]:
    """Figure ``key`` of each row (its entry for ``seat``), leaving out None (undefined)."""
    values: list[float] = []
    for number, row in enumerate(rows):
        if key not in row:
            raise ValueError(f"row {number} has no figure {quote(key)}")
        value = row[key]
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
