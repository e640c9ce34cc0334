// @ts-check
// Hints at the live table: the "Hint" button of the action bar (and the H key) asks the server
// for every legal move of this seat's decision with what the search expects of it; the panel
// lists them best first — the move in words, its expected points, its chance to win the round
// — and a click on a row plays that move. The server phrases the rows and the panel's own
// words (`labels`) in the browser's language; nothing here phrases a move.
//
// Where the button shows: at this seat's decision, at a table where every other seat is an
// AI's (hints are free there), or at a table of people made with hints — where the first one is
// a handicap: the server answers with what it means (`handicap`), and only "Show hints anyway"
// asks for the rows, marking this seat for everyone and giving it the memory aid.
//
// A hint belongs to one decision: the panel closes when the table moves on (a new version),
// and the server drops an answer that comes after that.

import { language, t } from "./i18n.js";
import { saidNodes } from "./said.js";
import { el, forTheScreen, isModalOpen, isTouch, toast } from "./ui.js";

/** @typedef {import("./types/protocol").HintMessage} HintMessage */
/** @typedef {import("./types/protocol").HintLabels} HintLabels */
/** @typedef {import("./types/protocol").HintRow} HintRow */
/** @typedef {import("./types/protocol").ErrorMessage} ErrorMessage */
/** @typedef {import("./net.js").RoomConnection} RoomConnection */
/** @typedef {import("./tablepage.js").TablePage} TablePage */

/** The key that asks for a hint, or closes the panel (no other key of the table uses it). */
export const HINT_KEY = "h";

/**
 * The hint of one page: the decision it is for (the room's version), the id of the message
 * that asked for it (until its answer), the answer, and the panel drawn.
 * @typedef {{version: number, id: number | null, frame: HintMessage | null, panel: HTMLElement}} Asked
 */

/** @type {WeakMap<TablePage, Asked>} the hint open on each page */
const asked = new WeakMap();
/** @type {WeakSet<RoomConnection>} the connections whose hint answers are listened to */
const listening = new WeakSet();
/** @type {HintLabels | null} the panel's words from the last answer (shown while thinking) */
let lastLabels = null;
let keyInstalled = false;

/** Screens this wide and wider show the move log beside the table (tableshell.js): the panel
 * goes on top of it there, in view and beside the cards its rows name. */
const SIDE = window.matchMedia("(min-width: 981px)");

/**
 * Whether this page's seat may ask for a hint now: its decision, and a table where hints are
 * free (every other seat is an AI's) or allowed (made with hints).
 * @param {TablePage} page
 */
export function canHint(page) {
  const state = page.state;
  const view = state?.view;
  if (!state || !view || view.over || state.seat === null || !view.legal.length) return false;
  if (!view.actors.includes(state.seat)) return false;
  const others = state.seats.filter((_, i) => i !== state.seat);
  return others.every((s) => s.type === "ai") || Boolean(page.summary?.hints);
}

/**
 * The action bar's "Hint" button, or null when no hint may be asked for now. Draws nothing
 * else: syncHints keeps the panel in step.
 * @param {TablePage} page
 * @param {boolean} busy an action is on its way
 */
export function hintButton(page, busy) {
  installKey(page);
  if (!canHint(page)) return null;
  const open = asked.get(page);
  const thinking = Boolean(open && open.id !== null);
  return el(
    "button",
    {
      type: "button",
      class: `btn btn-hint${open ? " active" : ""}`,
      dataset: { ui: "hint" },
      disabled: busy || thinking,
      "aria-expanded": open ? "true" : "false",
      "aria-keyshortcuts": "H",
      title: forTheScreen(t("ui.hints.why")),
      onclick: () => (open && !thinking ? closeHint(page) : askHint(page)),
    },
    isTouch() ? t("ui.hints.hint") : el("span", {}, `${t("ui.hints.hint")} `, el("kbd", {}, "H")),
  );
}

/**
 * Keep the panel in step with the page's state: a hint about a decision that is gone closes.
 * @param {TablePage} page
 */
export function syncHints(page) {
  const open = asked.get(page);
  if (!open) return;
  if (page.state?.version !== open.version || !canHint(page)) closeHint(page);
  else placePanel(page, open.panel);
}

/**
 * Ask the server for the hint of this decision (`handicap`: accept being marked, at a table of
 * people). The panel opens at once, thinking, and fills when the answer comes.
 * @param {TablePage} page
 * @param {boolean} [handicap]
 */
export function askHint(page, handicap = false) {
  const state = page.state;
  const conn = page.conn;
  if (!state || !conn || !canHint(page)) return;
  const open = asked.get(page);
  if (open && open.id !== null) return; // one hint at a time
  listen(page, conn);
  const id = conn.nextId++;
  try {
    conn.sendRaw({
      type: "hint",
      room: page.room,
      token: page.held?.token,
      version: state.version,
      lang: language(),
      handicap,
      id,
    });
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), "error");
    return;
  }
  const panel = open?.panel ?? el("section", { class: "hint-panel", dataset: { ui: "hint-panel" } });
  asked.set(page, { version: state.version, id, frame: null, panel });
  drawPanel(page);
}

/**
 * Close the panel (nothing is sent: an answer still on its way is ignored).
 * @param {TablePage} page
 */
export function closeHint(page) {
  const open = asked.get(page);
  if (!open) return;
  asked.delete(page);
  open.panel.remove();
  page.render();
}

/**
 * Listen to the hint answers (and refusals) of this page's connection, once per connection.
 * @param {TablePage} page
 * @param {RoomConnection} conn
 */
