// Motion: after each drawing of the table the face-up cards that changed place travel there from
// where the picture last showed them (a card from the hand to a base or the pile, a card drawn
// from a stock into the hand, a card another player threw from that player's seat, the pile to
// the player who takes it), each in at most 250 ms, with the Web Animations API.
//
// The queue (arrive): the socket's frames are handed to the table one at a time, each only once
// the cards of the one before have landed, so the page (the turn line, the counts, the log, the
// moves offered) is never a step ahead of a card still travelling: the table draws a frame when
// it gets it and the picture shows that version. More than CATCH_UP frames waiting, or the head
// waiting LATE_MS: the card in flight lands at once and the waiting frames are drawn together,
// their cards moving at once from where they are seen to the newest places, so a player is
// never much more than a second behind. This seat's own move (and a welcome) is drawn at once
// the same way: it never waits behind another player's cards. With reduced motion asked for,
// or the tab hidden, nothing waits and nothing moves: each frame is drawn when it comes.
//
// How (FLIP, keyed by [data-card]): before the table is drawn again, snapshot() records where
// each face-up card is on the screen and stops every move still running; after the drawing,
// play() starts, at the next frame, each card from its old place to its new one. Drawn twice
// before that frame (a catch-up), the cards start from the first picture. A card going to
// another part of the table is a copy moving over the page (the dock and the middle scroll and
// would cut a card off at their edge) while the card itself waits unseen in its new place.
//
// Where a card came from when it was not on the screen before: the events of the update say it
// (an event with a "stock" names the stock it was drawn from; otherwise the seat that moved, whose
// place is its [data-player] on the board or in the seats); a card with no known origin fades in.
// Cards that left the screen to a player (an event "captured" or "took" with a seat, or any event
// with a "taker") fly there as backs: where they go they are hidden.
//
// Hook for tests and tools: window.parlourMotion = { running, started, waiting } (moves running
// now, moves started since the page opened, frames waiting to be drawn) and
// <html data-moving="N">: N moves running, about to start or waiting.

import { backSvg } from "./cards.js";

const MAX_MS = 250;
const MIN_MS = 140;
const MANY = 12; // more new cards than this at once (a new deal, a hand revealed): no motion
const GHOSTS = 8; // at most this many backs fly to a taker
const TAKES = new Set(["captured", "took"]);
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const CATCH_UP = 3; // more frames than this waiting: drawn together at once
const LATE_MS = 1000; // nor does a frame wait longer than this (a slow or busy device)

const active = new Map(); // animation -> its end
const hook = { running: 0, started: 0, waiting: 0 };
let pending = null; // { before, fresh, frame } drawn but not yet played (the next frame plays it)
const queue = []; // { msg, hand, at }: frames waiting for the cards in flight to land
let pumping = false;
let soon = false;
let lateTimer = 0;

window.parlourMotion = hook;
mark();
document.addEventListener("visibilitychange", () => {
  if (document.hidden) pump(); // a hidden tab draws what waits at once
});

function mark() {
  hook.waiting = queue.length;
  document.documentElement.dataset.moving = String(hook.running + (pending ? 1 : 0) + queue.length);
}

