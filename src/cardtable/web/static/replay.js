// @ts-check
// The move-by-move replay of one game, /r/{room}/replay/{n}, drawn with the table renderer: as a
// spectator saw it, as the seat this browser holds saw it (its own peeks), or with every hand
// open (the game is over) and the cards one chosen seat knew at each step marked; with the end
// of every round, a speed and captions in words (each event's, as the server phrased it for the
// replay's viewer). The review page (review.js) embeds the open-hands replay beside its list of
// decisions.

import { language, t } from "./i18n.js";
import { ApiError, api, errorMessage, loadSeat } from "./net.js";
import { getPref, REPLAY_SPEEDS, setPref } from "./prefs.js";
import { showRules } from "./rulesmodal.js";
import { saidNodes } from "./said.js";
import { cardElement, renderResults, renderTable, seatName } from "./table.js";
import { byId, el, isModalOpen, toast } from "./ui.js";
import { isSheddingView, variantInfo } from "./variants.js";

/** @typedef {import("./types/protocol").Replay} Replay */
/** @typedef {import("./types/protocol").ReplayStep} ReplayStep */
/** @typedef {import("./types/protocol").HeldSeat} HeldSeat */
/** @typedef {import("./types/protocol").ToldEvent} ToldEvent */
/** @typedef {import("./types/protocol").ToldView} View */

const PAGE = 100;
/** Steps either side of the one shown that the viewer fetches in the background. */
const AHEAD = 50;
/** Most steps the viewer keeps; beyond, the pages farthest from the step shown are dropped. */
const KEEP = 1500;
/** Milliseconds a step that has to be fetched waits, so that dragging the slider fetches once. */
const SETTLE = 120;
/** Milliseconds a move stays on screen while the replay plays at 1×. */
const MOVE_MS = 700;
/** How many times longer than a move the end of a round stays while the replay plays. */
const END_HOLD = 4;
/**
 * The replay's own words (English), by key; `{name}` placeholders. A page that embeds the
 * replay may give them in another language (ReplayOptions.say).
 */
export const REPLAY_WORDS = {
  first: "First",
  back: "Back",
  play: "Play",
  pause: "Pause",
  next: "Next",
  next_round: "Next round",
  last: "Last",
  speed: "Speed",
  start: "Start",
  deal_of: "the deal of round {round} — {moves} moves in this round",
  move_at: "Round {round} · move {move} of {moves}",
  deal_at: "Round {round} · the deal",
  round_over: "Round {round} over",
  game_over: "Game over",
  step: "Step {step} of {total}",
  won_by: "won by {who}",
  totals: "Totals: {totals}",
  next_deal: "Next: the deal of round {round}.",
};
/** @typedef {keyof typeof REPLAY_WORDS} ReplayWord */

/**
 * `template` with its `{placeholders}` filled from `params` (those it lacks are left).
 * @param {string} template
 * @param {Record<string, string | number>} [params]
 */
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (all, name) =>
    name in params ? String(params[name]) : all,
  );
}

/** Events a move's caption leaves to the round's end (or that say nothing of the move). */
const NOT_THE_MOVE = new Set(["round_end", "game_over", "round_start", "turn"]);

/**
 * One step of the replay API: a move, the view after it, the running number of its first
 * event, and for a move that ended a round of a match the table at that round's end (its
 * `view` shows the next deal already).
 * @typedef {ReplayStep & {first_event?: number, end_view?: View}} Step
 */
/** How many moves a round took. @typedef {{round: number, moves: number}} RoundMoves */
/**
 * A page of the replay API (docs/protocol.md), with what the server adds to the protocol
 * type: whose view it is (`viewer`, null: a spectator's) and the moves of each round.
 * @typedef {Omit<Replay, "steps"> & {steps: Step[], rounds?: RoundMoves[], viewer?: number | null}} ReplayData
 */
/**
 * A position of the slider: the deal, a move (the `index`-th step of the API, move `move` of
 * the `moves` of round `round`), the end of a round (after its last move, step `index`), or
 * (open hands) the deal of the next round `round` (the `view` of step `index`, the move that
 * ended the round before).
 * @typedef {{kind: "start"}
 *   | {kind: "move", index: number, round: number, move: number, moves: number}
 *   | {kind: "end", index: number, round: number, last: boolean}
 *   | {kind: "deal", index: number, round: number}} Place
 */
/**
 * The steps of one view loaded so far: by index, the pages (first index → number of steps),
 * the pages being fetched, and the view before the first step.
 * @typedef {{
 *   steps: Map<number, Step>,
 *   pages: Map<number, number>,
 *   fetching: Map<number, Promise<ReplayData>>,
 *   initial: View | null,
 * }} Loaded
 */
