// @ts-check
// The lessons' page (learn.html): /learn lists every game that has a lesson, /learn/{game} plays
// one. A lesson runs on the server (cardtable.web.lessons): this page draws the learner's seat's
// view with the live table's renderer (table.js), says what the step says, offers the legal
// moves as buttons in plain words (and the cards and piles to click, as at the table: actions.js),
// and shows why a move was not played — nothing is lost by a wrong move. At the end it opens a
// normal room against the beginner AI.

import { Picker } from "./actions.js";
import { language, t } from "./i18n.js";
import { api, ApiError, errorMessage, saveSeat } from "./net.js";
import { getName } from "./prefs.js";
import { saidNodes } from "./said.js";
import { renderTable } from "./table.js";
import { byId, el, isTouch, toast } from "./ui.js";
import { loadVariants } from "./variants.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/protocol").ToldEvent} ToldEvent */
/** @typedef {import("./types/protocol").CreateRoomBody} CreateRoomBody */
/** @typedef {import("./types/protocol").CreatedRoom} CreatedRoom */

/**
 * A lesson as the server sends it (GET /api/lessons/{id}; cardtable.web.lessons.LessonState).
 * @typedef {{
 *   id: string,
 *   game: string,
 *   title: string,
 *   heading: string,
 *   lang: string,
 *   seat: number,
 *   players: number,
 *   names: string[],
 *   view: View,
 *   step: {number: number, count: number, progress: string, words: string, reading: boolean},
 *   waiting: boolean,
 *   moves: {action: string, words: string}[],
 *   outcome: null | {
 *     kind: "played" | "wrong" | "refused" | "read",
 *     accepted: boolean,
 *     action: string,
 *     move: string,
 *     text: string,
 *   },
 *   events: ToldEvent[],
 *   result: string | null,
 *   done: boolean,
 *   final: string | null,
 * }} LessonState
 */

/** @typedef {{game: string, title: string, summary: string}} LessonListing */

// --- words ------------------------------------------------------------------------------------
// The page's own words are ui.po's (ui.learn.*); the lesson's words come from the server in the
// page's language (?lang=).

/** How to move, as the device does it ("Tap …" or "Click …"). */
function howToMove() {
  return isTouch()
    ? t("ui.learn.how_to_move.touch")
    : t("ui.learn.how_to_move.click");
}

/**
 * `text` with a capital first letter.
 * @param {string} text
 */
function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// --- what the learner sees for a moment ----------------------------------------------------------

const ADDR = /^\d+\.\d+$/;

/**
 * The cards the learner was shown by `events` (its own peeks, spies and looks, the deal's
 * first sight, the cards a failed claim or drop shows everybody), address → code. They stay
 * face up until the lesson moves on: a card a later event of the same move moves or names is
 * left out.
 * @param {ToldEvent[]} events
 * @param {number} seat
 * @returns {Map<string, string>}
 */
export function seenNow(events, seat) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (const ev of events) {
    const fields = /** @type {Record<string, unknown>} */ (
      /** @type {unknown} */ (ev)
    );
    const mine = fields.seat === seat;
    if ((ev.type === "peek" || ev.type === "spy") && mine && ev.card)
      seen.set(ev.at, ev.card);
    else if (ev.type === "look" && mine && ev.cards) {
      const cards = ev.cards;
      ev.at.forEach((a, i) => cards[i] && seen.set(a, cards[i]));
    } else if (ev.type === "claim" && !ev.ok && ev.shown) {
      const shown = ev.shown;
      ev.at.forEach((a, i) => shown[i] && seen.set(a, shown[i]));
    } else if (ev.type === "drop" && !ev.ok && ev.card)
      seen.set(ev.at, ev.card);
    else {
      for (const a of [fields.at, fields.from, fields.to].flat()) {
        if (typeof a === "string" && ADDR.test(a)) seen.delete(a);
      }
    }
  }
  return seen;
}

// --- the list of lessons -------------------------------------------------------------------------

