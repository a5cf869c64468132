"""On a phone one sheet of the table is open at a time (screen.js): opening one closes the others.
A sheet's toggle event comes a moment after it opened; when a drawing of the table comes in
between (a frame of the room), the sheet is replaced by a new one, open as the person left it
(kit.js restorePlaces), and the old sheet's late event must not close the new one. It did: a
person who opened the table penalties just as a frame came saw the sheet shut again, and the
penalty she was about to tap was out of reach (seen in the Game of Death's whole game in the
browser, about one run in ten on a loaded machine)."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.browser.browser import new_context
from tests.server.client import ServerProcess

# The table's own functions on two sheets of a phone's page: the penalties opened by a tap,
# then a drawing before its toggle event (the new sheet in its place, open), then the rules
# opened by a tap. Each wait is for the sheet's own toggle event, which the browser queues
# after the ones before it.
RACE = """async () => {
  const { arrange, narrow } = await import("/static/js/screen.js");
  const toggled = (sheet) =>
    new Promise((done) => sheet.addEventListener("toggle", done, { once: true }));
  const sheet = (name) => {
    const d = document.createElement("details");
    d.className = `sheet sheet-${name}`;
    d.dataset.sheet = name;
    d.append(document.createElement("summary"));
    return d;
  };
  const el = document.createElement("div");
  const dock = document.createElement("div");
  dock.className = "dock";
  const tapped = sheet("penalties");
  const rules = sheet("rules");
  el.append(tapped, rules, dock);
  document.body.append(el);
  arrange(el, dock);
  tapped.open = true;
  const drawn = sheet("penalties");
  tapped.replaceWith(drawn);
  drawn.open = true;
  arrange(el, dock);
  await toggled(drawn);
  const afterDrawing = { drawn: drawn.open, rules: rules.open };
  rules.open = true;
  await toggled(rules);
  return { narrow: narrow(), afterDrawing, afterRules: { drawn: drawn.open, rules: rules.open } };
}"""


def test_a_sheet_opened_just_before_a_drawing_stays_open(
    browser: Browser, server: ServerProcess
) -> None:
    context = new_context(browser, "phone")
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        found = page.evaluate(RACE)
    finally:
        context.close()
    assert found["narrow"] is True
    assert found["afterDrawing"] == {"drawn": True, "rules": False}
    # One sheet at a time still holds: opening the rules closed the penalties.
    assert found["afterRules"] == {"drawn": False, "rules": True}
