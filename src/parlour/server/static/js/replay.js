// The replay of a finished deal at "/r/ROOM/replay/DEAL[?seat=S]": the deal step by step (the
// deal, each move, each table entry) as one seat saw it, as a spectator saw it, or with every card
// shown, drawn by the game's own board module from the frames the server sends
// (GET /api/rooms/ROOM/replay); beside it the expert's review (review.js).
// Hooks for tests and tools: #replay[data-step][data-steps][data-seat][data-game][data-deal];
// #replay-first, #replay-back, #replay-forward, #replay-last, #replay-slider, #replay-seat;
// ← and → step, Home and End jump (anywhere on the page but in a text field or a list).

import { $, $$, announce, h, showError } from "./dom.js";
import { cardEl } from "./cards.js";
import { t } from "./i18n.js";
import { entryWords } from "./words.js";
import { loadGame } from "./games.js";
import { myRooms } from "./myrooms.js";
import { createReview } from "./review.js";

const ALL = "all";
const SPECTATOR = "spectator";
const LOG_SHOWN = 300;

export async function openReplay(root, roomId, deal) {
  const query = new URLSearchParams(location.search);
  const held = myRooms().find((r) => r.room === roomId);
  let chosen = query.get("seat");
  if (chosen === null) chosen = held ? String(held.seat) : ALL;
  const replay = new Replay(root, roomId, deal, held);
  await replay.choose(chosen);
  return replay;
}

class Replay {
  constructor(root, roomId, deal, held) {
    this.root = root;
    this.roomId = roomId;
    this.deal = deal;
    this.held = held;
    this.cache = new Map(); // seat choice -> the server's answer
    this.data = null;
    this.seatKey = ALL;
    this.k = 0;
    this.ui = {};
    this.said = [];
    this.game = null;
    this.review = null;
    this.el = h("section#replay.replay", { "aria-labelledby": "replay-title", "data-deal": deal });
    this.el.append(h("p.connecting", { text: t("replay.loading") }));
    root.append(this.el);
    document.addEventListener("keydown", (event) => this.key(event));
  }

