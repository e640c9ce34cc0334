// The live table page, /r/{room}: joins the room over the WebSocket, draws each state, turns
// clicks and keys into actions, and shows results, errors and the connection.

import { Picker } from "./actions.js";
import { animateEvents, measure } from "./animate.js";
import { cardShort } from "./cards.js";
import { api, forgetSeat, loadSeat, RoomConnection, saveSeat } from "./net.js";
import { getName, getPref, REVEAL_SECONDS, revealSeconds, setName, setPref } from "./prefs.js";
import { showRules } from "./rulesmodal.js";
import { beep } from "./sound.js";
import {
  aidBadge,
  describeEvent,
  matchFormat,
  renderResults,
  renderTable,
  seatName,
  statusLine,
} from "./table.js";
import { closeModal, copyText, el, isModalOpen, modal, toast } from "./ui.js";
import { allVariants, callWord, isShedding, variantInfo } from "./variants.js";

const ADDR = /^\d+\.\d+$/;

// Event fields holding cards that lie face up on the discard pile once the event is over: the
// move log may keep showing them (a seat without memory aid is sent them only at the moment).
const PUBLIC_CARDS = {
  discard: ["card"],
  replace: ["out"],
  snap: ["card"],
  snap_open: ["card"],
  round_start: ["discard"],
};

/** Addresses ("seat.position") an event names in `at`, `from` or `to`. */
function addrsOf(ev) {
  return [ev.at, ev.from, ev.to].flat().filter((a) => typeof a === "string" && ADDR.test(a));
}

// The call words of every game, as the server lists them ("cabo, gabo, knock, qute").
const callWords = () => [...new Set(allVariants().map((v) => v.call).filter(Boolean))].join(", ");

const SHORTCUTS = [
  ["D", "draw from the deck (Qute: draw from the blind)"],
  ["F", "draw from the discard pile, or throw the drawn card away"],
  ["0 – 9", "your card at that position (Qute: the n-th card from the left, 0 = tenth)"],
  ["K", () => `call the end: ${callWords()}`],
  ["P", "pass"],
  ["X", "exchange (after a look)"],
  ["C", "continue (Qute)"],
  ["Enter", "confirm the selected action"],
  ["Esc", "clear the selection, turn shown cards back over, close a dialog"],
  ["S", "sound on / off"],
  ["R", "the rules"],
  ["?", "this help"],
];

// Labels of word actions in the action bar (the game's call word: its label from the server).
function actionLabel(text, game) {
  const info = variantInfo(game);
  if (info?.call && text === info.call) return info.call_label ?? info.call;
  const labels = {
    pass: "Pass",
    continue: "Continue",
    exchange: "Exchange",
    draw: "Draw",
    discard: "Discard",
    "draw deck": "Draw from deck",
    "draw discard": "Take discard",
    "eights all": "Eights: all",
    "eights next": "Eights: next",
    "jpoints minus": "J points: minus",
    "jpoints plus": "J points: plus",
    "suit C": "♣ Clubs",
    "suit D": "♦ Diamonds",
    "suit H": "♥ Hearts",
    "suit S": "♠ Spades",
  };
  if (labels[text]) return labels[text];
  // Target actions offered as buttons: "replace 0 2" → "Replace 0 2", cards with symbols.
  const [verb, ...args] = text.split(" ");
  const shown = args.map((a) => (/^(10|[2-9AJQK])[CDHS]$/.test(a) ? cardShort(a) : a));
  return [verb[0].toUpperCase() + verb.slice(1), ...shown].join(" ");
}

export class TablePage {
  constructor(root, room) {
    this.root = root;
    this.room = room;
    this.held = loadSeat(room);
    this.conn = null;
    this.state = null;
    this.picker = new Picker();
    this.revealed = new Map(); // addr → {code, until}: a card seen a moment ago, shown a while
    this.revealTimer = null;
    this.publicCards = new Map(); // "game:seq" → pile cards of that event, for the move log
    this.gameNo = null;
    this.windowDeadline = null;
    this.windowTimer = null;
    this.pendingId = null;
    this.pendingTimer = null;
    this.shownRound = null; // number of round results already shown
    this.endHidden = false;
    this.lastActor = null;
    this.summary = null;
  }

