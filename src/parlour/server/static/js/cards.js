// Cards drawn as SVG by this code: crisp at any size, one face-down back for every card.
// Canonical notation: rank A 2-9 T J Q K then suit S H D C ("7H", "TS"); Jokers "JK1", "JK2".
// A game may also show a rank alone ("K") or "-" (a number card, rank unknown).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SUITS = "SHDC";
const RANKS = "A23456789TJQK";
const INDEX = { T: "10" };
const TWO = { S: "#1b1b1b", H: "#c8102e", D: "#c8102e", C: "#1b1b1b" };
const FOUR = { S: "#1b1b1b", H: "#c8102e", D: "#0b5cad", C: "#17803a" };
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// Suit shapes in a 24x24 box.
const SHAPES = {
  H: '<path d="M12 22C5.5 16.2 1.5 12.4 1.5 7.9A5.3 5.3 0 0 1 12 5.6a5.3 5.3 0 0 1 10.5 2.3c0 4.5-4 8.3-10.5 14.1z"/>',
  D: '<path d="M12 1 21 12 12 23 3 12z"/>',
  S: '<path d="M12 1C9 6 2.5 9.5 2.5 14.5a4.8 4.8 0 0 0 8.3 3.2L9.3 23h5.4l-1.5-5.3a4.8 4.8 0 0 0 8.3-3.2C21.5 9.5 15 6 12 1z"/>',
  C: '<circle cx="12" cy="6.5" r="5"/><circle cx="6.2" cy="13.5" r="5"/><circle cx="17.8" cy="13.5" r="5"/><path d="M11 12h2l1.8 11H9.2z"/>',
};

let fourColour = localStorage.getItem("parlour.fourColour") === "1";

export function setFourColour(on) {
  fourColour = Boolean(on);
  localStorage.setItem("parlour.fourColour", fourColour ? "1" : "0");
}

export function isFourColour() {
  return fourColour;
}

export function parseCard(card) {
  if (/^JK[12]$/.test(card)) return { joker: true, rank: "JK", suit: null };
  if (card.length === 2 && RANKS.includes(card[0]) && SUITS.includes(card[1])) {
    return { joker: false, rank: card[0], suit: card[1] };
  }
  if (card.length === 1 && RANKS.includes(card[0])) return { joker: false, rank: card, suit: null };
  return { joker: false, rank: null, suit: null };
}

/** The card as people write it: "10♥", "Q♠", "Joker". */
export function pretty(card) {
  const c = parseCard(card);
  if (c.joker) return t("card.joker");
  if (!c.rank) return t("card.number");
  return (INDEX[c.rank] || c.rank) + (c.suit ? SYMBOLS[c.suit] : "");
}

/** The card's name in words: "Queen of hearts" (aria-label). */
export function cardName(card) {
  const c = parseCard(card);
  if (c.joker) return t("card.joker");
  if (!c.rank) return t("card.number");
  const rank = t(`rank.${c.rank}`);
  if (!c.suit) return rank;
  return t("card.name", { rank, suit: t(`suit.${c.suit}`) });
}

export function suitColour(suit) {
  return (fourColour ? FOUR : TWO)[suit] || "#1b1b1b";
}

function shape(suit, x, y, size, colour, flip = false) {
  const k = size / 24;
  const turn = flip ? ` rotate(180 12 12)` : "";
  return `<g transform="translate(${x} ${y}) scale(${k})${turn}" fill="${colour}">${SHAPES[suit]}</g>`;
}

// Pip positions on a 100x140 face (number cards), by count.
const COLS = [30, 50, 70];
const PIPS = {
  1: [[1, 70]],
  2: [[1, 32], [1, 108]],
  3: [[1, 32], [1, 70], [1, 108]],
  4: [[0, 32], [2, 32], [0, 108], [2, 108]],
  5: [[0, 32], [2, 32], [1, 70], [0, 108], [2, 108]],
  6: [[0, 32], [2, 32], [0, 70], [2, 70], [0, 108], [2, 108]],
  7: [[0, 32], [2, 32], [1, 51], [0, 70], [2, 70], [0, 108], [2, 108]],
  8: [[0, 32], [2, 32], [1, 51], [0, 70], [2, 70], [1, 89], [0, 108], [2, 108]],
  9: [[0, 32], [2, 32], [0, 57], [2, 57], [1, 70], [0, 83], [2, 83], [0, 108], [2, 108]],
  10: [[0, 32], [2, 32], [1, 45], [0, 57], [2, 57], [0, 83], [2, 83], [1, 95], [0, 108], [2, 108]],
};

