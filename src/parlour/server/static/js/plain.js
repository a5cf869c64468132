// The plain board: what the table draws for a game that brings no board of its own (and what a
// board module leaves out): the view's public fields as a table, the seat's hand, and every legal
// action as a button. Each function here is also the default of the same export of a board.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { names } from "./words.js";

function shown(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

export function board(ctx) {
  const rows = Object.entries(ctx.view || {}).filter(([key]) => key !== "hand")
    .map(([key, value]) => h("tr", {}, h("th", { scope: "row", text: key }), h("td.plain-value", { text: shown(value) })));
  return h("section.board.plain-board", { "aria-label": t("table.board") },
    h("table.plain", {}, h("tbody", {}, rows)));
}

export function seatFacts(ctx, seat) {
  const sizes = ctx.view && ctx.view.hand_sizes;
  return sizes && typeof sizes[seat] === "number" ? [t("cards_in_hand", { n: sizes[seat] })] : [];
}

export function controls(ctx) {
  if (ctx.seat === null) return null;
  const hand = ctx.view && Array.isArray(ctx.view.hand)
    ? h("p.plain-hand", { text: ctx.view.hand.map(shown).join(" ") }) : null;
  const legal = ctx.myTurn ? ctx.legal : [];
  return h("section.you", { "aria-label": t("table.your_hand") },
    h("h2", { text: t("table.your_hand") }),
    hand,
    h("div.plain-actions", {}, legal.map((action) => h("button.secondary", {
      type: "button", "data-action": action, onclick: () => ctx.act(action), text: action }))));
}

export function outcomeWords(outcome, ctx) {
  const winners = outcome.winners || [];
  if (ctx.seat !== null && winners.includes(ctx.seat)) return t("end.you_win");
  if (winners.length) return t("end.wins", { name: names(winners, ctx) });
  return t("table.over");
}
