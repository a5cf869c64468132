"""One parser per kind of value that enters Parlour from outside: the command line, files,
records, the table prompt and the library's public API.

Each parser takes text (or a JSON value) and either returns the value in its kind or raises a
:class:`~parlour.errors.ParlourError` (by default :class:`~parlour.errors.InvalidInput`, code
``bad_input``) whose message is one line naming the field and quoting the input, shortened.
Nothing here trusts Python's own conversions for hostile text: ``str.isdigit`` accepts ``²``,
``int()`` refuses more than 4,300 digits with a ValueError, ``float()`` accepts ``inf`` and
``nan``, and ``json.loads`` recurses (a RecursionError at about 1,000 nested brackets) and turns
``1e999`` into infinity. Every check here is made before, and without, those conversions.

Parsers:

- :func:`parse_int` / :func:`check_int`: whole numbers in ASCII digits with a digit limit and
  bounds (text / a JSON value).
- :func:`parse_duration`: a finite positive (or non-negative) number of seconds or minutes.
- :func:`parse_player_count`: a number of players within a game's range.
- :func:`parse_seat`: a player number from 1 (as people read it) to a seat counted from 0.
- :func:`parse_option_pair`: ``NAME=VALUE`` from the command line.
- :func:`parse_path`: a file name (never empty, never a NUL; ``~`` expanded).

JSON text and values from outside are read by :mod:`parlour.core.jsontext` with the same limits.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from parlour.errors import InvalidInput, ParlourError

__all__ = [
    "MAX_DURATION_S",
    "MAX_INT_DIGITS",
    "MAX_NAME_BYTES",
    "MAX_PATH_BYTES",
    "check_int",
    "parse_duration",
    "parse_int",
    "parse_option_pair",
    "parse_path",
    "parse_player_count",
    "parse_seat",
    "quote",
]

MAX_INT_DIGITS = 24
"""Digits a whole number may have by default (a seed is at most 19); far below the 4,300 at
which ``int()`` refuses, so a long number is refused here by name, before any conversion."""

MAX_DURATION_S = 366 * 24 * 3600.0
"""The longest duration accepted by default: a year, in seconds."""

MAX_NAME_BYTES = 255
"""The longest name of one file or folder most file systems take (NAME_MAX)."""

MAX_PATH_BYTES = 4095
"""The longest path the system takes (PATH_MAX, less its NUL)."""

_QUOTE_LIMIT = 60
_ASCII_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def quote(value: object, limit: int = _QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, at most ``limit`` characters and always one line
    (``repr`` escapes newlines and NULs; a long or huge value is cut with ``...``).

    A huge ``int`` is never converted to text (that fails past 4,300 digits): its digit count
    is given instead.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"<a number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    if isinstance(value, str | bytes) and len(value) > 4 * limit:
        value = value[: 4 * limit]
    elif isinstance(value, list | tuple | dict | set):
        text = _shallow_repr(value, limit)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shallow_repr(value: object, limit: int) -> str:
    """A repr of a container that never walks more than ``limit`` items or deep nesting."""
    if isinstance(value, dict):
        items = [f"{quote(k, limit)}: ..." for k in list(value)[:limit]]
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple | set):
        items = [
            "[...]" if isinstance(v, list | tuple | dict | set) else quote(v, limit)
            for v in list(value)[:limit]
        ]
        return "[" + ", ".join(items) + "]"
    return quote(value, limit)


def _where(field: str) -> str:
    return field if field else "the value"


# -- whole numbers --------------------------------------------------------------------------------


def parse_int(
    text: str,
    *,
    field: str,
    minimum: int | None = None,
    maximum: int | None = None,
    max_digits: int = MAX_INT_DIGITS,
    error: type[ParlourError] = InvalidInput,
) -> int:
    """A whole number written in ASCII digits (an optional leading ``-`` when ``minimum`` allows
    negatives; spaces around it are ignored), within ``minimum..maximum``.

    ``²``, ``٣``, ``1_000``, ``+1``, ``1.0`` and ``0x10`` are refused, and so is a number of more
    than ``max_digits`` digits, before ``int()`` is called. Leading zeros are read and dropped,
    however many (``0007`` is 7).

    Raises:
        ``error`` (InvalidInput by default): naming ``field`` and the accepted range.
    """
    if not isinstance(text, str):
        raise error(f"{_where(field)} must be a whole number, got {quote(text)}")
    body = text.strip()
    negative = body.startswith("-") and (minimum is None or minimum < 0)
    digits = body[1:] if negative else body
    if not _ASCII_DIGITS.fullmatch(digits):
        raise error(
            f"{_where(field)} must be a whole number{_range(minimum, maximum)}, got {quote(text)}"
        )
    # Leading zeros are no digits of the value (``000…0001`` is 1), and ``int()`` counts them
    # towards its 4,300: they are dropped before either check.
    significant = digits.lstrip("0") or "0"
    if len(significant) > max_digits:
        raise error(
            f"{_where(field)} must be a whole number{_range(minimum, maximum)}, "
            f"got one of {len(significant)} digits"
        )
    number = -int(significant) if negative else int(significant)
    return _bounded(number, field, minimum, maximum, error)


def check_int(
    value: object,
    *,
    field: str,
    minimum: int | None = None,
    maximum: int | None = None,
    max_digits: int = MAX_INT_DIGITS,
    error: type[ParlourError] = InvalidInput,
) -> int:
    """A whole number given as a JSON value or a Python ``int`` (never a bool, a float or text),
    within ``minimum..maximum`` and at most ``max_digits`` digits.

    Raises:
        ``error`` (InvalidInput by default): naming ``field``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(
            f"{_where(field)} must be a whole number{_range(minimum, maximum)}, got {quote(value)}"
        )
    # bit_length bounds the digits without converting to text: 10**d needs 3.33 d bits.
    if value.bit_length() > max_digits * 3.33 + 4:
        raise error(
            f"{_where(field)} must be a whole number{_range(minimum, maximum)}, got {quote(value)}"
        )
    return _bounded(value, field, minimum, maximum, error)


