// The expert's review beside a replay (GET /api/rooms/ROOM/review?deal=K): while the server works
// on it (pending, running), "Review in progress (k of n)", asked again every second; once ready, the win chance of
// each move played over the deal as an SVG line per player (x: the step, y: the chance the
// expert search gave the move played from that player's view), the decisive moments marked on
// it and listed (each jumps to its step), and at a reviewed decision the moves compared: the one
// played, the expert's choice and every other with its chance. A game without decisions
// (a game of chance alone) has its story instead: the moments that made the deal, each a step.
// Hooks: #review[data-status]; #review-chart; [data-moment=STEP]; #review-decision[data-step].

import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const POLL_MS = 1000;
const W = 600;
const H = 180;
const PAD = 24;
const NS = "http://www.w3.org/2000/svg";
// One colour and one dash a player: the lines differ without colour too.
const COLOURS = ["#0b5cad", "#c8102e", "#17803a", "#8a4fbf", "#b8660b", "#1b1b1b"];
const DASHES = ["", "6 4", "2 3", "10 3 2 3", "1 5", "12 6"];

/** Whether the server is still on the review (asked for, or being made). */
function working(answer) {
  return answer.status === "pending" || answer.status === "running";
}

export function createReview({ roomId, deal, name, jump }) {
  const el = h("section#review.review", { "aria-labelledby": "review-title", "data-status": "asking" });
  const state = { answer: null, steps: [], k: 0, timer: 0, decisions: new Map(), frames: [] };

  const percent = (x) => new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 })
    .format(Math.max(0, Math.min(1, Number(x) || 0)));
  const points = (x) => Math.round(100 * (Number(x) || 0));

  /** The step of the replay at which the decision before action `s` (the record's index) is
   * taken: the last step before that action's own step. */
  function decisionStep(s) {
    const i = state.steps.findIndex((st) => st.kind === "action" && st.actions === s + 1);
    return i < 0 ? -1 : Math.max(0, i - 1);
  }

  function actionStep(s) {
    return state.steps.findIndex((st) => st.kind === "action" && st.actions === s + 1);
  }

  async function ask() {
    clearTimeout(state.timer);
    let answer;
    try {
      const response = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/review?deal=${deal}`, { cache: "no-store" });
      answer = response.ok ? await response.json() : { status: response.status === 409 ? "not_over" : "none" };
    } catch {
      answer = { status: "none" };
    }
    state.answer = answer;
    index();
    draw();
    if (working(answer)) state.timer = setTimeout(ask, POLL_MS);
  }

  function index() {
    state.decisions = new Map();
    const review = state.answer && state.answer.review;
    if (!review || !state.steps.length) return;
    for (const d of review.decisions || []) {
      const k = decisionStep(d.step);
      if (k >= 0) state.decisions.set(k, d);
    }
  }

  function draw() {
    const a = state.answer;
    el.dataset.status = a ? a.status : "asking";
    const parts = [h("h2", { id: "review-title", text: t("review.title") })];
    if (!a) parts.push(h("p.small", { text: t("review.asking") }));
    else if (working(a)) {
      parts.push(h("p#review-progress", { role: "status", text: a.total
        ? t("review.pending", { k: a.done || 0, n: a.total }) : t("review.waiting") }),
      a.total ? h("progress", { max: a.total, value: a.done || 0, "aria-label": t("review.title") }) : null);
    } else if (a.status === "ready" && a.review) {
      parts.push(...ready(a.review));
    } else {
      const words = { off: "review.off", not_over: "review.not_over", failed: "review.failed" }[a.status] || "review.none";
      parts.push(h("p.small", { text: t(words) }));
    }
    el.replaceChildren(...parts.filter(Boolean));
    show(state.k);
  }

  function ready(review) {
    if (review.story && !(review.decisions || []).length) return story(review.story);
    const out = [chart(review)];
    const decisive = review.decisive || [];
    out.push(h("h3", { text: t("review.decisive") }));
    out.push(decisive.length ? h("ol.review-moments", {}, decisive.map((m) => {
      const d = (review.decisions || []).find((x) => x.step === m.step) || m;
      const k = decisionStep(m.step);
      return h("li", {}, h("button.link", { type: "button", "data-moment": m.step, onclick: () => jump(k),
        text: t("review.moment", { step: k + 1, name: name(m.seat), played: m.played, best: m.best,
          chance: percent((d.chances || {})[m.played]), best_chance: percent((d.chances || {})[m.best]) }) }),
      " ", h("span.small", { text: t("review.cost", { n: points(m.cost) }) }));
    })) : h("p.small", { text: t("review.no_decisive") }));
    const summary = review.summary || [];
    if (summary.length) {
      out.push(h("ul.review-summary.small", {}, summary.map((s) => h("li", { text: t("review.summary", {
        name: name(s.seat), n: points(s.average_cost), mistakes: s.mistakes }) }))));
    }
    out.push(h("div#review-decision.review-decision", { "aria-live": "polite" }));
    return out;
  }

  function story(s) {
    const moments = s.moments || [];
    return [h("h3", { text: t("review.story") }),
      h("ol.review-moments", {}, moments.map((m) => {
        const k = Math.max(0, actionStep(m.step));
        return h("li", {}, h("button.link", { type: "button", "data-moment": m.step, onclick: () => jump(k),
          text: `${t("replay.where", { k: k + 1, n: state.steps.length })}: ${m.text}` }));
      }))];
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== "") node.setAttribute(k, String(v));
    node.append(...children);
    return node;
  }

  function chart(review) {
    const n = Math.max(1, state.steps.length - 1);
    const x = (k) => PAD + ((W - 2 * PAD) * k) / n;
    const y = (p) => PAD / 2 + (H - PAD * 1.5) * (1 - Math.max(0, Math.min(1, p)));
    const seats = review.seats || [];
    const root = svg("svg", { id: "review-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": t("review.chart_label"), class: "review-chart" });
    root.append(svg("title", {}, t("review.chart")));
    for (const p of [0, 0.5, 1]) {
      root.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(p), y2: y(p), class: "grid" }),
        svg("text", { x: 2, y: y(p) + 4, class: "axis" }, percent(p)));
    }
    const decisive = new Set((review.decisive || []).map((m) => m.step));
    seats.forEach((seat, i) => {
      const mine = (review.decisions || []).filter((d) => d.seat === seat).map((d) => [decisionStep(d.step), d])
        .filter(([k]) => k >= 0).sort((a, b) => a[0] - b[0]);
      if (!mine.length) return;
      const colour = COLOURS[i % COLOURS.length];
      root.append(svg("polyline", { points: mine.map(([k, d]) => `${x(k)},${y(d.chances[d.played])}`).join(" "),
        fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": DASHES[i % DASHES.length],
        "data-seat": seat, class: "review-line" }));
      for (const [k, d] of mine) {
        const big = decisive.has(d.step);
        const dot = svg("circle", { cx: x(k), cy: y(d.chances[d.played]), r: big ? 6 : 2.5, fill: big ? "#fff" : colour,
          stroke: colour, "stroke-width": big ? 3 : 1, class: big ? "review-mark decisive" : "review-mark",
          "data-step": k });
        dot.append(svg("title", {}, `${name(seat)}: ${d.played} ${percent(d.chances[d.played])}`));
        root.append(dot);
      }
    });
    root.append(svg("line", { id: "review-now", x1: x(state.k), x2: x(state.k), y1: 4, y2: H - PAD / 2, class: "now" }));
    root.addEventListener("click", (event) => {
      const box = root.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * W;
      jump(Math.round(((at - PAD) / (W - 2 * PAD)) * n));
    });
    const legend = h("ul.review-legend", {}, seats.map((seat, i) => h("li", { "data-seat": seat },
      swatch(COLOURS[i % COLOURS.length], DASHES[i % DASHES.length]), " ", name(seat))));
    return h("figure.review-figure", {}, root, h("figcaption.small", {}, t("review.chart"), legend));
  }

  function swatch(colour, dash) {
    return svg("svg", { viewBox: "0 0 30 10", width: 30, height: 10, "aria-hidden": "true" },
      svg("line", { x1: 0, x2: 30, y1: 5, y2: 5, stroke: colour, "stroke-width": 3, "stroke-dasharray": dash }));
  }

  /** The review at step `k`: the chart's marker, and the decision taken there if reviewed. */
  function show(k) {
    state.k = k;
    const now = el.querySelector("#review-now");
    if (now) {
      const n = Math.max(1, state.steps.length - 1);
      const x = PAD + ((W - 2 * PAD) * k) / n;
      now.setAttribute("x1", x);
      now.setAttribute("x2", x);
    }
    const box = el.querySelector("#review-decision");
    if (!box) return;
    const d = state.decisions.get(k);
    box.dataset.step = d ? String(d.step) : "";
    if (!d) { box.replaceChildren(h("p.small", { text: t("review.no_decision") })); return; }
    const moves = Object.keys(d.chances).sort((a, b) => d.chances[b] - d.chances[a]);
    const margin = (m) => (d.intervals && typeof d.intervals[m] === "number" ? ` ± ${points(d.intervals[m])}` : "");
    box.replaceChildren(
      h("h3", { text: t("review.here", { name: name(d.seat) }) }),
      h("p", { "data-played": d.played, text: t("review.played", { move: d.played, chance: percent(d.chances[d.played]) }) }),
      h("p", { "data-best": d.best, text: t("review.best", { move: d.best, chance: percent(d.chances[d.best]) }) }),
      d.cost > 0 ? h("p.small", { text: t("review.cost", { n: points(d.cost) }) }) : null,
      h("table.review-moves", {},
        h("caption", { text: t("review.moves") }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.move") }),
          h("th", { scope: "col", text: t("review.chance") }))),
        h("tbody", {}, moves.map((m) => h("tr", { class: m === d.played ? "played" : m === d.best ? "best" : "" },
          h("th", { scope: "row" }, h("code", { text: m }), m === d.played ? ` · ${t("review.mark_played")}` : "",
            m === d.best ? ` · ${t("review.mark_best")}` : ""),
          h("td", { text: `${percent(d.chances[m])}${margin(m)}` }))))));
  }

  return {
    el,
    setSteps(steps) {
      state.steps = steps;
      index();
      if (!state.answer) ask(); else draw();
    },
    show,
    relabel() { if (state.answer) draw(); },
  };
}
