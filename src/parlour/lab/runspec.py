"""What a lab run plays (:class:`RunSpec`) and the checks on what a run's file holds: its
settings and one row of figures a game (:func:`check_row`), each refused by name when changed by
hand, never a traceback."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from parlour.bots import make_agent
from parlour.core.game import JSON, Game
from parlour.core.inputs import check_int, quote
from parlour.core.jsontext import check_json, parse_json
from parlour.core.rng import check_seed
from parlour.errors import InvalidOption
from parlour.games import find_game
from parlour.lab.engines import resolve_engine

__all__ = ["DEALERS", "MAX_FIGURE", "MAX_GAMES", "RunSpec", "check_row", "load_json"]


@dataclass(frozen=True)
class RunSpec:
    """What a run plays: the same spec always plays the same games."""

    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    engine: str = ""
    """``fast`` (the game's compiled kernel) or ``python`` (the rules engine); ``""``: the
    default, resolved by :meth:`checked` (:func:`parlour.lab.engines.resolve_engine`)."""
    dealer: str = "fixed"
    """``fixed``: game ``i`` is dealt from ``derive_seed(seed, "game", i)`` by the game's usual
    dealer (seat 0 dealt first); ``rotate``: game ``i`` is deal ``i`` of a match of the run's
    seed (``Game.match_deal(players, seed, i)``), the dealer moving one seat clockwise each
    game, so that every seat is dealt first as often (:data:`DEALERS`)."""

    def checked(self) -> RunSpec:
        """The spec with the game's canonical name and options, or InvalidOption naming the
        field that is wrong (before any game is played)."""
        game = find_game(self.game)
        players = game.check_players(self.players)
        options = dict(game.options(self.options).items())
        if game.time_limit(options) is not None:
            raise InvalidOption(_no_clock(game))
        if not game.info.decisions:
            if self.agents:
                raise InvalidOption(f"--agents: {game.title} has no decisions to make")
        elif not self.agents:
            raise InvalidOption("--agents: name at least one agent, e.g. heuristic")
        if len({a.strip().lower() for a in self.agents}) != len(self.agents):
            raise InvalidOption("--agents: name each agent once (seats rotate over them)")
        for spec in self.agents:
            make_agent(spec, game)
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise InvalidOption(f"--games: a whole number of at least 1, got {quote(self.games)}")
        dealer = _check_dealer(game, players, self.dealer)
        found = RunSpec(
            game.name, players, tuple(self.agents), self.games, self.seed, options, dealer=dealer
        )
        return replace(found, engine=resolve_engine(found, self.engine))

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "players": self.players,
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
            "engine": self.engine,
            "dealer": self.dealer,
        }

    @classmethod
    def from_json(cls, obj: object) -> RunSpec:
        """A spec as :meth:`to_json` wrote it (a run file holds one a variant), each field
        checked, so a run file changed by hand is refused by name, never half read.

        Raises:
            InvalidOption: naming the field that is missing or wrong.
        """
        where = "the run's spec"
        if not isinstance(obj, dict):
            raise InvalidOption(f"{where} is not a JSON object")
        missing = [
            k for k in ("game", "players", "agents", "games", "seed", "options") if k not in obj
        ]
        if missing:
            raise InvalidOption(f"{where} has no field {quote(missing[0])}")
        game, agents, options = obj["game"], obj["agents"], obj["options"]
        if not isinstance(game, str) or len(game) > 100:
            raise InvalidOption(f"{where} field 'game' must be a game's name, got {quote(game)}")
        if (
            not isinstance(agents, list)
            or len(agents) > 64
            or not all(isinstance(a, str) and len(a) <= 100 for a in agents)
        ):
            raise InvalidOption(f"{where} field 'agents' must be a list of agents' names")
        if not isinstance(options, dict):
            raise InvalidOption(f"{where} field 'options' must be an object")
        check_json(options, field=f"{where} field 'options'", max_depth=4, error=InvalidOption)
        players = check_int(
            obj["players"],
            field=f"{where} field 'players'",
            minimum=1,
            maximum=64,
            error=InvalidOption,
        )
        games = check_int(
            obj["games"],
            field=f"{where} field 'games'",
            minimum=1,
            maximum=MAX_GAMES,
            error=InvalidOption,
        )
        seed = check_seed(obj["seed"], field=f"{where} field 'seed'")
        # Files written before engines were chosen: the kernel played games without decisions.
        engine = obj.get("engine", "python" if agents else "fast")
        if engine not in ("fast", "python"):
            raise InvalidOption(
                f"{where} field 'engine' must be fast or python, got {quote(engine)}"
            )
        # Files written before the dealer could move: a fixed dealer.
        dealer = obj.get("dealer", "fixed")
        if dealer not in DEALERS:
            raise InvalidOption(
                f"{where} field 'dealer' must be {' or '.join(DEALERS)}, got {quote(dealer)}"
            )
        return cls(game, players, tuple(agents), games, seed, dict(options), engine, dealer)


DEALERS = ("fixed", "rotate")
"""How a run deals its games (:attr:`RunSpec.dealer`)."""


def _check_dealer(game: Game, players: int, dealer: object) -> str:
    """``dealer`` if it is one of :data:`DEALERS` that ``game`` can deal: ``rotate`` needs a
    game whose matches move the dealer (its ``match_deal`` deals them)."""
    if dealer not in DEALERS:
        raise InvalidOption(f"--dealer: one of {', '.join(DEALERS)}, got {quote(dealer)}")
    if dealer == "rotate" and game.match_deal(players, 0, 0) is None:
        raise InvalidOption(
            f"--dealer rotate: {game.title} deals every game alike, the same seat first, "
            "with no dealer moving between deals, so its seats are its positions; use "
            "--dealer fixed"
        )
    return str(dealer)


def _no_clock(game: Game) -> str:
    """Why a run refuses options that give the game a clock: a simulation has none. The
    game's catalog may say it in its own words (``refusal.no_clock``: which option to use
    instead)."""
    words = game.words()
    if "refusal.no_clock" in words:
        return words("refusal.no_clock")
    return f"simulations have no clock: {game.title} is played here without an agreed time"


MAX_GAMES = 2**31 - 1
"""The most games one run may ask for."""

MAX_FIGURE = 1e12
"""The largest figure a stored game's row may hold (lengths, drinks, cards are far below):
beyond it the metrics' sums of squares would overflow."""