  // --- setup ---------------------------------------------------------------------------------

  async start() {
    document.title = `cardtable — room ${this.room}`;
    this.buildShell();
    window.cardtable = {
      state: () => this.state,
      clicksFor: (action) => this.clicksFor(action),
    };
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    try {
      this.summary = await api(`/api/rooms/${encodeURIComponent(this.room)}`);
    } catch (err) {
      this.showProblem(err.status === 404 ? `There is no room “${this.room}”.` : err.message);
      return;
    }
    this.applySummary(this.summary);
    const watching = new URLSearchParams(location.search).has("watch");
    const free = this.summary.seats.some((s) => s.type === "human" && !s.taken);
    if (this.held || watching || !free) this.connect();
    else this.offerSeat();
  }

  buildShell() {
    const invite = `${location.origin}/r/${this.room}`;
    this.inviteInput = el("input", {
      class: "invite-input",
      value: invite,
      readonly: true,
      "aria-label": "invite link",
      onfocus: (ev) => ev.target.select(),
    });
    const copyBtn = el(
      "button",
      {
        type: "button",
        class: "btn btn-small",
        dataset: { ui: "copy-invite" },
        onclick: async () => {
          const ok = await copyText(invite, this.inviteInput);
          toast(ok ? "Invite link copied" : "Select the link and copy it", ok ? "info" : "error");
        },
      },
      "Copy",
    );
    this.connDot = el(
      "span",
      { class: "conn", role: "status", "aria-live": "polite" },
      el("span", { class: "conn-text" }, "connecting…"),
    );
    this.soundBtn = el("button", {
      type: "button",
      class: "btn btn-toggle",
      dataset: { ui: "sound" },
      onclick: () => this.toggle("sound"),
    });
    this.updateToggles();
    const tools = document.getElementById("page-tools");
    tools.replaceChildren(
      this.connDot,
      el(
        "button",
        { type: "button", class: "btn", dataset: { ui: "rules" }, onclick: () => this.openRules() },
        "Rules",
      ),
      el(
        "button",
        {
          type: "button",
          class: "btn",
          dataset: { ui: "help" },
          "aria-label": "Keyboard shortcuts",
          onclick: () => this.openHelp(),
        },
        "?",
      ),
      el(
        "button",
        {
          type: "button",
          class: "btn",
          dataset: { ui: "settings" },
          onclick: () => this.openSettings(),
        },
        "Settings",
      ),
      this.soundBtn,
    );
    this.titleEl = el("h1", { class: "room-title" }, `Room ${this.room}`);
    this.formatEl = el("span", { class: "room-format", dataset: { ui: "room-format" } });
    this.banner = el("div", { class: "banner-area" });
    this.connBanner = el("div", { class: "banner-area" });
    this.statusEl = el("p", { class: "status-line", role: "status", "aria-live": "polite" });
    this.hintEl = el("p", { class: "reveal-hint", dataset: { ui: "reveal-hint" }, hidden: true });
    this.windowEl = el("div", { class: "window-countdown", hidden: true });
    this.tableHost = el("div", { class: "table-host" });
    this.bar = el("div", {
      class: "action-bar",
      role: "toolbar",
      "aria-label": "actions",
      hidden: true,
    });
    this.endHost = el("div", { class: "end-host" });
    this.logList = el("ol", { class: "log-list" });
    this.root.replaceChildren(
      el(
        "div",
        { class: "room-bar" },
        el("div", { class: "room-head" }, this.titleEl, this.formatEl),
        el(
          "div",
          { class: "invite" },
          el("span", { class: "invite-label" }, "Invite:"),
          this.inviteInput,
          copyBtn,
        ),
        el("a", { class: "btn btn-small", href: `/r/${this.room}/history` }, "History"),
      ),
      this.banner,
      this.connBanner,
      el("div", { class: "status-row" }, this.statusEl, this.windowEl, this.hintEl),
      this.tableHost,
      this.bar,
      this.endHost,
      el("details", { class: "log" }, el("summary", {}, "Moves"), this.logList),
    );
  }

