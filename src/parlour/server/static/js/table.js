// A table: one seat's socket to the room, and the page drawn from that seat's view only.
// Hooks for tests and tools: #table[data-v][data-seat][data-game]; face-up cards [data-card];
// every move the seat can make now a button[data-action]; the end screen [data-outcome]; a room
// with an agreed time shows its countdown in #clock[data-left][data-running] (whole seconds
// left), ticking here between frames from the time left that each frame carries.
// The game's board is a module the table loads with import() from the address the registry
// gives (games.js); it draws the board, the seat's controls and the game's words (see plain.js
// for the functions a board may export, each with the plain board's as its default).
// The table's other parts: its socket (connection.js), the clock (clock.js), the seats
// (seats.js), the toolbar's sheets (sheets.js), the votes and the notation box (dock.js); a
// drawing keeps the parts that did not change (redraw.js).

import { $, announce, h, showError } from "./dom.js";
import { t } from "./i18n.js";
import { entryWords, refusalWords } from "./words.js";
import { endScreen, fetchSeed } from "./end.js";
import { loadGame } from "./games.js";
import * as motion from "./motion.js";
import { rememberFocus, rememberPlaces, restoreFocus, restorePlaces } from "./kit.js";
import { arrange, boardSheets, reachable, settle } from "./screen.js";
import { forgetToken, openConnection } from "./connection.js";
import { clockLine, timeUp } from "./clock.js";
import { seatList } from "./seats.js";
import { notationForm, proposals } from "./dock.js";
import { beep, tableSheets } from "./sheets.js";
import { redraw, steady } from "./redraw.js";

/** The table of room `roomId` in `root`, over `connection` (connection.js: app.js opens it
 * before this module is loaded; one is opened here without it). The game's board starts
 * loading at once when the page names the game (#app[data-game], written by the server). */
export function openTable(root, roomId, connection = openConnection(roomId)) {
  // The table is one screen: the page does not scroll, its parts do (app.css, "Table").
  document.body.classList.add("at-table");
  const table = new Table(root, roomId, connection);
  if (root.dataset.game) table.useGame(root.dataset.game);
  // What the socket holds is drawn once the caller has its table (app.js watches it first).
  queueMicrotask(() => connection.listen(table));
  // Back on the network (or back in the tab after a phone slept): reconnect now, not later.
  const revive = () => table.revive();
  window.addEventListener("online", revive);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) revive(); });
  return table;
}

class Table {
  constructor(root, roomId, connection) {
    this.root = root;
    this.roomId = roomId;
    this.connection = connection;
    this.token = connection.token;
    this.frame = null;
    this.log = [];
    this.fresh = [];
    this.pending = null;
    this.entering = null; // { id, entry, tries }: the table entry in flight (enter)
    this.sound = localStorage.getItem("parlour.sound") === "1";
    this.records = {};
    this.ui = {}; // board modules keep their open menus and dialogs here
    // What a person opened or scrolled (sheets, <details>, the board, the log), put back after
    // every drawing (kit.js rememberPlaces): kept across deals, unlike this.ui.
    this.places = null;
    this.game = null; // { info, board, words } once loaded
    this.gameName = null; // the game loading or loaded
    this.clockAt = 0; // Date.now() when the frame's clock was received (clock.js)
    this.clockTimer = 0;
    this.logSheet = null; // the log's sheet, kept across drawings (sheets.js)
    this.rulesSheet = null; // { key, el }: the rules' sheet for a game and language (sheets.js)
    this.nav = null; // the toolbar of sheets, kept across drawings
    this.el = h("div#table", { "data-v": "", "data-seat": this.token ? "" : "spectator" });
    root.append(this.el);
    this.el.append(h("p.connecting", { text: t("table.connecting") }));
  }

  // -- the socket (connection.js) ---------------------------------------------------------------

  /** The room's version this page has drawn: a hello on a new socket asks for what came since. */
  version() {
    return this.frame ? this.frame.v : 0;
  }

  closed(event) {
    this.pending = null;
    this.entering = null;
    const fatal = {
      4401: "error.bad_link",
      4403: "error.origin",
      4404: "error.no_room",
      4410: "error.room_broken",
    };
    if (fatal[event.code]) {
      this.connection.closedForGood = true;
      if (event.code === 4401) forgetToken(this.roomId);
      showError(t(fatal[event.code]));
      const error = $("#error");
      if (error && this.el.contains(error)) document.body.insertBefore(error, $("#announce"));
      document.body.classList.remove("at-table");
      this.el.textContent = "";
      this.el.append(h("p", {}, h("a", { href: "/", text: t("table.to_lobby") })));
      return;
    }
    // A lost network or a restarting server: try again, more slowly each time (at most 10 s).
    this.setBanner(t("table.reconnecting"));
    this.connection.later();
  }

  revive() {
    this.connection.revive();
  }

