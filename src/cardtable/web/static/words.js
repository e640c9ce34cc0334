// @ts-check
// The status line of the live table: what is going on, and what the viewer can do. (Every move
// is phrased by the server: each event's `said`, drawn by said.js.)

import { cardShort } from "./cards.js";
import { countWord, isSheddingView, variantInfo } from "./variants.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./table.js").Names} Names */

/**
 * A short status line: what is going on, and what the viewer can do.
 * @param {View} view
 * @param {number | null} viewer
 * @param {Names} names
 * @returns {string}
 */
export function statusLine(view, viewer, names) {
  if (view.over) return "Game over";
  const mine = viewer !== null && view.actors.includes(viewer) && view.legal?.length;
  const verbs = new Set((view.legal ?? []).map((a) => a.split(" ")[0]));
  if (view.phase === "peek") {
    const left = viewer === null ? null : view.peeks_left?.[viewer];
    const peeks = variantInfo(view.game)?.initial_peeks ?? 2;
    return left
      ? `Look at ${left} of your cards: click ${countWord(left)}`
      : `Everybody looks at ${countWord(peeks)} of their cards`;
  }
  if (!mine) {
    const acting = view.actors.map(names).join(", ");
    if (view.phase === "snap") return `Snap window: anyone may throw a matching card`;
    return acting ? `${acting} ${view.actors.length > 1 ? "are" : "is"} playing` : "";
  }
  if (isSheddingView(view)) {
    if (verbs.has("qute")) return "Four of a kind! Call Qute to end the round, or continue";
    if (verbs.has("suit")) return "Choose the suit to follow";
    if (verbs.has("eights"))
      return "Your 8s: the next player draws two per 8 and is skipped, or every other player draws two per 8 in turn";
    if (verbs.has("jpoints")) return "J points: minus for you, or plus for everyone else";
    if (view.must_cover) return "Cover the 6: play a card that fits, or draw";
    if (verbs.has("play")) return "Your turn: click a card to play (several of one rank in order)";
    return "Nothing fits: draw a card";
  }
  if (view.phase === "snap") return "Snap: click a card of the same rank, or pass";
  if (verbs.has("give")) return "Give one of your cards (click it), or pass";
  if (view.phase === "look" && verbs.has("exchange")) return "Exchange the two cards, or pass";
  // (typeof: a Qute view, whose `pending` is a word, comes here when the variants are unknown)
  const pending = typeof view.pending === "object" ? view.pending : null;
  if (pending && "power" in pending && pending.power) {
    const p = pending.power;
    /** @type {Record<string, string>} */
    const how = {
      peek: "click one of your cards to look at it",
      spy: "click another player's card to look at it",
      exchange: "click two cards to swap them",
      look: "click one of yours and one of theirs to look at both",
    };
    return `Power ${cardShort(pending.card)}: ${how[p] ?? p}${verbs.has("pass") ? ", or pass" : ""}`;
  }
  if (view.drawn && view.drawer === viewer) {
    const claim = (view.legal ?? []).some((a) => /^replace \d+ \d+/.test(a));
    return `Click one of your cards to replace it${claim ? " (or “Claim several equal cards” first)" : ""}${
      verbs.has("discard") ? ", or the discard pile to throw the card away" : ""
    }${verbs.has("drop") ? " (a card that matches the pile may be dropped first)" : ""}`;
  }
  if (verbs.has("draw")) {
    const drop = verbs.has("drop") ? ", or drop a card that matches the pile" : "";
    return `Your turn: draw from the deck or the discard pile${drop}`;
  }
  if (verbs.has("drop")) return "Drop a card that matches the pile, or go on";
  return "Your turn";
}
