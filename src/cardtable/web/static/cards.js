// @ts-check
// Card faces and backs, drawn as SVG by code (no artwork files).
//
// Card codes (see src/cardtable/cards.py): "10H", "QS", "AD" (rank then suit C/D/H/S),
// "RJ"/"BJ" for the red and black jokers, and bare values "0" … "13" for the Cabo deck.

import { has, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A suit as drawn and named.
 * @typedef {{name: string, red: boolean, symbol: string, path: string}} Suit
 */

/**
 * Suit letter → name, colour and an SVG path drawn in a 100×100 box.
 * @type {Record<string, Suit>}
 */
export const SUITS = {
  C: {
    name: "clubs",
    red: false,
    symbol: "♣",
    path:
      "M50 4a21 21 0 0 1 18 31.5a21 21 0 1 1-8 34.5c1 12 5 20 12 26H28c7-6 11-14 12-26" +
      "a21 21 0 1 1-8-34.5A21 21 0 0 1 50 4z",
  },
  D: { name: "diamonds", red: true, symbol: "♦", path: "M50 2L88 50L50 98L12 50z" },
  H: {
    name: "hearts",
    red: true,
    symbol: "♥",
    path:
      "M50 94C22 72 2 54 2 31C2 14 15 4 28 4c10 0 18 6 22 15c4-9 12-15 22-15c13 0 26 10 " +
      "26 27c0 23-20 41-48 63z",
  },
  S: {
    name: "spades",
    red: false,
    symbol: "♠",
    path:
      "M50 2C76 26 98 42 98 62c0 15-11 24-23 24c-9 0-16-4-20-10c1 10 5 17 12 24H33c7-7 " +
      "11-14 12-24c-4 6-11 10-20 10C13 86 2 77 2 62C2 42 24 26 50 2z",
  },
};

/**
 * A rank as a card's spoken name says it: "ace", "7" (German "Ass", "7").
 * @param {string} rank
 */
function rankName(rank) {
  if (rank === "A") return t("ui.cards.ace");
  if (rank === "J") return t("ui.cards.jack");
  if (rank === "Q") return t("ui.cards.queen");
  if (rank === "K") return t("ui.cards.king");
  return rank;
}

/**
 * A parsed card code: a joker, a numbered Cabo card (its value as `rank`), or a suited card.
 * @typedef {{code: string, rank: "JOKER", suit: null, joker: true, cabo: false, red: boolean}
 *   | {code: string, rank: string, suit: null, joker: false, cabo: true, red: false}
 *   | {code: string, rank: string, suit: string, joker: false, cabo: false, red: boolean}
 * } Card
 */

/**
 * Parse a card code into {code, rank, suit, joker, cabo, red}.
 * @param {string} code
 * @returns {Card}
 */
export function parseCard(code) {
  if (code === "RJ" || code === "BJ") {
    return { code, rank: "JOKER", suit: null, joker: true, cabo: false, red: code === "RJ" };
  }
  if (/^\d+$/.test(code)) {
    return { code, rank: code, suit: null, joker: false, cabo: true, red: false };
  }
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  return { code, rank, suit, joker: false, cabo: false, red: Boolean(SUITS[suit]?.red) };
}

/**
 * Spoken name of a card: "5 of hearts", "queen of spades", "red joker", "Cabo 7".
 * @param {string} code
 */
export function cardName(code) {
  const c = parseCard(code);
  if (c.joker) return c.red ? t("ui.cards.red_joker") : t("ui.cards.black_joker");
  if (c.cabo) return t("ui.cards.cabo", { rank: c.rank });
  const suit = SUITS[c.suit] ? t(`ui.suit.${c.suit}`) : c.suit;
  return t("ui.cards.name", { rank: rankName(c.rank), suit });
}

/**
 * Short printable form with a suit symbol: "10♥".
 * @param {string} code
 */
export function cardShort(code) {
  const c = parseCard(code);
  if (c.joker) return c.red ? t("ui.cards.red_joker_short") : t("ui.cards.black_joker_short");
  if (c.cabo) return c.rank;
  return c.rank + (SUITS[c.suit]?.symbol ?? c.suit);
}

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {Node[]} [children]
 * @returns {SVGElement}
 */
function node(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child);
  return el;
}

/**
 * @param {number} x
 * @param {number} y
 * @param {string} content
 * @param {Record<string, string | number>} [attrs]
 */
