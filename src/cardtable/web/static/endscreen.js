// @ts-check
// The ends at the live table, drawn above it so they are in view without scrolling: a finished
// round of a match shows its results inline (the table and its timers stay visible below, so a
// running peek timer is never hidden behind them) until the person dismisses them; a finished
// game shows a winner banner with the standings (each score explained), the rematch offer and
// the full results. While a round's results are shown the page asks the clocks to wait
// (TablePage.updateHold).

import { joinAnd, t } from "./i18n.js";
import { errorMessage } from "./net.js";
import {
  ordinal,
  renderResults,
  resetNote,
  standings,
  standingsTable,
  times,
} from "./results.js";
import { el, toast } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */
/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/protocol").RematchOffer} RematchOffer */

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
  page.updateHold();
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
  if (winners.length === 1)
    return you ? t("ui.end.you_win") : t("ui.end.wins", { who: names(winners[0]) });
  const others = winners.filter((s) => s !== viewer).map(names);
  if (you) return t("ui.end.you_share", { others: joinAnd(others) });
  return t("ui.end.share", { who: joinAnd(others) });
}

/**
 * @param {TablePage} page
 * @param {View} view
 */
function gamePanel(page, view) {
  const names = page.names();
  const viewer = page.state?.seat ?? null;
  const actions = [...rematchControls(page)];
  actions.push(
    el(
      "a",
      { class: "btn", href: `/r/${page.room}/history`, dataset: { ui: "history" } },
      t("ui.end.history"),
    ),
    el("a", { class: "btn", href: "/" }, t("ui.end.lobby")),
  );
  const place = viewer === null ? null : standings(view).find((s) => s.seat === viewer);
  // A win (or a loss) the person did not play all by themselves says so.
  const helped = viewer === null ? "" : yourHelp(page.state?.seats[viewer]);
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
    page.endHidden ? t("ui.end.show") : t("ui.end.hide"),
  );
  return el(
    "section",
    {
      class: `end-panel winner-banner${page.endHidden ? " collapsed" : ""}`,
      "aria-label": t("ui.end.over"),
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
        ? el(
            "span",
            { class: "your-place" },
            t("ui.end.your_place", { place: ordinal(place.rank) }),
          )
        : null,
      hide,
    ),
    helped ? el("p", { class: "played-for", dataset: { ui: "you-played-for" } }, helped) : null,
    page.endHidden
      ? null
      : standingsTable(view, names, { round: view.round_results?.at(-1), seats: page.state?.seats }),
    el("div", { class: "end-actions" }, actions),
    page.endHidden
      ? null
      : el(
          "details",
          { class: "end-details", dataset: { ui: "end-details" } },
          el("summary", {}, t("ui.end.details")),
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
  const mine = round.winners.includes(page.state?.seat ?? -1);
  const others = round.winners.filter((s) => s !== page.state?.seat).map(names);
  const dismiss = el(
    "button",
    {
      type: "button",
      class: "btn btn-primary btn-small",
      dataset: { ui: "round-dismiss" },
      onclick: () => {
        page.roundPanel = null;
        renderEnd(page);
        page.ui.tableHost.scrollIntoView({ block: "nearest" });
      },
    },
    t("ui.end.got_it"),
  );
  return el(
    "section",
    {
      class: "end-panel round-panel",
      "aria-label": t("ui.end.round_results", { round: round.round }),
      dataset: { ui: "round-panel" },
    },
    el(
      "div",
      { class: "end-head" },
      el("h2", {}, t("ui.end.round_over", { round: round.round })),
      el("span", { class: "round-winners" }, roundWinners(mine, others)),
      dismiss,
    ),
    standingsTable(view, names, { round, seats: page.state?.seats }),
    resetNote(view, names, round),
    el(
      "details",
      { class: "end-details" },
      el("summary", {}, t("ui.end.round_details")),
      renderResults(view, names),
    ),
  );
}

/**
 * A sentence with a capital first letter (German "du" lowercase in a list's first place).
 * @param {string} text
 */
function capitalized(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * Who won the round, in words: "You win the round", "Ann wins the round", "You and Ann win the
 * round", "Ann and Bob win the round".
 * @param {boolean} mine whether the viewer is among the winners
 * @param {string[]} others the other winners' names
 */
function roundWinners(mine, others) {
  // (the viewer first: "You and Ann win the round")
  if (!mine) return t("ui.end.wins_round", { who: joinAnd(others) }, others.length);
  if (!others.length) return t("ui.end.you_win_round");
  return t("ui.end.you_and_win_round", { who: joinAnd(others) });
}

/**
 * What others played of the viewer's seat, in words ("" when nothing): "An AI played 3 of your
 * moves; your time ran out twice."
 * @param {import("./types/protocol").SeatInfo | undefined} info
 */
function yourHelp(info) {
  const counts = info?.played_for;
  if (!counts) return "";
  const parts = [];
  if (counts.stand_in > 0) parts.push(t("ui.end.ai_played", {}, counts.stand_in));
  if (counts.clock > 0) parts.push(t("ui.end.time_ran_out", { times: times(counts.clock) }));
  const text = parts.join("; ");
  return text ? `${text[0].toUpperCase()}${text.slice(1)}.` : "";
}

/**
 * The rematch at a finished game: offer one; answer another person's offer (Accept / Decline);
 * or see who accepted and who is awaited, and who declined. A spectator only reads.
 * @param {TablePage} page
 * @returns {HTMLElement[]}
 */
function rematchControls(page) {
  const state = page.state;
  if (!state) return [];
  const viewer = state.seat;
  const offer = state.rematch ?? null;
  const names = page.names();
  /** @param {number} s */
  const who = (s) => (s === viewer ? t("ui.end.you") : names(s));
  const people = state.seats.flatMap((s, i) => (s.type === "human" ? [i] : []));
  /** @type {HTMLElement[]} */
  const out = [];
  /**
   * @param {string} ui
   * @param {string} text
   * @param {boolean | undefined} accept
   * @param {boolean} [primary]
   */
  const button = (ui, text, accept, primary = false) =>
    el(
      "button",
      {
        type: "button",
        class: `btn${primary ? " btn-primary" : ""}`,
        dataset: { ui },
        onclick: () => sendRematch(page, accept),
      },
      text,
    );
  if (offer && offer.declined.length) {
    const declined = offer.declined.map(who);
    out.push(
      el(
        "p",
        { class: "rematch-note", role: "status", dataset: { ui: "rematch-declined" } },
        declined.length === 1 && offer.declined[0] === viewer
          ? t("ui.end.you_declined")
          : capitalized(t("ui.end.declined", { who: joinAnd(declined) }, declined.length)),
      ),
    );
  } else if (offer) {
    const waiting = people.filter((s) => !offer.accepted.includes(s)).map(who);
    const accepted = offer.accepted.filter((s) => people.includes(s)).map(who);
    const mineOpen = viewer !== null && !offer.accepted.includes(viewer);
    const waitingFor = joinAnd(waiting) || t("ui.end.the_table");
    const text = mineOpen
      ? t("ui.end.offers", { who: who(offer.by) })
      : offer.by === viewer
        ? t("ui.end.you_offer_waiting", { who: waitingFor })
        : t("ui.end.offers_waiting", { by: who(offer.by), who: waitingFor });
    out.push(
      el(
        "p",
        { class: "rematch-note", role: "status", dataset: { ui: "rematch-offer" } },
        text,
        accepted.length ? t("ui.end.accepted", { who: accepted.join(", ") }) : "",
      ),
    );
    if (mineOpen) {
      out.push(button("rematch-accept", t("ui.end.accept"), true, true));
      out.push(button("rematch-decline", t("ui.end.decline"), false));
    }
    return out;
  }
  if (viewer !== null) out.push(button("rematch", t("ui.end.rematch"), undefined, true));
  return out;
}

/**
 * Offer a rematch (`accept` undefined) or answer the open offer.
 * @param {TablePage} page
 * @param {boolean | undefined} accept
 */
function sendRematch(page, accept) {
  try {
    page.connection().send({
      type: "rematch",
      token: page.held?.token,
      ...(accept === undefined ? {} : { accept }),
    });
  } catch (err) {
    toast(errorMessage(err), "error");
  }
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
