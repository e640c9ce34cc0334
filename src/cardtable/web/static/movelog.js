// @ts-check
// The live table's record of the current game, move by move, as this seat may read it: the
// join's `log` (a refreshed page knows what everyone else knows), then the events of each new
// state. Every event comes with its words (`said`), phrased by the server from what this seat
// may read again later: a seat without memory aid (and a spectator) reads only the public part
// of each event — every card shown to the whole table is named, no card only this seat saw for
// a moment — so its log reads the same before and after a refresh. A move the clock or a
// stand-in chose says so in its words.

import { saidText } from "./said.js";

/** @typedef {import("./types/protocol").LogEntry} LogEntry */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */
/** @typedef {import("./types/protocol").Tone} Tone */
/** @typedef {import("./types/protocol").ToldEvent} ToldEvent */

/**
 * One event in words: its seq, its words as the server sent them (`said`, card tokens and all)
 * and as plain text, their tone, who it belongs to (null: the table), whether it begins or ends
 * a round, and whether the log leaves it out (a seat letting a snap window pass: the window's
 * end says enough), though its seat's caption tells it.
 * @typedef {{seq: number, said: string, text: string, tone: Tone, seat: number | null,
 *   round: boolean, quiet: boolean}} LogLine
 */

/** The most moves kept (the server's join log keeps as many). */
export const LOG_ENTRIES = 300;

/**
 * Whether an event is a call of the end (a Cabo-family call, Qute's qute).
 * @param {ToldEvent} ev
 * @returns {ev is ToldEvent & {type: "call" | "qute", seat: number}}
 */
export const isCall = (ev) => ev.type === "call" || ev.type === "qute";

/**
 * The seat that made the move of these events (the first event with a seat, turns aside).
 * @param {ToldEvent[]} events
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
  }

  /** Forget everything (a new game). */
  clear() {
    this.entries = [];
    this.seqs.clear();
  }

  /**
   * Take a state's news. The answer to a join brings the game's log (it replaces what was
   * kept: the connection may read other things now). Any other state adds the move it reports.
   * @param {StateMessage} state
   * @param {{joined: boolean}} how
   */
  take(state, { joined }) {
    if (state.game_no !== this.gameNo) {
      this.clear();
      this.gameNo = state.game_no;
    }
    if (!state.view) return;
    if (joined) {
      this.clear();
      for (const entry of state.log ?? []) this.add(entry);
    }
    const fresh = (state.events ?? []).filter((e) => !this.seqs.has(e.seq));
    if (fresh.length) {
      this.add({
        version: state.version,
        seat: actorOf(fresh),
        by: state.by ?? null,
        events: fresh,
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
    }
  }

  /**
   * The words (plain text) of the newest call of the end that `seat` made, null if none is kept.
   * @param {number} seat
   * @returns {string | null}
   */
  lastCall(seat) {
    for (let i = this.entries.length - 1; i >= 0; i -= 1) {
      const events = this.entries[i].events;
      for (let k = events.length - 1; k >= 0; k -= 1) {
        const ev = events[k];
        if (isCall(ev) && ev.seat === seat) return saidText(ev.said);
      }
    }
    return null;
  }

  /**
   * Every kept event in words, oldest first (turns left out). While a snap window is open, the
   * seats that let it pass are `quiet`.
   * @returns {LogLine[]}
   */
  lines() {
    /** @type {LogLine[]} */
    const out = [];
    let snapOpen = false;
    for (const entry of this.entries) {
      for (const ev of entry.events) {
        const quiet = ev.type === "pass" && snapOpen;
        if (ev.type === "snap_open") snapOpen = true;
        else if (ev.type !== "turn" && !quiet) snapOpen = false;
        if (ev.type === "turn" || !ev.said?.text) continue;
        const seat = "seat" in ev && typeof ev.seat === "number" ? ev.seat : null;
        out.push({
          seq: ev.seq,
          said: ev.said.text,
          text: saidText(ev.said),
          tone: ev.said.tone,
          seat,
          round: ev.type === "round_start" || ev.type === "round_end",
          quiet,
        });
      }
    }
    return out;
  }
}
