// @ts-check
// The countdown at the live table: a timed window (gabo's snap window, the initial peeks) or
// the turn clock (the time people have to act): the seconds left and a bar, from the `window`
// or `clock` of each state.

import { language, t } from "./i18n.js";
import { el } from "./ui.js";

/** @typedef {import("./types/protocol").TimedWindow} TimedWindow */

export class Countdown {
  /** @param {HTMLElement} host where the countdown shows (hidden while no window is open) */
  constructor(host) {
    this.host = host;
    /** @type {number | null} performance.now() when the window closes */
    this.deadline = null;
    this.total = 0.1;
    this.phase = "";
    /** @type {number | undefined} */
    this.timer = undefined;
  }

  /**
   * Show the window of a state (null: none is open); `label` names what runs out (the
   * default: the window's phase).
   * @param {TimedWindow | null | undefined} win
   * @param {string} [label]
   */
  set(win, label) {
    clearInterval(this.timer);
    if (!win) {
      this.deadline = null;
      this.host.hidden = true;
      return;
    }
    const deadline = performance.now() + win.closes_in * 1000;
    this.deadline = deadline;
    // A paused clock (the person is reading, alone at the table) keeps its bar's scale.
    this.total = win.paused && this.phase === win.phase ? this.total : Math.max(win.closes_in, 0.1);
    this.phase = win.phase;
    this.host.hidden = false;
    this.host.dataset.paused = win.paused ? "1" : "";
    const tick = () => {
      const left = win.paused
        ? win.closes_in
        : Math.max(0, (deadline - performance.now()) / 1000);
      const pct = Math.min(100, Math.round((left / this.total) * 100));
      this.host.replaceChildren(
        el(
          "span",
          {},
          t(win.paused ? "ui.countdown.left_paused" : "ui.countdown.left", {
            label:
              label ?? (this.phase === "snap" ? t("ui.countdown.snap") : t("ui.countdown.peek")),
            seconds:
              left < 10
                ? left.toLocaleString(language(), {
                    minimumFractionDigits: 1,
                    maximumFractionDigits: 1,
                  })
                : String(Math.ceil(left)),
          }),
        ),
        el(
          "span",
          {
            // the bar turns red only when little time is left
            class: `window-bar${left <= 10 || pct <= 25 ? " low" : ""}`,
            role: "progressbar",
            "aria-valuemin": 0,
            "aria-valuemax": 100,
            "aria-valuenow": pct,
          },
          el("span", { style: { width: `${pct}%` } }),
        ),
      );
      if (left <= 0) clearInterval(this.timer);
    };
    tick();
    if (!win.paused) this.timer = setInterval(tick, 100);
  }
}
