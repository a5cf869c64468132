// The Game of Death's board (the browser table loads it with import()): the pile with who threw
// each card, whose suit was broken, the cards the rules have shown, the drinks table; each
// seat's cards and drinks in a compact line; the give dialog that splits a black face card's
// drinks (one row a player, - and +); the table penalties (G13) and how each vote went. Its
// words are the game's catalog (ctx.w).

import { cardEl, pretty } from "/static/js/cards.js";
import { $, $$, announce, h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { roving } from "/static/js/kit.js";
import { names } from "/static/js/words.js";

/** The seats playing sober (G14): the view numbers them from 1. */
function soberSeats(view) {
  return new Set((view.sober || []).map((n) => n - 1));
}

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
    shownCards(ctx),
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

/** The cards the rules have made public in another player's hand while the game runs (2♦
 * before it is thrown, G1; a card shown in an illegal throw, G13), as legible cards. At the
 * end every hand is shown by the end screen. */
function shownCards(ctx) {
  if (ctx.frame.over) return null;
  const rows = (ctx.view.known_in_hands || []).map((cards, seat) => [seat, cards || []])
    .filter(([seat, cards]) => cards.length && seat !== ctx.seat);
  if (!rows.length) return null;
  return h("ul.death-shown", {}, rows.map(([seat, cards]) => {
    const [before, after] = ctx.w("ui.shown", { player: ctx.name(seat), cards: "\u0000" }).split("\u0000");
    return h("li", { "data-player": seat }, before, cards.map((c) => cardEl(c, { extra: "shown" })), after || "");
  }));
}

function counts(ctx, kind) {
  const n = ctx.frame.seats.map(() => 0);
  for (const entry of ctx.log) for (const e of entry.events || []) if (e.kind === kind && e.seat !== undefined) n[e.seat]++;
  return n;
}

function drinksTable(ctx) {
  const view = ctx.view;
  const passes = counts(ctx, "passed");
  const sober = soberSeats(view);
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

const CARD_ICON = '<svg viewBox="0 0 10 14" width="9" height="12" aria-hidden="true" focusable="false">'
  + '<rect x="0.8" y="0.8" width="8.4" height="12.4" rx="1.6" fill="none" stroke="currentColor" stroke-width="1.6"/></svg>';
const GLASS_ICON = '<svg viewBox="0 0 12 14" width="10" height="12" aria-hidden="true" focusable="false">'
  + '<path d="M1 1h10l-1.6 12H2.6z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/>'
  + '<path d="M2 5.5h8l-.9 6.7H2.9z" fill="currentColor"/></svg>';

/** A seat's facts in one short line, so that ten seats stay a small strip: its cards and its
 * drinks taken (points for a sober player) as numbers with a sign, said in words to screen
 * readers; "passed" while it has passed since the last throw. */
export function seatFacts(ctx, seat) {
  const view = ctx.view;
  const cards = view.hand_sizes[seat];
  const taken = view.drinks_taken[seat];
  const sober = soberSeats(view).has(seat);
  const passed = (view.passed || []).includes(seat) && !ctx.frame.over;
  const said = [t("cards_in_hand", { n: cards }), ctx.w(sober ? "ui.seat.points" : "ui.seat.drinks", { count: taken })];
  if (passed) said.push(ctx.w("ui.seat.passed"));
  return [h("span.fact.death-facts", {},
    h("span.sr-only", { text: said.join(", ") }),
    h("span.chip", { "aria-hidden": "true", html: CARD_ICON }, String(cards)),
    h("span.chip.drinks", { "aria-hidden": "true", class: sober ? "sober" : "", html: GLASS_ICON },
      sober ? ctx.w("ui.seat.points_short", { count: taken }) : String(taken)),
    passed ? h("span.chip.passed", { "aria-hidden": "true", text: ctx.w("ui.seat.passed") }) : null)];
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
    if (gives.length) parts.unshift(giveDialog(ctx, gives));
  }
  const pending = view.pending_give;
  if (pending && pending.seat !== ctx.seat) {
    parts.push(h("p.hint", { text: ctx.w("ui.waiting_give", { player: ctx.name(pending.seat), count: pending.drinks }) }));
  }
  if (ctx.seat !== null && !ctx.frame.over) parts.push(penalties(ctx));
  return parts.length ? h("section.you", { "aria-label": t("table.your_hand") }, parts) : null;
}

// -- the give dialog (G5) -----------------------------------------------------------------------

/** "give N>Pk": [N, seat k - 1]. */
function giveParts(action) {
  const m = /^give (\d+)>P(\d+)$/.exec(action);
  return m ? [Number(m[1]), Number(m[2]) - 1] : null;
}

/** One row a player who may receive: − and + around the number of drinks for him (it can be
 * typed too), and "All" that gives him every drink left at once; above them the drinks left to
 * give and the Give button, which sends the split as one give a player (each a legal move in
 * notation: its data-action is the first of them once the split adds up). The split in progress
 * is kept across redraws (ctx.ui.give) and a split being sent goes on at each update
 * (ctx.ui.givePlan). */
function giveDialog(ctx, gives) {
  const owed = ctx.view.pending_give ? ctx.view.pending_give.drinks : 0;
  const targets = [...new Set(gives.map((g) => giveParts(g)[1]))].sort((a, b) => a - b);
  const plan = ctx.ui.givePlan;
  if (plan && plan.length) {
    // A split being sent: the next give goes as soon as the last one is in.
    setTimeout(() => nextGive(ctx), 0);
    const [drinks, seat] = giveParts(plan[0]);
    return h("section#give.give", { role: "group", "aria-labelledby": "give-title" },
      h("h3", { id: "give-title", text: ctx.w("ui.give_title", { count: owed }) }),
      h("p#give-left.give-left", { "aria-live": "polite",
        text: ctx.w("ui.give_sending", { count: drinks, player: ctx.name(seat) }) }));
  }
  let state = ctx.ui.give;
  if (!state || state.owed !== owed || state.targets.join() !== targets.join()) {
    state = { owed, targets, shares: Object.fromEntries(targets.map((s) => [s, targets.length === 1 ? owed : 0])) };
    ctx.ui.give = state;
  }
  const rows = targets.map((seat) => {
    const who = ctx.name(seat);
    const input = h("input.give-count", { type: "number", id: `split-${seat}`, min: 0, max: owed, step: 1,
      inputmode: "numeric", value: state.shares[seat], "aria-label": ctx.w("ui.give_for", { player: who }) });
    input.addEventListener("input", () => {
      const n = Math.max(0, Math.min(owed, Math.floor(Number(input.value) || 0)));
      state.shares[seat] = n;
      update(form, ctx, state);
    });
    const step = (by, key, sign) => {
      const b = h("button.secondary.step", { type: "button", "data-step": by > 0 ? "+1" : "-1",
        "aria-label": ctx.w(key, { player: who }), text: sign });
      b.addEventListener("click", () => {
        if (b.getAttribute("aria-disabled") === "true") return;
        state.shares[seat] = Math.max(0, state.shares[seat] + by);
        input.value = String(state.shares[seat]);
        update(form, ctx, state);
      });
      return b;
    };
    const all = `give ${owed}>P${seat + 1}`;
    // Whom to give to is a choice of the game: each row says the drinks its player has taken.
    const taken = ctx.view.drinks_taken[seat];
    const sober = soberSeats(ctx.view).has(seat);
    return h("div.give-row", { "data-player": seat },
      h("span.give-name", {}, who,
        h("span.sr-only", { text: `, ${ctx.w(sober ? "ui.seat.points" : "ui.seat.drinks", { count: taken })}` }),
        h("span.give-taken", { "aria-hidden": "true", html: GLASS_ICON }, String(taken))),
      step(-1, "ui.give_fewer", "\u2212"),
      input,
      step(1, "ui.give_more", "+"),
      h("button.secondary.give-all", { type: "button", "data-action": all,
        "aria-label": ctx.w("ui.give_all_to", { count: owed, player: who }), text: ctx.w("ui.give_all"),
        onclick: () => { ctx.ui.give = null; ctx.ui.givePlan = null; ctx.act(all); } }));
  });
  const send = h("button#give-split.primary", { type: "submit", text: ctx.w("ui.give_split") });
  const form = h("form#give.give", { "aria-labelledby": "give-title", novalidate: true },
    h("div.give-top", {},
      h("div.give-sum", {},
        h("h3", { id: "give-title", text: ctx.w("ui.give_title", { count: owed }) }),
        h("p#give-left.give-left", { "aria-live": "polite" })),
      send),
    h("p#give-note.small", { "aria-live": "polite" }),
    h("div.give-rows", {}, rows),
    // Every other legal give (some of the drinks to one player) is a button too, hidden: the
    // hook tools and tests use (every legal move a button[data-action]); people use the rows.
    h("div.give-moves", { hidden: true }, gives.filter((g) => giveParts(g)[0] !== owed).map((g) =>
      h("button", { type: "button", tabindex: "-1", "data-action": g, text: g,
        onclick: () => { ctx.ui.give = null; ctx.ui.givePlan = null; ctx.act(g); } }))));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const split = planOf(state);
    const total = split.reduce((a, [, n]) => a + n, 0);
    if (total !== owed) {
      $("#give-note", form).textContent = ctx.w("ui.give_total", { drinks: owed, got: total });
      return;
    }
    ctx.ui.give = null;
    ctx.ui.givePlan = split.map(([s, n]) => `give ${n}>P${s + 1}`);
    nextGive(ctx);
  });
  update(form, ctx, state);
  return form;
}

