"""``parlour verify``: check a committed game's record against its commitment and replay it."""

from __future__ import annotations

import argparse
import textwrap

from parlour.cli.common import Parser, path_arg, print_json, read_json
from parlour.core.fairness import verify
from parlour.core.record import Record
from parlour.core.state import seat_name
from parlour.games import find_game

__all__ = ["register"]


def _cmd_verify(args: argparse.Namespace) -> int:
    obj = read_json(args.record)
    found = verify(obj, find_game)
    outcome = found.outcome
    if args.json:
        print_json(
            {
                "verified": True,
                "game": found.game,
                "players": found.players,
                "seed": found.seed,
                "commitment": found.commitment,
                "deal_number": found.deal_number,
                "steps": found.steps,
                "outcome": outcome.to_json(),
            }
        )
        return 0
    game = find_game(found.game)
    labels = [seat_name(s) for s in range(found.players)]
    moves = len(Record.from_json(obj).actions)
    result = game.presenter.result_text(outcome, labels, moves)
    deal = f" (deal_number {found.deal_number})" if found.deal_number else ""
    print(
        f"Verified: the seed {found.seed} matches commitment {found.commitment}; "
        f"{game.title}{deal} for {found.players} players replays to its end in "
        f"{found.steps} steps: {result}."
    )
    return 0


def register(
    sub: argparse._SubParsersAction[Parser], formatter: type[argparse.HelpFormatter]
) -> None:
    """Add the ``verify`` command's parser."""
    p = sub.add_parser(
        "verify",
        help="check a record's revealed seed against its commitment and replay the game",
        description=textwrap.fill(
            "Check that a finished game's seed matches the commitment published before it "
            "began (SHA-256 of 'parlour seed commitment v1', a newline and the seed), then "
            "replay the game from that seed to its end. The records of online rooms carry both.",
            78,
        ),
        epilog="example: parlour verify game.json",
        formatter_class=formatter,
    )
    p.add_argument(
        "record",
        type=path_arg,
        metavar="RECORD",
        help="a record file with a commitment (- for stdin)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=_cmd_verify)
