// @ts-check
// The live table's record of the current game, move by move, as this seat may read it: the
// join's `log` (a refreshed page knows what everyone else knows), then the events of each new
// state. A seat without memory aid (and a spectator) keeps only the public part of each event —
// every card shown to the whole table is named, no card only this seat saw for a moment — so
// its log reads the same before and after a refresh. Each move keeps who chose it (`by`).

import { isSheddingView } from "./variants.js";
import { describeEvent } from "./words.js";

/** @typedef {import("./types/protocol").By} By */
/** @typedef {import("./types/protocol").LogEntry} LogEntry */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */
/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */
/** @typedef {import("./table.js").Names} Names */

/**
 * One event told in words: its seq, its line, who it belongs to (null: the table), whether it
 * begins or ends a round, and whether the log leaves it out (a seat letting a snap window pass:
 * the window's end says enough), though its seat's caption tells it.
 * @typedef {{seq: number, text: string, seat: number | null, round: boolean, quiet: boolean}} LogLine
 */

/** The most moves kept (the server's join log keeps as many). */
export const LOG_ENTRIES = 300;

// What only a part of the table saw: dropped from the events of a seat without memory aid
// when the view does not give the event's public part (an older event than the view keeps).
/** @type {Record<string, string[]>} */
const PRIVATE_FIELDS = { peek: ["card"], spy: ["card"], look: ["cards"] };

/**
 * The field `name` of an event, whatever its type.
 * @param {ViewEvent} ev
 * @param {string} name
 * @returns {unknown}
 */
const field = (ev, name) =>
  /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (ev))[name];

/**
 * The public part of an event: what every seat may read (`game`: the variant, whose rules say
 * whether a card drawn from the deck lies face up).
 * @param {ViewEvent} ev
 * @param {string | undefined} game
 * @returns {ViewEvent}
 */
export function publicPart(ev, game) {
  /** @type {Record<string, unknown>} */
  const out = { ...ev };
  for (const f of PRIVATE_FIELDS[ev.type] ?? []) delete out[f];
  if (ev.type === "draw") {
    if (field(ev, "from") === "deck" && game !== "cabo-german") delete out.card;
    delete out.drawn; // Qute: the drawn card, for its drawer only
  }
  if (ev.type === "penalty" && "count" in ev) delete out.cards; // Qute's penalty draws
  return /** @type {ViewEvent} */ (/** @type {unknown} */ (out));
}

/**
 * The seat that made the move of these events (the first event with a seat, turns aside).
 * @param {ViewEvent[]} events
 * @returns {number | null}
 */
export function actorOf(events) {
  const ev = events.find((e) => "seat" in e && typeof e.seat === "number" && e.type !== "turn");
  return ev && "seat" in ev && typeof ev.seat === "number" ? ev.seat : null;
}

/** The moves of the current game, oldest first, as this connection may read them. */
export class MoveLog {
  constructor() {
    /** @type {LogEntry[]} */
    this.entries = [];
    /** @type {Set<number>} the seqs of the events kept */
    this.seqs = new Set();
    /** @type {number | null} the game they belong to */
    this.gameNo = null;
    /** whether the first entry is the game's deal (a Qute play's card below is then known) */
    this.whole = false;
  }

  /** Forget everything (a new game). */
  clear() {
    this.entries = [];
    this.seqs.clear();
    this.whole = false;
  }

  /**
   * Take a state's news. The answer to a join brings the game's log (it replaces what was
   * kept: the connection may read other things now); without one, the view's recent events
   * stand for it. Any other state adds the move it reports. `memory`: whether this seat has
   * the memory aid (without it only the public part of each event is kept).
   * @param {StateMessage} state
   * @param {{joined: boolean, memory: boolean}} how
   */
  take(state, { joined, memory }) {
    if (state.game_no !== this.gameNo) {
      this.clear();
      this.gameNo = state.game_no;
    }
    const view = state.view;
    if (!view) return;
    const game = view.game;
    /** @type {Map<number, ViewEvent>} */
    const told = new Map((view.events ?? []).map((e) => [e.seq, e]));
    // Without memory aid, the public part only: the view's own telling of the event where it
    // still has it (it knows what was public), made public in any case — but not in Qute,
    // where a hand is held face up by its owner and a seat reads its own draws again, as the
    // join's log does (the log reads the same after a refresh).
    const whole = memory || isSheddingView(view);
    /** @param {ViewEvent} e */
    const readable = (e) => (whole ? e : publicPart(told.get(e.seq) ?? e, game));
    if (joined) {
      this.clear();
      if (state.log) {
        this.whole = state.log[0]?.seat === null;
        for (const entry of state.log) this.add(entry);
      } else {
        this.whole = (view.events ?? [])[0]?.type === "round_start";
        if (view.events?.length)
          this.add({ version: state.version, seat: null, by: null, events: view.events });
      }
    }
    const fresh = (state.events ?? []).filter((e) => !this.seqs.has(e.seq));
    if (fresh.length) {
      this.add({
        version: state.version,
        seat: actorOf(fresh),
        by: state.by ?? null,
        events: fresh.map(readable),
      });
    }
  }

  /**
   * Keep one entry (its events not kept yet), dropping the oldest past LOG_ENTRIES.
   * @param {LogEntry} entry
   */
  add(entry) {
    const events = entry.events.filter((e) => !this.seqs.has(e.seq));
    if (!events.length) return;
    for (const e of events) this.seqs.add(e.seq);
    this.entries.push({ ...entry, events });
    if (this.entries.length > LOG_ENTRIES) {
      for (const e of this.entries.shift()?.events ?? []) this.seqs.delete(e.seq);
      this.whole = false;
    }
  }

  /**
   * Every kept event in words, oldest first, as `viewer` reads them (turns left out). While a
   * snap window is open, the seats that let it pass are `quiet`.
   * @param {Names} names
   * @param {number | null} viewer
   * @returns {LogLine[]}
   */
  lines(names, viewer) {
    /** @type {LogLine[]} */
    const out = [];
    // Qute: the card on top of the stack, so that a play says what it was laid on.
    /** @type {string | null | undefined} */
    let top = this.whole ? null : undefined;
    let snapOpen = false;
    for (const entry of this.entries) {
      for (const ev of entry.events) {
        /** @type {string | null | undefined} */
        let on;
        if (ev.type === "round_start") top = null;
        else if (ev.type === "play") {
          on = top;
          if (top !== undefined) top = ev.cards.at(-1) ?? top;
        }
        const quiet = ev.type === "pass" && snapOpen;
        if (ev.type === "snap_open") snapOpen = true;
        else if (ev.type !== "turn" && !quiet) snapOpen = false;
        const text = describeEvent(ev, names, viewer, { by: entry.by, on });
        if (!text) continue;
        const seat = "seat" in ev && typeof ev.seat === "number" ? ev.seat : null;
        out.push({
          seq: ev.seq,
          text,
          seat,
          round: ev.type === "round_start" || ev.type === "round_end",
          quiet,
        });
      }
    }
    return out;
  }
}
