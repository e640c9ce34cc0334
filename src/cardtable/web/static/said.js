// @ts-check
// The words of an event, as the server sends them with it (`said`: phrased once for both front
// ends, by cardtable.text.phrase, from this reader's side), drawn in the page: a card is written
// in the text as a token ("[7H]"), shown here as the table names a card ("7♥", a red suit in
// red), and a line begins with a capital letter. Nothing here phrases a move.

import { cardShort, parseCard } from "./cards.js";
import { t } from "./i18n.js";
import { el } from "./ui.js";

/** @typedef {import("./types/protocol").Said} Said */

/** A card in the text: "[7H]", "[10S]", "[RJ]", "[5]" (Cabo's deck). */
const TOKEN = /\[([0-9]{1,2}|[0-9AJQK]{1,2}[CDHS]|[RB]J)\]/g;

/**
 * A card of the text as the page names it: "7♥", "7" (Cabo's deck), "red joker".
 * @param {string} code
 */
function cardText(code) {
  const card = parseCard(code);
  if (card.joker) return card.red ? t("ui.said.red_joker") : t("ui.said.black_joker");
  return cardShort(code);
}

/**
 * The text split into its plain runs and its cards.
 * @param {string} text
 * @returns {({text: string} | {card: string})[]}
 */
function pieces(text) {
  /** @type {({text: string} | {card: string})[]} */
  const out = [];
  let end = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index ?? 0;
    if (at > end) out.push({ text: text.slice(end, at) });
    out.push({ card: match[1] });
    end = at + match[0].length;
  }
  if (end < text.length) out.push({ text: text.slice(end) });
  // a line begins with a capital letter ("you drew …" → "You drew …")
  const first = out[0];
  if (first && "text" in first)
    first.text = first.text.charAt(0).toUpperCase() + first.text.slice(1);
  return out;
}

/**
 * The words as plain text: "You took the 7♥ from the discard pile".
 * @param {Said | string} said
 * @returns {string}
 */
export function saidText(said) {
  const text = typeof said === "string" ? said : said.text;
  return pieces(text)
    .map((p) => ("card" in p ? cardText(p.card) : p.text))
    .join("");
}

/**
 * The words for the page: text, each card a span (red suits marked `red`).
 * @param {Said | string} said
 * @returns {(string | HTMLElement)[]}
 */
export function saidNodes(said) {
  const text = typeof said === "string" ? said : said.text;
  return pieces(text).map((p) =>
    "card" in p
      ? el("span", { class: `said-card${parseCard(p.card).red ? " red" : ""}` }, cardText(p.card))
      : p.text,
  );
}
