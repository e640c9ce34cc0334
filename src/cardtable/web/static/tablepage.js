// @ts-check
// The live table page, /r/{room}: joins the room over the WebSocket, keeps the last state and
// draws it, and turns clicks into actions. Its parts: the page around the table
// (tableshell.js), taking a seat and waiting for players (seats.js), the action bar
// (actionbar.js), the keyboard (keyboard.js), the ends of rounds and games (endscreen.js), the
// settings (settings.js), the cards seen a moment ago (reveals.js) and the timed windows'
// countdown (countdown.js).

import { resumeHere } from "./account.js";
import { actionSelector, Picker } from "./actions.js";
import { cancelCall, isConfirmedCall, renderBar } from "./actionbar.js";
import { animateEvents, eventPlaces, measure } from "./animate.js";
import { ChatPanel } from "./chat.js";
import { Countdown } from "./countdown.js";
import { maybeShowRound, renderEnd } from "./endscreen.js";
import { t } from "./i18n.js";
import { onKey, openHelp } from "./keyboard.js";
import {
  ApiError,
  api,
  errorMessage,
  forgetSeat,
  loadSeat,
  RoomConnection,
  saveSeat,
} from "./net.js";
import { MoveLog } from "./movelog.js";
import { tableTitle, TurnNotice } from "./notice.js";
import { getPref, revealSeconds, setPref } from "./prefs.js";
import { Reveals } from "./reveals.js";
import { showRules } from "./rulesmodal.js";
import { offerSeat, renderWaiting } from "./seats.js";
import { openSettings } from "./settings.js";
import { beep, stateCue } from "./sound.js";
import { levelName, matchFormat, renderTable, seatName } from "./table.js";
import { buildShell, showConnection, showProblem, showSound } from "./tableshell.js";
import { atEnd, el, forTheScreen, isModalOpen, toast } from "./ui.js";
import { saidNodes } from "./said.js";
import { isShedding } from "./variants.js";
import { statusLine } from "./words.js";

/** @typedef {import("./types/protocol").ErrorMessage} ErrorMessage */
/** @typedef {import("./types/protocol").HeldSeat} HeldSeat */
/** @typedef {import("./types/protocol").MessageId} MessageId */
/** @typedef {import("./types/protocol").RoomSummary} RoomSummary */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */
/** @typedef {import("./types/protocol").View} View */
/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */
/** @typedef {import("./tableshell.js").TableShell} TableShell */
/** @typedef {import("./actionbar.js").CallConfirm} CallConfirm */

/**
 * An action sent, kept until its answer: a `stale` refusal (the table moved on while it
 * travelled) sends it once more, silently, if it is still legal in the newest state.
 * @typedef {{id: MessageId, text: string, version: number, retry: boolean}} SentAction
 */

/** What a person reads when a move crossed a change of the table and cannot be sent again. */
export const staleText = () => t("ui.tablepage.stale");

/** How long the cards a move touched stay marked, and its caption stays bright (ms). */
const FRESH_MS = 1600;

/**
 * The last move of a seat, told in words by its panel (seat null: the middle of the table):
 * the words of its last lines (at most two), as the server phrased them.
 * @typedef {{seat: number | null, said: string[], seq: number}} Caption
 */

/** How long a stale move waits for the newest state before the page gives up on it. */
const STALE_WAIT_MS = 3000;

