// @ts-check
// The games the server plays and what the client shows of each, from GET /api/variants: the
// kind of game (`family`: the Cabo family's memory table, or Qute's shedding table), the call
// word and its label, card values, the power printed on a card, the hand layout. Loaded once
// before any page starts (app.js); the rest of the client reads it synchronously and names no
// variant itself, so a variant added on the server shows without any change here. Its words (a
// game's summary) come in the page's language (?lang=).

import { language, t } from "./i18n.js";
import { api } from "./net.js";

/** @typedef {import("./types/protocol").VariantInfo} VariantInfo */
/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/view").QuteView} QuteView */

/** @type {Promise<VariantInfo[]> | null} */
let loaded = null;
/** @type {Map<string, VariantInfo>} */
const byName = new Map();

/**
 * Fetch the variants once (later calls share the first answer; a failure is asked again).
 * @returns {Promise<VariantInfo[]>}
 */
export function loadVariants() {
  loaded ??= api(`/api/variants?lang=${encodeURIComponent(language())}`).then(
    (answer) => {
      const list = /** @type {VariantInfo[]} */ (answer);
      byName.clear();
      for (const v of list) byName.set(v.name, v);
      return list;
    },
    (err) => {
      loaded = null; // the next call asks again
      throw err;
    },
  );
  return loaded;
}

/** Every variant, in the server's order (empty before loadVariants has answered). */
export function allVariants() {
  return [...byName.values()];
}

/**
 * What /api/variants says about the game `name`, or null.
 * @param {string} name
 * @returns {VariantInfo | null}
 */
export function variantInfo(name) {
  return byName.get(name) ?? null;
}

/**
 * Whether `game` is played on Qute's shedding table (else the Cabo family's table).
 * @param {string} game
 */
export function isShedding(game) {
  return variantInfo(game)?.family === "qute";
}

/**
 * Whether `view` is of a game played on the shedding table (isShedding of its game): a Qute
 * view, else a Cabo-family one.
 * @param {View} view
 * @returns {view is QuteView}
 */
export function isSheddingView(view) {
  return isShedding(view.game);
}

/**
 * The call word of `game` ("cabo", "knock" …), or null.
 * @param {string} game
 * @returns {string | null}
 */
export function callWord(game) {
  return variantInfo(game)?.call ?? null;
}

/**
 * A call word as a name: "cabo" → "Cabo".
 * @param {string | null | undefined} word
 * @returns {string | null | undefined}
 */
export function callName(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/**
 * Small counts in words for messages: 2 → "two" ("zwei").
 * @param {number} n
 */
export function countWord(n) {
  return n >= 0 && n <= 6 ? t(`ui.number.${n}`) : String(n);
}
