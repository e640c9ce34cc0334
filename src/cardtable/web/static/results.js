// @ts-check
// The ends of rounds and games in words and tables: the standings of a match (who leads, by
// how much), the round-by-round results with the hands shown at each round's end, and Qute's
// exact-target resets. Used by the live table's end panels and by the replay.

import { el } from "./ui.js";
import { variantInfo } from "./variants.js";
import { cardElement } from "./cardview.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/view").FamilyRoundResult} FamilyRoundResult */
/** @typedef {import("./types/view").QuteRoundResult} QuteRoundResult */
/** @typedef {(seat: number) => string} Names */

/**
 * One place in the standings: the seat, its total and its rank (1 = best; ties share a rank).
 * @typedef {{seat: number, total: number, rank: number}} Standing
 */

/**
 * The totals the view stands at: the game's result, else the last round's, else the view's.
 * @param {View} view
 * @returns {number[]}
 */
export function currentTotals(view) {
  const last = view.round_results?.at(-1);
  return view.result?.totals ?? last?.totals ?? view.totals ?? [];
}

/**
 * The standings of a match, best first (the lowest total leads in every game here).
 * @param {View} view
 * @returns {Standing[]}
 */
export function standings(view) {
  const totals = currentTotals(view);
  const order = [...Array(view.players).keys()].sort(
    (a, b) => (totals[a] ?? 0) - (totals[b] ?? 0) || a - b,
  );
  return order.map((seat) => ({
    seat,
    total: totals[seat] ?? 0,
    rank: 1 + order.filter((s) => (totals[s] ?? 0) < (totals[seat] ?? 0)).length,
  }));
}

/**
 * "1st", "2nd", "3rd", "4th" …
 * @param {number} n
 */
export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${tail}`;
}

/**
 * The seats that hit the target exactly in a round and went back to 0 (Qute).
 * @param {FamilyRoundResult | QuteRoundResult | undefined} round
 * @returns {number[]}
 */
export function resetSeats(round) {
  return round && "reset" in round ? round.reset : [];
}

/**
 * The standings as a table: place, player, this round's score (when a round just ended) and
 * the total, coloured by standing (the leader green, the last red), with Qute's resets shown.
 * @param {View} view
 * @param {Names} names
 * @param {{round?: FamilyRoundResult | QuteRoundResult}} [opts]
 * @returns {HTMLElement}
 */
export function standingsTable(view, names, { round } = {}) {
  const rows = standings(view);
  const worst = Math.max(...rows.map((r) => r.rank));
  const reset = new Set(resetSeats(round));
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Place"),
    el("th", { scope: "col" }, "Player"),
    round ? el("th", { scope: "col" }, `Round ${round.round}`) : null,
    el("th", { scope: "col" }, "Total"),
  );
  const body = rows.map(({ seat, total, rank }) =>
    el(
      "tr",
      {
        class: rank === 1 ? "leading" : rank === worst && worst > 1 ? "trailing" : "",
        dataset: { seat: String(seat), rank: String(rank), total: String(total) },
      },
      el("td", { class: "place" }, ordinal(rank)),
      el("th", { scope: "row" }, names(seat)),
      round
        ? el(
            "td",
            { class: round.winners.includes(seat) ? "round-winner" : "" },
            `${round.scores[seat] > 0 ? "+" : ""}${round.scores[seat]}`,
          )
        : null,
      el(
        "td",
        { class: "total" },
        reset.has(seat)
          ? el(
              "span",
              {
                class: "reset",
                dataset: { ui: "reset" },
                title: "exactly on the target: the total goes back to 0",
              },
              `${targetOf(view)} → 0`,
            )
          : String(total),
      ),
    ),
  );
  return el(
    "table",
    { class: "results standings", dataset: { ui: "standings" } },
    el("thead", {}, head),
    el("tbody", {}, body),
  );
}

/**
 * The match's target (for the words of a reset).
 * @param {View} view
 */
function targetOf(view) {
  return view.target ?? 125;
}

/**
 * The words under a round's standings for Qute's resets: "Ann reached exactly 125: back to 0".
 * @param {View} view
 * @param {Names} names
 * @param {FamilyRoundResult | QuteRoundResult | undefined} round
 */
export function resetNote(view, names, round) {
  const seats = resetSeats(round);
  if (!seats.length) return null;
  return el(
    "p",
    { class: "reset-note", dataset: { ui: "reset-note" } },
    `${seats.map(names).join(" and ")} reached exactly ${targetOf(view)}: back to 0.`,
  );
}

/**
 * Every round of the game: each seat's score per round, the running total, and the hands shown
 * at the end of the last round.
 * @param {View} view
 * @param {Names} names
 * @returns {HTMLElement}
 */
export function renderResults(view, names) {
  const rounds = view.round_results ?? [];
  const last = rounds.at(-1);
  const players = [...Array(view.players).keys()];
  const result = view.result;
  const powers = variantInfo(view.game)?.powers ?? null;
  const totals = currentTotals(view);
  const ranks = new Map(standings(view).map((s) => [s.seat, s.rank]));
  const worst = Math.max(...ranks.values());
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Player"),
    rounds.map((r) => el("th", { scope: "col" }, `Round ${r.round}`)),
    el("th", { scope: "col" }, "Total"),
  );
  const rows = players.map((p) => {
    const rank = ranks.get(p) ?? 1;
    return el(
      "tr",
      {
        class: result?.winners.includes(p) ? "winner" : "",
        dataset: { seat: String(p), total: String(totals[p]) },
      },
      el(
        "th",
        { scope: "row" },
        names(p),
        result?.winners.includes(p) ? el("span", { class: "win-mark" }, " ★ winner") : "",
      ),
      rounds.map((r) =>
        el(
          "td",
          {
            class: r.winners.includes(p) ? "round-winner" : "",
            title: "sums" in r && r.sums ? `sum ${r.sums[p]}` : "",
          },
          String(r.scores[p]),
          resetSeats(r).includes(p)
            ? el("span", { class: "reset", dataset: { ui: "reset" } }, " → 0")
            : null,
        ),
      ),
      el(
        "td",
        {
          class: `total ${rank === 1 ? "leading" : rank === worst && worst > 1 ? "trailing" : ""}`,
        },
        String(totals[p]),
      ),
    );
  });
  const table = el("table", { class: "results" }, el("thead", {}, head), el("tbody", {}, rows));
  const hands = last
    ? el(
        "div",
        { class: "revealed" },
        el("h3", {}, `Hands at the end of round ${last.round}`),
        players.map((p) =>
          el(
            "div",
            { class: "revealed-hand" },
            el("span", { class: "seat-name" }, names(p)),
            el(
              "div",
              { class: "hand" },
              (last.hands[p] ?? [])
                .filter(Boolean)
                .map((code) => cardElement({ code, faceUp: true, size: "sm", powers })),
            ),
            "sums" in last && last.sums
              ? el("span", { class: "sum" }, `sum ${last.sums[p]}`)
              : null,
            "hand_points" in last && last.hand_points
              ? el("span", { class: "sum" }, `points ${last.hand_points[p]}`)
              : null,
          ),
        ),
      )
    : null;
  const winnerText = result
    ? el(
        "p",
        { class: "winners", dataset: { winners: result.winners.join(",") } },
        result.winners.length > 1 ? "Winners: " : "Winner: ",
        el("strong", {}, result.winners.map(names).join(", ")),
      )
    : last
      ? el(
          "p",
          { class: "winners" },
          "Round won by ",
          el("strong", {}, last.winners.map(names).join(", ")),
        )
      : null;
  return el("div", { class: "results-panel" }, winnerText, table, hands);
}
