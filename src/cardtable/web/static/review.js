// @ts-check
// The review of a finished game, /r/{room}/review/{n}?seat=N&lang=xx: each decision of one seat
// weighed by the server's search (the same review as `cardtable review`), listed beside the
// game replayed with every hand open. A click on a decision shows the table as the seat faced
// it, the cards it knew marked; labels are coloured (inaccuracy, mistake, blunder), memory slips
// said in words, the seat's summary above. The words come from the server in the language
// asked for; the page fills in their placeholders. While the server computes the review, the
// page shows how far it has come.

import { LANGUAGES, language, t } from "./i18n.js";
import { api, errorMessage, loadSeat } from "./net.js";
import { fill, ReplayPage } from "./replay.js";
import { saidNodes } from "./said.js";
import { seatName } from "./table.js";
import { byId, el, toast } from "./ui.js";
import { variantInfo } from "./variants.js";

/** @typedef {import("./types/protocol").RoomSummary} RoomSummary */
/** @typedef {import("./replay.js").Place} Place */

/**
 * One of the search's best moves at a decision.
 * @typedef {{
 *   action: string, words: string, points: number | null, win: number | null,
 *   loss: number | null, error: number | null, played: boolean, best: boolean,
 * }} ValuedMove
 */
/**
 * One decision of the reviewed seat (`cardtable review --json`'s fields, then words).
 * @typedef {{
 *   index: number, seat: number, played: string, best: string, loss: number,
 *   error: number | null, label: "inaccuracy" | "mistake" | "blunder" | null,
 *   words: string, played_words: string, best_words: string, label_words: string | null,
 *   slip: string | null, unclear: boolean, moves: ValuedMove[],
 * }} Decision
 */
/**
 * The review API's answer: ready, or its progress (202).
 * @typedef {{
 *   status: "ready", game: string, game_no: number, seat: number, lang: string,
 *   languages: string[], memory_aid: boolean, samples: number, summary: string,
 *   figures: Record<string, number>, decisions: Decision[], text: Record<string, string>,
 * }} ReadyReview
 * @typedef {{
 *   status: "running" | "waiting", done: number, total: number, waiting: number,
 *   lang: string, text: Record<string, string>,
 * }} ReviewProgress
 */

/**
 * How a decision is judged, for its colour: its label, "unclear" (it lost enough points for a
 * label, but not clearly more than the search's noise), or "fine".
 * @param {Decision} d
 */
const verdict = (d) => d.label ?? (d.unclear ? "unclear" : "fine");

/** What each language is called in its own words, for the language picker. */
const LANGUAGE_NAMES = LANGUAGES;
/** Milliseconds between two questions while the review is computed. */
const POLL_MS = 1000;