  async fetchSeat(key) {
    if (this.cache.has(key)) return this.cache.get(key);
    const seat = key === SPECTATOR ? "" : `&seat=${encodeURIComponent(key)}`;
    const url = `/api/rooms/${encodeURIComponent(this.roomId)}/replay?deal=${this.deal}${seat}`;
    const response = await fetch(url, { cache: "no-store" });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const code = body.error && body.error.code;
      const words = { not_over: "replay.not_over", not_found: "error.no_room" }[code];
      throw new Error(words ? t(words) : (body.error ? body.error.message : t("error.http", { status: response.status })));
    }
    this.cache.set(key, body);
    return body;
  }

  /** Show the deal from `key`'s view (a seat number, "spectator" or "all"), at the same step. */
  async choose(key) {
    let data;
    try {
      data = await this.fetchSeat(key);
    } catch (err) {
      if (key !== ALL && !this.data) return this.choose(ALL); // a seat this room has not
      showError(String(err.message || err));
      if (!this.data) { this.el.textContent = ""; this.el.append(h("p", {}, h("a", { href: "/", text: t("table.to_lobby") }))); }
      return undefined;
    }
    if (!this.game) this.game = await loadGame(data.game);
    const first = !this.data;
    this.data = data;
    this.seatKey = key;
    const url = new URL(location.href);
    if (key === ALL) url.searchParams.delete("seat"); else url.searchParams.set("seat", key);
    history.replaceState(null, "", url.pathname + url.search);
    if (first) this.k = data.steps.length - 1;
    this.k = Math.min(this.k, data.steps.length - 1);
    this.build();
    return undefined;
  }

  // -- words -----------------------------------------------------------------------------------

  name(seat) {
    const s = this.data && this.data.seats[seat];
    return s ? s.name : t("player", { n: seat + 1 });
  }

  seatLabel(seat) {
    const player = t("player", { n: seat + 1 });
    const name = this.name(seat);
    return name === player ? player : t("replay.seat_option", { player, name });
  }

  title() {
    const words = this.game.words;
    return words.has("game.title") ? words.w("game.title") : this.game.info.title;
  }

  seatNumber() {
    return this.seatKey === ALL || this.seatKey === SPECTATOR ? null : Number(this.seatKey);
  }

  /** What the board's functions get, as a table gives them, for step `k` (nothing to play). */
  context(k) {
    const d = this.data;
    const step = d.steps[k];
    const seat = this.seatNumber();
    const log = [];
    for (let i = 0; i <= k; i++) log.push(...d.steps[i].log);
    const frame = {
      type: "replay", room: d.room, game: d.game, deal: d.deal, v: k, seat,
      seats: d.seats, to_move: step.to_move, over: step.over, outcome: step.outcome,
      view: step.view, legal: [], log: step.log, proposals: [], rematch: [], match: null, clock: null,
    };
    const words = this.game.words;
    const table = { roomId: this.roomId, frame, records: {} };
    return {
      table, frame, view: step.view, legal: [], seat, myTurn: false, fresh: step.log, log,
      ui: this.ui, board: this.game.board, words, w: words.w, has: words.has,
      name: (s) => this.name(s), act: () => {}, enter: () => {}, rerender: () => this.show(this.k),
    };
  }

  /** The words of each log entry up to step `k`, each step's put into words once (a step's
   * words do not change with the step shown; a new seat or language starts again: build). */
  logWords(k, ctx) {
    const out = [];
    for (let i = 0; i <= k; i++) {
      if (!this.said[i]) this.said[i] = this.data.steps[i].log.map((entry) => entryWords(entry, ctx));
      out.push(...this.said[i]);
    }
    return out;
  }

  stepWords(k, ctx) {
    const step = this.data.steps[k];
    this.logWords(k, ctx);
    const said = this.said[k].flat().filter(Boolean);
    if (said.length) return said.join(" · ");
    if (step.kind === "deal") return t("replay.dealt");
    return step.text || "";
  }

  // -- drawing ---------------------------------------------------------------------------------

  /** The page around the steps: title, controls, seat choice, review (once a seat is chosen). */
  build() {
    const d = this.data;
    const n = d.steps.length;
    const focused = document.activeElement && this.el.contains(document.activeElement)
      ? document.activeElement.id : null;
    this.el.textContent = "";
    this.said = [];
    this.el.dataset.game = d.game;
    this.el.dataset.steps = String(n);
    const back = this.held ? this.held.link : `/r/${encodeURIComponent(this.roomId)}`;
    const slider = h("input#replay-slider", { type: "range", min: 0, max: n - 1, step: 1, value: this.k,
      "aria-label": t("replay.step") });
    slider.addEventListener("input", () => this.show(Number(slider.value)));
    const seats = h("select#replay-seat", {},
      h("option", { value: ALL, text: t("replay.every_card") }),
      d.seats.map((s) => h("option", { value: String(s.seat), text: this.seatLabel(s.seat) })),
      h("option", { value: SPECTATOR, text: t("replay.spectator") }));
    seats.value = this.seatKey;
    seats.addEventListener("change", () => this.choose(seats.value));
    const button = (id, text, label, go) => h(`button#${id}.secondary`, { type: "button",
      "aria-label": label, onclick: () => this.show(go()) }, text);
    this.el.append(
      h("div.table-head", {},
        h("h1", { id: "replay-title" }, t("replay.title", { game: this.title(), deal: d.deal + 1 }), " ",
          h("span.room", { text: t("table.room", { room: this.roomId }) })),
        h("p.row", {}, h("a", { href: back, text: t("replay.to_room") }),
          h("a", { href: "/", text: t("table.to_lobby") }))),
      h("div.replay-controls", { role: "group", "aria-label": t("replay.controls") },
        h("label.field", {}, h("span", { text: t("replay.seen_by") }), seats),
        h("div.row.replay-buttons", {},
          button("replay-first", "«", t("replay.first"), () => 0),
          button("replay-back", "◀", t("replay.back"), () => this.k - 1),
          button("replay-forward", "▶", t("replay.forward"), () => this.k + 1),
          button("replay-last", "»", t("replay.last"), () => n - 1),
          h("span#replay-where.replay-where", { "aria-live": "polite" })),
        slider,
        h("p.small", { text: t("replay.keys") })),
      h("div.main-col", {}, h("p#replay-line.replay-line"), h("div#replay-board")),
      h("div.side-col", {},
        this.reviewPanel(),
        h("section.log-area", { "aria-labelledby": "log-title" },
          h("h2", { id: "log-title", text: t("table.log") }),
          h("ol#log.log", { tabindex: "0", "aria-label": t("table.log") }))));
    this.show(this.k);
    if (focused) { const el = document.getElementById(focused); if (el) el.focus(); }
  }

  reviewPanel() {
    if (!this.review) {
      this.review = createReview({ roomId: this.roomId, deal: this.deal,
        name: (s) => this.name(s), jump: (k) => this.show(k) });
    }
    this.review.setSteps(this.data.steps);
    return this.review.el;
  }

  /** Step `k` (clamped): the board, the seat's hand, the line of that step, the log so far. */
  show(k) {
    const d = this.data;
    const n = d.steps.length;
    this.k = Math.max(0, Math.min(n - 1, Number.isFinite(k) ? k : 0));
    const k0 = this.k;
    const step = d.steps[k0];
    const ctx = this.context(k0);
    const board = ctx.board;
    this.el.dataset.step = String(k0);
    this.el.dataset.seat = this.seatKey;
    const slider = $("#replay-slider", this.el);
    slider.value = String(k0);
    slider.setAttribute("aria-valuetext", t("replay.where", { k: k0 + 1, n }));
    $("#replay-where", this.el).textContent = t("replay.where", { k: k0 + 1, n });
    $("#replay-first", this.el).disabled = k0 === 0;
    $("#replay-back", this.el).disabled = k0 === 0;
    $("#replay-forward", this.el).disabled = k0 === n - 1;
    $("#replay-last", this.el).disabled = k0 === n - 1;
    const line = this.stepWords(k0, ctx);
    $("#replay-line", this.el).textContent = line;
    const status = step.over ? board.outcomeWords(step.outcome || {}, ctx)
      : step.to_move === null || step.to_move === undefined ? "" : t("table.turn_of", { name: this.name(step.to_move) });
    document.title = t("replay.title_tab", { game: this.title(), deal: d.deal + 1 });
    const controls = this.seatKey === ALL ? everyCard(this, k0, ctx) : frozen(board.controls(ctx));
    $("#replay-board", this.el).replaceChildren(
      h("p#status.status", { text: status }),
      h("section.seats-area", { "aria-label": t("table.players") }, seatList(ctx, step)),
      board.board(ctx),
      controls);
    const log = $("#log", this.el);
    const skipped = Math.max(0, ctx.log.length - LOG_SHOWN); // the latest entries, as at the table
    log.replaceChildren(...[
      skipped ? h("li.earlier", { text: t("table.earlier", { n: skipped }) }) : null,
      ...this.logWords(k0, ctx).slice(skipped).map((words) => (words.length
        ? h("li", {}, words.map((w) => h("span", { text: w }))) : null)),
    ].filter(Boolean));
    log.scrollTop = log.scrollHeight;
    if (this.review) this.review.show(k0);
    return line;
  }

  key(event) {
    if (!this.data || !this.el.isConnected || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    const tag = target && target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "range")) return;
    if (tag === "INPUT" && target.id === "replay-slider") return; // the slider steps itself
    const n = this.data.steps.length;
    const go = { ArrowRight: this.k + 1, ArrowLeft: this.k - 1, Home: 0, End: n - 1 }[event.key];
    if (go === undefined) return;
    if (target && target.closest && target.closest("[data-hand]") && (event.key === "Home" || event.key === "End")) return;
    event.preventDefault();
    const said = this.show(go);
    if (said) announce(said);
  }

  relabel() {
    if (this.data) {
      if (this.review) this.review.relabel();
      this.build();
    }
  }
}

