"""The browser pages in Debian's Chromium (Playwright, headless): what a page weighs, how long
the lobby and a table take to be ready, and how long a move takes from the click to the page
showing it (the socket, the server storing it, the update, the page drawing it).

.venv/bin/python benchmarks/bench_pages.py              # 5 loads of each page, 60 moves
.venv/bin/python benchmarks/bench_pages.py --moves 200

A page is timed from Playwright's navigation of a fresh browser context (an empty cache) to
the page showing what it is ready with (a table: drawn from its welcome). Its weight is taken
in one more load, not timed: reading each answer's body through Playwright while a timed page
loads would hold up the driver's events, and so the figure. A table's time is also split into
its phases, from the page's own marks and resource timings (milliseconds since navigation,
medians): the HTML, the last of its files, the shell's script running, the socket open, the
welcome, the board and words loaded, the table drawn; that last one (the page's own clock from
navigation to the table drawn) is said against the target too, after Playwright's figure.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium-headless-shell"
TARGET_READY_MS = 300.0
"""A table is ready (drawn from its welcome) within this on loopback (issue 26.11)."""
TARGET_DRAWN_MS = 30.0
"""An update is drawn within this at the 95th percentile, measured in the page (issue 26.11)."""
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", "0", "--db", str(db), "--quiet",
         "--bot-delay", "0", "--bot-workers", "0", "--rate", "5000", "--max-rooms", "1000"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    url = proc.stdout.readline().strip().rsplit(" ", 1)[-1].rstrip("/")
    for _ in range(200):
        try:
            httpx.get(f"{url}/api/games", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.05)
    return proc, url


PHASES_JS = """() => {
  const at = (name) => {
    const found = performance.getEntriesByName(name);
    return found.length ? found[0].startTime : null;
  };
  const render = performance.getEntriesByName('parlour render')[0];
  const files = performance.getEntriesByType('resource')
    .filter((r) => !render || r.responseEnd <= render.startTime).map((r) => r.responseEnd);
  return {
    html: performance.getEntriesByType('navigation')[0].responseEnd,
    files: files.length ? Math.max(...files) : null,
    app: at('parlour app'), socket: at('parlour socket'), welcome: at('parlour welcome'),
    board: at('parlour board'), drawn: render ? render.startTime + render.duration : null,
  };
}"""
PHASES = ("html", "files", "app", "socket", "welcome", "board", "drawn")


def weigh(page: Page, url: str, ready: str) -> tuple[int, int]:
    """Bytes and requests of the page's own files (a load that is not timed)."""
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
    page.goto(url)
    page.wait_for_selector(ready)
    return sum(sizes), len(sizes)


def loads(browser: Browser, url: str, ready: str, times: int) -> dict[str, Any]:
    seconds: list[float] = []
    phases: dict[str, list[float]] = {name: [] for name in PHASES}
    for _ in range(times):
        context = browser.new_context()
        page = context.new_page()
        began = time.perf_counter()
        page.goto(url)
        page.wait_for_selector(ready)
        seconds.append(time.perf_counter() - began)
        for name, value in page.evaluate(PHASES_JS).items():
            if value is not None:
                phases[name].append(value)
        context.close()
    context = browser.new_context()
    weight, requests = weigh(context.new_page(), url, ready)
    context.close()
    medians = {name: statistics.median(values) for name, values in phases.items() if values}
    return {"ms": 1000 * statistics.median(seconds), "bytes": weight, "requests": requests,
            "phases": medians}  # fmt: skip


RENDERS = """() => performance.getEntriesByName('parlour render').map((m) => m.duration)"""
MOVES = """() => performance.getEntriesByName('parlour move').map((m) => m.duration)"""


