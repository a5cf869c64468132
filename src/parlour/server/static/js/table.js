// A table: one seat's socket to the room, and the page drawn from that seat's view only.
// Hooks for tests and tools: #table[data-v][data-seat][data-game]; face-up cards [data-card];
// every move the seat can make now a button[data-action]; the end screen [data-outcome]; a room
// with an agreed time shows its countdown in #clock[data-left][data-running] (whole seconds
// left), ticking here between frames from the time left that each frame carries.
// The game's board is a module the table loads with import() from the address the registry
// gives (games.js); it draws the board, the seat's controls and the game's words (see plain.js
// for the functions a board may export, each with the plain board's as its default).

import { $, announce, h, showError } from "./dom.js";
import { isFourColour, setFourColour } from "./cards.js";
import { t } from "./i18n.js";
import { entryWords, refusalWords } from "./words.js";
import { rulesBody } from "./rules.js";
import { endScreen, fetchSeed, matchTable } from "./end.js";
import { loadGame } from "./games.js";
import * as motion from "./motion.js";
import { rememberFocus, rememberPlaces, restoreFocus, restorePlaces, wasOpen } from "./kit.js";
import { arrange, boardSheets, narrow, reachable, settle, sheetBody } from "./screen.js";
import { forgetToken, openConnection } from "./connection.js";

const LOG_SHOWN = 300;

/** The table of room `roomId` in `root`, over `connection` (connection.js: app.js opens it
 * before this module is loaded; one is opened here without it). The game's board starts
 * loading at once when the page names the game (#app[data-game], written by the server). */
