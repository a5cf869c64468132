"""``GET /api/rooms/ROOM/replay?deal=K&seat=S``: a finished deal, step by step, as one seat saw it.

The answer holds one entry a step (the deal, then each action and each table entry, in the order
they were made), each with what the live table sent that seat at that moment: the seat's view, its
legal moves when it was to move, the log entry of that step as the seat may read it, the seat to
move, and the outcome once over (the same calls :meth:`parlour.server.hub.Hub.frame` makes, on the
states :func:`parlour.core.record.replay` rebuilds from the deal's record). ``seat`` counts from 0
as the frames do; without it, the spectator's view; ``seat=all`` (every card shown) gives the
spectator's view with each step's whole position (``State.to_json``: at the first step all of
it, then only the keys the step changed) and the log entry as the player who made the step saw
it. The last state's whole position closes every answer (``full``).

Only a finished deal is replayed: a running one is refused (409) whatever the seat, so no card
still hidden at a table can be read here. A finished deal never changes, so answers are kept
(a few, newest last) and sent with ``Cache-Control: no-store`` all the same: a page asks again.

``GET /api/rooms/ROOM/final?deal=K`` (:func:`final`) gives only a finished deal's last whole
position (``full``, as the replay's), read from the room's last state of that deal without
replaying anything: what the end of a deal shows every hand from. A running deal is refused (409)
as the replay is.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from parlour.core.game import State
from parlour.core.inputs import parse_int
from parlour.core.record import replay as replay_record
from parlour.errors import ParlourError
from parlour.server.hub import Hub
from parlour.server.room import Room

__all__ = ["ALL", "final", "replay", "replay_steps"]

ALL = "all"
"""The ``seat`` that asks for every card (a finished deal's every hand at every step)."""

_KEPT = 16
_kept: OrderedDict[tuple[str, int, int | str | None], bytes] = OrderedDict()

_HEADERS = {"Cache-Control": "no-store"}
_JSON = "application/json"


def _error(status: int, code: str, message: str) -> Response:
    body = json.dumps({"error": {"code": code, "message": message}})
    return Response(body, status_code=status, media_type=_JSON, headers=_HEADERS)


def _seat(text: str | None, players: int) -> int | str | None:
    if text is None or text == "":
        return None
    if text == ALL:
        return ALL
    return parse_int(text, field="seat", minimum=0, maximum=players - 1)


def step_frame(state: State, seat: int | str | None) -> dict[str, Any]:
    """What the live table sent ``seat`` once ``state`` was reached, and that step's log entry
    (for ``seat=all``: the spectator's view, the whole position, the mover's own log entry)."""
    step = state.step
    viewer = None if seat == ALL or seat is None else int(seat)
    reader = viewer
    if seat == ALL and step is not None:
        reader = step.seat
    entry = state.log(reader, state.log_length() - 1)
    outcome = state.outcome
    frame: dict[str, Any] = {
        "kind": "deal" if step is None else step.kind,
        "by": None if step is None else step.seat,
        "text": None if step is None else step.text,
        "view": state.view(viewer).to_json(),
        "legal": (
            [str(a) for a in state.legal_actions()]
            if viewer is not None and state.to_move == viewer
            else []
        ),
        "log": [e.to_json() for e in entry],
        "to_move": state.to_move,
        "over": state.is_over,
        "outcome": None if outcome is None else outcome.to_json(),
    }
    if seat == ALL:
        frame["full"] = state.to_json()
    return frame


def replay_steps(room: Room, number: int, seat: int | str | None) -> dict[str, Any]:
    """The replay of finished deal ``number`` for ``seat`` (see the module's text)."""
    states = replay_record(room.record(number), room.game)
    steps = []
    played = 0
    before: dict[str, Any] = {}
    for index, state in enumerate(states):
        frame = step_frame(state, seat)
        if frame["kind"] == "action":
            played += 1
        if "full" in frame:  # only the parts of the position this step changed
            whole = frame["full"]
            frame["full"] = {k: v for k, v in whole.items() if k not in before or before[k] != v}
            before = whole
        steps.append({"step": index, "actions": played, **frame})
    outcome = states[-1].outcome
    deal = room.deals[number]
    return {
        "room": room.id,
        "game": room.game.name,
        "title": room.game.title,
        "players": room.row.players,
        "deal": number,
        "seat": seat,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in room.row.seats],
        "commitment": deal.commitment,
        "outcome": None if outcome is None else outcome.to_json(),
        "steps": steps,
        "full": states[-1].to_json(),
    }


async def _deal(hub: Hub, request: Request, not_over: str) -> tuple[Room, int] | Response:
    """The room and the finished deal a request names (``deal``, default: the room's latest),
    or the error answer: no such room (404), a bad deal (400), a deal not over yet (409,
    ``not_over`` its message)."""
    room = await hub.room(request.path_params["room"])
    if room is None:
        return _error(404, "not_found", "no such room")
    latest = room.deal.number
    try:
        text = request.query_params.get("deal", str(latest))
        number = parse_int(text, field="deal", minimum=0, maximum=latest)
    except ParlourError:
        return _error(400, "bad_request", f"deal is a number from 0 to {latest}")
    if not room.deals[number].state.is_over:
        return _error(409, "not_over", not_over)
    return room, number


async def final(hub: Hub, request: Request) -> Response:
    """``GET /api/rooms/ROOM/final?deal=K``: finished deal K's last whole position, every card
    shown (``full``), and its outcome; a running deal is refused."""
    found = await _deal(hub, request, "a deal's last position is shown once it is over")
    if isinstance(found, Response):
        return found
    room, number = found
    state = room.deals[number].state
    outcome = state.outcome
    made = {
        "room": room.id,
        "game": room.game.name,
        "deal": number,
        "outcome": None if outcome is None else outcome.to_json(),
        "full": state.to_json(),
    }
    body = json.dumps(made, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(body, media_type=_JSON, headers=_HEADERS)


async def replay(hub: Hub, request: Request) -> Response:
    """The route's handler: ``deal`` (default: the room's latest deal) and ``seat``."""
    found = await _deal(hub, request, "a deal is replayed once it is over")
    if isinstance(found, Response):
        return found
    room, number = found
    try:
        seat = _seat(request.query_params.get("seat"), room.row.players)
    except ParlourError:
        last = room.row.players - 1
        return _error(400, "bad_request", f"seat is a number from 0 to {last}, or {ALL}")
    key = (room.id, number, seat)
    body = _kept.get(key)
    if body is None:
        made = replay_steps(room, number, seat)
        body = json.dumps(made, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        _kept[key] = body
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return Response(body, media_type=_JSON, headers=_HEADERS)
