// A room's agreed time on its table: #clock[data-left][data-running] (whole seconds left),
// ticking here between frames from the time left that each frame carries (table.clockAt: when
// that frame was received).

import { $, h } from "./dom.js";
import { t } from "./i18n.js";

/** Seconds left on the room's clock now, counted down here since the frame; null without a
 * clock. */
export function clockLeft(table) {
  const clock = table.frame && table.frame.clock;
  if (!clock) return null;
  const running = clock.running && !table.frame.over;
  const spent = running ? Math.max(0, Date.now() - table.clockAt) / 1000 : 0;
  return Math.max(0, clock.left - spent);
}

/** Whether the room's time is up. */
export function timeUp(table) {
  const left = clockLeft(table);
  return left !== null && left <= 0 && table.frame.clock.started;
}

function clockText(table) {
  const clock = table.frame.clock;
  const left = Math.ceil(clockLeft(table) - 1e-6);
  if (!clock.started) return t("table.clock.agreed", { time: clockTime(clock.limit) });
  if (left <= 0) return t("table.clock.up");
  if (!clock.running && !table.frame.over) return t("table.clock.stopped", { time: clockTime(left) });
  return t("table.clock.left", { time: clockTime(left) });
}

/** The clock's line of the table's head (null without a clock), ticking while it runs. */
export function clockLine(table) {
  clearInterval(table.clockTimer);
  const clock = table.frame.clock;
  if (!clock) return null;
  const line = h("p#clock.clock", { role: "timer" });
  showClock(table, line);
  if (clock.running && !table.frame.over) {
    table.clockTimer = setInterval(() => {
      const el = $("#clock", table.el);
      if (el) showClock(table, el);
      if (timeUp(table)) clearInterval(table.clockTimer);
    }, 250);
  }
  return line;
}

function showClock(table, el) {
  const clock = table.frame.clock;
  const left = Math.max(0, Math.ceil(clockLeft(table) - 1e-6));
  el.textContent = clockText(table);
  el.dataset.left = String(left);
  el.dataset.running = String(clock.running && !table.frame.over && left > 0);
  el.classList.toggle("low", clock.started && left <= 60);
}

/** Seconds as a clock shows them: 4:05, or 1:02:09 from an hour on. */
function clockTime(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`;
}
