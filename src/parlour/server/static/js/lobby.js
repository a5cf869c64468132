// The lobby: choose a game, players, options and seats; create the room; share the invites; the
// rooms this browser holds a seat in (myrooms.js).

import { $, $$, h, showError } from "./dom.js";
import { gameWords, t } from "./i18n.js";
import { loadAllWords } from "./games.js";
import { rulesPanel } from "./rules.js";
import { myRoomsSection, rememberCreated } from "./myrooms.js";

export async function openLobby(root) {
  const games = await loadAllWords();
  const words = (g) => gameWords(g.game);
  const title = (g) => (words(g).has("game.title") ? words(g).w("game.title") : g.title);
  const byName = Object.fromEntries(games.map((g) => [g.game, g]));
  const saved = loadChoices();
  // The last room made in this tab, so a reload keeps its invitations (this tab only).
  let created = null;
  try {
    created = JSON.parse(sessionStorage.getItem("parlour.created") || "null");
  } catch {
    created = null;
  }

  const el = h("section.lobby", { "aria-labelledby": "lobby-title" });
  root.append(el);
  document.title = t("lobby.title_tab");

  function render() {
    const keep = readForm();
    el.textContent = "";
    const game = byName[keep.game] || byName[saved.game] || games[0];
    const players = clamp(Number(keep.players || saved.players || game.default_players),
      game.min_players, game.max_players);
    document.title = t("lobby.title_tab");
    // Element.append writes a null as the text "null": the parts a lobby may lack are left out.
    el.append(...[
      h("h1", { id: "lobby-title", text: t("lobby.title") }),
      h("p.intro", { text: t("lobby.intro") }),
      form(game, players, keep),
      created ? invites(created) : null,
      myRoomsSection(render),
      rulesPanel(words(game)),
    ].filter(Boolean));
  }

  function form(game, players, keep) {
    const gameSelect = h("select", { id: "game", name: "game" },
      games.map((g) => h("option", { value: g.game, selected: g.game === game.game, text: title(g) })));
    gameSelect.addEventListener("change", () => { render(); $("#game").focus(); });
    const counts = [];
    for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
    const playerSelect = h("select", { id: "players", name: "players" },
      counts.map((n) => h("option", { value: n, selected: n === players, text: n })));
    playerSelect.addEventListener("change", () => { render(); $("#players").focus(); });

    const rows = [];
    for (let i = 0; i < players; i++) {
      let kind = keep.kinds?.[i] ?? saved.kinds?.[i] ?? (i === 0 ? "person" : defaultBot(game));
      if (!game.seat_kinds.includes(kind)) kind = kind === "person" ? kind : defaultBot(game);
      const name = keep.names?.[i] ?? saved.names?.[i] ?? "";
      const who = t("player", { n: i + 1 });
      const kindSelect = h("select", { "data-seat-kind": i, id: `kind-${i}`, class: "kind",
        "aria-label": `${who}: ${t("lobby.who")}` },
        game.seat_kinds.map((k) => h("option", { value: k, selected: k === kind, text: t(`kind.${k}`) })));
      const nameInput = h("input", {
        "data-seat-name": i, id: `name-${i}`, type: "text", maxlength: 24, autocomplete: "off",
        "aria-label": `${who}: ${t("lobby.name")}`,
        placeholder: t("player", { n: i + 1 }), value: name,
      });
      rows.push(h("div.seat-row", {},
        h("span.seat-no", { text: t("player", { n: i + 1 }) }),
        h("label.field", {}, h("span", { text: t("lobby.name") }), nameInput),
        h("label.field", {}, h("span", { text: t("lobby.who") }), kindSelect)));
    }
    const options = game.options.map((o) => optionField(o, players, keep.options?.[o.name], words(game)));
    const f = h("form#lobby-form", { novalidate: true },
      h("div.row", {},
        h("label.field", {}, h("span", { text: t("lobby.game") }), gameSelect),
        h("label.field", {}, h("span", { text: t("lobby.players") }), playerSelect)),
      h("p.blurb", { text: words(game).has("game.summary") ? words(game).w("game.summary") : "" }),
      h("fieldset.seats", {}, h("legend", { text: t("lobby.seats") }), rows),
      options.length ? h("fieldset.options", {}, h("legend", { text: t("lobby.options") }), options) : null,
      h("button#create.primary", { type: "submit", text: t("lobby.create") }),
    );
    f.addEventListener("submit", (event) => { event.preventDefault(); create(game); });
    return f;
  }

  function optionField(o, players, value, gw) {
    const help = gw.has(`ui.option.${o.name}`) ? gw.w(`ui.option.${o.name}`) : o.help;
    const caption = h("span.option-name", {}, h("code", { text: o.name }), " ",
      h("span.ruling", { text: `(${o.ruling})` }));
    const helpId = `help-${o.name}`;
    const helpLine = h("span.help", { id: helpId, text: help });
    if (o.kind === "bool") {
      const box = h("input", {
        type: "checkbox", "data-option": o.name, id: `opt-${o.name}`, "aria-describedby": helpId,
        checked: value === undefined ? o.default : value,
      });
      return h("div.option", {}, h("label.check", {}, box, caption), helpLine);
    }
    if (o.kind === "choice") {
      const select = h("select", { "data-option": o.name, id: `opt-${o.name}`, "aria-describedby": helpId },
        o.choices.map((c) => h("option", { value: c, selected: c === (value ?? o.default), text: c })));
      return h("div.option", {}, h("label.field", {}, caption, select), helpLine);
    }
    if (o.kind === "int") {
      const input = h("input", {
        type: "number", inputmode: "numeric", "data-option": o.name, id: `opt-${o.name}`,
        min: o.minimum ?? 0, max: o.maximum, step: 1, "aria-describedby": helpId,
        value: value ?? (o.default ?? ""), placeholder: o.nullable ? t("lobby.none") : "",
      });
      return h("div.option", {}, h("label.field", {}, caption, input), helpLine);
    }
    // players: one box per seat (a set of players, such as those who play sober)
    const chosen = new Set(value ?? o.default ?? []);
    const boxes = [];
    for (let i = 0; i < players; i++) {
      boxes.push(h("label.check", {},
        h("input", { type: "checkbox", value: i + 1, checked: chosen.has(i + 1) }),
        h("span", { text: t("player", { n: i + 1 }) })));
    }
    return h("fieldset.option", { "data-option": o.name, "aria-describedby": helpId },
      h("legend", {}, caption), h("div.checks", {}, boxes), helpLine);
  }

  function readForm() {
    const out = { kinds: [], names: [], options: {} };
    const game = $("#game", el);
    if (!game) return out;
    out.game = game.value;
    out.players = Number($("#players", el).value);
    for (const s of $$("[data-seat-kind]", el)) out.kinds[Number(s.dataset.seatKind)] = s.value;
    for (const s of $$("[data-seat-name]", el)) out.names[Number(s.dataset.seatName)] = s.value;
    for (const o of $$("[data-option]", el)) {
      const name = o.dataset.option;
      if (o.tagName === "FIELDSET") {
        out.options[name] = $$("input:checked", o).map((b) => Number(b.value));
      } else if (o.type === "checkbox") {
        out.options[name] = o.checked;
      } else if (o.type === "number") {
        out.options[name] = o.value === "" ? null : Number(o.value);
      } else {
        out.options[name] = o.value;
      }
    }
    return out;
  }

  async function create(game) {
    showError("");
    const choice = readForm();
    const names = choice.names.map((n, i) => n.trim() || t("player", { n: i + 1 }));
    const body = { game: game.game, players: choice.players, options: choice.options,
      seats: choice.kinds, names };
    const button = $("#create", el);
    button.disabled = true;
    try {
      const response = await fetch("/api/rooms", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        showError(answer.error ? answer.error.message : t("error.http", { status: response.status }));
        return;
      }
      saveChoices(choice);
      rememberCreated(game.game, answer);
      created = answer;
      sessionStorage.setItem("parlour.created", JSON.stringify(answer));
      render();
      const first = $("#invites h2", el);
      if (first) { first.setAttribute("tabindex", "-1"); first.focus(); }
    } catch (err) {
      showError(t("error.network"));
    } finally {
      const again = $("#create", el);
      if (again) again.disabled = false;
    }
  }

  function invites(room) {
    const people = room.seats.filter((s) => s.link);
    return h("section#invites", { "aria-labelledby": "invites-title" },
      h("h2", { id: "invites-title", text: t("lobby.invites") }),
      h("p", { text: t("lobby.invites_help") }),
      h("ul.invites", {}, people.map((s) => h("li.invite", {},
        h("div.invite-text", {},
          h("strong", { text: s.name === t("player", { n: s.seat + 1 }) ? s.name
            : `${t("player", { n: s.seat + 1 })}: ${s.name}` }),
          h("a", { "data-invite": s.seat, href: s.link, target: "_blank", rel: "noopener",
            class: "invite-link", text: t("lobby.open_seat") }),
          copyButton(s.link, s.seat)),
        qrSvg(s.qr, s.seat, t("lobby.qr_for", { name: s.name }))))),
      h("div.invite.spectate", {},
        h("div.invite-text", {},
          h("strong", { text: t("lobby.spectators") }),
          h("a", { "data-spectate": "", href: room.spectate, target: "_blank", rel: "noopener",
            class: "invite-link", text: t("lobby.watch") }),
          copyButton(room.spectate, "spectate")),
        qrSvg(room.spectate_qr, "spectate", t("lobby.qr_watch"))),
      h("p.commitment", {}, t("lobby.commitment"), " ", h("code", { text: room.commitment })),
    );
  }

  render();
  return { relabel: render };
}

