"""Players' names in online rooms: text a person can see and tell apart from the others'.

A name is normalised (NFC, spaces stripped at both ends) and must be 1 to :data:`NAME_MAX`
characters with no control or direction character, and hold at least one visible letter or
digit (a character of Unicode's L* or N* categories other than the blank fillers such as U+3164
HANGUL FILLER). A name may not copy another seat's label ("Player 2" at any seat but Player 2's,
in any language the tables speak: "Jucătorul 2", "Speler 2") nor another seat's name; both are
compared without case, accents, fillers or width (``ＰＬＡＹＥＲ　２`` is ``player 2``).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Sequence
from importlib import resources

__all__ = ["NAME_MAX", "check_name", "check_names"]

NAME_MAX = 24

FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
"""Characters that are letters (or symbols) to Unicode but show as nothing."""

_FORBIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def check_name(name: object, where: str) -> str:
    """One name, normalised.

    Raises:
        ValueError: naming ``where`` and what is wrong.
    """
    if not isinstance(name, str):
        raise ValueError(f"{where} must be text")
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"{where} must be 1 to {NAME_MAX} characters long")
    for ch in name:
        if unicodedata.category(ch) in _FORBIDDEN:
            raise ValueError(f"{where} holds a control or direction character U+{ord(ch):04X}")
    if not any(_visible(ch) for ch in name):
        raise ValueError(f"{where} must hold at least one visible letter or digit")
    return name


def _visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN" and ch not in FILLERS


def check_names(names: Sequence[object], field: str = "name") -> list[str]:
    """Every seat's name (seat 0 first), normalised, each named ``{field} {seat + 1}`` in an
    error.

    Raises:
        ValueError: a name that is wrong by itself (:func:`check_name`), that copies another
            seat's label, or that is another seat's name.
    """
    out: list[str] = []
    seen: dict[str, int] = {}
    for seat, raw in enumerate(names):
        where = f"{field} {seat + 1}"
        name = check_name(raw, where)
        key = _key(name)
        label = _label_number(key)
        if label is not None and label != seat + 1:
            raise ValueError(f"{where} {name!r} is the label of another seat: choose another name")
        if key in seen:
            raise ValueError(f"{where} is the same as {field} {seen[key] + 1}: names must differ")
        seen[key] = seat
        out.append(name)
    return out


def _key(text: str) -> str:
    """``text`` as names are compared: compatibility forms (full-width letters, other spaces)
    folded, accents and fillers dropped, case folded, runs of spaces made one."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(
        ch
        for ch in decomposed
        if unicodedata.category(ch) not in ("Mn", "Me") and ch not in FILLERS
    )
    return " ".join(kept.casefold().split())


def _label_number(key: str) -> int | None:
    """The seat number (from 1) a compared name spells as a seat label, or None."""
    for pattern in _labels():
        found = pattern.fullmatch(key)
        if found:
            return int(found.group(1))
    return None


@functools.cache
def _labels() -> tuple[re.Pattern[str], ...]:
    """The seat labels of every catalog ("Player {n}" in the pages' texts, "Player {number}"
    in the terminal's), as patterns over :func:`_key`'s form with the number captured."""
    templates = {"Player {n}"}
    for package, key in (("parlour.server", "player"), ("parlour.play", "seat")):
        folder = resources.files(package).joinpath("static/i18n" if key == "player" else "words")
        for entry in folder.iterdir():
            if entry.name.endswith(".json"):
                value = json.loads(entry.read_text(encoding="utf-8")).get(key)
                if isinstance(value, str):
                    templates.add(value)
    patterns = set()
    for template in templates:
        parts = re.split(r"\{[a-z_]+\}", template)
        if len(parts) == 2:
            before, after = (re.escape(_key(p)).replace(r"\ ", r"\s*") for p in parts)
            patterns.add(rf"{before}\s*(\d+)\s*{after}")
    return tuple(re.compile(p) for p in sorted(patterns))