/** Whose view the replay shows (open: every hand, the game being over). @typedef {"seat" | "spectator" | "open"} Mode */
/**
 * A view of the open-hands replay: every card's face, and for each seat the places (`"S.P"`)
 * of the cards it knew at that moment.
 * @typedef {View & {known?: string[][]}} OpenView
 */
/**
 * How a ReplayPage is made: `embedded` draws it inside another page (the review) with every
 * hand open and no title, history link or whose-view switch; `lang` the language of the
 * events' words (open hands); `seat` whose knowledge is marked at first; `onShow` is told each
 * position drawn; `knewText` says what the marks of the open hands mean (in the page's
 * language), given the marked seat's name; `say` gives the replay's own words in that
 * language (undefined: the English of REPLAY_WORDS).
 * @typedef {{
 *   embedded?: boolean,
 *   lang?: string,
 *   seat?: number,
 *   onShow?: (place: Place) => void,
 *   knewText?: (name: string) => string,
 *   say?: (key: ReplayWord, params: Record<string, string | number>) => string | undefined,
 * }} ReplayOptions
 */

/**
 * The events of a view of the replay, each with its words.
 * @param {View} view
 * @returns {ToldEvent[]}
 */
const told = (view) => view.events ?? [];

/**
 * The slider's positions for a game whose rounds took `rounds` moves: the deal, then each
 * round's moves and its end (and with `deals`, the next round's deal after each end but the
 * last). Moves past the rounds listed (none from this server) make a round of their own.
 * @param {RoundMoves[]} rounds
 * @param {number} total the game's number of moves
 * @param {boolean} [deals]
 * @returns {Place[]}
 */
export function replayPlaces(rounds, total, deals = false) {
  /** @type {Place[]} */
  const places = [{ kind: "start" }];
  const list = [...rounds];
  const counted = list.reduce((n, r) => n + r.moves, 0);
  if (counted < total)
    list.push({ round: list.length + 1, moves: total - counted });
  let index = 0;
  list.forEach((r, i) => {
    for (let move = 1; move <= r.moves && index < total; move++) {
      places.push({
        kind: "move",
        index: index++,
        round: r.round,
        move,
        moves: r.moves,
      });
    }
    if (index > 0) {
      const last = i === list.length - 1;
      places.push({ kind: "end", index: index - 1, round: r.round, last });
      if (deals && !last)
        places.push({
          kind: "deal",
          index: index - 1,
          round: list[i + 1].round,
        });
    }
  });
  return places;
}

/**
 * The speed a replay plays at: the one kept, if it is one of REPLAY_SPEEDS, else 1.
 * @returns {number}
 */
function keptSpeed() {
  const speed = Number(getPref("replaySpeed"));
  return REPLAY_SPEEDS.includes(speed) ? speed : 1;
}

/** "0.5×", "2×". @param {number} speed */
const speedText = (speed) => `${speed}×`;

/**
 * Mark a face-up card of the open hands as known to a seat (the table's "known" mark, drawn as
 * an eye here) or not (faded), and say so to screen readers.
 * @param {HTMLElement} card
 * @param {boolean} known
 * @param {string} name the seat's name
 */
function mark(card, known, name) {
  card.classList.toggle("known", known);
  card.classList.toggle("unknown", !known);
  card.dataset.known = known ? "1" : "0";
  const badge = card.querySelector(".known-mark");
  if (known && !badge)
    card.append(el("span", { class: "known-mark", "aria-hidden": "true" }));
  if (!known && badge) badge.remove();
  const label = card.getAttribute("aria-label") ?? "";
  card.setAttribute(
    "aria-label",
    known
      ? t("ui.replay.known_to", { label, name })
      : t("ui.replay.not_known_to", { label, name }),
  );
}