function copyButton(text, seat) {
  const button = h("button.secondary", { type: "button", "data-copy": seat, text: t("lobby.copy") });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("lobby.copied");
    } catch {
      // No clipboard (a page over plain HTTP on another host): select the link instead.
      window.prompt(t("lobby.copy_prompt"), text);
    }
  });
  return button;
}

/** A QR code from the server's module rows ("0101…"), drawn here as SVG with its quiet zone. */
function qrSvg(rows, seat, label) {
  const ns = "http://www.w3.org/2000/svg";
  const n = rows.length;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `-4 -4 ${n + 8} ${n + 8}`);
  svg.setAttribute("data-qr", String(seat));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("class", "qr");
  svg.setAttribute("shape-rendering", "crispEdges");
  const bg = document.createElementNS(ns, "rect");
  for (const [k, v] of [["x", -4], ["y", -4], ["width", n + 8], ["height", n + 8], ["fill", "#fff"]]) bg.setAttribute(k, v);
  svg.append(bg);
  let d = "";
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === "1") d += `M${x} ${y}h1v1h-1z`;
  });
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(path);
  return svg;
}

function defaultBot(game) {
  return game.seat_kinds.includes("medium") ? "medium" : game.seat_kinds.find((k) => k !== "person");
}

function clamp(n, lo, hi) {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo;
}

function loadChoices() {
  try {
    return JSON.parse(localStorage.getItem("parlour.lobby") || "{}") || {};
  } catch {
    return {};
  }
}

function saveChoices(choice) {
  localStorage.setItem("parlour.lobby", JSON.stringify({ game: choice.game, players: choice.players,
    kinds: choice.kinds, names: choice.names }));
}