function planOf(state) {
  return state.targets.map((s) => [s, state.shares[s] || 0]).filter(([, n]) => n > 0);
}

/** The dialog after a change of the split: the drinks left, which steps may be taken, and the
 * Give button's move once the split adds up. */
function update(form, ctx, state) {
  const given = state.targets.reduce((a, s) => a + (state.shares[s] || 0), 0);
  const left = state.owed - given;
  $("#give-left", form).textContent = left > 0 ? ctx.w("ui.give_left", { count: left })
    : left === 0 ? ctx.w("ui.give_none_left") : ctx.w("ui.give_over", { count: -left });
  for (const row of $$(".give-row", form)) {
    const seat = Number(row.dataset.player);
    const share = state.shares[seat] || 0;
    const input = $("input", row);
    if (Number(input.value) !== share && document.activeElement !== input) input.value = String(share);
    disable($("[data-step='-1']", row), share <= 0);
    disable($("[data-step='+1']", row), left <= 0);
  }
  const send = $("#give-split", form);
  const split = planOf(state);
  if (left === 0 && split.length) {
    send.dataset.action = `give ${split[0][1]}>P${split[0][0] + 1}`;
    send.setAttribute("aria-label", ctx.w("ui.give_plan", {
      plan: split.map(([s, n]) => ctx.w("ui.give_share", { count: n, player: ctx.name(s) })).join(", ") }));
  } else {
    delete send.dataset.action;
    send.removeAttribute("aria-label");
  }
  $("#give-note", form).textContent = "";
}