function listen(page, conn) {
  if (listening.has(conn)) return;
  listening.add(conn);
  conn.on("hint", (frame) => {
    const open = asked.get(page);
    if (!open || frame.id !== open.id) return; // an answer to a hint no longer open
    lastLabels = frame.labels;
    if (frame.version !== page.state?.version) {
      closeHint(page);
      return;
    }
    open.id = null;
    open.frame = frame;
    drawPanel(page);
  });
  conn.on("error", (msg) => {
    const open = asked.get(page);
    // refused (the page shows the server's words as it shows every error): nothing to wait for
    if (open && msg.id === open.id) closeHint(page);
  });
}

/**
 * Draw the open hint's panel, above the action bar: thinking, the handicap to accept, or the
 * moves best first.
 * @param {TablePage} page
 */
function drawPanel(page) {
  const open = asked.get(page);
  if (!open) return;
  const frame = open.frame;
  const labels = frame?.labels ?? lastLabels;
  const panel = open.panel;
  const title = labels?.title ?? "";
  const close = el(
    "button",
    {
      type: "button",
      class: "btn btn-small hint-close",
      dataset: { ui: "hint-close" },
      "aria-label": labels?.close ?? "×",
      title: labels?.close ?? "",
      onclick: () => closeHint(page),
    },
    "×",
  );
  const head = el(
    "div",
    { class: "hint-head" },
    el("h2", { class: "hint-title", id: "hint-title" }, title),
    close,
  );
  panel.setAttribute("aria-labelledby", "hint-title");
  /** @type {(HTMLElement | string)[]} */
  let body;
  if (!frame) {
    panel.setAttribute("aria-busy", "true");
    body = [
      el(
        "p",
        { class: "hint-thinking", role: "status", dataset: { ui: "hint-thinking" } },
        labels?.thinking ?? "…",
      ),
    ];
  } else if (frame.handicap !== undefined) {
    panel.removeAttribute("aria-busy");
    body = [
      el("p", { class: "hint-handicap", dataset: { ui: "hint-handicap" } }, frame.handicap),
      el(
        "div",
        { class: "hint-accept" },
        el(
          "button",
          {
            type: "button",
            class: "btn btn-primary",
            dataset: { ui: "hint-accept" },
            onclick: () => askHint(page, true),
          },
          frame.labels.accept,
        ),
        el(
          "button",
          { type: "button", class: "btn", onclick: () => closeHint(page) },
          frame.labels.close,
        ),
      ),
    ];
  } else {
    panel.removeAttribute("aria-busy");
    body = [
      el("p", { class: "hint-order" }, frame.labels.order),
      el("ol", { class: "hint-rows" }, frame.rows.map((row) => hintRow(page, row, frame))),
    ];
  }
  panel.replaceChildren(head, ...body);
  placePanel(page, panel);
  page.render();
}

/**
 * Put the panel where it is read: at the top of the side column on a wide screen; else just
 * before the action bar (a sheet above the dock, dock.css).
 * @param {TablePage} page
 * @param {HTMLElement} panel
 */
function placePanel(page, panel) {
  const side = page.ui.logList.closest(".log-panel");
  if (SIDE.matches && side) {
    if (panel.parentElement !== side) side.prepend(panel);
  } else if (panel.nextElementSibling !== page.ui.bar) {
    page.ui.bar.before(panel);
  }
}

/**
 * One move of the hint: a button that plays it.
 * @param {TablePage} page
 * @param {HintRow} row
 * @param {HintMessage} frame
 */
function hintRow(page, row, frame) {
  const labels = frame.labels;
  const win = new Intl.NumberFormat(language(), { style: "percent" }).format(row.win);
  const points = new Intl.NumberFormat(language(), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(row.points);
  return el(
    "li",
    {},
    el(
      "button",
      {
        type: "button",
        class: `hint-row${row.best ? " best" : ""}`,
        dataset: { ui: "hint-row", action: row.action, best: row.best ? "1" : "" },
        title: labels.play,
        "aria-label": `${labels.play}: ${row.words}${row.best ? ` (${labels.best})` : ""}, ${win} ${labels.win}, ${points} ${labels.points}`,
        onclick: () => {
          closeHint(page);
          page.play(row.action);
        },
      },
      el(
        "span",
        { class: "hint-move" },
        row.best ? el("span", { class: "hint-best" }, `★ ${labels.best}`) : null,
        el("span", { class: "hint-words" }, saidNodes(row.words)),
      ),
      el(
        "span",
        { class: "hint-num hint-win" },
        el("strong", {}, win),
        " ",
        el("small", {}, labels.win),
      ),
      el(
        "span",
        { class: "hint-num hint-points" },
        el("strong", {}, points),
        " ",
        el("small", {}, labels.points),
      ),
    ),
  );
}

/**
 * The H key asks for a hint (or closes the panel), and Escape closes it: one listener for the
 * page, beside keyboard.js's (which leaves both keys alone); and the panel moves when the screen
 * crosses the width of the side column.
 * @param {TablePage} page
 */
function installKey(page) {
  if (keyInstalled) return;
  keyInstalled = true;
  SIDE.addEventListener("change", () => {
    const open = asked.get(page);
    if (open) placePanel(page, open.panel);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target instanceof Element ? ev.target.tagName : undefined;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const open = asked.get(page);
    if (ev.key === "Escape" && open) {
      closeHint(page);
      return;
    }
    if (ev.key.toLowerCase() !== HINT_KEY || isModalOpen()) return;
    ev.preventDefault();
    if (open && open.id === null) closeHint(page);
    else askHint(page);
  });
}
