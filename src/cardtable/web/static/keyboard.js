// @ts-check
// The live table's keyboard: shortcuts for the piles, the cards of the viewer's hand and the
// word actions, Escape to take things back, and the help dialog that lists them.

import { askCall, cancelCall, isConfirmedCall } from "./actionbar.js";
import { t } from "./i18n.js";
import { closeModal, el, forTheScreen, isModalOpen, isTouch, modal } from "./ui.js";
import { allVariants, callWord, isShedding } from "./variants.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */

// The call words of every game, as the server lists them ("cabo, gabo, knock, qute").
const callWords = () =>
  [
    ...new Set(
      allVariants()
        .map((v) => v.call)
        .filter(Boolean),
    ),
  ].join(", ");

/**
 * Each key and what it does (the words of ui.keyboard.<name>).
 * @type {[string, string][]}
 */
const SHORTCUTS = [
  ["D", "draw"],
  ["F", "discard"],
  ["0 – 9", "card"],
  ["K", "call"],
  ["P", "pass"],
  ["X", "exchange"],
  ["C", "continue"],
  ["Enter", "enter"],
  ["Esc", "esc"],
  ["S", "sound"],
  ["R", "rules"],
  ["?", "help"],
];

/**
 * How cards are played and, with a keyboard, the shortcuts, in a dialog (a touch screen is
 * told about taps only: it has no keys to press).
 */
export function openHelp() {
  const touch = isTouch();
  modal(
    touch ? t("ui.keyboard.help") : t("ui.keyboard.title"),
    el(
      "div",
      {},
      touch
        ? null
        : el(
            "dl",
            { class: "shortcuts" },
            SHORTCUTS.flatMap(([k, what]) => [
              el("dt", {}, el("kbd", {}, k)),
              el("dd", {}, t(`ui.keyboard.${what}`, { calls: callWords() })),
            ]),
          ),
      el(
        "p",
        {},
        forTheScreen(t(touch ? "ui.keyboard.how_touch" : "ui.keyboard.how")),
      ),
      el(
        "p",
        {},
        forTheScreen(t("ui.keyboard.memory")),
      ),
    ),
    { className: "help-modal" },
  );
}

/**
 * A key pressed anywhere on the table page.
 * @param {TablePage} page
 * @param {KeyboardEvent} ev
 */
export function onKey(page, ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape" && closeModal()) return; // from a dialog's input too
  const tag = ev.target instanceof Element ? ev.target.tagName : undefined;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const key = ev.key;
  const picker = page.picker;
  if (key === "Escape") {
    if (cancelCall(page)) return;
    if (page.reveals.size) page.reveals.hide();
    page.clearSelection();
    return;
  }
  if (isModalOpen()) return;
  /** @param {...(string | null)} texts the first of them that is legal now is played */
  const word = (...texts) => {
    const a = picker.legal.find((x) => texts.includes(x.text));
    if (a) page.play(a.text);
    return Boolean(a);
  };
  const lower = key.toLowerCase();
  let handled = true;
  if (key === "?") openHelp();
  else if (lower === "d") word("draw deck", "draw");
  else if (lower === "f") word("draw discard", "discard");
  else if (lower === "k") {
    // The call asks for confirmation: K shows it, K again (or its "Yes" button) calls.
    const game = page.state?.view?.game ?? page.variant ?? "";
    const call = callWord(game);
    if (call && isConfirmedCall(call, game)) {
      if (picker.legal.some((x) => x.text === call) && page.pendingId === null)
        askCall(page, call);
    } else word(call);
  }
  else if (lower === "p") word("pass");
  else if (lower === "x") word("exchange");
  else if (lower === "c") word("continue");
  else if (lower === "s") page.toggle("sound");
  else if (lower === "r") page.openRules();
  else if (key === "Enter" && picker.selection.length) {
    const done = picker.complete();
    if (done.length === 1) page.play(done[0].text);
  } else if (/^[0-9]$/.test(key) && page.state?.seat !== null && page.state?.view) {
    const seat = page.state.seat;
    const view = page.state.view;
    // In Qute, digits count the cards of the hand as drawn, left to right.
    if (isShedding(view.game)) {
      const cards = [
        .../** @type {NodeListOf<HTMLElement>} */ (
          page.ui.tableHost.querySelectorAll(".seat-me [data-card]")
        ),
      ];
      const code = cards[Number(key === "0" ? 9 : Number(key) - 1)]?.dataset.card;
      if (code) page.clickTarget(code);
    } else {
      page.clickTarget(`${seat}.${key}`);
    }
  } else handled = false;
  if (handled && key !== "Enter") ev.preventDefault();
}
