"""The state of a search for long Beggar-My-Neighbour games (:mod:`.search`):
the games found, the search's settings and counts, and reading a saved search back, checked
field by field (every game it lists replayed from its deal, so a result its deal does not play is
refused, never reported)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from parlour.core.game import JSON
from parlour.core.inputs import quote
from parlour.core.jsontext import check_json
from parlour.core.rng import check_seed
from parlour.errors import InvalidNotation, InvalidOption
from parlour.games.beggar import BeggarGame
from parlour.games.beggar.fast import RESULTS, FastResults, encode_deals, play_deals

__all__ = [
    "MAX_INDEX",
    "MAX_TOP",
    "STRATEGIES",
    "Found",
    "SearchState",
    "best_of",
    "found_of",
    "new_search",
]

STRATEGIES = ("random", "climb", "backward")
"""The ways to search (:mod:`parlour.games.beggar.lab.search`)."""

_GAME = BeggarGame()
T = TypeVar("T")


@dataclass(frozen=True, slots=True, order=True)
class Found:
    """A game found: its deal (M9, rank-only), result and counts (M8)."""

    deal: str
    result: str
    cards: int
    tricks: int

    @property
    def rank_key(self) -> tuple[int, int, int, str]:
        """Sorts best first: a loop, then more cards, then more tricks, then the deal."""
        return (-int(self.result == "loop"), -self.cards, -self.tricks, self.deal)

    def to_json(self) -> dict[str, JSON]:
        return {
            "deal": self.deal,
            "result": self.result,
            "cards": self.cards,
            "tricks": self.tricks,
        }


@dataclass(frozen=True, slots=True)
class SearchState:
    """A search so far: settings, deals played, the next index of the seed's stream (a deal
    for ``random``, a climb for ``climb``) and the best ``top`` games, best first."""

    players: int
    seed: int
    strategy: str
    options: dict[str, JSON]
    top_k: int
    deals: int = 0
    next_index: int = 0
    top: tuple[Found, ...] = field(default=())
    extended: tuple[str, ...] = field(default=())

    @property
    def best(self) -> Found | None:
        return self.top[0] if self.top else None

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": self.players,
            "seed": self.seed,
            "strategy": self.strategy,
            "options": dict(self.options),
            "top_k": self.top_k,
            "deals": self.deals,
            "next_index": self.next_index,
            "top": [f.to_json() for f in self.top],
            "extended": list(self.extended),
        }

    @classmethod
    def from_json(cls, data: object) -> SearchState:
        """A saved search, checked field by field: whole numbers in their ranges (``deals`` and
        ``next_index`` at most :data:`MAX_INDEX`, so they never overflow the kernel), and every
        game of ``top`` replayed from its deal on the kernel, so a result that its deal does
        not play is refused, never reported.

        Raises:
            InvalidOption: naming the field that is missing or wrong.
        """
        if not isinstance(data, dict):
            raise InvalidOption("a saved search is a JSON object")
        check_json(data, field="the saved search", max_depth=6, error=InvalidOption)
        _known(data, _FIELDS, "the saved search")
        state = new_search(
            _count(data, "players", 0, 1000),
            _field(data, "seed", int),
            _field(data, "strategy", str),
            _field(data, "options", dict),
            _count(data, "top_k", 1, MAX_TOP),
        )
        items = _field(data, "top", list)
        if len(items) > MAX_TOP:
            raise InvalidOption(f"top of the saved search lists more than {MAX_TOP} games")
        top = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise InvalidOption(f"top[{i}] of the saved search is not an object")
            _known(item, _FOUND_FIELDS, f"top[{i}] of the saved search")
            found = Found(
                _field(item, "deal", str, f"top[{i}]."),
                _field(item, "result", str, f"top[{i}]."),
                _count(item, "cards", 0, MAX_INDEX, f"top[{i}]."),
                _count(item, "tricks", 0, MAX_INDEX, f"top[{i}]."),
            )
            if found.result not in RESULTS:
                raise InvalidOption(f"top[{i}].result must be one of {', '.join(RESULTS)}")
            top.append(found)
        _check_played(top, state)
        deals = _count(data, "deals", 0, MAX_INDEX)
        next_index = _count(data, "next_index", 0, MAX_INDEX)
        extended = data.get("extended", [])
        if not isinstance(extended, list):
            raise InvalidOption("extended of the saved search must be a list of deals")
        # The deals of top already played backward from: a search keeps only those in its top.
        in_top = {f.deal for f in top}
        for i, deal in enumerate(extended):
            if not isinstance(deal, str) or deal not in in_top:
                raise InvalidOption(
                    f"extended[{i}] of the saved search must be a deal of its top, "
                    f"got {quote(deal)}"
                )
        return replace(
            state,
            deals=deals,
            next_index=next_index,
            top=best_of(top, state.top_k),
            extended=tuple(extended),
        )


MAX_INDEX = 1 << 48
"""The largest count of deals or stream index a saved search may hold (at millions of deals a
second, centuries of searching): far inside the kernel's 64-bit integers."""

