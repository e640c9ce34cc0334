// @ts-check
// The ends at the live table: the results of each finished round of a match (a dialog, once),
// and the end panel of a finished game (results, rematch, history), which can be folded away.

import { renderResults } from "./table.js";
import { el, modal } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */

/**
 * Draw the end panel when the game is over (else nothing).
 * @param {TablePage} page
 */
export function renderEnd(page) {
  const state = page.state;
  const view = state?.view;
  if (!state || !view?.over) {
    page.ui.endHost.replaceChildren();
    return;
  }
  const actions = [];
  if (state.seat !== null) {
    actions.push(
      el(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          dataset: { ui: "rematch" },
          onclick: () => page.sendSimple("rematch"),
        },
        "Rematch",
      ),
    );
  }
  actions.push(
    el(
      "a",
      { class: "btn", href: `/r/${page.room}/history`, dataset: { ui: "history" } },
      "History",
    ),
  );
  actions.push(el("a", { class: "btn", href: "/" }, "Lobby"));
  const hide = el(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      "aria-expanded": page.endHidden ? "false" : "true",
      onclick: () => {
        page.endHidden = !page.endHidden;
        renderEnd(page);
      },
    },
    page.endHidden ? "Show results" : "Hide",
  );
  const panel = el(
    "section",
    {
      class: `end-panel${page.endHidden ? " collapsed" : ""}`,
      "aria-label": "game over",
      dataset: { ui: "end-panel" },
    },
    el("div", { class: "end-head" }, el("h2", {}, "Game over"), hide),
    page.endHidden ? null : renderResults(view, page.names()),
    el("div", { class: "end-actions" }, actions),
  );
  page.ui.endHost.replaceChildren(panel);
}

/**
 * A finished round of a match: show its results once (the game's end has its own panel).
 * @param {TablePage} page
 * @param {StateMessage | null} prev the state before `state`
 * @param {StateMessage} state
 */
export function maybeShowRound(page, prev, state) {
  const view = state.view;
  const rounds = view?.round_results?.length ?? 0;
  if (page.shownRound === null || (prev && prev.game_no !== state.game_no)) {
    page.shownRound = rounds;
    page.endHidden = false;
    return;
  }
  if (rounds > page.shownRound && view) {
    page.shownRound = rounds;
    if (!view.over)
      modal(
        `Round ${view.round_results.at(-1)?.round} results`,
        renderResults(view, page.names()),
        { className: "round-modal", onClose: () => page.reveals.restart() },
      );
  }
}
