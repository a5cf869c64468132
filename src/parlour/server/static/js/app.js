// Parlour in the browser: the lobby at "/", a table at "/r/ROOM" and the replay of a finished deal
// at "/r/ROOM/replay/DEAL". No build step: ES modules.

import { $, showError } from "./dom.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { openConnection } from "./connection.js";

let page = null;

async function start() {
  performance.mark("parlour app"); // the shell's script runs (benchmarks/bench_pages.py)
  const select = $("#lang");
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{1,64})\/?$/);
  const replay = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{1,64})\/replay\/(\d{1,9})\/?$/);
  // Everything a page needs starts at once, not one after the other: a table's socket (its
  // welcome comes while the rest loads), the page's modules and the words (the server's
  // preload hints have the browser fetching all of them already, pages.py).
  const socket = match ? openConnection(match[1]) : null;
  const modules = match ? Promise.all([import("./table.js"), import("./myrooms.js")])
    : replay ? import("./replay.js") : import("./lobby.js");
  modules.catch(() => {}); // said below, once the words are here
  // The room's game (the server names it): its board and words start loading now too; the
  // table takes them from games.js when it opens (a failure is said there).
  const game = match && $("#app").dataset.game;
  if (game) import("./games.js").then(({ loadGame }) => loadGame(game)).catch(() => {});
  await setLanguage(pickLanguage());
  select.value = document.documentElement.lang;
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    translateShell();
    if (page && page.relabel) page.relabel();
  });
  translateShell();
  const root = $("#app");
  root.textContent = "";
  try {
    if (match) {
      const [{ openTable }, { watchTable }] = await modules;
      page = openTable(root, match[1], socket);
      watchTable(page); // a seat taken through its link joins "My rooms"
    } else if (replay) {
      const { openReplay } = await modules;
      page = await openReplay(root, replay[1], Number(replay[2]));
    } else {
      const { openLobby } = await modules;
      page = await openLobby(root);
    }
  } catch (err) {
    showError(t("error.load", { why: String(err && err.message ? err.message : err) }));
  }
}

/** The service worker (/sw.js): it keeps the pages' files, so a phone opens them without
 * waiting on the network, and answers the offline page when the server cannot be reached. Only
 * where the browser allows one (HTTPS, or this computer); registered once the page has loaded,
 * so that keeping the files does not hold up the page's first load. The pages work without it. */
function keepFiles() {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

function translateShell() {
  $("#lang-label").textContent = t("shell.language");
  $(".brand").setAttribute("aria-label", t("shell.home"));
}

start();
keepFiles();
