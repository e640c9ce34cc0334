// @ts-check
// A room's history, /r/{room}/history: its games, who played, the scores, and links to each
// finished game's replay (replay.js) and review (review.js).

import { api, errorMessage, loadSeat } from "./net.js";
import { seatName } from "./table.js";
import { byId, el, toast } from "./ui.js";

/** @typedef {import("./types/protocol").GameList} GameList */
/** @typedef {import("./types/protocol").RoomSummary} RoomSummary */

// Times come as Unix seconds (floats); ISO strings are accepted too.
/** @param {number | string | null | undefined} t */
const when = (t) => {
  if (t === null || t === undefined) return "—";
  return new Date(typeof t === "number" ? t * 1000 : t).toLocaleString();
};

export class HistoryPage {
  /**
   * @param {HTMLElement} root
   * @param {string} room
   */
  constructor(root, room) {
    this.root = root;
    this.room = room;
  }

  async start() {
    document.title = `cardtable — history of ${this.room}`;
    byId("page-tools").replaceChildren();
    this.root.replaceChildren(el("p", {}, "Loading…"));
    /** @type {RoomSummary} */
    let summary;
    /** @type {GameList} */
    let data;
    try {
      [summary, data] = await Promise.all([
        /** @type {Promise<RoomSummary>} */ (api(`/api/rooms/${encodeURIComponent(this.room)}`)),
        /** @type {Promise<GameList>} */ (api(`/api/rooms/${encodeURIComponent(this.room)}/games`)),
      ]);
    } catch (err) {
      this.root.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          `Could not load the history: ${errorMessage(err)}`,
        ),
      );
      toast(errorMessage(err), "error");
      return;
    }
    /** @param {number} i */
    const names = (i) => seatName(summary.seats, i);
    // the review opens on this browser's seat, else on the first person's, else seat 0
    const held = loadSeat(this.room);
    const person = summary.seats.findIndex((s) => s.type === "human");
    const reviewed = held?.seat ?? Math.max(0, person);
    const rows = data.games.map((g) => {
      const res = g.result;
      const outcome = res
        ? `${res.winners.map(names).join(", ")} won — ${res.totals.map((t, i) => `${names(i)} ${t}`).join(", ")}`
        : "—";
      const link =
        g.status === "finished" || res
          ? el(
              "span",
              { class: "history-links" },
              el(
                "a",
                {
                  class: "btn btn-small",
                  href: `/r/${this.room}/replay/${g.game_no}`,
                  dataset: { ui: "replay" },
                },
                "Replay",
              ),
              el(
                "a",
                {
                  class: "btn btn-small",
                  href: `/r/${this.room}/review/${g.game_no}?seat=${reviewed}`,
                  dataset: { ui: "review" },
                  title: `Every decision of ${names(reviewed)} weighed, with all hands open`,
                },
                "Review",
              ),
            )
          : el("span", { class: "muted" }, "in play");
      return el(
        "tr",
        { dataset: { game: String(g.game_no) } },
        el("td", {}, String(g.game_no)),
        el("td", {}, g.status),
        el("td", {}, when(g.started)),
        el("td", {}, when(g.finished)),
        el("td", {}, String(g.actions)),
        el("td", {}, outcome),
        el("td", {}, link),
      );
    });
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel history" },
        el("h1", {}, `${summary.title ?? summary.game} · room ${this.room}`),
        summary.practice
          ? el(
              "p",
              { class: "muted", dataset: { ui: "history-practice" } },
              "A practice table: the AI players' cards were shown face up, so its games are " +
                "never rated.",
            )
          : null,
        el("p", {}, el("a", { href: `/r/${this.room}` }, "Back to the table")),
        rows.length
          ? el(
              "div",
              { class: "scroll-x" },
              el(
                "table",
                { class: "history-table" },
                el(
                  "thead",
                  {},
                  el(
                    "tr",
                    {},
                    ["Game", "Status", "Started", "Finished", "Moves", "Result", ""].map((h) =>
                      el("th", { scope: "col" }, h),
                    ),
                  ),
                ),
                el("tbody", {}, rows),
              ),
            )
          : el("p", { class: "muted" }, "No games yet."),
      ),
    );
  }
}