function still() {
  return document.hidden || !Element.prototype.animate
    || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function busy() {
  return pending !== null || hook.running > 0;
}

/** A frame from the socket: `hand(msg)` gets it (the table draws it) once the cards of the
 * frames before have landed. Every frame goes through here, in order (a "seats" or a "reject"
 * waits behind the updates that came before it). */
export function arrive(msg, hand) {
  queue.push({ msg, hand, at: performance.now() });
  pump();
}

/** This seat's own move, or a welcome (a new start): drawn at once. */
function urgent(msg) {
  if (msg.type === "welcome") return true;
  if (msg.type !== "update" || msg.seat === null || msg.seat === undefined) return false;
  return (msg.log || []).some((e) => e.kind === "action" && e.seat === msg.seat);
}

function pump() {
  if (pumping) return;
  pumping = true;
  clearTimeout(lateTimer);
  try {
    while (queue.length) {
      let upTo = 0; // hand this many now, together
      if (still()) {
        upTo = queue.length;
      } else {
        let last = -1;
        queue.forEach((q, i) => { if (urgent(q.msg)) last = i; });
        if (last >= 0) upTo = last + 1;
        else if (queue.length > CATCH_UP || performance.now() - queue[0].at >= LATE_MS) upTo = queue.length;
        else if (!busy()) upTo = 1;
      }
      if (!upTo) break;
      if (upTo > 1 || busy()) land();
      for (const q of queue.splice(0, upTo)) {
        mark();
        try {
          q.hand(q.msg);
        } catch (err) {
          reportError(err);
        }
      }
      if (busy()) break;
    }
  } finally {
    pumping = false;
  }
  if (queue.length) lateTimer = setTimeout(pump, Math.max(0, queue[0].at + LATE_MS - performance.now()));
  mark();
}

/** Once the cards in flight have landed: the next frame (not inside a drawing). */
function later() {
  if (soon || !queue.length) return;
  soon = true;
  queueMicrotask(() => {
    soon = false;
    if (!busy()) pump();
  });
}

/** The cards in flight land now (the drawing not yet played is not played). */
function land() {
  if (pending) {
    cancelAnimationFrame(pending.frame);
    pending = null;
  }
  stopAll();
}

/** Where a card lies: its hand, base, stock, player, revealed hand, or the part of the table. */
function placeOf(el) {
  const at = el.closest("#hand, [data-hand], [data-base], [data-stock], [data-player], [data-hand-of], .board, #end");
  if (!at) return "";
  if (at.id === "hand" || at.hasAttribute("data-hand")) return "hand";
  for (const key of ["base", "stock", "player", "handOf"]) {
    if (at.dataset[key] !== undefined) return `${key}:${at.dataset[key]}`;
  }
  return at.id || at.className;
}

function shown(rect) {
  return rect.width > 0 && rect.height > 0;
}

/** The places a card may come from or go to: each [data-player], [data-stock], [data-base] (the
 * board's first, the seats' after) and the first face-down card on the board. */
function spots(root) {
  const found = new Map();
  for (const el of root.querySelectorAll("[data-player], [data-stock], [data-base]")) {
    const key = el.dataset.stock !== undefined ? `stock:${el.dataset.stock}`
      : el.dataset.base !== undefined ? `base:${el.dataset.base}` : `player:${el.dataset.player}`;
    const rect = el.getBoundingClientRect();
    if (!shown(rect)) continue;
    const onBoard = Boolean(el.closest(".board"));
    const had = found.get(key);
    if (!had || (onBoard && !had.onBoard)) found.set(key, { rect, onBoard, card: false });
  }
  const back = root.querySelector(".board [data-back]");
  const rect = back && back.getBoundingClientRect();
  if (rect && shown(rect)) found.set("back", { rect, onBoard: true, card: true });
  return found;
}

function cardsIn(root) {
  const out = [];
  for (const el of root.querySelectorAll("[data-card]")) {
    if (el.closest("#end")) continue; // the end's revealed hands are a summary, not a move
    const rect = el.getBoundingClientRect();
    if (shown(rect)) out.push({ el, card: el.dataset.card, place: placeOf(el), rect });
  }
  return out;
}

/** Where the face-up cards are now on the screen; call it before drawing `root` again. */
export function snapshot(root) {
  if (pending) { // drawn twice before a frame: the picture is still the first snapshot's
    cancelAnimationFrame(pending.frame);
    const kept = pending;
    pending = null;
    stopAll();
    return { ...kept.before, fresh: kept.fresh };
  }
  if (!root || still()) {
    stopAll();
    return null;
  }
  const before = { cards: cardsIn(root), spots: spots(root), fresh: [] };
  stopAll();
  return before;
}

/** Move the cards of `root` (just drawn) from where `before` saw them; `fresh`: the log entries
 * the update brought (their events say where new cards came from). */
export function play(root, before, fresh = []) {
  if (!before || still()) {
    mark();
    return;
  }
  const job = { before, fresh: before.fresh.concat(fresh), at: performance.now() };
  job.frame = requestAnimationFrame(() => {
    if (pending !== job) return;
    pending = null;
    if (!still() && performance.now() - job.at < 500) start(root, job.before, job.fresh);
    mark();
    if (!busy()) later();
  });
  pending = job;
  mark();
}

function start(root, before, fresh) {
  const olds = new Map();
  for (const c of before.cards) {
    if (!olds.has(c.card)) olds.set(c.card, []);
    olds.get(c.card).push(c);
  }
  const events = [];
  let mover = null;
  for (const entry of fresh) {
    if (typeof entry.seat === "number") mover = entry.seat;
    for (const e of entry.events || []) events.push(e);
  }
  const now = cardsIn(root);
  const added = [];
  for (const c of now) {
    const list = olds.get(c.card);
    if (!list || !list.length) { added.push(c); continue; }
    const same = list.findIndex((o) => o.place === c.place);
    const [old] = list.splice(same >= 0 ? same : 0, 1);
    const moved = Math.abs(old.rect.left - c.rect.left) + Math.abs(old.rect.top - c.rect.top) > 2
      || Math.abs(old.rect.width - c.rect.width) > 2;
    // A card that changed place travels; in the hand the others close up behind it.
    if (moved && (old.place !== c.place || c.place === "hand")) {
      travel(c.el, old.rect, c.rect, false, true, old.place !== c.place);
    }
  }
  // Nothing was on the screen before (the first drawing), or a whole new deal: no motion.
  if ((before.cards.length || before.spots.size) && added.length <= MANY) {
    const stock = [...events].reverse().find((e) => typeof e.stock === "string");
    for (const c of added) {
      let from = null;
      if (c.place === "hand") {
        from = (stock && before.spots.get(`stock:${stock.stock}`)) || before.spots.get("back");
      } else if (mover !== null) {
        from = before.spots.get(`player:${mover}`);
      }
      if (from) travel(c.el, from.rect, c.rect, true, from.card, true);
      else fadeIn(c.el);
    }
  }
  const taken = [...events].reverse().find((e) => (TAKES.has(e.kind) && typeof e.seat === "number")
    || typeof e.taker === "number");
  if (taken) {
    const seat = typeof taken.taker === "number" ? taken.taker : taken.seat;
    const to = spots(root).get(`player:${seat}`);
    const gone = [...olds.values()].flat().filter((o) => o.place !== "hand" && o.place !== `player:${seat}`);
    if (to) for (const o of gone.slice(-GHOSTS)) fly(o.rect, to.rect);
  }
}

function run(el, keyframes, ms, done = null) {
  const animation = el.animate(keyframes, { duration: Math.round(ms), easing: EASE });
  hook.running += 1;
  hook.started += 1;
  const end = () => {
    if (!active.delete(animation)) return;
    hook.running -= 1;
    if (done) done();
    mark();
    if (!busy()) later();
  };
  active.set(animation, end);
  animation.addEventListener("finish", end);
  animation.addEventListener("cancel", end);
  return animation;
}

function duration(dx, dy) {
  return Math.min(MAX_MS, MIN_MS + Math.hypot(dx, dy) / 6);
}

/** The transform the card is drawn with (a chosen card is lifted), kept under the move. */
function own(el) {
  const transform = getComputedStyle(el).transform;
  return transform && transform !== "none" ? ` ${transform}` : "";
}

/** From `from` to where `el` is drawn (`to`), by the centres, growing or shrinking to its size;
 * the one keyframe is the start: the move ends on the card as drawn. `away`: the card comes from
 * another part of the table: a copy of it moves over the page. */
function travel(el, from, to, fade = false, card = true, away = false) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  // From a card: its size; from a place that is no card (a seat): a card no larger than it.
  const fit = Math.min(1, from.width / to.width, from.height / to.height) || 1;
  const sx = card ? from.width / to.width || 1 : fit;
  const sy = card ? from.height / to.height || 1 : fit;
  const ms = duration(dx, dy);
  const moved = `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`;
  if (!away) {
    const first = { offset: 0, transform: `${moved}${own(el)}` };
    if (fade) first.opacity = 0.4;
    run(el, [first], ms);
    return;
  }
  const ghost = copyOf(el, to);
  document.body.append(ghost);
  const first = { transform: moved };
  if (fade) first.opacity = 0.4;
  run(ghost, [first, { transform: "translate(0px, 0px) scale(1, 1)", opacity: 1 }], ms, () => ghost.remove());
  run(el, [{ opacity: 0 }, { opacity: 0 }], ms); // the card itself, unseen until the copy lands
}

