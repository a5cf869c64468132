"""The server's log: one JSON object a line on stderr, for a host's log collector.

Every line has ``time`` (UTC, ISO 8601), ``level`` (``debug``, ``info``, ``warning``, ``error``),
``logger`` and ``event``. Room events come from :func:`event` with their own fields (the room,
the seat, an event's kind and version, a reject's code); every other record is ``event``
``log`` (``warning``, ``error`` by its level) with its ``message``, and an error's exception as
``error`` (its type and message) and ``trace`` (the traceback, in the same line). uvicorn's
access log is ``event`` ``http`` with ``client``, ``method``, ``path`` and ``status``.

Nothing secret is logged: no seat's token or its hash, no deal's seed, no event's data (which
holds the seed). :func:`event` drops such fields if a caller ever passed one.
"""

from __future__ import annotations

import json
import logging
import sys
import time
import traceback
from typing import Any

__all__ = ["JsonFormatter", "event", "setup_logging"]

log = logging.getLogger("parlour.server")

SECRET_FIELDS = frozenset({"token", "token_hash", "seed", "data", "seeds", "tokens"})
"""Fields never written, whoever passes them."""

_FIELDS = "parlour_fields"


def event(name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log room event ``name`` (``room.created``, ``room.event``, ``socket.joined`` ...) as one
    JSON line with ``fields``."""
    if log.isEnabledFor(level):
        kept = {k: v for k, v in fields.items() if k not in SECRET_FIELDS}
        log.log(level, name, extra={_FIELDS: kept})


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": _iso(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = getattr(record, _FIELDS, None)
        args = record.args
        if isinstance(fields, dict):
            out["event"] = record.msg
            out.update(fields)
        elif record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, _, status = args
            out.update(event="http", client=client, method=method, path=path, status=status)
        else:
            out["event"] = "log"
            out["message"] = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            out["error"] = f"{type(err).__name__}: {err}"
            out["trace"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str, separators=(",", ":"))


def _iso(at: float) -> str:
    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(at))
    return f"{whole}.{int(at % 1 * 1000):03d}Z"


def setup_logging(level: str) -> None:
    """Send every log record of this process (Parlour's, uvicorn's, the libraries') to stderr
    as JSON lines, from ``level`` (``debug``, ``info``, ``warning``, ``error``) up. For
    ``parlour serve``, whose uvicorn is then started without a logging configuration of its
    own."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler.formatter, JsonFormatter):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("parlour").setLevel(level.upper())