  applySummary(summary) {
    this.titleEl.textContent = `${summary.title ?? summary.game} · room ${this.room}`;
    this.formatEl.textContent = matchFormat(summary.options);
    this.variant = summary.game;
  }

  showProblem(message) {
    this.banner.replaceChildren(
      el(
        "div",
        { class: "banner banner-error", role: "alert" },
        message,
        " ",
        el("a", { href: "/" }, "Back to the lobby"),
      ),
    );
  }

  // No seat yet: take a free one, or watch.
  offerSeat() {
    const nameInput = el("input", {
      name: "join-name",
      value: getName(),
      maxlength: 24,
      "aria-label": "your name",
      placeholder: "your name",
    });
    const take = el(
      "button",
      {
        type: "button",
        class: "btn btn-primary",
        dataset: { ui: "take-seat" },
        onclick: async () => {
          take.disabled = true;
          try {
            const name = nameInput.value.trim();
            setName(name);
            const body = name ? { name } : {};
            const res = await api(`/api/rooms/${encodeURIComponent(this.room)}/join`, {
              method: "POST",
              body,
            });
            saveSeat(this.room, res.seat, res.token);
            this.held = { seat: res.seat, token: res.token };
            this.banner.replaceChildren();
            this.connect();
          } catch (err) {
            take.disabled = false;
            toast(`Could not take a seat: ${err.message}`, "error");
          }
        },
      },
      "Take a free seat",
    );
    const watch = el(
      "button",
      {
        type: "button",
        class: "btn",
        dataset: { ui: "watch" },
        onclick: () => {
          this.banner.replaceChildren();
          this.connect();
        },
      },
      "Watch",
    );
    this.banner.replaceChildren(
      el(
        "div",
        { class: "banner banner-choice" },
        el("p", {}, "A seat at this table is free."),
        el("div", { class: "banner-actions" }, nameInput, take, watch),
      ),
    );
    take.focus();
  }

  connect() {
    this.conn?.close();
    this.conn = new RoomConnection(this.room, this.held?.token ?? null);
    this.conn.addEventListener("state", (ev) => this.onState(ev.detail));
    this.conn.addEventListener("error", (ev) => this.onError(ev.detail));
    this.conn.addEventListener("status", (ev) => this.onStatus(ev.detail));
    this.conn.connect();
  }

  // --- server messages -------------------------------------------------------------------------

