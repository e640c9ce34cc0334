// @ts-check
// The live table's settings dialog: how long a card you look at stays face up, and sound.

import { getPref, REVEAL_SECONDS, revealSeconds, setPref } from "./prefs.js";
import { el, modal } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */

/**
 * Open the settings; the reveal time is saved as it changes and when the dialog closes.
 * @param {TablePage} page
 */
export function openSettings(page) {
  const input = el("input", {
    type: "number",
    name: "reveal-seconds",
    id: "s-reveal",
    min: REVEAL_SECONDS.min,
    max: REVEAL_SECONDS.max,
    step: REVEAL_SECONDS.step,
    value: revealSeconds(),
    inputmode: "decimal",
  });
  const note = el("p", { class: "field-note", id: "s-reveal-note" });
  const save = () => {
    const value = Number(input.value);
    if (input.value === "" || !Number.isFinite(value)) {
      const { min, max } = REVEAL_SECONDS;
      note.textContent = `Give a number of seconds from ${min} to ${max}.`;
      return;
    }
    const clamped = Math.min(REVEAL_SECONDS.max, Math.max(REVEAL_SECONDS.min, value));
    setPref("revealSeconds", clamped);
    if (clamped !== value) input.value = String(clamped);
    note.textContent = `Saved: ${clamped} s.`;
  };
  input.addEventListener("change", save);
  const aid = page.hasAid();
  const yours =
    aid === null
      ? ""
      : aid
        ? "Your seat has the memory aid: every card you have seen stays face up. "
        : "Your seat has no memory aid: remember what you see! ";
  modal(
    "Settings",
    el(
      "div",
      { class: "settings" },
      el(
        "div",
        { class: "field" },
        el("label", { for: "s-reveal" }, "Show a card you look at for (seconds)"),
        input,
        el(
          "p",
          { class: "field-note" },
          yours,
          "Without memory aid a card you look at is face up only for this long; click it " +
            "to turn it over sooner. The memory aid is chosen per seat when a table is created.",
        ),
        note,
      ),
      el(
        "div",
        { class: "field check" },
        el("input", {
          type: "checkbox",
          id: "s-sound",
          name: "sound",
          checked: Boolean(getPref("sound")),
          onchange: () => page.toggle("sound"),
        }),
        el("label", { for: "s-sound" }, "Sound"),
      ),
    ),
    {
      className: "settings-modal",
      onClose: () => {
        save();
        page.reveals.restart();
      },
    },
  );
}
