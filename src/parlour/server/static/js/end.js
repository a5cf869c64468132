// The end of a deal: the outcome in words (a win shared by several players said to be shared,
// then the board's outcomeWords), Play again and the link to the deal's replay and review
// (replay.js), the board's score table, every hand face up, the match so far, and the fairness
// check: the seed, revealed now, against the commitment the page showed before the first card.
//
// Every hand: from the last view where it holds them all ("hands", one list a seat), else from
// the deal's last position (GET /api/rooms/ROOM/final?deal=K: only that position, read from the
// room's last state, refused before the end; a finished deal hides nothing), fetched once; the
// table is drawn again when they come. They are shown once the seed is: from
// then on the whole deal is public (anyone can replay it from its record). A board that lays
// out the end itself exports endHands(ctx, hands): what to show in their place, or null when
// its own board shows them already.
//
// A shared win is said once: by the board's outcomeWords when the board says it exports
// sharedWinWords (true: its sentence words a tie as a shared win), else by the line above it.

import { h } from "./dom.js";
import { LEGIBLE, cardEl } from "./cards.js";
import { t } from "./i18n.js";
import { replayHref } from "./myrooms.js";
import * as plain from "./plain.js";

export function endScreen(table, ctx) {
  const f = table.frame;
  const game = f.game;
  const outcome = f.outcome || {};
  const seed = table.records[f.deal];
  const people = f.seats.filter((s) => s.kind === "person");
  const asked = new Set(f.rematch || []);
  const iAsked = f.seat !== null && asked.has(f.seat);
  const file = `parlour-${game}-${table.roomId}-${f.deal + 1}.json`;
  const winners = outcome.winners || [];
  const shared = ctx.board.sharedWinWords ? null : sharedWin(winners, ctx);
  return h("section#end.end", { "data-outcome": outcome.result || "", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title", text: t("end.title") }),
    shared ? h("p.shared-win", { "data-winners": winners.join(" "), text: shared }) : null,
    // The plain board's sentence names one winner: a shared win is said above instead.
    shared && ctx.board.outcomeWords === plain.outcomeWords ? null
      : h("p.result", { text: ctx.board.outcomeWords(outcome, ctx) }),
    h("div.row", {},
      f.seat !== null ? h("button#rematch.primary", { type: "button", disabled: iAsked, onclick: () => table.rematch(),
        text: iAsked ? t("end.rematch_waiting", { n: people.length - asked.size }) : t("end.rematch") }) : null,
      h("a#replay-link.button", { href: replayHref(table.roomId, f.deal, f.seat), text: t("end.replay") })),
    ctx.board.scoreTable ? ctx.board.scoreTable(outcome, ctx) : null,
    everyHand(ctx, handsAtEnd(table, f), seed),
    matchTable(f),
    h("div.seed", {},
      h("h3", { text: t("end.fair") }),
      seed ? [
        h("p", {}, t("end.seed"), " ", h("code", { "data-seed": seed.seed, text: String(seed.seed) })),
        h("p", {}, t("end.commitment"), " ", h("code", { text: f.commitment })),
        seed.checked === undefined ? null
          : h("p", { class: seed.checked ? "ok" : "bad", text: seed.checked ? t("end.checked") : t("end.mismatch") }),
        h("p", {}, h("a", { href: `/api/rooms/${table.roomId}/record?deal=${f.deal}`,
          download: file, text: t("end.download") })),
        h("p.small", {}, t("end.verify"), " ", h("code", { text: `parlour verify ${file}` })),
      ] : h("p", { text: t("end.loading_seed") })));
}

/** "Bo and Ana share the win." ("You and Bo ..."): a win of several players; null for one. */
export function sharedWin(winners, ctx) {
  if (winners.length < 2) return null;
  const mine = ctx.seat !== null && ctx.seat !== undefined && winners.includes(ctx.seat);
  const others = winners.filter((s) => s !== ctx.seat).map((s) => ctx.name(s));
  const names = mine ? [t("end.you_name"), ...others] : others;
  const listed = names.length < 2 ? names.join("")
    : `${names.slice(0, -1).join(", ")} ${t("and")} ${names[names.length - 1]}`;
  return t(mine ? "end.share_you" : "end.share", { names: listed });
}

/** Every seat's cards at the end, or null while they are not known yet. */
function handsAtEnd(table, f) {
  const fits = (hands) => Array.isArray(hands) && hands.length === f.seats.length
    && hands.every((hand) => Array.isArray(hand) && hand.every((c) => typeof c === "string"));
  if (f.view && fits(f.view.hands)) return f.view.hands;
  const hands = fetchHands(table, f.deal);
  return fits(hands) ? hands : null;
}

function everyHand(ctx, hands, seed) {
  // Shown with the seed: from then on anyone can replay the whole deal from its record.
  if (!hands || !seed) return null;
  if (ctx.board.endHands) return ctx.board.endHands(ctx, hands);
  return h("section.end-hands", { "aria-labelledby": "end-hands-title" },
    h("h3", { id: "end-hands-title", text: t("end.hands") }),
    hands.map((hand, seat) => h("div.end-hand", { "data-hand-of": seat },
      h("h4", {}, ctx.name(seat), seat === ctx.seat ? ` (${t("table.you")})` : "",
        h("span.small", { text: ` · ${t("cards_in_hand", { n: hand.length })}` })),
      hand.length ? h("div.end-cards", { class: hand.length > 8 ? "fan" : "" },
        hand.map((card) => cardEl(card, { extra: LEGIBLE }))) : null)));
}

/** The match so far (every finished deal's scores and winners), or null before the first. */
export function matchTable(f) {
  const match = f.match;
  if (!match || !match.deals || match.deals.length < 1) return null;
  const names = f.seats.map((s) => s.name);
  // A wide table (ten players) scrolls inside its own box, never the page.
  return h("div.scroll-x", { tabindex: "0", role: "region", "aria-label": t("end.match") }, h("table.match", {},
    h("caption", { text: t("end.match") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("end.deal") }),
      names.map((n) => h("th", { scope: "col", text: n })))),
    h("tbody", {},
      match.deals.map((d) => h("tr", {}, h("th", { scope: "row", text: String(d.deal + 1) }),
        names.map((_, s) => h("td", { class: d.winners.includes(s) ? "won" : "",
          text: `${d.scores[s]}${d.winners.includes(s) ? " ★" : ""}` })))),
      h("tr.total", {}, h("th", { scope: "row", text: t("end.total") }),
        names.map((_, s) => h("td", { text: t("end.total_cell", { n: match.wins[s], score: match.scores[s] }) }))))));
}

