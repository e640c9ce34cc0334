// @ts-check
// A game in words: the move log's line for each event, and the status line that says what is
// going on and what the viewer can do. Used by the live table and by the replay.

import { cardShort, SUITS } from "./cards.js";
import { callName, countWord, isSheddingView, variantInfo } from "./variants.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */
/** @typedef {import("./table.js").Names} Names */

/**
 * How a sentence names seats and cards, from one viewer's side: "You" and "your card 2" for the
 * viewer, "their card 2" for the acting seat's own cards, "Ann's card 2" for anyone else's.
 * @typedef {object} Speaker
 * @property {(seat: number) => string} subject who acts, at the start of a sentence
 * @property {(addr: string, actor?: number | null) => string} card a card's place in words
 * @property {(you: string, them: string, seat?: number | null) => string} verb the verb form
 */

/**
 * The words for seats and places, as `viewer` reads them (null: a spectator).
 * @param {Names} names
 * @param {number | null | undefined} viewer
 * @returns {Speaker}
 */
export function speaker(names, viewer) {
  const isYou = (/** @type {number | null | undefined} */ seat) =>
    viewer !== null && viewer !== undefined && seat === viewer;
  return {
    subject: (seat) => (isYou(seat) ? "You" : names(seat)),
    card(addr, actor) {
      const [p, n] = addr.split(".");
      if (n === undefined) return `card ${addr}`;
      const owner = Number(p);
      if (isYou(owner)) return `your card ${n}`;
      if (actor !== undefined && actor !== null && owner === actor) return `their card ${n}`;
      return `${names(owner)}'s card ${n}`;
    },
    verb: (you, them, seat) => (isYou(seat) ? you : them),
  };
}

/**
 * The addresses an event touched on the table (cards to highlight where it happened).
 * @param {ViewEvent} ev
 * @returns {string[]}
 */
export function eventPlaces(ev) {
  /** @param {unknown} x */
  const list = (x) =>
    Array.isArray(x) ? x.filter((a) => typeof a === "string") : typeof x === "string" ? [x] : [];
  switch (ev.type) {
    case "peek":
    case "spy":
    case "look":
    case "replace":
    case "claim":
    case "exchange":
    case "drop":
    case "snap":
      return list(ev.at).filter((a) => a.includes("."));
    case "penalty":
      return "at" in ev ? list(ev.at) : [];
    case "give":
      return [ev.from, ev.to];
    default:
      return [];
  }
}

/**
 * Describe one event in plain words, with names (null to leave it out). `viewer` is the seat
 * reading it ("you" and "your card"), null or absent for a spectator.
 * @param {ViewEvent} ev
 * @param {Names} names
 * @param {number | null} [viewer]
 * @returns {string | null}
 */