def load_json(text: object, what: str) -> object:
    """JSON that a run file holds, within the limits of :func:`parse_json`."""
    if not isinstance(text, str | bytes):
        raise InvalidOption(f"{what} is not JSON text")
    return parse_json(text, field=what, error=InvalidOption)


def check_row(row: object, what: str, games: int) -> dict[str, Any]:
    """A stored game's row as :func:`play_batch` writes it: ``index``, and ``figures`` with
    the game, players, length and whether it ended; every figure plain JSON. The metrics then
    name any figure they miss."""
    if not isinstance(row, dict):
        raise InvalidOption(f"{what} is not a JSON object")
    check_int(
        row.get("index"),
        field=f"{what} field 'index'",
        minimum=0,
        maximum=games,
        error=InvalidOption,
    )
    figures = row.get("figures")
    if not isinstance(figures, dict):
        raise InvalidOption(f"{what} field 'figures' must be an object")
    check_json(figures, field=f"{what} field 'figures'", max_depth=4, error=InvalidOption)
    for key, value in figures.items():
        for number in value if isinstance(value, list) else [value]:
            if (
                isinstance(number, int | float)
                and not isinstance(number, bool)
                and not -MAX_FIGURE <= number <= MAX_FIGURE
            ):
                raise InvalidOption(f"{what}: figure {quote(key)} is out of range: {quote(number)}")
    length = figures.get("length")
    if isinstance(length, bool) or not isinstance(length, int | float) or length < 0:
        raise InvalidOption(f"{what}: figure 'length' must be a number of actions")
    if not isinstance(figures.get("ended"), bool):
        raise InvalidOption(f"{what}: figure 'ended' must be true or false")
    plan = row.get("plan", [])
    if not isinstance(plan, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 64 for a in plan
    ):
        raise InvalidOption(f"{what} field 'plan' must list agents by number")
    return row