  receive(msg, now = false) {
    // Every frame waits while the cards of the one before travel (motion.js): never ahead.
    if (!now) return motion.arrive(msg, (m) => this.receive(m, true));
    if (msg.type === "welcome" || msg.type === "update") {
      this.setBanner("");
      const newDeal = !this.frame || msg.type === "welcome" || msg.deal !== this.frame.deal;
      const previous = this.frame;
      this.log = newDeal ? msg.log : this.log.concat(msg.log);
      this.fresh = msg.type === "update" ? msg.log : [];
      this.frame = msg;
      this.clockAt = Date.now();
      if (newDeal && previous && msg.deal !== previous.deal) this.ui = {};
      this.pending = null;
      if (this.gameName !== msg.game) this.useGame(msg.game);
      if (this.fresh.length && this.game) this.tell(this.fresh, previous);
      this.render();
      if (this.actedAt) { // from this seat's move to the page showing it: "parlour move"
        performance.measure("parlour move", { start: this.actedAt });
        this.actedAt = 0;
      }
      if (msg.over && !msg.abandoned) this.fetchRecord(msg.deal);
    } else if (msg.type === "seats" && this.frame) {
      this.frame = { ...this.frame, seats: msg.seats };
      this.renderSeats();
    } else if (msg.type === "reject") {
      this.pending = null;
      if (this.enterAgain(msg)) return;
      // The rules' refusal in the game's words for the frame's key (the server's English
      // message without one), after what kind of refusal it is, in the chosen language.
      // Said next to the hand (#error sits in the dock), naming the players by their names.
      if (msg.code !== "stale") {
        showError(refusalWords(msg, this.game && this.game.words, (s) => this.seatName(s)));
      }
      if (msg.code === "unauthorized" && !this.frame) {
        showError(t("error.bad_link"));
      }
    } else if (msg.type === "ack") {
      if (this.entering && this.entering.id === msg.id) this.entering = null;
      showError("");
    }
  }

  /** Load game `name`'s board and words (games.js); the table is drawn once they are here. */
  useGame(name) {
    this.gameName = name;
    this.game = null;
    loadGame(name).then((game) => {
      if (this.gameName !== name) return;
      performance.mark("parlour board"); // its board and words are here (bench_pages)
      this.game = game;
      this.render();
    }).catch((err) => {
      if (this.gameName === name) this.gameName = null; // the next frame tries again
      showError(t("error.load", { why: String(err && err.message ? err.message : err) }));
    });
  }

  send(frame) {
    if (this.connection.send(frame)) return true;
    showError(t("table.offline"));
    return false;
  }

