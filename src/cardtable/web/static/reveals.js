// @ts-check
// What the live table remembers of the cards a moment showed: the cards the viewer saw for a
// moment (shown face up a while, then turned back over) and the cards put on the discard pile,
// which the move log keeps showing.

import { revealSeconds } from "./prefs.js";
import { isModalOpen } from "./ui.js";

/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */

/**
 * The pile cards of one event, by field (`card`, `out`, `discard`), for the move log.
 * @typedef {Record<string, string | string[]>} PileCards
 */

const ADDR = /^\d+\.\d+$/;

// Event fields holding cards that lie face up on the discard pile once the event is over: the
// move log may keep showing them (a seat without memory aid is sent them only at the moment).
/** @type {Record<string, string[]>} */
const PUBLIC_CARDS = {
  discard: ["card"],
  replace: ["out"],
  snap: ["card"],
  snap_open: ["card"],
  round_start: ["discard"],
};

/**
 * The field `name` of an event, whatever its type (undefined when it has none).
 * @param {ViewEvent} ev
 * @param {string} name
 * @returns {unknown}
 */
const field = (ev, name) =>
  /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (ev))[name];

/**
 * @param {unknown} a
 * @returns {a is string}
 */
const isAddr = (a) => typeof a === "string" && ADDR.test(a);

/**
 * Addresses ("seat.position") an event names in `at`, `from` or `to`.
 * @param {ViewEvent} ev
 * @returns {string[]}
 */
function addrsOf(ev) {
  return [field(ev, "at"), field(ev, "from"), field(ev, "to")].flat().filter(isAddr);
}

/** The cards seen a moment ago and the pile cards of the events of one game. */
export class Reveals {
  /**
   * @param {() => void} redraw draws the table again when a shown card turns back over
   * @param {() => boolean} [held] whether the cards must wait (something is in the way)
   */
  constructor(redraw, held = isModalOpen) {
    this.redraw = redraw;
    /** while this says so (a dialog, or a round's results, is in the way) no card turns over */
    this.held = held;
    /** @type {Map<string, {code: string, until: number}>} address → a card seen, shown a while */
    this.revealed = new Map();
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {Map<string, PileCards>} "game:seq" → pile cards of that event, for the move log */
    this.publicCards = new Map();
  }

  /** Forget everything (a new game). */
  clear() {
    this.revealed.clear();
    this.publicCards.clear();
  }

  /** Whether a card is face up for a moment now. */
  get size() {
    return this.revealed.size;
  }

  /**
   * The cards face up for a moment, address → code (for renderTable).
   * @returns {Map<string, string>}
   */
  codes() {
    return new Map([...this.revealed].map(([a, r]) => [a, r.code]));
  }

  /**
   * Cards of the discard pile named by these events of game `gameNo`, kept for the move log.
   * @param {ViewEvent[]} events
   * @param {number | null} gameNo
   */
  notePublicCards(events, gameNo) {
    for (const ev of events) {
      const fields = [...(PUBLIC_CARDS[ev.type] ?? [])];
      if (ev.type === "claim" && ev.ok) fields.push("out");
      if (ev.type === "drop" && ev.ok) fields.push("card");
      /** @type {PileCards} */
      const cards = {};
      for (const f of fields) {
        const value = field(ev, f);
        if (value !== undefined && value !== null)
          cards[f] = /** @type {string | string[]} */ (value);
      }
      if (Object.keys(cards).length) this.publicCards.set(`${gameNo}:${ev.seq}`, cards);
    }
  }

  /**
   * The pile cards kept for event `seq` of game `gameNo`, if any.
   * @param {number | null} gameNo
   * @param {number} seq
   * @returns {PileCards | undefined}
   */
  pileCards(gameNo, seq) {
    return this.publicCards.get(`${gameNo}:${seq}`);
  }

  // What is seen at this moment: the viewer's own peeks, spies and looks (kaboo's first sight
  // of the bottom row included), and the cards a failed claim or drop shows everybody. A table
  // without memory aid gets these cards only in the events: they stay face up for the reveal
  // time (Settings), or until clicked, then turn back over. A card that moves takes its
  // reveal along (a swap) or ends it.
  /**
   * @param {ViewEvent[]} events
   * @param {number | null} seat the viewer's seat (null: a spectator)
   */
  note(events, seat) {
    const until = Date.now() + revealSeconds() * 1000;
    for (const ev of events) {
      const mine = seat !== null && "seat" in ev && ev.seat === seat;
      /** @type {[string, string | null | undefined][]} */
      const seen = [];
      if (ev.type === "round_start") this.revealed.clear();
      else if (mine && (ev.type === "peek" || ev.type === "spy") && ev.card)
        seen.push([ev.at, ev.card]);
      else if (mine && ev.type === "look" && ev.cards) {
        const cards = ev.cards;
        ev.at.forEach((a, i) => seen.push([a, cards[i]]));
      } else if (ev.type === "claim" && !ev.ok && ev.shown) {
        const shown = ev.shown;
        ev.at.forEach((a, i) => seen.push([a, shown[i]]));
      } else if (ev.type === "drop" && !ev.ok && ev.card) seen.push([ev.at, ev.card]);
      else if (ev.type === "exchange" || ev.type === "give") {
        const [a, b] = addrsOf(ev);
        const ra = this.revealed.get(a);
        const rb = this.revealed.get(b);
        this.revealed.delete(a);
        this.revealed.delete(b);
        if (ra && b) this.revealed.set(b, ra);
        if (rb && a && ev.type === "exchange") this.revealed.set(a, rb);
      } else {
        for (const a of addrsOf(ev)) this.revealed.delete(a);
      }
      for (const [a, code] of seen) if (a && code) this.revealed.set(a, { code, until });
    }
    this.schedule();
  }

  /**
   * Turn shown cards back over: one address, or all of them.
   * @param {string | null} [addr]
   */
  hide(addr = null) {
    if (addr === null) this.revealed.clear();
    else this.revealed.delete(addr);
    this.schedule();
    this.redraw();
  }

  /** Turn each card back over when its time is up. */
  schedule() {
    clearTimeout(this.timer);
    if (!this.revealed.size) return;
    const next = Math.min(...[...this.revealed.values()].map((r) => r.until));
    this.timer = setTimeout(
      () => {
        const now = Date.now();
        if (this.held()) {
          // A dialog or a round's results are in the way (they come with the next deal): the
          // cards wait for them to go, then get their full time (restart).
          for (const r of this.revealed.values()) r.until = Math.max(r.until, now + 500);
        } else {
          for (const [a, r] of this.revealed) if (r.until <= now) this.revealed.delete(a);
        }
        this.redraw();
        this.schedule();
      },
      Math.max(0, next - Date.now()) + 10,
    );
  }

  /** Give every card shown now the whole reveal time again (after a dialog or results went). */
  restart() {
    if (!this.revealed.size) return;
    const until = Date.now() + revealSeconds() * 1000;
    for (const r of this.revealed.values()) r.until = until;
    this.schedule();
    this.redraw();
  }
}
