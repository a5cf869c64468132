// The Game of Death's table: the pile with who threw each card, whose suit was broken, the drinks
// table, the give dialog that splits a black face card's drinks, the table penalties (G13).

import { cardEl, pretty } from "./cards.js";
import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { knownCards, roving } from "./table.js";

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
    h("h2", { text: t("death.pile") }),
    pile.length
      ? h("ol.death-pile", { "aria-label": t("death.pile") }, pile.map((card, i) => h("li", {},
        cardEl(card, { extra: `${fresh.has(card) && i === pile.length - 1 ? "enter" : ""}${i === pile.length - 1 ? " top" : ""}` }),
        h("span.thrower", { text: ctx.name(seats[i]) }))))
      : h("p.empty-pile", { text: t("death.pile_empty") }),
    broken ? h("p.broken", { text: t("death.broken", { name: ctx.name(broken.seat) }) }) : null,
    (view.swept || []).length ? h("p.small", { text: t("death.swept", { n: view.swept.length }) }) : null,
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
    h("caption", { text: t("death.drinks_table") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("death.player") }),
      h("th", { scope: "col", text: t("death.taken") }),
      h("th", { scope: "col", text: t("death.given") }),
      h("th", { scope: "col", text: t("death.passes") }),
      h("th", { scope: "col", text: t("death.cards") }))),
    h("tbody", {}, ctx.frame.seats.map((s) => h("tr", { class: s.seat === ctx.frame.to_move ? "to-move" : "" },
      h("th", { scope: "row" }, s.name, sober.has(s.seat) ? ` (${t("death.sober")})` : "",
        view.first_out === s.seat ? ` · ${t("death.first_out")}` : ""),
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
        text: t("death.pass") }));
    }
    const gives = [...legal].filter((a) => a.startsWith("give "));
    if (gives.length) parts.push(giveDialog(ctx, gives));
  }
  const pending = view.pending_give;
  if (pending && pending.seat !== ctx.seat) {
    parts.push(h("p.hint", { text: t("death.waiting_give", { name: ctx.name(pending.seat), n: pending.drinks }) }));
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
  const send = h("button.primary", { type: "button", id: "give-split", text: t("death.give_split") });
  send.addEventListener("click", () => {
    const plan = targets.map((s) => [s, Number($(`#split-${s}`).value) || 0]).filter(([, n]) => n > 0);
    const total = plan.reduce((a, [, n]) => a + n, 0);
    if (total !== owed) {
      ctx.table.el.querySelector("#give-note").textContent = t("death.give_total", { n: owed, got: total });
      return;
    }
    ctx.ui.split = null;
    ctx.ui.givePlan = plan.map(([s, n]) => `give ${n}>P${s + 1}`);
    nextGive(ctx);
  });
  // A plan made earlier goes on with its next give as soon as the last one is in.
  if (ctx.ui.givePlan && ctx.ui.givePlan.length) setTimeout(() => nextGive(ctx), 0);
  return h("section#give.give", { role: "group", "aria-labelledby": "give-title" },
    h("h3", { id: "give-title", text: t("death.give_title", { n: owed }) }),
    h("div.split", {}, inputs),
    send,
    h("p#give-note.small", { "aria-live": "polite" }),
    h("details.give-all", { open: true },
      h("summary", { text: t("death.give_one") }),
      targets.map((s) => h("div.give-row", {},
        h("span", { text: ctx.name(s) }),
        gives.filter((g) => g.endsWith(`>P${s + 1}`)).map((g) => h("button.secondary.small-btn", {
          type: "button", "data-action": g, "aria-label": t("death.give_n", { n: g.split(" ")[1].split(">")[0], name: ctx.name(s) }),
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
        onclick: () => ctx.act(entry), text: t(`penalty.${kind}`, { name: s.name }) }));
    }
  }
  return h("details.penalties", {},
    h("summary", { text: t("death.penalties") }),
    h("p.small", { text: t("death.penalties_help") }),
    h("div.penalty-grid", {}, entries));
}

export function outcomeWords(outcome, table) {
  const winners = outcome.winners || [];
  if (winners.includes(table.frame.seat)) return t("end.death.you", { n: outcome.drinks_taken[table.frame.seat] });
  return t("end.death.least", { name: winners.map((s) => table.name(s)).join(", ") });
}

export function scoreTable(outcome, table) {
  // The black face cards still held at the end (G11), from the log.
  const held = [];
  for (const entry of table.log) for (const e of entry.events || []) {
    if (e.kind === "hand_penalty") held.push(t("death.held", { name: table.name(e.seat), card: pretty(e.card || ""), n: e.drinks }));
  }
  return held.length ? h("div.held", {}, h("h3", { text: t("death.held_title") }),
    h("ul", {}, held.map((x) => h("li", { text: x })))) : null;
}

