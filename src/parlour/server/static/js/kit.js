// What a board module may use besides dom.js, cards.js and i18n.js: a row of buttons that is
// one tab stop (roving), the cards publicly known in a hand (knownCards), and the table's memory
// of the focused control (rememberFocus) and of what was open or scrolled (rememberPlaces)
// across a redraw. Boards import it as "/static/js/kit.js".

import { $$, h } from "./dom.js";
import { cardEl } from "./cards.js";
import { t } from "./i18n.js";

/** "holds 7H 8H": cards publicly known to be in a hand, drawn as cards (they are face up to all). */
export function knownCards(cards) {
  const [before, after] = t("table.holds", { cards: "\u0000" }).split("\u0000");
  return h("span.fact.known-hand", {}, before, cards.map((c) => cardEl(c, { extra: "tiny" })), after || "");
}

/** A row of buttons that is one tab stop: arrows move, Home/End jump, Enter or Space presses. */
export function roving(container) {
  container.setAttribute("data-hand", "");
  const buttons = $$("button", container);
  buttons.forEach((b, i) => b.setAttribute("tabindex", i === 0 ? "0" : "-1"));
  container.addEventListener("keydown", (event) => {
    const list = $$("button", container);
    const at = list.indexOf(document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    let next = null;
    if (step) next = list[(at + step + list.length) % list.length];
    if (event.key === "Home") next = list[0];
    if (event.key === "End") next = list[list.length - 1];
    if (next) {
      event.preventDefault();
      roveTo(next);
      next.focus();
    }
  });
  return container;
}

function roveTo(el) {
  const hand = el.closest("[data-hand]");
  if (!hand) return;
  for (const b of $$("button", hand)) b.setAttribute("tabindex", b === el ? "0" : "-1");
}

export function rememberFocus(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  return { id: el.id, card: el.dataset.card, action: el.dataset.action, table: el.dataset.table,
    hand: Boolean(el.closest("[data-hand]")), index: el.closest("[data-hand]")
      ? $$("button", el.closest("[data-hand]")).indexOf(el) : -1 };
}

export function restoreFocus(root, focus) {
  if (!focus) return;
  let el = null;
  if (focus.id) el = root.querySelector(`#${CSS.escape(focus.id)}`);
  if (!el && focus.card && focus.hand) el = root.querySelector(`[data-hand] [data-card="${CSS.escape(focus.card)}"]`);
  if (!el && focus.action) el = root.querySelector(`[data-action="${CSS.escape(focus.action)}"]`);
  if (!el && focus.table) el = root.querySelector(`[data-table="${CSS.escape(focus.table)}"]`);
  if (!el && focus.hand) {
    const cards = $$("[data-hand] button", root);
    el = cards[Math.min(Math.max(focus.index, 0), cards.length - 1)] || null;
  }
  if (el) {
    if (el.closest("[data-hand]")) roveTo(el);
    el.focus({ preventScroll: true });
  }
}

/** Where a person left the parts of `root` that open or scroll, so that a drawing of the table
 * (which makes them again) puts them back (restorePlaces): whether each <details> is open (a
 * sheet of the toolbar, the rules, a board's own), and the scroll of each [data-keep-scroll]
 * element; one with data-keep-end that was scrolled to its end stays at its end as it grows
 * (the log). `before`: what was remembered last time, kept for the parts not shown now (a
 * closed sheet's scroll). */
export function rememberPlaces(root, before) {
  const places = { open: { ...(before ? before.open : {}) }, scroll: { ...(before ? before.scroll : {}) } };
  const seen = {};
  for (const d of $$("details", root)) places.open[detailsKey(d, seen)] = d.open;
  for (const el of $$("[data-keep-scroll]", root)) {
    if (!el.getClientRects().length) continue; // not shown (in a closed sheet): as it was
    places.scroll[el.dataset.keepScroll] = { top: el.scrollTop, left: el.scrollLeft,
      end: el.scrollTop + el.clientHeight >= el.scrollHeight - 4 };
  }
  return places;
}

/** Put back what rememberPlaces found: each <details> open or closed as it was, then the
 * scroll of each [data-keep-scroll]. */
export function restorePlaces(root, places) {
  if (!places) return;
  const seen = {};
  for (const d of $$("details", root)) {
    const key = detailsKey(d, seen);
    if (key in places.open && d.open !== places.open[key]) d.open = places.open[key];
  }
  for (const el of $$("[data-keep-scroll]", root)) {
    const was = places.scroll[el.dataset.keepScroll];
    if ("keepEnd" in el.dataset && (!was || was.end)) {
      el.scrollTop = el.scrollHeight;
    } else if (was) {
      if (was.top) el.scrollTop = was.top;
      if (was.left) el.scrollLeft = was.left;
    }
  }
}

/** Whether `places` (rememberPlaces) says the <details> of `key` is open; `otherwise` if it
 * was never seen. */
export function wasOpen(places, key, otherwise) {
  return places && key in places.open ? places.open[key] : otherwise;
}

/** A <details>' name across drawings: its sheet (data-sheet), id, else its classes and how
 * many of the same came before it. */
function detailsKey(d, seen) {
  if (d.dataset.sheet) return `sheet:${d.dataset.sheet}`;
  if (d.id) return `#${d.id}`;
  const base = `details.${d.className}`;
  seen[base] = (seen[base] || 0) + 1;
  return `${base}:${seen[base]}`;
}
