// The log in words, in the chosen language, from each event's data: the game's catalog has one
// key a kind, event.KIND; the board module may name another key (a variant) and supply values
// (eventWords). An event the catalog has no words for shows the server's English text.
// Notation is shown as it is. A reject frame says its refusal the same way (refusalWords).

import { has, language, t } from "./i18n.js";
import { pretty } from "./cards.js";

/** The sentences for one log entry, as the seat sees it. */
export function entryWords(entry, ctx) {
  const out = [];
  for (const event of entry.events || []) {
    const words = eventWords(event, ctx);
    if (words) out.push(words);
  }
  if (!out.length && entry.kind === "table" && entry.text) {
    out.push(t("ev.table", { name: entry.seat === null ? t("referee") : ctx.name(entry.seat), entry: entry.text }));
  }
  return out;
}

/** "Ana, Bob and Cy": the names of several seats. */
export function names(seats, ctx) {
  const parts = seats.map((s) => ctx.name(s));
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} ${t("and")} ${parts[parts.length - 1]}`;
}

/** The values every event offers its words: its plain data, {player} the name of its seat,
 * {card} its card as people write it. */
export function eventValues(e, ctx) {
  const values = {};
  for (const [key, value] of Object.entries(e)) {
    if (typeof value === "string" || typeof value === "number") values[key] = value;
  }
  if (typeof e.seat === "number") values.player = ctx.name(e.seat);
  if (typeof e.card === "string") values.card = pretty(e.card);
  return values;
}

function eventWords(e, ctx) {
  const spec = ctx.board.eventWords ? ctx.board.eventWords(e, ctx) : null;
  if (typeof spec === "string") return spec;
  const key = (spec && spec.key) || `event.${e.kind}`;
  if (!ctx.words.has(key)) return e.text || "";
  return ctx.words.w(key, { ...eventValues(e, ctx), ...((spec && spec.values) || {}) });
}

/** A reject frame in words: the game's sentence for the frame's key (a refusal of the rules)
 * in the chosen language, else the server's English message; after the kind of refusal
 * (`reject.CODE`) unless that says the same. Where the kind is a whole sentence ("It is not
 * your turn.") and the refusal has no words in a language other than English, the kind alone
 * is said, never an English detail after it. With `name` (a seat's number to its player's name,
 * null for no seat of the room), a seat the refusal names by its label ("Player 2", "{card} is
 * not in Player {player}'s hand") is named by its player's name instead. */
export function refusalWords(msg, words, name = null) {
  const keyed = Boolean(msg.key && words && words.has(msg.key));
  const said = keyed ? namedRefusal(words, msg.key, msg.values || {}, name) : namedMessage(msg.message || "", name);
  const kind = has(`reject.${msg.code}`) ? t(`reject.${msg.code}`) : "";
  if (!keyed && kind.endsWith(".") && language() !== "en") return kind;
  const same = kind.replace(/[:.]$/, "") === said.replace(/[:.]$/, "");
  return same || !kind ? said : `${kind} ${said}`;
}

const MARK = /\u0001(\w+)\u0002/g;

/** The game's sentence for a refusal, each "Player {player}" in it (the seat label of the
 * chosen language, or English's, in any of its forms: Romanian's "Jucătorului") the player's
 * name; a number that is no seat of the room stays a number. */
function namedRefusal(words, key, values, name) {
  if (!name) return words.w(key, values);
  const marked = { ...values };
  for (const [k, v] of Object.entries(values)) {
    if (k !== "count" && /^\d+$/.test(String(v))) marked[k] = `\u0001${k}\u0002`;
  }
  const label = t("player", { n: "" }).trim();
  const stems = [...new Set([label, "Player"])].map((w) => escapeRegExp(w.slice(0, Math.max(3, w.length - 2))));
  const seatWord = new RegExp(`(${stems.join("|")})(\\p{L}*)\\s+\u0001(\\w+)\u0002`, "gu");
  return words.w(key, marked)
    .replace(seatWord, (all, stem, rest, k) => {
      const who = name(Number(values[k]) - 1);
      if (who === null || who === undefined) return all;
      return `${stem}${rest}` === label || `${stem}${rest}` === "Player" ? who : t("table.seat_oblique", { name: who });
    })
    .replace(MARK, (all, k) => String(values[k]));
}

/** The server's English message with "Player 2" the name of that seat's player. */
function namedMessage(message, name) {
  if (!name) return message;
  return message.replace(/\bPlayer (\d+)\b/g, (all, n) => {
    const who = name(Number(n) - 1);
    return who === null || who === undefined ? all : who;
  });
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
