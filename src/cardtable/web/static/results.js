// @ts-check
// The ends of rounds and games in words and tables: the standings of a match (who leads, by
// how much), each seat's round score explained (its hand's sum or points, every step to the
// score with its reason), the round-by-round results with the hands shown at each round's end,
// the exact-target resets, and who played a seat's moves when its person did not. Used by the
// live table's end panels and by the replay.

import { el } from "./ui.js";
import { variantInfo } from "./variants.js";
import { cardElement } from "./cardview.js";
import { joinAnd, language, t } from "./i18n.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/view").FamilyRoundResult} FamilyRoundResult */
/** @typedef {import("./types/view").QuteRoundResult} QuteRoundResult */
/** @typedef {import("./types/view").ScoreAdjustment} ScoreAdjustment */
/** @typedef {import("./types/protocol").SeatInfo} SeatInfo */
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
 * "1st", "2nd", "3rd", "4th" … ("1.", "2." in German): the form Intl.PluralRules gives `n` as
 * an ordinal in the page's language.
 * @param {number} n
 */
export function ordinal(n) {
  const form = new Intl.PluralRules(language(), { type: "ordinal" }).select(n);
  return t(`ui.results.ordinal.${["one", "two", "few"].includes(form) ? form : "other"}`, { n });
}

/**
 * A signed number as a step: "+ 10", "− 8".
 * @param {number} n
 */
const step = (n) => `${n < 0 ? "−" : "+"} ${Math.abs(n)}`;

/**
 * Why a Cabo-family score differs from the hand's sum, in words (`game`: the variant, whose
 * caller rule the words follow).
 * @param {ScoreAdjustment["reason"]} reason
 * @param {string} game
 */
export function reasonWords(reason, game) {
  switch (reason) {
    case "caller_lowest":
      return t("ui.results.caller_lowest");
    case "caller_penalty":
      return game === "gabo" ? t("ui.results.caller_penalty_gabo") : t("ui.results.caller_penalty");
    case "kamikaze":
      return t("ui.results.kamikaze");
    case "kamikaze_victim":
      return t("ui.results.kamikaze_victim");
    default:
      return t("ui.results.rule");
  }
}

/**
 * "once", "twice", "3 times".
 * @param {number} n
 */
export const times = (n) =>
  n === 1 ? t("ui.results.once") : n === 2 ? t("ui.results.twice") : t("ui.results.times", { n });

/**
 * How a seat's round score came about, in words a phone can show (no hover): the hand's sum
 * (Qute: its points), each step with its reason, and the score. "sum 26 + 10 (called without
 * the lowest sum) = 36"; "points 30 + 40 (J points from Bob) × 2 (the draw pile was refilled
 * once) = 140"; a plain "sum 12" when the score is the sum.
 * @param {View} view
 * @param {FamilyRoundResult | QuteRoundResult} round
 * @param {number} seat
 * @param {Names} names
 * @returns {string}
 */
export function scoreHow(view, round, seat, names) {
  const score = round.scores[seat];
  if ("hand_points" in round) {
    const points = round.hand_points[seat] ?? 0;
    const j = round.jpoints?.[seat] ?? 0;
    const start = t("ui.results.points", { points });
    let text = start;
    if (j < 0) text += ` ${step(j)} (${t("ui.results.jpoints_own")})`;
    else if (j > 0) {
      text += ` ${step(j)} (${t("ui.results.jpoints_from", { who: names(round.finisher) })})`;
    }
    if (round.multiplier > 1) {
      const refilled = t("ui.results.refilled", { times: times(round.multiplier - 1) });
      text += ` × ${round.multiplier} (${refilled})`;
    }
    return text === start && points === score ? text : `${text} = ${score}`;
  }
  const sum = round.sums?.[seat] ?? score;
  const steps = round.adjustments?.[seat] ?? [];
  let text = t("ui.results.sum", { sum });
  for (const a of steps) {
    // gabo's lost call says which way it was lost: a lower sum, or one above 5
    const lower = (round.sums ?? []).flatMap((t, s) => (s !== seat && t < sum ? [s] : []));
    const why =
      a.reason === "caller_penalty" && view.game === "gabo"
        ? lower.length
          ? t("ui.results.lower_sum", { who: joinAnd(lower.map(names)) }, lower.length)
          : t("ui.results.above_five")
        : reasonWords(a.reason, view.game);
    text += ` ${step(a.points)} (${why})`;
  }
  if (!steps.length && score !== sum) text += ` ${step(score - sum)} (${t("ui.results.rule")})`;
  return score === sum && !steps.length ? text : `${text} = ${score}`;
}

/**
 * What a reset at exactly the target did to a seat's total, in words: Qute's goes back to 0,
 * cabo's (`reset_at_exact_target`) is halved.
 * @param {View} view
 * @param {FamilyRoundResult | QuteRoundResult} round
 * @param {number} seat
 */
export function resetWords(view, round, seat) {
  const target = targetOf(view);
  const after = round.totals[seat] ?? 0;
  return "hand_points" in round
    ? t("ui.results.reset_zero", { target })
    : t("ui.results.reset_half", { target, after });
}

