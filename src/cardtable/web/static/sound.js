// Short WebAudio beeps (no audio files). Silent unless the sound preference is on.

import { getPref } from "./prefs.js";

let ctx = null;

// Each cue is a list of [frequency Hz, start s, duration s].
const CUES = {
  turn: [
    [660, 0, 0.08],
    [880, 0.09, 0.1],
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

/** Play a named cue if sound is on. */
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