/** /learn: every game that has a lesson. */
export class LessonList {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
  }

  async start() {
    document.title = `cardtable — ${t("ui.learn.learn")}`;
    const list = el("ul", {
      class: "lesson-list",
      dataset: { ui: "lesson-list" },
    });
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel learn-intro" },
        el("h1", {}, t("ui.learn.learn")),
        el("p", { class: "learn-lead" }, t("ui.learn.lead")),
        list,
        el("p", {}, el("a", { href: "/" }, t("ui.learn.lobby"))),
      ),
    );
    try {
      const games = /** @type {LessonListing[]} */ (await api("/api/lessons"));
      list.replaceChildren(
        ...games.map((g) =>
          el(
            "li",
            {},
            el(
              "a",
              {
                class: "btn btn-primary lesson-link",
                href: `/learn/${encodeURIComponent(g.game)}`,
                dataset: { game: g.game },
              },
              g.title,
            ),
            el("span", { class: "muted lesson-summary" }, g.summary),
          ),
        ),
      );
    } catch (err) {
      list.replaceChildren(
        el("li", { class: "error-text" }, errorMessage(err)),
      );
    }
  }
}

// --- one lesson ----------------------------------------------------------------------------------

/** @param {string} game */
const storeKey = (game) => `cardtable:lesson:${game}`;

/** /learn/{game}: the lesson of one game. */
export class LessonPage {
  /**
   * @param {HTMLElement} root
   * @param {string} game
   */
  constructor(root, game) {
    this.root = root;
    this.game = game;
    /** @type {LessonState | null} */
    this.state = null;
    this.picker = new Picker();
    /** @type {Map<string, string>} cards face up for this step: address → code */
    this.revealed = new Map();
    this.busy = false;
    this.answers = 0;
    this.tableHost = el("div", {
      class: "table-host learn-table",
      dataset: { ui: "learn-table" },
    });
    this.panel = el("section", {
      class: "panel learn-panel",
      "aria-live": "polite",
      dataset: { ui: "lesson" },
    });
  }