  onStatus({ status, retryIn }) {
    document.body.dataset.conn = status;
    const text = {
      connecting: "connecting…",
      open: "connected",
      waiting: `offline — retrying in ${Math.round((retryIn ?? 0) / 1000)} s`,
      closed: "disconnected",
    }[status];
    this.connDot.className = `conn conn-${status}`;
    this.connDot.title = text;
    this.connDot.replaceChildren(el("span", { class: "conn-text" }, text));
    // A lost connection also gets a banner above the table, with a way to retry at once.
    if (status === "waiting") {
      const retry = el(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          dataset: { ui: "retry" },
          onclick: () => this.conn.retryNow(),
        },
        "Retry now",
      );
      this.connBanner.replaceChildren(
        el(
          "div",
          { class: "banner banner-error", role: "alert", dataset: { ui: "offline" } },
          `Connection to the server lost — reconnecting in ${Math.round((retryIn ?? 0) / 1000)} s. `,
          retry,
        ),
      );
    } else if (status === "open") {
      this.connBanner.replaceChildren();
    }
  }

  onError(msg) {
    if (msg.id !== undefined && msg.id === this.pendingId) this.clearPending();
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
        "Forget this seat",
      );
      this.banner.replaceChildren(
        el(
          "div",
          { class: "banner banner-error", role: "alert", dataset: { code: "bad_token" } },
          `${text} `,
          forget,
        ),
      );
    }
  }

  onState(state) {
    if (state.id !== undefined && state.id === this.pendingId) this.clearPending();
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
      this.revealed.clear();
      this.publicCards.clear();
    }
    this.notePublicCards(state.events ?? []);
    this.noteReveals(state.events ?? [], seat);
    const actor = [...(state.events ?? [])]
      .reverse()
      .find((e) => e.seat !== undefined && e.type !== "turn");
    if (actor) this.lastActor = actor.seat;
    this.setWindow(state.window);
    const before = measure(this.tableHost);
    this.render();
    animateEvents(state.events, this.tableHost, before);
    this.sounds(prev, state);
    this.maybeShowRound(prev, state);
  }

  // Cards of the discard pile named by this state's events, kept for the move log.
  notePublicCards(events) {
    for (const ev of events) {
      const fields = [...(PUBLIC_CARDS[ev.type] ?? [])];
      if (ev.type === "claim" && ev.ok) fields.push("out");
      if (ev.type === "drop" && ev.ok) fields.push("card");
      const cards = {};
      for (const f of fields) if (ev[f] !== undefined && ev[f] !== null) cards[f] = ev[f];
      if (Object.keys(cards).length) this.publicCards.set(`${this.gameNo}:${ev.seq}`, cards);
    }
  }

  // What is seen at this moment: the viewer's own peeks, spies and looks (kaboo's first sight
  // of the bottom row included), and the cards a failed claim or drop shows everybody. A table
  // without memory aid gets these cards only in the events: they stay face up for the reveal
  // time (Settings), or until clicked, then turn back over. A card that moves takes its
  // reveal along (a swap) or ends it.
  noteReveals(events, seat) {
    const until = Date.now() + revealSeconds() * 1000;
    for (const ev of events) {
      const mine = seat !== null && ev.seat === seat;
      const seen = [];
      if (ev.type === "round_start") this.revealed.clear();
      else if (mine && (ev.type === "peek" || ev.type === "spy") && ev.card)
        seen.push([ev.at, ev.card]);
      else if (mine && ev.type === "look" && ev.cards)
        ev.at.forEach((a, i) => seen.push([a, ev.cards[i]]));
      else if (ev.type === "claim" && !ev.ok && ev.shown)
        ev.at.forEach((a, i) => seen.push([a, ev.shown[i]]));
      else if (ev.type === "drop" && !ev.ok && ev.card) seen.push([ev.at, ev.card]);
      else if (ev.type === "exchange" || ev.type === "give") {
        const [a, b] = addrsOf(ev);
        const ra = this.revealed.get(a);
        const rb = this.revealed.get(b);
        this.revealed.delete(a);
        this.revealed.delete(b);
        if (ra && b) this.revealed.set(b, ra);
        if (rb && a && ev.type === "exchange") this.revealed.set(a, rb);
      } else {
        for (const a of addrsOf(ev)) this.revealed.delete(a);
      }
      for (const [a, code] of seen) if (a && code) this.revealed.set(a, { code, until });
    }
    this.scheduleReveal();
  }

  /** Turn shown cards back over: one address, or all of them. */
  hideReveals(addr = null) {
    if (addr === null) this.revealed.clear();
    else this.revealed.delete(addr);
    this.scheduleReveal();
    this.render();
  }

  scheduleReveal() {
    clearTimeout(this.revealTimer);
    if (!this.revealed.size) return;
    const next = Math.min(...[...this.revealed.values()].map((r) => r.until));
    this.revealTimer = setTimeout(
      () => {
        const now = Date.now();
        if (isModalOpen()) {
          // A dialog covers the table (a round's results come with the next deal): the cards
          // wait for it to close, then get their full time (restartReveals).
          for (const r of this.revealed.values()) r.until = Math.max(r.until, now + 500);
        } else {
          for (const [a, r] of this.revealed) if (r.until <= now) this.revealed.delete(a);
        }
        this.render();
        this.scheduleReveal();
      },
      Math.max(0, next - Date.now()) + 10,
    );
  }

  /** Give every card shown now the whole reveal time again (after a dialog closed). */
  restartReveals() {
    if (!this.revealed.size) return;
    const until = Date.now() + revealSeconds() * 1000;
    for (const r of this.revealed.values()) r.until = until;
    this.scheduleReveal();
    this.render();
  }

  sounds(prev, state) {
    const wasMine = Boolean(prev?.view?.legal?.length);
    const mine = Boolean(state.view?.legal?.length);
    const types = new Set((state.events ?? []).map((e) => e.type));
    if (types.has("game_over")) beep("end");
    else if (mine && !wasMine) beep("turn");
    else if (types.has("exchange") || types.has("give")) beep("swap");
    else if (["draw", "replace", "discard", "play", "drop", "snap"].some((t) => types.has(t)))
      beep("card");
  }

  // A finished round of a match: show its results once (the game's end has its own panel).
  maybeShowRound(prev, state) {
    const view = state.view;
    const rounds = view?.round_results?.length ?? 0;
    if (this.shownRound === null || (prev && prev.game_no !== state.game_no)) {
      this.shownRound = rounds;
      this.endHidden = false;
      return;
    }
    if (rounds > this.shownRound) {
      this.shownRound = rounds;
      if (!view.over)
        modal(
          `Round ${view.round_results.at(-1).round} results`,
          renderResults(view, this.names()),
          { className: "round-modal", onClose: () => this.restartReveals() },
        );
    }
  }

  // --- drawing -------------------------------------------------------------------------------

  names() {
    const seats = this.state?.seats ?? this.summary?.seats ?? [];
    return (i) => seatName(seats, i);
  }

  render() {
    const state = this.state;
    if (!state) return;
    const view = state.view;
    if (!view) {
      this.renderWaiting(state);
      return;
    }
    const seat = state.seat;
    const revealed = new Map([...this.revealed].map(([a, r]) => [a, r.code]));
    const piles = {
      deck: Boolean(this.picker.pileAction("deck")),
      discard: Boolean(this.picker.pileAction("discard")),
    };
    const table = renderTable(view, {
      viewer: seat,
      seats: state.seats,
      names: this.names(),
      revealed,
      targets: this.picker.nextTargets(),
      selection: this.picker.selection,
      piles,
      interactive: seat !== null,
      live: true,
      lastActor: this.lastActor,
    });
    table.addEventListener("click", (ev) => this.onTableClick(ev));
    this.tableHost.replaceChildren(table);
    this.statusEl.textContent = statusLine(view, seat, this.names());
    // A seat without memory aid is told so, and, while cards are face up for a moment, for
    // how long (the line is always there during play, so the table does not jump).
    const bare = this.hasAid() === false && !view.over && !isShedding(view.game);
    this.hintEl.hidden = !bare;
    this.hintEl.textContent = !bare
      ? ""
      : this.revealed.size
        ? `Remember it: face up for ${revealSeconds()} s (click to hide).`
        : "No memory aid here: remember the cards you see.";
    this.renderBar();
    this.renderEnd();
    this.renderLog(view);
  }

  renderWaiting(state) {
    const names = this.names();
    const list = el(
      "ul",
      { class: "waiting-seats" },
      state.seats.map((s, i) =>
        el(
          "li",
          {},
          el("span", {
            class: `dot dot-${s.type === "ai" ? "ai" : s.online ? "online" : "offline"}`,
          }),
          names(i),
          s.type === "human" ? (s.taken ? "" : " — free seat") : "",
          i === state.seat ? " (you)" : "",
          s.memory_aid ? [" ", aidBadge()] : null,
        ),
      ),
    );
    this.tableHost.replaceChildren(
      el(
        "div",
        { class: "waiting" },
        el("h2", {}, "Waiting for players"),
        el(
          "p",
          {},
          "Send the invite link to your friends; the game starts when every seat is taken.",
        ),
        list,
      ),
    );
    this.statusEl.textContent = "Waiting for players";
    this.renderBar();
    this.endHost.replaceChildren();
  }

  renderBar() {
    const state = this.state;
    const view = state?.view;
    const buttons = [];
    const busy = this.pendingId !== null;
    const mk = (text, cls = "") =>
      el(
        "button",
        {
          type: "button",
          class: `btn ${cls}`,
          dataset: { action: text },
          disabled: busy,
          onclick: () => this.play(text),
        },
        actionLabel(text, view?.game ?? this.variant),
      );
    if (view && state.seat !== null) {
      // Complete candidates of the selection (confirm, or choose between verbs).
      for (const a of this.picker.selection.length ? this.picker.complete() : [])
        buttons.push(mk(a.text, "btn-primary"));
      for (const a of this.picker.words()) {
        const call = a.text === callWord(view.game);
        buttons.push(mk(a.text, call ? "btn-call" : ""));
      }
      if (this.picker.selection.length) {
        buttons.push(
          el(
            "button",
            {
              type: "button",
              class: "btn",
              dataset: { ui: "clear" },
              onclick: () => this.clearSelection(),
            },
            "Clear (Esc)",
          ),
        );
      }
    }
    if (state && !view && state.seat !== null && state.status === "waiting") {
      const allTaken = state.seats.every((s) => s.type !== "human" || s.taken);
      if (allTaken) {
        buttons.push(
          el(
            "button",
            {
              type: "button",
              class: "btn btn-primary",
              dataset: { ui: "start" },
              onclick: () => this.sendSimple("start"),
            },
            "Start the game",
          ),
        );
      }
    }
    const selection = this.picker.selection;
    const selText = selection.length
      ? el(
          "span",
          { class: "selection" },
          "Selected: ",
          selection.map((t) => this.targetName(t)).join(", "),
        )
      : null;
    this.bar.replaceChildren(...(selText ? [selText] : []), ...buttons);
    this.bar.hidden = buttons.length === 0 && !selText;
  }

  /** A selected target in words: "your 2", "Bob's 0", "7♥". */
  targetName(target) {
    if (!target.includes(".")) return cardShort(target);
    const [seat, pos] = target.split(".").map(Number);
    return seat === this.state?.seat ? `your ${pos}` : `${this.names()(seat)}'s ${pos}`;
  }

  renderEnd() {
    const state = this.state;
    const view = state.view;
    if (!view?.over) {
      this.endHost.replaceChildren();
      return;
    }
    const actions = [];
    if (state.seat !== null) {
      actions.push(
        el(
          "button",
          {
            type: "button",
            class: "btn btn-primary",
            dataset: { ui: "rematch" },
            onclick: () => this.sendSimple("rematch"),
          },
          "Rematch",
        ),
      );
    }
    actions.push(
      el(
        "a",
        { class: "btn", href: `/r/${this.room}/history`, dataset: { ui: "history" } },
        "History",
      ),
    );
    actions.push(el("a", { class: "btn", href: "/" }, "Lobby"));
    const hide = el(
      "button",
      {
        type: "button",
        class: "btn btn-small",
        "aria-expanded": this.endHidden ? "false" : "true",
        onclick: () => {
          this.endHidden = !this.endHidden;
          this.renderEnd();
        },
      },
      this.endHidden ? "Show results" : "Hide",
    );
    const panel = el(
      "section",
      {
        class: `end-panel${this.endHidden ? " collapsed" : ""}`,
        "aria-label": "game over",
        dataset: { ui: "end-panel" },
      },
      el("div", { class: "end-head" }, el("h2", {}, "Game over"), hide),
      this.endHidden ? null : renderResults(view, this.names()),
      el("div", { class: "end-actions" }, actions),
    );
    this.endHost.replaceChildren(panel);
  }

  renderLog(view) {
    const names = this.names();
    // The view's events carry only what this seat keeps; cards put on the pile come back
    // from what the moment showed.
    const pile = (e) => this.publicCards.get(`${this.gameNo}:${e.seq}`);
    const lines = (view.events ?? [])
      .map((e) => describeEvent({ ...e, ...pile(e) }, names))
      .filter(Boolean);
    this.logList.replaceChildren(
      ...lines
        .slice(-14)
        .reverse()
        .map((t) => el("li", {}, t)),
    );
  }

  // --- the window countdown ----------------------------------------------------------------

  setWindow(win) {
    clearInterval(this.windowTimer);
    if (!win) {
      this.windowDeadline = null;
      this.windowEl.hidden = true;
      return;
    }
    this.windowDeadline = performance.now() + win.closes_in * 1000;
    this.windowTotal = Math.max(win.closes_in, 0.1);
    this.windowPhase = win.phase;
    this.windowEl.hidden = false;
    const tick = () => {
      const left = Math.max(0, (this.windowDeadline - performance.now()) / 1000);
      const pct = Math.round((left / this.windowTotal) * 100);
      this.windowEl.replaceChildren(
        el(
          "span",
          {},
          `${this.windowPhase === "snap" ? "Snap" : "Peek"} window: ${left.toFixed(1)} s`,
        ),
        el(
          "span",
          {
            class: "window-bar",
            role: "progressbar",
            "aria-valuemin": 0,
            "aria-valuemax": 100,
            "aria-valuenow": pct,
          },
          el("span", { style: { width: `${pct}%` } }),
        ),
      );
      if (left <= 0) clearInterval(this.windowTimer);
    };
    tick();
    this.windowTimer = setInterval(tick, 100);
  }

  // --- input -----------------------------------------------------------------------------------

  onTableClick(ev) {
    const pileNode = ev.target.closest("[data-pile]");
    if (pileNode) {
      const action = this.picker.pileAction(pileNode.dataset.pile);
      if (action) {
        this.picker.clear();
        this.play(action.text);
      }
      return;
    }
    const cardNode = ev.target.closest(".card[data-addr], .card[data-card]");
    if (!cardNode) return;
    const target = cardNode.dataset.card ?? cardNode.dataset.addr;
    // A card shown for a moment turns back over when clicked (and still counts as a click on
    // it when it is a target of an action).
    if (cardNode.classList.contains("revealed")) {
      this.hideReveals(cardNode.dataset.addr);
      if (!this.picker.nextTargets().has(target)) return;
    }
    this.clickTarget(target);
  }

  clickTarget(target) {
    if (this.pendingId !== null) return;
    const res = this.picker.click(target);
    if (res.play) this.play(res.play);
    else if (res.pending) this.render();
  }

  clearSelection() {
    this.picker.clear();
    this.render();
  }

  /** Send an action with the version of the last state. */
  play(text) {
    const state = this.state;
    if (!state || this.pendingId !== null) return;
    this.picker.clear();
    try {
      this.pendingId = this.conn.send({
        type: "act",
        token: this.held?.token,
        action: text,
        version: state.version,
      });
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    document.body.dataset.busy = "1";
    // If no answer comes (a dropped connection), unlock the table after a while.
    this.pendingTimer = setTimeout(() => this.clearPending(), 5000);
    this.render();
  }

  sendSimple(type) {
    try {
      this.conn.send({ type, token: this.held?.token });
    } catch (err) {
      toast(err.message, "error");
    }
  }

  clearPending() {
    clearTimeout(this.pendingTimer);
    this.pendingId = null;
    document.body.dataset.busy = "";
    if (this.state) this.renderBar();
  }

  clicksFor(action) {
    const clicks = this.picker.clicksFor(action);
    if (!clicks) return null;
    return this.picker.selection.length ? ['[data-ui="clear"]', ...clicks] : clicks;
  }

  toggle(name) {
    setPref(name, !getPref(name));
    this.updateToggles();
    if (name === "sound" && getPref("sound")) beep("card");
    this.render();
  }

  updateToggles() {
    const snd = getPref("sound");
    this.soundBtn.textContent = `Sound: ${snd ? "on" : "off"}`;
    this.soundBtn.setAttribute("aria-pressed", String(snd));
  }

  /** This seat's memory aid, as the room was created (null: a spectator or no seat yet). */
  hasAid() {
    const seat = this.state?.seat;
    if (seat === null || seat === undefined) return null;
    return Boolean(this.state.seats?.[seat]?.memory_aid);
  }

  openSettings() {
    const input = el("input", {
      type: "number",
      name: "reveal-seconds",
      id: "s-reveal",
      min: REVEAL_SECONDS.min,
      max: REVEAL_SECONDS.max,
      step: REVEAL_SECONDS.step,
      value: revealSeconds(),
      inputmode: "decimal",
    });
    const note = el("p", { class: "field-note", id: "s-reveal-note" });
    const save = () => {
      const value = Number(input.value);
      if (input.value === "" || !Number.isFinite(value)) {
        const { min, max } = REVEAL_SECONDS;
        note.textContent = `Give a number of seconds from ${min} to ${max}.`;
        return;
      }
      const clamped = Math.min(REVEAL_SECONDS.max, Math.max(REVEAL_SECONDS.min, value));
      setPref("revealSeconds", clamped);
      if (clamped !== value) input.value = String(clamped);
      note.textContent = `Saved: ${clamped} s.`;
    };
    input.addEventListener("change", save);
    const aid = this.hasAid();
    const yours =
      aid === null
        ? ""
        : aid
          ? "Your seat has the memory aid: every card you have seen stays face up. "
          : "Your seat has no memory aid: remember what you see! ";
    modal(
      "Settings",
      el(
        "div",
        { class: "settings" },
        el(
          "div",
          { class: "field" },
          el("label", { for: "s-reveal" }, "Show a card you look at for (seconds)"),
          input,
          el(
            "p",
            { class: "field-note" },
            yours,
            "Without memory aid a card you look at is face up only for this long; click it " +
              "to turn it over sooner. The memory aid is chosen per seat when a table is created.",
          ),
          note,
        ),
        el(
          "div",
          { class: "field check" },
          el("input", {
            type: "checkbox",
            id: "s-sound",
            name: "sound",
            checked: Boolean(getPref("sound")),
            onchange: () => this.toggle("sound"),
          }),
          el("label", { for: "s-sound" }, "Sound"),
        ),
      ),
      {
        className: "settings-modal",
        onClose: () => {
          save();
          this.restartReveals();
        },
      },
    );
  }

  openRules() {
    const variant = this.state?.view?.game ?? this.variant;
    if (variant) showRules(variant);
  }

  openHelp() {
    modal(
      "Keyboard shortcuts",
      el(
        "div",
        {},
        el(
          "dl",
          { class: "shortcuts" },
          SHORTCUTS.flatMap(([k, what]) => [
            el("dt", {}, el("kbd", {}, k)),
            el("dd", {}, typeof what === "function" ? what() : what),
          ]),
        ),
        el(
          "p",
          {},
          "Click cards to build an action: for a swap, a look or a claim of several equal cards, click them one after the other; the action bar then offers to confirm. Highlighted cards and piles are the ones you can use now.",
        ),
        el(
          "p",
          {},
          "Memory: without the memory aid, a card you look at is face up for a few seconds " +
            "(change the time in Settings), then you must remember it; click it to turn it " +
            "over sooner. A “Memory aid” badge marks the players who keep seeing every card " +
            "they have seen; it is chosen for each seat when the table is created.",
        ),
      ),
      { className: "help-modal" },
    );
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape" && closeModal()) return; // from a dialog's input too
    const tag = ev.target?.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const key = ev.key;
    if (key === "Escape") {
      if (this.revealed.size) this.hideReveals();
      this.clearSelection();
      return;
    }
    if (isModalOpen()) return;
    const word = (...texts) => {
      const a = this.picker.legal.find((x) => texts.includes(x.text));
      if (a) this.play(a.text);
      return Boolean(a);
    };
    const lower = key.toLowerCase();
    let handled = true;
    if (key === "?") this.openHelp();
    else if (lower === "d") word("draw deck", "draw");
    else if (lower === "f") word("draw discard", "discard");
    else if (lower === "k") word(callWord(this.state?.view?.game ?? this.variant));
    else if (lower === "p") word("pass");
    else if (lower === "x") word("exchange");
    else if (lower === "c") word("continue");
    else if (lower === "s") this.toggle("sound");
    else if (lower === "r") this.openRules();
    else if (key === "Enter" && this.picker.selection.length) {
      const done = this.picker.complete();
      if (done.length === 1) this.play(done[0].text);
    } else if (/^[0-9]$/.test(key) && this.state?.seat !== null && this.state?.view) {
      const seat = this.state.seat;
      const view = this.state.view;
      // In Qute, digits count the cards of the hand as drawn, left to right.
      if (isShedding(view.game)) {
        const cards = [...this.tableHost.querySelectorAll(".seat-me [data-card]")];
        const node = cards[Number(key === "0" ? 9 : Number(key) - 1)];
        if (node) this.clickTarget(node.dataset.card);
      } else {
        this.clickTarget(`${seat}.${key}`);
      }
    } else handled = false;
    if (handled && key !== "Enter") ev.preventDefault();
  }
}
