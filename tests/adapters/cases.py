"""Every registered game at every player count, for the adapters' suites."""

from __future__ import annotations

from parlour.games import GAMES

CASES: list[tuple[str, int]] = [
    (name, players)
    for name in sorted(GAMES)
    for players in range(GAMES[name].info.min_players, GAMES[name].info.max_players + 1)
]


def case_id(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"
