// BEOR's table: the four bases with their tops, the stocks (size, face, known cards), hands,
// and the seat's own hand with its playable cards; a 4 or 7 asks which stock to draw from.

import { backEl, cardEl, cardName, pretty } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { knownCards, roving } from "./table.js";

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
      h("h2", { id: `base-${name}`, class: `base-name base-${name}`, text: t(`base.${name}`) }),
      h("div.pile", {},
        top ? cardEl(top, { extra: played.has(name) ? "enter" : "" }) : h("span.card.empty", { text: "" }),
        h("span.count", { text: t("beor.base_count", { n: pile.length }) })),
      h("div.stock", { class: `stock${flipped.has(name) ? " flip" : ""}`, "data-stock": name },
        stock.size === 0 ? h("span.card.empty", { "aria-label": t("beor.stock_empty"), role: "img" })
          : stock.face_up && stock.top ? cardEl(stock.top, { label: `${cardName(stock.top)} (${t("beor.stock_top")})` })
            : backEl(),
        h("span.count", { text: stock.size === 0 ? t("beor.no_stock")
          : t(stock.face_up ? "beor.stock_up" : "beor.stock_down", { n: stock.size }) })),
      known.length ? h("ul.known", { "aria-label": t("beor.known_in_stock") },
        known.sort((a, b) => a.position - b.position).map((k) => h("li", {},
          cardEl(k.card, { extra: "mini" }),
          h("span", { text: t("beor.position", { n: k.position + 1 }) })))) : null);
  });
  const scrap = view.scrap_size ? h("p.scrap", {}, t("beor.scrap", { n: view.scrap_size }),
    " ", (view.known_scrap || []).map((c) => cardEl(c, { extra: "mini" }))) : null;
  return h("section.board.beor-board", { "aria-label": t("table.board") },
    h("div.beor-grid", {}, columns), scrap);
}

export function seatFacts(ctx, seat) {
  const view = ctx.view;
  const facts = [];
  if ((view.out || []).includes(seat)) facts.push(t("beor.out"));
  else facts.push(t("cards_in_hand", { n: view.hand_sizes[seat] }));
  const known = (view.known_in_hands || [])[seat] || [];
  if (known.length && seat !== ctx.seat) facts.push(knownCards(known));
  return facts;
}

export function controls(ctx) {
  const view = ctx.view;
  if (ctx.seat === null || !view.hand) return null;
  if ((view.out || []).includes(ctx.seat)) {
    return h("section.you", { "aria-label": t("table.your_hand") }, h("p", { text: t("beor.you_are_out") }));
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
    ctx.myTurn ? h("p.hint", { text: t("beor.hint") }) : null,
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
    "aria-label": t("beor.menu", { card: pretty(card) }) },
    h("p.menu-title", { text: t("beor.menu", { card: pretty(card) }) }),
    BASES.filter((b) => byBase[b]).map((on) => h("div.menu-row", {},
      h("span.menu-base", { text: t("beor.on_base", { base: t(`base.${on}`) }) }),
      byBase[on].map(({ action, from }) => h("button.secondary", {
        type: "button", "data-action": action,
        "aria-label": t("beor.play_draw", { card: cardName(card), base: t(`base.${on}`), stock: t(`base.${from}`) }),
        onclick: () => { ctx.ui.menu = null; ctx.act(action); },
      }, byBase[on].length > 1 ? t("beor.draw_from", { stock: t(`base.${from}`) }) : t("beor.play_here"))))),
    h("button.link", { type: "button", onclick: close, text: t("table.cancel") }));
  el.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  return el;
}

export function outcomeWords(outcome, table) {
  if (outcome.result === "draw") return t("end.beor.draw", { n: outcome.turns });
  const winners = outcome.winners || [];
  if (winners.includes(table.frame.seat)) return t("end.you_win");
  return t("end.wins", { name: winners.map((s) => table.name(s)).join(", ") });
}
