// @ts-check
// The live table's settings dialog: how long a card you look at stays face up, sound, and (alone
// with AI players) their cards face up for practice (practice.js).

import { askToNotify, canNotify } from "./notice.js";
import { practiceField } from "./practice.js";
import { getPref, REVEAL_SECONDS, revealSeconds, setPref } from "./prefs.js";
import { el, modal, tapOrClick } from "./ui.js";

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
          `Without memory aid a card you look at is face up only for this long; ${tapOrClick()} ` +
            "it to turn it over sooner. The memory aid is chosen per seat when a table is created.",
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
      notifyField(),
      practiceField(page),
    ),
    {
      className: "settings-modal",
      // a card shown for a moment keeps its own time: the dialog gives it none back
      onClose: () => {
        save();
        page.render();
      },
    },
  );
}

/**
 * The switch for a browser notification of the person's turn while the tab is hidden: ticking
 * it asks the browser's leave (only then, never on page load); a refusal unticks it and says so.
 */
function notifyField() {
  const note = el("p", { class: "field-note", dataset: { ui: "notify-note" } });
  /** @type {HTMLInputElement} */
  const box = el("input", {
    type: "checkbox",
    id: "s-notify",
    name: "notify",
    checked: Boolean(getPref("notify")) && canNotify() && Notification.permission === "granted",
    disabled: !canNotify(),
    onchange: async () => {
      if (!box.checked) {
        setPref("notify", false);
        note.textContent = "";
        return;
      }
      const allowed = await askToNotify();
      setPref("notify", allowed);
      box.checked = allowed;
      note.textContent = allowed
        ? "A notification comes while this tab is hidden and the table waits for you."
        : "The browser does not allow notifications from this page (see its site settings).";
    },
  });
  if (!canNotify()) note.textContent = "This browser cannot show notifications.";
  return el(
    "div",
    { class: "field" },
    el(
      "div",
      { class: "field check" },
      box,
      el("label", { for: "s-notify" }, "Tell me when it is my turn while this tab is hidden"),
    ),
    note,
  );
}