export class ReviewPage {
  /**
   * @param {HTMLElement} root
   * @param {string} room
   * @param {number} gameNo
   */
  constructor(root, room, gameNo) {
    this.root = root;
    this.room = room;
    this.gameNo = gameNo;
    const query = new URLSearchParams(location.search);
    const held = loadSeat(room);
    const asked = Number(query.get("seat"));
    /** The seat reviewed: asked for, else the one this browser holds, else 0. */
    this.seat =
      query.has("seat") && Number.isInteger(asked) ? asked : (held?.seat ?? 0);
    /** The language asked for, else the page's (the settings' choice, else the browser's). */
    this.lang = query.get("lang") ?? language();
    /** The page's words from the server. @type {Record<string, string>} */
    this.text = {};
    /** @type {ReadyReview | null} */
    this.review = null;
    /** The index (game step) of the decision shown, or -1. */
    this.current = -1;
    /** Only the labelled decisions (and slips) are listed. */
    this.onlyMarked = false;
    /** Each request for a review gets a number; an answer to an older one is dropped. */
    this.asking = 0;
    /** @type {number | undefined} */
    this.poll = undefined;
    // Set by start():
    /** @type {RoomSummary} */
    this.summary;
    /** @type {(seat: number) => string} */
    this.names;
    /** @type {ReplayPage} */
    this.replay;
    this.title = el("h1", { class: "room-title" });
    this.status = el("div", {
      class: "review-status",
      role: "status",
      "aria-live": "polite",
      dataset: { ui: "review-status" },
    });
    this.banner = el("div", {
      class: "review-banner",
      dataset: { ui: "decision-banner" },
    });
    this.list = el("ol", {
      class: "review-list",
      dataset: { ui: "decisions" },
    });
    this.listHead = el("h2", { class: "review-list-head" });
    this.filter = el("div", { class: "review-filter", role: "group" });
    /** @type {HTMLSelectElement} */
    this.seatPick = el("select", {
      class: "review-select",
      dataset: { ui: "review-seat" },
      onchange: (/** @type {Event} */ ev) =>
        this.setSeat(
          Number(/** @type {HTMLSelectElement} */ (ev.target).value),
        ),
    });
    /** @type {HTMLSelectElement} */
    this.langPick = el("select", {
      class: "review-select",
      dataset: { ui: "review-lang" },
      onchange: (/** @type {Event} */ ev) =>
        this.setLang(/** @type {HTMLSelectElement} */ (ev.target).value),
    });
    this.links = el("div", { class: "review-links" });
  }

  /** A word of the page in the language shown (its key without `review.web.`). */
  /** @param {string} key @param {Record<string, string | number>} [params] */
  t(key, params) {
    return fill(this.text[key] ?? key, params);
  }

  async start() {
    document.title = t("ui.review.page_title", {
      room: this.room,
      n: this.gameNo,
    });
    byId("page-tools").replaceChildren();
    this.root.replaceChildren(el("p", {}, t("ui.review.loading")));
    try {
      this.summary = /** @type {RoomSummary} */ (
        await api(`/api/rooms/${encodeURIComponent(this.room)}`)
      );
    } catch (err) {
      this.fail(errorMessage(err));
      return;
    }
    const seats = this.summary.seats;
    this.names = (i) => seatName(seats, i);
    if (this.seat < 0 || this.seat >= this.summary.players) this.seat = 0;
    const replayHost = el("div", { class: "review-replay" });
    this.replay = new ReplayPage(replayHost, this.room, this.gameNo, {
      embedded: true,
      lang: this.lang,
      seat: this.seat,
      onShow: (place) => this.shown(place),
      knewText: (who) => this.t("knew", { who }),
      say: (key, params) => {
        const template = this.text[`replay.${key}`];
        return template === undefined ? undefined : fill(template, params);
      },
    });
    this.seatPick.replaceChildren(
      ...seats.map((_, s) =>
        el(
          "option",
          { value: String(s), selected: s === this.seat },
          this.names(s),
        ),
      ),
    );
    this.root.replaceChildren(
      el("div", { class: "room-bar" }, this.title, this.links),
      el(
        "div",
        { class: "review-picks" },
        el(
          "label",
          { class: "review-pick" },
          el("span", { class: "review-pick-name" }),
          this.seatPick,
        ),
        el(
          "label",
          { class: "review-pick" },
          el("span", { class: "review-pick-name" }),
          this.langPick,
        ),
      ),
      this.status,
      el(
        "div",
        { class: "review-layout" },
        el("div", { class: "review-main" }, this.banner, replayHost),
        el(
          "section",
          { class: "panel review-side", "aria-labelledby": "review-list-head" },
          this.listHead,
          this.filter,
          this.list,
        ),
      ),
    );
    this.listHead.id = "review-list-head";
    if (!(await this.ask())) return; // the page's words first: the replay is drawn in them
    await this.replay.start();
    if (this.review) this.drawList(this.review); // numbered by the replay's positions now
  }

  /** @param {string} why */
  fail(why) {
    this.root.replaceChildren(
      el(
        "p",
        { class: "error-text", role: "alert" },
        `${this.text.failed ? this.t("failed", { why }) : t("ui.review.failed", { why })} `,
        el(
          "a",
          { href: `/r/${this.room}/history` },
          this.text.history ? this.t("history") : t("ui.review.history"),
        ),
      ),
    );
    toast(why, "error");
  }

