// The interface's words in English, Romanian and Dutch (static/i18n/LANG.json) and each game's
// short rules (static/rules/LANG.json). Notation is never translated.

export const LANGS = ["en", "ro", "nl"];
const STORE = "parlour.lang";
let lang = "en";
let words = {};
let fallback = {};
let rules = {};

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
  try {
    rules = await fetchJson(`/static/rules/${next}.json`);
  } catch {
    rules = {};
  }
  lang = next;
  document.documentElement.lang = next;
}

export function language() {
  return lang;
}

export function gameRules(game) {
  return rules[game] || null;
}

/** The words for `key`, with {name} filled from `vars`; `vars.n` picks a plural form. */
export function t(key, vars = {}) {
  let text;
  if (typeof vars.n === "number") {
    const form = new Intl.PluralRules(lang).select(vars.n);
    text = words[`${key}.${form}`] ?? words[`${key}.other`] ?? fallback[`${key}.${form}`]
      ?? fallback[`${key}.other`];
  }
  text = text ?? words[key] ?? fallback[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
}

/** Whether `key` has words of its own (so a caller can fall back to the server's text). */
export function has(key) {
  return key in words || key in fallback;
}