export class TablePage {
  /**
   * @param {HTMLElement} root
   * @param {string} room
   */
  constructor(root, room) {
    this.root = root;
    this.room = room;
    /** @type {HeldSeat | null} the seat this browser holds here */
    this.held = loadSeat(room);
    /** @type {RoomConnection | null} */
    this.conn = null;
    /** @type {StateMessage | null} the last state the server sent */
    this.state = null;
    this.picker = new Picker();
    // A card shown for a moment stays face up for the reveal time, whatever is on screen.
    this.reveals = new Reveals(() => this.render());
    /** the moves of the current game, as this seat may read them (the log and the captions) */
    this.log = new MoveLog();
    /** whether the next state answers a join (it brings the game's log) */
    this.joined = false;
    /** the move log's words as last drawn */
    this.logText = "";
    /** whether the clocks are asked to wait while this person reads (see updateHold) */
    this.holding = false;
    /** @type {number | null} the game the reveals belong to */
    this.gameNo = null;
    /** @type {MessageId | null} the id of the action sent and not answered yet */
    this.pendingId = null;
    /** @type {number | undefined} */
    this.pendingTimer = undefined;
    /** @type {SentAction | null} the last action sent */
    this.sent = null;
    /** @type {SentAction | null} a stale action waiting for the newest state to be retried */
    this.staleRetry = null;
    /** @type {number | undefined} */
    this.staleTimer = undefined;
    /** @type {CallConfirm | null} a call waiting for its confirmation (actionbar.js) */
    this.callConfirm = null;
    /** @type {number | null} number of round results already shown */
    this.shownRound = null;
    /** @type {number | null} the round whose results are shown above the table, until dismissed */
    this.roundPanel = null;
    this.endHidden = false;
    /** @type {number | null} the game whose end was brought into view */
    this.endShown = null;
    /** @type {number | null} */
    this.lastActor = null;
    /** @type {Map<number | null, Caption>} each seat's last move, in words */
    this.captions = new Map();
    /** @type {Set<number>} the events of the newest state (their captions and log lines glow) */
    this.freshSeqs = new Set();
    /** @type {Set<string>} the places the newest moves touched */
    this.touched = new Set();
    /** until when (performance.now()) the newest moves are marked */
    this.freshUntil = 0;
    /** @type {number | undefined} */
    this.freshTimer = undefined;
    /** @type {RoomSummary | null} */
    this.summary = null;
    /** @type {string | undefined} the room's game, from its summary */
    this.variant = undefined;
    /** @type {ChatPanel | null} the chat, at a table with people */
    this.chat = null;
    /** the tab's title and the notifications of the person's turn (notice.js) */
    this.notice = new TurnNotice(room, this.log);
    // Built by start(), before anything reads them:
    /** @type {TableShell} */
    this.ui;
    /** @type {Countdown} */
    this.countdown;
  }

  // --- setup ---------------------------------------------------------------------------------

  async start() {
    document.title = t("ui.tablepage.title", { room: this.room });
    this.ui = buildShell(this);
    this.countdown = new Countdown(this.ui.windowEl);
    window.cardtable = {
      state: () => this.state,
      clicksFor: (action) => this.clicksFor(action),
    };
    // A test hook: send an action with the version before the current one, as a move that
    // crossed a change of the table would arrive.
    Object.assign(window.cardtable, {
      /** @param {string} action */
      sendStale: (action) => this.play(action, { version: (this.state?.version ?? 1) - 1 }),
    });
    document.addEventListener("keydown", (ev) => onKey(this, ev));
    // A dialog (the rules, help, settings) opening or closing: the clocks wait while it is open.
    new MutationObserver(() => this.updateHold()).observe(document.body, { childList: true });
    let summary;
    try {
      summary = /** @type {RoomSummary} */ (
        await api(`/api/rooms/${encodeURIComponent(this.room)}`)
      );
    } catch (err) {
      showProblem(
        this.ui,
        err instanceof ApiError && err.status === 404
          ? t("ui.tablepage.no_room", { room: this.room })
          : errorMessage(err),
      );
      return;
    }
    this.summary = summary;
    this.applySummary(summary);
    if (summary.chat) this.chat = new ChatPanel(this.ui.chatHost, () => this.state?.seat ?? null);
    const watching = new URLSearchParams(location.search).has("watch");
    // a signed-in player who sat down here on another device: their seat (account.js)
    if (!this.held && !watching) this.held = await resumeHere(this.room);
    const free = summary.seats.some((s) => s.type === "human" && !s.taken);
    if (this.held || watching || !free) this.connect();
    else offerSeat(this);
  }

  /** @param {RoomSummary} summary */
  applySummary(summary) {
    this.ui.titleEl.textContent = t("ui.tablepage.heading", {
      game: summary.title ?? summary.game,
      room: this.room,
    });
    this.ui.formatEl.textContent = matchFormat(summary.options);
    this.variant = summary.game;
    this.notice.setGame(summary.game);
    document.title = tableTitle(this.state, this.log, {
      game: this.notice.game,
      room: this.room,
    });
  }

