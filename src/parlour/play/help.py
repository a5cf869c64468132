"""What ``help`` shows at the table: the game's rules in short (from its presenter, ruling ids in
brackets), its table commands, and the commands of the table.

The rules follow the seed texts and the rulings, so a person who reads only this can play a
whole game; the README has the rulings' full wording. Each item is one line that the terminal
wraps at its own width.
"""

from __future__ import annotations

from parlour.core.game import Game

__all__ = ["commands_text", "rules_text"]

_MOVES = "a number picks that move, or type the move itself (Tab completes it)."


def rules_text(game: Game) -> str:
    """The rules in short, then the table entries people may make, if the game has any."""
    presenter = game.presenter
    lines = [presenter.rules]
    if presenter.table_commands:
        lines.append(
            "Table penalties (G13): on yourself at once; on another player when most of the "
            "other players agree (the people at the table are asked; bots vote no). A penalty "
            "stands: undo goes back no further than it."
        )
        lines += [f"  {c.usage}: {c.about}" for c in presenter.table_commands]
    return "\n".join(lines)


def commands_text(game: Game) -> str:
    """The table's commands; hint and undo only where players make decisions."""
    decides = game.info.decisions
    hint = " · hint: what the heuristic bot would play" if decides else ""
    undo = "undo: take back your last move (one person against bots) · " if decides else ""
    return "\n".join(
        (
            f"Commands: {game.presenter.input_help or _MOVES}",
            f"  help: this page · moves: draw the table again{hint}",
            f"  {undo}save [FILE]: save the game",
            "  quit (or Ctrl-C): leave the table, offering to save first",
        )
    )
