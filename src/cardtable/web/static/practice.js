// @ts-check
// Open hands for practice: the one person at a table of AI players may see the AI players'
// cards face up — a switch in the table's settings (settings.js). The server then sends this
// seat's view with those cards filled in (`open_hands` in its state) and marks the room a
// practice table for good: its games, this one and every later one, are never rated. The room's
// head says so ("practice"). Where another person sits the switch is not offered (the server
// refuses it too).

import { t } from "./i18n.js";
import { el, toast } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */

/** What a practice table is, for the tag's tooltip and the switch's note. */
export const PRACTICE_TEXT = t("ui.practice.text");

/**
 * Whether this page may open the hands: its seat is the only person's at the table (the server
 * then tells it, in every state, whether they are open).
 * @param {TablePage} page
 */
export function canPractise(page) {
  return page.state?.open_hands !== undefined;
}

/**
 * Whether the room is a practice table: its summary said so, or its hands have been opened.
 * @param {TablePage} page
 */
export function isPractice(page) {
  return Boolean(page.summary?.practice || page.state?.open_hands);
}

/**
 * Ask the server to show the AI players' cards (`on`) or to turn them face down again.
 * @param {TablePage} page
 * @param {boolean} on
 */
export function setOpenHands(page, on) {
  const conn = page.conn;
  if (!conn || !page.held) return;
  try {
    conn.sendRaw({ type: "practice", room: page.room, token: page.held.token, on, id: conn.nextId++ });
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), "error");
    return;
  }
  if (on && page.summary) page.summary.practice = true;
}

/**
 * The switch of the settings dialog, or null where this page may not open the hands.
 * @param {TablePage} page
 */
export function practiceField(page) {
  if (!canPractise(page)) return null;
  /** @type {HTMLInputElement} */
  const box = el("input", {
    type: "checkbox",
    id: "s-open-hands",
    name: "open-hands",
    dataset: { ui: "open-hands" },
    checked: Boolean(page.state?.open_hands),
    onchange: () => setOpenHands(page, box.checked),
  });
  return el(
    "div",
    { class: "field" },
    el(
      "div",
      { class: "field check" },
      box,
      el("label", { for: "s-open-hands" }, t("ui.practice.switch")),
    ),
    el(
      "p",
      { class: "field-note" },
      t("ui.practice.note"),
    ),
  );
}

/**
 * The "practice" tag by the room's name, once the room is a practice table.
 * @param {TablePage} page
 */
export function syncPractice(page) {
  const head = page.ui.formatEl.parentElement;
  if (!head) return;
  const shown = head.querySelector('[data-ui="practice-tag"]');
  if (!isPractice(page)) {
    shown?.remove();
    return;
  }
  const open = Boolean(page.state?.open_hands);
  const text = open ? t("ui.practice.tag_open") : t("ui.practice.tag");
  if (shown instanceof HTMLElement) {
    if (shown.textContent !== text) shown.textContent = text;
    return;
  }
  head.append(
    el(
      "span",
      { class: "room-format practice-tag", dataset: { ui: "practice-tag" }, title: PRACTICE_TEXT },
      text,
    ),
  );
}
