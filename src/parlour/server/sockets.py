"""The websocket ``/ws/ROOM``: a hello proves a seat (or none: a spectator), then the socket
acts, votes and asks for rematches for that seat only; every socket is sent its own frames
through a queue of its own, so a slow reader never holds up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.server.frames import dumps
from parlour.server.hub import Conn, Hub, reject
from parlour.server.integrity import RoomBroken, failed, storage_error, unapplied
from parlour.server.protocol import (
    CLOSE,
    Bucket,
    Refused,
    client_id,
    parse_frame,
    token_matches,
    whole,
)
from parlour.server.room import Room

if TYPE_CHECKING:
    from parlour.server.metrics import Metrics

__all__ = ["serve_socket"]

_QUEUE = 256
"""Frames a socket may have waiting before the server gives up on it (it can resync)."""

_STRIKES = 50
"""Refused frames in a row after which the socket is closed (1008)."""


TOO_MANY_HERE = "too many sockets from this address"
TOO_MANY_IN_ROOM = "too many sockets in this room"
"""The reasons of a socket closed with 4429 (:mod:`parlour.server.memory`)."""


async def serve_socket(hub: Hub, ws: WebSocket, metrics: Metrics) -> None:
    # The page's origin was checked before (parlour.server.trust: 4403 otherwise), and the
    # client's address is the one parlour.server.trust made of the peer and its proxies.
    address = ws.client.host if ws.client else "unknown"
    await ws.accept()
    queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(_QUEUE + 1)

    def send(item: str | tuple[int, str]) -> None:
        if queue.full():
            return
        queue.put_nowait(item if queue.qsize() < _QUEUE else (CLOSE["policy"], "too slow"))

    writer = asyncio.create_task(_write(ws, queue))
    counted = hub.memory.open_socket(address)
    room: Room | None = None
    conn: Conn | None = None
    try:
        if not counted:  # before anything is read from it or loaded for it
            send((CLOSE["too_many"], TOO_MANY_HERE))
            return
        hello = await _hello(hub, ws, send, metrics)
        if hello is None:
            return
        room, seat = hello
        settings = hub.settings
        conn = Conn(room.id, seat, send, Bucket(settings.rate, settings.burst))
        joined = await _join(hub, room, conn, send)
        if joined is None:
            conn = None  # never in the room
            return
        room = joined
        metrics.joined(room, conn)
        strikes = 0
        while True:
            text = await _receive(ws, send, room)
            if text is None:
                return
            answer = await _answer(hub, room, conn, text, metrics)
            if answer is not None:
                send(dumps(answer))
                metrics.answered(room, conn.seat, answer)
                strikes = strikes + 1 if answer["type"] == "reject" else 0
                if answer.get("code") == "too_large":
                    send((CLOSE["too_large"], "frame too large"))
                    return
                if strikes >= _STRIKES:
                    send((CLOSE["policy"], "too many refused frames"))
                    return
    except WebSocketDisconnect:
        pass
    except Exception as err:  # the server failed: said with a code and a reason, never 1000
        failed(room.id if room is not None else ws.path_params.get("room", ""), err)
        send((CLOSE["server_error"], "server_error"))
    finally:
        if counted:
            hub.memory.close_socket(address)
        if room is not None and conn is not None:
            hub.leave(room, conn)
            metrics.left(room, conn)
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait((1000, ""))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)
        writer.cancel()


async def _join(hub: Hub, room: Room, conn: Conn, send: Any) -> Room | None:
    """Join the room (its welcome sent), or close the socket: 4429 when the room is full; a
    room that left memory while the socket said its hello is loaded again first."""
    while True:
        why = await hub.join(room, conn)
        if why is None:
            return room
        if why == "full":
            send((CLOSE["too_many"], TOO_MANY_IN_ROOM))
            return None
        try:
            again = await hub.room(room.id)
        except RoomBroken:
            send((CLOSE["room_broken"], "room_broken"))
            return None
        if again is None:  # removed meanwhile (parlour.server.retention)
            send((CLOSE["no_room"], "no such room"))
            return None
        room = again


async def _write(ws: WebSocket, queue: asyncio.Queue[str | tuple[int, str]]) -> None:
    while True:
        item = await queue.get()
        try:
            if isinstance(item, tuple):
                await ws.close(item[0], item[1])
                return
            await ws.send_text(item)
        except Exception:  # the peer has gone; the reader will see it
            return


async def _receive(ws: WebSocket, send: Any, room: Room) -> str | None:
    """The next text frame, or None once the socket is closed (binary frames close it)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        send(dumps(reject(None, "bad_message", "frames are JSON text, not binary", room.v)))
        send((CLOSE["binary"], "binary frames are not part of the protocol"))
        return None
    return str(text)


