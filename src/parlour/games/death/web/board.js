// The Game of Death's board (the browser table loads it with import()): the pile with who threw
// each card, whose suit was broken, the drinks table, the give dialog that splits a black face
// card's drinks, the table penalties (G13). Its words are the game's catalog (ctx.w).

import { cardEl, pretty } from "/static/js/cards.js";
import { $, h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { knownCards, roving } from "/static/js/kit.js";

export function board(ctx) {
  const view = ctx.view;
  // The view lists the pile top card first (RULINGS "Common"); the table lays it out in the
  // order it was thrown, the top card last and largest.
  const pile = (view.pile || []).slice().reverse();
  const seats = (view.pile_seats || []).slice().reverse();
  const fresh = new Set();
  for (const entry of ctx.fresh) for (const e of entry.events) if (e.kind === "threw") fresh.add(e.card);
  const broken = lastBroken(ctx);
  return h("section.board.death-board", { "aria-label": t("table.board") },
    h("h2", { text: ctx.w("ui.pile") }),
    pile.length
      ? h("ol.death-pile", { "aria-label": ctx.w("ui.pile") }, pile.map((card, i) => h("li", {},
        cardEl(card, { extra: `${fresh.has(card) && i === pile.length - 1 ? "enter" : ""}${i === pile.length - 1 ? " top" : ""}` }),
        h("span.thrower", { text: ctx.name(seats[i]) }))))
      : h("p.empty-pile", { text: ctx.w("ui.pile_empty") }),
    broken ? h("p.broken", { text: ctx.w("ui.broken", { player: ctx.name(broken.seat) }) }) : null,
    (view.swept || []).length ? h("p.small", { text: ctx.w("ui.swept", { count: view.swept.length }) }) : null,
    drinksTable(ctx));
}

function lastBroken(ctx) {
  // The latest "suit broken" (G4) since the pile was last swept.
  for (let i = ctx.log.length - 1; i >= 0; i--) {
    const events = ctx.log[i].events || [];
    for (let j = events.length - 1; j >= 0; j--) {
      const e = events[j];
      if (e.kind === "swept") return null;
      if (e.kind === "drank" && e.why === "broken") return e;
    }
  }
  return null;
}

function counts(ctx, kind) {
  const n = ctx.frame.seats.map(() => 0);
  for (const entry of ctx.log) for (const e of entry.events || []) if (e.kind === kind && e.seat !== undefined) n[e.seat]++;
  return n;
}

function drinksTable(ctx) {
  const view = ctx.view;
  const passes = counts(ctx, "passed");
  const sober = new Set(view.sober || []);
  return h("table.drinks", {},
    h("caption", { text: ctx.w("ui.drinks_table") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: ctx.w("ui.column.player") }),
      h("th", { scope: "col", text: ctx.w("ui.column.taken") }),
      h("th", { scope: "col", text: ctx.w("ui.column.given") }),
      h("th", { scope: "col", text: ctx.w("ui.column.passes") }),
      h("th", { scope: "col", text: ctx.w("ui.column.cards") }))),
    h("tbody", {}, ctx.frame.seats.map((s) => h("tr", { class: s.seat === ctx.frame.to_move ? "to-move" : "" },
      h("th", { scope: "row" }, s.name, sober.has(s.seat) ? ` (${ctx.w("ui.sober")})` : "",
        view.first_out === s.seat ? ` · ${ctx.w("ui.first_out")}` : ""),
      h("td", { text: String(view.drinks_taken[s.seat]) }),
      h("td", { text: String(view.drinks_given[s.seat]) }),
      h("td", { text: String(passes[s.seat]) }),
      h("td", { text: String(view.hand_sizes[s.seat]) })))));
}

export function seatFacts(ctx, seat) {
  const known = (ctx.view.known_in_hands || [])[seat] || [];
  const facts = [t("cards_in_hand", { n: ctx.view.hand_sizes[seat] })];
  if (known.length && seat !== ctx.seat) facts.push(knownCards(known));
  return facts;
}

export function controls(ctx) {
  const view = ctx.view;
  const parts = [];
  if (ctx.seat !== null && view.hand) {
    const legal = new Set(ctx.myTurn ? ctx.legal : []);
    const hand = h("div#hand.hand", { role: "group", "aria-label": t("table.your_hand") },
      view.hand.map((card) => {
        const ok = legal.has(card);
        const b = cardEl(card, { button: true, action: ok ? card : null, extra: ok ? "playable" : "idle" });
        if (!ok) b.setAttribute("aria-disabled", "true");
        b.addEventListener("click", () => { if (ok) ctx.act(card); });
        return b;
      }));
    roving(hand);
    parts.push(h("h2", { text: t("table.your_hand") }), hand);
    if (legal.has("pass")) {
      parts.push(h("button.primary", { type: "button", "data-action": "pass", onclick: () => ctx.act("pass"),
        text: ctx.w("ui.pass") }));
    }
    const gives = [...legal].filter((a) => a.startsWith("give "));
    if (gives.length) parts.push(giveDialog(ctx, gives));
  }
  const pending = view.pending_give;
  if (pending && pending.seat !== ctx.seat) {
    parts.push(h("p.hint", { text: ctx.w("ui.waiting_give", { player: ctx.name(pending.seat), drinks: pending.drinks }) }));
  }
  if (ctx.seat !== null && !ctx.frame.over) parts.push(penalties(ctx));
  return parts.length ? h("section.you", { "aria-label": t("table.your_hand") }, parts) : null;
}

