// @ts-check
// The ends at the live table, drawn above it so they are in view without scrolling: a finished
// round of a match shows its results inline (the table and its timers stay visible below, so a
// running peek timer is never hidden behind them) until the person dismisses them; a finished
// game shows a winner banner with the standings, the rematch and the full results.

import { ordinal, renderResults, resetNote, standings, standingsTable } from "./results.js";
import { el } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */
/** @typedef {import("./types/view").View} View */

/**
 * Draw what the end host shows now: the game's end, a round's results, or nothing.
 * @param {TablePage} page
 */
export function renderEnd(page) {
  const state = page.state;
  const view = state?.view;
  if (!state || !view) {
    page.ui.endHost.replaceChildren();
    return;
  }
  if (view.over) {
    const panel = gamePanel(page, view);
    page.ui.endHost.replaceChildren(panel);
    // The end comes into view once, when it happens.
    if (page.endShown !== state.game_no) {
      page.endShown = state.game_no;
      panel.scrollIntoView({ block: "nearest" });
    }
  }
  else {
    const panel = page.roundPanel === null ? null : roundPanel(page, view);
    page.ui.endHost.replaceChildren(...(panel ? [panel] : []));
  }
}

/**
 * The headline of the end of a game, from the viewer's side.
 * @param {View} view
 * @param {number | null} viewer
 * @param {(seat: number) => string} names
 */
export function winnerHeadline(view, viewer, names) {
  const winners = view.result?.winners ?? [];
  const you = viewer !== null && winners.includes(viewer);
  if (winners.length === 1) return you ? "You win!" : `${names(winners[0])} wins!`;
  const others = winners.filter((s) => s !== viewer).map(names);
  if (you) return `You share the win with ${others.join(" and ")}!`;
  return `${others.join(" and ")} share the win`;
}

/**
 * @param {TablePage} page
 * @param {View} view
 */
function gamePanel(page, view) {
  const names = page.names();
  const viewer = page.state?.seat ?? null;
  const actions = [];
  if (viewer !== null) {
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
      "History and replay",
    ),
    el("a", { class: "btn", href: "/" }, "Lobby"),
  );
  const place = viewer === null ? null : standings(view).find((s) => s.seat === viewer);
  const hide = el(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      dataset: { ui: "end-toggle" },
      "aria-expanded": page.endHidden ? "false" : "true",
      onclick: () => {
        page.endHidden = !page.endHidden;
        renderEnd(page);
      },
    },
    page.endHidden ? "Show results" : "Hide",
  );
  return el(
    "section",
    {
      class: `end-panel winner-banner${page.endHidden ? " collapsed" : ""}`,
      "aria-label": "game over",
      dataset: { ui: "end-panel" },
    },
    el(
      "div",
      { class: "end-head" },
      el(
        "h2",
        { dataset: { ui: "winner" } },
        el("span", { class: "trophy", "aria-hidden": "true" }, "★ "),
        winnerHeadline(view, viewer, names),
      ),
      place && !page.endHidden
        ? el("span", { class: "your-place" }, `You finish ${ordinal(place.rank)}`)
        : null,
      hide,
    ),
    page.endHidden ? null : standingsTable(view, names),
    el("div", { class: "end-actions" }, actions),
    page.endHidden
      ? null
      : el(
          "details",
          { class: "end-details", dataset: { ui: "end-details" } },
          el("summary", {}, "Round by round, and the last hands"),
          renderResults(view, names),
        ),
  );
}

/**
 * A finished round of a match, inline above the table until dismissed.
 * @param {TablePage} page
 * @param {View} view
 */
function roundPanel(page, view) {
  const names = page.names();
  const round = view.round_results?.at(-1);
  if (!round) return null;
  const winners = round.winners.map((s) => (s === page.state?.seat ? "You" : names(s)));
  const dismiss = el(
    "button",
    {
      type: "button",
      class: "btn btn-primary btn-small",
      dataset: { ui: "round-dismiss" },
      onclick: () => {
        page.roundPanel = null;
        renderEnd(page);
        page.reveals.restart();
        page.ui.tableHost.scrollIntoView({ block: "nearest" });
      },
    },
    "Got it",
  );
  return el(
    "section",
    { class: "end-panel round-panel", "aria-label": `round ${round.round} results`, dataset: { ui: "round-panel" } },
    el(
      "div",
      { class: "end-head" },
      el("h2", {}, `Round ${round.round} over`),
      el(
        "span",
        { class: "round-winners" },
        `${winners.join(" and ")} ${winners.length === 1 && winners[0] !== "You" ? "wins" : "win"} the round`,
      ),
      dismiss,
    ),
    standingsTable(view, names, { round }),
    resetNote(view, names, round),
    el(
      "details",
      { class: "end-details" },
      el("summary", {}, "Every round, and the hands at this round's end"),
      renderResults(view, names),
    ),
  );
}

/**
 * A finished round of a match: keep its results above the table until dismissed (the game's
 * end has its own panel). A new game clears them.
 * @param {TablePage} page
 * @param {StateMessage | null} prev the state before `state`
 * @param {StateMessage} state
 */
export function maybeShowRound(page, prev, state) {
  const view = state.view;
  const rounds = view?.round_results?.length ?? 0;
  if (page.shownRound === null || (prev && prev.game_no !== state.game_no)) {
    page.shownRound = rounds;
    page.roundPanel = null;
    page.endHidden = false;
    renderEnd(page);
    return;
  }
  if (rounds > page.shownRound && view) {
    page.shownRound = rounds;
    page.roundPanel = view.over ? null : rounds;
    renderEnd(page);
  }
}
