// The dock of a table, under the thumb: besides the board's controls (the hand, the moves), the
// votes on table entries and the box where a move is typed in notation.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** form#notation-form: a move typed in notation, played by table.act. */
export function notationForm(table, ctx) {
  const input = h("input#notation", {
    type: "text", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
    "aria-describedby": "notation-help", enterkeyhint: "send",
  });
  const form = h("form#notation-form.notation", {},
    h("div.row", {},
      h("label", { for: "notation", text: t("table.notation") }),
      input, h("button.secondary", { type: "submit", text: t("table.play") })),
    ctx.has("ui.notation") ? h("p#notation-help.help", { text: ctx.w("ui.notation") }) : null);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    table.act(text);
  });
  return form;
}

/** The table entries proposed for a vote, with this seat's yes and no where it may vote. */
export function proposals(table, ctx) {
  // A board with table entries may draw the votes itself, with how each one ended.
  if (ctx.board.proposals) return ctx.board.proposals(ctx);
  const f = ctx.frame;
  if (!f.proposals || !f.proposals.length) return null;
  return h("section.proposals", { "aria-label": t("table.proposals") },
    f.proposals.map((p) => {
      const can = f.seat !== null && p.target !== f.seat && p.by !== f.seat
        && !p.yes.includes(f.seat) && !p.no.includes(f.seat);
      return h("div.proposal", { "data-proposal": p.proposal },
        h("p", { text: t("table.proposal", { by: ctx.name(p.by), entry: proposalWords(p.entry, ctx) }) }),
        h("p.small", { text: t("table.votes", { yes: p.yes.length, no: p.no.length }) }),
        can ? h("div.row", {},
          h("button.secondary", { type: "button", "data-vote": "yes", onclick: () => table.vote(p.proposal, true), text: t("table.vote_yes") }),
          h("button.secondary", { type: "button", "data-vote": "no", onclick: () => table.vote(p.proposal, false), text: t("table.vote_no") })) : null);
    }));
}

/** A table entry (a proposal) in the game's words, where its board words it. */
function proposalWords(entry, ctx) {
  return (ctx.board.tableEntryWords && ctx.board.tableEntryWords(entry, ctx)) || entry;
}