/**
 * Who played a seat's moves when its person did not, in words ("" when nobody did): "played
 * by an AI for 3 moves, time ran out twice".
 * @param {SeatInfo | undefined} info
 */
export function playedForWords(info) {
  const counts = info?.played_for;
  if (!counts) return "";
  const parts = [];
  if (counts.stand_in > 0) parts.push(t("ui.results.played_by_ai", {}, counts.stand_in));
  if (counts.clock > 0) parts.push(t("ui.results.time_ran_out", { times: times(counts.clock) }));
  return parts.join(", ");
}

/**
 * The seats that hit the target exactly in a round and went back to 0 (Qute) or were halved
 * (cabo's `reset_at_exact_target`).
 * @param {FamilyRoundResult | QuteRoundResult | undefined} round
 * @returns {number[]}
 */
export function resetSeats(round) {
  return round && "reset" in round ? round.reset : [];
}

/**
 * The standings as a table: place, player, this round's score (when a round just ended) and
 * the total, coloured by standing (the leader green, the last red), with the resets shown.
 * Under each player's name: how the round's score came about, and who played the seat's moves
 * when its person did not (`seats`).
 * @param {View} view
 * @param {Names} names
 * @param {{round?: FamilyRoundResult | QuteRoundResult, seats?: SeatInfo[]}} [opts]
 * @returns {HTMLElement}
 */
export function standingsTable(view, names, { round, seats } = {}) {
  const rows = standings(view);
  const worst = Math.max(...rows.map((r) => r.rank));
  const reset = new Set(resetSeats(round));
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("ui.results.place")),
    el("th", { scope: "col" }, t("ui.results.player")),
    round ? el("th", { scope: "col" }, t("ui.family.round", { round: round.round })) : null,
    el("th", { scope: "col" }, t("ui.results.total")),
  );
  const body = rows.map(({ seat, total, rank }) =>
    el(
      "tr",
      {
        class: rank === 1 ? "leading" : rank === worst && worst > 1 ? "trailing" : "",
        dataset: { seat: String(seat), rank: String(rank), total: String(total) },
      },
      el("td", { class: "place" }, ordinal(rank)),
      el(
        "th",
        { scope: "row" },
        el("span", { class: "player-name" }, names(seat)),
        playedForWords(seats?.[seat])
          ? el(
              "span",
              { class: "played-for", dataset: { ui: "played-for" } },
              ` — ${playedForWords(seats?.[seat])}`,
            )
          : null,
        round
          ? el(
              "span",
              { class: "score-how", dataset: { ui: "score-how" } },
              scoreHow(view, round, seat, names),
            )
          : null,
      ),
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
          ? el("span", { class: "reset", dataset: { ui: "reset" } }, `${targetOf(view)} → ${total}`)
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
 * The words under a round's standings for the resets: "Ann reached exactly 125: back to 0"
 * (Qute), "Ann reached exactly 100: halved to 50" (cabo).
 * @param {View} view
 * @param {Names} names
 * @param {FamilyRoundResult | QuteRoundResult | undefined} round
 */
export function resetNote(view, names, round) {
  const seats = resetSeats(round);
  if (!round || !seats.length) return null;
  return el(
    "p",
    { class: "reset-note", dataset: { ui: "reset-note" } },
    seats
      .map((s) => t("ui.results.reached", { who: names(s), what: resetWords(view, round, s) }))
      .join(" "),
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
  const marks = variantInfo(view.game)?.value_marks ?? null;
  const totals = currentTotals(view);
  const ranks = new Map(standings(view).map((s) => [s.seat, s.rank]));
  const worst = Math.max(...ranks.values());
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("ui.results.player")),
    rounds.map((r) => el("th", { scope: "col" }, t("ui.family.round", { round: r.round }))),
    el("th", { scope: "col" }, t("ui.results.total")),
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
        result?.winners.includes(p)
          ? el("span", { class: "win-mark" }, ` ★ ${t("ui.results.winner_mark")}`)
          : "",
      ),
      rounds.map((r) =>
        el(
          "td",
          { class: r.winners.includes(p) ? "round-winner" : "" },
          String(r.scores[p]),
          resetSeats(r).includes(p)
            ? el(
                "span",
                { class: "reset", dataset: { ui: "reset" } },
                ` · ${t("ui.results.total_now", { total: r.totals[p] })}`,
              )
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
        el("h3", {}, t("ui.results.hands", { round: last.round })),
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
                .map((code) => cardElement({ code, faceUp: true, size: "sm", powers, marks })),
            ),
            el("span", { class: "sum", dataset: { ui: "hand-how" } }, scoreHow(view, last, p, names)),
          ),
        ),
      )
    : null;
  const winnerText = result
    ? el(
        "p",
        { class: "winners", dataset: { winners: result.winners.join(",") } },
        `${t("ui.results.winners", {}, result.winners.length)} `,
        el("strong", {}, result.winners.map(names).join(", ")),
      )
    : last
      ? el(
          "p",
          { class: "winners" },
          `${t("ui.results.round_won_by")} `,
          el("strong", {}, last.winners.map(names).join(", ")),
        )
      : null;
  return el("div", { class: "results-panel" }, winnerText, table, hands);
}
