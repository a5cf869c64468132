// BEOR's board (the browser table loads it with import()): the four bases with their tops, the
// stocks (size, face, known cards), hands, and the seat's own hand. Its words are the game's
// catalog (ctx.w).
//
// A move is made on the board itself: tap a card of the hand (or drag it), the bases it may go on
// light up; tap one (or drop the card on it) and the card is played. A 4 or 7 may draw from any
// stock (B7): once its base is chosen the stocks light up, and a tap on one completes the move.
// Keyboard: Enter or Space on the card, then on the base (and the stock); Escape puts it back. A
// setting plays a card that has one legal move at once.
//
// Hooks: a lit base is button[data-target-base=BASE] (a stock: [data-target-stock=STOCK]); it
// carries its move as data-action (full notation), or, a 4 or 7's base before its stock is
// chosen, the moves it leads to as data-leads (space-separated) with aria-pressed. Every legal
// move of the seat is a button[data-action] in the page while it is the seat's turn: on the board
// once its card (and base) is chosen, the rest in a hidden list that tools and tests find.

import { backEl, cardEl, cardName, pretty } from "/static/js/cards.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { roving } from "/static/js/kit.js";

const BASES = ["black", "even", "odd", "red"];
const ONE_TAP = "parlour.beorOneTap";
const DRAG_START = 8; // CSS px a finger moves before a press becomes a drag
let dragEnded = -Infinity; // when a drag last ended: the click that follows it is no tap

function oneTap() {
  return localStorage.getItem(ONE_TAP) === "1";
}

/** The seat's legal moves now by card, each parsed: { action, on (base), from (stock) }. */
function movesByCard(ctx) {
  const moves = {};
  if (!ctx.myTurn || !ctx.act) return moves;
  for (const action of ctx.legal || []) {
    const [card, rest] = action.split(">");
    if (!rest) continue;
    const [on, from] = rest.split("/");
    (moves[card] = moves[card] || []).push({ action, on, from: from || on });
  }
  return moves;
}

/** What the seat has chosen and what it lights up: the card, its moves by base, the base chosen
 * for a 4 or 7 (its moves by stock), and the actions shown on the board. */
function choice(ctx) {
  const ui = ctx.ui || {};
  const moves = movesByCard(ctx);
  const quick = oneTap();
  const card = ui.beorCard && moves[ui.beorCard] && !(quick && moves[ui.beorCard].length === 1)
    ? ui.beorCard : null;
  const byBase = {};
  for (const m of card ? moves[card] : []) (byBase[m.on] = byBase[m.on] || []).push(m);
  const base = card && byBase[ui.beorBase] && byBase[ui.beorBase].length > 1 ? ui.beorBase : null;
  const shown = new Set();
  for (const list of Object.values(byBase)) if (list.length === 1) shown.add(list[0].action);
  if (base) for (const m of byBase[base]) shown.add(m.action);
  return { moves, quick, card, byBase, base, shown };
}

function baseName(ctx, name) {
  return ctx.w(`ui.base.${name}`);
}

function choose(ctx, card, base = null) {
  ctx.ui.beorCard = card;
  ctx.ui.beorBase = base;
}

/** Play `action`: the target pressed under the finger, then the move sent. */
function play(ctx, action, el) {
  if (el) el.classList.add("pressed");
  choose(ctx, null);
  ctx.act(action);
}

/** After a redraw, the focus on the first lit target (a stock before a base), or the card. */
function focusFirst(selector) {
  const el = document.querySelector(selector);
  if (el) el.focus({ preventScroll: true });
}

function focusCard(card) {
  focusFirst(`#hand [data-card="${CSS.escape(card)}"]`);
}

function cancel(ctx) {
  const card = ctx.ui.beorCard;
  choose(ctx, null);
  ctx.rerender();
  if (card) focusCard(card);
}

function onEscape(ctx) {
  return (event) => {
    if (event.key === "Escape" && ctx.ui.beorCard) {
      event.preventDefault();
      cancel(ctx);
    }
  };
}

export function board(ctx) {
  return drawBoard(ctx, true);
}

