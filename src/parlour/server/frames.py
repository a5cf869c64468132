"""The frames a room's sockets are sent (the protocol: docs/hosts.md, "The websocket"): each
socket's own welcome and updates, made once for every socket of one seat that has been sent
the same log, and the ``seats`` frame that says who is connected, sent only when that changes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from parlour.server.room import Room

if TYPE_CHECKING:
    from parlour.server.hub import Conn, Hub

__all__ = ["broadcast", "dumps", "frame", "presence", "public", "seats"]


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def seats(hub: Hub, room: Room) -> list[dict[str, Any]]:
    present = {c.seat for c in hub.conns.get(room.id, ())}
    out = []
    for s in room.row.seats:
        entry: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name}
        if s.kind == "person":
            entry["connected"] = s.seat in present
            # Away longer than the takeover time: a bot plays for him (the table says so).
            entry["stand_in"] = s.seat not in present and hub.stands_in(room, s.seat)
        out.append(entry)
    return out


def public(hub: Hub, room: Room) -> dict[str, Any]:
    """The part of a frame that is the same for every socket of the room."""
    state, deal = room.state, room.deal
    outcome = state.outcome
    return {
        "room": room.id,
        "game": room.game.name,
        "v": room.v,
        "deal": deal.number,
        "commitment": deal.commitment,
        "to_move": state.to_move,
        "seats": seats(hub, room),
        "proposals": [p.to_json() for p in room.proposals.values()],
        "decided": [d.to_json() for d in room.decided],
        "rematch": sorted(room.rematch),
        "match": room.match(),
        "over": room.over,
        "abandoned": room.abandoned,
        "outcome": None if outcome is None else outcome.to_json(),
        "clock": hub.clocks.frame(room),
    }


def frame(
    hub: Hub, room: Room, conn: Conn, kind: str, shared: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What ``conn``'s seat may see now: its view, its legal moves when it is to move, the
    log entries it has not been sent (all of them in a welcome or a new deal), and the
    room's public part (``shared``: :func:`public`, made here unless given)."""
    state, deal, seat = room.state, room.deal, conn.seat
    since = conn.sent if (kind == "update" and conn.deal == deal.number) else 0
    entries = state.log(seat, since)
    conn.deal, conn.sent = deal.number, state.log_length()
    moving = seat is not None and state.to_move == seat and not room.abandoned
    legal = [str(a) for a in state.legal_actions()] if moving else []
    return {
        "type": kind,
        "seat": seat,
        "view": state.view(seat).to_json(),
        "legal": legal,
        "log": [e.to_json() for e in entries],
        **(shared if shared is not None else public(hub, room)),
    }


def broadcast(hub: Hub, room: Room) -> None:
    """Send each socket its update; sockets of one seat that have been sent the same
    log share one frame (spectators, a person with two tabs)."""
    conns = list(hub.conns.get(room.id, ()))
    if not conns:
        return
    made: dict[tuple[int | None, int, int], str] = {}
    shared = public(hub, room)
    for conn in conns:
        key = (conn.seat, conn.deal, conn.sent)
        text = made.get(key)
        if text is None:
            text = made[key] = dumps(frame(hub, room, conn, "update", shared))
        else:
            conn.deal, conn.sent = room.deal.number, room.state.log_length()
        conn.send(text)


def presence(hub: Hub, room: Room, joined: Conn | None = None) -> None:
    """Tell every socket of the room who is connected (but ``joined``, whose welcome said it):
    sent when a person's seat becomes connected or away, never for a spectator or a seat's
    second tab (which change nothing a frame shows), so a room's sockets cost one frame each
    per change."""
    text = dumps({"type": "seats", "v": room.v, "seats": seats(hub, room)})
    for conn in list(hub.conns.get(room.id, ())):
        if conn is not joined:
            conn.send(text)
