// What a board module may use besides dom.js, cards.js and i18n.js: a row of buttons that is
// one tab stop (roving), the cards publicly known in a hand (knownCards), and the table's memory
// of the focused control across a redraw. Boards import it as "/static/js/kit.js".

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
