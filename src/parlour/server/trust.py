"""What ``parlour serve`` trusts, and only because its host configured it: the origins whose
pages may use the server, the address that builds invite links, and the proxies whose
``X-Forwarded-For`` names the client. Nothing here is read from a request's ``Host`` header.

- **Origins.** A browser's ``Origin`` on a socket or on a request that changes something (any
  method but GET, HEAD and OPTIONS) must be one of :attr:`Trust.origins`: the public URL's
  (``--public-url``), those of ``--allow-origin``, and those of the address the server listens
  on (:func:`listen_origins`). Anything else is refused: a socket is closed with 4403 before it
  is accepted (an HTTP 403), a request is answered 403 ``forbidden_origin``. A client that sends
  no ``Origin`` (not a browser) is let in. A DNS-rebinding page (a name of the attacker's that
  resolves to this server) sends its own origin, which is none of these.
- **Client addresses.** The peer's address, loopback included, unless the peer is one of
  ``--trusted-proxy``: then the rightmost address of ``X-Forwarded-For`` that is not a trusted
  proxy (what the client itself wrote further left is never believed).
- **Headers.** Every answer carries ``X-Content-Type-Options: nosniff``; every answer under
  ``/api/`` (errors included) carries ``Cache-Control: no-store`` too: the answer of
  ``POST /api/rooms`` holds every seat's secret token.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

__all__ = [
    "Guard",
    "Trust",
    "crashed",
    "listen_origins",
    "outward_address",
    "parse_origin",
    "parse_proxy",
    "parse_public_url",
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]

_DEFAULT_PORTS = {"http": 80, "https": 443}
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOSTNAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def parse_origin(text: str) -> str:
    """``text`` as an origin the way browsers send it: ``http`` or ``https``, the host in lower
    case (a name in another script as its ASCII form), and the port only when it is not the
    scheme's default (``https://Example.org:443/`` is ``https://example.org``).

    Raises:
        ValueError: anything else (a bare host, a path, a query, a user name, a bad port).
    """
    origin, path = _split(text, "an origin")
    if path not in ("", "/"):
        raise ValueError(f"an origin has no path, like https://example.org, got {_shown(text)}")
    return origin


def parse_public_url(text: str) -> str:
    """``--public-url``: the address people open, as an origin (links are built on it).

    Raises:
        ValueError: it is not ``http://`` or ``https://`` and a host, perhaps a port; the
            server answers at the root of its address, so a path is refused too.
    """
    origin, path = _split(text, "a public URL")
    if path not in ("", "/"):
        raise ValueError(
            f"the server answers at the root of its address: give no path, got {_shown(text)}"
        )
    return origin


def _shown(text: str) -> str:
    return json.dumps(text[:200], ensure_ascii=False)


def _split(text: str, what: str) -> tuple[str, str]:
    """The origin of an address and its path."""
    wrong = ValueError(
        f"{what} is http:// or https:// and a host, perhaps a port, like https://example.org, "
        f"got {_shown(text)}"
    )
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise wrong from None
    if parts.scheme not in _DEFAULT_PORTS or parts.query or parts.fragment or "@" in parts.netloc:
        raise wrong
    host = _host(parts.hostname or "")
    if host is None:
        raise wrong
    if port is None or port == _DEFAULT_PORTS[parts.scheme]:
        return f"{parts.scheme}://{host}", parts.path
    if not 0 < port < 65536:
        raise wrong
    return f"{parts.scheme}://{host}:{port}", parts.path


def _host(name: str) -> str | None:
    """The host as an origin writes it (an IPv6 address in brackets), or None if it is none."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    try:
        ascii_name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    if len(ascii_name) > 253 or not _HOSTNAME.fullmatch(ascii_name):
        return None
    return ascii_name


