// "My rooms": the rooms this browser holds a seat in, kept in this browser's storage (never on
// the server): a room made in the lobby (its first person seat) and a seat taken through its
// link. Each entry: { room, game, players, seat, name, names, link, at }. The lobby lists them
// with what the server says of each room now, the link back, the replay of the last finished
// deal, and a button that forgets the room.

import { h } from "./dom.js";
import { gameWords, t } from "./i18n.js";
import { names } from "./words.js";

const STORE = "parlour.rooms";
const KEEP = 50;

/** The rooms kept, newest first. */
export function myRooms() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.room === "string") : [];
  } catch {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(STORE, JSON.stringify(list.slice(0, KEEP)));
  } catch {
    // storage full or refused: the list is a convenience only
  }
}

/** Keep `entry` (a room and the seat held in it), replacing what was kept of that room. */
export function rememberRoom(entry) {
  const list = myRooms().filter((r) => r.room !== entry.room);
  list.unshift({ ...entry, at: Date.now() });
  save(list);
}

export function forgetRoom(room) {
  save(myRooms().filter((r) => r.room !== room));
}

/** The room the lobby has just made (POST /api/rooms's answer), held by its first person seat. */
export function rememberCreated(game, answer) {
  const mine = answer.seats.find((s) => s.link);
  if (!mine) return;
  rememberRoom({ room: answer.room, game, players: answer.seats.length, seat: mine.seat,
    name: mine.name, names: answer.seats.map((s) => s.name), link: mine.link });
}

/** Keep the room of a table opened with a seat's link, once its first frame names the seat. */
export function watchTable(table) {
  if (!table || !table.token || !table.el) return;
  const seen = new MutationObserver(() => {
    const f = table.frame;
    if (!f || f.seat === null || f.seat === undefined) return;
    seen.disconnect();
    const seat = f.seats[f.seat];
    rememberRoom({ room: table.roomId, game: f.game, players: f.seats.length, seat: f.seat,
      name: seat ? seat.name : t("player", { n: f.seat + 1 }), names: f.seats.map((s) => s.name),
      link: `${location.origin}/r/${table.roomId}#t=${table.token}` });
  });
  seen.observe(table.el, { attributes: true, attributeFilter: ["data-seat"] });
}

/** Where the replay of deal `deal` of `room` is, from `seat`'s view (null: every card). */
export function replayHref(room, deal, seat) {
  const query = seat === null || seat === undefined ? "" : `?seat=${seat}`;
  return `/r/${encodeURIComponent(room)}/replay/${deal}${query}`;
}

/** The lobby's "My rooms" section (null when no room is kept); `rerender` draws the lobby again. */
export function myRoomsSection(rerender) {
  const rooms = myRooms();
  if (!rooms.length) return null;
  return h("section#my-rooms.my-rooms", { "aria-labelledby": "my-rooms-title" },
    h("h2", { id: "my-rooms-title", text: t("rooms.title") }),
    h("ul.my-rooms-list", {}, rooms.map((r) => roomItem(r, rerender))));
}

function gameTitle(game) {
  const words = gameWords(game);
  return words.has("game.title") ? words.w("game.title") : game;
}

function roomItem(r, rerender) {
  const status = h("span.room-status", { "data-room-status": r.room, text: t("rooms.asking") });
  const replay = h("span.room-replay");
  const forget = h("button.link", { type: "button", "data-forget": r.room,
    "aria-label": t("rooms.forget_room", { room: r.room }), text: t("rooms.forget") });
  forget.addEventListener("click", () => { forgetRoom(r.room); rerender(); });
  const names = Array.isArray(r.names) ? r.names.join(", ") : "";
  const item = h("li.my-room", { "data-room": r.room },
    h("div.my-room-head", {},
      h("strong", { text: gameTitle(r.game) }), " ",
      h("span.small", { text: t("table.room", { room: r.room }) })),
    h("p.small", { text: t("rooms.players", { names, n: r.players }) }),
    h("p.small", { text: t("rooms.your_seat", { name: r.name, seat: t("player", { n: r.seat + 1 }) }) }),
    h("p", {}, status),
    h("p.row", {},
      h("a", { href: r.link, "data-room-link": r.room, text: t("rooms.back") }),
      replay, forget));
  fillStatus(r, status, replay);
  return item;
}

/** What the server says of the room now: whose turn it is in the deal being played (yours, or
 * the player's name), the last finished deal's result (a tie as a shared win) and its replay. */
async function fillStatus(r, status, replay) {
  try {
    const response = await fetch(`/api/rooms/${encodeURIComponent(r.room)}`, { cache: "no-store" });
    if (response.status === 404) { status.textContent = t("rooms.gone"); return; }
    if (!response.ok) { status.textContent = t("error.http", { status: response.status }); return; }
    const info = await response.json();
    const seatNames = info.seats.map((s) => s.name);
    const deals = (info.match && info.match.deals) || [];
    const last = deals[deals.length - 1];
    const playing = !info.over;
    const yours = playing && info.to_move === r.seat;
    status.textContent = info.abandoned ? t("rooms.abandoned")
      : [playing ? turnWords(info, r.seat, seatNames) : "", last ? resultWords(last, seatNames) : ""]
        .filter(Boolean).join(" · ");
    status.classList.toggle("yours", yours);
    status.closest("li").dataset.turn = yours ? "yours" : playing ? "theirs" : "none";
    if (last) {
      replay.append(h("a", { href: replayHref(r.room, last.deal, r.seat), "data-room-replay": r.room,
        text: t("rooms.replay", { deal: last.deal + 1 }) }));
    }
  } catch {
    status.textContent = t("error.network");
  }
}

function turnWords(info, seat, seatNames) {
  const deal = info.deal + 1;
  const mover = info.to_move;
  if (mover === null || mover === undefined) return t("rooms.playing", { deal });
  if (mover === seat) return t("rooms.your_turn", { deal });
  return t("rooms.turn_of", { deal, name: seatNames[mover] ?? t("player", { n: mover + 1 }) });
}

function resultWords(last, seatNames) {
  const deal = last.deal + 1;
  const winners = last.winners || [];
  if (!winners.length) return t("rooms.no_winner", { deal });
  const listed = names(winners, { name: (s) => seatNames[s] ?? t("player", { n: s + 1 }) });
  return winners.length > 1 ? t("rooms.shared", { deal, names: listed })
    : t("rooms.result", { deal, names: listed });
}
