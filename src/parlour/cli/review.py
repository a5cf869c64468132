"""``parlour review``: the expert's eye on every decision of a finished game.

For each decision of the seats asked for (every seat by default), from that seat's view at the
time only (:mod:`parlour.bots.review`): the move played, the expert search's best move, every
move's estimated win chance with a 95% interval, and the cost of the move played. People get
the decisive moments and a line a player as tables (a game without decisions: its story);
``--json`` prints the review (``parlour schema review``); ``--html FILE`` writes a report that
needs no network (inline CSS, the win-chance line as inline SVG, no script).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from parlour.cli.common import (
    MAX_PLAYERS_ARG,
    CommandError,
    Parser,
    StoreOnce,
    int_range,
    nonneg_int,
    path_arg,
    people_console,
    print_json,
    read_json,
)
from parlour.core.files import shown_name, write_text_atomic
from parlour.core.inputs import quote
from parlour.errors import InvalidOption
from parlour.games import find_game, replay_json

__all__ = ["register", "review_html"]

_THRESHOLD = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def threshold_arg(text: str) -> float:
    """``--threshold X``: a drop in win chance from 0 to 1 (``0.1`` is ten points)."""
    if not isinstance(text, str) or not _THRESHOLD.fullmatch(text.strip()):
        value = None
    else:
        value = float(text.strip())
    if value is None or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(
            f"a drop in win chance from 0 to 1 (0.1 is ten points), got {quote(text)}"
        )
    return value


def _labels(players: int, seats: Sequence[str] | None) -> list[str]:
    """``Player 2``, or ``Player 2 (expert)`` when the record says who sat there."""
    return [
        f"Player {s + 1}" + (f" ({seats[s]})" if seats is not None and s < len(seats) else "")
        for s in range(players)
    ]


def _cmd_review(args: argparse.Namespace) -> int:
    from parlour.bots.review import parse_review_budget
    from parlour.play.review import review_tables, review_with_progress

    record, _ = replay_json(read_json(args.record))
    game = find_game(record.game)
    seats = None
    if args.seat is not None:
        if args.seat > record.players:
            raise CommandError(
                f"--seat: Player {args.seat} is not at this table of {record.players} players"
            )
        seats = [args.seat - 1]
    budget = None
    if args.budget is not None:
        if game.strategy is None:
            raise CommandError(
                f"--budget: {game.title} has no decisions to search; its review is its story"
            )
        try:
            budget = parse_review_budget(args.budget, game)
        except InvalidOption:
            raise CommandError(
                f"--budget: a number of iterations a decision (e.g. 1600) or seconds "
                f"(e.g. 2s), got {quote(args.budget)}"
            ) from None
    review = review_with_progress(
        record,
        game,
        Console(stderr=True),
        show=sys.stderr.isatty() and not args.json,
        seats=seats,
        budget=budget,
        seed=args.seed,
        threshold=args.threshold,
    )
    labels = _labels(record.players, record.seats)
    found = review.to_json()
    if args.html is not None:
        title = f"{game.title}, {record.players} players"
        write_text_atomic(args.html, review_html(found, title, labels, len(record.actions)))
    if args.json:
        print_json(found, compact=True)
        return 0
    console = people_console()
    chosen = ", ".join(labels[s] for s in review.seats)
    if review.story is not None:
        console.print(f"{game.title}, {record.players} players: no decisions to judge.")
    else:
        console.print(
            f"Review of {game.title}, {record.players} players ({chosen}): "
            f"{len(review.decisions)} decisions judged, seed {review.seed}, "
            f"budget {review.budget} a decision.",
            highlight=False,
        )
    console.print(review_tables(review, labels))
    if args.html is not None:
        console.print(f"Report saved in {shown_name(args.html)}", highlight=False)
    return 0


# -- the HTML report ----------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}
th{background:#f3f3f3}td.n{text-align:right}
tr.mistake td{background:#fde8e8}
.meta{color:#555}svg{max-width:100%;height:auto;border:1px solid #ddd;background:#fff}
.legend span{display:inline-block;margin-right:1.2em}
.legend i{display:inline-block;width:1.4em;height:.25em;vertical-align:middle;margin-right:.4em}
"""

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b")


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _pct(x: object) -> str:
    return f"{100 * float(x):.1f}" if isinstance(x, int | float) else "-"