function drawBoard(ctx, animate) {
  const view = ctx.view;
  const pick = choice(ctx);
  const flipped = new Set();
  const played = new Set();
  // Each version's news move once (a redraw for a chosen card does not play them again).
  const fresh = animate && ctx.ui && ctx.ui.beorShown !== ctx.frame.v;
  if (ctx.ui) ctx.ui.beorShown = ctx.frame.v;
  for (const entry of fresh ? ctx.fresh : []) {
    for (const e of entry.events) {
      if (e.kind === "flipped") flipped.add(e.stock);
      if (e.kind === "played") played.add(e.base);
    }
  }
  const escape = onEscape(ctx);
  const columns = BASES.map((name) => {
    const pile = view.bases[name] || []; // top card first (RULINGS "Common")
    const top = pile[0];
    const stock = view.stocks[name];
    const known = (stock.known || []).filter((k) => !(stock.face_up && k.position === 0));
    const lit = pick.byBase[name];
    const topEl = top ? cardEl(top, { extra: played.has(name) ? "enter" : "" }) : h("span.card.empty", { text: "" });
    const count = () => h("span.count", { text: ctx.w("ui.base_count", { count: pile.length }) });
    let pileEl;
    if (lit) {
      const single = lit.length === 1 ? lit[0].action : null;
      const chosen = pick.base === name;
      pileEl = h("button.pile.beor-target", {
        type: "button", "data-target-base": name, "data-action": single,
        "data-leads": single ? null : lit.map((m) => m.action).join(" "),
        "aria-pressed": single ? null : String(chosen),
        class: chosen ? "chosen" : "",
        "aria-label": single
          ? ctx.w("ui.play_on", { card: cardName(pick.card), base: baseName(ctx, name) })
          : ctx.w("ui.play_on_then", { card: cardName(pick.card), base: baseName(ctx, name) }),
        onclick: (event) => {
          if (single) { play(ctx, single, event.currentTarget); return; }
          choose(ctx, pick.card, chosen ? null : name);
          ctx.rerender();
          focusFirst(chosen ? "[data-target-base]" : "[data-target-stock]");
        },
        onkeydown: escape,
      }, topEl, h("span.beor-tag", { text: ctx.w("ui.play_here") }));
    } else {
      pileEl = h("div.pile", { class: pick.card ? "unlit" : "" }, topEl, count());
    }
    const from = pick.base ? pick.byBase[pick.base].find((m) => m.from === name) : null;
    const stockFace = stock.size === 0 ? h("span.card.empty", { "aria-label": ctx.w("ui.stock_empty"), role: "img" })
      : stock.face_up && stock.top ? cardEl(stock.top, { label: `${cardName(stock.top)} (${ctx.w("ui.stock_top")})` })
        : backEl();
    const stockCount = h("span.count", { text: stock.size === 0 ? ctx.w("ui.no_stock")
      : ctx.w(stock.face_up ? "ui.stock_up" : "ui.stock_down", { count: stock.size }) });
    const stockClass = `stock${flipped.has(name) ? " flip" : ""}`;
    const stockEl = from
      ? h("button.beor-target", {
        type: "button", class: stockClass, "data-stock": name, "data-target-stock": name,
        "data-action": from.action,
        "aria-label": ctx.w("ui.play_draw", { card: cardName(pick.card), base: baseName(ctx, pick.base), stock: baseName(ctx, name) }),
        onclick: (event) => play(ctx, from.action, event.currentTarget),
        onkeydown: escape,
      }, stockFace, h("span.beor-tag", { text: ctx.w("ui.draw_here") }))
      : h("div", { class: `${stockClass}${pick.base ? " unlit" : ""}`, "data-stock": name }, stockFace, stockCount);
    return h("section.beor-column", {
      "data-base": name, "aria-labelledby": `base-${name}`,
      class: played.has(name) ? "pulse" : "",
    },
    h("h2", { id: `base-${name}`, class: `base-name base-${name}`, text: baseName(ctx, name) }),
    pileEl,
    stockEl,
    known.length ? h("ul.known", { "aria-label": ctx.w("ui.known_in_stock") },
      known.sort((a, b) => a.position - b.position).map((k) => h("li", {},
        cardEl(k.card, { extra: "beor-known" }),
        h("span", { text: ctx.w("ui.position", { position: k.position + 1 }) })))) : null);
  });
  const scrap = view.scrap_size ? h("p.scrap", {}, ctx.w("ui.scrap", { count: view.scrap_size }),
    " ", (view.known_scrap || []).map((c) => cardEl(c, { extra: "beor-known" }))) : null;
  return h("section.board.beor-board", { "aria-label": t("table.board"), class: pick.card ? "choosing" : "" },
    h("div.beor-grid", {}, columns), scrap);
}

/** "holds 7H 8H": cards publicly known to be in another hand, drawn large enough to read. */
function holds(cards) {
  const [before, after] = t("table.holds", { cards: "\u0000" }).split("\u0000");
  return h("span.fact.known-hand.beor-holds", {}, before,
    cards.map((c) => cardEl(c, { extra: "beor-known" })), after || "");
}

/** Whether this is the live table at the end of a deal, where the end shows every hand. */
function atTheEnd(ctx) {
  return Boolean(ctx.frame && ctx.frame.over && ctx.frame.type !== "replay");
}