  connect() {
    this.conn?.close();
    const conn = new RoomConnection(this.room, this.held?.token ?? null);
    this.conn = conn;
    conn.on("state", (state) => this.onState(state));
    conn.on("error", (msg) => this.onError(msg));
    conn.on("status", (detail) => {
      // The state after each (re)connection answers its join.
      if (detail.status === "open") this.joined = true;
      showConnection(this.ui, detail, () => this.conn?.retryNow());
    });
    this.chat?.attach(conn);
    conn.connect();
  }

  // --- server messages -------------------------------------------------------------------------

  /** @param {ErrorMessage} msg */
  onError(msg) {
    if (msg.id !== undefined && msg.id === this.pendingId) this.clearPending();
    const sent = this.sent;
    if (msg.code === "stale" && sent && msg.id === sent.id) {
      // Never the server's words about versions: send the move again once (if it is still
      // legal when the newest state is here), or tell plainly that the table moved on.
      this.sent = null;
      if (sent.retry) this.showStale();
      else this.awaitRetry(sent);
      return;
    }
    // A running count of errors shown, for tests that wait for "an error or a new state".
    document.body.dataset.errors = String(Number(document.body.dataset.errors ?? 0) + 1);
    beep("error");
    const text = msg.message || msg.code;
    const item = toast(text, "error");
    item.dataset.code = msg.code ?? "";
    if (msg.code === "bad_token") {
      const forget = el(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          onclick: () => {
            forgetSeat(this.room);
            location.reload();
          },
        },
        t("ui.tablepage.forget"),
      );
      this.ui.banner.replaceChildren(
        el(
          "div",
          { class: "banner banner-error", role: "alert", dataset: { code: "bad_token" } },
          `${text} `,
          forget,
        ),
      );
    }
  }

  /**
   * A stale move: retry it once the page has a state newer than the one it was sent with.
   * @param {SentAction} sent
   */
  awaitRetry(sent) {
    clearTimeout(this.staleTimer);
    this.staleRetry = sent;
    // No newer state after a while (a lagging connection): give up on the move, plainly.
    this.staleTimer = window.setTimeout(() => {
      if (this.staleRetry !== sent) return;
      this.staleRetry = null;
      this.showStale();
    }, STALE_WAIT_MS);
    this.tryRetry();
  }

  /** Send the stale move again if the newest state is here and still allows it. */
  tryRetry() {
    const sent = this.staleRetry;
    const state = this.state;
    if (!sent || !state || state.version <= sent.version) return;
    this.staleRetry = null;
    clearTimeout(this.staleTimer);
    if (state.view?.legal.includes(sent.text) && this.pendingId === null) {
      this.play(sent.text, { retry: true });
    } else this.showStale();
  }

  /** The plain message for a move the table moved past. */
  showStale() {
    document.body.dataset.errors = String(Number(document.body.dataset.errors ?? 0) + 1);
    beep("error");
    toast(staleText(), "error").dataset.code = "stale";
  }

  /** @param {StateMessage} state */
  onState(state) {
    if (state.id !== undefined && state.id === this.pendingId) this.clearPending();
    // A call waiting for its confirmation is taken back when the table changes.
    if (this.callConfirm && this.callConfirm.version !== state.version) cancelCall(this, false);
    const prev = this.state;
    this.state = state;
    const view = state.view;
    document.body.dataset.version = String(state.version);
    document.body.dataset.status = state.status;
    document.body.dataset.phase = view?.phase ?? "";
    document.body.dataset.seat = state.seat === null ? "" : String(state.seat);
    if (state.seat !== null && this.held && this.held.seat !== state.seat) {
      saveSeat(this.room, state.seat, this.held.token);
    }
    const seat = state.seat;
    this.picker.setLegal(view?.legal ?? [], seat, view?.game);
    if (state.game_no !== this.gameNo) {
      this.gameNo = state.game_no;
      this.reveals.clear();
    }
    const events = state.events ?? [];
    this.log.take(state, { joined: this.joined });
    this.joined = false;
    this.reveals.note(events, seat);
    const actor = [...events]
      .reverse()
      .find((e) => "seat" in e && e.seat !== undefined && e.type !== "turn");
    if (actor && "seat" in actor) this.lastActor = actor.seat;
    this.noteMoves(state);
    this.showClock(state);
    this.showAway(state);
    const before = measure(this.ui.tableHost);
    this.render();
    animateEvents(state.events, this.ui.tableHost, before);
    stateCue(prev, state);
    this.notice.update(prev, state);
    maybeShowRound(this, prev, state);
    this.tryRetry();
  }

  /**
   * The moves of a new state in words: a caption by the seat that made each, the cards they
   * touched marked for a moment, and every line read out to screen readers. The words are the
   * log's (movelog.js), so a caption names every card shown to the table and no card the seat
   * saw only for a moment without memory aid (that one is face up on the table meanwhile).
   * @param {StateMessage} state
   */
  noteMoves(state) {
    const seqs = new Set((state.events ?? []).map((e) => e.seq));
    this.freshSeqs = seqs;
    if (!seqs.size || !state.view) return;
    /** @type {string[]} */
    const spoken = [];
    /** @type {Map<number | null, string[]>} */
    const bySeat = new Map();
    const touched = new Set();
    for (const raw of state.events ?? []) {
      if (raw.type === "round_start") this.captions.clear();
      for (const a of eventPlaces(raw)) touched.add(a);
    }
    for (const line of this.log.lines()) {
      if (!seqs.has(line.seq)) continue;
      spoken.push(line.text);
      bySeat.set(line.seat, [...(bySeat.get(line.seat) ?? []), line.said]);
      this.captions.set(line.seat, { seat: line.seat, said: [], seq: line.seq });
    }
    // The middle's words (a round begins, a reshuffle) give way to the next move of a seat.
    if (bySeat.size && !bySeat.has(null)) this.captions.delete(null);
    for (const [seat, lines] of bySeat) {
      const caption = this.captions.get(seat);
      if (caption) caption.said = lines.slice(-2);
    }
    this.touched = touched;
    this.freshUntil = performance.now() + FRESH_MS;
    clearTimeout(this.freshTimer);
    this.freshTimer = window.setTimeout(() => this.render(), FRESH_MS + 20);
    if (spoken.length) {
      this.ui.announcer.replaceChildren(...spoken.map((t) => el("p", {}, t)));
    }
  }

  /**
   * The countdown: a timed window, else the turn clock (whose time runs, and how much is left).
   * @param {StateMessage} state
   */
  showClock(state) {
    const clock = state.clock;
    if (state.window || !clock) {
      this.countdown.set(state.window);
      return;
    }
    const names = this.names();
    const label =
      state.seat !== null && clock.seats.includes(state.seat)
        ? t("ui.tablepage.your_time")
        : t("ui.table.time_for", { who: clock.seats.map(names).join(", ") });
    this.countdown.set({ phase: "turn", closes_in: clock.closes_in, paused: clock.paused }, label);
  }

  /**
   * A person whose time ran out is told so, with a button to take their seat back.
   * @param {StateMessage} state
   */
  showAway(state) {
    const mine = state.seat === null ? undefined : state.seats[state.seat];
    const shown = this.ui.banner.querySelector('[data-code="away"]');
    if (!mine?.away) {
      if (shown) this.ui.banner.replaceChildren();
      return;
    }
    const text = mine.stand_in
      ? t("ui.tablepage.stood_in", { level: levelName(mine.stand_in) })
      : t("ui.tablepage.timed_out");
    // kept as it is while its words stay the same, so a click on its button is never lost to a
    // redraw (the stand-in plays on meanwhile)
    if (shown instanceof HTMLElement && shown.dataset.text === text) return;
    const back = el(
      "button",
      {
        type: "button",
        class: "btn btn-small btn-primary",
        dataset: { ui: "back" },
        onclick: () => {
          try {
            this.conn?.rejoin();
          } catch (err) {
            toast(errorMessage(err), "error");
          }
        },
      },
      t("ui.tablepage.back"),
    );
    this.ui.banner.replaceChildren(
      el("div", { class: "banner", role: "alert", dataset: { code: "away", text } }, `${text} `, back),
    );
  }

  // --- drawing -------------------------------------------------------------------------------

  /** @returns {(seat: number) => string} seat → display name */
  names() {
    const seats = this.state?.seats ?? this.summary?.seats ?? [];
    return (i) => seatName(seats, i);
  }

  render() {
    const state = this.state;
    if (!state) return;
    const view = state.view;
    if (!view) {
      renderWaiting(this, state);
      return;
    }
    const seat = state.seat;
    const piles = {
      deck: Boolean(this.picker.pileAction("deck")),
      discard: Boolean(this.picker.pileAction("discard")),
    };
    const table = renderTable(view, {
      viewer: seat,
      seats: state.seats,
      names: this.names(),
      revealed: this.reveals.codes(),
      targets: this.picker.nextTargets(),
      selection: this.picker.selection,
      piles,
      interactive: seat !== null,
      live: true,
      lastActor: this.lastActor,
    });
    table.addEventListener("click", (ev) => this.onTableClick(ev));
    this.showMoves(table);
    this.ui.tableHost.replaceChildren(table);
    this.ui.statusEl.textContent = forTheScreen(statusLine(view, seat, this.names()));
    // A seat without memory aid is told so, and, while cards are face up for a moment, for
    // how long (the line is always there during play, so the table does not jump).
    const bare = this.hasAid() === false && !view.over && !isShedding(view.game);
    this.ui.hintEl.hidden = !bare;
    this.ui.hintEl.textContent = !bare
      ? ""
      : this.reveals.size
        ? forTheScreen(t("ui.tablepage.remember", { seconds: revealSeconds() }))
        : t("ui.tablepage.no_aid");
    renderBar(this);
    renderEnd(this);
    this.renderLog();
  }

  /**
   * Each seat's last move in words by its panel, and the cards the newest moves touched
   * marked; the marks and the brightness fade after a moment.
   * @param {HTMLElement} table
   */
  showMoves(table) {
    const fresh = performance.now() < this.freshUntil;
    for (const caption of this.captions.values()) {
      if (!caption.said.length) continue;
      const host =
        caption.seat === null
          ? table.querySelector(".area-center")
          : table.querySelector(`.seat[data-seat="${caption.seat}"]`);
      host?.append(
        el(
          "p",
          {
            class: `move-caption${fresh && this.freshSeqs.has(caption.seq) ? " fresh" : ""}`,
            dataset: { ui: "caption", seat: caption.seat === null ? "" : String(caption.seat) },
          },
          caption.said.flatMap((said, i) => [i ? " · " : "", ...saidNodes(said)]),
        ),
      );
    }
    if (!fresh) return;
    for (const addr of this.touched) {
      table.querySelector(`.card[data-addr="${addr}"]`)?.classList.add("touched");
    }
  }

  /**
   * The move log beside the table: every move of the game in names and words, newest at the
   * bottom (kept in view unless the reader scrolled up to read back).
   */
  renderLog() {
    const list = this.ui.logList;
    const atBottom = list.childElementCount === 0 || atEnd(list);
    const items = this.log
      .lines()
      .filter((line) => !line.quiet)
      .map((line) =>
        el(
          "li",
          {
            class: `tone-${line.tone}${this.freshSeqs.has(line.seq) ? " fresh" : ""}${line.round ? " log-round" : ""}`,
            dataset: { seq: String(line.seq) },
          },
          saidNodes(line.said),
        ),
      );
    const text = items.map((item) => item.textContent).join("\n");
    if (text === this.logText && list.childElementCount === items.length) return;
    this.logText = text;
    list.replaceChildren(...items);
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  /**
   * Ask the clocks to wait while this person has something to read in front of the table (a
   * round's results, the rules, help, settings), and to go on when it is gone. The server
   * holds them only where no other person sits at the table; a spectator never asks.
   */
  updateHold() {
    const state = this.state;
    const on =
      state !== null &&
      state.seat !== null &&
      Boolean(state.view) &&
      !state.view?.over &&
      (isModalOpen() || this.roundPanel !== null);
    if (on === this.holding) return;
    this.holding = on;
    this.conn?.hold(on);
  }

  // --- input -----------------------------------------------------------------------------------

  /** @param {MouseEvent} ev a click on the table */
  onTableClick(ev) {
    const clicked = /** @type {Element} */ (ev.target);
    const pileNode = /** @type {HTMLElement | null} */ (clicked.closest("[data-pile]"));
    if (pileNode) {
      const action = this.picker.pileAction(pileNode.dataset.pile ?? "");
      if (action) {
        this.picker.clear();
        this.play(action.text);
      }
      return;
    }
    const cardNode = /** @type {HTMLElement | null} */ (
      clicked.closest(".card[data-addr], .card[data-card]")
    );
    if (!cardNode) return;
    const target = cardNode.dataset.card ?? cardNode.dataset.addr ?? "";
    // A card shown for a moment turns back over when clicked (and still counts as a click on
    // it when it is a target of an action).
    if (cardNode.classList.contains("revealed")) {
      this.reveals.hide(cardNode.dataset.addr ?? null);
      if (!this.picker.nextTargets().has(target)) return;
    }
    this.clickTarget(target, ev.shiftKey);
  }

  /**
   * @param {string} target an address or a card code
   * @param {boolean} [several] a Shift-click: the start of a claim of several cards
   */
  clickTarget(target, several = false) {
    if (this.pendingId !== null) return;
    const res = this.picker.click(target, several);
    if (res.play) this.play(res.play);
    else if (res.pending) this.render();
  }

  clearSelection() {
    this.picker.clear();
    this.render();
  }

  /**
   * Send an action with the version of the last state (`version`: another one, for a test;
   * `retry`: the second sending of a stale action).
   * @param {string} text
   * @param {{version?: number, retry?: boolean}} [how]
   */
  play(text, { version, retry = false } = {}) {
    const state = this.state;
    if (!state || this.pendingId !== null) return;
    this.picker.clear();
    cancelCall(this, false);
    const sentVersion = version ?? state.version;
    try {
      this.pendingId = this.connection().send({
        type: "act",
        token: this.held?.token,
        action: text,
        version: sentVersion,
      });
      this.sent = { id: this.pendingId, text, version: sentVersion, retry };
    } catch (err) {
      toast(errorMessage(err), "error");
      return;
    }
    document.body.dataset.busy = "1";
    // If no answer comes (a dropped connection), unlock the table after a while.
    this.pendingTimer = setTimeout(() => this.clearPending(), 5000);
    this.render();
  }

  /** @param {"start" | "rematch"} type */
  sendSimple(type) {
    try {
      this.connection().send({ type, token: this.held?.token });
    } catch (err) {
      toast(errorMessage(err), "error");
    }
  }

  /** The connection (there is one once a state came); throws if there is none. */
  connection() {
    if (!this.conn) throw new Error(t("ui.tablepage.not_connected"));
    return this.conn;
  }

  clearPending() {
    clearTimeout(this.pendingTimer);
    this.pendingId = null;
    document.body.dataset.busy = "";
    if (this.state) renderBar(this);
  }

  /**
   * The selectors to click, in order, that play `action` now (for the browser tests).
   * @param {string} action
   */
  clicksFor(action) {
    const picker = this.picker;
    // A call asks for its confirmation: the button, then "Yes".
    if (isConfirmedCall(action, this.state?.view?.game) && picker.clicksFor(action)) {
      const yes = '[data-ui="call-yes"]';
      return this.callConfirm?.text === action ? [yes] : [actionSelector(action), yes];
    }
    const clicks = picker.clicksFor(action);
    if (!clicks) return null;
    return picker.selection.length || picker.several ? ['[data-ui="clear"]', ...clicks] : clicks;
  }

  /** @param {"sound"} name a switch */
  toggle(name) {
    setPref(name, !getPref(name));
    showSound(this.ui.soundBtn);
    if (name === "sound" && getPref("sound")) beep("card");
    this.render();
  }

  /** This seat's memory aid, as the room was created (null: a spectator or no seat yet). */
  hasAid() {
    const seat = this.state?.seat;
    if (seat === null || seat === undefined) return null;
    return Boolean(this.state?.seats?.[seat]?.memory_aid);
  }

  openSettings() {
    openSettings(this);
  }

  openRules() {
    const variant = this.state?.view?.game ?? this.variant;
    if (variant) showRules(variant);
  }

  openHelp() {
    openHelp();
  }
}