/** Unavailable but still focusable (a keyboard stays where it was). */
function disable(button, off) {
  if (off) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

function nextGive(ctx) {
  const plan = ctx.ui.givePlan;
  if (!plan || !plan.length) return;
  if (!ctx.table.frame || !(ctx.table.frame.legal || []).includes(plan[0])) { ctx.ui.givePlan = null; return; }
  const action = plan.shift();
  ctx.act(action);
}

// -- table penalties (G13) ------------------------------------------------------------------------

function penalties(ctx) {
  const entries = [];
  for (const s of ctx.frame.seats) {
    for (const kind of ["doh", "delay"]) {
      const entry = `${kind} P${s.seat + 1}`;
      entries.push(h("button.secondary", { type: "button", "data-table": entry,
        onclick: (event) => { ctx.enter(entry); closeSheet(event.currentTarget); },
        text: ctx.w(`ui.penalty.${kind}`, { player: s.name }) }));
    }
  }
  return h("details.penalties", {},
    h("summary", { text: ctx.w("ui.penalties") }),
    h("p.small", { text: ctx.w("ui.penalties_help") }),
    h("div.penalty-grid", {}, entries));
}

/** On a phone the penalties are a bottom sheet over the hand: once one is entered it closes,
 * so that its outcome (the votes block above the hand) and the hand are in sight again. */
function closeSheet(button) {
  const sheet = button.closest("details");
  if (!sheet || !matchMedia("(max-width: 899.98px)").matches) return;
  sheet.open = false;
  const summary = sheet.querySelector(":scope > summary");
  if (summary) summary.focus();
}

/** "a D'oh! on Bo" for a proposal's table entry. */
function entryPhrase(entry, ctx) {
  const m = /^(doh|delay) P(\d+)$/.exec(entry);
  return m ? ctx.w(`ui.entry.${m[1]}`, { player: ctx.name(Number(m[2]) - 1) }) : entry;
}

/** The voters of a proposal by name, a bot said to be one. */
function voters(seats, ctx) {
  if (!seats.length) return ctx.w("ui.vote.nobody");
  const bot = (s) => ctx.frame.seats[s] && ctx.frame.seats[s].kind !== "person";
  return names(seats, { name: (s) => (bot(s) ? ctx.w("ui.vote.bot", { name: ctx.name(s) }) : ctx.name(s)) });
}

/** How a decided proposal went: passed (and counted), passed too late, voted down by the bots
 * alone, or voted down. */
function resultOf(d, ctx) {
  if (d.passed) return d.applied ? "passed" : "void";
  const bot = (s) => ctx.frame.seats[s] && ctx.frame.seats[s].kind !== "person";
  return d.no.length && d.no.every(bot) ? "bots" : "down";
}

/** Whether a decided proposal is still news on this page: until this seat's next move (a
 * spectator: for a round of moves). */
function stillNews(d, ctx) {
  const later = ctx.log.filter((e) => e.index >= d.at && e.kind === "action");
  if (ctx.seat === null) return later.length < ctx.frame.seats.length;
  return !later.some((e) => e.seat === ctx.seat);
}

/** The penalties put to the vote (the table's votes block): each open one with its votes so
 * far and, for a seat that may vote, yes and no; then how the latest ones ended (voted down by
 * the bots, voted down, passed: the log says who drank), kept in sight until this seat's next
 * move, each said once to screen readers. */
export function proposals(ctx) {
  const f = ctx.frame;
  const open = f.proposals || [];
  const decided = (f.decided || []).filter((d) => stillNews(d, ctx));
  tell(ctx, open, f.decided || []);
  if (!open.length && !decided.length) return null;
  return h("section.proposals", { "aria-label": t("table.proposals") },
    open.map((p) => {
      const can = f.seat !== null && p.target !== f.seat && !p.yes.includes(f.seat) && !p.no.includes(f.seat);
      return h("div.proposal", { "data-proposal": p.proposal },
        h("p", { text: openWords(p, ctx) }),
        h("p.small", { text: ctx.w("ui.vote.tally", { yes: voters(p.yes, ctx), no: voters(p.no, ctx) }) }),
        can && ctx.table.vote ? h("div.row", {},
          h("button.secondary", { type: "button", "data-vote": "yes", onclick: () => ctx.table.vote(p.proposal, true), text: t("table.vote_yes") }),
          h("button.secondary", { type: "button", "data-vote": "no", onclick: () => ctx.table.vote(p.proposal, false), text: t("table.vote_no") })) : null);
    }),
    decided.map((d) => {
      const result = resultOf(d, ctx);
      return h("div.proposal.decided", { "data-decided": d.proposal, "data-result": result, class: `result-${result}` },
        h("p", { text: decidedWords(d, ctx) }),
        h("p.small", { text: ctx.w("ui.vote.tally", { yes: voters(d.yes, ctx), no: voters(d.no, ctx) }) }));
    }));
}

function openWords(p, ctx) {
  return ctx.w("ui.vote.open", { by: ctx.name(p.by), entry: entryPhrase(p.entry, ctx) });
}

function decidedWords(d, ctx) {
  return ctx.w(`ui.vote.${resultOf(d, ctx)}`, { by: ctx.name(d.by), entry: entryPhrase(d.entry, ctx) });
}

/** Say each proposal and each decision once (the table's log says the game's events only). What
 * the page found when it opened is not said again. */
function tell(ctx, open, decided) {
  const first = !ctx.ui.voteTold;
  const told = ctx.ui.voteTold || (ctx.ui.voteTold = new Set());
  const say = (key, text) => {
    if (told.has(key)) return;
    told.add(key);
    if (!first) announce(text);
  };
  for (const p of open) say(`p${p.proposal}`, openWords(p, ctx));
  for (const d of decided) say(`d${d.proposal}`, decidedWords(d, ctx));
}

// -- the end ----------------------------------------------------------------------------------------

/** The end says a shared win once, in outcomeWords' words (end.js). */
export const sharedWinWords = true;

/** Who drank least (G12), a tie said as a shared win: "You and Bo drank least (23): you share
 * the win." */
export function outcomeWords(outcome, ctx) {
  const winners = outcome.winners || [];
  const taken = outcome.drinks_taken || outcome.scores || [];
  const drinks = winners.length ? taken[winners[0]] : 0;
  const mine = ctx.seat !== null && winners.includes(ctx.seat);
  const others = winners.filter((s) => s !== ctx.seat);
  if (mine) {
    return others.length
      ? ctx.w("ui.end.you_share", { names: names(others, ctx), drinks })
      : ctx.w("ui.end.you", { drinks });
  }
  return ctx.w(winners.length > 1 ? "ui.end.least_share" : "ui.end.least", { names: names(winners, ctx), drinks });
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
      const sober = soberSeats(ctx.view).has(e.seat);
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
