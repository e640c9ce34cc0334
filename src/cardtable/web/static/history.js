// @ts-check
// A room's history, /r/{room}/history: its games, who played, the scores, and links to each
// finished game's replay (replay.js) and review (review.js).

import { has, t } from "./i18n.js";
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
    document.title = t("ui.history.page_title", { room: this.room });
    byId("page-tools").replaceChildren();
    this.root.replaceChildren(el("p", {}, t("ui.history.loading")));
    /** @type {RoomSummary} */
    let summary;
    /** @type {GameList} */
    let data;
    try {
      [summary, data] = await Promise.all([
        /** @type {Promise<RoomSummary>} */ (
          api(`/api/rooms/${encodeURIComponent(this.room)}`)
        ),
        /** @type {Promise<GameList>} */ (
          api(`/api/rooms/${encodeURIComponent(this.room)}/games`)
        ),
      ]);
    } catch (err) {
      this.root.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          t("ui.history.failed", { problem: errorMessage(err) }),
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
        ? t("ui.history.outcome", {
            winners: res.winners.map(names).join(", "),
            totals: res.totals
              .map((points, i) => `${names(i)} ${points}`)
              .join(", "),
          })
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
                t("ui.history.replay"),
              ),
              el(
                "a",
                {
                  class: "btn btn-small",
                  href: `/r/${this.room}/review/${g.game_no}?seat=${reviewed}`,
                  dataset: { ui: "review" },
                  title: t("ui.history.review_title", {
                    name: names(reviewed),
                  }),
                },
                t("ui.history.review"),
              ),
            )
          : el("span", { class: "muted" }, t("ui.history.in_play"));
      return el(
        "tr",
        { dataset: { game: String(g.game_no) } },
        el("td", {}, String(g.game_no)),
        el(
          "td",
          {},
          has(`ui.history.status.${g.status}`)
            ? t(`ui.history.status.${g.status}`)
            : g.status,
        ),
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
        el(
          "h1",
          {},
          t("ui.history.title", {
            game: summary.title ?? summary.game,
            room: this.room,
          }),
        ),
        summary.practice
          ? el(
              "p",
              { class: "muted", dataset: { ui: "history-practice" } },
              t("ui.history.practice"),
            )
          : null,
        el("p", {}, el("a", { href: `/r/${this.room}` }, t("ui.history.back"))),
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
                    [
                      t("ui.history.col.game"),
                      t("ui.history.col.status"),
                      t("ui.history.col.started"),
                      t("ui.history.col.finished"),
                      t("ui.history.col.moves"),
                      t("ui.history.col.result"),
                      "",
                    ].map((h) => el("th", { scope: "col" }, h)),
                  ),
                ),
                el("tbody", {}, rows),
              ),
            )
          : el("p", { class: "muted" }, t("ui.history.none")),
      ),
    );
  }
}