  /**
   * Ask the server for the review of the seat shown; again after a while until it is ready.
   * Whether the server answered (else the page says why).
   * @returns {Promise<boolean>}
   */
  async ask() {
    clearTimeout(this.poll);
    const asking = ++this.asking;
    const lang = this.lang ? `&lang=${encodeURIComponent(this.lang)}` : "";
    const path = `/api/rooms/${encodeURIComponent(this.room)}/games/${this.gameNo}/review`;
    /** @type {ReadyReview | ReviewProgress} */
    let answer;
    try {
      answer = /** @type {ReadyReview | ReviewProgress} */ (
        await api(`${path}?seat=${this.seat}${lang}`)
      );
    } catch (err) {
      if (asking === this.asking) this.fail(errorMessage(err));
      return false;
    }
    if (asking !== this.asking) return true; // another seat was chosen meanwhile
    const first = !this.text.knew;
    this.text = answer.text;
    this.lang = answer.lang;
    this.words();
    if (first) this.replay.redraw(); // the legend of the open hands, in these words
    if (answer.status === "ready") {
      this.show(answer);
      return true;
    }
    this.review = null;
    document.body.dataset.review = "running";
    const bar = el("progress", {
      max: String(Math.max(1, answer.total)),
      value: String(answer.done),
      class: "review-progress",
    });
    this.status.replaceChildren(
      el(
        "p",
        {},
        answer.status === "waiting"
          ? this.t("waiting", { n: answer.waiting })
          : this.t("running", { done: answer.done, total: answer.total }),
      ),
      bar,
    );
    this.list.replaceChildren();
    this.poll = setTimeout(() => this.ask(), POLL_MS);
    return true;
  }

  /**
   * A decision's verdict in words (inaccuracy, mistake, blunder, not clear, fine).
   * @param {Decision} d
   */
  verdictWords(d) {
    return d.label_words ?? this.t(d.unclear ? "unclear" : "fine");
  }

