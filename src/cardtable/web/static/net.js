// @ts-check
// HTTP and WebSocket access to the cardtable server (docs/protocol.md). A connection joins its
// room in the page's language: the server phrases what it sends it (the events' words, the
// refusals) in that language.

import { language, t } from "./i18n.js";

/** @typedef {import("./types/protocol").ChatLog} ChatLog */
/** @typedef {import("./types/protocol").ChatMessage} ChatMessage */
/** @typedef {import("./types/protocol").ChatReaction} ChatReaction */
/** @typedef {import("./types/protocol").ErrorMessage} ErrorMessage */
/** @typedef {import("./types/protocol").HeldSeat} HeldSeat */
/** @typedef {import("./types/protocol").HintMessage} HintMessage */
/** @typedef {import("./types/protocol").MessageId} MessageId */
/** @typedef {import("./types/protocol").ServerMessage} ServerMessage */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */
/** @typedef {import("./types/protocol").StatusDetail} StatusDetail */
/** @typedef {import("./types/protocol").ConnStatus} ConnStatus */

/** An HTTP answer that was not 2xx; `message` is the server's `detail`, made readable. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: the server could not be reached)
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * The message of anything thrown: an Error's message, else the value as text.
 * @param {unknown} err
 * @returns {string}
 */
export function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

// FastAPI's `detail` is a string, or (validation errors) a list of {loc, msg}.
/**
 * @param {unknown} detail
 * @returns {string}
 */
function describeDetail(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d) => (d && d.msg ? `${(d.loc ?? []).slice(1).join(".") || "body"}: ${d.msg}` : ""))
      .filter(Boolean)
      .join("; ");
  }
  return detail ? JSON.stringify(detail) : "";
}

/**
 * Fetch JSON from the API; throws ApiError with the server's reason on failure. The answer is
 * whatever the server sent: the caller states its type (types/protocol.d.ts). `headers` are
 * sent besides (a seat's token); such an answer is never taken from the browser's cache.
 * @param {string} path
 * @param {{method?: string, body?: unknown, headers?: Record<string, string>}} [options]
 * @returns {Promise<unknown>}
 */