MAX_TOP = 10_000
"""The most games a search keeps."""


def _check_played(top: list[Found], state: SearchState) -> None:
    """Replay every deal of ``top`` under the search's options: its result, cards and tricks
    must be what the deal plays (M8), and it must be a deal for the search's players."""
    if not top:
        return
    try:
        deals = encode_deals([f.deal for f in top], state.players)
    except InvalidNotation as err:
        raise InvalidOption(f"top of the saved search: {err}") from None
    results = play_deals(deals, state.options)
    for i, f in enumerate(top):
        played = found_of(f.deal, results, i)
        if played != f:
            raise InvalidOption(
                f"top[{i}] of the saved search says {f.result} after {f.cards} cards and "
                f"{f.tricks} tricks, but its deal plays {played.result} after {played.cards} "
                f"cards and {played.tricks} tricks"
            )


_FIELDS = (
    "players",
    "seed",
    "strategy",
    "options",
    "top_k",
    "deals",
    "next_index",
    "top",
    "extended",
)
"""The fields of a saved search (:meth:`SearchState.to_json`)."""

_FOUND_FIELDS = ("deal", "result", "cards", "tricks")
"""The fields of a game of its ``top`` (:meth:`Found.to_json`)."""


def _known(data: dict[str, object], fields: tuple[str, ...], where: str) -> None:
    """Refuse a field ``fields`` does not name, as a record refuses one: a misspelt or foreign
    field is never ignored."""
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise InvalidOption(
            f"{where} has unknown field {quote(unknown[0])}; fields: {', '.join(fields)}"
        )


def _count(data: dict[str, object], name: str, low: int, high: int, where: str = "") -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidOption(
            f"{where}{name} of the saved search must be a whole number from {low} to {high}, "
            f"got {quote(value)}"
        )
    return value


def _field(data: dict[str, object], name: str, kind: type[T], where: str = "") -> T:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        kinds = {"int": "whole number", "str": "string", "list": "list", "dict": "object"}
        raise InvalidOption(
            f"{where}{name} of the saved search must be a {kinds.get(kind.__name__, 'value')}"
        )
    return value


def new_search(
    players: int,
    seed: int,
    strategy: str,
    options: Mapping[str, object] | None = None,
    top_k: int = 10,
) -> SearchState:
    """A search that has played nothing yet.

    Raises:
        InvalidOption: a bad player count, seed, strategy, option or ``top_k``.
    """
    players = _GAME.check_players(players)
    seed = check_seed(seed)
    if strategy not in STRATEGIES:
        raise InvalidOption(
            f"strategy must be one of {', '.join(STRATEGIES)}, got {quote(strategy)}"
        )
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP:
        raise InvalidOption(f"top must be a whole number from 1 to {MAX_TOP}, got {quote(top_k)}")
    typed = _GAME.typed_options(options)
    if strategy == "backward" and (players != 2 or typed.card_limit is not None):
        raise InvalidOption("strategy backward is for 2 players without a card limit")
    return SearchState(players, seed, strategy, typed.to_json(), top_k)


def best_of(found: list[Found] | tuple[Found, ...], k: int) -> tuple[Found, ...]:
    """The ``k`` best games of ``found``, best first, each deal once."""
    unique = {f.deal: f for f in found}
    return tuple(sorted(unique.values(), key=lambda f: f.rank_key)[:k])


def found_of(deal: str, results: FastResults, i: int) -> Found:
    """The game of ``deal``, row ``i`` of the kernel's ``results``."""
    return Found(
        deal, RESULTS[int(results.result[i])], int(results.cards[i]), int(results.tricks[i])
    )