/** The seed of a finished deal from its record, checked against the commitment. */
export async function fetchSeed(roomId, deal, commitment) {
  const response = await fetch(`/api/rooms/${roomId}/record?deal=${deal}`);
  if (!response.ok) return null;
  // Seeds go up to 2**63 - 1, past what a JavaScript number holds exactly: read the digits.
  const raw = await response.text();
  const digits = /"seed"\s*:\s*(\d+)/.exec(raw);
  if (!digits) return null;
  const entry = { seed: digits[1] };
  entry.checked = await checkCommitment(entry.seed, commitment);
  return entry;
}

const lastHands = new Map(); // "ROOM DEAL" -> every hand at the end, null (none), or a promise

/** Every hand in finished deal `deal`'s last position (nothing is hidden any more), fetched once;
 * the table is drawn again when they come. */
function fetchHands(table, deal) {
  const key = `${table.roomId} ${deal}`;
  if (lastHands.has(key)) {
    const found = lastHands.get(key);
    return found instanceof Promise ? null : found;
  }
  const url = `/api/rooms/${encodeURIComponent(table.roomId)}/final?deal=${deal}`;
  lastHands.set(key, fetch(url).then((response) => (response.ok ? response.json() : null))
    .then((body) => (body && body.full && Array.isArray(body.full.hands) ? body.full.hands : null))
    .catch(() => null)
    .then((hands) => {
      lastHands.set(key, hands);
      if (hands && table.frame && table.frame.deal === deal && table.frame.over) table.render();
    }));
  return null;
}

async function checkCommitment(seed, commitment) {
  if (!crypto.subtle || !commitment) return undefined;
  const bytes = new TextEncoder().encode(`parlour seed commitment v1\n${seed}`);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return commitment === hex || commitment.endsWith(hex);
}