export async function api(path, { method = "GET", body, headers } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: headers ? "no-store" : "default",
    });
  } catch (err) {
    throw new ApiError(0, t("ui.net.unreachable", { problem: errorMessage(err) }));
  }
  /** @type {any} parsed JSON, read below only for FastAPI's `detail` */
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const why = describeDetail(data?.detail) || `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, why);
  }
  return data;
}

// --- seat tokens ---------------------------------------------------------------------------

/** @param {string} room */
const seatKey = (room) => `cardtable:seat:${room}`;

/**
 * The {seat, token} this browser holds in `room`, or null.
 * @param {string} room
 * @returns {HeldSeat | null}
 */
export function loadSeat(room) {
  try {
    const data = JSON.parse(localStorage.getItem(seatKey(room)) ?? "null");
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

/**
 * @param {string} room
 * @param {number} seat
 * @param {string} token
 */
export function saveSeat(room, seat, token) {
  localStorage.setItem(seatKey(room), JSON.stringify({ seat, token }));
}

/** @param {string} room */
export function forgetSeat(room) {
  localStorage.removeItem(seatKey(room));
}

/**
 * Every seat this browser holds, in any room (what signing in claims for the account).
 * @returns {{room: string, seat: number, token: string}[]}
 */
export function heldSeats() {
  const prefix = seatKey("");
  const found = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key?.startsWith(prefix)) continue;
    const room = key.slice(prefix.length);
    const held = loadSeat(room);
    if (room && held && Number.isInteger(held.seat)) {
      found.push({ room, seat: held.seat, token: held.token });
    }
  }
  return found;
}

// --- the WebSocket ---------------------------------------------------------------------------

/**
 * The events of a RoomConnection and their details: `chat` (a line or reaction), `chat_log`
 * (the room's last lines, which the state answering each join carries: after that "state") and
 * `chat_error` (the refusal of a chat message this connection sent, which is not also an
 * `error` event); `hint` (the answer to a hint this connection asked for, hints.js).
 * @typedef {{
 *   state: StateMessage,
 *   error: ErrorMessage,
 *   status: StatusDetail,
 *   chat: ChatMessage,
 *   chat_log: ChatLog,
 *   chat_error: ErrorMessage,
 *   hint: HintMessage,
 * }} ConnEvents
 */

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10000];
const PING_MS = 25000;

/**
 * One room's WebSocket: joins on every (re)connection, reconnects with backoff, pings.
 *
 * Events (EventTarget): "state" and "error" (detail = the server message), "status"
 * (detail = {status: "connecting"|"open"|"waiting"|"closed", retryIn?}), and the chat's "chat",
 * "chat_log" and "chat_error" (see ConnEvents); `on` listens to one with the type of its detail.
 */
export class RoomConnection extends EventTarget {
  /**
   * @param {string} room
   * @param {string | null} [token] the seat's token; none: watch as a spectator
   */
  constructor(room, token = null) {
    super();
    this.room = room;
    this.token = token;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.nextId = 1;
    this.closed = false;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    /** @type {ConnStatus} */
    this.status = "connecting";
    /** @type {Set<number>} ids of the chat messages sent and not answered yet */
    this.chatIds = new Set();
    /** whether the person asked the clocks to wait (sent again after each reconnection) */
    this.holding = false;
    /** @type {Set<number>} ids of the holds sent (their refusals are not the person's business) */
    this.holdIds = new Set();
  }

  /**
   * Listen to one kind of event, handed its detail.
   * @template {keyof ConnEvents} K
   * @param {K} type
   * @param {(detail: ConnEvents[K]) => void} handler
   */
  on(type, handler) {
    this.addEventListener(type, (ev) =>
      handler(/** @type {CustomEvent<ConnEvents[K]>} */ (ev).detail),
    );
  }

  connect() {
    this.closed = false;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.setStatus("connecting");
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.setStatus("open");
      this.sendRaw(this.joinMessage());
      if (this.holding) this.sendHold(true);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (ev) => {
      /** @type {ServerMessage} */
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        this.emit("error", { type: "error", code: "client", message: t("ui.net.unreadable") });
        return;
      }
      if (msg.type === "error" && typeof msg.id === "number" && this.holdIds.delete(msg.id)) {
        // a hold the server would not take (the game is over, or it knows none): the clocks
        // simply go on, as they would at a table with other people
        console.warn(`hold refused: ${msg.message}`);
      } else if (msg.type === "error" && typeof msg.id === "number" && this.chatIds.delete(msg.id)) {
        this.emit("chat_error", msg);
      } else if (msg.type === "chat") {
        if (typeof msg.id === "number") this.chatIds.delete(msg.id);
        this.emit("chat", msg);
      } else if (msg.type === "state") {
        if (typeof msg.id === "number") this.holdIds.delete(msg.id);
        this.emit("state", msg);
        if (msg.chat_log) this.emit("chat_log", msg.chat_log);
      } else if (msg.type === "hint") this.emit("hint", msg);
      else if (msg.type === "error") this.emit("error", msg);
    });
    ws.addEventListener("close", (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) {
        this.setStatus("closed");
        return;
      }
      // 1012: the server stops, or the room moved to another of its processes: reconnect at
      // once (the balancer sends the new connection to a process that serves the room)
      const restart = ev.code === 1012 && this.attempt === 0;
      const delay = restart ? 0 : BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.setStatus("waiting", delay);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Join again with the seat's token: a person marked away says they are back. */
  rejoin() {
    this.sendRaw(this.joinMessage());
  }

  /** The `join` of this room, with the seat's token if any, in the page's language. */
  joinMessage() {
    /** @type {{type: "join", room: string, token?: string, lang: string}} */
    const join = { type: "join", room: this.room, lang: language() };
    if (this.token) join.token = this.token;
    return join;
  }

  /** Close for good (no reconnect). */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.setStatus("closed");
  }

  /** Reconnect now, skipping any remaining backoff. */
  retryNow() {
    if (this.ws) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  /**
   * Ask the room's clocks to wait while the person reads something in front of the table (the
   * round's results, the rules, help, settings), or to go on (`on` false). Remembered, and sent
   * again after a reconnection; the server holds them only at a table where no other person
   * plays (docs/protocol.md). Nothing is sent for a spectator.
   * @param {boolean} on
   */
  hold(on) {
    if (on === this.holding) return;
    this.holding = on;
    if (this.token && this.ws && this.ws.readyState === WebSocket.OPEN) this.sendHold(on);
  }

  /** @param {boolean} on */
  sendHold(on) {
    if (!this.token) return;
    const id = this.nextId++;
    this.holdIds.add(id);
    this.sendRaw({ type: "hold", room: this.room, token: this.token, on, id });
  }

  /**
   * Send a message with a fresh id; returns the id, or throws if not connected.
   * @param {{type: "act" | "start" | "rematch", token?: string, action?: string, version?: number, accept?: boolean}} msg
   * @returns {number}
   */
  send(msg) {
    const id = this.nextId++;
    this.sendRaw({ ...msg, room: this.room, id });
    return id;
  }

  /**
   * Say a chat line or a quick reaction (with the seat's token, if any); returns the id, or
   * throws if not connected. Its refusal comes as a "chat_error" event.
   * @param {{text: string} | {reaction: ChatReaction}} what
   * @returns {number}
   */
  chat(what) {
    const id = this.nextId++;
    const token = this.token ? { token: this.token } : {};
    this.sendRaw({ type: "chat", room: this.room, id, ...token, ...what });
    this.chatIds.add(id);
    return id;
  }

  /** @param {object} msg */
  sendRaw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      throw new Error(t("ui.net.reconnecting"));
    }
    this.ws.send(JSON.stringify(msg));
  }

  /**
   * @param {ConnStatus} status
   * @param {number | null} [retryIn]
   */
  setStatus(status, retryIn = null) {
    this.status = status;
    this.emit("status", { status, retryIn });
  }

  /**
   * @template {keyof ConnEvents} K
   * @param {K} type
   * @param {ConnEvents[K]} detail
   */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