export function seatFacts(ctx, seat) {
  const view = ctx.view;
  const facts = [];
  if ((view.out || []).includes(seat)) facts.push(ctx.w("ui.out"));
  else facts.push(t("cards_in_hand", { n: view.hand_sizes[seat] }));
  const known = (view.known_in_hands || [])[seat] || [];
  if (known.length && seat !== ctx.seat && !atTheEnd(ctx)) facts.push(holds(known));
  return facts;
}

export function settings(ctx) {
  const box = h("input", { type: "checkbox", id: "beor-one-tap", checked: oneTap() });
  box.addEventListener("change", () => {
    localStorage.setItem(ONE_TAP, box.checked ? "1" : "0");
    ctx.rerender();
  });
  return h("label.check", {}, box, h("span", { text: ctx.w("ui.one_tap") }));
}

export function controls(ctx) {
  const view = ctx.view;
  if (ctx.seat === null || !view.hand || atTheEnd(ctx)) return null; // the end shows the hand
  if ((view.out || []).includes(ctx.seat)) {
    return h("section.you", { "aria-label": t("table.your_hand") }, h("p", { text: ctx.w("ui.you_are_out") }));
  }
  const pick = choice(ctx);
  const escape = onEscape(ctx);
  const carried = new Set();
  const hand = h("div#hand.hand.beor-hand", { role: "group", "aria-label": t("table.your_hand") },
    view.hand.map((card) => {
      const mine = pick.moves[card] || [];
      const one = pick.quick && mine.length === 1 ? mine[0].action : null;
      if (one) carried.add(one);
      const chosen = pick.card === card;
      const button = cardEl(card, { button: true, action: one,
        extra: `${mine.length ? "playable" : "idle"}${chosen ? " chosen" : ""}` });
      if (!mine.length) button.setAttribute("aria-disabled", "true");
      else if (!one) button.setAttribute("aria-pressed", String(chosen));
      button.addEventListener("click", (event) => {
        if (!mine.length || performance.now() - dragEnded < 400) return;
        if (one) { play(ctx, one, event.currentTarget); return; }
        choose(ctx, chosen ? null : card);
        ctx.rerender();
        if (chosen) focusCard(card);
        else focusFirst("[data-target-base]");
      });
      button.addEventListener("keydown", escape);
      if (mine.length) button.addEventListener("pointerdown", (event) => drag(ctx, event, card));
      return button;
    }));
  roving(hand);
  // Every legal move is in the page (tools find it by data-action): those not on the board now
  // wait here, hidden, until their card (and base) is chosen.
  const rest = Object.values(pick.moves).flat()
    .filter((m) => !pick.shown.has(m.action) && !carried.has(m.action));
  const hint = !ctx.myTurn ? null
    : ctx.w(pick.base ? "ui.hint_stock" : pick.card ? "ui.hint_base" : "ui.hint");
  return h("section.you", { "aria-label": t("table.your_hand") },
    h("h2", { text: t("table.your_hand") }),
    hand,
    hint ? h("p.hint", { text: hint }) : null,
    rest.length ? h("div.beor-moves", { hidden: true }, rest.map((m) => h("button", {
      type: "button", tabindex: "-1", "data-action": m.action, onclick: () => play(ctx, m.action, null),
      text: m.action }))) : null);
}

// -- dragging a card onto a base ---------------------------------------------------------------

/** A press on a playable card of the hand: past a few pixels it becomes a drag (mouse, pen or
 * finger: pointer events); the bases the card may go on light up, the one under the finger
 * is marked, and the card is played where it is let go (a 4 or 7 then asks for its stock). */