export function openTable(root, roomId, connection = openConnection(roomId)) {
  // The table is one screen: the page does not scroll, its parts do (app.css, "Table").
  document.body.classList.add("at-table");
  const table = new Table(root, roomId, connection);
  if (root.dataset.game) table.useGame(root.dataset.game);
  connection.listen(table);
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
    this.sound = localStorage.getItem("parlour.sound") === "1";
    this.records = {};
    this.ui = {}; // board modules keep their open menus and dialogs here
    // What a person opened or scrolled (sheets, <details>, the board, the log), put back after
    // every drawing (kit.js rememberPlaces): kept across deals, unlike this.ui.
    this.places = null;
    this.game = null; // { info, board, words } once loaded
    this.gameName = null; // the game loading or loaded
    this.clockAt = 0; // Date.now() when the frame's clock was received
    this.clockTimer = 0;
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
      showError("");
    }
  }

  /** Load game `name`'s board and words (games.js); the table is drawn once they are here. */
  useGame(name) {
    this.gameName = name;
    this.game = null;
    loadGame(name).then((game) => {
      if (this.gameName !== name) return;
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

  /** Play `action` (notation) for this seat. */
  act(action) {
    // Nothing is sent once the game is over or its time is up (a timer, such as a board's
    // automatic play, may still fire after the end).
    if (this.pending || !this.frame || this.frame.over || this.timeUp()) return;
    const id = `a${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    if (this.send({ type: "act", id, v: this.frame.v, action })) {
      this.pending = id;
      this.actedAt = performance.now();
    }
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
   * words (w, has), and the table's verbs (act, rerender, name). */
  context() {
    const f = this.frame;
    const words = this.game.words;
    return {
      table: this, frame: f, view: f.view, legal: f.legal || [], seat: f.seat,
      myTurn: f.seat !== null && f.to_move === f.seat && !f.over,
      fresh: this.fresh, log: this.log, ui: this.ui, board: this.game.board, words,
      w: words.w, has: words.has, name: (s) => this.name(s),
      act: (a) => this.act(a), rerender: () => this.render(),
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
    this.el.textContent = "";
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
    const controls = board.controls(ctx);
    const sheets = [this.logSheet(), this.rulesSheet(ctx), this.settingsSheet(ctx),
      this.matchSheet(f), ...boardSheets(controls)].filter(Boolean);
    const dock = h("div.dock", { "data-keep-scroll": "dock" },
      this.proposals(ctx),
      controls,
      f.seat !== null && !f.over ? this.notationForm(ctx) : null);
    this.el.append(
      h("div.table-head", {},
        h("h1", {}, this.title(), " ", h("span.room", { text: t("table.room", { room: this.roomId }) })),
        h("p#status.status", { text: status }),
        this.clockLine()),
      h("nav.sheets", { "aria-label": t("table.sheets") }, sheets),
      h("section.seats-area", { "aria-label": t("table.players") }, this.seatList(ctx)),
      h("div.table-middle", { "data-keep-scroll": "middle", role: "group", "aria-label": t("table.board") },
        board.board(ctx),
        f.abandoned ? abandonedNote() : f.over ? endScreen(this, ctx) : null),
      dock,
    );
    // The refusal of a move is said where the finger is: #error (role=alert) sits at the top of
    // the dock, above the hand.
    if (error) dock.prepend(error);
    arrange(this.el, dock);
    restorePlaces(this.el, this.places);
    settle(this.el);
    restoreFocus(this.el, focus);
    motion.play(this.el, before, this.fresh);
    performance.measure("parlour render", { start: began });
  }

  /** A sheet of the toolbar: a <details> whose summary is the toolbar's button and whose body
   * is a bottom sheet on a phone, a panel of the side column on a wide screen; `short` is the
   * button's word on a phone where `label` is long. */
  sheet(name, label, body, { open = false, short = null } = {}) {
    return h("details.sheet", { class: `sheet-${name} ${name}`, "data-sheet": name,
      open: wasOpen(this.places, `sheet:${name}`, open) },
      h("summary", { id: `sheet-${name}` }, short
        ? [h("span.wide-only", { text: label }), h("span.narrow-only", { text: short })] : label),
      sheetBody(name, label, body));
  }

  logSheet() {
    const sheet = this.sheet("log", t("table.log"), this.logList(), { open: !narrow() });
    // Opened, it shows the latest entries (unless it was left scrolled back).
    sheet.addEventListener("toggle", () => {
      const log = $("#log", sheet);
      const was = this.places && this.places.scroll.log;
      if (sheet.open && log && (!was || was.end)) log.scrollTop = log.scrollHeight;
    });
    return sheet;
  }

  rulesSheet(ctx) {
    const rules = rulesBody(ctx.words);
    if (!rules) return null;
    return this.sheet("rules", t("rules.title", { game: ctx.w("rules.title") }), rules,
      { short: t("table.rules") });
  }

  settingsSheet(ctx) {
    return this.sheet("settings", t("table.settings"), this.settings(ctx));
  }

  /** The match so far while a later deal is played (at the end of a deal the end shows it). */
  matchSheet(f) {
    const table = f.over ? null : matchTable(f);
    return table && this.sheet("match", t("end.match"), table, { short: t("table.match") });
  }

  // -- the agreed time -------------------------------------------------------------------------

  /** Seconds left on the room's clock now, counted down here since the frame; null without a
   * clock. */
  clockLeft() {
    const clock = this.frame && this.frame.clock;
    if (!clock) return null;
    const running = clock.running && !this.frame.over;
    const spent = running ? Math.max(0, Date.now() - this.clockAt) / 1000 : 0;
    return Math.max(0, clock.left - spent);
  }

  timeUp() {
    const left = this.clockLeft();
    return left !== null && left <= 0 && this.frame.clock.started;
  }

  clockText() {
    const clock = this.frame.clock;
    const left = Math.ceil(this.clockLeft() - 1e-6);
    if (!clock.started) return t("table.clock.agreed", { time: clockTime(clock.limit) });
    if (left <= 0) return t("table.clock.up");
    if (!clock.running && !this.frame.over) return t("table.clock.stopped", { time: clockTime(left) });
    return t("table.clock.left", { time: clockTime(left) });
  }

  clockLine() {
    clearInterval(this.clockTimer);
    const clock = this.frame.clock;
    if (!clock) return null;
    const line = h("p#clock.clock", { role: "timer" });
    this.showClock(line);
    if (clock.running && !this.frame.over) {
      this.clockTimer = setInterval(() => {
        const el = $("#clock", this.el);
        if (el) this.showClock(el);
        if (this.timeUp()) clearInterval(this.clockTimer);
      }, 250);
    }
    return line;
  }

  showClock(el) {
    const clock = this.frame.clock;
    const left = Math.max(0, Math.ceil(this.clockLeft() - 1e-6));
    el.textContent = this.clockText();
    el.dataset.left = String(left);
    el.dataset.running = String(clock.running && !this.frame.over && left > 0);
    el.classList.toggle("low", clock.started && left <= 60);
  }

  renderSeats() {
    const list = $("#seat-list", this.el);
    if (!list || !this.frame || !this.game) return;
    const left = list.scrollLeft;
    const fresh = this.seatList(this.context());
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

  seatList(ctx) {
    const f = this.frame;
    const items = f.seats.map((s) => {
      let kind;
      if (s.kind !== "person") kind = shortKind(t(`kind.${s.kind}`));
      else if (s.connected) kind = t("table.here");
      else if (s.stand_in) kind = t("table.stand_in", { name: s.name });
      else kind = t("table.away");
      const extra = ctx.board.seatFacts(ctx, s.seat) || [];
      const mover = s.seat === f.to_move && !f.over;
      return h("li.seat", {
        class: `seat${mover ? " to-move" : ""}${s.seat === f.seat ? " me" : ""}${s.stand_in ? " stand-in" : ""}`,
        "data-player": s.seat,
        title: s.kind !== "person" ? t(`kind.${s.kind}`) : null,
      },
      h("span.seat-name", {}, s.name,
        // "you" in words (the match table's ★ marks a winner, never this seat)
        s.seat === f.seat ? [" ", h("span.you-mark", { text: t("table.you") })] : null,
        mover ? h("span.sr-only", { text: ` (${t("table.to_move")})` }) : null),
      h("span.seat-facts", {}, h("span.seat-kind", { text: kind }),
        extra.map((x) => (x instanceof Node ? x : h("span.fact", { text: x })))));
    });
    return h("ul#seat-list.seat-list", { "data-keep-scroll": "seats" }, items);
  }

  logList() {
    // The latest entries (a long game logs thousands); the record has all.
    const items = [];
    const skipped = Math.max(0, this.log.length - LOG_SHOWN);
    if (skipped) items.push(h("li.earlier", { text: t("table.earlier", { n: skipped }) }));
    for (const entry of this.log.slice(skipped)) {
      const words = this.words(entry);
      if (!words.length) continue;
      items.push(h("li", { class: entry.seat === this.frame.seat ? "mine" : "" },
        words.map((w) => h("span", { text: w }))));
    }
    // With no entry, app.css's .log:empty::before says data-empty ("Nothing has happened yet.").
    return h("ol#log.log", { tabindex: "0", "aria-label": t("table.log"), "data-keep-scroll": "log",
      "data-keep-end": "", "data-empty": t("table.log_empty") }, items);
  }

  notationForm(ctx) {
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
      this.act(text);
    });
    return form;
  }

  proposals(ctx) {
    // A board with table entries may draw the votes itself, with how each one ended.
    if (ctx.board.proposals) return ctx.board.proposals(ctx);
    const f = this.frame;
    if (!f.proposals || !f.proposals.length) return null;
    return h("section.proposals", { "aria-label": t("table.proposals") },
      f.proposals.map((p) => {
        const can = f.seat !== null && p.target !== f.seat && p.by !== f.seat
          && !p.yes.includes(f.seat) && !p.no.includes(f.seat);
        return h("div.proposal", { "data-proposal": p.proposal },
          h("p", { text: t("table.proposal", { by: this.name(p.by), entry: proposalWords(p.entry, ctx) }) }),
          h("p.small", { text: t("table.votes", { yes: p.yes.length, no: p.no.length }) }),
          can ? h("div.row", {},
            h("button.secondary", { type: "button", "data-vote": "yes", onclick: () => this.vote(p.proposal, true), text: t("table.vote_yes") }),
            h("button.secondary", { type: "button", "data-vote": "no", onclick: () => this.vote(p.proposal, false), text: t("table.vote_no") })) : null);
      }));
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

  settings(ctx) {
    const four = h("input", { type: "checkbox", id: "four-colour", checked: isFourColour() });
    four.addEventListener("change", () => { setFourColour(four.checked); this.render(); });
    const sound = h("input", { type: "checkbox", id: "sound", checked: this.sound });
    sound.addEventListener("change", () => {
      this.sound = sound.checked;
      localStorage.setItem("parlour.sound", this.sound ? "1" : "0");
      if (this.sound) beep();
    });
    return h("div.settings", {},
      h("label.check", {}, four, h("span", { text: t("table.four_colour") })),
      h("label.check", {}, sound, h("span", { text: t("table.sound") })),
      ctx.board.settings ? ctx.board.settings(ctx) : null);
  }
}

/** "Bot: easy" of "Bot: easy (rules of thumb, careless)": a seat's kind in the strip. */
function shortKind(text) {
  return text.replace(/\s*\([^)]*\)\s*$/, "");
}

/** In place of the end screen: an abandoned room (nobody came for days) ended unfinished. */
function abandonedNote() {
  return h("section#end.end", { "data-outcome": "abandoned" },
    h("p.result", { text: t("table.abandoned_note") }));
}

/** Seconds as a clock shows them: 4:05, or 1:02:09 from an hour on. */
function clockTime(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`;
}

/** A table entry (a proposal) in the game's words, where its board words it. */
function proposalWords(entry, ctx) {
  return (ctx.board.tableEntryWords && ctx.board.tableEntryWords(entry, ctx)) || entry;
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // no audio on this device
  }
}

