"""``parlour lab compare`` (rule variants on the same deals, the primary metric tested alone
and the others under false discovery rate control) and ``parlour lab plan`` (how many games
detect a change of a metric, from a pilot run played here or a run file)."""

from __future__ import annotations

import argparse
import json
import math
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from rich.table import Table as RichTable

from parlour.cli.common import (
    CommandError,
    fresh_seed,
    path_arg,
    people_console,
    print_json,
)
from parlour.core.inputs import quote
from parlour.core.options import parse_option_pairs
from parlour.games import find_game

__all__ = ["register"]


def _unit_float(text: str) -> float:
    """``--power`` and ``--alpha``: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number between 0 and 1, got {quote(text)}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a number between 0 and 1, got {quote(text)}")
    return value


def _change(text: str) -> float:
    """``--change X``: a finite number other than 0, in the metric's unit."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value == 0:
        raise argparse.ArgumentTypeError(
            f"a number other than 0 in the metric's unit, got {quote(text)}"
        )
    return value


class Pilot(NamedTuple):
    """What a plan rests on: the default rules' spec and rows, the variant's rows (None: no
    variant), the words saying where they come from, and the variant as ``--variant`` of
    ``lab compare`` takes it (``NAME:OPTION=VALUE`` when none is known)."""

    spec: Any
    rows: list[Any]
    variant_rows: list[Any] | None
    where: str
    variant: str


def _value(value: object) -> str:
    return json.dumps(value) if isinstance(value, bool) or value is None else str(value)


def _from_file(args: argparse.Namespace) -> Pilot:
    """The baseline's spec and rows of a run file (its first run), and the rows of
    ``--variant`` (a run in the same file)."""
    from parlour.lab.run import RunStore

    with closing(RunStore.reading(args.source)) as store:
        runs = store.variants()
        if not runs:
            raise CommandError(f"{args.source} holds no run")
        name, spec = runs[0]
        rows = store.rows(spec.games, name)
        other, variant = None, "NAME:OPTION=VALUE"
        if args.variant is not None:
            wanted = args.variant.partition(":")[0].strip()
            found = dict(runs[1:])
            if wanted not in found:
                names = ", ".join(quote(v) for v in found) or "none"
                raise CommandError(
                    f"--variant: {args.source} holds no variant {quote(wanted)} (it holds {names})"
                )
            other = store.rows(found[wanted].games, wanted)
            options = found[wanted].options
            changed = [f"{k}={_value(v)}" for k, v in options.items() if spec.options.get(k) != v]
            variant = f"{wanted}:{','.join(changed)}" if changed else variant
    if not rows:
        raise CommandError(f"{args.source} holds no finished game")
    where = f"the {len(rows):,} games of {args.source}" + (
        f" against its variant {args.variant.partition(':')[0].strip()}" if other else ""
    )
    return Pilot(spec, rows, other, where, variant)


def _pilot(args: argparse.Namespace) -> Pilot:
    """A pilot run of the default rules (and of ``--variant NAME:K=V`` on the same deals),
    played and stored like ``lab run`` (``lab compare`` with a variant); the runs' notes (a
    Dask worker that left) go into ``args.notes``."""
    from parlour.cli.lab import _play, _spec
    from parlour.lab.compare import parse_variant

    seed = fresh_seed() if args.seed is None else args.seed
    base = _spec(args, seed=seed)
    if args.variant is None:
        out = Path(args.out or f"lab-{base.game}-{seed}.db")
        rows = _play(args, base, out, "", "pilot games", args.notes)
        return Pilot(base, rows, None, f"a pilot run in {out}", "NAME:OPTION=VALUE")
    try:
        name, options = parse_variant(args.variant)
    except ValueError as err:
        raise CommandError(str(err)) from None
    if name == "default":
        raise CommandError("--variant: the name 'default' is the default rules' own")
    given = parse_option_pairs(args.options)
    other = _spec(args, {**given, **options}, seed)
    out = Path(args.out or f"lab-{base.game}-{seed}-compare.db")
    rows = _play(args, base, out, "default", "pilot: default", args.notes)
    variant_rows = _play(args, other, out, name, f"pilot: {name}", args.notes)
    return Pilot(base, rows, variant_rows, f"a pilot comparison in {out}", args.variant.strip())


