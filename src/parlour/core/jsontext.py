"""JSON from outside (record files, saved searches, lab run files, views and states handed to
the library) read within limits: :func:`parse_json` for text, :func:`check_json` for a value
already parsed. ``json.loads`` recurses (a RecursionError at about 1,000 nested brackets), turns
``1e999`` into infinity and converts whole numbers of any length: every limit here is checked
before, and without, those conversions. Errors are one line naming the field
(:class:`~parlour.errors.InvalidInput` by default)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping

from parlour.core.inputs import MAX_INT_DIGITS, check_int, quote
from parlour.errors import InvalidInput, ParlourError

__all__ = ["MAX_JSON_BYTES", "MAX_JSON_DEPTH", "check_json", "json_depth", "parse_json"]

MAX_JSON_BYTES = 64 * 1024 * 1024
"""The largest JSON text read by default (a long record is a few megabytes)."""

MAX_JSON_DEPTH = 64
"""The deepest nesting of JSON arrays and objects accepted by default (records nest about 6)."""

_NOT_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\]{}"]+', re.DOTALL)


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text``, counted without recursion
    (brackets inside strings do not count; an unterminated string ends the count)."""
    deepest = depth = 0
    for char in _NOT_BRACKETS.sub("", text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
        else:  # an unterminated string's quote: the rest is one string to the parser
            break
    return deepest


def parse_json(
    text: str | bytes,
    *,
    field: str = "the JSON",
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
    max_digits: int = MAX_INT_DIGITS,
    error: type[ParlourError] = InvalidInput,
) -> object:
    """JSON text as Python values, within limits: at most ``max_bytes`` long, arrays and objects
    nested at most ``max_depth`` deep (checked before parsing, so no RecursionError), whole
    numbers of at most ``max_digits`` digits, finite numbers only (``NaN``, ``Infinity`` and
    ``1e999`` are refused), text that is UTF-8.

    Raises:
        ``error`` (InvalidInput by default): one line naming ``field`` and, for a syntax error,
        the line and column.
    """
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise error(f"{field} is larger than {max_bytes} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise error(f"{field} is not UTF-8 text (byte {err.start})") from None
    if not isinstance(text, str):
        raise error(f"{field} must be text, got {quote(text)}")
    if len(text) > max_bytes:
        raise error(f"{field} is larger than {max_bytes} bytes")
    depth = json_depth(text)
    if depth > max_depth:
        raise error(f"{field} nests arrays and objects {depth} deep; at most {max_depth} is read")

    def number_int(digits: str) -> int:
        if len(digits.lstrip("-").lstrip("0")) > max_digits:
            raise _Refused(f"a whole number of {len(digits)} digits (at most {max_digits})")
        return int(digits)

    def number_float(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise _Refused(f"a number too large to hold: {quote(digits)}")
        return value

    def constant(name: str) -> object:
        raise _Refused(f"{name}, which JSON does not allow")

    try:
        return json.loads(
            text, parse_int=number_int, parse_float=number_float, parse_constant=constant
        )
    except _Refused as err:
        raise error(f"{field} holds {err}") from None
    except json.JSONDecodeError as err:
        raise error(
            f"{field} is not JSON: {err.msg} at line {err.lineno} column {err.colno}"
        ) from None
    except (RecursionError, ValueError) as err:  # a last guard: the depth check comes first
        raise error(f"{field} is not JSON that Parlour can read: {quote(str(err))}") from None


class _Refused(Exception):
    """A value refused while parsing JSON (not a ValueError, which json would re-wrap)."""


def check_json(
    value: object,
    *,
    field: str = "the value",
    max_depth: int = MAX_JSON_DEPTH,
    max_items: int = 1_000_000,
    max_digits: int = MAX_INT_DIGITS,
    error: type[ParlourError] = InvalidInput,
) -> object:
    """Check that a value handed to the library's API is plain JSON data within the limits of
    :func:`parse_json`: dicts with text keys, lists, text, finite numbers, bools and None, nested
    at most ``max_depth`` deep and holding at most ``max_items`` values in all (walked without
    recursion, so a self-containing list is refused, not looped over). Returns ``value``.

    Raises:
        ``error`` (InvalidInput by default): naming ``field`` and what is wrong.
    """
    stack: list[tuple[object, int]] = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > max_items:
            raise error(f"{field} holds more than {max_items} values")
        if depth > max_depth:
            raise error(f"{field} nests arrays and objects more than {max_depth} deep")
        if item is None or isinstance(item, bool | str):
            continue
        if isinstance(item, int):
            check_int(item, field=field, max_digits=max_digits, error=error)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise error(f"{field} holds {quote(item)}, which JSON does not allow")
        elif isinstance(item, Mapping):
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise error(f"{field} has a key that is not text: {quote(key)}")
                stack.append((sub, depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((sub, depth + 1) for sub in item)
        else:
            raise error(f"{field} holds {quote(item)}, which is not JSON data")
    return value
