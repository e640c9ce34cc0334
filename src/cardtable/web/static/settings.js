// @ts-check
// The settings dialog: the language of the pages (on every page), and at the live table how long
// a card you look at stays face up, sound, the notification of your turn and (alone with AI
// players) their cards face up for practice (practice.js).

import { LANGUAGES, t } from "./i18n.js";
import { askToNotify, canNotify } from "./notice.js";
import { practiceField } from "./practice.js";
import { getPref, REVEAL_SECONDS, revealSeconds, setPref } from "./prefs.js";
import { el, forTheScreen, modal } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */

/**
 * The choice of the pages' language: the browser's, or one of the shipped languages, each
 * named in its own words. A change is kept (prefs.js) and the page is loaded again in it.
 * @returns {HTMLDivElement}
 */
export function languageField() {
  const chosen = String(getPref("lang") ?? "");
  const select = el(
    "select",
    {
      id: "s-lang",
      name: "lang",
      dataset: { ui: "language" },
      onchange: () => {
        setPref("lang", Object.hasOwn(LANGUAGES, select.value) ? select.value : "");
        location.reload();
      },
    },
    el("option", { value: "" }, t("ui.settings.lang_browser")),
    Object.entries(LANGUAGES).map(([code, name]) =>
      el("option", { value: code, lang: code }, name),
    ),
  );
  select.value = Object.hasOwn(LANGUAGES, chosen) ? chosen : "";
  return el(
    "div",
    { class: "field" },
    el("label", { for: "s-lang" }, t("ui.settings.lang")),
    select,
  );
}

/** A page's settings button (the lobby's): the language. */
export function settingsButton() {
  return el(
    "button",
    {
      type: "button",
      class: "btn",
      dataset: { ui: "settings" },
      onclick: () =>
        modal(t("ui.settings.title"), el("div", { class: "settings" }, languageField()), {
          className: "settings-modal",
        }),
    },
    t("ui.settings.button"),
  );
}

/**
 * Open the live table's settings; the reveal time is saved as it changes and when the dialog
 * closes.
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
      note.textContent = t("ui.settings.reveal_range", { min, max });
      return;
    }
    const clamped = Math.min(REVEAL_SECONDS.max, Math.max(REVEAL_SECONDS.min, value));
    setPref("revealSeconds", clamped);
    if (clamped !== value) input.value = String(clamped);
    note.textContent = t("ui.settings.saved", { seconds: clamped });
  };
  input.addEventListener("change", save);
  const aid = page.hasAid();
  const yours =
    aid === null ? "" : aid ? `${t("ui.settings.aid_yes")} ` : `${t("ui.settings.aid_no")} `;
  modal(
    t("ui.settings.title"),
    el(
      "div",
      { class: "settings" },
      languageField(),
      el(
        "div",
        { class: "field" },
        el("label", { for: "s-reveal" }, t("ui.settings.reveal")),
        input,
        el("p", { class: "field-note" }, yours, forTheScreen(t("ui.settings.reveal_note"))),
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
        el("label", { for: "s-sound" }, t("ui.settings.sound")),
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
      note.textContent = allowed ? t("ui.settings.notify_on") : t("ui.settings.notify_refused");
    },
  });
  if (!canNotify()) note.textContent = t("ui.settings.notify_none");
  return el(
    "div",
    { class: "field" },
    el(
      "div",
      { class: "field check" },
      box,
      el("label", { for: "s-notify" }, t("ui.settings.notify")),
    ),
    note,
  );
}
