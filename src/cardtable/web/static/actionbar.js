// @ts-check
// The live table's action bar: the selection so far, the actions it completes, the word
// actions (pass, the call, a suit …), the hint button (hints.js) and, before the first game,
// the start button.
//
// Calling the end of a round (Cabo!, Gabo!, Knock) asks for confirmation, so that one misclick
// never ends a round: the first activation (the button, or the K key) replaces the button with
// a small inline confirm, "Yes, call Knock" and "Cancel" (focus on Cancel); the call is sent only
// by the second activation ("Yes", or K again; Enter on "Yes"). Escape, "Cancel", a new state
// or CALL_CONFIRM_MS without an answer take it back, and nothing is sent.

import { cardShort } from "./cards.js";
import { dock } from "./dock.js";
import { hintButton, syncHints } from "./hints.js";
import { has, t } from "./i18n.js";
import { syncPractice } from "./practice.js";
import { el, forTheScreen, isTouch } from "./ui.js";
import { callName, callWord, isShedding, variantInfo } from "./variants.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */

/** How long the call's confirm waits for its answer before it takes itself back. */
export const CALL_CONFIRM_MS = 4000;

/**
 * A call waiting for confirmation (TablePage.callConfirm).
 * @typedef {{text: string, version: number, timer: number}} CallConfirm
 */

/**
 * Whether `text` is the call that ends a Cabo-family round (which asks for confirmation).
 * @param {string} text
 * @param {string | undefined} game
 */
export function isConfirmedCall(text, game) {
  return Boolean(game) && text === callWord(game ?? "") && !isShedding(game ?? "");
}

/**
 * The first activation of the call: show the confirm (a second one, while it is shown, calls).
 * @param {TablePage} page
 * @param {string} text the call word
 */
export function askCall(page, text) {
  const asked = page.callConfirm;
  if (asked && asked.text === text) {
    confirmCall(page);
    return;
  }
  cancelCall(page, false);
  const version = page.state?.version ?? -1;
  page.callConfirm = {
    text,
    version,
    timer: window.setTimeout(() => cancelCall(page), CALL_CONFIRM_MS),
  };
  renderBar(page);
  /** @type {HTMLElement | null} */ (page.ui.bar.querySelector('[data-ui="call-cancel"]'))?.focus();
}

/**
 * The second activation: send the call.
 * @param {TablePage} page
 */
export function confirmCall(page) {
  const asked = page.callConfirm;
  if (!asked) return;
  cancelCall(page, false);
  page.play(asked.text);
}

/**
 * Take back a call waiting for confirmation (nothing is sent). Returns whether there was one.
 * @param {TablePage} page
 * @param {boolean} [redraw] draw the action bar again
 */
export function cancelCall(page, redraw = true) {
  const asked = page.callConfirm;
  if (!asked) return false;
  clearTimeout(asked.timer);
  page.callConfirm = null;
  if (redraw && page.state) renderBar(page);
  return true;
}

/**
 * The call's inline confirm, in place of its button.
 * @param {TablePage} page
 * @param {string} text the call word
 * @param {string} label the call as shown ("Knock", "Cabo!")
 */
function callConfirmBox(page, text, label) {
  const name = label.replace(/!$/, "") || callName(text) || text;
  return el(
    "span",
    { class: "call-confirm", role: "group", "aria-label": t("ui.actionbar.call_ask", { name }), dataset: { ui: "call-confirm" } },
    el("span", { class: "call-confirm-text" }, t("ui.actionbar.call_end", { name })),
    el(
      "button",
      {
        type: "button",
        class: "btn btn-call",
        dataset: { ui: "call-yes" },
        onclick: () => confirmCall(page),
      },
      t("ui.actionbar.call_yes", { name }),
    ),
    el(
      "button",
      {
        type: "button",
        class: "btn",
        dataset: { ui: "call-cancel" },
        onclick: () => cancelCall(page),
      },
      t("ui.actionbar.cancel"),
    ),
  );
}

/**
 * The word actions' labels in the reader's language (action text → label).
 * @returns {Record<string, string>}
 */
function labels() {
  return {
    pass: t("ui.actionbar.pass"),
    continue: t("ui.actionbar.continue"),
    exchange: t("ui.actionbar.exchange"),
    draw: t("ui.actionbar.draw"),
    discard: t("ui.actionbar.discard"),
    "draw deck": t("ui.actionbar.draw_deck"),
    "draw discard": t("ui.actionbar.draw_discard"),
    "eights all": t("ui.actionbar.eights_all"),
    "eights next": t("ui.actionbar.eights_next"),
    "jpoints minus": t("ui.actionbar.jpoints_minus"),
    "jpoints plus": t("ui.actionbar.jpoints_plus"),
    "suit C": t("ui.actionbar.suit_c"),
    "suit D": t("ui.actionbar.suit_d"),
    "suit H": t("ui.actionbar.suit_h"),
    "suit S": t("ui.actionbar.suit_s"),
  };
}

