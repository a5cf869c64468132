// BEOR's board (the browser table loads it with import()): the four bases with their tops, the
// stocks (size, face, known cards), hands, and the seat's own hand with its playable cards; a 4
// or 7 asks which stock to draw from. Its words are the game's catalog (ctx.w).

import { backEl, cardEl, cardName, pretty } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { knownCards, roving } from "/static/js/kit.js";

const BASES = ["black", "even", "odd", "red"];

export function board(ctx) {
  const view = ctx.view;
  const flipped = new Set();
  const played = new Set();
  for (const entry of ctx.fresh) {
    for (const e of entry.events) {
      if (e.kind === "flipped") flipped.add(e.stock);
      if (e.kind === "played") played.add(e.base);
    }
  }
  const columns = BASES.map((name) => {
    const pile = view.bases[name] || []; // top card first (RULINGS "Common")
    const top = pile[0];
    const stock = view.stocks[name];
    const known = (stock.known || []).filter((k) => !(stock.face_up && k.position === 0));
    return h("section.beor-column", { "data-base": name, "aria-labelledby": `base-${name}` },
      h("h2", { id: `base-${name}`, class: `base-name base-${name}`, text: ctx.w(`ui.base.${name}`) }),
      h("div.pile", {},
        top ? cardEl(top, { extra: played.has(name) ? "enter" : "" }) : h("span.card.empty", { text: "" }),
        h("span.count", { text: ctx.w("ui.base_count", { count: pile.length }) })),
      h("div.stock", { class: `stock${flipped.has(name) ? " flip" : ""}`, "data-stock": name },
        stock.size === 0 ? h("span.card.empty", { "aria-label": ctx.w("ui.stock_empty"), role: "img" })
          : stock.face_up && stock.top ? cardEl(stock.top, { label: `${cardName(stock.top)} (${ctx.w("ui.stock_top")})` })
            : backEl(),
        h("span.count", { text: stock.size === 0 ? ctx.w("ui.no_stock")
          : ctx.w(stock.face_up ? "ui.stock_up" : "ui.stock_down", { count: stock.size }) })),
      known.length ? h("ul.known", { "aria-label": ctx.w("ui.known_in_stock") },
        known.sort((a, b) => a.position - b.position).map((k) => h("li", {},
          cardEl(k.card, { extra: "mini" }),
          h("span", { text: ctx.w("ui.position", { position: k.position + 1 }) })))) : null);
  });
  const scrap = view.scrap_size ? h("p.scrap", {}, ctx.w("ui.scrap", { count: view.scrap_size }),
    " ", (view.known_scrap || []).map((c) => cardEl(c, { extra: "mini" }))) : null;
  return h("section.board.beor-board", { "aria-label": t("table.board") },
    h("div.beor-grid", {}, columns), scrap);
}

export function seatFacts(ctx, seat) {
  const view = ctx.view;
  const facts = [];
  if ((view.out || []).includes(seat)) facts.push(ctx.w("ui.out"));
  else facts.push(t("cards_in_hand", { n: view.hand_sizes[seat] }));
  const known = (view.known_in_hands || [])[seat] || [];
  if (known.length && seat !== ctx.seat) facts.push(knownCards(known));
  return facts;
}

