"""The error types of Parlour. All are ``ValueError``s whose message names the input, the rule
or field, and the position, in one line that can be shown to a person as it is.

Each type has a stable ``code`` that a client (a server's protocol, a script) can tell apart
without reading the message: ``bad_notation``, ``illegal``, ``not_your_turn``, ``game_over``,
``bad_record``, ``bad_option``, ``bad_input``, ``file_error``.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "ERROR_CODES",
    "FileError",
    "GameOver",
    "IllegalAction",
    "InvalidInput",
    "InvalidNotation",
    "InvalidOption",
    "InvalidRecord",
    "NotYourTurn",
    "ParlourError",
]


class ParlourError(ValueError):
    """Base class: a one-line message for a person."""

    code: ClassVar[str] = "error"


class InvalidNotation(ParlourError):
    """Text that is not a card, action, deal or position in the game's notation."""

    code: ClassVar[str] = "bad_notation"


class IllegalAction(ParlourError):
    """A well-formed action that the rules forbid here; the message names the rule."""

    code: ClassVar[str] = "illegal"


class NotYourTurn(IllegalAction):
    """An action for a seat that is not to move."""

    code: ClassVar[str] = "not_your_turn"


class GameOver(IllegalAction):
    """An action after the game has ended."""

    code: ClassVar[str] = "game_over"


class InvalidRecord(ParlourError):
    """A game record (or a state or view in JSON) that cannot be read or replayed: the message
    names the field or action index."""

    code: ClassVar[str] = "bad_record"


class InvalidOption(ParlourError):
    """An unknown game option or a value outside its schema."""

    code: ClassVar[str] = "bad_option"


class InvalidInput(ParlourError):
    """A value from outside (a number, a duration, a file name, JSON text, an argument of the
    library's API) that is not of its kind or outside its bounds: the message names the field
    (see :mod:`parlour.core.inputs`)."""

    code: ClassVar[str] = "bad_input"


class FileError(ParlourError):
    """A file that cannot be read or written (missing, a folder, no permission, disk full): the
    message names the file and the reason."""

    code: ClassVar[str] = "file_error"


ERROR_CODES: tuple[str, ...] = tuple(
    e.code
    for e in (
        InvalidNotation,
        IllegalAction,
        NotYourTurn,
        GameOver,
        InvalidRecord,
        InvalidOption,
        InvalidInput,
        FileError,
    )
)
"""Every stable error code, as a protocol may list them."""
