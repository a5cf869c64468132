"""The ASGI app of ``parlour serve`` (starlette): the HTTP API and the websocket route.

- ``POST /api/rooms``: create a room; answers its seats' secret tokens and invite links once.
- ``GET /api/rooms/ROOM``: the room's public facts.
- ``GET /api/rooms/ROOM/record[?deal=K]``: a finished deal's record, seed revealed.
- ``GET /api/rooms/ROOM/review[?deal=K]``: a finished deal's review (:mod:`.reviews`).
- ``GET /api/rooms/ROOM/replay?deal=K&seat=S``: a finished deal step by step (:mod:`.replay`).
- ``GET /api/rooms/ROOM/final?deal=K``: a finished deal's last position, every card shown.
- ``GET /api/games``: the games, their player counts, options and seat kinds, and where the
  browser finds each game's board and words (:mod:`parlour.server.boards`).
- ``GET /games/NAME/board.js``, ``board.css``, ``words/LANG.json``: a game's own browser files,
  served from its package.
- ``/ws/ROOM``: the websocket (:mod:`parlour.server.sockets`).
- ``GET /healthz``, ``GET /readyz``, ``GET /metrics``: for the host (:mod:`.health`,
  :mod:`.metrics`; the log: :mod:`.logs`).
- ``/`` (the lobby) and ``/r/ROOM`` (a table): the browser pages, one HTML shell over the ES
  modules, styles and texts in ``static/``, and ``/sw.js``, their service worker
  (:mod:`.pages`).

Errors are ``{"error": {"code", "message"}}`` with a 4xx status. Every answer under ``/api/``
is sent with ``Cache-Control: no-store`` and ``X-Content-Type-Options: nosniff``, and pages
from other origins are refused, by the :class:`~parlour.server.trust.Guard` around the app.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from parlour.core.inputs import parse_int
from parlour.core.state import seat_name
from parlour.errors import InvalidOption, ParlourError
from parlour.games import GAMES, find_game
from parlour.server.boards import board_routes, game_urls
from parlour.server.bots import OFFERED, check_kind
from parlour.server.clock import TimeSource
from parlour.server.frames import seats
from parlour.server.health import Readiness, healthz
from parlour.server.hub import RESTART, Hub, Settings
from parlour.server.integrity import RoomBroken, check_rooms, failed, storage_error
from parlour.server.limits import CLOSE, BodyTooLarge, read_body
from parlour.server.metrics import Metrics, metrics_route
from parlour.server.names import check_names
from parlour.server.pages import HEADERS, page_routes
from parlour.server.pages import STATIC as STATIC  # where it was before
from parlour.server.protocol import hash_token, new_token
from parlour.server.replay import final, replay
from parlour.server.retention import Policy, Retention
from parlour.server.reviews import review_route
from parlour.server.room import new_deal_event
from parlour.server.sockets import serve_socket
from parlour.server.store import RoomRow, SeatRow, Store
from parlour.server.trust import Guard, Trust, crashed

__all__ = ["create_app"]

MAX_BODY = 16_384


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _error(err: ApiError) -> JSONResponse:
    body = {"error": {"code": err.code, "message": err.message}}
    headers = CLOSE if err.status == 413 else None  # the rest of the body is never read
    return JSONResponse(body, status_code=err.status, headers=headers)


def create_app(
    store: Store,
    settings: Settings | None = None,
    time_source: TimeSource | None = None,
    trust: Trust | None = None,
    retention: Policy | None = None,
) -> Starlette:
    """The server's app over ``store``; the hub starts and stops with the app's lifespan.
    ``time_source``: where the rooms' clocks read the time (wall time by default); ``trust``:
    the origins, public URL and proxies the host configured (:mod:`parlour.server.trust`);
    ``retention``: how long rooms are kept (:mod:`parlour.server.retention`)."""
    hub = Hub(store, settings or Settings(), time_source)
    pruning = Retention(hub, retention or Policy())
    metrics, ready = Metrics(hub), Readiness(hub)  # /metrics, /healthz, /readyz
    metrics.watch()
    trust = trust or Trust()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        _quiet_client_errors()
        await hub.start()
        await check_rooms(hub)  # each room that cannot be rebuilt: logged by id, then 410/4410
        ready.started()
        hub.reviews.start()
        await pruning.start()  # a first pass now, then every hour or so
        try:
            yield
        finally:
            await pruning.stop()
            await hub.reviews.stop()
            await hub.stop()

    async def api(request: Request) -> Response:
        try:
            handler = request.scope["endpoint_handler"]
            response: Response = await handler(hub, request)
            return response
        except ApiError as err:
            return _error(err)
        except RoomBroken:  # logged once by the hub (parlour.server.integrity)
            return _error(ApiError(410, "room_broken", "this room's stored data is broken"))
        except Exception as err:
            if not storage_error(err):
                raise
            failed(request.path_params.get("room", ""), err)
            return _error(ApiError(503, "server_error", "the database failed: try again later"))

    def route(path: str, handler: Any, methods: list[str]) -> Route:
        async def endpoint(request: Request) -> Response:
            request.scope["endpoint_handler"] = handler
            return await api(request)

        return Route(path, endpoint, methods=methods)

    async def websocket(ws: WebSocket) -> None:
        if hub.draining:  # a graceful stop has begun: closed at once, the client reconnects
            await ws.accept()
            await ws.close(*RESTART)
            return
        await serve_socket(hub, ws, metrics)

    app = Starlette(
        routes=[
            *page_routes(),  # the shell, /sw.js, /static (parlour.server.pages)
            route("/api/games", _games, ["GET"]),
            route("/api/rooms", _create, ["POST"]),
            route("/api/rooms/{room}", _room, ["GET"]),
            route("/api/rooms/{room}/record", _record, ["GET"]),
            route("/api/rooms/{room}/review", review_route, ["GET"]),
            route("/api/rooms/{room}/replay", replay, ["GET"]),
            route("/api/rooms/{room}/final", final, ["GET"]),
            WebSocketRoute("/ws/{room}", websocket),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", ready.readyz, methods=["GET"]),
            Route("/metrics", partial(metrics_route, metrics), methods=["GET"]),
            *board_routes(HEADERS),
        ],
        lifespan=lifespan,
        middleware=[Middleware(Guard, trust=trust), Middleware(_Process)],
        exception_handlers={500: crashed},
    )
    app.state.hub = hub
    app.state.retention = pruning
    app.state.trust = trust
    return app


class _Process:
    """Every answer and websocket handshake says which server process made it, in the header
    ``X-Parlour-Process: PID`` (with ``--workers N`` several processes share the port)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.header = (b"x-parlour-process", str(os.getpid()).encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def marked(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", ()), self.header]}
            await send(message)

        await self.app(scope, receive, marked)


class _ClientUtf8(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 with a traceback, as if the server had
    failed; the client's mistake (closed with 1007) is one warning line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8 sequence"):
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _quiet_client_errors() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientUtf8) for f in logger.filters):
        logger.addFilter(_ClientUtf8())


async def _games(hub: Hub, request: Request) -> Response:
    out = []
    for game in GAMES.values():
        info = game.info
        out.append(
            {
                "game": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": info.default_players,
                "options": [
                    {
                        "name": o.name,
                        "kind": o.kind,
                        "default": o.default,
                        "choices": list(o.choices),
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                        "nullable": o.nullable,
                        "ruling": o.ruling,
                        "help": o.help,
                    }
                    for o in info.options
                ],
                "seat_kinds": ["person", "bot"] if game.strategy is None else ["person", *OFFERED],
                **game_urls(game),
            }
        )
    return JSONResponse({"games": out})


async def _body(request: Request) -> dict[str, Any]:
    try:  # refused as soon as it passes the limit, never read whole (parlour.server.limits)
        raw = await read_body(request, MAX_BODY)
    except BodyTooLarge as err:
        raise ApiError(413, "too_large", str(err)) from None
    try:
        obj = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_request", "the body is not JSON") from None
    if not isinstance(obj, dict):
        raise ApiError(400, "bad_request", "the body is a JSON object")
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(name)


async def _create(hub: Hub, request: Request) -> Response:
    # The page's origin was checked by the Guard (parlour.server.trust), which also made
    # request.client the client's address (a trusted proxy's X-Forwarded-For, or the peer).
    obj = await _body(request)
    unknown = sorted(set(obj) - {"game", "players", "options", "seats", "names"})
    if unknown:
        raise ApiError(400, "bad_request", f"unknown field {unknown[0][:40]!r}")
    try:
        game = find_game(obj.get("game"))  # type: ignore[arg-type]
        players = obj.get("players", game.info.default_players)
        players = game.check_players(players)
        options = obj.get("options") or {}
        if not isinstance(options, dict):
            raise InvalidOption("field 'options' is an object of option names and values")
        options = dict(game.options(options).items())
        kinds = obj.get("seats")
        if not isinstance(kinds, list) or len(kinds) != players:
            raise InvalidOption(f"field 'seats' lists one kind per player ({players})")
        kinds = [check_kind(game, k, f"seat {i + 1}") for i, k in enumerate(kinds)]
        names = obj.get("names") or [seat_name(i) for i in range(players)]
        if not isinstance(names, list) or len(names) != players:
            raise InvalidOption(f"field 'names' lists one name per player ({players})")
        names = check_names(names)
    except (InvalidOption, ValueError) as err:
        raise ApiError(400, "bad_option", str(err)) from None
    client = request.client.host if request.client else "unknown"
    cap = hub.settings.max_rooms_per_client
    if await hub.store.open_rooms_by(client) >= cap:
        raise ApiError(429, "too_many_rooms", f"at most {cap} rooms with games running per client")
    room_id = secrets.token_urlsafe(9)
    tokens = [new_token() if k == "person" else None for k in kinds]
    seats = tuple(
        SeatRow(i, kinds[i], names[i], None if t is None else hash_token(t))
        for i, t in enumerate(tokens)
    )
    row = RoomRow(room_id, game.name, players, options, seats, client, time.time())
    first = new_deal_event(0, 0)
    await hub.store.create_room(row, first)
    base: str = request.app.state.trust.public_url  # never the request's Host
    out_seats = []
    for i, t in enumerate(tokens):
        entry: dict[str, Any] = {"seat": i, "kind": kinds[i], "name": names[i]}
        if t is not None:
            entry["token"] = t
            entry["link"] = f"{base}/r/{room_id}#t={t}"
            entry["qr"] = qr_rows(entry["link"])
        out_seats.append(entry)
    room = await hub.room(room_id)
    assert room is not None
    body = {
        "room": room_id,
        "commitment": first.data["commitment"],
        "seats": out_seats,
        "spectate": f"{base}/r/{room_id}",
        "spectate_qr": qr_rows(f"{base}/r/{room_id}"),
    }
    return JSONResponse(body, status_code=201)


def qr_rows(text: str) -> list[str]:
    """The QR code of ``text`` (segno; error correction M) as rows of ``0``/``1`` modules,
    quiet zone left out: the lobby draws it as SVG."""
    code = segno.make_qr(text, error="m", boost_error=False)
    return ["".join("1" if m else "0" for m in row) for row in code.matrix]


async def _loaded(hub: Hub, request: Request) -> Any:
    room_id = request.path_params["room"]
    room = await hub.room(room_id)
    if room is None:
        raise ApiError(404, "not_found", "no such room")
    return room


async def _room(hub: Hub, request: Request) -> Response:
    room = await _loaded(hub, request)
    return JSONResponse(
        {
            "room": room.id,
            "game": room.game.name,
            "title": room.game.title,
            "players": room.row.players,
            "options": room.row.options,
            "seats": seats(hub, room),
            "v": room.v,
            "deal": room.deal.number,
            "over": room.over,
            "abandoned": room.abandoned,
            "to_move": room.state.to_move,
            "commitment": room.deal.commitment,
            "match": room.match(),
            "clock": hub.clocks.frame(room),
        }
    )


async def _record(hub: Hub, request: Request) -> Response:
    room = await _loaded(hub, request)
    wanted = request.query_params.get("deal")
    number = room.deal.number
    if wanted is not None:
        try:  # 0007 is 7; 5,000 digits are refused before int() is called
            number = parse_int(wanted, field="deal", minimum=0, maximum=number)
        except ParlourError:
            raise ApiError(400, "bad_request", f"deal is a number from 0 to {number}") from None
    if not room.deals[number].state.is_over:
        raise ApiError(409, "not_over", "the record is shown once the game is over")
    return JSONResponse(room.record(number).to_json())
