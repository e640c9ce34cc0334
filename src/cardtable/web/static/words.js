// @ts-check
// A game in words: the move log's line for each event, and the status line that says what is
// going on and what the viewer can do. Used by the live table and by the replay.

import { cardShort, SUITS } from "./cards.js";
import { callName, countWord, isSheddingView, variantInfo } from "./variants.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */
/** @typedef {import("./table.js").Names} Names */

/**
 * Describe one event in plain words for the move log (null to leave it out).
 * @param {ViewEvent} ev
 * @param {Names} names
 * @returns {string | null}
 */
export function describeEvent(ev, names) {
  const who = "seat" in ev && ev.seat !== undefined && ev.seat !== null ? names(ev.seat) : "";
  /** @param {string | string[]} a */
  const at = (a) => (Array.isArray(a) ? a.join(" and ") : a);
  /** @param {string | null | undefined} code */
  const c = (code) => (code ? cardShort(code) : "a card");
  // Codes in brackets, when the event carries them (a table without memory aid gets none).
  /** @param {string | string[] | undefined} codes */
  const shown = (codes) => {
    const list = (Array.isArray(codes) ? codes : [codes]).filter(Boolean);
    return list.length ? ` (${list.map(c).join(", ")})` : "";
  };
  switch (ev.type) {
    case "round_start":
      return `Round ${ev.round} begins`;
    case "peek":
      return `${who} looked at ${at(ev.at)}${ev.card ? ` (${c(ev.card)})` : ""}`;
    case "spy":
      return `${who} spied on ${at(ev.at)}${ev.card ? ` (${c(ev.card)})` : ""}`;
    case "look":
      return `${who} looked at ${at(ev.at)}${ev.cards ? ` (${ev.cards.map(c).join(", ")})` : ""}`;
    case "draw":
      if ("from" in ev)
        return `${who} drew from the ${ev.from}${ev.card ? ` (${c(ev.card)})` : ""}`;
      // Qute: `card` says whether a card came, `drawn` is its code (for the drawing seat).
      return `${who} drew from the blind${ev.drawn ? ` (${c(ev.drawn)})` : ""}`;
    case "replace":
      return ev.out?.length
        ? `${who} replaced ${at(ev.at)}, discarding ${ev.out.map(c).join(", ")}`
        : `${who} replaced ${at(ev.at)}`;
    case "claim":
      return ev.ok
        ? `${who} claimed ${at(ev.at)}: equal!${shown(ev.out)}`
        : `${who} claimed ${at(ev.at)}: not equal${shown(ev.shown)}`;
    case "discard":
      return `${who} discarded ${c(ev.card)}${ev.power ? ` — power: ${ev.power}` : ""}`;
    case "exchange":
      return `${who} exchanged ${at(ev.at)}`;
    case "drop":
      return `${who} dropped ${at(ev.at)}${shown(ev.card)}: ${ev.ok ? "match" : "no match"}`;
    case "snap":
      return `${who} snapped ${at(ev.at)}${shown(ev.card)}: ${ev.ok ? "match" : "no match"}`;
    case "snap_open":
      return ev.card ? `Snap window for ${c(ev.card)}` : "Snap window";
    case "give":
      return `${who} gave ${ev.from} to ${ev.to}`;
    case "penalty":
      if ("count" in ev) return `${who} draws ${ev.count} for ${ev.for}`;
      if (ev.at === null) return `${who} owes a penalty card, but the deck is empty`;
      return `${who} takes a penalty card at ${ev.at}`;
    case "pass":
      return `${who} passed`;
    case "call":
      return `${who} called ${callName(ev.word)}!`;
    case "reshuffle":
      return `The discard pile is shuffled into a new deck (${ev.deck} cards)`;
    case "play":
      return `${who} played ${ev.cards.map(c).join(" ")} (${ev.left} left)`;
    case "suit":
      return `${who} wishes ${SUITS[ev.suit]?.name ?? ev.suit}`;
    case "eights":
      return `${who}: eights ${ev.mode}`;
    case "skip":
      return `${ev.seats.map(names).join(", ")} skipped (${ev.for})`;
    case "refill":
      return `The blind is refilled (${ev.blind} cards, ×${ev.refills + 1})`;
    case "qute":
      return `${who} called Qute!`;
    case "continue":
      return `${who} plays on`;
    case "jpoints":
      return `${who}: J points ${ev.mode}`;
    case "round_end":
      return `Round ${ev.round} over — winners: ${ev.winners.map(names).join(", ")}`;
    case "game_over":
      return `Game over — winners: ${ev.winners.map(names).join(", ")}`;
    case "turn":
      return null;
    default:
      return `${who} ${ev.type}`.trim();
  }
}

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
    if (verbs.has("eights")) return "Your 8s: the next player draws them all, or they go round";
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
    }`;
  }
  if (verbs.has("draw")) {
    const drop = verbs.has("drop") ? ", or drop a card that matches the pile" : "";
    return `Your turn: draw from the deck or the discard pile${drop}`;
  }
  if (verbs.has("drop")) return "Drop a card that matches the pile, or go on";
  return "Your turn";
}