  /**
   * A number as the language shown writes it, with `digits` decimals ("3.0", "3,0").
   * @param {number} x
   * @param {number} digits
   */
  num(x, digits) {
    return x.toLocaleString(this.lang ?? "en", {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  }

  /** The page's own words in the language shown: title, picks, links, list head, filter. */
  words() {
    const who = this.names(this.seat);
    const title = variantInfo(this.summary.game)?.title ?? this.summary.game;
    this.title.textContent = `${this.t("title", { n: this.gameNo, who })} · ${title}`;
    document.documentElement.lang = this.lang ?? "en";
    const [seatName, langName] =
      this.root.querySelectorAll(".review-pick-name");
    if (seatName) seatName.textContent = this.t("whose");
    if (langName) langName.textContent = this.t("language");
    const langs = Object.keys(LANGUAGE_NAMES);
    this.langPick.replaceChildren(
      ...langs.map((l) =>
        el(
          "option",
          { value: l, selected: l === this.lang },
          LANGUAGE_NAMES[l],
        ),
      ),
    );
    this.links.replaceChildren(
      el(
        "a",
        {
          class: "btn btn-small",
          href: `/r/${this.room}/replay/${this.gameNo}`,
        },
        this.t("replay"),
      ),
      el(
        "a",
        { class: "btn btn-small", href: `/r/${this.room}/history` },
        this.t("history"),
      ),
    );
    this.listHead.textContent = this.t("decisions");
    /**
     * @param {boolean} marked
     * @param {string} label
     */
    const option = (marked, label) =>
      el(
        "button",
        {
          type: "button",
          class: "btn btn-small review-filter-option",
          "aria-pressed": String(this.onlyMarked === marked),
          dataset: { ui: marked ? "filter-marked" : "filter-all" },
          onclick: () => {
            this.onlyMarked = marked;
            this.words();
            if (this.review) this.drawList(this.review);
          },
        },
        label,
      );
    this.filter.replaceChildren(
      option(false, this.t("filter.all")),
      option(true, this.t("filter.marked")),
    );
  }

  /**
   * A review that is ready: the summary line, the seat's memory aid, how moves are weighed,
   * and the decisions.
   * @param {ReadyReview} review
   */
  show(review) {
    this.review = review;
    document.body.dataset.review = "ready";
    const who = this.names(review.seat);
    this.status.replaceChildren(
      el(
        "p",
        { class: "review-summary", dataset: { ui: "review-summary" } },
        review.summary,
      ),
      el(
        "p",
        { class: "muted review-explain" },
        review.memory_aid ? this.t("aid", { who }) : this.t("no_aid", { who }),
        " ",
        this.t("explain", { samples: review.samples, who }),
      ),
    );
    this.drawList(review);
    this.shown(this.replay.places[this.replay.step] ?? { kind: "start" });
  }

  /**
   * The list of decisions (all, or the marked ones).
   * @param {ReadyReview} review
   */
  drawList(review) {
    const who = this.names(review.seat);
    const shown = review.decisions.filter(
      (d) => !this.onlyMarked || d.label || d.slip,
    );
    if (!review.decisions.length) {
      this.list.replaceChildren(
        el("li", { class: "muted" }, this.t("none", { who })),
      );
      return;
    }
    this.list.replaceChildren(...shown.map((d) => this.item(d)));
  }

  /**
   * Where decision `d` was in the game: "Move 4", with its round in a match ("Round 2 · Move 4").
   * @param {Decision} d
   */
  where(d) {
    const place = this.replay.places?.find(
      (p) => p.kind === "move" && p.index === d.index,
    );
    if (!place || place.kind !== "move")
      return this.t("move", { n: d.index + 1 });
    const rounds = new Set(
      this.replay.places.flatMap((p) => (p.kind === "move" ? [p.round] : [])),
    );
    const move = this.t("move", { n: place.move });
    return rounds.size > 1
      ? `${this.t("round", { n: place.round })} · ${move}`
      : move;
  }

  /**
   * One decision of the list: where, the move played, its label and the points it lost, the
   * better move, a memory slip; opened, the search's best moves.
   * @param {Decision} d
   */
  item(d) {
    const open = d.index === this.current;
    const label = verdict(d);
    const loss =
      d.loss >= 0.05 ? this.t("loss", { loss: this.num(d.loss, 1) }) : "";
    const body = el(
      "button",
      {
        type: "button",
        class: "review-item-button",
        "aria-expanded": String(open),
        title: this.t("show"),
        onclick: () => this.choose(d),
      },
      el(
        "span",
        { class: "review-item-head" },
        el("span", { class: "review-where" }, this.where(d)),
        el(
          "span",
          { class: `review-label label-${label}`, dataset: { ui: "label" } },
          this.verdictWords(d),
        ),
        loss ? el("span", { class: "review-loss" }, loss) : null,
      ),
      el("span", { class: "review-played" }, saidNodes(d.played_words)),
      d.label && d.best !== d.played
        ? el(
            "span",
            { class: "review-better" },
            saidNodes(this.t("best", { move: d.best_words })),
          )
        : null,
      d.slip
        ? el(
            "span",
            {
              class: "review-slip",
              dataset: { ui: "slip" },
              title: this.t("slip"),
            },
            saidNodes(d.slip),
          )
        : null,
    );
    return el(
      "li",
      {
        class: `review-item item-${label}${d.slip ? " item-slip" : ""}${open ? " current" : ""}`,
        dataset: { index: String(d.index), label },
        "aria-current": open ? "step" : undefined,
      },
      body,
      open ? this.movesTable(d) : null,
    );
  }

  /**
   * The search's best moves at decision `d`: its words, the points it gives away against the best
   * (what the labels judge; its expected points in the tooltip), its share of round wins.
   * @param {Decision} d
   */
  movesTable(d) {
    return el(
      "table",
      { class: "review-moves", dataset: { ui: "moves" } },
      el("caption", {}, this.t("moves")),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["head.move", "head.loss", "head.win"].map((k) =>
            el("th", { scope: "col" }, this.t(k)),
          ),
        ),
      ),
      el(
        "tbody",
        {},
        d.moves.map((m) =>
          el(
            "tr",
            {
              class:
                `${m.played ? "move-played" : ""} ${m.best ? "move-best" : ""}`.trim(),
            },
            el("td", {}, saidNodes(m.words)),
            el(
              "td",
              {
                class: "num",
                title:
                  m.points === null
                    ? undefined
                    : `${this.t("head.points")}: ${this.num(m.points, 1)}`,
              },
              m.loss === null
                ? "—"
                : m.loss < 0.05
                  ? "0"
                  : `−${this.num(m.loss, 1)}`,
            ),
            el(
              "td",
              { class: "num" },
              m.win === null ? "—" : `${this.num(m.win * 100, 0)} %`,
            ),
          ),
        ),
      ),
    );
  }