def _range(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum} to {maximum}"
    if minimum is not None:
        return f" of at least {minimum}"
    if maximum is not None:
        return f" of at most {maximum}"
    return ""


def _bounded(
    number: int, field: str, minimum: int | None, maximum: int | None, error: type[ParlourError]
) -> int:
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise error(
            f"{_where(field)} must be a whole number{_range(minimum, maximum)}, got {quote(number)}"
        )
    return number


def parse_player_count(
    text: str | int, *, minimum: int, maximum: int, field: str = "the number of players"
) -> int:
    """A number of players between the game's ``minimum`` and ``maximum`` (``0`` is refused,
    never taken for "the default").

    Raises:
        InvalidInput: naming the range, e.g. "the number of players must be a whole number from
        2 to 5, got '0'".
    """
    if isinstance(text, int):
        return check_int(text, field=field, minimum=minimum, maximum=maximum)
    return parse_int(text, field=field, minimum=minimum, maximum=maximum, max_digits=4)


def parse_seat(text: str, *, players: int, field: str = "the player") -> int:
    """A player as people number them, ``1``..``players`` (``P2`` and ``p2`` are also read),
    returned as a seat counted from 0.

    Raises:
        InvalidInput: e.g. "the player must be a whole number from 1 to 4, got '²'".
    """
    body = text.strip() if isinstance(text, str) else text
    if isinstance(body, str) and body[:1] in ("p", "P"):
        body = body[1:]
    number = parse_int(body, field=field, minimum=1, maximum=players, max_digits=4)
    return number - 1


# -- durations ------------------------------------------------------------------------------------


