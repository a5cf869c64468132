"""The rooms' wire protocol: reading frames from clients safely, and the small security parts
(tokens, rate limits; names are checked by :mod:`parlour.server.names`, origins by
:mod:`parlour.server.trust`).

Inbound frames are JSON text of at most :data:`MAX_FRAME` bytes; anything else is refused with
a reject code and, where the socket cannot go on, a close code:

============  ======================================================================
close code    meaning
============  ======================================================================
1003          a binary frame (the protocol is JSON text)
1007          text that is not UTF-8 (closed by the websocket layer itself)
1008          the first frame was not a hello, or too many refused frames in a row
1009          a frame over 4 KiB
1011          ``server_error``: the server failed (its database, or a bug; the log says
              which); reconnecting may work
4401          the hello's token is not a seat's token in this room
4403          the page's Origin is none the host trusts (:mod:`parlour.server.trust`)
4404          no such room
4410          ``room_broken``: the room's stored events cannot be rebuilt by this server
              (:mod:`parlour.server.integrity`); reconnecting will not help
4408          no hello within the time allowed
4429          too many sockets: from this client address, or in this room (the host's
              ``--max-sockets-per-client`` and ``--max-sockets-per-room``); later may work
============  ======================================================================
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Iterable, Mapping
from typing import Any

from parlour.errors import ParlourError

__all__ = [
    "CLOSE",
    "MAX_FRAME",
    "REJECT_CODES",
    "Bucket",
    "Refused",
    "hash_token",
    "new_token",
    "parse_frame",
    "token_matches",
]

MAX_FRAME = 4096
"""The largest inbound frame, in bytes of UTF-8."""

REJECT_CODES = (
    "stale",
    "not_your_turn",
    "illegal",
    "bad_notation",
    "game_over",
    "unauthorized",
    "bad_message",
    "too_large",
    "rate_limited",
    "server_error",
)

CLOSE = {
    "binary": 1003,
    "policy": 1008,
    "too_large": 1009,
    "server_error": 1011,
    "unauthorized": 4401,
    "origin": 4403,
    "no_room": 4404,
    "room_broken": 4410,
    "timeout": 4408,
    "too_many": 4429,
}


class Refused(Exception):
    """A frame or request the server refuses: ``code`` is the protocol's reject code; ``key``
    and ``values`` name the sentence of the game's catalog that says ``message`` in the
    page's language (a refusal of the rules, ``refusal.*``), or ``None`` and ``{}``."""

    def __init__(
        self,
        code: str,
        message: str,
        key: str | None = None,
        values: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.key = key
        self.values = dict(values or {})

    @classmethod
    def of(cls, code: str, error: ParlourError) -> Refused:
        """The rules' ``error`` as a reject with ``code``, its catalog key kept."""
        return cls(code, str(error), error.key, error.values)

    def frame(self, cid: str | None, v: int) -> dict[str, Any]:
        """The reject frame: ``key`` and ``values`` only where the refusal has a key."""
        frame: dict[str, Any] = {
            "type": "reject",
            "id": cid,
            "code": self.code,
            "message": self.message,
            "v": v,
        }
        if self.key is not None:
            frame["key"] = self.key
            frame["values"] = self.values
        return frame


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_frame(text: str) -> dict[str, Any]:
    """A client's text frame as a JSON object with a string ``type``.

    Raises:
        Refused: ``too_large`` over :data:`MAX_FRAME` bytes; ``bad_message`` for anything
            that is not such an object (bad JSON, NaN or Infinity, nesting too deep for the
            parser, integers too long to read).
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FRAME:
        raise Refused("too_large", f"a frame is at most {MAX_FRAME} bytes, got {size}")
    try:
        obj = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError) as err:
        reason = "nested too deeply" if isinstance(err, RecursionError) else "not JSON"
        raise Refused("bad_message", f"the frame is {reason}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise Refused("bad_message", 'a frame is a JSON object with a "type"')
    if _SURROGATE.search(text) and _has_surrogate(obj):
        # A lone \ud800-\udfff escape is no text: echoed in an answer (the id) or stored, it
        # cannot be encoded again, and the socket's writer would fall silent.
        raise Refused("bad_message", "the frame holds a lone surrogate escape, which is not text")
    return obj


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_surrogate(value: object) -> bool:
    """Whether a parsed frame holds a string that is not Unicode text (a lone surrogate); a
    frame is at most 4 KiB, so the walk is short."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def client_id(obj: dict[str, Any]) -> str | None:
    """The frame's ``id`` as text (a string of at most 64 characters, or a whole number),
    ``None`` when absent.

    Raises:
        Refused: ``bad_message`` for any other id.
    """
    value = obj.get("id")
    if value is None:
        return None
    if isinstance(value, str) and 0 < len(value) <= 64:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        return str(value)
    raise Refused("bad_message", 'field "id" must be a string of 1-64 characters or a number')


def whole(obj: dict[str, Any], name: str) -> int:
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise Refused("bad_message", f'field "{name}" must be a whole number, got {value!r}'[:200])
    return value


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def token_matches(token: str, hashes: Iterable[bytes | None]) -> int | None:
    """The index of the hash that ``token`` has, comparing every one in constant time."""
    digest = hash_token(token)
    found = None
    for index, known in enumerate(hashes):
        if known is not None and hmac.compare_digest(digest, known) and found is None:
            found = index
    return found


class Bucket:
    """A token bucket: ``burst`` frames at once, then ``rate`` frames a second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