  /**
   * Show decision `d`: the table as the seat faced it, and the decision opened in the list.
   * @param {Decision} d
   */
  choose(d) {
    this.current = d.index;
    this.replay.showBefore(d.index);
    if (this.review) this.drawList(this.review);
    this.list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  }

  /**
   * The replay drew `place`: the decision that was to be made there, if any, is the one shown.
   * @param {Place} place
   */
  shown(place) {
    const next =
      place.kind === "start" ? 0 : place.kind === "end" ? -1 : place.index + 1;
    const d = this.review?.decisions.find((x) => x.index === next) ?? null;
    const who = this.names(this.seat);
    if (!d) {
      this.banner.replaceChildren();
      this.banner.hidden = true;
    } else {
      const where = this.replay.places.find(
        (p) => p.kind === "move" && p.index === d.index,
      );
      const n = where && where.kind === "move" ? where.move : d.index + 1;
      this.banner.hidden = false;
      const better = d.label && d.best !== d.played;
      this.banner.replaceChildren(
        el(
          "strong",
          { class: "review-banner-head" },
          this.t("before", { n, who }),
        ),
        el(
          "span",
          { class: "review-banner-move" },
          el(
            "span",
            { class: `review-label label-${verdict(d)}` },
            this.verdictWords(d),
          ),
          " ",
          saidNodes(d.played_words),
          d.loss >= 0.05
            ? ` (${this.t("loss", { loss: this.num(d.loss, 1) })})`
            : "",
        ),
        better
          ? el(
              "span",
              { class: "review-better" },
              saidNodes(this.t("best", { move: d.best_words })),
            )
          : "",
        d.slip
          ? el(
              "span",
              { class: "review-slip", title: this.t("slip") },
              saidNodes(d.slip),
            )
          : "",
      );
    }
    const current = d ? d.index : -1;
    if (current !== this.current) {
      this.current = current;
      if (this.review) this.drawList(this.review);
    }
  }

  /**
   * Review another seat: its knowledge marked at the table, its decisions asked for.
   * @param {number} seat
   */
  setSeat(seat) {
    if (seat === this.seat) return;
    this.seat = seat;
    this.current = -1;
    this.review = null;
    document.body.dataset.review = "asking";
    this.remember();
    this.replay.setKnownSeat(seat);
    this.list.replaceChildren();
    this.status.replaceChildren();
    this.ask();
  }

  /**
   * The page in another language (the replay's words too): loaded again.
   * @param {string} lang
   */
  setLang(lang) {
    this.lang = lang;
    this.remember();
    location.reload();
  }

  /** Keep the seat and language in the address, for a reload or a link. */
  remember() {
    const query = new URLSearchParams({ seat: String(this.seat) });
    if (this.lang) query.set("lang", this.lang);
    history.replaceState(null, "", `${location.pathname}?${query}`);
  }
}