def _cmd_plan(args: argparse.Namespace) -> int:
    from parlour.lab.compare import parse_metric
    from parlour.lab.plan import PAIRED, plan

    if args.metric is None:
        raise CommandError("--metric: name the metric to plan for, e.g. --metric length")
    if args.change is None:
        raise CommandError("--change: the change to detect, in the metric's unit, e.g. 0.05")
    # The first argument (``common`` names it ``game``) is a run file or a game to pilot.
    args.source, args.notes = args.game, []
    is_file = Path(args.source).is_file() or args.source.endswith(".db")
    if not is_file:
        parse_metric(args.source, args.players, args.metric)  # refused before the pilot
    spec, rows, variant_rows, where, variant = (_from_file if is_file else _pilot)(args)
    metric = parse_metric(spec.game, spec.players, args.metric)
    found: dict[str, Any] = plan(
        rows,
        metric,
        args.change,
        power=args.power,
        alpha=args.alpha,
        variant_rows=variant_rows,
    )
    found["pilot"]["source"] = where
    if args.notes:
        found["notes"] = args.notes
    if args.json:
        print_json(found, compact=True)
        return 0
    unit, pilot = found["unit"], found["pilot"]
    console = people_console()
    defined = "" if pilot["defined"] == pilot["games"] else f", defined in {pilot['defined']:,}"
    console.print(f"{metric.title}: {pilot['value']:.4g} ({unit}) over {where}{defined}.")
    test = f"{args.power:.0%} power (two-sided paired test at level {args.alpha:g})"
    if found["games"] is None:
        console.print(
            f"A change of {args.change:+g} cannot be detected with {test} within the most games "
            "a run may hold."
        )
    else:
        agents = f" --agents {','.join(spec.agents)}" if spec.agents else ""
        console.print(
            f"To detect a change of {args.change:+g} with {test}, play {found['games']:,} games "
            f"under each rule set, e.g. parlour lab compare {spec.game} --players {spec.players}"
            f"{agents} --games {found['games']} --metric {metric.flag} --variant {variant}"
        )
    how = (
        "as the variant changed the pilot's games, the same deals under both rule sets"
        if found["basis"] == PAIRED
        else "assuming no gain from playing the same deals under both rule sets: an upper bound; "
        "a pilot comparison (--variant) measures the gain"
    )
    console.print(f"The differences game by game spread by {found['sd']:.4g} ({how}).")
    if found["basis"] == PAIRED and found["sd"] > pilot["sd"]:
        console.print(
            f"The pilot's differences spread by {pilot['sd']:.4g} only; a change of "
            f"{abs(args.change):g} in a rate changes that share of the games at least, which "
            f"spreads them by {found['sd']:.4g}."
        )
    if pilot["observed_change"] is not None:
        console.print(f"The pilot's own change: {pilot['observed_change']:+.4g}.")
    if found["detectable"] is not None:
        console.print(
            f"The pilot's games detect a change of ±{found['detectable']:.3g} or more with "
            f"{args.power:.0%} power."
        )
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from parlour.cli.lab import _from_file, _play, _spec, _summary
    from parlour.lab.compare import TEXT_HEAD, compare, parse_metric, parse_variant, text_rows

    if not args.variant:
        raise CommandError("--variant: give at least one, e.g. --variant strict:natural_win=false")
    base_options = parse_option_pairs(args.options)
    variants: list[tuple[str, dict[str, str]]] = [("default", base_options)]
    for text in args.variant:
        try:
            name, options = parse_variant(text)
        except ValueError as err:
            raise CommandError(str(err)) from None
        if name in {n for n, _ in variants}:
            raise CommandError(f"--variant: the name {quote(name)} is used twice")
        variants.append((name, {**base_options, **options}))
    seed = fresh_seed() if args.seed is None else args.seed  # one seed: the same deals for all
    specs = [(name, _spec(args, options, seed)) for name, options in variants]
    base = specs[0][1]
    primary = None if args.metric is None else parse_metric(base.game, base.players, args.metric)
    out = Path(args.out or f"lab-{specs[0][1].game}-{seed}-compare.db")
    notes: list[str] = []
    rows = {name: _play(args, spec, out, name, name, notes) for name, spec in specs}
    result: dict[str, Any] = {
        **{
            k: v for k, v in _summary(base, args.backend, rows["default"]).items() if k != "metrics"
        },
        "variants": {name: spec.options for name, spec in specs},
        "notes": notes,
        "metrics": {
            name: _summary(spec, args.backend, rows[name])["metrics"] for name, spec in specs
        },
        "primary": None if primary is None else primary.to_json(),
        "differences": {
            name: _from_file(
                partial(compare, base.game, base.players, rows["default"], rows[name], primary)
            )
            for name, _ in specs[1:]
        },
    }
    if args.json:
        print_json(result, compact=True)
        return 0
    console = people_console()
    console.print(
        f"{base.games} deals of {find_game(base.game).title} for {base.players} players under "
        f"{len(specs)} rule sets (the same deals for each), seed {seed}; saved in {out}"
    )
    for name, diffs in result["differences"].items():
        changed = _options_text(dict(variants)[name], base_options)
        table = RichTable(
            *TEXT_HEAD[:2], name, *TEXT_HEAD[3:], title=f"{name} against the default ({changed})"
        )
        for cells in text_rows(diffs):
            table.add_row(*cells)
        console.print(table)
    console.print(
        "p adj.: Benjamini-Hochberg over a variant's metrics but the primary (--metric), which "
        "is tested alone; changed: p adj. below 0.05 (the primary: its interval leaves out 0)."
    )
    return 0


