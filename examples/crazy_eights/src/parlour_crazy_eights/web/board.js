// Crazy Eights' board (the browser table loads it with import()): the discard pile with its top
// card and the suit to follow, the stock, and the seat's own hand with its playable cards; draw
// and pass as buttons, and after an 8 the four suits to name. Its words are the game's catalog
// (ctx.w); an action is sent in the game's notation (7H, draw, pass, hearts).

import { backEl, cardEl, pretty } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { roving } from "/static/js/kit.js";

const SUITS = [["clubs", "♣"], ["diamonds", "♦"], ["hearts", "♥"], ["spades", "♠"]];
const SYMBOL = Object.fromEntries(SUITS);

function suitWords(ctx, suit) {
  return `${SYMBOL[suit]} ${ctx.w(`ui.suit.${suit}`)}`;
}

export function board(ctx) {
  const view = ctx.view;
  const discard = view.discard || [];
  const top = discard[discard.length - 1];
  const played = ctx.fresh.some((entry) => entry.events.some((e) => e.kind === "played"));
  return h("section.board.c8-board", { "aria-label": t("table.board") },
    h("div.c8-piles", {},
      h("div.c8-pile", { "data-pile": "discard" },
        h("h2", { text: ctx.w("ui.discard") }),
        top ? cardEl(top, { extra: played ? "enter" : "" }) : null,
        h("p.c8-suit", { "data-suit": view.suit,
          text: ctx.w("ui.to_follow", { symbol: SYMBOL[view.suit], suit: ctx.w(`ui.suit.${view.suit}`) }) })),
      h("div.c8-pile", { "data-pile": "stock" },
        view.stock_size ? backEl() : h("span.card.empty", { "aria-label": ctx.w("ui.stock_empty"), role: "img" }),
        h("p.count", { text: view.stock_size ? ctx.w("ui.stock", { count: view.stock_size }) : ctx.w("ui.stock_empty") }))));
}

export function seatFacts(ctx, seat) {
  const view = ctx.view;
  const facts = [t("cards_in_hand", { n: view.hand_sizes[seat] })];
  if (seat === view.dealer) facts.push(ctx.w("ui.dealer"));
  if (seat === view.to_move && view.draws) facts.push(ctx.w("ui.drawn", { count: view.draws }));
  const shown = view.hands && view.hands[seat];
  if (shown && shown.length) facts.push(shown.map(pretty).join(" "));
  return facts;
}

export function controls(ctx) {
  const view = ctx.view;
  if (ctx.seat === null || !view.hand || view.hands) return null;
  const legal = new Set(ctx.myTurn ? ctx.legal : []);
  const hand = h("div#hand.hand", { role: "group", "aria-label": t("table.your_hand") },
    view.hand.map((card) => {
      const playable = legal.has(card);
      const button = cardEl(card, { button: true, action: playable ? card : null, extra: playable ? "playable" : "idle" });
      if (!playable) button.setAttribute("aria-disabled", "true");
      button.addEventListener("click", () => { if (playable) ctx.act(card); });
      return button;
    }));
  roving(hand);
  const extra = [];
  for (const action of ["draw", "pass"]) {
    if (legal.has(action)) {
      extra.push(h("button.secondary", { type: "button", "data-action": action,
        onclick: () => ctx.act(action), text: ctx.w(`ui.${action}`) }));
    }
  }
  const naming = ctx.myTurn && view.phase === "nominate";
  return h("section.you", { "aria-label": t("table.your_hand") },
    h("h2", { text: t("table.your_hand") }),
    hand,
    naming ? h("div.c8-suits", { role: "group", "aria-label": ctx.w("ui.name_suit") },
      h("p.menu-title", { text: ctx.w("ui.name_suit") }),
      SUITS.filter(([suit]) => legal.has(suit)).map(([suit]) => h("button.secondary", {
        type: "button", "data-action": suit, onclick: () => ctx.act(suit), text: suitWords(ctx, suit) }))) : null,
    extra.length ? h("div.c8-actions", {}, extra) : null);
}

export function outcomeWords(outcome, ctx) {
  const winners = outcome.winners || [];
  const points = (outcome.scores || []).map((p, seat) => ctx.w("ui.points", { count: p, name: ctx.name(seat) })).join(", ");
  const how = outcome.result === "win"
    ? ctx.w("ui.end.win", { name: ctx.name(winners[0]) })
    : ctx.w(`ui.end.${outcome.result}`);
  const who = ctx.seat !== null && winners.includes(ctx.seat) ? t("end.you_win") : t("end.wins", { name: winners.map((s) => ctx.name(s)).join(", ") });
  return `${who} ${how} ${points}`;
}

/** The values (and the variant key) of an event's words; the catalog has event.KIND. */
export function eventWords(e, ctx) {
  const name = typeof e.seat === "number" ? ctx.name(e.seat) : "";
  switch (e.kind) {
    case "dealt":
      return { values: { name, count: e.cards } };
    case "turned_back":
    case "played":
      return { values: { name } };
    case "started":
      return { values: { name } };
    case "nominated":
      return { values: { name, symbol: SYMBOL[e.suit], suit: ctx.w(`ui.suit.${e.suit}`) } };
    case "drew":
      return { key: e.card ? "event.drew" : "event.drew.unseen", values: { name } };
    case "passed":
      return { values: { name } };
    case "won":
      return { key: "event.went_out", values: { name } };
    case "blocked":
      return { values: {} };
    case "limit":
      return { values: { count: e.plays } };
    case "showed":
      return (e.cards || []).length
        ? { values: { name, count: e.points, cards: e.cards.map(pretty).join(" ") } }
        : { key: "event.showed.empty", values: { name } };
    default:
      return null;
  }
}
