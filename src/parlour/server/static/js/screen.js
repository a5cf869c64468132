// The table on one screen (app.css, "The table is one screen"): what table.js does to the parts
// it draws so that they fit: the sheets of the toolbar (one open at a time on a phone, placed
// between the toolbar and the dock, a board's own parts moved into them), the hand sized to two
// rows, the seat to move in sight in the strip, and each part that scrolls a tab stop.

import { $, $$, h } from "./dom.js";
import { t } from "./i18n.js";

const watchers = new WeakMap();
const watched = new WeakSet(); // the sheets keepOneSheet listens to

/** After a drawing, before the places are put back (kit.js restorePlaces): the hand sized,
 * the sheets kept one at a time and placed. */
export function arrange(el, dock) {
  fitHand(dock);
  keepOneSheet(el);
  watchSheets(el, dock);
}

/** Once the places are back: the seat to move in sight, the parts that scroll reachable. */
export function settle(el) {
  showMover(el);
  reachable(el);
}

/** On a narrow screen one sheet is open at a time: opening one closes the others; Escape
 * closes it. The toggle event comes a moment after the sheet opened: when a drawing came in
 * between, the sheet opened is no longer on the screen and its place is open in the new one
 * (restorePlaces), which the old sheet's event must not close. */
function keepOneSheet(el) {
  for (const sheet of $$("details.sheet", el)) {
    if (watched.has(sheet)) continue; // a sheet kept from a drawing before (redraw.js)
    watched.add(sheet);
    sheet.addEventListener("toggle", () => {
      if (!sheet.open || !sheet.isConnected || !narrow()) return;
      for (const other of $$("details.sheet", el)) if (other !== sheet && other.open) other.open = false;
    });
    sheet.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !sheet.open || !narrow()) return;
      sheet.open = false;
      $("summary", sheet).focus();
    });
  }
}

/** On a narrow screen an open sheet lies between the toolbar and the dock, so the hand and the
 * moves stay in reach while it is open (over the seats and the board; at least a third of the
 * window tall, over the dock's top if it must): its place follows the dock's size. */
function watchSheets(el, dock) {
  if (!window.ResizeObserver) return;
  let watch = watchers.get(el);
  if (!watch) {
    watch = new ResizeObserver(() => placeSheets(el));
    watchers.set(el, watch);
  }
  watch.disconnect();
  watch.observe(el);
  watch.observe(dock);
}

function placeSheets(el) {
  const nav = $("nav.sheets", el);
  const dock = $(".dock", el);
  if (!nav || !dock) return;
  const high = window.innerHeight;
  const top = Math.max(0, nav.getBoundingClientRect().bottom + 4);
  let bottom = Math.max(0, high - dock.getBoundingClientRect().top + 4);
  if (high - top - bottom < high / 3) bottom = Math.max(0, high - top - high / 3);
  el.style.setProperty("--sheet-top", `${Math.round(top)}px`);
  el.style.setProperty("--sheet-bottom", `${Math.round(bottom)}px`);
}

/** The seat to move in sight in the strip of seats (it scrolls sideways on a phone). */
function showMover(el) {
  const list = $("#seat-list", el);
  const mover = list && $(".seat.to-move", list);
  if (!mover || list.scrollWidth <= list.clientWidth) return;
  const left = mover.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
  if (left < list.scrollLeft) list.scrollLeft = left;
  else if (left + mover.offsetWidth > list.scrollLeft + list.clientWidth) {
    list.scrollLeft = left + mover.offsetWidth - list.clientWidth;
  }
}

/** Whether the screen is narrow (a phone): a sheet opens over the board, one at a time. */
export function narrow() {
  return !matchMedia("(min-width: 900px)").matches;
}

/** A sheet's body: its title and a button that closes it, then what it holds. */
export function sheetBody(name, label, body) {
  return h("div.sheet-body", { "data-keep-scroll": `sheet-${name}` },
    h("div.sheet-top", {},
      h("h2", { text: label }),
      h("button.link.sheet-close", { type: "button", "aria-label": t("table.close_sheet", { what: label }),
        text: t("table.close"), onclick: (event) => closeSheet(event.target) })),
    body);
}

function closeSheet(button) {
  const sheet = button.closest("details");
  if (!sheet) return;
  sheet.open = false;
  $("summary", sheet).focus();
}

/** The parts of a board's controls that are no move of the seat now (a <details
 * class="penalties">, a game's table penalties, or any part marked data-sheet="NAME" with
 * data-sheet-label): each becomes a sheet of the toolbar, its summary the toolbar's button, so
 * the dock keeps only the moves. */
export function boardSheets(controls) {
  if (!controls) return [];
  const out = [];
  for (const part of $$("details.penalties, [data-sheet]", controls)) {
    if (part.closest(".sheet") || out.some((x) => x.contains(part))) continue;
    const details = part.tagName === "DETAILS" ? part : null;
    const summary = details && $(":scope > summary", details);
    const name = part.dataset.sheet || (details ? "penalties" : "board");
    const label = summary ? summary.textContent : part.dataset.sheetLabel || name;
    const sheet = details || h("details", {}, h("summary", { text: label }));
    const body = sheetBody(name, label, null);
    if (details) {
      for (const child of Array.from(details.childNodes)) if (child !== summary) body.append(child);
    } else {
      body.append(part); // out of the controls
    }
    const head = $(":scope > summary", sheet);
    if (!head.id) head.id = `sheet-${name}`;
    sheet.classList.add("sheet", `sheet-${name}`);
    sheet.dataset.sheet = name;
    sheet.append(body);
    sheet.remove();
    out.push(sheet);
  }
  return out;
}

/** A part that scrolls (the board on a small screen, the strip of seats) is a tab stop, so
 * that the keyboard scrolls it too; one that does not, is none. */
export function reachable(root) {
  // All the sizes read first, then only the changes written: one layout, not one a part.
  const parts = $$(".table-middle, #seat-list, .dock", root);
  const scrolls = parts.map((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
  parts.forEach((el, i) => {
    if (scrolls[i] && el.getAttribute("tabindex") !== "0") el.tabIndex = 0;
    else if (!scrolls[i] && el.hasAttribute("tabindex")) el.removeAttribute("tabindex");
  });
}

/** The hand in two rows where it can: how many cards a row holds (app.css sizes them). */
function fitHand(dock) {
  const hand = $("#hand", dock);
  if (!hand) return;
  const n = hand.querySelectorAll("[data-card]").length;
  hand.style.setProperty("--per-row", String(n <= 7 ? Math.max(n, 5) : Math.max(7, Math.ceil(n / 2))));
}