/**
 * Labels of word actions in the action bar (the game's call word: its label from the server).
 * @param {string} text
 * @param {string | undefined} game
 * @returns {string}
 */
export function actionLabel(text, game) {
  const info = game === undefined ? null : variantInfo(game);
  if (info?.call && text === info.call) return info.call_label ?? info.call;
  const known = labels()[text];
  if (known) return known;
  // Target actions offered as buttons: "replace 0 2" → "Replace 0 2", cards with symbols.
  const [verb, ...args] = text.split(" ");
  const shown = args.map((a) => (/^(10|[2-9AJQK])[CDHS]$/.test(a) ? cardShort(a) : a));
  const word = has(`ui.actionbar.verb.${verb}`)
    ? t(`ui.actionbar.verb.${verb}`)
    : verb[0].toUpperCase() + verb.slice(1);
  return [word, ...shown].join(" ");
}

/**
 * A selected target in words: "your 2", "Bob's 0", "7♥".
 * @param {TablePage} page
 * @param {string} target
 */
export function targetName(page, target) {
  if (!target.includes(".")) return cardShort(target);
  const [seat, pos] = target.split(".").map(Number);
  return seat === page.state?.seat ? t("ui.actionbar.target_yours", { pos })
    : t("ui.actionbar.target_of", { who: page.names()(seat), pos });
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
   * @param {() => void} [onclick]
   */
  const mk = (text, cls = "", onclick = () => page.play(text)) =>
    el(
      "button",
      {
        type: "button",
        class: `btn ${cls}`,
        dataset: { action: text },
        disabled: busy,
        onclick,
      },
      actionLabel(text, view?.game ?? page.variant),
    );
  if (view && state.seat !== null) {
    // Complete candidates of the selection (confirm, or choose between verbs).
    for (const a of picker.selection.length ? picker.complete() : [])
      buttons.push(mk(a.text, "btn-primary"));
    for (const a of picker.words()) {
      if (a.text === callWord(view.game) && !isConfirmedCall(a.text, view.game)) {
        buttons.push(mk(a.text, "btn-call"));
      } else if (!isConfirmedCall(a.text, view.game)) {
        buttons.push(mk(a.text));
      } else if (page.callConfirm?.text === a.text) {
        buttons.push(callConfirmBox(page, a.text, actionLabel(a.text, view.game)));
      } else {
        buttons.push(mk(a.text, "btn-call", () => askCall(page, a.text)));
      }
    }
    // Cabo's claim of several equal cards: a card click replaces just that card, unless this
    // mode is on (a Shift-click turns it on too).
    if (picker.hasSeveral() && !picker.several && !picker.selection.length) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn",
            dataset: { ui: "several" },
            disabled: busy,
            title: forTheScreen(t("ui.actionbar.several_how")),
            onclick: () => {
              picker.several = true;
              page.render();
            },
          },
          t("ui.actionbar.several"),
        ),
      );
    }
    if (picker.several && !picker.selection.length) {
      buttons.push(
        el("span", { class: "selection" }, forTheScreen(t("ui.actionbar.several_click"))),
      );
    }
    if (picker.selection.length || picker.several) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn",
            dataset: { ui: "clear" },
            onclick: () => page.clearSelection(),
          },
          isTouch() ? t("ui.actionbar.clear") : t("ui.actionbar.clear_esc"),
        ),
      );
    }
    // The hint of this decision: the button, and its panel kept in step with the table.
    syncHints(page);
    const hint = hintButton(page, busy);
    if (hint) buttons.push(hint);
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
          t("ui.actionbar.start"),
        ),
      );
    }
  }
  const selection = picker.selection;
  const selText = selection.length
    ? el(
        "span",
        { class: "selection" },
        t("ui.actionbar.selected", {
          targets: selection.map((x) => targetName(page, x)).join(", "),
        }),
      )
    : null;
  page.ui.bar.replaceChildren(...(selText ? [selText] : []), ...buttons);
  // During play a seated person's bar keeps its place when it has nothing to offer, so the
  // table and the hand do not move with every turn.
  const empty = buttons.length === 0 && !selText;
  const playing = Boolean(view && !view.over && state?.seat !== null);
  page.ui.bar.hidden = empty && !playing;
  page.ui.bar.dataset.empty = empty ? "1" : "";
  const prompt = page.ui.statusEl.parentElement ?? page.ui.statusEl;
  dock({ bar: page.ui.bar, prompt, host: page.ui.tableHost });
  syncPractice(page);
}