def moves(
    browser: Browser, url: str, count: int, drawn: list[float], inside: list[float]
) -> list[float]:
    """Click-to-screen seconds of ``count`` moves of a person in BEOR against the heuristic,
    as Playwright sees them; the page's own drawing times (ms, each update) go into ``drawn``
    and its own times from sending a move to showing it (ms) into ``inside``."""
    took: list[float] = []
    context = browser.new_context()
    page = context.new_page()
    while len(took) < count:
        body = {"game": "beor", "players": 2, "seats": ["person", "heuristic"]}
        room = httpx.post(f"{url}/api/rooms", json=body, headers={"origin": url}).json()
        page.goto(room["seats"][0]["link"])
        page.wait_for_selector("#table[data-v]:not([data-v=''])")
        while len(took) < count and not page.locator("[data-outcome]").count():
            page.wait_for_selector("#table.my-turn, [data-outcome]")
            if page.locator("[data-outcome]").count():
                break
            v = page.get_attribute("#table", "data-v")
            # Tap a playable card: the bases it may go on light up; a lit base either plays
            # (data-action) or, for a 4 or 7, lights the stocks (data-leads), one of which plays.
            page.locator("#hand .playable").first.click()
            base = page.locator("[data-target-base]").first
            if base.get_attribute("data-action") is None:
                base.click()
                button = page.locator("[data-target-stock][data-action]").first
            else:
                button = base
            began = time.perf_counter()
            button.click()
            page.wait_for_selector(f"#table:not([data-v='{v}'])")
            took.append(time.perf_counter() - began)
        drawn.extend(page.evaluate(RENDERS))
        inside.extend(page.evaluate(MOVES))
    context.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="loads of each page")
    parser.add_argument("--moves", type=int, default=60, help="moves timed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, url = serve(Path(folder) / "rooms.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                lobby = loads(browser, url + "/", "#create", args.loads)
                body = {"game": "death", "players": 4, "seats": ["person"] + ["heuristic"] * 3}
                room = httpx.post(f"{url}/api/rooms", json=body, headers={"origin": url}).json()
                table = loads(
                    browser, room["spectate"], "#table[data-v]:not([data-v=''])", args.loads
                )
                drawn: list[float] = []
                inside: list[float] = []
                took = sorted(moves(browser, url, args.moves, drawn, inside))
                browser.close()
        finally:
            proc.terminate()
            proc.wait()
    print(
        f"lobby: ready in {lobby['ms']:.0f} ms (median of {args.loads}), "
        f"{lobby['bytes'] / 1024:.0f} KiB in {lobby['requests']} requests"
    )
    print(
        f"table: ready in {table['ms']:.0f} ms (median of {args.loads}), "
        f"{table['bytes'] / 1024:.0f} KiB in {table['requests']} requests"
    )
    phases = ", ".join(f"{name} {ms:.0f}" for name, ms in table["phases"].items())
    print(f"table's phases (ms since navigation, in the page, medians): {phases}")
    p95 = took[min(len(took) - 1, int(0.95 * len(took)))]
    drawn.sort()
    inside.sort()
    print(
        f"a move, sent to shown (measured in the page): p50 {statistics.median(inside):.1f} ms, "
        f"p95 {inside[int(0.95 * (len(inside) - 1))]:.1f} ms over {len(inside)} moves"
    )
    print(
        f"drawing a BEOR table (each update): p50 {statistics.median(drawn):.1f} ms, "
        f"p95 {drawn[int(0.95 * (len(drawn) - 1))]:.1f} ms over {len(drawn)} updates"
    )
    print(
        f"a move, Playwright's click to screen: p50 {1000 * statistics.median(took):.1f} ms, "
        f"p95 {1000 * p95:.1f} ms, max {1000 * took[-1]:.1f} ms over {len(took)} moves"
    )
    drawn_p95 = drawn[int(0.95 * (len(drawn) - 1))]
    # The page's own clock from navigation to the table drawn (the "drawn" phase): the same
    # ready, without Playwright's driver between the page and this script (on a busy machine
    # its wait for the selector noticed a table drawn at 500 ms some 300 ms later). Said too,
    # not in place of the figure above.
    inside_ready = table["phases"].get("drawn", float("nan"))
    for what, figure, target in (
        ("a table ready (median)", table["ms"], TARGET_READY_MS),
        ("a table ready, in the page's own clock (median)", inside_ready, TARGET_READY_MS),
        ("an update drawn (p95)", drawn_p95, TARGET_DRAWN_MS),
    ):
        verdict = "met" if figure < target else "NOT MET"
        print(f"target: {what} under {target:g} ms: {verdict} ({figure:.1f} ms)")


if __name__ == "__main__":
    main()