def _chance_line(found: dict[str, Any], labels: Sequence[str], steps: int) -> str:
    """The win chance of each reviewed player's moves over the game as an inline SVG: one line
    a player (the chance of the move played at each decision), the decisive moments ringed."""
    width, height, left, top = 720, 260, 44, 12
    plot_w, plot_h = width - left - 12, height - top - 32
    span = max(1, steps - 1)

    def x(step: int) -> float:
        return left + plot_w * step / span

    def y(chance: float) -> float:
        return top + plot_h * (1 - chance)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="win chance over the game">'
    ]
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(level):.1f}" y2="{y(level):.1f}" '
            f'stroke="#e5e5e5"/><text x="{left - 6}" y="{y(level) + 4:.1f}" font-size="11" '
            f'text-anchor="end">{100 * level:.0f}%</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" font-size="11" '
        f'text-anchor="middle">step (moves played before it), 0 to {max(0, steps - 1)}</text>'
    )
    decisions = [d for d in found["decisions"] if isinstance(d, dict)]
    seats = sorted({int(d["seat"]) for d in decisions})
    for k, seat in enumerate(seats):
        colour = _COLOURS[k % len(_COLOURS)]
        points = [
            (x(int(d["step"])), y(float(d["chances"][d["played"]])))
            for d in decisions
            if d["seat"] == seat
        ]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}">'
            f"<title>{_e(labels[seat])}</title></polyline>"
        )
        for px, py in points:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.5" fill="{colour}"/>')
    for moment in found["decisive"]:
        assert isinstance(moment, dict)
        mine = next(d for d in decisions if d["step"] == moment["step"])
        px, py = x(int(mine["step"])), y(float(mine["chances"][mine["played"]]))
        said = (
            f"step {mine['step']}, {labels[int(mine['seat'])]}: played {mine['played']}, "
            f"best {mine['best']}, cost {_pct(mine['cost'])} points"
        )
        parts.append(
            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="7" fill="none" stroke="#d00" '
            f'stroke-width="2"><title>{_e(said)}</title></circle>'
        )
    parts.append("</svg>")
    legend = "".join(
        f'<span><i style="background:{_COLOURS[k % len(_COLOURS)]}"></i>{_e(labels[s])}</span>'
        for k, s in enumerate(seats)
    )
    return "".join(parts) + f'<p class="legend">{legend} · ringed: the decisive moments</p>'


def _row(cells: Sequence[object], *, numeric: Sequence[int] = (), cls: str = "") -> str:
    shown = "".join(
        f'<td class="n">{_e(c)}</td>' if k in numeric else f"<td>{_e(c)}</td>"
        for k, c in enumerate(cells)
    )
    return f'<tr class="{cls}">{shown}</tr>' if cls else f"<tr>{shown}</tr>"


def _table(heads: Sequence[str], rows: Sequence[str]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in heads)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _decision_cells(d: dict[str, Any], labels: Sequence[str]) -> list[object]:
    chances, intervals = d["chances"], d["intervals"]
    assert isinstance(chances, dict) and isinstance(intervals, dict)
    played, best = str(d["played"]), str(d["best"])
    return [
        d["step"],
        labels[int(d["seat"])],
        played,
        best,
        f"{_pct(d['cost'])} ± {_pct(d.get('cost_interval', 0))}",
        f"{_pct(chances[played])}% ± {_pct(intervals[played])}",
        f"{_pct(chances[best])}% ± {_pct(intervals[best])}",
    ]


