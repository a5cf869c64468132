"""Where the tables put the cards: each pile's top card is the one the seat's view says is on
top (views list piles top card first, RULINGS "Common"), at every version a page showed.

A person plays through the page against bots; after the game the record (seed revealed) is
replayed and each snapshot is compared with the state at the version the page showed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.browser.browser import Replayed, Table, get_json, new_context
from tests.server.client import ServerProcess, create_room

PILES_JS = """() => {
  const cards = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.card);
  const tops = {};
  for (const column of document.querySelectorAll('[data-base]')) {
    const top = column.querySelector('.pile [data-card]');
    tops[column.dataset.base] = top ? top.dataset.card : null;
  }
  return {
    v: Number(document.querySelector('#table').dataset.v),
    over: document.querySelector('[data-outcome]') !== null,
    moves: [...document.querySelectorAll('[data-action]')].map((e) => e.dataset.action),
    bases: tops,
    death: cards('.death-pile [data-card]'),
    beggar: cards('.beggar-pile [data-card]'),
  };
}"""

ROOMS: dict[str, dict[str, Any]] = {
    "beor": {"players": 2, "seats": ["person", "heuristic"], "options": {"max_turns": 40}},
    # Five players: the person holds about ten cards, so the game is a few dozen page moves.
    "death": {"players": 5, "seats": ["person"] + ["heuristic", "random"] * 2, "options": {}},
    "beggar": {"players": 2, "seats": ["person", "bot"], "options": {"card_limit": 30}},
}


def expected(game: str, view: dict[str, Any]) -> Any:
    if game == "beor":
        return {base: (pile[0] if pile else None) for base, pile in view["bases"].items()}
    if game == "death":
        return list(reversed(view["pile"]))
    return list(reversed(view["pile"]))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["beor", "death", "beggar"])
def test_each_piles_top_card_is_drawn_on_top(
    browser: Browser, server: ServerProcess, game: str
) -> None:
    body = {"game": game, **ROOMS[game]}
    room = create_room(server.url, body)
    context = new_context(browser)
    try:
        table = Table(context, "Player 1", 0).open(room["seats"][0]["link"])
        shots: list[dict[str, Any]] = []
        for _ in range(400):
            shot = table.page.evaluate(PILES_JS)
            shots.append(shot)
            if shot["over"]:
                break
            if shot["moves"]:
                table.play(shot["moves"][0])
            table.wait_v_above(shot["v"], "after a move")
        assert shots[-1]["over"], "the game did not end within 400 steps"
        record = get_json(f"{server.url}/api/rooms/{room['room']}/record")
    finally:
        context.close()
    replayed = Replayed(record)
    key = {"beor": "bases", "death": "death", "beggar": "beggar"}[game]
    compared = 0
    for shot in shots:
        state = replayed.state(shot["v"])
        assert state is not None, f"no state at version {shot['v']}"
        want = expected(game, state.view(0).to_json())
        assert shot[key] == want, f"version {shot['v']}: the page shows {shot[key]}, not {want}"
        compared += any(shot[key].values()) if isinstance(shot[key], dict) else bool(shot[key])
    assert compared >= 3
