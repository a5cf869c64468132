"""Scripted people for the terminal tests: a reader that answers prompts from a list."""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console

from parlour.cards import deck52
from parlour.games import find_game
from parlour.play.table import Table, check_seat_specs
from parlour.play.terminal import TerminalGame


class Script:
    """Answers prompts with the given lines in order, then ends input (EOFError). Every
    prompt is kept, so a test can see what was asked."""

    def __init__(self, lines: Iterable[str], out: io.StringIO | None = None) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.out = out
        self.screens: list[str] = []  # what was printed before each prompt since the last one

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.out is not None:
            text = self.out.getvalue()
            self.screens.append(text[sum(len(x) for x in self.screens) :])
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None, highlight=False), out


def terminal(
    table: Table, lines: Iterable[str], save_path: str | None = None
) -> tuple[TerminalGame, Script, io.StringIO]:
    con, out = console()
    script = Script(lines, out)
    return TerminalGame(table, con, script, save_path=save_path), script, out


def death_table(specs: tuple[str, ...] = ("person", "random", "random")) -> Table:
    """A 3-player Game of Death where Player 1 holds every diamond, the 2s, K♠ and A♠; the others
    can neither follow 2♦ nor its rank, so both pass and Player 1 leads again (G9)."""
    mine = [c for c in deck52() if c.suit is not None and c.suit.value == "D"]
    mine += [c for c in deck52() if str(c) in ("2S", "2H", "2C", "KS", "AS")]
    rest = [c for c in deck52() if c not in mine]
    deal = {
        "hands": [
            [str(c) for c in mine],
            [str(c) for c in rest[:17]],
            [str(c) for c in rest[17:]],
        ]
    }
    game = find_game("death")
    return Table(game, check_seat_specs(game, specs), 7, {}, deal)
