"""The short menu of ``parlour play`` with no arguments: game, players, people, bots.

Each question shows its default in brackets; Enter takes it, so four presses of Enter start a
game of the first game listed against a strong bot. A game that people may play against an
agreed time (``Game.time_limit``, its option ``time_limit`` in minutes) asks for one too,
when a person plays; Enter plays without. The games, their player ranges and defaults come
from each game's ``info``; games where players decide come first, the others (watched) after.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from parlour.core.game import Game
from parlour.core.inputs import parse_int
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
    """What the menu settled: the game, one spec a seat (``person`` or a bot) and the
    options chosen (the agreed time)."""

    game: Game
    seats: tuple[str, ...]
    options: Mapping[str, object] = field(default_factory=dict)


def menu_games() -> list[Game]:
    """The games in the menu's order: those with decisions first, then by name."""
    return sorted(GAMES.values(), key=lambda g: (not g.info.decisions, g.name))


def _number(answer: str, low: int, high: int) -> int | None:
    """The whole number ``answer`` from ``low`` to ``high`` (``02`` is 2), or None for any other
    answer, however many digits (``int()`` would fail past 4,300)."""
    try:
        return parse_int(answer, field="the answer", minimum=low, maximum=high)
    except ParlourError:
        return None


def _ask_number(
    read: Reader, console: Console, question: str, low: int, high: int, default: int
) -> int:
    while True:
        answer = read(f"{question} [{default}]> ").strip()
        if not answer:
            return default
        number = _number(answer, low, high)
        if number is not None:
            return number
        console.print(Text(say("menu.number", low=low, high=high), style="yellow"))


def _ask_game(read: Reader, console: Console, games: Sequence[Game]) -> Game:
    """A number from the list, or a game's name or alias, or the start of its title."""
    while True:
        answer = read(say("menu.which_game")).strip()
        if not answer:
            return games[0]
        number = _number(answer, 1, len(games))
        if number is not None:
            return games[number - 1]
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
    options = _ask_time(read, console, game) if people else {}
    return Choice(game, tuple(seats), options)


TIME_OPTION = "time_limit"
"""The option that sets a game's agreed time, in whole minutes (``Game.time_limit``)."""


def _ask_time(read: Reader, console: Console, game: Game) -> dict[str, object]:
    """The agreed time, for a game that can be played against one (its option
    :data:`TIME_OPTION` gives it a clock); Enter: none."""
    spec = next((s for s in game.info.options if s.name == TIME_OPTION), None)
    if spec is None or game.time_up_entry is None:
        return {}
    low, high = spec.minimum or 1, spec.maximum
    while True:
        answer = read(say("menu.time_limit", low=low, high=high)).strip()
        if not answer:
            return {}
        try:  # the option's own check: a whole number in its range
            chosen = game.options({TIME_OPTION: answer})[TIME_OPTION]
        except ParlourError:
            chosen = None
        if chosen is not None and game.time_limit({TIME_OPTION: chosen}) is not None:
            return {TIME_OPTION: chosen}
        console.print(Text(say("menu.number", low=low, high=high), style="yellow"))
