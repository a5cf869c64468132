"""What a real ``parlour serve`` trusts (issue 27.2): the origins its host configured
(``--public-url``, ``--allow-origin``, the address it listens on), never the request's ``Host``,
so a DNS-rebinding page is refused on the socket and on POST and links never name the
attacker's host; ``X-Forwarded-For`` only from ``--trusted-proxy`` (loopback is not trusted by
itself), which is what the per-address room cap counts; ``Cache-Control: no-store`` and
``nosniff`` on every API answer; names a person can see and tell apart."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from parlour.cli import main
from tests.server.client import WAIT, ServerProcess, running_server

_TWO = {
    "game": "beor",
    "players": 2,
    "seats": ["person", "person"],
    "options": {"natural_win": False},
}
_PUBLIC = "https://cards.example"
_FRIENDS = "https://friends.example:8443"
_PROXY = "127.0.0.2"
"""A second loopback address the tests connect from: the one trusted proxy of ``proxied``."""


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server as started at home: no option about trust."""
    db = tmp_path_factory.mktemp("trust") / "rooms.db"
    with running_server(db, "--max-rooms", "1000") as running:
        yield running


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server behind a proxy at ``_PROXY`` (and a network of them), with a public URL, one
    more allowed origin, and a cap of 2 open rooms per client address."""
    db = tmp_path_factory.mktemp("trust") / "rooms.db"
    extra = (
        "--public-url", _PUBLIC, "--allow-origin", _FRIENDS, "--trusted-proxy", _PROXY,
        "--trusted-proxy", "10.9.0.0/16", "--max-rooms", "2",
    )  # fmt: skip
    with running_server(db, *extra) as running:
        yield running


def _post(
    url: str,
    body: Any = _TWO,
    *,
    via_proxy: bool = False,
    forwarded: str | None = None,
    **headers: str,
) -> httpx.Response:
    """``POST /api/rooms`` from 127.0.0.1, or from the proxy's address ``_PROXY``, with
    ``forwarded`` as its ``X-Forwarded-For``."""
    if forwarded is not None:
        headers["x-forwarded-for"] = forwarded
    transport = httpx.HTTPTransport(local_address=_PROXY if via_proxy else "127.0.0.1")
    with httpx.Client(transport=transport, timeout=WAIT) as client:
        return client.post(f"{url}/api/rooms", json=body, headers=headers)


def _refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    assert "\n" not in message
    return message


async def _socket_status(
    server: ServerProcess, room: str, origin: str, host: str | None = None
) -> int:
    """101 when the socket of ``room`` is opened with ``origin`` (and ``host`` in its Host
    header: the address is the server's own), else the HTTP status of the refusal."""
    name = host or f"127.0.0.1:{server.port}"
    try:
        ws = await asyncio.wait_for(
            connect(
                f"ws://{name}/ws/{room}", host="127.0.0.1", port=server.port,
                origin=Origin(origin), proxy=None,
            ),
            WAIT,
        )  # fmt: skip
    except InvalidStatus as refused:
        return refused.response.status_code
    await ws.send(json.dumps({"type": "hello", "token": None, "v": 0}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    await ws.close()
    assert welcome["type"] == "welcome"
    return 101


# -- origins: DNS rebinding, the public URL, --allow-origin -------------------------------------


def test_a_dns_rebinding_page_is_refused_on_post_and_on_the_socket(plain: ServerProcess) -> None:
    evil = f"evil.example:{plain.port}"  # a name of the attacker's that resolves to the server
    refused = _post(plain.url, host=evil, origin=f"http://{evil}")
    _refused(refused, 403, "forbidden_origin")
    room = _post(plain.url).json()["room"]
    assert asyncio.run(_socket_status(plain, room, f"http://{evil}", host=evil)) == 403
    # The server's own page, by the address it listens on, is welcome.
    for own in (plain.url, f"http://localhost:{plain.port}"):
        assert _post(plain.url, origin=own).status_code == 201
        assert asyncio.run(_socket_status(plain, room, own)) == 101


def test_links_never_name_the_request_host(plain: ServerProcess, proxied: ServerProcess) -> None:
    # A client without Origin (not a browser) is let in, but its Host builds nothing.
    made = _post(plain.url, host="evil.example").json()
    links = [s["link"] for s in made["seats"]] + [made["spectate"]]
    assert all(link.startswith(f"{plain.url}/r/{made['room']}") for link in links), links
    made = _post(proxied.url, via_proxy=True, host="evil.example", forwarded="192.0.2.1")
    links = [s["link"] for s in made.json()["seats"]] + [made.json()["spectate"]]
    assert all(link.startswith(f"{_PUBLIC}/r/") for link in links), links


def test_the_public_url_and_allowed_origins_are_accepted_and_no_other(
    proxied: ServerProcess,
) -> None:
    cases = {
        _PUBLIC: 201,
        f"{_PUBLIC}:443": 201,  # the same origin, its default port written out
        _FRIENDS: 201,
        proxied.url: 201,  # the address it listens on
        "https://friends.example": 403,  # another port is another origin
        "http://cards.example": 403,
        "https://cards.example.evil.example": 403,
        "null": 403,
    }
    for number, (origin, status) in enumerate(cases.items()):
        client = f"192.0.2.{10 + number}"  # a client each: no cap
        answer = _post(proxied.url, via_proxy=True, origin=origin, forwarded=client)
        assert answer.status_code == status, (origin, answer.text)
        if status == 403:
            _refused(answer, 403, "forbidden_origin")
    room = _post(proxied.url, via_proxy=True, forwarded="192.0.2.30").json()["room"]

    async def sockets() -> dict[str, int]:
        return {o: await _socket_status(proxied, room, o) for o in cases}

    assert asyncio.run(sockets()) == {o: 101 if s == 201 else 403 for o, s in cases.items()}


# -- X-Forwarded-For and the room cap -----------------------------------------------------------


def test_forwarded_for_is_ignored_from_a_peer_that_is_no_trusted_proxy(
    proxied: ServerProcess,
) -> None:
    # 127.0.0.1 is loopback but no --trusted-proxy: its rooms all count as its own.
    for client in ("198.51.100.10", "198.51.100.11"):
        assert _post(proxied.url, forwarded=client).status_code == 201
    refused = _post(proxied.url, forwarded="198.51.100.12")
    assert "at most 2 rooms" in _refused(refused, 429, "too_many_rooms")


def test_forwarded_for_names_the_client_behind_a_trusted_proxy(proxied: ServerProcess) -> None:
    def post(forwarded: str | None) -> int:
        return _post(proxied.url, via_proxy=True, forwarded=forwarded).status_code

    assert [post("203.0.113.7"), post("203.0.113.7"), post("203.0.113.7")] == [201, 201, 429]
    # What the client wrote further left is not believed; trusted hops are skipped.
    assert post("203.0.113.99, 203.0.113.7") == 429
    assert post("203.0.113.7, 10.9.0.1") == 429
    assert post("203.0.113.8, 10.9.0.1") == 201  # another client, through two proxies
    assert post("203.0.113.8") == 201
    assert post("203.0.113.8") == 429
    assert post(None) == 201  # the proxy's own request counts as the proxy's


# -- headers ----------------------------------------------------------------------------------


def test_every_api_answer_is_no_store_and_nosniff(plain: ServerProcess) -> None:
    url = plain.url
    with httpx.Client(timeout=WAIT) as http:
        answers = {
            "created": http.post(f"{url}/api/rooms", json=_TWO),
            "games": http.get(f"{url}/api/games"),
            "no room": http.get(f"{url}/api/rooms/nope"),
            "no record": http.get(f"{url}/api/rooms/nope/record"),
            "not JSON": http.post(f"{url}/api/rooms", content=b"{"),
            "bad name": http.post(f"{url}/api/rooms", json={**_TWO, "names": ["A", "\u3164"]}),
            "no route": http.get(f"{url}/api/nothing"),
            "wrong method": http.get(f"{url}/api/rooms"),
            "bad origin": http.post(
                f"{url}/api/rooms", json=_TWO, headers={"origin": "https://evil.example"}
            ),
        }
        room = answers["created"].json()["room"]
        answers["facts"] = http.get(f"{url}/api/rooms/{room}")
        answers["not over"] = http.get(f"{url}/api/rooms/{room}/record")
        statuses = {name: a.status_code for name, a in answers.items()}
        assert statuses == {
            "created": 201, "games": 200, "no room": 404, "no record": 404, "not JSON": 400,
            "bad name": 400, "no route": 404, "wrong method": 405, "bad origin": 403,
            "facts": 200, "not over": 409,
        }  # fmt: skip
        for name, answer in answers.items():
            assert answer.headers.get("cache-control") == "no-store", name
            assert answer.headers.get("x-content-type-options") == "nosniff", name
        # The pages and their files keep their own caching, and are not sniffed either.
        for path in ("/", f"/r/{room}", "/static/app.css", "/static/js/app.js"):
            page = http.get(f"{url}{path}")
            assert page.status_code == 200, path
            assert page.headers.get("cache-control") == "no-cache", path
            assert page.headers.get("x-content-type-options") == "nosniff", path


# -- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("second", "says"),
    [
        ("\u3164", "visible letter or digit"),  # HANGUL FILLER
        ("\u2800\u2800\u2800", "visible letter or digit"),  # BRAILLE PATTERN BLANK
        ("\u115f\u1160", "visible letter or digit"),  # HANGUL CHOSEONG/JUNGSEONG FILLER
        ("\uffa0", "visible letter or digit"),  # HALFWIDTH HANGUL FILLER
        (" \u3164 \u2800 ", "visible letter or digit"),
        ("\u0301\u0301", "visible letter or digit"),  # accents on nothing
        ("...", "visible letter or digit"),
        ("Player 1", "label of another seat"),
        ("player  1", "label of another seat"),
        ("Player 3", "label of another seat"),
        ("\uff30\uff4c\uff41\uff59\uff45\uff52\u3000\uff11", "label of another seat"),  # full width
        ("Jucătorul 1", "label of another seat"),
        ("Jucatorul 1", "label of another seat"),
        ("Speler 1", "label of another seat"),
        ("ana", "same as name 1"),
        ("ÁNA", "same as name 1"),
        ("Ana\u3164", "same as name 1"),
        ("A\u0301na", "same as name 1"),
    ],
)
def test_a_name_that_cannot_be_seen_or_told_apart_is_refused(
    plain: ServerProcess, second: str, says: str
) -> None:
    answer = _post(plain.url, {**_TWO, "names": ["Ana", second]})
    message = _refused(answer, 400, "bad_option")
    assert "name 2" in message and says in message, message


def test_names_that_are_fine(plain: ServerProcess) -> None:
    for names, kept in (
        (["Player 1", "Player 2"], ["Player 1", "Player 2"]),  # each seat's own label
        (["Jucătorul 1", "Speler 2"], ["Jucătorul 1", "Speler 2"]),
        (["  Zoe\u0308 ", "Zoë 2"], ["Zoë", "Zoë 2"]),  # NFC, stripped
        (["李", "٣"], ["李", "٣"]),
    ):
        answer = _post(plain.url, {**_TWO, "names": names})
        assert answer.status_code == 201, answer.text
        assert [s["name"] for s in answer.json()["seats"]] == kept
    default = _post(plain.url, _TWO).json()
    assert [s["name"] for s in default["seats"]] == ["Player 1", "Player 2"]


# -- the command line -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--public-url", "cards.example"], "a public URL is http:// or https://"),
        (["--public-url", "ftp://cards.example"], "a public URL is http:// or https://"),
        (["--public-url", "https://cards.example/parlour"], "give no path"),
        (["--public-url", "https://user@cards.example"], "a public URL is"),
        (["--public-url", "https://cards.example:99999"], "a public URL is"),
        (["--allow-origin", "https://friends.example/page"], "an origin has no path"),
        (["--trusted-proxy", "proxy.example"], "a trusted proxy is an IP address"),
        (["--trusted-proxy", "10.0.0.5/8"], "host bits set"),
    ],
)
def test_bad_addresses_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", *argv])
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err, err
