// @ts-check
// A room's history, /r/{room}/history, and the move-by-move replay of one game,
// /r/{room}/replay/{n}, drawn with the table renderer from spectator views.

import { api, errorMessage } from "./net.js";
import { showRules } from "./rulesmodal.js";
import { renderResults, renderTable, seatName } from "./table.js";
import { byId, el, toast } from "./ui.js";
import { describeEvent } from "./words.js";

/** @typedef {import("./types/protocol").GameList} GameList */
/** @typedef {import("./types/protocol").Replay} Replay */
/** @typedef {import("./types/protocol").RoomSummary} RoomSummary */
/** @typedef {import("./types/view").View} View */

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
    const rows = data.games.map((g) => {
      const res = g.result;
      const outcome = res
        ? `${res.winners.map(names).join(", ")} won — ${res.totals.map((t, i) => `${names(i)} ${t}`).join(", ")}`
        : "—";
      const link =
        g.status === "finished" || res
          ? el(
              "a",
              {
                class: "btn btn-small",
                href: `/r/${this.room}/replay/${g.game_no}`,
                dataset: { ui: "replay" },
              },
              "Replay",
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

export class ReplayPage {
  /**
   * @param {HTMLElement} root
   * @param {string} room
   * @param {number} gameNo
   */
  constructor(root, room, gameNo) {
    this.root = root;
    this.room = room;
    this.gameNo = gameNo;
    this.step = 0;
    /** @type {number | null} */
    this.timer = null;
    // Set by start() once the game is loaded, before anything reads them:
    /** @type {Replay} */
    this.data;
    /** @type {(seat: number) => string} */
    this.names;
    /** @type {HTMLInputElement} */
    this.slider;
    /** @type {HTMLButtonElement} */
    this.playBtn;
    /** @type {HTMLParagraphElement} */
    this.caption;
    /** @type {HTMLDivElement} */
    this.tableHost;
    /** @type {HTMLDivElement} */
    this.resultsHost;
    /** @type {HTMLOListElement} */
    this.logList;
  }

  async start() {
    document.title = `cardtable — replay ${this.room} #${this.gameNo}`;
    this.root.replaceChildren(el("p", {}, "Loading…"));
    try {
      this.data = /** @type {Replay} */ (
        await api(`/api/rooms/${encodeURIComponent(this.room)}/games/${this.gameNo}`)
      );
    } catch (err) {
      this.root.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          `Could not load the replay: ${errorMessage(err)}`,
          " ",
          el("a", { href: `/r/${this.room}/history` }, "History"),
        ),
      );
      toast(errorMessage(err), "error");
      return;
    }
    const d = this.data;
    byId("page-tools").replaceChildren(
      el("button", { type: "button", class: "btn", onclick: () => showRules(d.game) }, "Rules"),
    );
    this.names = (i) => seatName(d.seats, i);
    this.slider = el("input", {
      type: "range",
      min: 0,
      max: d.steps.length,
      value: 0,
      "aria-label": "step",
      class: "replay-slider",
      oninput: () => this.go(Number(this.slider.value)),
    });
    /**
     * @param {string} label
     * @param {string} ui
     * @param {() => void} fn
     * @param {string} [aria]
     */
    const btn = (label, ui, fn, aria) =>
      el(
        "button",
        { type: "button", class: "btn", dataset: { ui }, "aria-label": aria ?? label, onclick: fn },
        label,
      );
    this.playBtn = btn("▶ Play", "play", () => this.togglePlay(), "play");
    this.caption = el("p", { class: "replay-caption", role: "status", "aria-live": "polite" });
    this.tableHost = el("div", { class: "table-host" });
    this.resultsHost = el("div", { class: "end-host" });
    this.logList = el("ol", { class: "log-list" });
    this.root.replaceChildren(
      el(
        "div",
        { class: "room-bar" },
        el(
          "h1",
          { class: "room-title" },
          `Replay: game ${d.game_no} · ${d.game} · room ${this.room}`,
        ),
        el("a", { class: "btn btn-small", href: `/r/${this.room}/history` }, "History"),
      ),
      el(
        "div",
        { class: "replay-controls", role: "toolbar", "aria-label": "replay" },
        btn("« First", "first", () => this.go(0), "first step"),
        btn("◀ Prev", "prev", () => this.go(this.step - 1), "previous step"),
        this.playBtn,
        btn("Next ▶", "next", () => this.go(this.step + 1), "next step"),
        btn("Last »", "last", () => this.go(d.steps.length), "last step"),
        this.slider,
      ),
      this.caption,
      this.tableHost,
      this.resultsHost,
      el("details", { class: "log", open: true }, el("summary", {}, "Moves"), this.logList),
    );
    document.addEventListener("keydown", (ev) => {
      if (ev.target instanceof Element && ev.target.tagName === "INPUT") return;
      if (ev.key === "ArrowLeft") this.go(this.step - 1);
      else if (ev.key === "ArrowRight") this.go(this.step + 1);
      else if (ev.key === " ") {
        ev.preventDefault();
        this.togglePlay();
      }
    });
    this.go(0);
  }

  /**
   * @param {number} step
   * @returns {View}
   */
  viewAt(step) {
    return step === 0 ? this.data.initial : this.data.steps[step - 1].view;
  }

  /** @param {number} step */
  go(step) {
    const d = this.data;
    this.step = Math.max(0, Math.min(d.steps.length, step));
    this.slider.value = String(this.step);
    document.body.dataset.step = String(this.step);
    const view = this.viewAt(this.step);
    const last = this.step > 0 ? d.steps[this.step - 1] : null;
    this.caption.textContent = last
      ? `Step ${this.step} of ${d.steps.length}: ${this.names(last.seat)} — ${last.action}`
      : `Start (${d.steps.length} moves)`;
    this.tableHost.replaceChildren(
      renderTable(view, {
        viewer: null,
        seats: d.seats,
        names: this.names,
        interactive: false,
        lastActor: last?.seat ?? null,
      }),
    );
    this.resultsHost.replaceChildren(
      view.over
        ? el(
            "section",
            { class: "end-panel" },
            el("h2", {}, "Game over"),
            renderResults(view, this.names),
          )
        : "",
    );
    const lines = (view.events ?? []).map((e) => describeEvent(e, this.names)).filter(Boolean);
    this.logList.replaceChildren(
      ...lines
        .slice(-10)
        .reverse()
        .map((t) => el("li", {}, t)),
    );
    if (this.step >= d.steps.length) this.stop();
  }

  togglePlay() {
    if (this.timer) this.stop();
    else {
      if (this.step >= this.data.steps.length) this.go(0);
      this.timer = setInterval(() => this.go(this.step + 1), 700);
      this.playBtn.textContent = "⏸ Pause";
    }
  }

  stop() {
    clearInterval(this.timer ?? undefined);
    this.timer = null;
    this.playBtn.textContent = "▶ Play";
  }
}
