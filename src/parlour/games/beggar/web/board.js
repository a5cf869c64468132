// Beggar-My-Neighbour's table: the pile, the payment in progress, hand sizes, the turn button or
// automatic turning at a chosen speed.

import { backEl, cardEl } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

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
  const owed = view.owed
    ? t("beggar.owes", { name: ctx.name(view.to_move), n: view.owed, court: ctx.name(view.court_player) })
    : t("beggar.no_court");
  return h("section.board.beggar-board", { "aria-label": t("table.board") },
    h("h2", { text: t("beggar.pile", { n: pile.length }) }),
    h("div.beggar-pile", {}, pile.length ? shown.map((card, i) => cardEl(card, {
      extra: i === shown.length - 1 ? `top${lastTurned ? " enter" : ""}` : "under",
    })) : h("p.empty-pile", { text: t("beggar.pile_empty") })),
    h("p.payment", { text: owed }),
    h("p.small", { text: t("beggar.counts", { cards: view.cards, tricks: view.tricks }) }),
    h("div.stacks", {}, ctx.frame.seats.map((s) => h("div.stack", { "data-player": s.seat },
      view.hand_sizes[s.seat] ? backEl("mini") : h("span.card.mini.empty"),
      h("span", { text: `${s.name}: ${t("cards_in_hand", { n: view.hand_sizes[s.seat] })}` })))));
}

export function seatFacts(ctx, seat) {
  const view = ctx.view;
  if ((view.out || []).includes(seat)) return [t("beggar.out")];
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
  return h("section.you", { "aria-label": t("beggar.your_cards") },
    h("h2", { text: t("beggar.your_cards") }),
    canPlay ? h("button.primary.turn", { type: "button", "data-action": "play", onclick: () => ctx.act("play"),
      text: t("beggar.turn") }) : h("p.hint", { text: t("beggar.wait") }),
    h("label.check", {}, box, h("span", { text: t("beggar.auto") })));
}

export function settings() {
  const select = h("select", { id: "beggar-speed" }, SPEEDS.map(([name]) => h("option", {
    value: name, selected: (localStorage.getItem("parlour.beggarSpeed") || "normal") === name,
    text: t(`beggar.speed_${name}`) })));
  select.addEventListener("change", () => localStorage.setItem("parlour.beggarSpeed", select.value));
  return h("label.field", {}, h("span", { text: t("beggar.speed") }), select);
}

export function outcomeWords(outcome, table) {
  const names = (outcome.winners || []).map((s) => table.name(s)).join(", ");
  if (outcome.result === "loop") return t("end.beggar.loop");
  if (outcome.result === "limit") return t("end.beggar.limit", { name: names, n: outcome.cards });
  return t("end.beggar.win", { name: names });
}
