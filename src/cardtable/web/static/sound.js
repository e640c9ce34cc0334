// @ts-check
// Short WebAudio beeps (no audio files), and the cue each new state of the table gets. Silent
// unless the sound preference is on.

import { isMyTurn } from "./notice.js";
import { getPref } from "./prefs.js";

/** @typedef {import("./types/protocol").StateMessage} StateMessage */

/** @type {AudioContext | null} */
let ctx = null;

/** @typedef {"turn" | "call" | "card" | "swap" | "error" | "end"} Cue */

// Each cue is a list of [frequency Hz, start s, duration s].
/** @type {Record<Cue, [number, number, number][]>} */
const CUES = {
  turn: [
    [660, 0, 0.08],
    [880, 0.09, 0.1],
  ],
  call: [
    [784, 0, 0.09],
    [784, 0.12, 0.09],
    [988, 0.24, 0.16],
  ],
  card: [[420, 0, 0.05]],
  swap: [
    [500, 0, 0.05],
    [380, 0.06, 0.05],
  ],
  error: [[180, 0, 0.18]],
  end: [
    [523, 0, 0.12],
    [659, 0.13, 0.12],
    [784, 0.26, 0.2],
  ],
};

/**
 * Play a named cue if sound is on.
 * @param {Cue} name
 */
export function beep(name) {
  if (!getPref("sound")) return;
  const cue = CUES[name];
  if (!cue) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") ctx.resume();
    const now = ctx.currentTime;
    for (const [freq, start, dur] of cue) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + dur + 0.02);
    }
  } catch {
    // No audio device: sound is a nicety, the table works without it.
  }
}

/**
 * Play the cue of a new state of the live table: the game's end, a call of someone else, the
 * viewer's turn (a snap window, open to every seat, is not one), a swap, a card moved.
 * @param {StateMessage | null} prev the state before
 * @param {StateMessage} state
 */
export function stateCue(prev, state) {
  /** @type {Set<string>} */
  const types = new Set((state.events ?? []).map((e) => e.type));
  const called = (state.events ?? []).some(
    (e) => (e.type === "call" || e.type === "qute") && e.seat !== state.seat,
  );
  if (types.has("game_over")) beep("end");
  else if (called) beep("call");
  else if (isMyTurn(state) && !isMyTurn(prev)) beep("turn");
  else if (types.has("exchange") || types.has("give")) beep("swap");
  else if (["draw", "replace", "discard", "play", "drop", "snap"].some((t) => types.has(t)))
    beep("card");
}
