// The games the server plays and what the client shows of each, from GET /api/variants: the
// kind of game (`family`: the Cabo family's memory table, or Qute's shedding table), the call
// word and its label, card values, the power printed on a card, the hand layout. Loaded once
// before any page starts (app.js); the rest of the client reads it synchronously and names no
// variant itself, so a variant added on the server shows without any change here.

import { api } from "./net.js";

let loaded = null;
const byName = new Map();

/** Fetch the variants once (later calls share the first answer; a failure is asked again). */
export function loadVariants() {
  loaded ??= api("/api/variants").then(
    (list) => {
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

/** What /api/variants says about the game `name`, or null. */
export function variantInfo(name) {
  return byName.get(name) ?? null;
}

/** Whether `game` is played on Qute's shedding table (else the Cabo family's table). */
export function isShedding(game) {
  return variantInfo(game)?.family === "qute";
}

/** The call word of `game` ("cabo", "knock" …), or null. */
export function callWord(game) {
  return variantInfo(game)?.call ?? null;
}

/** A call word as a name: "cabo" → "Cabo". */
export function callName(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** Small counts in words for messages: 2 → "two". */
export function countWord(n) {
  return ["no", "one", "two", "three", "four", "five", "six"][n] ?? String(n);
}