function seatList(ctx, step) {
  return h("ul#seat-list.seat-list", {}, ctx.frame.seats.map((s) => h("li.seat", {
    class: `seat${s.seat === step.to_move && !step.over ? " to-move" : ""}${s.seat === ctx.seat ? " me" : ""}`,
    "data-player": s.seat },
  h("span.seat-name", { text: s.name }),
  h("span.seat-kind", { text: t(`kind.${s.kind}`) }),
  (ctx.board.seatFacts(ctx, s.seat) || []).map((x) => (x instanceof Node ? x : h("span.fact", { text: x }))))));
}

/** A seat's controls as a picture: its hand is shown, nothing in it can be pressed. */
function frozen(el) {
  if (!el) return null;
  for (const c of $$("button, input, select, textarea", el)) {
    c.disabled = true;
    c.removeAttribute("data-action");
    c.removeAttribute("data-table");
  }
  return el;
}

/** Every card at step `k`: the whole position the server sent (each step: what it changed), its
 * hands by player and, where the game has them, its stocks (a key "stocks" of piles with "cards"). */
function everyCard(replay, k, ctx) {
  const whole = {};
  for (let i = 0; i <= k; i++) Object.assign(whole, replay.data.steps[i].full || {});
  const cards = (list) => (list.length ? list.map((c) => cardEl(c, { extra: "mini" }))
    : h("span.small", { text: t("replay.no_cards") }));
  const parts = [];
  if (Array.isArray(whole.hands)) {
    whole.hands.forEach((hand, seat) => parts.push(h("div.every-hand", { "data-hand-of": seat },
      h("h3", { text: replay.name(seat) }), h("div.known-hand", {}, cards(hand)))));
  }
  if (whole.stocks && typeof whole.stocks === "object") {
    for (const [name, stock] of Object.entries(whole.stocks)) {
      if (!stock || !Array.isArray(stock.cards)) continue;
      const label = ctx.has(`ui.base.${name}`) ? ctx.w(`ui.base.${name}`) : name;
      parts.push(h("div.every-stock", { "data-stock-of": name },
        h("h3", { text: t("replay.stock", { name: label }) }), h("div.known-hand", {}, cards(stock.cards))));
    }
  }
  return h("section#every-card.every-card", { "aria-labelledby": "every-card-title" },
    h("h2", { id: "every-card-title", text: t("replay.every_card") }), parts);
}
