// HTTP and WebSocket access to the cardtable server (docs/protocol.md).

/** An HTTP answer that was not 2xx; `message` is the server's `detail`, made readable. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// FastAPI's `detail` is a string, or (validation errors) a list of {loc, msg}.
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

/** Fetch JSON from the API; throws ApiError with the server's reason on failure. */
export async function api(path, { method = "GET", body } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, `cannot reach the server (${err.message})`);
  }
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

const seatKey = (room) => `cardtable:seat:${room}`;

/** The {seat, token} this browser holds in `room`, or null. */
export function loadSeat(room) {
  try {
    const data = JSON.parse(localStorage.getItem(seatKey(room)) ?? "null");
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

export function saveSeat(room, seat, token) {
  localStorage.setItem(seatKey(room), JSON.stringify({ seat, token }));
}

export function forgetSeat(room) {
  localStorage.removeItem(seatKey(room));
}

// --- the WebSocket ---------------------------------------------------------------------------

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10000];
const PING_MS = 25000;

/**
 * One room's WebSocket: joins on every (re)connection, reconnects with backoff, pings.
 *
 * Events (EventTarget): "state" and "error" (detail = the server message), "status"
 * (detail = {status: "connecting"|"open"|"waiting"|"closed", retryIn?}).
 */
export class RoomConnection extends EventTarget {
  constructor(room, token = null) {
    super();
    this.room = room;
    this.token = token;
    this.ws = null;
    this.attempt = 0;
    this.nextId = 1;
    this.closed = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.status = "connecting";
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
      const join = { type: "join", room: this.room };
      if (this.token) join.token = this.token;
      this.sendRaw(join);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        this.emit("error", { type: "error", code: "client", message: "unreadable server frame" });
        return;
      }
      if (msg.type === "state" || msg.type === "error") this.emit(msg.type, msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) {
        this.setStatus("closed");
        return;
      }
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.setStatus("waiting", delay);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
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

  /** Send a message with a fresh id; returns the id, or throws if not connected. */
  send(msg) {
    const id = this.nextId++;
    this.sendRaw({ ...msg, room: this.room, id });
    return id;
  }

  sendRaw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      throw new Error("not connected to the server — reconnecting, try again in a moment");
    }
    this.ws.send(JSON.stringify(msg));
  }

  setStatus(status, retryIn = null) {
    this.status = status;
    this.emit("status", { status, retryIn });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
