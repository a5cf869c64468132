"""Where a game keeps its parts: the record a :class:`~parlour.core.game.Game` declares.

A game package is the one home of its game (ARCHITECTURE.md, "Per game"). Its ``Game`` names
each part explicitly, as a dotted module or package name, in a :class:`GameParts` record; the
layer that serves a part loads it lazily with :func:`load_part` (or reads a data file with
:func:`part_file`), so importing a game's rules never imports the lab, a server or a learning
library, and no layer imports a game's module by name.

Why module names in one record rather than an entry-point group per face: a game from another
distribution registers once (the ``parlour.games`` group names its ``Game``), the record is
read in one place (:meth:`GameParts.present` says which parts a game has), and a part can be
read without installing anything besides the game.

The parts and what each names:

- ``presenter``: a module exporting ``PRESENTER`` (:mod:`parlour.core.present`);
- ``strategy``: a module exporting ``STRATEGY`` (:mod:`parlour.core.strategy`), or ``None``
  for a game without decisions;
- ``words``: a package holding one message catalog per language, ``en.json``, ``ro.json`` and
  ``nl.json`` (:mod:`parlour.core.words`);
- ``board``: a package holding the web board, ``board.js`` (an ES module) and ``board.css``,
  which the server serves and the browser table loads with ``import()``;
- ``features``: a module exporting ``FEATURES``, the observation features the adapters encode;
- ``figures``: a module exporting ``FIGURES``, the lab figures the game adds to the lab's
  generic statistics;
- ``commands``: a module exporting ``COMMANDS``, the extra subcommands of ``parlour <game>``;
- ``story``: a module exporting ``STORY``, the story ``parlour review`` tells of a game without
  decisions;
- ``schemas``: a package holding the JSON Schemas of the game's documents (``state.json``,
  ``view.json``, ``action.json`` ...), which ``parlour schema`` names ``<game>-<document>``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from importlib import import_module, resources
from typing import Literal, TypeVar

__all__ = ["PART_EXPORTS", "GameParts", "PartName", "load_part", "load_part_as", "part_file"]

PartName = Literal["presenter", "strategy", "features", "figures", "commands", "story"]

PART_EXPORTS: dict[str, str] = {
    "presenter": "PRESENTER",
    "strategy": "STRATEGY",
    "features": "FEATURES",
    "figures": "FIGURES",
    "commands": "COMMANDS",
    "story": "STORY",
}
"""The name each module part exports."""


@dataclass(frozen=True, slots=True)
class GameParts:
    """The dotted names of a game's parts (``None``: the game has no such part)."""

    presenter: str
    words: str
    strategy: str | None = None
    board: str | None = None
    features: str | None = None
    figures: str | None = None
    commands: str | None = None
    schemas: str | None = None
    story: str | None = None

    def present(self) -> tuple[str, ...]:
        """The names of the parts this game has, in declaration order."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) is not None)


def load_part(parts: GameParts, part: PartName) -> object | None:
    """The object a module part exports (``FEATURES`` of the ``features`` module ...), imported
    on first use; ``None`` when the game has no such part.

    Raises:
        ImportError: the module is missing, or it lacks the export (a broken game package).
    """
    module = getattr(parts, part)
    if module is None:
        return None
    export = PART_EXPORTS[part]
    found: object | None = getattr(import_module(module), export, None)
    if found is None:
        raise ImportError(f"{module} does not export {export} (the game's {part} part)")
    return found


T = TypeVar("T")


def load_part_as(parts: GameParts, part: PartName, kind: type[T]) -> T | None:
    """:func:`load_part`, checked to be a ``kind`` (the record the layer that serves the part
    defines: a lab's figures, a command line's commands).

    Raises:
        TypeError: the export is not a ``kind`` (a broken game package).
    """
    found = load_part(parts, part)
    if found is None:
        return None
    if not isinstance(found, kind):
        module = getattr(parts, part)
        raise TypeError(f"{module}.{PART_EXPORTS[part]} is not a {kind.__name__}")
    return found


def part_file(package: str, name: str) -> bytes | None:
    """The bytes of the data file ``name`` inside the part package ``package`` (a catalog, the
    board's script), or ``None`` when it has no such file."""
    try:
        return resources.files(package).joinpath(name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, ModuleNotFoundError):
        return None
