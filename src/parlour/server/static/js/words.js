// The log in words, in the chosen language, from each event's data (the server's English text
// is the fallback for an event this page does not know). Notation is shown as it is.

import { has, t } from "./i18n.js";
import { pretty } from "./cards.js";

/** The sentences for one log entry, as the seat sees it. */
export function entryWords(game, entry, table) {
  const out = [];
  for (const event of entry.events || []) {
    const words = eventWords(game, event, table);
    if (words) out.push(words);
  }
  if (!out.length && entry.kind === "table" && entry.text) {
    out.push(t("ev.table", { name: entry.seat === null ? t("referee") : table.name(entry.seat), entry: entry.text }));
  }
  return out;
}

function names(list, table) {
  const parts = list.map((s) => table.name(s));
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} ${t("and")} ${parts[parts.length - 1]}`;
}

function base(name) {
  return t(`base.${name}`);
}

function eventWords(game, e, table) {
  const p = e.seat !== undefined && e.seat !== null ? table.name(e.seat) : "";
  const key = `ev.${game}.${e.kind}`;
  const card = e.card ? pretty(e.card) : "";
  switch (`${game}.${e.kind}`) {
    case "beor.played":
      return t(key, { p, card, base: base(e.base) });
    case "beor.drew":
      return e.card ? t(key, { p, card, stock: base(e.stock) }) : t("ev.beor.drew_unseen", { p, stock: base(e.stock) });
    case "beor.flipped":
      return t(e.face_up ? "ev.beor.flipped_up" : "ev.beor.flipped_down", { stock: base(e.stock) });
    case "beor.restocked":
      return t(key, { kept: (e.kept || []).map(pretty).join(" "), n: e.cards });
    case "beor.lost":
      return t(key, { p });
    case "beor.won":
      return e.groups
        ? t("ev.beor.won_groups", { p, groups: e.groups.map((g) => g.map(pretty).join(" ")).join(" · ") })
        : t("ev.beor.won_last", { p });
    case "beor.draw":
      return t(key, { n: e.turns });
    case "death.threw":
    case "death.passed":
    case "death.last_card":
      return t(key, { p, card });
    case "death.drank":
    case "death.penalty":
    case "death.hand_penalty": {
      const sober = (table.frame.view.sober || []).includes(e.seat);
      const who = t(sober ? "ev.death.points" : "ev.death.drinks", { p, n: e.drinks });
      const why = e.why ? t(`why.${e.why}`, { card, other: e.other ? pretty(e.other) : "", n: e.drinks }) : e.reason;
      return `${who}: ${why}`;
    }
    case "death.owes_give":
      return t(key, { p, n: e.drinks, card });
    case "death.social":
      return t(key, {});
    case "death.gave":
      return t(key, { p, n: e.drinks, to: table.name(e.to) });
    case "death.swept":
      return t(e.why === "all_pass" ? "ev.death.swept_pass" : "ev.death.swept_ace", { p: table.name(e.leader) });
    case "death.ended":
      return e.why === "ace" ? t("ev.death.ended_ace", { p: table.name(e.seat) })
        : t("ev.death.ended_first_out", { p: table.name(e.seat) });
    case "beggar.turned":
      return t(key, { p, card });
    case "beggar.owes":
      return t(key, { p, n: e.cards });
    case "beggar.out":
    case "beggar.won":
      return t(key, { p });
    case "beggar.captured":
      return t(key, { p, n: e.cards });
    case "beggar.loop":
      return t(key, { n: e.length_cards, tricks: e.length_tricks });
    case "beggar.limit":
      return t(key, { n: e.cards, names: names(e.winners || [], table) });
    default:
      return has(key) ? t(key, { p, card }) : e.text;
  }
}