async def _hello(
    hub: Hub, ws: WebSocket, send: Any, metrics: Metrics
) -> tuple[Room, int | None] | None:
    room_id = ws.path_params.get("room", "")
    try:
        room = await hub.room(room_id)
    except RoomBroken:  # logged once by the hub (parlour.server.integrity)
        send((CLOSE["room_broken"], "room_broken"))
        return None
    if room is None:
        send((CLOSE["no_room"], "no such room"))
        return None
    try:
        text = await asyncio.wait_for(_receive(ws, send, room), hub.settings.hello_timeout)
    except TimeoutError:
        send((CLOSE["timeout"], "no hello"))
        return None
    if text is None:
        return None
    try:
        obj = parse_frame(text)
        if obj["type"] != "hello":
            raise Refused("bad_message", 'the first frame is {"type": "hello", "token": ...}')
        token = obj.get("token")
        if token is not None and not isinstance(token, str):
            raise Refused("bad_message", 'field "token" is a seat\'s token or null')
    except Refused as err:
        refused = err.frame(None, room.v)
        send(dumps(refused))
        metrics.answered(room, None, refused)
        send((CLOSE["too_large"] if err.code == "too_large" else CLOSE["policy"], err.code))
        return None
    if token is None:
        return room, None
    seat = token_matches(token, (s.token_hash for s in room.row.seats))
    if seat is None:
        answer = reject(None, "unauthorized", "this token is no seat's in this room", room.v)
        send(dumps(answer))
        metrics.answered(room, None, answer)
        send((CLOSE["unauthorized"], "unauthorized"))
        return None
    return room, seat


async def _answer(
    hub: Hub, room: Room, conn: Conn, text: str, metrics: Metrics
) -> dict[str, Any] | None:
    cid: str | None = None
    began = time.perf_counter()
    try:
        obj = parse_frame(text)
        cid = client_id(obj)
        if not conn.bucket.take():
            raise Refused("rate_limited", "too many frames: wait a moment")
        kind = obj["type"]
        if kind not in ("act", "vote", "rematch"):
            raise Refused("bad_message", f"unknown frame type {kind[:40]!r}")
        if conn.seat is None:
            raise Refused("unauthorized", "a spectator cannot act: join with a seat's link")
        seat = conn.seat
        if kind == "act":
            v = whole(obj, "v")
            action = obj.get("action")
            if not isinstance(action, str) or not 0 < len(action) <= 200:
                raise Refused("bad_message", 'field "action" is a move in the game\'s notation')
            acted = await hub.request(
                conn, room, cid, lambda: room.prepare_act(seat, v, action, cid)
            )
            metrics.acted(acted, began)
            return acted
        if kind == "vote":
            proposal, yes = obj.get("proposal"), obj.get("yes")
            return await hub.request(
                conn, room, cid, lambda: room.prepare_vote(seat, proposal, yes, cid)
            )
        answer = await hub.request(conn, room, cid, lambda: room.prepare_rematch(seat, cid))
        return answer if cid is not None or answer["type"] == "reject" else None
    except Refused as err:
        return err.frame(cid, room.v)
    except Exception as err:
        if storage_error(err):  # nothing was applied: an event is stored before it is applied
            failed(room.id, err)
            return reject(cid, "server_error", "nothing changed; try again in a moment", room.v)
        await unapplied(hub, room)  # the room is reloaded if it missed a stored event
        raise  # the socket is closed with 1011 (serve_socket)
