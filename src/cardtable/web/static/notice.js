// @ts-check
// Telling a person that the table waits for them while they look elsewhere: the tab's title
// says when it is their turn or when someone called the end ("▶ Your turn · Gabo — cardtable",
// "Bob called cabo! · Cabo — cardtable") and goes back when neither holds; with the person's
// leave (asked for in Settings, never on page load) a browser notification says the same while
// the tab is hidden. The sound of each moment is sound.js's.

import { t } from "./i18n.js";
import { isCall } from "./movelog.js";
import { getPref } from "./prefs.js";
import { saidText } from "./said.js";
import { isShedding, variantInfo } from "./variants.js";

/** @typedef {import("./movelog.js").MoveLog} MoveLog */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */

/** What every title of the app ends with. */
export const APP = "cardtable";

/**
 * Whether the person at `state`'s seat is to act now: a turn of theirs (the opening peek
 * included), not a snap window that any seat may use.
 * @param {StateMessage | null | undefined} state
 */
export function isMyTurn(state) {
  const view = state?.view;
  const seat = state?.seat;
  if (!view || seat === null || seat === undefined || view.over) return false;
  return view.actors.includes(seat) && view.legal.length > 0 && view.phase !== "snap";
}

/**
 * A call someone else made, in the server's words ("Bob called cabo!"): the one in this state's
 * events, else the one that stands over the round being played (its words kept in the move
 * log); null when there is none.
 * @param {StateMessage | null | undefined} state
 * @param {MoveLog} log
 * @returns {string | null}
 */
export function callNotice(state, log) {
  const view = state?.view;
  if (!state || !view) return null;
  const seat = state.seat;
  for (const ev of state.events ?? []) {
    if (isCall(ev) && ev.seat !== seat) return saidText(ev.said);
  }
  if (isShedding(view.game) || view.over || !("caller" in view)) return null;
  const caller = view.caller;
  if (caller === null || caller === undefined || caller === seat) return null;
  return log.lastCall(caller);
}

/**
 * The title of the table's tab: "▶ Your turn", a call, or both, before the game's name; the
 * room's plain title when neither holds.
 * @param {StateMessage | null} state
 * @param {MoveLog} log the moves so far (a call's words)
 * @param {{game: string, room: string}} where the game's name as shown, and the room
 */
export function tableTitle(state, log, { game, room }) {
  const news = [
    isMyTurn(state) ? `▶ ${t("ui.words.your_turn")}` : null,
    callNotice(state, log),
  ].filter(Boolean);
  if (!news.length) return `${t("ui.tablepage.heading", { game, room })} — ${APP}`;
  return `${news.join(" · ")} · ${game} — ${APP}`;
}

/** Whether this browser can show notifications at all. */
export function canNotify() {
  return typeof Notification !== "undefined";
}

/**
 * Ask for the browser's leave to notify (from Settings, when the person ticks the box); returns
 * whether notifications may now be shown.
 * @returns {Promise<boolean>}
 */
export async function askToNotify() {
  if (!canNotify()) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}

/**
 * Keeps the tab's title and, while the tab is hidden, notifies the person of their turn and of
 * calls (only what is new since the previous state).
 */
export class TurnNotice {
  /**
   * @param {string} room
   * @param {MoveLog} log the moves so far, kept up to date by the table (a call's words)
   */
  constructor(room, log) {
    this.room = room;
    this.log = log;
    /** @type {string} the game's name as shown ("Gabo"), once known */
    this.game = "";
    /** @type {Notification | null} the last one shown, closed when the tab comes back */
    this.shown = null;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.shown?.close();
    });
  }

  /**
   * The game being played (its name for the title).
   * @param {string} variant
   */
  setGame(variant) {
    this.game = variantInfo(variant)?.title ?? variant;
  }

  /**
   * A new state arrived: set the title, and notify what is new if the tab is hidden.
   * @param {StateMessage | null} prev
   * @param {StateMessage} state
   */
  update(prev, state) {
    if (state.view) this.setGame(state.view.game);
    document.title = tableTitle(state, this.log, { game: this.game || this.room, room: this.room });
    const news = [];
    const call = (state.events ?? []).some(isCall) ? callNotice(state, this.log) : null;
    if (call) news.push(call);
    if (isMyTurn(state) && !isMyTurn(prev)) news.push(t("ui.words.your_turn"));
    if (news.length) this.notify(news.join(" · "));
  }

  /**
   * Show a notification if the person allowed it and is looking elsewhere.
   * @param {string} text
   */
  notify(text) {
    if (document.visibilityState !== "hidden" || !getPref("notify") || !canNotify()) return;
    if (Notification.permission !== "granted") return;
    try {
      this.shown?.close();
      const shown = new Notification(text, {
        body: t("ui.tablepage.heading", { game: this.game || APP, room: this.room }),
        tag: `cardtable:${this.room}`,
      });
      shown.onclick = () => {
        window.focus();
        shown.close();
      };
      this.shown = shown;
    } catch {
      // A browser that allows notifications only from a service worker: the title still says it.
    }
  }
}
