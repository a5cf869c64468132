"""What ``help`` shows at the table: the game's rules in short (from its presenter, ruling ids in
brackets) as the options in force at this table make them, its table commands, and the
commands of the table.

The rules follow the seed texts and the rulings, so a person who reads only this can play a
whole game; the README has the rulings' full wording. Each item is one line that the terminal
wraps at its own width. An option set otherwise than by default is said under the rule it
changes (``illegal_throw_penalty=false``: no illegal throw costs anything here).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from parlour.core.game import Game
from parlour.core.options import OptionSpec
from parlour.core.present import Presenter
from parlour.core.words import DEFAULT_LANGUAGE, Catalog
from parlour.play.speech import (
    COMMANDS,
    command_word,
    language,
    presenter_of,
    say,
    seat_called,
)

__all__ = ["commands_text", "rules_text", "watch_keys_text"]

_RULING = re.compile(r"\(([A-Z]\d+)[,)]")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return say("help.value.on") if value else say("help.value.off")
    if isinstance(value, list | tuple):
        # A record lists players by number, from 1 (``sober=1,3``); seats count from 0.
        return ", ".join(seat_called(int(v) - 1) for v in value) or say("help.value.nobody")
    return say("help.value.none") if value is None else str(value)


def _help(spec: OptionSpec, words: Catalog) -> str:
    """What ``spec`` does: the game's catalog's ``ui.option.NAME`` in the language spoken (as
    the lobby says it), else the option's own English help."""
    key = f"ui.option.{spec.name}"
    if words.lang != DEFAULT_LANGUAGE and key in words.entries:
        return words(key)
    return spec.help


def _changed(spec: OptionSpec, value: object, words: Catalog) -> str:
    """One line saying how ``spec`` is set at this table, against the rules' default."""
    name, about, ruling = spec.name, _help(spec, words), spec.ruling
    if spec.kind == "bool":
        key = "help.option.on" if value else "help.option.off"
        return say(key, name=name, help=about, ruling=ruling)
    return say("help.option.set", name=name, value=_shown(value), help=about, ruling=ruling)


def rules_text(game: Game, options: Mapping[str, object] | None = None) -> str:
    """The rules in short, with the options in force (``options`` as a record holds them)
    said under the rules they change, then the table entries people may make."""
    presenter = presenter_of(game)
    changed: dict[str, str] = {}
    for spec in game.info.options:
        value = (options or {}).get(spec.name, spec.default)
        default = list(spec.default) if isinstance(spec.default, tuple) else spec.default
        if value != default and spec.ruling:
            changed.setdefault(spec.ruling, "")
            changed[spec.ruling] += f"\n  ↳ {_changed(spec, value, presenter.words)}"
    lines = []
    for line in _rules(presenter).split("\n"):
        found = _RULING.search(line)
        if found is not None and found.group(1) in changed:
            line += changed.pop(found.group(1))
        lines.append(line)
    if changed:
        lines.append(say("help.options") + "".join(changed.values()))
    if presenter.table_commands:
        if presenter.table_rules:
            lines.append(presenter.table_rules)
        lines += [f"  {c.usage}: {c.about}" for c in presenter.table_commands]
    return "\n".join(lines)


def _rules(presenter: Presenter) -> str:
    """The rules in short: the presenter's in English, else the game's catalog's (``rules.title``,
    ``rules.goal``, then each section's heading and items)."""
    words = presenter.words
    if words.lang == DEFAULT_LANGUAGE or "rules.title" not in words:
        return presenter.rules
    lines = []
    for key in words.entries:
        if not key.startswith("rules."):
            continue
        text = words(key)
        if key.endswith(".heading"):
            lines.append(f"{text}:")
        elif ".item." in key:
            lines.append(f"• {text}")
        else:
            lines.append(text)
    return "\n".join(lines)


def watch_keys_text(by_hand: bool) -> str:
    """The keys of watching: faster, slower, pause, to the end (and back to turning by hand
    for someone who asked for ``auto``)."""
    return say("watch.keys_table", hand=say("watch.by_hand") if by_hand else "")


def commands_text(game: Game, *, undo: bool = True) -> str:
    """The table's commands; hint and undo only where players make decisions (undo for one
    person against bots)."""
    decides = game.info.decisions
    hint = say("help.hint") if decides else ""
    undo_line = say("help.undo") if decides and undo else ""
    watching = ""
    if not decides:
        watching = "\n" + say("help.watching", keys=watch_keys_text(True))
    lines = [
        say("help.commands", how=presenter_of(game).input_help or say("help.moves")),
        say("help.help", hint=hint),
        say("help.save", undo=undo_line),
        say("help.quit") + watching,
    ]
    if language() != DEFAULT_LANGUAGE:
        # The commands listed above, as English types them (every language reads them too).
        listed = [c for c in COMMANDS if (c != "hint" or hint) and (c != "undo" or undo_line)]
        shown = [command_word(name, DEFAULT_LANGUAGE) for name in listed]
        lines.append(say("help.english", words=", ".join(shown)))
    return "\n".join(lines)