  async start() {
    document.title = `cardtable — ${t("ui.learn.learn")}`;
    this.root.replaceChildren(
      el("div", { class: "learn-layout" }, this.tableHost, this.panel),
    );
    this.panel.replaceChildren(
      el("p", { class: "muted" }, t("ui.learn.loading")),
    );
    byId("page-tools").replaceChildren(
      el(
        "a",
        { class: "btn btn-small", href: "/learn", dataset: { ui: "leave" } },
        t("ui.learn.leave"),
      ),
    );
    // A page for the tests to read (like the table's window.cardtable).
    Object.assign(window, {
      lesson: {
        state: () => this.state,
        clicksFor: (/** @type {string} */ text) => this.picker.clicksFor(text),
        busy: () => this.busy,
      },
    });
    try {
      await loadVariants();
      await this.resume();
    } catch (err) {
      const missing = err instanceof ApiError && err.status === 404;
      this.panel.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          missing
            ? t("ui.learn.no_lesson")
            : `${t("ui.learn.failed")}: ${errorMessage(err)}`,
        ),
        el("p", {}, el("a", { href: "/learn" }, t("ui.learn.another"))),
      );
    }
  }

  /** The lesson this tab was in (after a reload), else a new one. */
  async resume() {
    const id = sessionStorage.getItem(storeKey(this.game));
    if (id) {
      try {
        const state = /** @type {LessonState} */ (
          await api(`/api/lessons/${encodeURIComponent(id)}?lang=${language()}`)
        );
        this.show(state, true);
        return;
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
    }
    await this.restart();
  }

  async restart() {
    const state = /** @type {LessonState} */ (
      await api(
        `/api/lessons/${encodeURIComponent(this.game)}?lang=${language()}`,
        {
          method: "POST",
        },
      )
    );
    sessionStorage.setItem(storeKey(this.game), state.id);
    this.show(state, true);
  }

  /**
   * Send `path` ("move" with a body, or "next") and show the answer.
   * @param {string} path
   * @param {unknown} [body]
   */
  async send(path, body) {
    if (!this.state || this.busy) return;
    this.busy = true;
    document.body.dataset.busy = "1";
    try {
      const id = encodeURIComponent(this.state.id);
      const state = /** @type {LessonState} */ (
        await api(`/api/lessons/${id}/${path}?lang=${language()}`, {
          method: "POST",
          body,
        })
      );
      this.show(state, false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        sessionStorage.removeItem(storeKey(this.game));
      }
      toast(`${t("ui.learn.failed")}: ${errorMessage(err)}`, "error");
    } finally {
      this.busy = false;
      delete document.body.dataset.busy;
    }
  }

  /** @param {string} action */
  play(action) {
    this.picker.clear();
    return this.send("move", { action });
  }

  /**
   * Take a new state: the cards just seen are face up for the step that follows them.
   * @param {LessonState} state
   * @param {boolean} first the first state this page shows (a start or a reload)
   */
  show(state, first) {
    const before = this.state;
    this.state = state;
    // how many answers the page has shown (the tests wait on it, as on a table's version)
    this.answers += 1;
    document.body.dataset.answers = String(this.answers);
    const moved = first || before?.step.number !== state.step.number;
    if (moved) this.revealed = seenNow(state.events, state.seat);
    // the step that first shows the deal keeps its cards face up; going on turns them over
    if (!first && state.outcome?.kind === "read") this.revealed.clear();
    this.picker.setLegal(
      state.waiting ? state.moves.map((m) => m.action) : [],
      state.seat,
      state.game,
    );
    this.render();
    // the new step's words, or why the move was not played, in view (on a phone the panel is
    // under the table, and the move's button may have been far down)
    if (!first) {
      const note = moved
        ? this.panel.querySelector("h2")
        : this.panel.querySelector(".learn-answer");
      note?.scrollIntoView({ block: "nearest" });
    }
  }

  // --- drawing -----------------------------------------------------------------------------------

  /** @param {number} seat */
  name(seat) {
    const state = this.state;
    if (!state) return "";
    return seat === state.seat
      ? t("ui.learn.you")
      : (state.names[seat] ?? t("ui.seat.name", { seat }));
  }

  render() {
    const state = this.state;
    if (!state) return;
    const piles = {
      deck: Boolean(this.picker.pileAction("deck")),
      discard: Boolean(this.picker.pileAction("discard")),
    };
    const table = renderTable(state.view, {
      viewer: state.seat,
      names: (s) => this.name(s),
      revealed: this.revealed,
      targets: this.picker.nextTargets(),
      selection: this.picker.selection,
      piles,
      interactive: state.waiting,
      live: false,
    });
    // the learner's own seat reads "You", not "You (you)"
    const own = table.querySelector(".seat-me .seat-name");
    if (own) own.textContent = t("ui.learn.you");
    // the other seats' cards numbered too: the lesson names them ("Opponent's card 2")
    for (const card of table.querySelectorAll(
      ".seat:not(.seat-me) .slot > .card[data-addr]",
    )) {
      const pos =
        /** @type {HTMLElement} */ (card).dataset.addr?.split(".")[1] ?? "";
      card.after(
        el("span", { class: "pos-label", "aria-hidden": "true" }, pos),
      );
    }
    table.addEventListener("click", (ev) => this.onTableClick(ev));
    this.tableHost.replaceChildren(table);
    this.renderPanel(state);
  }

  /** @param {LessonState} state */
  renderPanel(state) {
    const step = state.step;
    const bar = el("progress", {
      class: "learn-progress",
      max: String(step.count),
      value: String(step.number),
      "aria-hidden": "true",
    });
    /** @type {(HTMLElement | null)[]} */
    const parts = [
      el(
        "div",
        { class: "learn-head" },
        el("h1", { class: "learn-title" }, state.heading),
        el(
          "span",
          { class: "learn-step", dataset: { ui: "progress" } },
          cap(step.progress),
        ),
      ),
      bar,
      el("h2", { class: "sr-only" }, cap(step.progress)),
      el(
        "p",
        { class: "learn-words", dataset: { ui: "step-words" } },
        saidNodes(step.words),
      ),
    ];
    if (this.revealed.size && !state.view.over) {
      parts.push(
        el(
          "p",
          { class: "learn-seen", dataset: { ui: "seen" } },
          t("ui.learn.seen"),
        ),
      );
    }
    const outcome = state.outcome;
    if (outcome && !outcome.accepted && outcome.kind !== "read") {
      parts.push(
        el(
          "div",
          {
            class: `learn-answer learn-${outcome.kind}`,
            role: "status",
            dataset: { ui: "answer", kind: outcome.kind },
          },
          saidNodes(outcome.text),
        ),
      );
    }
    if (state.result) parts.push(this.resultLine(state, state.result));
    if (state.done) parts.push(this.finalBlock(state));
    else if (step.reading) {
      parts.push(
        el(
          "div",
          { class: "learn-actions" },
          el(
            "button",
            {
              type: "button",
              class: "btn btn-primary learn-next",
              dataset: { ui: "next" },
              onclick: () => this.send("next"),
            },
            `${t("ui.learn.next")} →`,
          ),
        ),
      );
    } else if (state.waiting) parts.push(this.movesBlock(state));
    parts.push(this.happened(state));
    this.panel.replaceChildren(...parts.filter((p) => p !== null));
  }

  /**
   * The legal moves, in words; with a card chosen on the table, only the moves that go on from
   * it.
   * @param {LessonState} state
   */
  movesBlock(state) {
    const picker = this.picker;
    const chosen = picker.selection;
    const fits = new Set(picker.candidates().map((a) => a.text));
    // Cabo's claims of several equal cards: offered once asked for, as at the table (a card
    // clicked first replaces that card alone)
    const several = picker.hasSeveral();
    const claims = new Set(
      picker
        .targetActions()
        .filter((a) => a.verb === "replace" && a.targets.length > 1)
        .map((a) => a.text),
    );
    const moves = state.moves.filter(
      (m) =>
        (!chosen.length || fits.has(m.action)) &&
        (picker.several || !claims.has(m.action)),
    );
    const how =
      picker.several && !chosen.length
        ? t("ui.learn.several_how")
        : chosen.length
          ? t("ui.learn.chosen")
          : howToMove();
    return el(
      "div",
      { class: "learn-moves", dataset: { ui: "moves" } },
      el("h3", {}, t("ui.learn.your_move")),
      el(
        "p",
        { class: "muted learn-how" },
        how,
        chosen.length
          ? [
              " ",
              el(
                "button",
                {
                  type: "button",
                  class: "btn btn-small",
                  dataset: { ui: "clear" },
                  onclick: () => {
                    picker.clear();
                    this.render();
                  },
                },
                t("ui.learn.clear"),
              ),
            ]
          : null,
      ),
      el(
        "div",
        { class: "learn-move-list" },
        moves.map((m) =>
          el(
            "button",
            {
              type: "button",
              class: "btn learn-move",
              title: m.action,
              dataset: { action: m.action },
              onclick: () => this.play(m.action),
            },
            saidNodes(cap(m.words)),
          ),
        ),
      ),
      several
        ? el(
            "button",
            {
              type: "button",
              class: "btn btn-small btn-toggle learn-several",
              "aria-pressed": picker.several ? "true" : "false",
              dataset: { ui: "several" },
              onclick: () => {
                const on = !picker.several;
                picker.clear();
                picker.several = on;
                this.render();
              },
            },
            t("ui.learn.several"),
          )
        : null,
    );
  }

  /**
   * Who won, and each seat's points.
   * @param {LessonState} state
   * @param {string} result
   */
  resultLine(state, result) {
    const totals = state.view.totals ?? [];
    return el(
      "p",
      { class: "learn-result", dataset: { ui: "result" } },
      el("strong", {}, result),
      " ",
      totals
        .map((points, s) => `${s ? " · " : ""}${this.name(s)} ${points}`)
        .join(""),
    );
  }

  /**
   * The end: a real round against the beginner AI, or another lesson.
   * @param {LessonState} state
   */
  finalBlock(state) {
    /** @type {HTMLButtonElement} */
    const real = el(
      "button",
      {
        type: "button",
        class: "btn btn-primary learn-real",
        dataset: { ui: "real-round" },
        onclick: () => this.realRound(state, real),
      },
      t("ui.learn.real_round"),
    );
    return el(
      "div",
      { class: "learn-actions learn-final" },
      real,
      el("a", { class: "btn", href: "/learn" }, t("ui.learn.another")),
      el(
        "button",
        {
          type: "button",
          class: "btn",
          onclick: () => {
            sessionStorage.removeItem(storeKey(this.game));
            this.restart().catch((err) => toast(errorMessage(err), "error"));
          },
        },
        t("ui.learn.restart"),
      ),
    );
  }

  /** @param {LessonState} state */
  happened(state) {
    const said = state.events.filter((e) => e.said?.text);
    if (!said.length) return null;
    return el(
      "details",
      { class: "learn-happened", open: true, dataset: { ui: "happened" } },
      el("summary", {}, t("ui.learn.happened")),
      el(
        "ul",
        { class: "learn-log" },
        said.map((e) =>
          el("li", { class: `tone-${e.said.tone}` }, saidNodes(e.said.text)),
        ),
      ),
    );
  }

  /**
   * A normal room: the learner and the final step's AI, one round; then its table.
   * @param {LessonState} state
   * @param {HTMLButtonElement} button
   */
  async realRound(state, button) {
    button.disabled = true;
    button.textContent = t("ui.learn.opening");
    const level = state.final ?? "beginner";
    /** @type {CreateRoomBody} */
    const body = {
      game: state.game,
      players: state.players,
      seats: [...Array(state.players).keys()].map((s) =>
        s === state.seat ? { type: "human" } : { type: "ai", level },
      ),
      options: { target: null },
      public: false,
      name: getName(),
    };
    try {
      const res = /** @type {CreatedRoom} */ (
        await api("/api/rooms", { method: "POST", body })
      );
      if (res.token && res.seat !== null && res.seat !== undefined)
        saveSeat(res.room, res.seat, res.token);
      sessionStorage.removeItem(storeKey(this.game));
      location.assign(`/r/${encodeURIComponent(res.room)}`);
    } catch (err) {
      button.disabled = false;
      button.textContent = t("ui.learn.real_round");
      toast(`${t("ui.learn.no_room")}: ${errorMessage(err)}`, "error");
    }
  }

  // --- clicks on the table -------------------------------------------------------------------

  /** @param {MouseEvent} ev */
  onTableClick(ev) {
    if (!this.state?.waiting || this.busy) return;
    const clicked = /** @type {Element} */ (ev.target);
    const pileNode = /** @type {HTMLElement | null} */ (
      clicked.closest("[data-pile]")
    );
    if (pileNode) {
      const action = this.picker.pileAction(pileNode.dataset.pile ?? "");
      if (action) this.play(action.text);
      return;
    }
    const cardNode = /** @type {HTMLElement | null} */ (
      clicked.closest(".card[data-addr], .card[data-card]")
    );
    if (!cardNode) return;
    const target = cardNode.dataset.card ?? cardNode.dataset.addr ?? "";
    const result = this.picker.click(target, ev.shiftKey);
    if (result.play) this.play(result.play);
    else this.render();
  }
}

/**
 * The page for `path`: the list, a lesson, or null.
 * @param {string} path
 */
function route(path) {
  const root = byId("app");
  if (/^\/learn\/?$/.test(path)) return new LessonList(root);
  const m = /^\/learn\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  return m ? new LessonPage(root, m[1]) : null;
}

window.addEventListener("error", (ev) =>
  toast(t("ui.app.client_error", { problem: ev.message }), "error"),
);
window.addEventListener("unhandledrejection", (ev) =>
  toast(
    t("ui.app.client_error", { problem: ev.reason?.message ?? ev.reason }),
    "error",
  ),
);
const page = route(location.pathname);
if (page) page.start();
else
  byId("app").replaceChildren(
    el("p", {}, el("a", { href: "/learn" }, t("ui.learn.learn"))),
  );
