"""The board always in sight: whole games of every game drawn on an emulated terminal (pyte) of
80x24 and 100x40, checked at every step: the table's first line at the top of the screen, the
table itself (BEOR's four bases, the pile to follow, the Beggar-My-Neighbour pile), the
person's hand, every numbered move whole on one line, and the prompt on the cursor's line.

The game runs in-process (:class:`TerminalGame` on a rich console that writes into the
emulator, forced to be a terminal of that size); ``test_pty.py`` checks the same through a real
pseudo-terminal for the command itself.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pyte
import pytest
from rich.console import Console

from parlour.games import find_game
from parlour.play.table import Table, check_seat_specs
from parlour.play.terminal import TerminalGame


class Emulated(io.StringIO):
    """A file whose text goes into a pyte screen, as a terminal's would."""

    def __init__(self, columns: int, lines: int) -> None:
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.Stream(self.screen)

    def write(self, text: str) -> int:
        self.stream.feed(text.replace("\n", "\r\n"))
        return len(text)

    def isatty(self) -> bool:
        return True

    def rows(self) -> list[str]:
        return [row.replace("\xa0", " ").rstrip() for row in self.screen.display]


TABLE_MARKS = {
    "beor": ("Black", "Even", "Odd", "Red"),
    "death": ("Pile (top last):",),
    "beggar": ("Pile (top last):",),
}


def check_screen(term: Emulated, table: Table, seat: int | None, prompt: str | None) -> None:
    """What must be on screen: the title at the top, the table, the hand, every move, the
    prompt on the cursor's line."""
    rows = term.rows()
    text = "\n".join(rows)
    game = table.game
    assert rows[0].startswith(game.title), f"the table's first line scrolled away:\n{text}"
    for mark in TABLE_MARKS[game.name]:
        assert any(r.lstrip().startswith(mark) for r in rows), f"{mark!r} is off screen:\n{text}"
    state = table.state
    if seat is None:
        return
    view = state.view(seat)
    hand = getattr(view, "hand", None)
    out = getattr(view, "out", ())
    if hand is not None and seat not in out:
        assert any(r.startswith("Your hand:") for r in rows), f"no hand:\n{text}"
    if prompt is not None and state.to_move == seat:
        cursor = rows[term.screen.cursor.y]
        assert prompt.strip()[-12:] in cursor + rows[term.screen.cursor.y - 1], text
        presenter = game.presenter
        numbered = presenter.numbered(state.legal_actions())
        for number, action in enumerate(numbered, 1):
            pretty = presenter.pretty_action(action).plain
            target = pretty[pretty.find(">") :] if ">" in pretty else pretty
            whole = (f"{number}) {pretty}", f"{number}) {target}")
            assert any(w in r for r in rows for w in whole), f"move {number} {pretty}:\n{text}"


def play_whole_game(
    name: str,
    specs: list[str],
    seed: int,
    size: tuple[int, int],
    answer: Callable[..., str],
    options: dict[str, object] | None = None,
) -> int:
    """Play a whole game on an emulated terminal of ``size`` (columns, lines), checking the
    screen at every prompt and every watched move; returns the number of screens checked."""
    columns, lines = size
    term = Emulated(columns, lines)
    console = Console(
        file=term,
        width=columns,
        height=lines,
        force_terminal=True,
        color_system=None,
        legacy_windows=False,
    )
    game = find_game(name)
    table = Table(game, check_seat_specs(game, specs), seed, options)
    rng = random.Random(seed)
    checked = 0

    def read(prompt: str) -> str:
        nonlocal checked
        term.write(prompt)
        seat = table.state.to_move
        if prompt.endswith("when you are ready> "):
            reply = ""
        else:
            check_screen(term, table, seat, prompt)
            checked += 1
            reply = answer(table, rng)
        term.write(reply + "\n")
        return reply

    terminal = TerminalGame(table, console, read)
    draw = terminal.screen.draw

    def checked_draw(seat: int | None, **kw: object) -> None:
        nonlocal checked
        draw(seat, **kw)  # type: ignore[arg-type]
        if table.state.to_move != seat or table.state.is_over:
            check_screen(term, table, seat, None)  # a watched move, or the public table
            checked += 1

    terminal.screen.draw = checked_draw  # type: ignore[method-assign]
    assert terminal.run() == "over"
    return checked