def _options_text(options: dict[str, str], base: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items() if base.get(k) != v)


def add_plan_flags(p: argparse.ArgumentParser) -> None:
    """``--change``, ``--power`` and ``--alpha`` of ``lab plan``."""
    p.add_argument(
        "--change", type=_change, metavar="X", help="the change to detect, in the metric's unit"
    )
    p.add_argument(
        "--power", type=_unit_float, default=0.8, help="the chance to detect it (default 0.8)"
    )
    p.add_argument(
        "--alpha", type=_unit_float, default=0.05, help="the test's level (default 0.05)"
    )


def metric_flag(p: argparse.ArgumentParser, what: str) -> None:
    """``--metric NAME[:N]``."""
    p.add_argument("--metric", metavar="NAME[:N]", help=what)


def register(lsub: Any, formatter: type[argparse.HelpFormatter], common: Any) -> None:
    """``lab compare`` and ``lab plan``, with the flags every lab command shares (``common``)."""
    p = lsub.add_parser(
        "compare",
        help="rule variants on the same deals: what changed, with what confidence",
        description="Play the same deals under the default options and under each variant "
        "(common random numbers) and give each metric's paired difference with its 95% "
        "interval, its raw and Benjamini-Hochberg adjusted p-values and a verdict resting on "
        "so many games; --metric names the primary metric, tested alone. Example: parlour lab "
        "compare GAME --players 4 --agents heuristic --variant plain:OPTION=VALUE --metric "
        "length --games 2000 --seed 1",
        formatter_class=formatter,
    )
    common(p)
    p.add_argument(
        "--variant", action="append", metavar="NAME:K=V[,K=V]", help="a rule variant (repeat)"
    )
    metric_flag(p, "the primary metric, the one confirmatory test (NAME:N: Player N's)")
    p.add_argument(
        "--out",
        type=path_arg,
        metavar="RUN.db",
        help="the runs' file (default lab-GAME-SEED-compare.db)",
    )
    p.set_defaults(func=_cmd_compare)

    p = lsub.add_parser(
        "plan",
        help="how many games detect a change of X in a metric",
        description="How many games to detect a change of X in metric M with 80% power, from "
        "a pilot: GAME plays a pilot run of --games games (default 200) of the default rules, "
        "or with --variant NAME:K=V a pilot comparison on the same deals; a run file (RUN.db, "
        "of lab run or lab compare) is read instead, with --variant NAME one of its variants. "
        "Example: parlour lab plan GAME --players 4 --agents heuristic --games 300 --seed 1 "
        "--metric length --change 0.25",
        formatter_class=formatter,
    )
    common(p)
    metric_flag(p, "the metric; NAME:N for Player N's entry of a per-player metric")
    add_plan_flags(p)
    p.add_argument("--variant", metavar="NAME[:K=V,...]", help="the variant to plan against")
    p.add_argument(
        "--out", type=path_arg, metavar="RUN.db", help="the pilot's file (default as lab run's)"
    )
    p.set_defaults(func=_cmd_plan)
