// The games the server offers (GET /api/games, asked once a page) and, for one game, what its
// table needs: its words and its board module, loaded with import() from the address the
// registry gives. A game without a board of its own gets the plain board (plain.js).

import { gameWords, useGameWords } from "./i18n.js";
import * as plain from "./plain.js";

let listing = null;
const loaded = new Map();

/** The games, as GET /api/games lists them. */
export function gameList() {
  listing = listing || fetch("/api/games").then((response) => {
    if (!response.ok) throw new Error(`/api/games ${response.status}`);
    return response.json();
  }).then((body) => body.games);
  listing.catch(() => { listing = null; });
  return listing;
}

/** The words of every game (the lobby names them all and shows their rules). */
export async function loadAllWords() {
  const games = await gameList();
  await Promise.all(games.map((g) => useGameWords(g.game, g.words)));
  return games;
}

/** Game `name`: { info, board, words }; board is the game's module over the plain board's
 * functions (a board exports only what it draws differently). */
export function loadGame(name) {
  if (!loaded.has(name)) {
    const promise = (async () => {
      const info = (await gameList()).find((g) => g.game === name);
      if (!info) throw new Error(`the server offers no game ${name}`);
      // The words, the board's module and its style sheet, all at once.
      const [, module] = await Promise.all([useGameWords(name, info.words),
        info.board ? import(info.board.js) : null, info.board && info.board.css ? addStyle(info.board.css) : null]);
      const board = module ? { ...plain, ...module } : { ...plain };
      return { info, board, words: gameWords(name) };
    })();
    promise.catch(() => loaded.delete(name));
    loaded.set(name, promise);
  }
  return loaded.get(name);
}

/** Add the board's style sheet; resolves once it is loaded (or failed: the board still works). */
function addStyle(href) {
  if (document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return null;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const done = new Promise((resolve) => {
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
  });
  document.head.append(link);
  return done;
}