export function describeEvent(ev, names, viewer = null) {
  const seat = "seat" in ev && ev.seat !== undefined && ev.seat !== null ? ev.seat : null;
  const say = speaker(names, viewer);
  const who = seat === null ? "" : say.subject(seat);
  /** @param {string} you @param {string} them */
  const v = (you, them) => say.verb(you, them, seat);
  /** @param {string} a */
  const place = (a) => say.card(a, seat);
  /** @param {string | string[]} a */
  const places = (a) => (Array.isArray(a) ? a.map(place).join(" and ") : place(a));
  /** @param {string | null | undefined} code */
  const c = (code) => (code ? cardShort(code) : "a card");
  // Codes in brackets, when the event carries them (a table without memory aid gets none).
  /** @param {string | string[] | null | undefined} codes */
  const shown = (codes) => {
    const list = (Array.isArray(codes) ? codes : [codes]).filter(Boolean);
    return list.length ? ` (${list.map(c).join(", ")})` : "";
  };
  switch (ev.type) {
    case "round_start":
      return `Round ${ev.round} begins`;
    case "peek":
      return `${who} looked at ${places(ev.at)}${shown(ev.card)}`;
    case "spy":
      return `${who} spied on ${places(ev.at)}${shown(ev.card)}`;
    case "look":
      return `${who} looked at ${places(ev.at)}${shown(ev.cards)}`;
    case "draw":
      if ("from" in ev) {
        return ev.from === "discard"
          ? `${who} took ${ev.card ? c(ev.card) : "the top card"} from the discard pile`
          : `${who} drew a card from the deck${shown(ev.card)}`;
      }
      // Qute: `card` says whether a card came, `drawn` is its code (for the drawing seat).
      if (!ev.card) return `${who} found the draw pile empty`;
      return `${who} drew a card from the draw pile${shown(ev.drawn)}`;
    case "replace": {
      const out = ev.out?.length ? `, and threw away ${ev.out.map(c).join(", ")}` : "";
      return `${who} put the drawn card in place of ${places(ev.at)}${out}`;
    }
    case "claim":
      return ev.ok
        ? `${who} claimed ${places(ev.at)} as equal — right${shown(ev.out)}`
        : `${who} claimed ${places(ev.at)} as equal — wrong${shown(ev.shown)}`;
    case "discard":
      return `${who} threw away ${c(ev.card)}${ev.power ? ` and may ${powerWords(ev.power, v("your", "their"))}` : ""}`;
    case "exchange": {
      const [a, b] = ev.at;
      return b === undefined
        ? `${who} swapped ${places(ev.at)}`
        : `${who} swapped ${place(a)} with ${place(b)}`;
    }
    case "drop":
      return ev.ok
        ? `${who} dropped ${places(ev.at)}${shown(ev.card)} on the pile: a match`
        : `${who} tried to drop ${places(ev.at)}${shown(ev.card)}: no match`;
    case "snap":
      return ev.ok
        ? `${who} snapped ${places(ev.at)}${shown(ev.card)}: a match`
        : `${who} snapped ${places(ev.at)}${shown(ev.card)}: no match`;
    case "snap_open":
      return ev.card ? `Snap! Anyone may throw a ${cardShort(ev.card)}` : "Snap window";
    case "give":
      return `${who} gave ${place(ev.from)} to take the place of ${place(ev.to)}`;
    case "penalty":
      if ("count" in ev)
        return `${who} drew ${countWord(ev.count)} card${ev.count === 1 ? "" : "s"} for the ${ev.for}`;
      if (ev.at === null) return `${who} owed a penalty card, but the deck was empty`;
      return `${who} took a penalty card as ${place(ev.at)}`;
    case "pass":
      return `${who} passed`;
    case "call":
      return `${who} called ${callName(ev.word)}!`;
    case "reshuffle":
      return `The discard pile is shuffled into a new deck (${ev.deck} cards)`;
    case "play":
      return `${who} played ${ev.cards.map(c).join(" ")} (${ev.left} left)`;
    case "suit":
      return `${who} chose ${SUITS[ev.suit]?.name ?? ev.suit} to follow`;
    case "eights":
      return ev.mode === "all"
        ? `${who} passed the 8s on: the next player draws them all`
        : `${who} let the 8s go round`;
    case "skip": {
      // "You", then the others: "You and Bob are skipped", "Bob is skipped".
      const order = [...ev.seats].sort((a, b) => Number(b === viewer) - Number(a === viewer));
      const list = order.map((s, i) => (i > 0 ? say.subject(s).replace(/^You$/, "you") : say.subject(s)));
      const one = list.length === 1 && list[0] !== "You";
      return `${list.join(" and ")} ${one ? "is" : "are"} skipped (an ${ev.for})`;
    }
    case "refill":
      return `The draw pile is refilled from the stack (${ev.blind} cards)`;
    case "qute":
      return `${who} called Qute!`;
    case "continue":
      return `${who} played on`;
    case "jpoints":
      return ev.mode === "minus"
        ? `${who} took the J points off ${v("your", "their")} own score`
        : `${who} gave the J points to everyone else`;
    case "dead_end":
      return `${who} cannot move: the round ends`;
    case "max_turns":
      return `The round reached its limit of ${ev.turns} turns`;
    case "round_end": {
      const resets = "reset" in ev ? ev.reset : [];
      const reset = resets.length
        ? ` — ${resets.map((s) => say.subject(s)).join(", ")} hit the target exactly: back to 0`
        : "";
      return `Round ${ev.round} over — ${winnerWords(ev.winners, say)} the round${reset}`;
    }
    case "game_over":
      return `Game over — ${winnerWords(ev.winners, say)} the game`;
    case "turn":
      return null;
    default:
      return `${who} ${/** @type {{type: string}} */ (ev).type}`.trim();
  }
}

/**
 * "Ann wins", "You win", "Ann and Bob share".
 * @param {number[]} winners
 * @param {Speaker} say
 */
function winnerWords(winners, say) {
  const list = winners.map((s, i) => (i > 0 && say.subject(s) === "You" ? "you" : say.subject(s)));
  if (list.length === 1) return `${list[0]} ${list[0] === "You" ? "win" : "wins"}`;
  return `${list.join(" and ")} share`;
}

/**
 * What a power lets its player do, in words.
 * @param {string} power
 * @param {string} own "your" or "their"
 */
function powerWords(power, own) {
  /** @type {Record<string, string>} */
  const words = {
    peek: `look at one of ${own} own cards`,
    spy: "look at another player's card",
    exchange: "swap two cards",
    look: "look at two cards and swap them",
  };
  return words[power] ?? power;
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
