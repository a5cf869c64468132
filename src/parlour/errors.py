"""The error types of Parlour. All are ``ValueError``s whose message names the input, the rule
or field, and the position, in one line that can be shown to a person as it is.

Each type has a stable ``code`` that a client (a server's protocol, a script) can tell apart
without reading the message: ``bad_notation``, ``illegal``, ``not_your_turn``, ``game_over``,
``bad_record``, ``bad_option``, ``bad_input``, ``file_error``, ``server_error``.

A refusal of a game may also carry a catalog ``key`` of the game's words (``refusal.NAME``) and
the ``values`` of its placeholders, so that a front end can say it in the language it speaks;
its message is then the English sentence of that key (a :class:`Sentence`, made by
:func:`parlour.core.words.sentence`). Without a key a front end shows the message as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    "Sentence",
    "ServerError",
    "Value",
]

Value = str | int
"""A placeholder's value in a sentence: text (a card, a quoted input) or a whole number."""


class Sentence(str):
    """A sentence of a game's catalog in English that remembers its ``key`` and ``values``;
    an error made from it carries them (a front end says the key in its own language)."""

    key: str
    values: dict[str, Value]

    def __new__(cls, text: str, key: str, values: Mapping[str, Value]) -> Sentence:
        said = super().__new__(cls, text)
        said.key = key
        said.values = dict(values)
        return said

    def __getnewargs__(self) -> tuple[str, str, dict[str, Value]]:  # type: ignore[override]
        return str(self), self.key, self.values


class ParlourError(ValueError):
    """Base class: a one-line message for a person; ``key`` and ``values`` say it in a game's
    catalog (``None`` and ``{}`` when it has no words there). A :class:`Sentence` as the
    message gives its key and values."""

    code: ClassVar[str] = "error"

    def __init__(
        self,
        message: object = "",
        *,
        key: str | None = None,
        values: Mapping[str, Value] | None = None,
    ) -> None:
        if isinstance(message, Sentence):
            key, values = key or message.key, values or message.values
            message = str(message)
        super().__init__(message)
        self.key = key
        self.values: dict[str, Value] = dict(values or {})

    @property
    def sentence(self) -> str:
        """The message, as a :class:`Sentence` where the error has a key (to raise it again
        as another error, or return it as a refusal, with its key)."""
        return Sentence(str(self), self.key, self.values) if self.key else str(self)


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


class ServerError(ParlourError):
    """The server could not do what was asked, through no fault of the request: its database
    failed to store or read (a full or read-only disk, a lost connection). Nothing was applied;
    the same request may succeed later."""

    code: ClassVar[str] = "server_error"


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
        ServerError,
    )
)
"""Every stable error code, as a protocol may list them."""
