// @ts-check
// The chat beside a table with people (docs/protocol.md, "Chat"): the room's lines, newest at
// the bottom, a line to type and a row of quick reactions. Every line is shown as text only
// (el() appends text nodes), never as markup. A reaction also shows for a moment by the seat
// that sent it.

import { t } from "./i18n.js";
import { atEnd, el, reducedMotion } from "./ui.js";

/** @typedef {import("./net.js").RoomConnection} RoomConnection */
/** @typedef {import("./types/protocol").ChatLog} ChatLog */
/** @typedef {import("./types/protocol").ChatMessage} ChatMessage */
/** @typedef {import("./types/protocol").ChatReaction} ChatReaction */
/** @typedef {import("./types/protocol").ErrorMessage} ErrorMessage */

/** The longest line the server takes (characters, once trimmed). */
export const MAX_CHAT_CHARS = 200;

/** How many lines the panel keeps on screen. */
const KEEP_LINES = 100;

/** How long a reaction stays by its seat (ms). */
const BUBBLE_MS = 2600;

/** How long a refusal stays under the input (ms). */
const ERROR_MS = 8000;

/**
 * The quick reactions, in the order of their buttons: the key the server knows and a symbol
 * beside its word (one that common text fonts have). Each reader reads the word in their own
 * language (ui.chat.reaction.<key>): the server sends the key.
 * @type {{key: ChatReaction, icon: string}[]}
 */
export const REACTIONS = [
  { key: "gg", icon: "✌" },
  { key: "nice", icon: "★" },
  { key: "oops", icon: "☹" },
  { key: "thinking", icon: "☁" },
  { key: "thanks", icon: "♥" },
  { key: "hurry", icon: "⚡" },
];

/**
 * A reaction in words, for a button, a line and a seat's bubble.
 * @param {string} key
 * @returns {{key: string, word: string, icon: string}}
 */
function reactionOf(key) {
  const known = REACTIONS.find((r) => r.key === key);
  return known ? { ...known, word: t(`ui.chat.reaction.${key}`) } : { key, word: key, icon: "" };
}

/** What the panel says instead of the input when this connection may only read. */
export const readOnlyText = () => t("ui.chat.read_only");

/**
 * The chat panel of a live table. Attach it to each RoomConnection the page opens; it shows
 * what the server sends and sends what is typed or clicked.
 */
export class ChatPanel {
  /**
   * @param {HTMLElement} host where the panel is drawn
   * @param {() => number | null} mySeat the seat this page plays (null: watching)
   */
  constructor(host, mySeat) {
    this.mySeat = mySeat;
    /** @type {RoomConnection | null} */
    this.conn = null;
    /** @type {Map<number, string>} lines sent and not answered yet, by message id */
    this.sending = new Map();
    /** @type {number | undefined} */
    this.errorTimer = undefined;
    this.list = el("ol", {
      class: "chat-list",
      role: "log",
      "aria-live": "polite",
      "aria-label": t("ui.chat.messages"),
      dataset: { ui: "chat-list" },
    });
    this.empty = el("p", { class: "chat-empty" }, t("ui.chat.empty"));
    this.input = el("input", {
      type: "text",
      class: "chat-input",
      name: "chat",
      maxlength: String(MAX_CHAT_CHARS),
      autocomplete: "off",
      enterkeyhint: "send",
      placeholder: t("ui.chat.placeholder"),
      "aria-label": t("ui.chat.message"),
      dataset: { ui: "chat-input" },
      oninput: () => this.syncSend(),
    });
    this.sendBtn = el(
      "button",
      { type: "submit", class: "btn btn-small btn-primary", dataset: { ui: "chat-send" } },
      t("ui.chat.send"),
    );
    this.form = el(
      "form",
      {
        class: "chat-form",
        onsubmit: (ev) => {
          ev.preventDefault();
          this.sendText();
        },
      },
      this.input,
      this.sendBtn,
    );
    this.reactions = el(
      "div",
      { class: "chat-reactions", role: "group", "aria-label": t("ui.chat.reactions") },
      REACTIONS.map((r) =>
        el(
          "button",
          {
            type: "button",
            class: "btn btn-small chat-reaction",
            dataset: { ui: "chat-reaction", reaction: r.key },
            onclick: () => this.send({ reaction: r.key }),
          },
          el("span", { "aria-hidden": "true" }, r.icon),
          el("span", { class: "chat-reaction-word" }, reactionOf(r.key).word),
        ),
      ),
    );
    this.readOnly = el(
      "p",
      { class: "chat-readonly", dataset: { ui: "chat-readonly" }, hidden: true },
      readOnlyText(),
    );
    this.errorEl = el("p", {
      class: "chat-error",
      role: "alert",
      dataset: { ui: "chat-error" },
      hidden: true,
    });
    this.root = el(
      "section",
      {
        class: "chat-panel",
        "aria-labelledby": "chat-title",
        dataset: { ui: "chat" },
        hidden: true,
      },
      el("h2", { class: "chat-title", id: "chat-title" }, t("ui.chat.title")),
      this.empty,
      this.list,
      this.reactions,
      this.form,
      this.readOnly,
      this.errorEl,
    );
    // Shown once the server sends the room's lines (with the join's state): they say who writes.
    this.setWritable(false);
    host.replaceChildren(this.root);
  }

