"""The screens people see: what each table shows, and that no screen shows a hidden card.

The leak test renders every seat's screen (table, own hand and moves) at each step of bot
games and looks for every card that seat cannot see (``State.hidden_from``), in the
suit-symbol form the screens use and in notation. The log of recent events (the seat's own
log, ``State.tail``) is checked as it grows: each entry a seat is shown names no card hidden
from that seat both before and after it happened (a card seen on a base and later shuffled
into a stock was seen, and the log may go on saying so; a card played face up is public even
when the same turn's restock shuffles it away, B9).
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from parlour.games import find_game
from parlour.play.render import last_events, screen
from parlour.play.table import Table, check_seat_specs


def render(table: Table, seat: int | None, *, log: bool = True) -> str:
    state = table.state
    legal = state.legal_actions() if seat is not None and state.to_move == seat else ()
    labels = [table.seat_label(s) for s in range(table.players)]
    events = last_events(state.tail(seat, 10), 10) if log else []
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(
        screen(table.game.presenter, state.view(seat), labels, events, legal)
    )
    text = out.getvalue()
    return text if log else text.split("Recent events:")[0]


def shown_cards(text: str) -> set[str]:
    return set(re.findall(r"(?:10|[AKQJ2-9])[♠♥♦♣]|\b(?:[AKQJT2-9][SHDC]|JK[12])\b", text))


def pretty_and_notation(card: str) -> set[str]:
    from parlour.cards import parse_card

    return {card, parse_card(card).pretty()}


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [
        ("beor", 2, 1),
        ("beor", 3, 2),
        ("beor", 5, 3),
        ("death", 2, 4),
        ("death", 4, 5),
        ("death", 7, 6),
        ("beggar", 3, 7),
    ],
)
def test_no_screen_shows_a_hidden_card(game: str, players: int, seed: int) -> None:
    g = find_game(game)
    bot = "bot" if game == "beggar" else "random"
    table = Table(g, check_seat_specs(g, [bot] * players), seed)
    steps = 0
    before: dict[int | None, frozenset[str]] = {}
    while steps < 80:
        for seat in [*range(players), None]:
            hidden = table.state.hidden_from(seat)
            seen = shown_cards(render(table, seat, log=False))
            leaked = {c for c in hidden if pretty_and_notation(c) & seen}
            assert not leaked, f"step {steps}, seat {seat}: {sorted(leaked)} on the table"
            # The newest entry of the seat's log, as the screen shows it.
            logged = [e for e in table.state.tail(seat, 1)[0].events if e.kind != "played"]
            named = shown_cards(" ".join(e.text for e in logged))
            secret = hidden & before.get(seat, hidden)
            leaked = {c for c in secret if pretty_and_notation(c) & named}
            assert not leaked, f"step {steps}, seat {seat}: {sorted(leaked)} in the log"
            before[seat] = hidden
        if table.state.is_over:
            break
        table.bot_move()
        steps += 1
    assert steps > 0


class TestWhatTheTableShows:
    def test_beor_table(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "heuristic", "random"]), 3)
        text = render(table, 0)
        view = table.state.view(0)
        for name in ("Black", "Even", "Odd", "Red"):
            assert name in text
        assert "9 cards face down" in text or "8 cards face down" in text
        assert "Player 2 (heuristic): 6 cards" in text and "Scrap pile: 0 cards" in text
        hand = view.hand  # type: ignore[attr-defined]
        assert "Your hand: " + " ".join(c.pretty() for c in hand) in text.replace("*", "")
        assert "1)\u00a0>" in text and "(* can be played now)" in text

    def test_a_face_up_stock_shows_its_top(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["random", "random"]), 3)
        while not any(s.face_up and s.size for s in table.state.view(None).stocks):  # type: ignore[attr-defined]
            table.bot_move()
        stock = next(s for s in table.state.view(None).stocks if s.face_up and s.size)  # type: ignore[attr-defined]
        assert f"face up, top {stock.top.pretty()}" in render(table, None)

    def test_death_table(self) -> None:
        g = find_game("death")
        table = Table(g, check_seat_specs(g, ["person", "random", "random"]), 3, {"sober": "3"})
        for _ in range(6):
            if table.state.to_move == 0:
                table.apply(table.state.legal_actions()[0])
            else:
                table.bot_move()
        text = render(table, 0)
        view = table.state.view(0)
        assert "drinks taken" in text and "sober: points (G14)" in text
        for card, seat in zip(view.pile, view.pile_seats, strict=True):  # type: ignore[attr-defined]
            assert f"{card.pretty()}\u00a0(P{seat + 1})" in text
        for seat in range(3):
            taken = view.drinks_taken[seat]  # type: ignore[attr-defined]
            assert re.search(rf"Player {seat + 1}\S*(?: \(\w+\))?\s+\d+\s+{taken}\s", text)

    def test_beggar_table_shows_the_payment(self) -> None:
        g = find_game("beggar")
        table = Table(g, check_seat_specs(g, ["bot", "bot"]), 3)
        while not table.state.view(None).owed:  # type: ignore[attr-defined]
            table.bot_move()
        text = render(table, None)
        assert re.search(r"Player \d must pay \d more cards? to Player \d \(M1\)", text)
        assert "cards" in text and "Pile (top last):" in text