export class ReplayPage {
  /**
   * @param {HTMLElement} root
   * @param {string} room
   * @param {number} gameNo
   * @param {ReplayOptions} [options]
   */
  constructor(root, room, gameNo, options = {}) {
    this.root = root;
    this.room = room;
    this.gameNo = gameNo;
    /** Drawn inside another page (the review), every hand open. */
    this.embedded = Boolean(options.embedded);
    /** The language of the open-hands replay's words (undefined: the browser's). */
    this.lang = options.lang;
    /** The seat whose knowledge the open hands mark. */
    this.knownSeat = options.seat ?? 0;
    /** Told each position drawn. */
    this.onShow = options.onShow;
    /** The replay's words in the page's language, where it gives them. */
    this.say = options.say;
    /** What the marks of the open hands mean, for a seat's name. */
    this.knewText =
      options.knewText ??
      ((/** @type {string} */ name) => t("ui.replay.knew", { name }));
    /** The position asked for: 0 (the deal) to `total`. */
    this.step = 0;
    /** The position drawn now (-1: none yet). */
    this.shown = -1;
    /** The last position (the end of the last round). */
    this.total = 0;
    /** @type {Place[]} */
    this.places = [{ kind: "start" }];
    /** Whether the replay plays on by itself. */
    this.playing = false;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.settle = undefined;
    /** Moves a second at 1× times this. */
    this.speed = keptSpeed();
    /** The seat this browser holds in the room, if it may replay that seat's view. */
    this.held = /** @type {HeldSeat | null} */ (loadSeat(room));
    /** @type {Mode} */
    this.mode = this.embedded ? "open" : "spectator";
    /** What is loaded of each view. @type {Record<Mode, Loaded>} */
    this.loaded = {
      seat: {
        steps: new Map(),
        pages: new Map(),
        fetching: new Map(),
        initial: null,
      },
      spectator: {
        steps: new Map(),
        pages: new Map(),
        fetching: new Map(),
        initial: null,
      },
      open: {
        steps: new Map(),
        pages: new Map(),
        fetching: new Map(),
        initial: null,
      },
    };
    // Set by start() once the first page is loaded, before anything reads them:
    /** @type {ReplayData} */
    this.data;
    /** @type {(seat: number) => string} */
    this.names;
    /** @type {HTMLInputElement} */
    this.slider;
    /** @type {HTMLButtonElement} */
    this.playBtn;
    /** @type {HTMLElement} */
    this.caption;
    /** @type {HTMLDivElement} */
    this.tableHost;
    /** @type {HTMLDivElement} */
    this.resultsHost;
    /** @type {HTMLOListElement} */
    this.logList;
    /** @type {HTMLElement | null} */
    this.toggle = null;
    /** The "cards known to" choice of the open hands (not when embedded). */
    this.seatPick = /** @type {HTMLElement | null} */ (null);
    /** What the marks of the open hands mean. @type {HTMLElement} */
    this.legend = el("p", {
      class: "open-legend muted",
      dataset: { ui: "open-legend" },
    });
  }

  /**
   * One of the replay's own words, in the page's language.
   * @param {ReplayWord} key
   * @param {Record<string, string | number>} [params]
   */
  w(key, params = {}) {
    return this.say?.(key, params) ?? t(`ui.replay.${key}`, params);
  }

  /** What is loaded of the view shown. */
  get cur() {
    return this.loaded[this.mode];
  }

  /** The seat whose view is shown (null: a spectator's); with open hands, the marked seat's. */
  get viewer() {
    if (this.mode === "open") return this.knownSeat;
    return this.mode === "seat" && this.held ? this.held.seat : null;
  }

