// @ts-check
// The live table's action bar: the selection so far, the actions it completes, the word
// actions (pass, the call, a suit …) and, before the first game, the start button.

import { cardShort } from "./cards.js";
import { el } from "./ui.js";
import { callWord, variantInfo } from "./variants.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */

/** @type {Record<string, string>} */
const LABELS = {
  pass: "Pass",
  continue: "Continue",
  exchange: "Exchange",
  draw: "Draw",
  discard: "Discard",
  "draw deck": "Draw from deck",
  "draw discard": "Take discard",
  "eights all": "Eights: all",
  "eights next": "Eights: next",
  "jpoints minus": "J points: minus",
  "jpoints plus": "J points: plus",
  "suit C": "♣ Clubs",
  "suit D": "♦ Diamonds",
  "suit H": "♥ Hearts",
  "suit S": "♠ Spades",
};

/**
 * Labels of word actions in the action bar (the game's call word: its label from the server).
 * @param {string} text
 * @param {string | undefined} game
 * @returns {string}
 */
export function actionLabel(text, game) {
  const info = game === undefined ? null : variantInfo(game);
  if (info?.call && text === info.call) return info.call_label ?? info.call;
  if (LABELS[text]) return LABELS[text];
  // Target actions offered as buttons: "replace 0 2" → "Replace 0 2", cards with symbols.
  const [verb, ...args] = text.split(" ");
  const shown = args.map((a) => (/^(10|[2-9AJQK])[CDHS]$/.test(a) ? cardShort(a) : a));
  return [verb[0].toUpperCase() + verb.slice(1), ...shown].join(" ");
}

/**
 * A selected target in words: "your 2", "Bob's 0", "7♥".
 * @param {TablePage} page
 * @param {string} target
 */
export function targetName(page, target) {
  if (!target.includes(".")) return cardShort(target);
  const [seat, pos] = target.split(".").map(Number);
  return seat === page.state?.seat ? `your ${pos}` : `${page.names()(seat)}'s ${pos}`;
}

/**
 * Draw the action bar for the page's state and selection (hidden when it has nothing).
 * @param {TablePage} page
 */
export function renderBar(page) {
  const state = page.state;
  const view = state?.view;
  const picker = page.picker;
  /** @type {HTMLElement[]} */
  const buttons = [];
  const busy = page.pendingId !== null;
  /**
   * @param {string} text
   * @param {string} [cls]
   */
  const mk = (text, cls = "") =>
    el(
      "button",
      {
        type: "button",
        class: `btn ${cls}`,
        dataset: { action: text },
        disabled: busy,
        onclick: () => page.play(text),
      },
      actionLabel(text, view?.game ?? page.variant),
    );
  if (view && state.seat !== null) {
    // Complete candidates of the selection (confirm, or choose between verbs).
    for (const a of picker.selection.length ? picker.complete() : [])
      buttons.push(mk(a.text, "btn-primary"));
    for (const a of picker.words()) {
      const call = a.text === callWord(view.game);
      buttons.push(mk(a.text, call ? "btn-call" : ""));
    }
    if (picker.selection.length) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn",
            dataset: { ui: "clear" },
            onclick: () => page.clearSelection(),
          },
          "Clear (Esc)",
        ),
      );
    }
  }
  if (state && !view && state.seat !== null && state.status === "waiting") {
    const allTaken = state.seats.every((s) => s.type !== "human" || s.taken);
    if (allTaken) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn btn-primary",
            dataset: { ui: "start" },
            onclick: () => page.sendSimple("start"),
          },
          "Start the game",
        ),
      );
    }
  }
  const selection = picker.selection;
  const selText = selection.length
    ? el(
        "span",
        { class: "selection" },
        "Selected: ",
        selection.map((t) => targetName(page, t)).join(", "),
      )
    : null;
  page.ui.bar.replaceChildren(...(selText ? [selText] : []), ...buttons);
  page.ui.bar.hidden = buttons.length === 0 && !selText;
}