def parse_duration(
    text: str | float,
    *,
    field: str,
    allow_zero: bool = False,
    maximum: float = MAX_DURATION_S,
    unit: str = "seconds",
    error: type[ParlourError] = InvalidInput,
) -> float:
    """A finite duration (in ``unit``) written in ASCII decimal notation, like ``0.5`` or ``30``:
    positive, or non-negative when ``allow_zero``, and at most ``maximum``.

    ``inf``, ``nan``, ``1e999``, ``-1``, ``0x1p3`` and ``½`` are refused. A float given by
    the library's API is checked the same way.

    Raises:
        ``error`` (InvalidInput by default): naming ``field`` and the range.
    """
    floor = "0 or more" if allow_zero else "more than 0"
    message = f"{_where(field)} must be a number of {unit}, {floor} and at most {maximum:g}"
    if isinstance(text, bool):
        raise error(f"{message}, got {quote(text)}")
    if isinstance(text, int | float):
        value = float(text) if not isinstance(text, int) or text.bit_length() < 1000 else math.inf
    elif isinstance(text, str):
        body = text.strip()
        if len(body) > 40 or not _DECIMAL.fullmatch(body):
            raise error(f"{message}, got {quote(text)}")
        value = float(body)
    else:
        raise error(f"{message}, got {quote(text)}")
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero) or value > maximum:
        raise error(f"{message}, got {quote(text)}")
    return value


# -- options --------------------------------------------------------------------------------------


def parse_option_pair(text: str, *, error: type[ParlourError] = InvalidInput) -> tuple[str, str]:
    """``NAME=VALUE`` as the command line gives a game option: the name (``-`` read as ``_``)
    and the value's text, both stripped. The value's kind is checked by the game's option
    schema (:mod:`parlour.core.options`), whose whole numbers go through :func:`parse_int`.

    Raises:
        ``error``: for a missing ``=``, an empty or non-ASCII-identifier name, or a NUL.
    """
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or "\0" in text:
        raise error(f"options are written NAME=VALUE, got {quote(text)}")
    key = name.replace("-", "_")
    if not (key.isascii() and key.isidentifier()):
        raise error(f"an option's name is a word like max_turns, got {quote(name)}")
    return key, value.strip()


# -- paths ----------------------------------------------------------------------------------------


def parse_path(text: str | os.PathLike[str], *, field: str = "the file name") -> Path:
    """A file name from the user: never empty or blank, never holding a NUL (the system cannot
    open such a name), at most :data:`MAX_NAME_BYTES` bytes a folder or file name and
    :data:`MAX_PATH_BYTES` in all (longer ones fail in the system with "File name too long");
    ``~`` and ``~user`` at its start are expanded.

    Whether the file exists or can be written is for the reader or writer to say.

    Raises:
        InvalidInput: naming ``field``.
    """
    raw = os.fspath(text) if isinstance(text, os.PathLike) else text
    if not isinstance(raw, str):
        raise InvalidInput(f"{_where(field)} must be text, got {quote(raw)}")
    if not raw.strip():
        raise InvalidInput(f"{_where(field)} is empty")
    if "\0" in raw:
        raise InvalidInput(f"{_where(field)} holds a NUL character: {quote(raw)}")
    try:
        encoded = os.fsencode(raw)
    except UnicodeError:
        raise InvalidInput(f"{_where(field)} cannot be a file name here: {quote(raw)}") from None
    if len(encoded) > MAX_PATH_BYTES or any(
        len(part) > MAX_NAME_BYTES for part in encoded.split(b"/")
    ):
        raise InvalidInput(
            f"{_where(field)} is too long for a file name (at most {MAX_NAME_BYTES} bytes a "
            f"name and {MAX_PATH_BYTES} in all): {quote(raw)}"
        )
    try:
        return Path(raw).expanduser()
    except RuntimeError:  # ~nobody: no such user's home folder
        raise InvalidInput(f"{_where(field)} names an unknown home folder: {quote(raw)}") from None
