// The toolbar's sheets of a table (screen.js places them): the log, the rules, the settings and
// the match so far. Each is a <details> whose summary is the toolbar's button. The log's sheet
// is kept from one drawing to the next: each new entry is put into words and added once (a
// long game logs thousands: the latest LOG_SHOWN are shown, the record has all), and the list
// is made again only for a new deal, a new language or a log that did not simply grow.

import { h } from "./dom.js";
import { isFourColour, setFourColour } from "./cards.js";
import { language, t } from "./i18n.js";
import { entryWords } from "./words.js";
import { rulesBody } from "./rules.js";
import { matchTable } from "./end.js";
import { wasOpen } from "./kit.js";
import { narrow, sheetBody } from "./screen.js";
import { steady } from "./redraw.js";

const LOG_SHOWN = 300;

/** A sheet of the toolbar: a <details> whose summary is the toolbar's button and whose body
 * is a bottom sheet on a phone, a panel of the side column on a wide screen; `short` is the
 * button's word on a phone where `label` is long. Open as a person left it (table.places). */
function sheet(table, name, label, body, { open = false, short = null } = {}) {
  return h("details.sheet", { class: `sheet-${name} ${name}`, "data-sheet": name,
    open: wasOpen(table.places, `sheet:${name}`, open) },
    h("summary", { id: `sheet-${name}` }, short
      ? [h("span.wide-only", { text: label }), h("span.narrow-only", { text: short })] : label),
    sheetBody(name, label, body));
}

/** The table's own sheets, in the toolbar's order (the board's own follow them). */
export function tableSheets(table, ctx) {
  if (!table.logSheet) table.logSheet = new LogSheet(table);
  return [table.logSheet.update(ctx), rulesSheet(table, ctx),
    steady(sheet(table, "settings", t("table.settings"), settings(table, ctx))),
    steady(matchSheet(table, ctx.frame))];
}

/** The log's sheet, #log, kept across drawings (see the head of this file). */
class LogSheet {
  constructor(table) {
    this.table = table;
    this.el = null;
    this.list = null;
    this.earlier = null; // the line saying how many earlier entries are not shown
    this.drawn = []; // [index in the log, its li]
    this.count = 0; // entries of the log drawn (or found to have no words)
    this.last = undefined; // the last of them
    this.key = "";
  }

  /** The sheet, its list brought up to the table's log. */
  update(ctx) {
    const log = this.table.log;
    const key = `${language()} ${ctx.frame.deal} ${ctx.frame.seat}`;
    const grew = this.el && key === this.key && this.count <= log.length
      && (this.count === 0 || log[this.count - 1] === this.last);
    if (!grew) this.make(key);
    for (let i = this.count; i < log.length; i++) {
      const words = entryWords(log[i], ctx);
      if (!words.length) continue;
      const li = h("li", { class: log[i].seat === ctx.frame.seat ? "mine" : "" },
        words.map((w) => h("span", { text: w })));
      this.list.append(li);
      this.drawn.push([i, li]);
    }
    this.count = log.length;
    this.last = log[log.length - 1];
    const skipped = Math.max(0, log.length - LOG_SHOWN);
    while (this.drawn.length && this.drawn[0][0] < skipped) this.drawn.shift()[1].remove();
    if (skipped) {
      this.earlier = this.earlier || h("li.earlier");
      this.earlier.textContent = t("table.earlier", { n: skipped });
      if (this.list.firstChild !== this.earlier) this.list.prepend(this.earlier);
    } else if (this.earlier) {
      this.earlier.remove();
      this.earlier = null;
    }
    return this.el;
  }

  make(key) {
    const table = this.table;
    this.key = key;
    this.drawn = [];
    this.count = 0;
    this.last = undefined;
    this.earlier = null;
    // With no entry, app.css's .log:empty::before says data-empty ("Nothing has happened yet.").
    this.list = h("ol#log.log", { tabindex: "0", "aria-label": t("table.log"), "data-keep-scroll": "log",
      "data-keep-end": "", "data-empty": t("table.log_empty") });
    const el = sheet(table, "log", t("table.log"), this.list, { open: !narrow() });
    // Opened, it shows the latest entries (unless it was left scrolled back).
    el.addEventListener("toggle", () => {
      const was = table.places && table.places.scroll.log;
      if (el.open && (!was || was.end)) this.list.scrollTop = this.list.scrollHeight;
    });
    this.el = el;
  }
}

/** The game's rules, made once for each game and language (the same sheet stays). */
function rulesSheet(table, ctx) {
  const key = `${language()} ${ctx.frame.game}`;
  if (table.rulesSheet && table.rulesSheet.key === key) return table.rulesSheet.el;
  const rules = rulesBody(ctx.words);
  const el = rules && sheet(table, "rules", t("rules.title", { game: ctx.w("rules.title") }), rules,
    { short: t("table.rules") });
  table.rulesSheet = { key, el };
  return el;
}

/** The match so far while a later deal is played (at the end of a deal the end shows it). */
function matchSheet(table, f) {
  const match = f.over ? null : matchTable(f);
  return match && sheet(table, "match", t("end.match"), match, { short: t("table.match") });
}

function settings(table, ctx) {
  const four = h("input", { type: "checkbox", id: "four-colour", checked: isFourColour() });
  four.addEventListener("change", () => { setFourColour(four.checked); table.render(); });
  const sound = h("input", { type: "checkbox", id: "sound", checked: table.sound });
  sound.addEventListener("change", () => {
    table.sound = sound.checked;
    localStorage.setItem("parlour.sound", table.sound ? "1" : "0");
    if (table.sound) beep();
  });
  return h("div.settings", {},
    h("label.check", {}, four, h("span", { text: t("table.four_colour") })),
    h("label.check", {}, sound, h("span", { text: t("table.sound") })),
    ctx.board.settings ? ctx.board.settings(ctx) : null);
}

let audio = null;
/** The turn's sound: a short tone (no sound file). */
export function beep() {
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
