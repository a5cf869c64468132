"""What a server process counts and times, served at ``GET /metrics`` (Prometheus' text format,
with ``prometheus_client``), and the room events it logs (:mod:`parlour.server.logs`).

Each app has its own registry, so several servers in one process (tests) count apart. The
store's ``append`` and ``create_room`` and the bot pool's ``decide`` are wrapped here (the
:class:`Metrics` of an app sees every stored event, whoever made it: a person, a bot, another
server's notification is not counted); the sockets report their answers
(:mod:`parlour.server.sockets`). The names (``parlour_`` first; counters end in ``_total``):

- ``parlour_rooms{state="running"|"over"}``: rooms held in memory, their current game running
  or over.
- ``parlour_sockets{role="seat"|"spectator"}``: open sockets that have said hello.
- ``parlour_room_entries{map}``: entries of the server's per-room maps: ``rooms`` (held in
  memory), ``locks`` (in use), ``conns`` (rooms with sockets), ``away`` (seats gone away),
  ``tasks`` (bot moves and takeovers waiting), ``committing`` (bot moves being stored),
  ``broken`` (rooms found broken), ``timers`` and ``following`` (running clocks, clocks being
  started or stopped), ``reviews`` (reviews waiting in memory, at most
  :data:`~parlour.server.reviews.BACKLOG`), ``evicting`` (rooms nobody is connected to, about
  to leave memory) and ``addresses`` (client addresses with sockets open): with
  nobody connected and nothing running, none but ``broken`` once the rooms have left memory
  (:mod:`parlour.server.memory`), whatever room ids were asked for.
- ``parlour_rooms_created_total``, ``parlour_games_finished_total``.
- ``parlour_room_events_total{kind}``: events stored (``deal``, ``action``, ``table``,
  ``propose``, ``vote``, ``rematch``, ``clock``).
- ``parlour_actions_total{by="person"|"bot"|"takeover"}``: moves stored.
- ``parlour_rejects_total{code}``: requests refused, by the protocol's reject code.
- ``parlour_act_update_seconds``: from an ``act`` frame read to its update handed to every
  socket of the room (acknowledged acts only).
- ``parlour_bot_decision_seconds{kind}``: from a bot being asked to its answer, waiting for a
  worker included, by the bot's kind (its spec before any ``:``: ``easy``, ``medium``, ``hard``,
  ``expert``, ``random``, ``heuristic`` (the takeover too), ``ismcts``, ``bot``).
- ``parlour_bot_searches_waiting``: search decisions waiting for a worker
  (:class:`~parlour.server.bots.FairQueue`).
- ``parlour_db_append_seconds``: one event's append to the store (the commit included).
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client import generate_latest as _exposition
from starlette.requests import Request
from starlette.responses import Response

from parlour.core.game import Game
from parlour.server.hub import Conn, Hub
from parlour.server.logs import event as log_event
from parlour.server.room import Room
from parlour.server.store import EventRow, RoomRow

__all__ = ["Metrics"]

_MAPS = (
    "rooms", "locks", "conns", "away", "tasks", "committing", "broken", "timers", "following",
    "reviews", "evicting", "addresses",
)  # fmt: skip
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_BOT = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
_DB = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)


class Metrics:
    """The metrics of one app over ``hub``; :meth:`watch` hooks them into its store and bots."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.registry = r = CollectorRegistry()
        rooms = Gauge("parlour_rooms", "Rooms held in memory", ["state"], registry=r)
        rooms.labels("running").set_function(lambda: self._rooms(over=False))
        rooms.labels("over").set_function(lambda: self._rooms(over=True))
        sockets = Gauge("parlour_sockets", "Open sockets past their hello", ["role"], registry=r)
        sockets.labels("seat").set_function(lambda: self._sockets(seat=True))
        sockets.labels("spectator").set_function(lambda: self._sockets(seat=False))
        entries = Gauge("parlour_room_entries", "Per-room entries held", ["map"], registry=r)
        for name in _MAPS:
            entries.labels(name).set_function(partial(self._entries, name))
        self.created = Counter("parlour_rooms_created", "Rooms created", registry=r)
        self.finished = Counter("parlour_games_finished", "Games that ended", registry=r)
        self.events = Counter(
            "parlour_room_events", "Room events stored, by kind", ["kind"], registry=r
        )
        self.actions = Counter(
            "parlour_actions", "Moves stored, by who made them", ["by"], registry=r
        )
        self.rejects = Counter(
            "parlour_rejects", "Requests refused, by reject code", ["code"], registry=r
        )
        self.latency = Histogram(
            "parlour_act_update_seconds",
            "From an act frame read to its update handed to the room's sockets",
            buckets=_LATENCY,
            registry=r,
        )
        self.bot = Histogram(
            "parlour_bot_decision_seconds",
            "From a bot asked to its answer, waiting for a worker included, by kind",
            ["kind"],
            buckets=_BOT,
            registry=r,
        )
        waiting = Gauge(
            "parlour_bot_searches_waiting", "Search decisions waiting for a worker", registry=r
        )
        waiting.set_function(lambda: len(self.hub.bots.searches))
        self.append = Histogram(
            "parlour_db_append_seconds", "One event's append to the store", buckets=_DB, registry=r
        )

    def _rooms(self, *, over: bool) -> int:
        return sum(1 for room in self.hub.rooms.values() if bool(room.deals) and room.over == over)

    def _entries(self, name: str) -> int:
        hub = self.hub
        held: Any = {
            "timers": hub.clocks.timers,
            "following": hub.clocks.following,
            "reviews": hub.reviews.queued,
            "evicting": hub.memory.evicting,
            "addresses": hub.memory.addresses,
        }.get(name)
        return len(getattr(hub, name) if held is None else held)

    def _sockets(self, *, seat: bool) -> int:
        conns = self.hub.conns.values()
        return sum(1 for room in conns for c in room if (c.seat is not None) == seat)

    def exposition(self) -> bytes:
        return _exposition(self.registry)

    # -- hooks ------------------------------------------------------------------------------

    def watch(self) -> None:
        """Wrap the hub's store and bot pool so that every append, new room and bot decision
        is counted, timed and logged."""
        store, bots = self.hub.store, self.hub.bots
        append, create_room = store.append, store.create_room

        async def appended(room: str, event: EventRow, *, over: bool | None = None) -> bool:
            began = time.perf_counter()
            try:
                stored = await append(room, event, over=over)
            finally:
                self.append.observe(time.perf_counter() - began)
            if stored:
                self.stored(room, event, over)
            return stored

        async def created(room: RoomRow, first: EventRow) -> None:
            await create_room(room, first)
            self.created.inc()
            self.events.labels(first.kind).inc()
            kinds = [s.kind for s in room.seats]
            log_event("room.created", room=room.room, game=room.game, seats=kinds)

        store.append = appended  # type: ignore[method-assign]
        store.create_room = created  # type: ignore[method-assign]
        decide = bots.decide

        async def decided(
            game: Game,
            kind: str,
            view_json: dict[str, Any],
            legal: list[int],
            seed: int,
            room: str = "",
        ) -> int:
            began = time.perf_counter()
            try:
                return await decide(game, kind, view_json, legal, seed, room)
            finally:
                label = kind.partition(":")[0]  # ismcts:N: one label, whatever N a room asks for
                self.bot.labels(label).observe(time.perf_counter() - began)

        bots.decide = decided  # type: ignore[method-assign]

    def stored(self, room_id: str, event: EventRow, over: bool | None) -> None:
        self.events.labels(event.kind).inc()
        fields: dict[str, Any] = {"room": room_id, "kind": event.kind, "v": event.v}
        if event.seat is not None:
            fields["seat"] = event.seat
        if event.kind == "action":
            fields["by"] = by = self._by(room_id, event)
            self.actions.labels(by).inc()
        if over:
            self.finished.inc()
            fields["over"] = True
        log_event("room.event", **fields)

    def _by(self, room_id: str, event: EventRow) -> str:
        if event.data.get("takeover"):
            return "takeover"
        room = self.hub.rooms.get(room_id)
        if room is None or event.seat is None:
            return "unknown"
        return "person" if room.kind(event.seat) == "person" else "bot"

    # -- what the sockets report ------------------------------------------------------------

    def joined(self, room: Room, conn: Conn) -> None:
        log_event("socket.joined", room=room.id, seat=conn.seat)

    def left(self, room: Room, conn: Conn) -> None:
        log_event("socket.left", room=room.id, seat=conn.seat)

    def answered(self, room: Room, seat: int | None, answer: dict[str, Any]) -> None:
        """A frame's answer was sent: a reject is counted and logged by its code."""
        if answer.get("type") == "reject":
            code = str(answer.get("code"))
            self.rejects.labels(code).inc()
            log_event("request.rejected", room=room.id, seat=seat, code=code)

    def acted(self, answer: dict[str, Any], began: float) -> None:
        """An act frame read at ``began`` (``time.perf_counter``) has been answered: an ack's
        update has been handed to every socket of the room by now."""
        if answer.get("type") == "ack":
            self.latency.observe(time.perf_counter() - began)


async def metrics_route(metrics: Metrics, request: Request) -> Response:
    """``GET /metrics``."""
    return Response(
        metrics.exposition(),
        media_type=CONTENT_TYPE_LATEST,
        headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
    )