  /** Play `action` (notation) for this seat; the request's id, or null when nothing was sent. */
  act(action) {
    // Nothing is sent once the game is over or its time is up (a timer, such as a board's
    // automatic play, may still fire after the end).
    if (this.pending || !this.frame || this.frame.over || timeUp(this)) return null;
    const id = `a${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    if (!this.send({ type: "act", id, v: this.frame.v, action })) return null;
    this.pending = id;
    this.actedAt = performance.now();
    return id;
  }

  /** Make the table entry `entry` (a penalty, G13) for this seat. Unlike a move it does not
   * answer the position, so one the room refuses as stale (the room had moved on while the newer
   * frame waited behind the cards still travelling here) is sent again at the version now drawn,
   * at most three times, instead of being lost without a word. */
  enter(entry, tries = 1) {
    const id = this.act(entry);
    this.entering = id ? { id, entry, tries } : null;
  }

  /** A stale refusal of the table entry in flight: send it again (see enter); true if sent. */
  enterAgain(msg) {
    const again = this.entering;
    this.entering = null;
    if (!again || again.id !== msg.id || msg.code !== "stale" || again.tries >= 3) return false;
    this.enter(again.entry, again.tries + 1);
    return this.entering !== null;
  }

  vote(proposal, yes) {
    this.send({ type: "vote", id: `v${Date.now().toString(36)}`, proposal, yes });
  }

  rematch() {
    this.send({ type: "rematch", id: `r${Date.now().toString(36)}` });
  }

  // -- words -----------------------------------------------------------------------------------

  name(seat) {
    const s = this.frame && this.frame.seats[seat];
    return s ? s.name : t("player", { n: seat + 1 });
  }

  /** The name of `seat`, or null for no seat of this room (refusals name seats by number). */
  seatName(seat) {
    const s = this.frame && this.frame.seats[seat];
    return s ? s.name : null;
  }

  words(entry) {
    return entryWords(entry, this.context());
  }

  /** What a board's functions get: the frame and view, the seat, its legal moves, the game's
   * words (w, has), and the table's verbs (act, enter: a table entry, rerender, name). */
  context() {
    const f = this.frame;
    const words = this.game.words;
    return {
      table: this, frame: f, view: f.view, legal: f.legal || [], seat: f.seat,
      myTurn: f.seat !== null && f.to_move === f.seat && !f.over,
      fresh: this.fresh, log: this.log, ui: this.ui, board: this.game.board, words,
      w: words.w, has: words.has, name: (s) => this.name(s),
      act: (a) => this.act(a), enter: (e) => this.enter(e), rerender: () => this.render(),
    };
  }

  title() {
    const words = this.game.words;
    return words.has("game.title") ? words.w("game.title") : this.game.info.title;
  }

  tell(entries, previous) {
    const mine = this.frame.seat;
    for (const entry of entries) {
      if (entry.seat === mine && entry.kind === "action") continue;
      const text = this.words(entry).join(" ");
      if (text) announce(text);
    }
    // The sound, where chosen, once a turn: when the turn comes to this seat, not at every update.
    const mineIn = (f) => Boolean(f) && mine !== null && f.to_move === mine && !f.over;
    if (this.sound && mineIn(this.frame) && !mineIn(previous)) beep();
  }

  // -- drawing ---------------------------------------------------------------------------------

  setBanner(text) {
    let banner = $("#banner");
    if (!banner) {
      banner = h("p#banner.banner", { role: "status" });
      this.root.prepend(banner);
    }
    banner.textContent = text;
    banner.hidden = !text;
  }

  relabel() {
    if (this.frame) this.render();
  }

  render() {
    if (!this.frame || !this.game) return;
    const began = performance.now(); // each drawing is a "parlour render" performance measure
    const f = this.frame;
    const ctx = this.context();
    const board = ctx.board;
    const focus = rememberFocus(this.el);
    const before = motion.snapshot(this.el); // where the cards were seen: they travel from there
    this.places = rememberPlaces(this.el, this.places);
    const error = document.getElementById("error"); // it may sit in the dock: kept, moved again
    this.el.dataset.v = String(f.v);
    this.el.dataset.seat = f.seat === null ? "spectator" : String(f.seat);
    this.el.dataset.game = f.game;
    this.el.classList.toggle("my-turn", ctx.myTurn);
    const status = this.statusText();
    document.title = `${ctx.myTurn ? "● " : ""}${status} · ${this.title()} · Parlour`;
    // One screen (app.css, "Table"): the head (whose turn, the clock), the toolbar of sheets,
    // the seats, the board (it scrolls in itself when it must), the dock at the bottom (the
    // refusal next to the hand, votes, the seat's controls, the notation box); the log, the
    // rules, the settings and the board's own sheets (table penalties) open from the toolbar
    // (a side column on a wide screen).
    // Only what changed is put in anew (redraw.js): the head, the seats and the table's own
    // sheets stay as they are when they are the same; the log only grows.
    const controls = board.controls(ctx);
    const dock = h("div.dock", { "data-keep-scroll": "dock" },
      proposals(this, ctx),
      controls,
      f.seat !== null && !f.over ? notationForm(this, ctx) : null);
    const sheets = [...tableSheets(this, ctx), ...boardSheets(controls)];
    this.nav = this.nav || h("nav.sheets");
    this.nav.setAttribute("aria-label", t("table.sheets"));
    redraw(this.el, [
      steady(h("div.table-head", {},
        h("h1", {}, this.title(), " ", h("span.room", { text: t("table.room", { room: this.roomId }) })),
        h("p#status.status", { text: status }),
        clockLine(this))),
      this.nav,
      steady(h("section.seats-area", { "aria-label": t("table.players") }, seatList(ctx))),
      h("div.table-middle", { "data-keep-scroll": "middle", role: "group", "aria-label": t("table.board") },
        board.board(ctx),
        f.abandoned ? abandonedNote() : f.over ? endScreen(this, ctx) : null),
      dock,
    ]);
    redraw(this.nav, sheets);
    // The refusal of a move is said where the finger is: #error (role=alert) sits at the top of
    // the dock, above the hand.
    if (error) dock.prepend(error);
    arrange(this.el, dock);
    restorePlaces(this.el, this.places);
    restoreFocus(this.el, focus); // before settle's writes: the layout it needs is still fresh
    settle(this.el);
    motion.play(this.el, before, this.fresh);
    performance.measure("parlour render", { start: began });
  }

  renderSeats() {
    const list = $("#seat-list", this.el);
    if (!list || !this.frame || !this.game) return;
    const left = list.scrollLeft;
    const fresh = seatList(this.context());
    list.replaceWith(fresh);
    fresh.scrollLeft = left;
    reachable(this.el);
  }

  statusText() {
    const f = this.frame;
    if (f.abandoned) return t("table.abandoned");
    if (f.over) return t("table.over");
    if (f.to_move === null || f.to_move === undefined) return "";
    if (f.seat !== null && f.to_move === f.seat) return t("table.your_turn");
    return t("table.turn_of", { name: this.name(f.to_move) });
  }

  async fetchRecord(deal) {
    if (this.records[deal]) return;
    this.records[deal] = null;
    try {
      const entry = await fetchSeed(this.roomId, deal, this.frame.commitment);
      if (!entry) { delete this.records[deal]; return; }
      this.records[deal] = entry;
      if (this.frame.deal === deal) this.render();
    } catch {
      delete this.records[deal];
    }
  }
}

/** In place of the end screen: an abandoned room (nobody came for days) ended unfinished. */
function abandonedNote() {
  return h("section#end.end", { "data-outcome": "abandoned" },
    h("p.result", { text: t("table.abandoned_note") }));
}
