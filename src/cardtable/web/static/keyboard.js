// @ts-check
// The live table's keyboard: shortcuts for the piles, the cards of the viewer's hand and the
// word actions, Escape to take things back, and the help dialog that lists them.

import { askCall, cancelCall, isConfirmedCall } from "./actionbar.js";
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

/** @type {[string, string | (() => string)][]} */
const SHORTCUTS = [
  ["D", "draw from the deck (Qute: draw from the blind)"],
  ["F", "draw from the discard pile, or throw the drawn card away"],
  ["0 – 9", "your card at that position (Qute: the n-th card from the left, 0 = tenth)"],
  ["K", () => `call the end (${callWords()}): press K again, or Enter on “Yes”, to confirm`],
  ["P", "pass"],
  ["X", "exchange (after a look)"],
  ["C", "continue (Qute)"],
  ["Enter", "confirm the selected action"],
  ["Esc", "take back a call, clear the selection, turn shown cards back over, close a dialog"],
  ["S", "sound on / off"],
  ["R", "the rules"],
  ["?", "this help"],
];

/**
 * How cards are played and, with a keyboard, the shortcuts, in a dialog (a touch screen is
 * told about taps only: it has no keys to press).
 */
export function openHelp() {
  const touch = isTouch();
  modal(
    touch ? "Help" : "Keyboard shortcuts",
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
              el("dd", {}, typeof what === "function" ? what() : what),
            ]),
          ),
      el(
        "p",
        {},
        forTheScreen(
          "Click cards to build an action: one click on one of your cards replaces it with " +
            "the card you drew; for a swap or a look, click the cards one after the other; to " +
            `claim several equal cards, press “Claim several equal cards”${
              touch ? "" : " (or Shift-click)"
            } first. The action bar then offers to confirm. Highlighted cards and piles are ` +
            "the ones you can use now.",
        ),
      ),
      el(
        "p",
        {},
        forTheScreen(
          "Memory: without the memory aid, a card you look at is face up for a few seconds " +
            "(change the time in Settings), then you must remember it; click it to turn it " +
            "over sooner. A “Memory aid” badge marks the players who keep seeing every card " +
            "they have seen; it is chosen for each seat when the table is created.",
        ),
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
