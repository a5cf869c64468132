"""The short menu of ``parlour play`` with no arguments: game, players, people, bots.

Each question shows its default in brackets; Enter takes it, so four presses of Enter start a
game of the first game listed against a strong bot. The games, their player ranges and defaults come
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
from parlour.play.speech import say
from parlour.play.table import default_bot

__all__ = ["BOT_LEVELS", "Choice", "ask_menu", "menu_games"]

BOT_LEVELS = (
    ("expert", "expert", "menu.level.expert"),
    ("hard", "hard", "menu.level.hard"),
    ("medium", "medium", "menu.level.medium"),
    ("easy", "easy", "menu.level.easy"),
)
"""The bot levels: the name shown, the bot's spec and the key of what it does."""


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
        console.print(Text(say("menu.number", low=low, high=high), style="yellow"))


def _ask_game(read: Reader, console: Console, games: Sequence[Game]) -> Game:
    """A number from the list, or a game's name or alias, or the start of its title."""
    while True:
        answer = read(say("menu.which_game")).strip()
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
        console.print(Text(say("menu.game_name", count=len(games), names=names), style="yellow"))


def ask_menu(read: Reader, console: Console, game: Game | None = None) -> Choice:
    """Ask the questions (game only when not given). Raises EOFError if input ends."""
    console.print(Text(say("menu.welcome"), style="bold"), say("menu.enter"))
    if game is None:
        games = menu_games()
        for k, g in enumerate(games, 1):
            low, high = g.info.min_players, g.info.max_players
            console.print(say("menu.game_line", number=k, title=g.title, low=low, high=high))
        game = _ask_game(read, console, games)
    players = _ask_number(
        read,
        console,
        say("menu.how_many", low=game.info.min_players, high=game.info.max_players),
        game.info.min_players,
        game.info.max_players,
        game.info.default_players,
    )
    people = _ask_number(
        read,
        console,
        say("menu.people", count=players),
        0,
        players,
        1,
    )
    bot = default_bot(game)
    if people < players and game.info.decisions:
        for k, (level, _, about) in enumerate(BOT_LEVELS, 1):
            console.print(f"  {k}) {level}: {say(about)}")
        strength = _ask_number(read, console, say("menu.strength"), 1, len(BOT_LEVELS), 1)
        bot = BOT_LEVELS[strength - 1][1]
    seats: Sequence[str] = ["person"] * people + [bot] * (players - people)
    return Choice(game, tuple(seats))