function text(x, y, content, attrs = {}) {
  const t = node("text", { x, y, "text-anchor": "middle", ...attrs });
  t.textContent = content;
  return t;
}

/**
 * A suit symbol scaled to `size` with its top-left corner at (x, y).
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} fill
 */
function pip(suit, x, y, size, fill) {
  return node("path", {
    d: SUITS[suit].path,
    fill,
    transform: `translate(${x} ${y}) scale(${size / 100})`,
  });
}

/** @param {string} cls */
function svgRoot(cls) {
  return node("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg ${cls}`,
    "aria-hidden": "true",
    focusable: "false",
  });
}

// Digits that read as a digit when the card is turned round (180°).
/** @type {Record<string, string>} */
const TURNED = { 0: "0", 1: "1", 6: "9", 8: "8", 9: "6" };

/** Every rank a card may carry (suited ranks and the numbered deck's values). */
const RANKS = new Set(["A", "J", "Q", "K", ...Array.from({ length: 14 }, (_, i) => String(i))]);

/**
 * Whether `rank` turned upside down reads as another rank ("6" ↔ "9"): such ranks are
 * underlined, as printed cards do.
 * @param {string} rank
 */
export function readsAsAnother(rank) {
  const chars = [...rank].reverse();
  if (!chars.every((ch) => ch in TURNED)) return false;
  const turned = chars.map((ch) => TURNED[ch]).join("");
  return turned !== rank && RANKS.has(turned);
}

/**
 * A rank's text centred on (x, y), squeezed to `maxWidth` when it has two characters, and
 * underlined when it reads as another rank upside down.
 * @param {number} x
 * @param {number} y
 * @param {string} rank
 * @param {number} size font size
 * @param {number} maxWidth
 * @param {Record<string, string | number>} attrs
 * @param {string} color the underline's colour
 */
function rankText(x, y, rank, size, maxWidth, attrs, color) {
  /** @type {Record<string, string | number>} */
  const wide = rank.length > 1 ? { textLength: maxWidth, lengthAdjust: "spacingAndGlyphs" } : {};
  const label = text(x, y, rank, { "font-size": size, class: "rank", ...wide, ...attrs });
  if (!readsAsAnother(rank)) return [label];
  const w = Math.min(maxWidth, size * 0.62 * rank.length);
  const line = node("rect", {
    x: x - w / 2,
    y: y + size * 0.1,
    width: w,
    height: Math.max(1.5, size * 0.08),
    rx: 0.8,
    fill: color,
    class: "rank-underline",
  });
  return [label, line];
}

/**
 * Corner index: rank above a small pip; drawn twice, the second rotated 180°. Two-digit
 * ranks are squeezed into the corner's width.
 * @param {string} rank
 * @param {string | null} suit
 * @param {string} color
 */
function corners(rank, suit, color) {
  const g = node("g");
  const one = node("g", { class: "corner" });
  const size = rank.length > 1 ? 19 : 24;
  one.append(...rankText(14, 25, rank, size, 18, { "font-weight": 700, fill: color }, color));
  if (suit) one.append(pip(suit, 5, 31, 18, color));
  const two = /** @type {SVGElement} */ (one.cloneNode(true));
  two.setAttribute("transform", "rotate(180 50 70)");
  g.append(one, two);
  return g;
}

/**
 * A value as a badge prints it: a real minus sign ("−2").
 * @param {number} value
 */
export function valueText(value) {
  return value < 0 ? `\u2212${-value}` : String(value);
}

/**
 * The badge of a card whose value is unusual in the game (a gabo red king's 15, a joker's −2):
 * a bright pill with the points in the card's bottom-left corner, the one corner no index, pip
 * or panel needs, drawn large enough to read on a phone's smallest card.
 * @param {number} value
 */
function valueBadge(value) {
  const label = valueText(value);
  const g = node("g", { class: "value-mark", "data-value": String(value) });
  g.append(
    node("rect", {
      x: 2,
      y: 103,
      width: 52,
      height: 35,
      rx: 12,
      fill: "#ffd54f",
      stroke: "#1d1d1f",
      "stroke-width": 2.5,
    }),
  );
  /** @type {Record<string, string | number>} */
  const fit = label.length > 2 ? { textLength: 44, lengthAdjust: "spacingAndGlyphs" } : {};
  g.append(
    text(28, 131, label, {
      "font-size": 30,
      "font-weight": 800,
      fill: "#1d1d1f",
      "font-family": "system-ui, sans-serif",
      ...fit,
    }),
  );
  return g;
}