def random_move(table: Table, rng: random.Random) -> str:
    """A random numbered move; in a give (G5) all to a random other player."""
    state = table.state
    seat = state.to_move
    assert seat is not None
    numbered = table.game.presenter.numbered(state.legal_actions())
    if numbered:
        return str(rng.randrange(len(numbered)) + 1)
    if not table.has_decisions:
        return ""  # Beggar-My-Neighbour: Enter turns the card
    others = [s + 1 for s in range(table.players) if s != seat]
    return str(rng.choice(others))


SIZES = [(80, 24), (100, 40)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x40"])
@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [("beor", 2, 11), ("beor", 5, 3), ("death", 2, 4), ("death", 10, 5), ("beggar", 4, 7)],
)
def test_whole_games_keep_the_board_in_sight(
    name: str, players: int, seed: int, size: tuple[int, int]
) -> None:
    bot = "bot" if name == "beggar" else "random"
    # Random BEOR players rarely go out: B10's limit ends the game (a draw) in fewer turns.
    options: dict[str, object] = {"max_turns": 150} if name == "beor" else {}
    specs = ["person"] + [bot] * (players - 1)
    checked = play_whole_game(name, specs, seed, size, random_move, options)
    assert checked >= 5


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x40"])
def test_watching_beor_five_keeps_every_base_in_sight(size: tuple[int, int]) -> None:
    """5-player BEOR watched to the end (no person at the table): the Black row never
    scrolls away."""
    checked = play_whole_game("beor", ["random"] * 5, 24, size, random_move)
    assert checked > 10


def test_a_long_move_is_never_broken() -> None:
    """Moves break only between two moves: ``8) >red/black`` stays on one line."""
    from rich.text import Text

    from parlour.play.render import wrap_moves

    moves = Text("4♠:  1)\u00a0>black  2)\u00a0>black/even  3)\u00a0>black/odd  8)\u00a0>red/black")
    lines = wrap_moves(moves, 30).plain.split("\n")
    assert all(len(line) <= 30 for line in lines)
    assert any("8)\u00a0>red/black" in line for line in lines)
    assert lines[1].startswith("    ")


def test_the_hand_over_and_help_keep_the_table_in_sight() -> None:
    """Hot seat at 80x24: the hand-over screen (public table and the hand-over panel) and the
    screen after help both start with the table's first line."""
    term = Emulated(80, 24)
    console = Console(
        file=term, width=80, height=24, force_terminal=True, color_system=None, legacy_windows=False
    )
    game = find_game("death")
    table = Table(game, check_seat_specs(game, ["person", "person"] + ["random"] * 8), 5)
    answers = ["", "help", "", "quit", "leave"]
    seen: list[list[str]] = []

    def read(prompt: str) -> str:
        term.write(prompt)
        seen.append(term.rows())
        reply = answers.pop(0)
        term.write(reply + "\n")
        return reply

    assert TerminalGame(table, console, read).run() == "quit"
    handover, turn, helped, back = seen[0], seen[1], seen[2], seen[3]
    assert handover[0].startswith(game.title) and "Pass the keyboard" in "\n".join(handover)
    assert not any(r.startswith("Your hand:") for r in handover)
    assert turn[0].startswith(game.title) and any(r.startswith("Your hand:") for r in turn)
    assert "Press Enter to go back to the table>" in "\n".join(helped)
    assert back[0].startswith(game.title) and any(r.startswith("Your hand:") for r in back)