function drag(ctx, down, card) {
  if (!down.isPrimary || down.button !== 0) return;
  const source = down.currentTarget;
  const id = down.pointerId;
  let ghost = null;
  let over = null;
  const target = (e) => {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    return el ? el.closest("[data-target-base]") : null;
  };
  const moveTo = (e) => {
    const r = ghost.getBoundingClientRect();
    ghost.style.left = `${e.clientX - r.width / 2}px`;
    ghost.style.top = `${e.clientY - r.height * 0.6}px`;
  };
  const move = (e) => {
    if (e.pointerId !== id) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < DRAG_START) return;
      // The card is chosen: its bases light up (only the board is drawn again: the hand, and
      // the finger on it, stay as they are).
      choose(ctx, card);
      redrawBoard(ctx);
      for (const b of document.querySelectorAll("#hand [data-card]")) {
        const mine = b === source;
        b.classList.toggle("chosen", mine);
        if (b.hasAttribute("aria-pressed")) b.setAttribute("aria-pressed", String(mine));
      }
      source.classList.add("dragging");
      ghost = h("div.beor-ghost", { "aria-hidden": "true", html: source.innerHTML });
      ghost.style.width = `${source.getBoundingClientRect().width}px`;
      document.body.append(ghost);
    }
    e.preventDefault();
    moveTo(e);
    const now = target(e);
    if (now !== over) {
      if (over) over.classList.remove("over");
      if (now) now.classList.add("over");
      over = now;
    }
  };
  const end = (e) => {
    if (e.pointerId !== id) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (!ghost) return; // a tap: the click does it
    ghost.remove();
    source.classList.remove("dragging");
    dragEnded = performance.now();
    const on = e.type === "pointerup" ? target(e) : null;
    if (on && on.dataset.action) {
      play(ctx, on.dataset.action, on);
      return;
    }
    if (on) choose(ctx, card, on.dataset.targetBase); // a 4 or 7: its stocks light up
    ctx.rerender(); // let go elsewhere: the card stays chosen, its bases lit
    focusFirst(on ? "[data-target-stock]" : "[data-target-base]");
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

function redrawBoard(ctx) {
  const old = document.querySelector(".beor-board");
  if (old) old.replaceWith(drawBoard(ctx, false));
}

// -- the end of a deal -------------------------------------------------------------------------

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";

function order(card) {
  if (card.startsWith("JK")) return 100 + Number(card[2]);
  return RANKS.indexOf(card[0]) * 4 + SUITS.indexOf(card[1]);
}

function sorted(cards) {
  return [...cards].sort((a, b) => order(a) - order(b));
}

/** The two groups the winner showed (the "won" event, B5), or null. */
function winningGroups(ctx, seat, hand) {
  for (const entry of [...(ctx.log || [])].reverse()) {
    for (const e of entry.events || []) {
      if (e.kind === "won" && e.seat === seat && Array.isArray(e.groups) && e.groups.length) {
        const all = e.groups.flat();
        if (all.every((c) => hand.includes(c))) return e.groups;
      }
    }
  }
  return null;
}

function isRun(group) {
  return !group.every((c) => c[0] === group[0][0]);
}

/** Every hand at the end of a deal (end.js: from the last position once nothing is hidden),
 * full size; the winner's as the two groups that won (a run or a set each). */
export function endHands(ctx, hands) {
  const view = ctx.view || {};
  const out = view.out || [];
  const winner = typeof view.winner === "number" ? view.winner : null;
  return h("section.end-hands.beor-end", { "aria-labelledby": "end-hands-title" },
    h("h3", { id: "end-hands-title", text: t("end.hands") }),
    hands.map((hand, seat) => {
      const groups = seat === winner ? winningGroups(ctx, seat, hand) : null;
      const grouped = new Set(groups ? groups.flat() : []);
      const left = sorted(hand.filter((c) => !grouped.has(c)));
      const note = seat === winner ? ctx.w(groups ? "ui.end.won_groups" : "ui.end.won")
        : out.includes(seat) ? ctx.w("ui.out") : null;
      return h("div.end-hand.beor-end-hand", { "data-hand-of": seat, class: seat === winner ? "winner" : "" },
        h("h4", {}, ctx.name(seat), seat === ctx.seat ? ` (${t("table.you")})` : "",
          note ? h("span.small", { text: ` · ${note}` }) : null),
        groups ? h("div.beor-groups", {}, groups.map((g) => h("div.beor-group", {
          role: "group", "aria-label": ctx.w(isRun(g) ? "ui.end.run" : "ui.end.set", { cards: g.map(pretty).join(" ") }),
        }, g.map((c) => cardEl(c, { extra: "beor-end-card" }))))) : null,
        left.length ? h("div.end-cards.beor-end-cards", {}, left.map((c) => cardEl(c, { extra: "beor-end-card" })))
          : groups ? null : h("p.small", { text: ctx.w("ui.end.no_cards") }));
    }));
}

export function outcomeWords(outcome, ctx) {
  if (outcome.result === "draw") return ctx.w("ui.end.draw", { turns: outcome.turns });
  const winners = outcome.winners || [];
  if (winners.includes(ctx.seat)) return t("end.you_win");
  return t("end.wins", { name: winners.map((s) => ctx.name(s)).join(", ") });
}

/** The values (and the variant key) of an event's words; the catalog has event.KIND. */
export function eventWords(e, ctx) {
  const base = (name) => ctx.w(`ui.base.${name}`);
  switch (e.kind) {
    case "played":
      return { values: { base: base(e.base) } };
    case "drew":
      return { key: e.card ? "event.drew" : "event.drew.unseen", values: { stock: base(e.stock) } };
    case "flipped":
      return { key: e.face_up ? "event.flipped.up" : "event.flipped.down", values: { stock: base(e.stock) } };
    case "restocked":
      return { values: { kept: (e.kept || []).map(pretty).join(" "), count: e.cards } };
    case "won":
      return e.groups
        ? { key: "event.won.groups", values: { groups: e.groups.map((g) => g.map(pretty).join(" ")).join(" · ") } }
        : { key: "event.won.last" };
    default:
      return null;
  }
}
