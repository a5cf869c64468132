"""Bounds on what a request may make the server hold (issue 27, point 1).

A request body is read chunk by chunk as it arrives and refused as soon as it passes the limit:
a body declared longer than the limit (``Content-Length``) is refused before a byte of it is
read, and a chunked one once the bytes received pass it. The refusal (413) asks the client's
connection to be closed (``Connection: close``), so the server reads nothing more of a body it
refused: memory stays bounded by the limit, whatever the client goes on sending.
"""

from __future__ import annotations

from starlette.requests import Request

__all__ = ["CLOSE", "BodyTooLarge", "read_body"]

CLOSE = {"Connection": "close"}
"""The header of an answer after which the connection is closed, the rest of the body unread."""


class BodyTooLarge(Exception):
    """A request body longer than the limit; ``declared``: said by its ``Content-Length``."""

    def __init__(self, limit: int, declared: bool) -> None:
        super().__init__(f"a request body is at most {limit} bytes")
        self.limit, self.declared = limit, declared


async def read_body(request: Request, limit: int) -> bytes:
    """The body of ``request``, at most ``limit`` bytes; :class:`BodyTooLarge` as soon as the
    declared length or the bytes received pass it (nothing more is read)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        text = declared.strip()  # digits: the HTTP server refused any other length
        if text.isascii() and text.isdigit() and (len(text) > 20 or int(text) > limit):
            raise BodyTooLarge(limit, declared=True)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLarge(limit, declared=False)
    return bytes(body)