def review_html(found: dict[str, Any], title: str, labels: Sequence[str], steps: int) -> str:
    """The review ``found`` (its JSON) as one self-contained HTML page: the win-chance line,
    the decisive moments, a line a player and every decision judged (or the story's moments);
    every text escaped."""
    body = [f"<h1>Review: {_e(title)}</h1>"]
    story = found.get("story")
    if isinstance(story, dict):
        moments = story.get("moments")
        rows = [
            _row([m.get("step", ""), m.get("text", "")], numeric=(0,))
            for m in (moments if isinstance(moments, list) else [])
            if isinstance(m, dict)
        ]
        body.append('<p class="meta">No decisions to judge: the story of the game.</p>')
        body.append("<h2>The story of the game</h2>" + _table(["Step", "What happened"], rows))
    else:
        decisions = [d for d in found["decisions"] if isinstance(d, dict)]
        threshold = float(found["threshold"])
        body.append(
            f'<p class="meta">{len(decisions)} decisions judged from each player\'s view; '
            f"review seed {_e(found['seed'])}, budget {_e(found['budget'])} a decision. Cost: "
            "the percentage points of win chance the move played gave away against the "
            "expert's best move; chances ± their 95% interval.</p>"
        )
        heads = ["Step", "Player", "Played", "Best move", "Cost (points)"]
        heads += ["Chance played", "Chance best"]
        by_step = {d["step"]: d for d in decisions}
        decisive = [
            _row(_decision_cells(by_step[m["step"]], labels), numeric=(0, 4))
            for m in found["decisive"]
            if isinstance(m, dict)
        ]
        if decisions:
            chart = _chance_line(found, labels, steps)
            body.append("<h2>Win chance over the game</h2>" + chart)
        body.append("<h2>Decisive moments</h2>")
        body.append(
            _table(heads, decisive)
            if decisive
            else "<p>No costly decision: every move reviewed was as good as the expert's best.</p>"
        )
        summary = [
            _row(
                [
                    labels[int(s["seat"])],
                    s["decisions"],
                    s["forced"],
                    _pct(s["average_cost"]),
                    s["mistakes"],
                    "-" if s["worst_step"] is None else s["worst_step"],
                ],
                numeric=(1, 2, 3, 4, 5),
            )
            for s in found["summary"]
            if isinstance(s, dict)
        ]
        sums = ["Player", "Decisions", "Forced", "Average cost"]
        sums += [f"Mistakes (cost ≥ {_pct(threshold)})", "Costliest step"]
        body.append("<h2>Each player</h2>" + _table(sums, summary))
        every = [
            _row(
                _decision_cells(d, labels),
                numeric=(0, 4),
                cls="mistake" if float(d["cost"]) >= threshold and float(d["cost"]) > 0 else "",
            )
            for d in decisions
        ]
        body.append("<h2>Every decision judged</h2>" + _table(heads, every))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Parlour review: {_e(title)}</title><style>{_CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def register(
    sub: argparse._SubParsersAction[Parser],
    formatter: type[argparse.HelpFormatter],
) -> None:
    """Add the ``review`` command's parser."""
    p = sub.add_parser(
        "review",
        help="the expert's eye on every decision of a finished game",
        description=textwrap.fill(
            "Judge each decision of a game record from its player's view at the time only: "
            "the move played, the expert search's best move, each move's win chance with a "
            "95% interval and the cost of the move played (in win chance). Prints the decisive "
            "moments and a line a player; a game without decisions gets its story. The same "
            "record, --seed and --budget (in iterations) give the same review.",
            78,
        ),
        formatter_class=formatter,
    )
    p.add_argument(
        "record", type=path_arg, metavar="RECORD.json", help="a record file ('-' reads stdin)"
    )
    p.add_argument(
        "--seat",
        type=int_range(1, MAX_PLAYERS_ARG),
        action=StoreOnce,
        metavar="N",
        help="review Player N only (players count from 1; default: every player)",
    )
    p.add_argument(
        "--budget",
        action=StoreOnce,
        metavar="SPEC",
        help="search a decision: N iterations, or Ns seconds (not reproducible); "
        "default: the expert bot's budget",
    )
    p.add_argument(
        "--seed", type=nonneg_int, default=0, help="seed of the review's search (default 0)"
    )
    p.add_argument(
        "--threshold",
        type=threshold_arg,
        default=0.1,
        metavar="X",
        help="a mistake costs at least X of win chance, 0 to 1 (default 0.1: ten points)",
    )
    p.add_argument("--json", action="store_true", help="print the review as JSON on one line")
    p.add_argument(
        "--html", type=path_arg, metavar="FILE", help="also write a self-contained HTML report"
    )
    p.set_defaults(func=_cmd_review)
