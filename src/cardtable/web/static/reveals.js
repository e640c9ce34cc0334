// @ts-check
// The cards the viewer saw for a moment at the live table (its own peeks, spies and looks,
// kaboo's first sight of its bottom row, a card a timeout showed it, the cards a failed claim or
// drop shows everybody): face up for exactly the reveal time set in Settings, then turned back
// over — whatever else is on screen (a round's results, a dialog, the rules), so that nothing
// in the page can be used to keep a card in view longer.

import { revealSeconds } from "./prefs.js";

/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */

const ADDR = /^\d+\.\d+$/;

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

/** The cards seen a moment ago, each face up until its own time is up. */
export class Reveals {
  /** @param {() => void} redraw draws the table again when a shown card turns back over */
  constructor(redraw) {
    this.redraw = redraw;
    /** @type {Map<string, {code: string, until: number}>} address → a card seen, shown a while */
    this.revealed = new Map();
    /** @type {number | undefined} */
    this.timer = undefined;
  }

  /** Forget everything (a new game). */
  clear() {
    this.revealed.clear();
    this.schedule();
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

  /** Turn each card back over when its time is up (its time is set when it is shown). */
  schedule() {
    clearTimeout(this.timer);
    if (!this.revealed.size) return;
    const next = Math.min(...[...this.revealed.values()].map((r) => r.until));
    this.timer = setTimeout(
      () => {
        const now = Date.now();
        for (const [a, r] of this.revealed) if (r.until <= now) this.revealed.delete(a);
        this.redraw();
        this.schedule();
      },
      Math.max(0, next - Date.now()),
    );
  }
}