function giveDialog(ctx, gives) {
  // Every legal give is a button ("give N>Pk"); the split form above them sends several in turn.
  const owed = ctx.view.pending_give ? ctx.view.pending_give.drinks : 0;
  const targets = [...new Set(gives.map((g) => Number(/>P(\d+)$/.exec(g)[1]) - 1))];
  const split = ctx.ui.split || {};
  const inputs = targets.map((s) => {
    const input = h("input", { type: "number", min: 0, max: owed, step: 1, inputmode: "numeric",
      id: `split-${s}`, value: split[s] ?? (targets.length === 1 ? owed : 0) });
    input.addEventListener("input", () => { split[s] = Number(input.value) || 0; ctx.ui.split = split; });
    return h("label.field", {}, h("span", { text: ctx.name(s) }), input);
  });
  const send = h("button.primary", { type: "button", id: "give-split", text: ctx.w("ui.give_split") });
  send.addEventListener("click", () => {
    const plan = targets.map((s) => [s, Number($(`#split-${s}`).value) || 0]).filter(([, n]) => n > 0);
    const total = plan.reduce((a, [, n]) => a + n, 0);
    if (total !== owed) {
      ctx.table.el.querySelector("#give-note").textContent = ctx.w("ui.give_total", { drinks: owed, got: total });
      return;
    }
    ctx.ui.split = null;
    ctx.ui.givePlan = plan.map(([s, n]) => `give ${n}>P${s + 1}`);
    nextGive(ctx);
  });
  // A plan made earlier goes on with its next give as soon as the last one is in.
  if (ctx.ui.givePlan && ctx.ui.givePlan.length) setTimeout(() => nextGive(ctx), 0);
  return h("section#give.give", { role: "group", "aria-labelledby": "give-title" },
    h("h3", { id: "give-title", text: ctx.w("ui.give_title", { drinks: owed }) }),
    h("div.split", {}, inputs),
    send,
    h("p#give-note.small", { "aria-live": "polite" }),
    h("details.give-all", { open: true },
      h("summary", { text: ctx.w("ui.give_one") }),
      targets.map((s) => h("div.give-row", {},
        h("span", { text: ctx.name(s) }),
        gives.filter((g) => g.endsWith(`>P${s + 1}`)).map((g) => h("button.secondary.small-btn", {
          type: "button", "data-action": g, "aria-label": ctx.w("ui.give_n", { drinks: g.split(" ")[1].split(">")[0], player: ctx.name(s) }),
          onclick: () => { ctx.ui.givePlan = null; ctx.act(g); },
          text: g.split(" ")[1].split(">")[0] }))))));
}

function nextGive(ctx) {
  const plan = ctx.ui.givePlan;
  if (!plan || !plan.length) return;
  if (!ctx.table.frame.legal.includes(plan[0])) { ctx.ui.givePlan = null; return; }
  const action = plan.shift();
  ctx.act(action);
}

function penalties(ctx) {
  const entries = [];
  for (const s of ctx.frame.seats) {
    for (const kind of ["doh", "delay"]) {
      const entry = `${kind} P${s.seat + 1}`;
      entries.push(h("button.secondary", { type: "button", "data-table": entry,
        onclick: () => ctx.act(entry), text: ctx.w(`ui.penalty.${kind}`, { player: s.name }) }));
    }
  }
  return h("details.penalties", {},
    h("summary", { text: ctx.w("ui.penalties") }),
    h("p.small", { text: ctx.w("ui.penalties_help") }),
    h("div.penalty-grid", {}, entries));
}

export function outcomeWords(outcome, ctx) {
  const winners = outcome.winners || [];
  if (winners.includes(ctx.seat)) return ctx.w("ui.end.you", { drinks: outcome.drinks_taken[ctx.seat] });
  return ctx.w("ui.end.least", { names: winners.map((s) => ctx.name(s)).join(", ") });
}

export function scoreTable(outcome, ctx) {
  // The black face cards and Aces still held at the end (G11), from the log.
  const held = [];
  for (const entry of ctx.log) for (const e of entry.events || []) {
    if (e.kind === "hand_penalty") {
      held.push(ctx.w("ui.held", { player: ctx.name(e.seat), card: pretty(e.card || ""), drinks: e.drinks }));
    }
  }
  return held.length ? h("div.held", {}, h("h3", { text: ctx.w("ui.held_title") }),
    h("ul", {}, held.map((x) => h("li", { text: x })))) : null;
}

/** The values (and the variant key) of an event's words; the catalog has event.KIND. */
export function eventWords(e, ctx) {
  switch (e.kind) {
    case "drank":
    case "penalty":
    case "hand_penalty": {
      const sober = (ctx.view.sober || []).includes(e.seat);
      const who = ctx.w(sober ? "ui.points" : "ui.drinks", { player: ctx.name(e.seat), count: e.drinks });
      const key = `ui.why.${e.why}`;
      const why = e.why && ctx.has(key)
        ? ctx.w(key, { card: e.card ? pretty(e.card) : "", other: e.other ? pretty(e.other) : "", drinks: e.drinks })
        : e.reason;
      return { values: { who, why } };
    }
    case "gave":
      return { values: { to: ctx.name(e.to) } };
    case "swept":
      return { key: `event.swept.${e.why}`, values: { player: ctx.name(e.leader) } };
    case "ended":
      return { key: `event.ended.${e.why}` };
    default:
      return null;
  }
}

/** A table penalty proposed for a vote ("doh P2") in words. */
export function tableEntryWords(entry, ctx) {
  const m = /^(doh|delay) P(\d+)$/.exec(entry);
  return m ? ctx.w(`ui.penalty.${m[1]}`, { player: ctx.name(Number(m[2]) - 1) }) : null;
}
