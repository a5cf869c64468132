"""A graceful stop seen from a table page (issue 27, point 6): SIGTERM closes the page's socket
with 1012 ("service restart"), and the page reconnects by itself once the server is started
again on the same address, getting the room back at the same version and seat."""

from __future__ import annotations

import signal
from pathlib import Path

from playwright.sync_api import Browser

from tests.browser.browser import WAIT, Table, new_context, wait_js
from tests.server.client import ServerProcess, create_room

_WATCH = """
window.__sockets = {closes: [], welcomes: 0};
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("close", (event) => window.__sockets.closes.push(event.code));
    this.addEventListener("message", (event) => {
      if (JSON.parse(event.data).type === "welcome") window.__sockets.welcomes += 1;
    });
  }
};
"""
"""Notes, in the page, every close code its sockets got and how many welcomes came."""

_MY_TURN = "() => document.querySelector('[data-action]') !== null"


def test_a_table_reconnects_by_itself_after_a_graceful_restart(
    browser: Browser, tmp_path: Path
) -> None:
    db = tmp_path / "rooms.db"
    server = ServerProcess(db).start()
    context = new_context(browser)
    again: ServerProcess | None = None
    try:
        context.add_init_script(_WATCH)
        room = create_room(
            server.url, {"game": "beor", "players": 2, "seats": ["person", "heuristic"]}
        )
        table = Table(context, "Player 1", 0).open(room["seats"][0]["link"])
        wait_js(table.page, "() => window.__sockets.welcomes === 1", None, "the first welcome")
        # The person's turn: nothing moves until the page plays (the bot waits for him).
        wait_js(table.page, _MY_TURN, None, "Player 1 to be offered a move")
        v = table.v()
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        server.proc.communicate(timeout=WAIT)
        assert server.proc.returncode == 0
        wait_js(
            table.page,
            "() => window.__sockets.closes.length > 0",
            None,
            "the socket to be closed by the stopping server",
        )
        assert table.page.evaluate("() => window.__sockets.closes[0]") == 1012
        again = ServerProcess(db).start(port=server.port)
        wait_js(
            table.page,
            "() => window.__sockets.welcomes >= 2",
            None,
            "the page to reconnect to the server started again",
        )
        table.wait_ready()
        assert table.v() == v
        assert table.page.locator("#table").get_attribute("data-seat") == "0"
    finally:
        context.close()
        if server.proc is not None and server.proc.poll() is None:
            server.kill()
        if again is not None:
            again.stop()
