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
/** @typedef {import("./types/protocol").ReplayStep} ReplayStep */
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

/** Steps the replay viewer asks for at a time (the server may send fewer: it bounds pages). */
const PAGE = 100;
/** Steps either side of the one shown that the viewer fetches in the background. */
const AHEAD = 50;
/** Most steps the viewer keeps; beyond, the pages farthest from the step shown are dropped. */
const KEEP = 1500;
/** Milliseconds a step that has to be fetched waits, so that dragging the slider fetches once. */
const SETTLE = 120;

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
    /** The step asked for: 0 (the deal) to `total`. */
    this.step = 0;
    /** The step drawn now (-1: none yet). */
    this.shown = -1;
    /** Number of steps of the game. */
    this.total = 0;
    /** @type {number | null} */
    this.timer = null;
    /** @type {number | undefined} */
    this.settle = undefined;
    /** Steps loaded, by index (step k is index k - 1). @type {Map<number, ReplayStep>} */
    this.steps = new Map();
    /** Pages loaded: first index → number of steps. @type {Map<number, number>} */
    this.pages = new Map();
    /** Pages being fetched, by first index. @type {Map<number, Promise<Replay>>} */
    this.fetching = new Map();
    // Set by start() once the first page is loaded, before anything reads them:
    /** @type {Replay} */
    this.data;
    /** @type {View} */
    this.initial;
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
      this.data = await this.fetchPage(0);
      if (!this.data.initial) throw new Error("the first page of the replay has no initial view");
      this.initial = this.data.initial;
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
    this.total = d.total;
    byId("page-tools").replaceChildren(
      el("button", { type: "button", class: "btn", onclick: () => showRules(d.game) }, "Rules"),
    );
    this.names = (i) => seatName(d.seats, i);
    this.slider = el("input", {
      type: "range",
      min: 0,
      max: this.total,
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
        btn("Last »", "last", () => this.go(this.total), "last step"),
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
   * The page of steps from index `start` (one request at a time per page); its steps are kept.
   * @param {number} start
   * @returns {Promise<Replay>}
   */
  fetchPage(start) {
    let pending = this.fetching.get(start);
    if (!pending) {
      const path = `/api/rooms/${encodeURIComponent(this.room)}/games/${this.gameNo}`;
      pending = /** @type {Promise<Replay>} */ (api(`${path}?start=${start}&count=${PAGE}`))
        .then((page) => {
          this.keep(page);
          return page;
        })
        .finally(() => this.fetching.delete(start));
      this.fetching.set(start, pending);
    }
    return pending;
  }

  /** @param {Replay} page */
  keep(page) {
    page.steps.forEach((s, i) => this.steps.set(page.start + i, s));
    if (page.steps.length) this.pages.set(page.start, page.steps.length);
    // drop the pages farthest from the step shown while too many steps are kept
    while (this.steps.size > KEEP && this.pages.size > 1) {
      let far = -1;
      let farthest = -1;
      for (const [first, n] of this.pages) {
        const away = Math.max(first - this.step, this.step - (first + n), 0);
        if (away > farthest) [far, farthest] = [first, away];
      }
      for (let i = far; i < far + (this.pages.get(far) ?? 0); i++) this.steps.delete(i);
      this.pages.delete(far);
    }
  }

  /**
   * Load step index `index` (step `index + 1`): its page, from a multiple of PAGE, and the
   * pages after it while the server sent fewer steps than asked.
   * @param {number} index
   */
  async load(index) {
    let start = index - (index % PAGE);
    while (!this.steps.has(index) && start <= index) {
      const have = this.pages.get(start);
      if (have !== undefined && this.steps.has(start)) {
        start += have;
        continue;
      }
      const page = await this.fetchPage(start);
      if (page.next === null || !page.steps.length) break;
      start = page.next;
    }
  }

  /** Fetch, in the background, the steps up to AHEAD either side of the one shown. */
  prefetch() {
    for (const step of [this.step + AHEAD, this.step - AHEAD]) {
      const index = Math.max(0, Math.min(this.total, step)) - 1;
      if (index >= 0 && !this.steps.has(index)) this.load(index).catch(() => {});
    }
  }

  /**
   * Show step `step` (0: the deal), at once if it is loaded, else once it is.
   * @param {number} step
   */
  go(step) {
    this.step = Math.max(0, Math.min(this.total, step));
    this.slider.value = String(this.step);
    clearTimeout(this.settle);
    if (this.step === 0 || this.steps.has(this.step - 1)) {
      this.render();
      return;
    }
    const want = this.step;
    this.caption.textContent = `Step ${want} of ${this.total}: loading…`;
    this.busy(true); // the table still shows the step before: dimmed until the new one comes
    this.settle = setTimeout(() => {
      this.load(want - 1)
        .then(() => {
          if (this.step === want && this.steps.has(want - 1)) this.render();
        })
        .catch((err) => {
          if (this.step !== want) return;
          this.busy(false);
          const why = errorMessage(err);
          this.caption.textContent = `Step ${want} of ${this.total}: could not load it (${why})`;
          toast(why, "error");
          this.stop();
        });
    }, SETTLE);
  }

  /**
   * Mark the table as waiting for a step (dimmed, aria-busy), or not.
   * @param {boolean} on
   */
  busy(on) {
    for (const host of [this.tableHost, this.resultsHost]) {
      host.style.opacity = on ? "0.5" : "";
      host.setAttribute("aria-busy", String(on));
    }
  }

  /** Draw the step asked for (loaded), then fetch around it. */
  render() {
    const d = this.data;
    this.busy(false);
    const last = this.step > 0 ? this.steps.get(this.step - 1) : undefined;
    const view = last ? last.view : this.initial;
    this.shown = this.step;
    document.body.dataset.step = String(this.step);
    this.caption.textContent = last
      ? `Step ${this.step} of ${this.total}: ${this.names(last.seat)} — ${last.action}`
      : `Start (${this.total} moves)`;
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
    if (this.step >= this.total) this.stop();
    this.prefetch();
  }

  togglePlay() {
    if (this.timer) this.stop();
    else {
      if (this.step >= this.total) this.go(0);
      this.timer = setInterval(() => {
        if (this.shown === this.step) this.go(this.step + 1); // else: still loading
      }, 700);
      this.playBtn.textContent = "⏸ Pause";
    }
  }

  stop() {
    clearInterval(this.timer ?? undefined);
    this.timer = null;
    this.playBtn.textContent = "▶ Play";
  }
}