  async start() {
    if (!this.embedded)
      document.title = t("ui.replay.page_title", {
        room: this.room,
        n: this.gameNo,
      });
    this.root.replaceChildren(el("p", {}, t("ui.replay.loading")));
    try {
      this.data = await this.firstPage();
    } catch (err) {
      this.root.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          t("ui.replay.failed", { problem: errorMessage(err) }),
          " ",
          el("a", { href: `/r/${this.room}/history` }, t("ui.replay.history")),
        ),
      );
      toast(errorMessage(err), "error");
      return;
    }
    const d = this.data;
    this.names = (i) => seatName(d.seats, i);
    this.setPlaces();
    this.build();
    this.go(0);
  }

  /** The slider's positions for the view shown (open hands: with the deal of every round). */
  setPlaces() {
    const d = this.data;
    this.places = replayPlaces(d.rounds ?? [], d.total, this.mode === "open");
    this.total = this.places.length - 1;
    if (this.slider) this.slider.max = String(this.total);
  }

  /**
   * The first page: of the seat's view when this browser holds a person's seat of the room
   * (the server checks its token), else, or if that is refused, of the spectator's.
   * @returns {Promise<ReplayData>}
   */
  async firstPage() {
    if (this.mode === "open") return this.fetchPage(0);
    if (this.held) {
      this.mode = "seat";
      try {
        return await this.fetchPage(0);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 403) throw err;
        this.held = null; // not this game's seat: the spectator's view only
        this.mode = "spectator";
      }
    }
    return this.fetchPage(0);
  }

  /** Draw the page around the table: title, view toggle, controls, caption, hosts. */
  build() {
    const d = this.data;
    if (!this.embedded)
      byId("page-tools").replaceChildren(
        el(
          "button",
          { type: "button", class: "btn", onclick: () => showRules(d.game) },
          t("ui.replay.rules"),
        ),
      );
    this.slider = el("input", {
      type: "range",
      min: 0,
      max: this.total,
      value: 0,
      "aria-label": t("ui.replay.position"),
      class: "replay-slider",
      dataset: { ui: "slider" },
      oninput: () => this.go(Number(this.slider.value)),
    });
    /**
     * @param {string} icon
     * @param {string} text
     * @param {string} ui
     * @param {() => void} fn
     * @param {string} aria
     * @param {string} [keys] the keyboard shortcut, for the tooltip
     */
    const btn = (icon, text, ui, fn, aria, keys) =>
      el(
        "button",
        {
          type: "button",
          class: "btn replay-btn",
          dataset: { ui },
          "aria-label": aria,
          title: keys ? `${aria} (${keys})` : aria,
          onclick: fn,
        },
        el("span", { class: "replay-icon", "aria-hidden": "true" }, icon),
        el("span", { class: "replay-btn-text", "aria-hidden": "true" }, text),
      );
    this.playBtn = btn(
      "▶",
      this.w("play"),
      "play",
      () => this.togglePlay(),
      t("ui.replay.play_label"),
      t("ui.replay.key.space"),
    );
    const speed = el(
      "select",
      {
        class: "replay-speed",
        dataset: { ui: "speed" },
        "aria-label": t("ui.replay.speed_label"),
        title: t("ui.replay.speed_label"),
        onchange: (/** @type {Event} */ ev) =>
          this.setSpeed(
            Number(/** @type {HTMLSelectElement} */ (ev.target).value),
          ),
      },
      REPLAY_SPEEDS.map((s) =>
        el(
          "option",
          { value: String(s), selected: s === this.speed },
          speedText(s),
        ),
      ),
    );
    this.caption = el("div", {
      class: "replay-caption",
      role: "status",
      "aria-live": "polite",
      dataset: { ui: "caption" },
    });
    this.resultsHost = el("div", { class: "end-host replay-end-host" });
    this.tableHost = el("div", { class: "table-host" });
    this.logList = el("ol", { class: "log-list" });
    const title = variantInfo(d.game)?.title ?? d.game;
    this.root.replaceChildren(
      this.embedded
        ? ""
        : el(
            "div",
            { class: "room-bar" },
            el(
              "h1",
              { class: "room-title" },
              t("ui.replay.title", {
                n: d.game_no,
                game: title,
                room: this.room,
              }),
            ),
            el(
              "a",
              { class: "btn btn-small", href: `/r/${this.room}/history` },
              t("ui.replay.history"),
            ),
          ),
      this.embedded ? "" : this.viewToggle(),
      el(
        "div",
        {
          class: "replay-controls",
          role: "toolbar",
          "aria-label": t("ui.replay.controls"),
        },
        el(
          "div",
          { class: "replay-buttons" },
          btn(
            "⇤",
            this.w("first"),
            "first",
            () => this.go(0),
            t("ui.replay.first_step"),
            t("ui.replay.key.home"),
          ),
          btn(
            "‹",
            this.w("back"),
            "prev",
            () => this.go(this.step - 1),
            t("ui.replay.previous_step"),
            "←",
          ),
          this.playBtn,
          btn(
            "›",
            this.w("next"),
            "next",
            () => this.go(this.step + 1),
            t("ui.replay.next_step"),
            "→",
          ),
          btn(
            "»",
            this.w("next_round"),
            "next-round",
            () => this.nextRound(),
            t("ui.replay.next_round_label"),
            "N",
          ),
          btn(
            "⇥",
            this.w("last"),
            "last",
            () => this.go(this.total),
            t("ui.replay.last_step"),
            t("ui.replay.key.end"),
          ),
        ),
        el(
          "div",
          { class: "replay-track" },
          this.slider,
          el(
            "label",
            { class: "replay-speed-label" },
            el("span", {}, this.w("speed")),
            speed,
          ),
        ),
      ),
      this.caption,
      this.resultsHost,
      this.legend,
      this.tableHost,
      this.embedded
        ? ""
        : el(
            "details",
            { class: "log" },
            el("summary", {}, t("ui.replay.recent_events")),
            this.logList,
          ),
    );
    this.legend.hidden = this.mode !== "open";
    document.addEventListener("keydown", (ev) => this.key(ev));
  }

  /**
   * The switch between the views: "Spectator", "My view" (when this browser holds a seat of the
   * game) and "Open hands" (every card, and the cards a chosen seat knew).
   */
  viewToggle() {
    const held = this.held;
    /**
     * @param {Mode} mode
     * @param {string} label
     */
    const option = (mode, label) =>
      el(
        "button",
        {
          type: "button",
          class: "btn btn-small replay-view-option",
          dataset: { ui: `view-${mode}` },
          "aria-pressed": String(this.mode === mode),
          onclick: () => this.switchView(mode),
        },
        label,
      );
    const seats = [...Array(this.data.players).keys()];
    this.seatPick = el(
      "label",
      { class: "replay-known-pick" },
      el("span", {}, t("ui.replay.cards_known_to")),
      el(
        "select",
        {
          class: "replay-speed",
          dataset: { ui: "known-seat" },
          onchange: (/** @type {Event} */ ev) =>
            this.setKnownSeat(
              Number(/** @type {HTMLSelectElement} */ (ev.target).value),
            ),
        },
        seats.map((s) =>
          el(
            "option",
            { value: String(s), selected: s === this.knownSeat },
            this.names(s),
          ),
        ),
      ),
    );
    this.seatPick.hidden = this.mode !== "open";
    this.toggle = el(
      "div",
      {
        class: "replay-view",
        role: "group",
        "aria-label": t("ui.replay.whose_view"),
      },
      el("span", { class: "replay-view-label" }, t("ui.replay.show")),
      option("spectator", t("ui.replay.spectator")),
      held
        ? option(
            "seat",
            t("ui.replay.my_view", { name: this.names(held.seat) }),
          )
        : null,
      option("open", t("ui.replay.open_hands")),
      this.seatPick,
    );
    return this.toggle;
  }

  /** Draw the position shown again (its words may have changed), if it is loaded. */
  redraw() {
    if (this.shown === this.step && this.ready(this.step)) this.render();
  }

  /**
   * Mark the cards `seat` knew (open hands), at the position shown.
   * @param {number} seat
   */
  setKnownSeat(seat) {
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.data.players)
      return;
    this.knownSeat = seat;
    const pick = this.seatPick?.querySelector("select");
    if (pick) pick.value = String(seat);
    if (this.mode === "open") this.redraw();
  }

  /**
   * Show the replay from another view: a spectator's, or this browser's seat's.
   * @param {Mode} mode
   */
  async switchView(mode) {
    if (mode === this.mode || (mode === "seat" && !this.held)) return;
    const was = this.mode;
    // the same moment in the other view (open hands have a position more per round: its deal)
    const at = this.places[this.step];
    this.mode = mode;
    document.body.dataset.replayView = mode;
    for (const b of this.toggle?.querySelectorAll("button") ?? []) {
      b.setAttribute("aria-pressed", String(b.dataset.ui === `view-${mode}`));
    }
    if (this.seatPick) this.seatPick.hidden = mode !== "open";
    this.legend.hidden = mode !== "open";
    if ((was === "open") !== (mode === "open")) {
      this.setPlaces();
      this.step = Math.max(0, this.placeOf(at));
    }
    if (!this.cur.initial) {
      this.busy(true);
      try {
        await this.fetchPage(0);
      } catch (err) {
        toast(
          t("ui.replay.view_failed", { problem: errorMessage(err) }),
          "error",
        );
        this.busy(false);
        if (this.mode === mode) this.switchView(was);
        return;
      }
      if (this.mode !== mode) return; // switched back meanwhile
    }
    this.shown = -1;
    this.go(this.step);
  }

  /**
   * The page of steps from index `start` of the view shown (one request at a time per page);
   * its steps are kept.
   * @param {number} start
   * @returns {Promise<ReplayData>}
   */
  fetchPage(start) {
    const mode = this.mode;
    const loaded = this.loaded[mode];
    let pending = loaded.fetching.get(start);
    if (!pending) {
      const path = `/api/rooms/${encodeURIComponent(this.room)}/games/${this.gameNo}`;
      const held = this.held;
      const query = `?start=${start}&count=${PAGE}`;
      const lang = `&lang=${encodeURIComponent(this.lang ?? language())}`;
      const request =
        mode === "open"
          ? api(`${path}/open${query}${lang}`)
          : mode === "seat" && held
            ? api(`${path}${query}&seat=${held.seat}${lang}`, {
                headers: { "X-Seat-Token": held.token },
              })
            : api(path + query + lang);
      pending = /** @type {Promise<ReplayData>} */ (request)
        .then((page) => {
          if (page.initial) loaded.initial = page.initial;
          this.keep(loaded, page);
          return page;
        })
        .finally(() => loaded.fetching.delete(start));
      loaded.fetching.set(start, pending);
    }
    return pending;
  }

  /** The index of the API step the position asked for shows (-1: the deal). */
  index() {
    const place = this.places[this.step];
    return place && place.kind !== "start" ? place.index : -1;
  }

  /**
   * @param {Loaded} loaded
   * @param {ReplayData} page
   */
  keep(loaded, page) {
    page.steps.forEach((s, i) => loaded.steps.set(page.start + i, s));
    if (page.steps.length) loaded.pages.set(page.start, page.steps.length);
    // drop the pages farthest from the step shown while too many steps are kept
    const at = this.index();
    while (loaded.steps.size > KEEP && loaded.pages.size > 1) {
      let far = -1;
      let farthest = -1;
      for (const [first, n] of loaded.pages) {
        const away = Math.max(first - at, at - (first + n), 0);
        if (away > farthest) [far, farthest] = [first, away];
      }
      for (let i = far; i < far + (loaded.pages.get(far) ?? 0); i++)
        loaded.steps.delete(i);
      loaded.pages.delete(far);
    }
  }

  /**
   * Load step index `index` of the view shown: its page, from a multiple of PAGE, and the
   * pages after it while the server sent fewer steps than asked.
   * @param {number} index
   */
  async load(index) {
    const loaded = this.cur;
    let start = index - (index % PAGE);
    while (!loaded.steps.has(index) && start <= index) {
      const have = loaded.pages.get(start);
      if (have !== undefined && loaded.steps.has(start)) {
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
    const at = this.index();
    const last = this.data.total - 1;
    for (const index of [at + AHEAD, at - AHEAD]) {
      const i = Math.max(0, Math.min(last, index));
      if (!this.cur.steps.has(i)) this.load(i).catch(() => {});
    }
  }

  /**
   * Whether position `step` can be drawn now (its step and the view before the first).
   * @param {number} step
   */
  ready(step) {
    const place = this.places[step];
    if (!this.cur.initial) return false;
    return place.kind === "start" || this.cur.steps.has(place.index);
  }

  /**
   * Show position `step` (0: the deal), at once if it is loaded, else once it is.
   * @param {number} step
   */
  go(step) {
    this.step = Math.max(0, Math.min(this.total, step));
    this.slider.value = String(this.step);
    clearTimeout(this.settle);
    clearTimeout(this.timer);
    if (this.ready(this.step)) {
      this.render();
      return;
    }
    const want = this.step;
    const mode = this.mode;
    this.caption.replaceChildren(
      el(
        "span",
        { class: "replay-where" },
        this.w("step", { step: want, total: this.total }),
      ),
      el("span", { class: "replay-words" }, "loading…"),
    );
    this.busy(true); // the table still shows the step before: dimmed until the new one comes
    this.settle = setTimeout(() => {
      const index = this.index();
      (index < 0 ? this.fetchPage(0) : this.load(index))
        .then(() => {
          if (this.step === want && this.mode === mode && this.ready(want))
            this.render();
        })
        .catch((err) => {
          if (this.step !== want) return;
          this.busy(false);
          const why = errorMessage(err);
          this.caption.replaceChildren(
            el(
              "span",
              { class: "replay-where" },
              this.w("step", { step: want, total: this.total }),
            ),
            el("span", { class: "replay-words" }, `could not load it (${why})`),
          );
          toast(why, "error");
          this.stop();
        });
    }, SETTLE);
  }

  /**
   * The position in this view that shows what `place` (of any view) shows: the same place, or
   * for a deal that this view has not, the end of the round before it (-1: none).
   * @param {Place | undefined} place
   */
  placeOf(place) {
    if (!place || place.kind === "start") return 0;
    const same = this.places.findIndex(
      (p) => p.kind === place.kind && "index" in p && p.index === place.index,
    );
    if (same >= 0) return same;
    return this.places.findIndex(
      (p) => p.kind === "end" && p.index === place.index,
    );
  }

  /**
   * Show the table as it was when the move of step index `index` was to be chosen: after the
   * move before it (or the deal of the round it opened), before the move itself.
   * @param {number} index
   */
  showBefore(index) {
    if (index <= 0) {
      this.go(0);
      return;
    }
    const deal = this.places.findIndex(
      (p) => p.kind === "deal" && p.index === index - 1,
    );
    const move = this.places.findIndex(
      (p) => p.kind === "move" && p.index === index - 1,
    );
    this.go(deal >= 0 ? deal : Math.max(0, move));
  }

  /** Go to the end of the round shown (its results), or from there to the next round's end. */
  nextRound() {
    const next = this.places.findIndex(
      (p, i) => i > this.step && p.kind === "end",
    );
    this.go(next < 0 ? this.total : next);
  }

  /**
   * Mark the table as waiting for a step (dimmed, aria-busy), or not.
   * @param {boolean} on
   */
  busy(on) {
    for (const host of [this.tableHost, this.resultsHost]) {
      host.classList.toggle("replay-loading", on);
      host.setAttribute("aria-busy", String(on));
    }
  }

  /**
   * The words of one step's events (as the server phrased them for the viewer), its round's
   * end and the next deal left out.
   * @param {Step} step
   * @param {View} view the view drawn for it
   * @returns {string[]}
   */
  moveWords(step, view) {
    const first = step.first_event ?? 0;
    return told(view)
      .filter((e) => e.seq >= first && !NOT_THE_MOVE.has(e.type))
      .map((e) => e.said.text)
      .filter((t) => t !== "");
  }

  /**
   * The words for the end of a round (under its heading "Round 2 over"): who won it and the
   * match's totals, or who won the game.
   * @param {View} view
   * @param {number} round
   * @param {boolean} last
   */
  endWords(view, round, last) {
    /** @param {number[]} winners */
    const won = (winners) =>
      this.w("won_by", { who: winners.map(this.names).join(", ") });
    if (last && view.result) return [won(view.result.winners)];
    const result = view.round_results.find((r) => r.round === round);
    const lines = [won(result?.winners ?? [])];
    const totals = result?.totals ?? view.totals;
    if (view.target !== null && totals.length) {
      const all = totals.map((t, s) => `${this.names(s)} ${t}`).join(", ");
      lines.push(this.w("totals", { totals: all }));
    }
    return lines;
  }

  /** Draw the position asked for (loaded), then fetch around it. */
  render() {
    const d = this.data;
    this.busy(false);
    const place = this.places[this.step];
    const step =
      place.kind === "start" ? undefined : this.cur.steps.get(place.index);
    const initial = /** @type {View} */ (this.cur.initial);
    // a move that ended a round shows the table at that round's end (its view: the next deal)
    const view = step
      ? place.kind === "deal"
        ? step.view
        : (step.end_view ?? step.view)
      : initial;
    this.shown = this.step;
    document.body.dataset.step = String(this.step);
    document.body.dataset.replayView = this.mode;
    document.body.dataset.replayPlace = place.kind;
    /** @type {string} */
    let where;
    /** @type {string[]} */
    let words;
    if (place.kind === "start") {
      const first = this.places.find((p) => p.kind === "move");
      const moves = first && first.kind === "move" ? first.moves : 0;
      where = this.w("start");
      words = [this.w("deal_of", { round: view.round, moves })];
    } else if (place.kind === "move" && step) {
      where = this.w("move_at", {
        round: place.round,
        move: place.move,
        moves: place.moves,
      });
      words = this.moveWords(step, view);
      if (!words.length) words = [`${this.names(step.seat)}: ${step.action}`];
    } else if (place.kind === "deal") {
      const next = this.places.find(
        (p) => p.kind === "move" && p.round === place.round,
      );
      const moves = next && next.kind === "move" ? next.moves : 0;
      where = this.w("deal_at", { round: place.round });
      words = [this.w("deal_of", { round: place.round, moves })];
    } else {
      const end = /** @type {{round: number, last: boolean}} */ (place);
      where = end.last
        ? this.w("game_over")
        : this.w("round_over", { round: end.round });
      words = this.endWords(view, end.round, end.last);
    }
    this.caption.replaceChildren(
      el("span", { class: "replay-where" }, where),
      el(
        "span",
        { class: "replay-words" },
        words.map((w) => el("span", { class: "replay-line" }, saidNodes(w))),
      ),
      el(
        "span",
        { class: "replay-count" },
        this.w("step", { step: this.step, total: this.total }),
      ),
    );
    this.tableHost.replaceChildren(
      renderTable(view, {
        viewer: this.viewer,
        seats: d.seats,
        names: this.names,
        interactive: false,
        lastActor: step && place.kind === "move" ? step.seat : null,
      }),
    );
    this.tableHost.classList.toggle("open-hands", this.mode === "open");
    if (this.mode === "open") this.openHands(/** @type {OpenView} */ (view));
    this.resultsHost.replaceChildren(
      place.kind === "end"
        ? el(
            "section",
            {
              class: "end-panel replay-round-end",
              dataset: { ui: "round-end", round: String(place.round) },
              "aria-label": place.last
                ? t("ui.replay.game_over_label")
                : t("ui.replay.round_over_label", { round: place.round }),
            },
            el(
              "h2",
              {},
              place.last
                ? this.w("game_over")
                : this.w("round_over", { round: place.round }),
            ),
            renderResults(view, this.names),
            place.last
              ? null
              : el(
                  "p",
                  { class: "muted replay-next-deal" },
                  this.w("next_deal", { round: place.round + 1 }),
                ),
          )
        : "",
    );
    const lines = told(view).filter((e) => e.type !== "turn" && e.said.text);
    this.logList.replaceChildren(
      ...lines
        .slice(-10)
        .reverse()
        .map((e) =>
          el("li", { class: `tone-${e.said.tone}` }, saidNodes(e.said)),
        ),
    );
    if (this.step >= this.total) this.stop();
    this.prefetch();
    this.schedule();
    this.onShow?.(place);
  }

  /**
   * Open hands: every hand's faces drawn (the table draws a Qute hand face up for its own seat
   * only) and each card marked as one the chosen seat knew at this moment (the table's "known"
   * mark, an eye) or did not (faded); the drawn card too, known to its drawer.
   * @param {OpenView} view
   */
  openHands(view) {
    const seat = this.knownSeat;
    const name = this.names(seat);
    const known = new Set(view.known?.[seat] ?? []);
    const host = this.tableHost;
    if (isSheddingView(view)) {
      for (let s = 0; s < view.players; s++) {
        if (s === seat) continue;
        const hand = host.querySelector(`.seat[data-seat="${s}"] .hand`);
        const cards = (view.hands[s] ?? []).flatMap((slot, i) =>
          slot?.card
            ? [
                cardElement({
                  code: slot.card,
                  faceUp: true,
                  addr: `${s}.${i}`,
                  size: "sm",
                  label: `${this.names(s)}, card ${i + 1}`,
                }),
              ]
            : [],
        );
        hand?.replaceWith(
          el(
            "div",
            {
              class: "hand hand-open",
              role: "group",
              "aria-label": `${this.names(s)}'s cards`,
            },
            cards,
          ),
        );
      }
    }
    // the marked seat sits where "you" sit: named, not "(you)", unless this browser holds it
    if (this.held?.seat !== seat) {
      const me = host.querySelector(".seat-me .seat-name");
      if (me) me.textContent = name;
    }
    for (const card of host.querySelectorAll(
      ".hand .card[data-addr]:not(.empty)",
    )) {
      const on = known.has(
        /** @type {HTMLElement} */ (card).dataset.addr ?? "",
      );
      mark(/** @type {HTMLElement} */ (card), on, name);
    }
    if (
      !isSheddingView(view) &&
      view.drawer !== null &&
      view.drawer !== undefined
    ) {
      const drawn = host.querySelector(".drawn .card");
      if (drawn)
        mark(/** @type {HTMLElement} */ (drawn), view.drawer === seat, name);
    }
    this.legend.replaceChildren(
      el("span", { class: "legend-mark", "aria-hidden": "true" }),
      " ",
      this.knewText(name),
    );
  }

  /** While playing, show the next position after a while (longer at the end of a round). */
  schedule() {
    clearTimeout(this.timer);
    if (!this.playing || this.shown !== this.step) return;
    const hold = this.places[this.step].kind === "end" ? END_HOLD : 1;
    this.timer = setTimeout(
      () => {
        if (this.step >= this.total) this.stop();
        else this.go(this.step + 1);
      },
      (MOVE_MS * hold) / this.speed,
    );
  }

  /**
   * Play at `speed` times the normal pace, and remember it.
   * @param {number} speed
   */
  setSpeed(speed) {
    if (!REPLAY_SPEEDS.includes(speed)) return;
    this.speed = speed;
    setPref("replaySpeed", speed);
    this.schedule();
  }

  togglePlay() {
    if (this.playing) {
      this.stop();
      return;
    }
    this.playing = true;
    this.playBtn.dataset.playing = "1";
    this.playBtn.setAttribute("aria-label", t("ui.replay.pause_label"));
    this.playBtn.title = `${t("ui.replay.pause_label")} (${t("ui.replay.key.space")})`;
    this.playBtn.replaceChildren(
      el("span", { class: "replay-icon", "aria-hidden": "true" }, "❚❚"),
      el(
        "span",
        { class: "replay-btn-text", "aria-hidden": "true" },
        this.w("pause"),
      ),
    );
    if (this.step >= this.total) this.go(0);
    else this.schedule();
  }

  stop() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    this.playing = false;
    delete this.playBtn.dataset.playing;
    this.playBtn.setAttribute("aria-label", t("ui.replay.play_label"));
    this.playBtn.title = `${t("ui.replay.play_label")} (${t("ui.replay.key.space")})`;
    this.playBtn.replaceChildren(
      el("span", { class: "replay-icon", "aria-hidden": "true" }, "▶"),
      el(
        "span",
        { class: "replay-btn-text", "aria-hidden": "true" },
        this.w("play"),
      ),
    );
  }

  /**
   * The replay's keys: space plays or pauses, ← and → step, Home and End go to the ends, N to
   * the next round's end. Keys typed into a field, on a focused button (space), with a
   * modifier or under a dialog are left alone.
   * @param {KeyboardEvent} ev
   */
  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || isModalOpen()) return;
    const target = ev.target instanceof Element ? ev.target : null;
    const tag = target?.tagName ?? "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (
      ev.key === " " &&
      (tag === "BUTTON" || tag === "A" || tag === "SUMMARY")
    )
      return;
    /** @type {Record<string, () => void>} */
    const keys = {
      " ": () => this.togglePlay(),
      ArrowLeft: () => this.go(this.step - 1),
      ArrowRight: () => this.go(this.step + 1),
      Home: () => this.go(0),
      End: () => this.go(this.total),
      n: () => this.nextRound(),
      N: () => this.nextRound(),
    };
    const fn = keys[ev.key];
    if (!fn) return;
    ev.preventDefault();
    fn();
  }
}
