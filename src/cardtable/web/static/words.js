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
 * Who chose a move, when not the seat's own player (the `by` of a state frame or a log entry):
 * the turn clock, or an AI standing in for a person who is away.
 * @typedef {import("./types/protocol").By} By
 */

/**
 * How a move is told: `by` labels the moves of `by.seat` as chosen by the clock or a stand-in;
 * `on` is the card a Qute play was laid on (null: an empty stack; undefined: not known).
 * @typedef {{by?: By | null, on?: string | null}} TellOpts
 */

// Stands for the acting seat while a sentence is built, when a label goes in front instead.
const ACTOR = "\u0000";

/**
 * A card named in a sentence: "the 7♥", "the 7" (Cabo's deck), "the red joker"; "a card" when
 * the code is not known to the reader.
 * @param {string | null | undefined} code
 */
export function theCard(code) {
  if (!code) return "a card";
  if (code === "RJ" || code === "BJ") return code === "RJ" ? "the red joker" : "the black joker";
  return `the ${cardShort(code)}`;
}

/**
 * Cards in a list: "the 7♥", "the 7♥ and the 7♣", "the 7, the 7 and the 8".
 * @param {string[]} codes
 */
export function theCards(codes) {
  const names = codes.map(theCard);
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Describe one event in plain words, with names (null to leave it out). `viewer` is the seat
 * reading it ("you" and "your card"), null or absent for a spectator. A move that the clock or
 * a stand-in chose for its seat (`opts.by`) says so first: "Time ran out for Bob: looked at
 * their card 0", "Casual AI for you: called Cabo!" (never "You" for what someone else chose).
 * @param {ViewEvent} ev
 * @param {Names} names
 * @param {number | null} [viewer]
 * @param {TellOpts} [opts]
 * @returns {string | null}
 */
export function describeEvent(ev, names, viewer = null, opts = {}) {
  const seat = "seat" in ev && ev.seat !== undefined && ev.seat !== null ? ev.seat : null;
  const by = opts.by && seat !== null && opts.by.seat === seat ? opts.by : null;
  if (!by) return tell(ev, speaker(names, viewer), opts);
  // The sentence without its subject, then who chose it in front.
  const plain = speaker(names, viewer);
  /** @type {Speaker} */
  const say = {
    subject: (s) => (s === seat ? ACTOR : plain.subject(s)),
    card: plain.card,
    verb: (you, them, s) => (s === seat ? them : plain.verb(you, them, s)),
  };
  const text = tell(ev, say, opts);
  if (text === null) return null;
  const whose = by.seat === viewer ? "you" : names(by.seat);
  const label = by.kind === "clock" ? `Time ran out for ${whose}` : `${by.name} for ${whose}`;
  const rest = text.startsWith(`${ACTOR} `) ? text.slice(ACTOR.length + 1) : text;
  return `${label}: ${rest.replaceAll(ACTOR, names(by.seat))}`;
}

/**
 * The sentence of one event, as `say` names seats and places.
 * @param {ViewEvent} ev
 * @param {Speaker} say
 * @param {TellOpts} opts
 * @returns {string | null}
 */
function tell(ev, say, opts) {
  const seat = "seat" in ev && ev.seat !== undefined && ev.seat !== null ? ev.seat : null;
  const who = seat === null ? "" : say.subject(seat);
  /** @param {string} you @param {string} them */
  const v = (you, them) => say.verb(you, them, seat);
  /** @param {string} a */
  const place = (a) => say.card(a, seat);
  /** @param {string | string[]} a */
  const places = (a) => (Array.isArray(a) ? a.map(place).join(" and ") : place(a));
  // A card the reader may know, after its place: ", the 7♥" (nothing when it is not known).
  /** @param {string | string[] | null | undefined} codes */
  const named = (codes) => {
    const list = (Array.isArray(codes) ? codes : [codes]).filter((c) => typeof c === "string");
    return list.length ? ` (${theCards(list)})` : "";
  };
  switch (ev.type) {
    case "round_start": {
      const pile = "discard" in ev && ev.discard?.length ? ev.discard : [];
      const first = pile.length ? ` — ${theCards(pile)} starts the discard pile` : "";
      return `Round ${ev.round} begins${first}`;
    }
    case "peek":
      return `${who} looked at ${places(ev.at)}${named(ev.card)}`;
    case "spy":
      return `${who} spied on ${places(ev.at)}${named(ev.card)}`;
    case "look":
      return `${who} looked at ${places(ev.at)}${named(ev.cards)}`;
    case "draw":
      if ("from" in ev) {
        if (ev.from === "discard")
          return `${who} took ${ev.card ? theCard(ev.card) : "the top card"} from the discard pile`;
        return `${who} drew ${ev.card ? theCard(ev.card) : "a card"} from the deck`;
      }
      // Qute: `card` says whether a card came, `drawn` is its code (for the drawing seat).
      if (!ev.card) return `${who} found the draw pile empty`;
      return `${who} drew ${ev.drawn ? theCard(ev.drawn) : "a card"} from the draw pile`;
    case "replace": {
      const out = ev.out?.length ? ` and threw away ${theCards(ev.out)}` : "";
      return `${who} put ${ev.card ? theCard(ev.card) : "the drawn card"} in place of ${places(ev.at)}${out}`;
    }
    case "claim": {
      const card = ev.card ? theCard(ev.card) : "the drawn card";
      if (ev.ok) {
        const out = ev.out?.length ? `: ${theCards(ev.out)} go to the pile` : "";
        return `${who} claimed ${places(ev.at)} are equal — right${out}; ${card} takes their place`;
      }
      return `${who} claimed ${places(ev.at)} are equal — wrong${
        ev.shown?.length ? `: ${theCards(ev.shown)} now lie face up` : ""
      }; ${card} joins the hand`;
    }
    case "discard":
      return `${who} threw away ${theCard(ev.card)}${
        ev.power ? ` and may ${powerWords(ev.power, v("your", "their"))}` : ""
      }`;
    case "exchange": {
      const [a, b] = ev.at;
      return b === undefined
        ? `${who} swapped ${places(ev.at)}`
        : `${who} swapped ${place(a)} with ${place(b)}`;
    }
    case "drop":
      return ev.ok
        ? `${who} dropped ${places(ev.at)}${named(ev.card)} on the pile: a match`
        : `${who} tried to drop ${places(ev.at)}${named(ev.card)}: no match`;
    case "snap":
      return ev.ok
        ? `${who} snapped ${places(ev.at)}${named(ev.card)}: a match`
        : `${who} snapped ${places(ev.at)}${named(ev.card)}: no match, it stays on the pile`;
    case "snap_open":
      return `Snap window: anyone may throw a card of the same rank as ${
        ev.card ? theCard(ev.card) : "the pile's top card"
      }`;
    case "give":
      return `${who} gave ${place(ev.from)} to take the place of ${place(ev.to)}`;
    case "penalty":
      if ("count" in ev) {
        const many = ev.count > (ev.for === "7" ? 1 : 2);
        return `${who} drew ${countWord(ev.count)} card${ev.count === 1 ? "" : "s"} for the ${
          ev.for
        }${many ? "s" : ""}`;
      }
      if (ev.at === null) return `${who} owed a penalty card, but the deck was empty`;
      return `${who} took a penalty card as ${place(ev.at)}`;
    case "pass":
      return `${who} passed`;
    case "call":
      return `${who} called ${callName(ev.word)}!`;
    case "reshuffle":
      return `The discard pile is shuffled into a new deck (${ev.deck} cards)`;
    case "play": {
      const on =
        opts.on === undefined ? "" : opts.on === null ? " to start the stack" : ` on ${theCard(opts.on)}`;
      return `${who} played ${theCards(ev.cards)}${on} (${ev.left} left)`;
    }
    case "suit":
      return `${who} chose ${SUITS[ev.suit]?.name ?? ev.suit} to follow`;
    case "eights":
      return ev.mode === "all"
        ? `${who} sent the 8s round: every other player in turn draws two per 8`
        : `${who} gave the 8s to the next player, who draws two per 8 and is skipped`;
    case "skip": {
      // Each seat once, "You" first: "You and Bob are skipped", "Bob is skipped twice".
      /** @type {Map<number, number>} */
      const times = new Map();
      for (const s of ev.seats) times.set(s, (times.get(s) ?? 0) + 1);
      /** @param {number} s */
      const you = (s) => Number(say.subject(s) === "You");
      const order = [...times.keys()].sort((a, b) => you(b) - you(a));
      /** @param {number} s @param {number} i */
      const name = (s, i) => (i > 0 ? say.subject(s).replace(/^You$/, "you") : say.subject(s));
      if (ev.for === "8" && order.length > 1) {
        // eights all: with more 8s than other seats the next to play may be one that drew
        return `After the 8s (${order.map(name).join(" and ")} drew), play goes on after the last to draw`;
      }
      /** @param {number} n */
      const count = (n) => (n === 1 ? "" : n === 2 ? " twice" : ` ${n} times`);
      const list = order.map((s, i) => `${name(s, i)}${count(times.get(s) ?? 1)}`);
      const one = order.length === 1 && list[0].split(" ")[0] !== "You";
      const cause = ev.for === "A" ? (ev.seats.length > 1 ? "the aces" : "an ace") : "an 8";
      return `${list.join(" and ")} ${one ? "is" : "are"} skipped (${cause})`;
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
      const back = "hand_points" in ev ? "back to 0" : "halved";
      const reset = resets.length
        ? ` — ${resets.map((s) => say.subject(s)).join(" and ")} hit the target exactly: ${back}`
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