/** A picture of the card `el` over the page where `rect` is: the same face, no hooks (no
 * data-card, no label, nothing to press). */
function copyOf(el, rect) {
  const ghost = document.createElement("span");
  ghost.className = "card motion-ghost";
  ghost.setAttribute("aria-hidden", "true");
  for (const child of el.childNodes) ghost.append(child.cloneNode(true));
  Object.assign(ghost.style, {
    position: "fixed", boxSizing: "border-box", left: `${rect.left}px`, top: `${rect.top}px`,
    width: `${rect.width}px`, height: `${rect.height}px`,
  });
  return ghost;
}

function fadeIn(el) {
  run(el, [{ offset: 0, opacity: 0, transform: `translateY(-12px) scale(0.92)${own(el)}` }], 200);
}

/** A back flying from `from` to `to` (cards going into a hand nobody else sees), then gone. */
function fly(from, to) {
  const ghost = document.createElement("span");
  ghost.className = "card back motion-ghost";
  ghost.setAttribute("aria-hidden", "true");
  ghost.innerHTML = backSvg(); // markup made by cards.js, nothing from a person
  Object.assign(ghost.style, {
    left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px`,
  });
  document.body.append(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  run(ghost, [{ transform: "translate(0px, 0px) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0.2 }], duration(dx, dy), () => ghost.remove());
}

/** Stop every move now (the cards are drawn where they belong; copies and backs in flight are
 * gone). */
function stopAll() {
  for (const [animation, end] of [...active]) {
    animation.cancel();
    end();
  }
  for (const ghost of document.querySelectorAll(".motion-ghost")) ghost.remove();
}
