"""Beggar-My-Neighbour's own commands, ``parlour beggar play / stats / search``: its
``COMMANDS`` (:mod:`parlour.cli.commands`), named in the game's parts record.

``play`` plays deals in M9 notation to their result, ``stats`` gives the figures of many random
deals (on the compiled kernel, or the rules engine), ``search`` looks for long games. The
commands run in :mod:`.play` and :mod:`.search`; their lab-side work is in
:mod:`parlour.games.beggar.lab`.
"""

from __future__ import annotations

import argparse

from parlour.cli.commands import GameCommands, OptionFlag
from parlour.cli.common import (
    Parser,
    StoreOnce,
    add_option_flags,
    minutes_arg,
    nonneg_int,
    options_epilog,
    path_arg,
    players_arg,
    pos_int,
    workers_arg,
)
from parlour.games.beggar.cli.play import cmd_beggar_play, cmd_beggar_stats
from parlour.games.beggar.cli.search import cmd_beggar_search
from parlour.games.beggar.game import GAME

__all__ = ["COMMANDS", "register"]


def register(
    sub: argparse._SubParsersAction[Parser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add the parsers of ``parlour beggar``'s subcommands to ``sub``, its subparsers."""
    beggar = GAME
    bsub = sub
    p = bsub.add_parser(
        "play",
        help="play a deal to its result",
        description="Play one deal (DEAL), a random one (--random) or one per line of FILE "
        "(--deals, one JSON result per line). Deals use M9 notation: one string per hand, "
        "top card first, hands separated by '/', A K Q J for court cards and - for number "
        "cards, e.g. --Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("deal", nargs="?", metavar="DEAL", help="a deal in M9 notation")
    p.add_argument(
        "--deal", dest="deal_option", action=StoreOnce, metavar="DEAL", help="the same as DEAL"
    )
    p.add_argument("--random", action="store_true", help="play a random deal and print it")
    p.add_argument("--players", type=players_arg, help="players for --random (default 2)")
    p.add_argument("--seed", type=nonneg_int, help="seed for --random (default: fresh)")
    p.add_argument(
        "--deals", type=path_arg, metavar="FILE", help="one deal per line ('-' reads stdin)"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_option_flags(p, GAME)
    p.set_defaults(func=cmd_beggar_play)

    p = bsub.add_parser(
        "stats",
        help="statistics of random deals",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=players_arg, default=2, help="2 to 4 (default 2)")
    p.add_argument("--games", type=pos_int, default=1000, help="deals to play (default 1000)")
    p.add_argument("--seed", type=nonneg_int, help="seed of the batch (default: fresh)")
    p.add_argument(
        "--engine",
        choices=("fast", "python"),
        default="fast",
        help="fast: the compiled kernel (default); python: the rules engine, slower, with a "
        "seed per game",
    )
    p.add_argument("--workers", type=workers_arg, help="fast engine threads (default: all cores)")
    p.add_argument(
        "--plot", type=path_arg, metavar="FILE", help="save a histogram of game lengths (PNG)"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_option_flags(p, GAME)
    p.set_defaults(func=cmd_beggar_stats)

    p = bsub.add_parser(
        "search",
        help="search for long games",
        description="Search for the longest games with the compiled kernel: random sampling "
        "(random), hill climbing by swapping two cards (climb) or random sampling with backward "
        "play from the longest deals (backward, 2 players, no card limit). Shows deals per "
        "second and the best game so far; --out FILE keeps the top games after every step, "
        "and the same command with that file goes on where it stopped, on either backend. "
        "--backend dask spreads each step over Dask workers and finds the same games as local "
        "for the same seed and --deals: random and backward split the step's deals into "
        "ranges of the seed's stream (backward then plays backward from each long game on a "
        "worker), climb runs separate climbs on the workers and reads them in order.",
        epilog=options_epilog(beggar),
        formatter_class=formatter,
    )
    p.add_argument("--players", type=players_arg, help="2 to 4 (default 2)")
    p.add_argument("--minutes", type=minutes_arg, metavar="M", help="search for M minutes")
    p.add_argument("--deals", type=pos_int, metavar="D", help="search over D deals")
    p.add_argument("--seed", type=nonneg_int, help="seed of the search (default: fresh)")
    p.add_argument("--top", type=pos_int, metavar="K", help="games to keep (default 10)")
    p.add_argument(
        "--workers",
        type=workers_arg,
        help="threads, or with --backend dask the processes of a local Dask cluster "
        "(default: all cores)",
    )
    p.add_argument(
        "--strategy", choices=("random", "climb", "backward"), help="how to search (default random)"
    )
    p.add_argument(
        "--backend",
        choices=("local", "dask"),
        default="local",
        help="local: threads of this process (default); dask: Dask workers, every strategy",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --backend dask: the cluster's scheduler, e.g. tcp://10.0.0.5:8786 "
        "(default: a local cluster of --workers processes)",
    )
    p.add_argument(
        "--out", type=path_arg, metavar="FILE", help="save the search (JSON) and resume from it"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_option_flags(p, GAME)
    p.set_defaults(func=cmd_beggar_search)


COMMANDS = GameCommands(
    help="Beggar-My-Neighbour: play deals, statistics",
    register=register,
    option_flags=(
        OptionFlag("unpaid_penalty", "M4: when a payer runs out mid-payment (default capture)"),
        OptionFlag("card_limit", "M11: stop after N cards; most cards held wins", metavar="N"),
    ),
)
"""``parlour beggar``: its subcommands, and the flags of options M4 and M11."""