def parse_proxy(text: str) -> Network:
    """``--trusted-proxy``: an IP address or a network in CIDR notation (``10.0.0.0/8``).

    Raises:
        ValueError: anything else, or a network with host bits set (``10.0.0.5/8``).
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=True)
    except ValueError as err:
        why = f"a trusted proxy is an IP address or a network like 10.0.0.0/8, got {_shown(text)}"
        raise ValueError(f"{why} ({err})") from None


def outward_address() -> str | None:
    """This machine's address on its network (the one its default route leaves by), found
    without sending anything, or None."""
    for family, target in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))  # UDP: chooses a route, sends nothing
                address = ipaddress.ip_address(probe.getsockname()[0])
        except (OSError, ValueError):
            continue
        if not (address.is_loopback or address.is_unspecified):
            return address.compressed
    return None


def listen_origins(host: str, address: str, port: int) -> tuple[str, frozenset[str]]:
    """The public URL and origins of the address the server listens on, when ``--public-url``
    is not given: ``--host`` as typed and the address it was bound to; for a loopback address,
    ``localhost`` too; for every address (``0.0.0.0``, ``::``), loopback, this machine's name and
    its address on the network (which then builds the links)."""

    def origin(name: str) -> str | None:
        shown = _host(name.strip("[]"))
        return None if shown is None else f"http://{shown}:{port}"

    bound = ipaddress.ip_address(address.split("%")[0])
    names = [host, address]
    public = address
    if bound.is_unspecified:
        mine = outward_address()
        names += ["127.0.0.1", "::1", "localhost", socket.gethostname()]
        names += [mine] if mine else []
        public = mine or "127.0.0.1"
    elif bound.is_loopback:
        names.append("localhost")
    origins = {o for o in map(origin, names) if o is not None and not o.startswith("http://[::]")}
    origins.discard(f"http://0.0.0.0:{port}")
    return origin(public) or f"http://127.0.0.1:{port}", frozenset(origins)


@dataclass(frozen=True)
class Trust:
    """What the host of the server said to trust (see the module's text)."""

    public_url: str = "http://127.0.0.1:8000"
    """The origin people open; invite and spectator links are built on it."""
    origins: frozenset[str] = frozenset({"http://127.0.0.1:8000", "http://localhost:8000"})
    proxies: tuple[Network, ...] = ()

    @classmethod
    def of(
        cls,
        listen: tuple[str, frozenset[str]],
        public_url: str | None,
        allow: Iterable[str],
        proxies: Iterable[Network],
    ) -> Trust:
        """The listen address's origins (:func:`listen_origins`), the public URL and the other
        allowed origins, all as :func:`parse_origin` writes them."""
        public = public_url or listen[0]
        origins = listen[1] | {public} | set(allow)
        return cls(public, frozenset(origins), tuple(proxies))

    def origin_allowed(self, origin: str | None) -> bool:
        if origin is None:
            return True
        try:
            return parse_origin(origin) in self.origins
        except ValueError:  # "null", garbage
            return False

    def trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.split("%")[0])
        except ValueError:
            return False
        return any(ip in network for network in self.proxies)

    def client(self, peer: str, forwarded: Iterable[str]) -> str:
        """The client's address: ``peer``, or where ``peer`` is a trusted proxy, the rightmost
        address of ``X-Forwarded-For`` (every header line of it, in order) not trusted."""
        if not self.trusted(peer):
            return peer
        hops = [h.strip() for line in forwarded for h in line.split(",")]
        client = peer
        for hop in reversed(hops):
            address = _address(hop)
            if address is None:  # a proxy wrote something that is no address: stop at it
                return client
            client = address
            if not self.trusted(address):
                return address
        return client


def _address(hop: str) -> str | None:
    """An ``X-Forwarded-For`` entry as an address: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1`` or
    ``[::1]:5678``."""
    text = hop
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text).compressed
    except ValueError:
        return None


_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_API_HEADERS = [(k.lower().encode(), v.encode()) for k, v in _HEADERS.items()]
_FORBIDDEN = json.dumps(
    {"error": {"code": "forbidden_origin", "message": "this page's origin may not use this server"}}
).encode()


class Guard:
    """The ASGI layer that applies :class:`Trust` around the app: it sets ``scope["client"]``
    to the client's address, refuses sockets and changes from other origins, and adds the
    headers of every answer."""

    def __init__(self, app: ASGI, trust: Trust) -> None:
        self.app = app
        self.trust = trust

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = [(k.lower(), v) for k, v in scope.get("headers", ())]
        if scope.get("client") and self.trust.proxies:
            peer, port = scope["client"]
            forwarded = [v.decode("latin-1") for k, v in headers if k == b"x-forwarded-for"]
            scope["client"] = (self.trust.client(peer, forwarded), port)
        origins = [v.decode("latin-1") for k, v in headers if k == b"origin"]
        changes = kind == "websocket" or scope.get("method", "GET") not in _SAFE
        allowed = all(self.trust.origin_allowed(o) for o in origins) and len(origins) <= 1
        if kind == "websocket":
            if changes and not allowed:
                await receive()  # websocket.connect
                reason = "this page's origin may not use this server"
                await send({"type": "websocket.close", "code": 4403, "reason": reason})
                return
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")
        if changes and not allowed:
            await _answer(send, 403, _FORBIDDEN)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [
                    (k, v)
                    for k, v in message.get("headers", ())
                    if k.lower() not in (b"x-content-type-options", b"cache-control")
                    or (k.lower() == b"cache-control" and not api)
                ]
                added = _API_HEADERS if api else _API_HEADERS[1:]
                message["headers"] = kept + added
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def crashed(request: Request, error: Exception) -> Response:
    """The answer of a request that failed in the server (Starlette's handler of 500s, which
    runs outside :class:`Guard`): the same headers; the error itself is logged."""
    return PlainTextResponse("Internal Server Error", 500, headers=dict(_HEADERS))


async def _answer(send: Send, status: int, body: bytes) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *_API_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