/**
 * The SVG of a card's face. `powers` (card code → power word, from /api/variants) prints the
 * power small on a numbered card, as the numbered deck's own cards do; `mark`, the card's value
 * where it is unusual in the game (/api/variants' value_marks), is drawn as a badge.
 * @param {string} code
 * @param {Record<string, string> | null} [powers]
 * @param {number | null} [mark]
 * @returns {SVGElement}
 */
export function cardFace(code, powers = null, mark = null) {
  const svg = drawFace(code, powers);
  if (mark !== null && mark !== undefined) svg.append(valueBadge(mark));
  return svg;
}

/**
 * The face itself, without a value badge.
 * @param {string} code
 * @param {Record<string, string> | null} powers
 * @returns {SVGElement}
 */
function drawFace(code, powers) {
  const c = parseCard(code);
  const color = c.red ? "#c62828" : "#1d1d1f";
  const svg = svgRoot("face");
  svg.append(node("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-paper" }));
  if (c.joker) {
    svg.append(corners("★", null, color));
    // The word clear of the bottom-left corner, where a value badge goes.
    svg.append(text(50, 76, "★", { "font-size": 46, fill: color }));
    svg.append(text(50, 99, "JOKER", { "font-size": 14, "font-weight": 700, fill: color }));
    return svg;
  }
  if (c.cabo) {
    // Numbered Cabo cards: a colour band from green (0, good) to red (13, bad).
    const value = Number(c.rank);
    const hue = Math.round(140 - (value / 13) * 140);
    const band = `hsl(${hue} 55% 42%)`;
    svg.append(node("rect", { x: 10, y: 30, width: 80, height: 80, rx: 10, fill: band }));
    svg.append(corners(c.rank, null, band));
    svg.append(...rankText(50, 86, c.rank, 44, 54, { "font-weight": 800, fill: "#fff" }, "#fff"));
    const power = powers?.[code];
    if (power) {
      const word = (has(`ui.cards.power.${power}`) ? t(`ui.cards.power.${power}`) : power)
        .toLocaleUpperCase();
      /** @type {Record<string, string | number>} */
      const fit = word.length > 10 ? { textLength: 76, lengthAdjust: "spacingAndGlyphs" } : {};
      svg.append(text(50, 104, word, { "font-size": 11, fill: "#fff", ...fit }));
    }
    return svg;
  }
  svg.append(corners(c.rank, c.suit, color));
  if (c.rank === "J" || c.rank === "Q" || c.rank === "K") {
    // Court cards: a framed panel with the letter and a pip (no copied artwork).
    svg.append(
      node("rect", {
        x: 24,
        y: 28,
        width: 52,
        height: 84,
        rx: 6,
        fill: c.red ? "#fdecea" : "#eceff4",
        stroke: color,
        "stroke-width": 2,
      }),
    );
    svg.append(text(50, 72, c.rank, { "font-size": 36, "font-weight": 800, fill: color }));
    svg.append(pip(c.suit, 38, 80, 24, color));
  } else {
    svg.append(pip(c.suit, 25, 45, 50, color));
  }
  return svg;
}

/**
 * The SVG of a card's back: a lattice pattern inside a frame.
 * @returns {SVGElement}
 */
export function cardBack() {
  const svg = svgRoot("back");
  svg.append(node("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-back-bg" }));
  // Two families of diagonals inside a nested <svg>, which clips them to the inner frame
  // (no <pattern> or <clipPath>, so no document-wide ids are needed).
  const inner = node("svg", { x: 10, y: 10, width: 80, height: 120, viewBox: "0 0 80 120" });
  const lines = [];
  for (let i = -120; i <= 80; i += 12) {
    lines.push(`M${i} 0L${i + 120} 120`, `M${i + 120} 0L${i} 120`);
  }
  inner.append(node("path", { d: lines.join(""), class: "card-back-lattice" }));
  svg.append(inner);
  svg.append(node("rect", { x: 9, y: 9, width: 82, height: 122, rx: 5, class: "card-back-frame" }));
  svg.append(node("circle", { cx: 50, cy: 70, r: 15, class: "card-back-medal" }));
  svg.append(pip("S", 42, 62, 16, "currentColor"));
  return svg;
}
