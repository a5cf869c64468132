// The offline page: the service worker (/sw.js) answers it, from its cache, for a page that
// could not be fetched. It is written in English; here it is put in the language the person
// chose (or the browser asks for), from the texts the worker keeps, and "Try again" loads the
// page asked for once more.

import { $ } from "./dom.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";

async function start() {
  $("#retry").addEventListener("click", () => location.reload());
  try {
    await setLanguage(pickLanguage());
  } catch {
    return; // the texts are not kept either: the English of the page stays
  }
  document.title = t("offline.title_tab");
  $(".brand").setAttribute("aria-label", t("shell.home"));
  $("#offline-title").textContent = t("offline.title");
  $("#offline-text").textContent = t("offline.text");
  $("#offline-kept").textContent = t("offline.kept");
  $("#retry").textContent = t("offline.retry");
  $("#offline").dataset.lang = document.documentElement.lang;
}

start();