  /**
   * Listen to a (new) connection of the page.
   * @param {RoomConnection} conn
   */
  attach(conn) {
    this.conn = conn;
    this.sending.clear();
    conn.on("chat_log", (log) => {
      if (conn === this.conn) this.setLog(log);
    });
    conn.on("chat", (msg) => {
      if (conn === this.conn) this.add(msg);
    });
    conn.on("chat_error", (err) => {
      if (conn === this.conn) this.refused(err);
    });
  }

  /**
   * The room's last lines, after a join: they replace what is shown.
   * @param {ChatLog} log
   */
  setLog(log) {
    this.root.hidden = false;
    this.setWritable(log.writable);
    this.list.replaceChildren(...log.lines.map((m) => this.line(m)));
    this.empty.hidden = log.lines.length > 0;
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** @param {boolean} writable */
  setWritable(writable) {
    this.form.hidden = !writable;
    this.reactions.hidden = !writable;
    this.readOnly.hidden = writable;
    this.root.dataset.writable = writable ? "1" : "";
  }

  /**
   * A new line: at the bottom, kept in view unless the reader scrolled up to read back; a
   * reaction also shows by its seat.
   * @param {ChatMessage} msg
   */
  add(msg) {
    const list = this.list;
    const mine = msg.seat !== null && msg.seat === this.mySeat();
    const atBottom = atEnd(list);
    list.append(this.line(msg));
    while (list.childElementCount > KEEP_LINES) list.firstElementChild?.remove();
    this.empty.hidden = true;
    if (atBottom || mine) list.scrollTop = list.scrollHeight;
    if (msg.id !== undefined && typeof msg.id === "number") this.sending.delete(msg.id);
    if (msg.reaction && msg.seat !== null) this.bubble(msg.seat, msg.reaction);
  }

  /**
   * One line: "Name: text", or "Name: 👏 Nice!" for a reaction.
   * @param {ChatMessage} msg
   */
  line(msg) {
    const mine = msg.seat !== null && msg.seat === this.mySeat();
    /** @type {(Node | string)[]} */
    let body;
    if (msg.reaction) {
      const r = reactionOf(msg.reaction);
      body = [el("span", { class: "chat-react-icon", "aria-hidden": "true" }, r.icon), r.word];
    } else body = [msg.text ?? ""];
    const time = new Date(msg.at * 1000).toLocaleTimeString([], {
      hour: "2-digit",
      minute: "2-digit",
    });
    return el(
      "li",
      {
        class: `chat-line${msg.reaction ? " chat-line-reaction" : ""}${mine ? " mine" : ""}${
          msg.seat === null ? " spectator" : ""
        }`,
        title: time,
        dataset: { seq: String(msg.seq), seat: msg.seat === null ? "" : String(msg.seat) },
      },
      el("span", { class: "chat-name" }, `${msg.name}:`),
      " ",
      el("span", { class: "chat-text" }, ...body),
    );
  }

  /** The Send button is live only with something to send. */
  syncSend() {
    this.sendBtn.disabled = !this.input.value.trim();
  }

  /** Send the typed line (trimmed); a refused one comes back into the input. */
  sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    const id = this.send({ text });
    if (id === null) return;
    this.sending.set(id, text);
    this.input.value = "";
    this.syncSend();
  }

  /**
   * Send a line or a reaction; returns the message id (null: not sent, and said why).
   * @param {{text: string} | {reaction: ChatReaction}} what
   * @returns {number | null}
   */
  send(what) {
    this.showError("");
    if (!this.conn) return null;
    try {
      return this.conn.chat(what);
    } catch (err) {
      this.showError(err instanceof Error ? err.message : String(err));
      return null;
    }
  }

  /**
   * The server refused a message of ours: say why, and give a refused line back to edit.
   * @param {ErrorMessage} err
   */
  refused(err) {
    this.showError(err.message || err.code);
    if (typeof err.id !== "number") return;
    const text = this.sending.get(err.id);
    this.sending.delete(err.id);
    if (text !== undefined && !this.input.value) {
      this.input.value = text;
      this.syncSend();
    }
  }

  /** @param {string} text a problem to show under the input ("" hides it; it goes by itself) */
  showError(text) {
    clearTimeout(this.errorTimer);
    this.errorEl.textContent = text;
    this.errorEl.hidden = !text;
    if (text) this.errorTimer = window.setTimeout(() => this.showError(""), ERROR_MS);
  }

  /**
   * A reaction shown for a moment over the seat that sent it (the table is redrawn often, so
   * the bubble lives outside it, placed where the seat is now).
   * @param {number} seat
   * @param {string} key
   */
  bubble(seat, key) {
    const seatEl = document.querySelector(`.seat[data-seat="${seat}"]`);
    if (!seatEl) return;
    const box = seatEl.getBoundingClientRect();
    const r = reactionOf(key);
    const node = el(
      "div",
      {
        class: `chat-bubble${reducedMotion() ? "" : " chat-bubble-anim"}`,
        "aria-hidden": "true",
        dataset: { ui: "chat-bubble", seat: String(seat) },
      },
      el("span", { class: "chat-react-icon" }, r.icon),
      r.word,
    );
    node.style.left = `${Math.round(box.left + window.scrollX + box.width / 2)}px`;
    node.style.top = `${Math.round(box.top + window.scrollY)}px`;
    document.body.append(node);
    setTimeout(() => node.remove(), BUBBLE_MS);
  }
}
