// The end of a deal: the outcome in words (the board's outcomeWords), the board's score table,
// the match so far, the rematch button, the link to the deal's replay and review (replay.js), and
// the fairness check: the seed, revealed now, against the commitment the page showed before the
// first card.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { replayHref } from "./myrooms.js";

export function endScreen(table, ctx) {
  const f = table.frame;
  const game = f.game;
  const outcome = f.outcome || {};
  const seed = table.records[f.deal];
  const people = f.seats.filter((s) => s.kind === "person");
  const asked = new Set(f.rematch || []);
  const iAsked = f.seat !== null && asked.has(f.seat);
  const file = `parlour-${game}-${table.roomId}-${f.deal + 1}.json`;
  return h("section#end.end", { "data-outcome": outcome.result || "", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title", text: t("end.title") }),
    h("p.result", { text: ctx.board.outcomeWords(outcome, ctx) }),
    ctx.board.scoreTable ? ctx.board.scoreTable(outcome, ctx) : null,
    matchTable(f),
    h("div.row", {},
      f.seat !== null ? h("button#rematch.primary", { type: "button", disabled: iAsked, onclick: () => table.rematch(),
        text: iAsked ? t("end.rematch_waiting", { n: people.length - asked.size }) : t("end.rematch") }) : null,
      h("a#replay-link.button", { href: replayHref(table.roomId, f.deal, f.seat), text: t("end.replay") })),
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

function matchTable(f) {
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

async function checkCommitment(seed, commitment) {
  if (!crypto.subtle || !commitment) return undefined;
  const bytes = new TextEncoder().encode(`parlour seed commitment v1\n${seed}`);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return commitment === hex || commitment.endsWith(hex);
}