export function controls(ctx) {
  const view = ctx.view;
  if (ctx.seat === null || !view.hand) return null;
  if ((view.out || []).includes(ctx.seat)) {
    return h("section.you", { "aria-label": t("table.your_hand") }, h("p", { text: ctx.w("ui.you_are_out") }));
  }
  const legal = ctx.myTurn ? ctx.legal : [];
  const moves = {};
  for (const a of legal) {
    const card = a.split(">")[0];
    (moves[card] = moves[card] || []).push(a);
  }
  const open = ctx.ui.menu && moves[ctx.ui.menu] ? ctx.ui.menu : null;
  const hand = h("div#hand.hand", { role: "group", "aria-label": t("table.your_hand") },
    view.hand.map((card) => {
      const mine = moves[card] || [];
      const one = mine.length === 1 ? mine[0] : null;
      const button = cardEl(card, { button: true, action: one, extra: mine.length ? "playable" : "idle" });
      if (!mine.length) button.setAttribute("aria-disabled", "true");
      if (mine.length > 1) {
        button.setAttribute("aria-haspopup", "true");
        button.setAttribute("aria-expanded", String(open === card));
      }
      if (open === card) button.classList.add("chosen");
      button.addEventListener("click", () => {
        if (!mine.length) return;
        if (one) { ctx.act(one); return; }
        ctx.ui.menu = open === card ? null : card;
        ctx.rerender();
        const first = document.querySelector(`[data-menu="${card}"] button`);
        if (first && ctx.ui.menu) first.focus();
      });
      return button;
    }));
  roving(hand);
  return h("section.you", { "aria-label": t("table.your_hand") },
    h("h2", { text: t("table.your_hand") }),
    hand,
    ctx.myTurn ? h("p.hint", { text: ctx.w("ui.hint") }) : null,
    // Every legal move is in the page (tools find it by data-action); a card's menu shows when
    // the card is chosen.
    Object.keys(moves).filter((c) => moves[c].length > 1).map((c) => menu(ctx, c, moves[c], c !== open)));
}

function menu(ctx, card, actions, hidden) {
  // Group by base: a plain move draws from that base's stock; with a 4 or 7 (B7) the stock after
  // "/" may be any other: the menu asks which.
  const byBase = {};
  for (const a of actions) {
    const [, rest] = a.split(">");
    const [on, from] = rest.split("/");
    (byBase[on] = byBase[on] || []).push({ action: a, from: from || on });
  }
  const close = () => {
    ctx.ui.menu = null;
    ctx.rerender();
    const chosen = document.querySelector(`#hand [data-card="${card}"]`);
    if (chosen) chosen.focus();
  };
  const el = h("div.move-menu", { role: "group", "data-menu": card, hidden,
    "aria-label": ctx.w("ui.menu", { card: pretty(card) }) },
    h("p.menu-title", { text: ctx.w("ui.menu", { card: pretty(card) }) }),
    BASES.filter((b) => byBase[b]).map((on) => h("div.menu-row", {},
      h("span.menu-base", { text: ctx.w("ui.on_base", { base: ctx.w(`ui.base.${on}`) }) }),
      byBase[on].map(({ action, from }) => h("button.secondary", {
        type: "button", "data-action": action,
        "aria-label": ctx.w("ui.play_draw", { card: cardName(card), base: ctx.w(`ui.base.${on}`), stock: ctx.w(`ui.base.${from}`) }),
        onclick: () => { ctx.ui.menu = null; ctx.act(action); },
      }, byBase[on].length > 1 ? ctx.w("ui.draw_from", { stock: ctx.w(`ui.base.${from}`) }) : ctx.w("ui.play_here"))))),
    h("button.link", { type: "button", onclick: close, text: t("table.cancel") }));
  el.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  return el;
}

export function outcomeWords(outcome, ctx) {
  if (outcome.result === "draw") return ctx.w("ui.end.draw", { turns: outcome.turns });
  const winners = outcome.winners || [];
  if (winners.includes(ctx.seat)) return t("end.you_win");
  return t("end.wins", { name: winners.map((s) => ctx.name(s)).join(", ") });
}

/** The values (and the variant key) of an event's words; the catalog has event.KIND. */
export function eventWords(e, ctx) {
  const base = (name) => ctx.w(`ui.base.${name}`);
  switch (e.kind) {
    case "played":
      return { values: { base: base(e.base) } };
    case "drew":
      return { key: e.card ? "event.drew" : "event.drew.unseen", values: { stock: base(e.stock) } };
    case "flipped":
      return { key: e.face_up ? "event.flipped.up" : "event.flipped.down", values: { stock: base(e.stock) } };
    case "restocked":
      return { values: { kept: (e.kept || []).map(pretty).join(" "), count: e.cards } };
    case "won":
      return e.groups
        ? { key: "event.won.groups", values: { groups: e.groups.map((g) => g.map(pretty).join(" ")).join(" · ") } }
        : { key: "event.won.last" };
    default:
      return null;
  }
}