function face(c) {
  const colour = c.suit ? suitColour(c.suit) : "#1b1b1b";
  const label = INDEX[c.rank] || c.rank;
  const corner = (flip) => {
    const rot = flip ? ' transform="rotate(180 50 70)"' : "";
    const pip = c.suit ? shape(c.suit, 5, 25, 12, colour) : "";
    const narrow = label.length > 1 ? ' textLength="17" lengthAdjust="spacingAndGlyphs"' : "";
    return `<g${rot}><text x="11" y="21" text-anchor="middle" font-size="19" font-weight="700" font-family="DejaVu Sans, Arial, sans-serif" fill="${colour}"${narrow}>${label}</text>${pip}</g>`;
  };
  let middle = "";
  const n = c.rank === "A" ? 1 : Number(INDEX[c.rank] || c.rank);
  if (c.suit && n >= 1 && n <= 10) {
    const size = n === 1 ? 40 : 18;
    middle = PIPS[n].map(([col, y]) =>
      shape(c.suit, COLS[col] - size / 2, y - size / 2, size, colour, y > 72)).join("");
  } else if (c.suit) {
    middle = `<rect x="24" y="30" width="52" height="80" rx="6" fill="none" stroke="${colour}" stroke-width="2"/>`
      + `<text x="50" y="82" text-anchor="middle" font-size="40" font-weight="700" font-family="DejaVu Serif, Georgia, serif" fill="${colour}">${label}</text>`
      + shape(c.suit, 41, 88, 18, colour);
  } else {
    middle = `<text x="50" y="82" text-anchor="middle" font-size="34" font-weight="700" font-family="DejaVu Sans, Arial, sans-serif" fill="${colour}">${label || "?"}</text>`;
  }
  return corner(false) + middle + corner(true);
}

function jokerFace() {
  const colour = "#6a1b9a";
  return `<text x="50" y="60" text-anchor="middle" font-size="17" font-weight="700" font-family="DejaVu Sans, Arial, sans-serif" fill="${colour}" letter-spacing="1">JOKER</text>`
    + `<path d="M50 70l6 12 13 2-9.5 9 2.3 13L50 100l-11.8 6 2.3-13-9.5-9 13-2z" fill="${colour}"/>`
    + `<text x="11" y="21" text-anchor="middle" font-size="15" font-weight="700" font-family="DejaVu Sans, Arial, sans-serif" fill="${colour}">JK</text>`;
}

const FRAME = '<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fffdf8" stroke="#555" stroke-width="1.5"/>';

/** The SVG markup of a face-up card. */
export function faceSvg(card) {
  const c = parseCard(card);
  const body = c.joker ? jokerFace() : face(c);
  return `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">${FRAME}${body}</svg>`;
}

/** The SVG markup of the back: the same for every card. */
let backs = 0;
export function backSvg() {
  const id = `lattice${++backs}`;
  return '<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">'
    + '<defs><pattern id="' + id + '" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    + '<rect width="10" height="10" fill="#1f4e8c"/><path d="M0 5h10M5 0v10" stroke="#8fb3e0" stroke-width="1.4"/></pattern></defs>'
    + '<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#555" stroke-width="1.5"/>'
    + '<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#' + id + ')"/></svg>';
}

/** The size class of a card shown small that must still be read (a card known in a hand or a
 * stock, a hand revealed at the end): 44 to 64 CSS px wide (app.css). No face-up card is drawn
 * under 40 px wide, whatever its class ("tiny", "mini"). */
export const LEGIBLE = "legible";

/** A face-up card as a button (a move or a choice) or, with `button: false`, a picture. */
export function cardEl(card, { button = false, action = null, extra = "", label = null } = {}) {
  const name = label || cardName(card);
  const attrs = { "data-card": card, class: `card ${extra}`.trim(), html: faceSvg(card) };
  if (button) {
    return h("button", { ...attrs, type: "button", "aria-label": name, "data-action": action });
  }
  return h("span", { ...attrs, role: "img", "aria-label": name });
}

/** A face-down card: no data-card, nothing that tells it from another. */
export function backEl(extra = "") {
  return h("span", {
    class: `card back ${extra}`.trim(), "data-back": "", role: "img",
    "aria-label": t("card.back"), html: backSvg(),
  });
}
