// Beggar-My-Neighbour's board (the browser table loads it with import()): the pile, the payment
// in progress, hand sizes, the turn button or automatic turning at a chosen speed. Its words are
// the game's catalog (ctx.w).

import { backEl, cardEl } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { names } from "/static/js/words.js";

const SPEEDS = [["fast", 150], ["normal", 600], ["slow", 1500]];

function speed() {
  const name = localStorage.getItem("parlour.beggarSpeed") || "normal";
  return (SPEEDS.find(([n]) => n === name) || SPEEDS[1])[1];
}

export function board(ctx) {
  const view = ctx.view;
  // Top card first in the view (RULINGS "Common"); the whole pile is shown fanned in the order
  // turned, the top card last and largest.
  const pile = view.pile || [];
  const shown = pile.slice().reverse();
  const lastTurned = ctx.fresh.length > 0;
  // Once the deal is over nobody pays any more: no payment line.
  const owed = ctx.frame.over ? null : view.owed
    ? ctx.w("ui.owes", { player: ctx.name(view.to_move), count: view.owed, court: ctx.name(view.court_player) })
    : ctx.w("ui.no_court");
  return h("section.board.beggar-board", { "aria-label": t("table.board") },
    h("h2", { text: ctx.w("ui.pile", { count: pile.length }) }),
    h("div.beggar-pile", {}, pile.length ? shown.map((card, i) => cardEl(card, {
      extra: i === shown.length - 1 ? `top${lastTurned ? " enter" : ""}` : "under",
    })) : h("p.empty-pile", { text: ctx.w("ui.pile_empty") })),
    owed ? h("p.payment", { text: owed }) : null,
    h("p.small.counts", { text: ctx.w("ui.counts", {
      cards: ctx.w("ui.counts.cards", { count: view.cards }),
      tricks: ctx.w("ui.counts.tricks", { count: view.tricks }) }) }),
    h("div.stacks", {}, ctx.frame.seats.map((s) => h("div.stack", { "data-player": s.seat },
      view.hand_sizes[s.seat] ? backEl("mini") : h("span.card.mini.empty"),
      h("span", { text: `${s.name}: ${t("cards_in_hand", { n: view.hand_sizes[s.seat] })}` })))));
}

export function seatFacts(ctx, seat) {
  const view = ctx.view;
  if ((view.out || []).includes(seat)) return [ctx.w("ui.out")];
  return [t("cards_in_hand", { n: view.hand_sizes[seat] })];
}

export function controls(ctx) {
  if (ctx.seat === null || ctx.frame.over) return null;
  const auto = localStorage.getItem(`parlour.auto.${ctx.table.roomId}`) === "1";
  const canPlay = ctx.legal.includes("play") && ctx.myTurn;
  const box = h("input#auto", { type: "checkbox", checked: auto });
  box.addEventListener("change", () => {
    localStorage.setItem(`parlour.auto.${ctx.table.roomId}`, box.checked ? "1" : "0");
    ctx.rerender();
  });
  clearTimeout(ctx.ui.autoTimer);
  if (auto && canPlay) ctx.ui.autoTimer = setTimeout(() => ctx.act("play"), speed());
  return h("section.you", { "aria-label": ctx.w("ui.your_cards") },
    h("h2", { text: ctx.w("ui.your_cards") }),
    canPlay ? h("button.primary.turn", { type: "button", "data-action": "play", onclick: () => ctx.act("play"),
      text: ctx.w("ui.turn") }) : h("p.hint", { text: ctx.w("ui.wait") }),
    h("label.check", {}, box, h("span", { text: ctx.w("ui.auto") })));
}

export function settings(ctx) {
  const select = h("select", { id: "beggar-speed" }, SPEEDS.map(([name]) => h("option", {
    value: name, selected: (localStorage.getItem("parlour.beggarSpeed") || "normal") === name,
    text: ctx.w(`ui.speed.${name}`) })));
  select.addEventListener("change", () => localStorage.setItem("parlour.beggarSpeed", select.value));
  return h("label.field", {}, h("span", { text: ctx.w("ui.speed") }), select);
}

/** The end says a shared win once, in outcomeWords' words (end.js). */
export const sharedWinWords = true;

/** How the deal ended; a win shared by several players (at the card limit, M11, or when the
 * time is up, M12) is said to be shared, and the reader's own win is said to him. */
export function outcomeWords(outcome, ctx) {
  const winners = outcome.winners || [];
  if (outcome.result === "loop") return ctx.w("ui.end.loop");
  const mine = ctx.seat !== null && winners.includes(ctx.seat);
  const others = winners.filter((s) => s !== ctx.seat);
  const kind = outcome.result === "limit" || outcome.result === "time" ? outcome.result : "win";
  let key = `ui.end.${kind}`;
  if (kind !== "win" && winners.length > 1) key += "_share";
  if (mine) key += "_you";
  return ctx.w(key, { names: names(mine ? others : winners, ctx), cards: outcome.cards });
}

/** The values of an event's words; the catalog has event.KIND. */
export function eventWords(e, ctx) {
  switch (e.kind) {
    case "owes":
    case "captured":
      return { values: { count: e.cards } };
    case "loop":
      return { values: { cards: e.length_cards, tricks: e.length_tricks } };
    case "limit":
      return { values: { cards: e.cards, names: names(e.winners || [], ctx) } };
    case "time_up":
      return { values: { count: e.cards, names: names(e.winners || [], ctx) } };
    default:
      return null;
  }
}
