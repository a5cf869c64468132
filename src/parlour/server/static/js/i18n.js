// The words, in English, Romanian and Dutch: the interface's own (static/i18n/LANG.json) and
// each game's catalog (served from the game's package at the address the registry gives).
// Notation is never translated. A value is a template ("{name} wins") or a plural: keys
// KEY.one/KEY.few/KEY.other here (chosen by vars.n), an object {one, few, other} in a game's
// catalog (chosen by vars.count); Intl.PluralRules gives the same categories as the terminal.

export const LANGS = ["en", "ro", "nl"];
const STORE = "parlour.lang";
let lang = "en";
let words = {};
let fallback = {};
const games = new Map(); // a game's name -> { urls, words, fallback }

export function pickLanguage() {
  const saved = localStorage.getItem(STORE);
  if (LANGS.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const base = String(wanted).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function fetchJson(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

export async function setLanguage(next, remember = false) {
  if (!LANGS.includes(next)) next = "en";
  if (remember) localStorage.setItem(STORE, next); // at once: a reload right away keeps it
  if (!Object.keys(fallback).length) fallback = await fetchJson("/static/i18n/en.json");
  words = next === "en" ? fallback : await fetchJson(`/static/i18n/${next}.json`);
  lang = next;
  document.documentElement.lang = next;
  await Promise.all([...games.keys()].map(loadGameWords));
}

export function language() {
  return lang;
}

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
}

function plural(entry, n, inLang) {
  if (entry === null || typeof entry !== "object") return entry;
  const form = new Intl.PluralRules(inLang).select(Number(n) || 0);
  return entry[form] ?? entry.other;
}

/** The interface's words for `key`, with {name} filled from `vars`; `vars.n` picks a plural. */
export function t(key, vars = {}) {
  let text;
  if (typeof vars.n === "number") {
    const form = new Intl.PluralRules(lang).select(vars.n);
    text = words[`${key}.${form}`] ?? words[`${key}.other`] ?? fallback[`${key}.${form}`]
      ?? fallback[`${key}.other`];
  }
  text = text ?? words[key] ?? fallback[key];
  if (text === undefined) return key;
  return fill(text, vars);
}

/** Whether the interface has words for `key` (so a caller can fall back to the server's text). */
export function has(key) {
  return key in words || key in fallback;
}

/** Load (and keep current across language changes) the catalog of game `name`; `urls` maps
 * each language to its address (GET /api/games lists them). */
export async function useGameWords(name, urls) {
  if (!games.has(name)) games.set(name, { urls, words: {}, fallback: {} });
  await loadGameWords(name);
}

async function loadGameWords(name) {
  const game = games.get(name);
  if (!Object.keys(game.fallback).length) game.fallback = await fetchJson(game.urls.en);
  let mine = game.fallback;
  if (lang !== "en" && game.urls[lang]) mine = await fetchJson(game.urls[lang]).catch(() => ({}));
  game.words = mine;
}

/** A game's words: `w(key, vars)` formats the catalog's entry (English behind it; `vars.count`
 * picks a plural form and fills {count}); `has(key)` says whether the catalog has it. */
export function gameWords(name) {
  const find = (key) => {
    const game = games.get(name);
    if (!game) return [undefined, lang];
    if (key in game.words) return [game.words[key], lang];
    return [game.fallback[key], "en"];
  };
  return {
    w(key, vars = {}) {
      const [entry, inLang] = find(key);
      if (entry === undefined) return key;
      return fill(plural(entry, vars.count, inLang), vars);
    },
    has(key) {
      return find(key)[0] !== undefined;
    },
  };
}
