// Small DOM helpers: every text from a person (names) goes in as text, never as HTML.

/** h("button#id.card", {attrs}, ...children): an element; attrs "onX" are listeners. */
export function h(spec, attrs = {}, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "html") {
      setMarkup(el, value); // only markup made by this code (card faces), never a person's text
    } else if (key === "class") {
      el.className = `${el.className} ${value}`.trim();
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const parsed = new Map(); // markup -> its <template>: the cards are drawn at every update

/** `el`'s content from `markup`, parsed once and copied after (a card face is the same markup
 * every time it is drawn). */
function setMarkup(el, markup) {
  let template = parsed.get(markup);
  if (!template) {
    if (parsed.size >= 512) parsed.clear();
    template = document.createElement("template");
    template.innerHTML = markup;
    parsed.set(markup, template);
  }
  el.replaceChildren(template.content.cloneNode(true));
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function $$(selector, root = document) {
  return Array.from(root.querySelectorAll(selector));
}

/** The error line under the header (role=alert); empty text hides it. */
export function showError(text) {
  const box = document.getElementById("error");
  box.textContent = text || "";
  box.hidden = !text;
}

let announceTimer = 0;
/** Say `text` to screen readers through the live region (polite). */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!text) return;
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > 6) region.firstElementChild.remove();
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { region.textContent = ""; }, 15000);
}
