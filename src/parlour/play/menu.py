"""The short menu of ``parlour play`` with no arguments: game, players, people, bots.

Each question shows its default in brackets; Enter takes it, so four presses of Enter start a
two-player game of BEOR against a strong bot. The games, their player ranges and defaults come
from each game's ``info``; games where players decide come first, the others (watched) after.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from parlour.core.game import Game
from parlour.errors import ParlourError
from parlour.games import GAMES, find_game
from parlour.play.saving import Reader
from parlour.play.table import default_bot

__all__ = ["BOT_LEVELS", "Choice", "ask_menu", "menu_games"]

BOT_LEVELS = (
    ("expert", "expert", "searches longest, up to about a second a move"),
    ("hard", "hard", "searches ahead, about a tenth of a second a move"),
    ("medium", "medium", "plays by rules of thumb"),
    ("easy", "easy", "careless slips (in the Game of Death: random moves)"),
)


@dataclass(frozen=True, slots=True)
class Choice:
    """What the menu settled: the game and one spec a seat (``person`` or a bot)."""

    game: Game
    seats: tuple[str, ...]


def menu_games() -> list[Game]:
    """The games in the menu's order: those with decisions first, then by name."""
    return sorted(GAMES.values(), key=lambda g: (not g.info.decisions, g.name))


def _ask_number(
    read: Reader, console: Console, question: str, low: int, high: int, default: int
) -> int:
    while True:
        answer = read(f"{question} [{default}]> ").strip()
        if not answer:
            return default
        if answer.isascii() and answer.isdigit() and low <= int(answer) <= high:
            return int(answer)
        console.print(Text(f"Please answer a number from {low} to {high}.", style="yellow"))


def _ask_game(read: Reader, console: Console, games: Sequence[Game]) -> Game:
    """A number from the list, or a game's name or alias, or the start of its title."""
    while True:
        answer = read("Which game? [1]> ").strip()
        if not answer:
            return games[0]
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1]
        try:
            return find_game(answer)
        except ParlourError:
            pass
        wanted = answer.lower()
        for game in games:
            if game.title.lower().startswith(wanted) or wanted in game.title.lower():
                return game
        names = ", ".join(g.name for g in games)
        console.print(Text(f"Please answer 1 to {len(games)} or a name: {names}.", style="yellow"))


def ask_menu(read: Reader, console: Console, game: Game | None = None) -> Choice:
    """Ask the questions (game only when not given). Raises EOFError if input ends."""
    console.print(Text("Welcome to Parlour.", style="bold"), "Press Enter for the default.")
    if game is None:
        games = menu_games()
        for k, g in enumerate(games, 1):
            console.print(f"  {k}) {g.title} ({g.info.min_players}-{g.info.max_players} players)")
        game = _ask_game(read, console, games)
    players = _ask_number(
        read,
        console,
        f"How many players ({game.info.min_players}-{game.info.max_players})?",
        game.info.min_players,
        game.info.max_players,
        game.info.default_players,
    )
    people = _ask_number(
        read,
        console,
        f"How many people at this keyboard (0 watches bots play, up to {players})?",
        0,
        players,
        1,
    )
    bot = default_bot(game)
    if people < players and game.info.decisions:
        for k, (level, _, about) in enumerate(BOT_LEVELS, 1):
            console.print(f"  {k}) {level}: {about}")
        strength = _ask_number(read, console, "How strong are the bots?", 1, len(BOT_LEVELS), 1)
        bot = BOT_LEVELS[strength - 1][1]
    seats: Sequence[str] = ["person"] * people + [bot] * (players - people)
    return Choice(game, tuple(seats))
