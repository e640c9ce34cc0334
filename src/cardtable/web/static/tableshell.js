// @ts-check
// The fixed parts of the live table page: the page tools (connection, rules, help, settings,
// sound), the room bar with the invite link, the banners, the status row and the hosts the
// table, the action bar, the end panel and the move log are drawn into; and what they show of
// the connection and of problems.

import { t } from "./i18n.js";
import { getPref } from "./prefs.js";
import { atEnd, byId, copyText, el, toast } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */
/** @typedef {import("./types/protocol").StatusDetail} StatusDetail */

/**
 * The elements of the table page that change.
 * @typedef {object} TableShell
 * @property {HTMLInputElement} inviteInput the invite link
 * @property {HTMLSpanElement} connDot the connection's state, in the page tools
 * @property {HTMLButtonElement} soundBtn
 * @property {HTMLHeadingElement} titleEl
 * @property {HTMLSpanElement} formatEl one round, or a match to N
 * @property {HTMLDivElement} banner choices and problems (a free seat, a bad token …)
 * @property {HTMLDivElement} connBanner a lost connection
 * @property {HTMLParagraphElement} statusEl what is going on
 * @property {HTMLParagraphElement} hintEl the memory hint of a seat without memory aid
 * @property {HTMLDivElement} windowEl the countdown of a timed window
 * @property {HTMLDivElement} tableHost
 * @property {HTMLDivElement} bar the action bar
 * @property {HTMLDivElement} endHost the end panel
 * @property {HTMLDivElement} chatHost the chat, under the action bar (tables with people)
 * @property {HTMLOListElement} logList the move log, newest at the bottom
 * @property {HTMLElement} logPanel the move log's panel (beside the table; a drawer on phones)
 * @property {HTMLButtonElement} logToggle opens and closes the drawer on phones
 * @property {HTMLDivElement} announcer read out by screen readers: each move as it happens
 */

/**
 * Build the page around the table into `page.root` and the page tools; returns its parts.
 * @param {TablePage} page
 * @returns {TableShell}
 */
export function buildShell(page) {
  const room = page.room;
  const invite = `${location.origin}/r/${room}`;
  /** @type {HTMLInputElement} */
  const inviteInput = el("input", {
    class: "invite-input",
    value: invite,
    readonly: true,
    "aria-label": t("ui.shell.invite_link"),
    onfocus: () => inviteInput.select(),
  });
  const copyBtn = el(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      dataset: { ui: "copy-invite" },
      onclick: async () => {
        const ok = await copyText(invite, inviteInput);
        toast(ok ? t("ui.shell.copied") : t("ui.shell.copy_yourself"), ok ? "info" : "error");
      },
    },
    t("ui.shell.copy"),
  );
  const connDot = el(
    "span",
    { class: "conn", role: "status", "aria-live": "polite" },
    el("span", { class: "conn-text" }, t("ui.shell.conn.connecting")),
  );
  const soundBtn = el("button", {
    type: "button",
    class: "btn btn-toggle",
    dataset: { ui: "sound" },
    onclick: () => page.toggle("sound"),
  });
  showSound(soundBtn);
  byId("page-tools").replaceChildren(
    connDot,
    el(
      "button",
      { type: "button", class: "btn", dataset: { ui: "rules" }, onclick: () => page.openRules() },
      t("ui.lobby.rules"),
    ),
    el(
      "button",
      {
        type: "button",
        class: "btn",
        dataset: { ui: "help" },
        "aria-label": t("ui.keyboard.title"),
        onclick: () => page.openHelp(),
      },
      "?",
    ),
    el(
      "button",
      {
        type: "button",
        class: "btn",
        dataset: { ui: "settings" },
        onclick: () => page.openSettings(),
      },
      t("ui.settings.button"),
    ),
    soundBtn,
  );
  const logList = el("ol", { class: "log-list", dataset: { ui: "log" } });
  const logToggle = el(
    "button",
    {
      type: "button",
      class: "btn btn-small log-toggle",
      dataset: { ui: "log-toggle" },
      "aria-controls": "moves",
      "aria-expanded": "false",
      onclick: () => setDrawer(shell, logPanel.dataset.open !== "1"),
    },
    t("ui.shell.moves"),
  );
  const logPanel = el(
    "aside",
    { class: "log-panel", id: "moves", "aria-labelledby": "moves-title", dataset: { ui: "log-panel" } },
    el(
      "div",
      { class: "log-head" },
      el("h2", { class: "log-title", id: "moves-title" }, t("ui.shell.moves")),
      el(
        "button",
        {
          type: "button",
          class: "btn btn-small log-close",
          "aria-label": t("ui.shell.close_moves"),
          onclick: () => setDrawer(shell, false),
        },
        "×",
      ),
    ),
    logList,
  );
  /** @type {TableShell} */
  const shell = {
    inviteInput,
    connDot,
    soundBtn,
    titleEl: el("h1", { class: "room-title" }, t("ui.shell.room", { room })),
    formatEl: el("span", { class: "room-format", dataset: { ui: "room-format" } }),
    banner: el("div", { class: "banner-area" }),
    connBanner: el("div", { class: "banner-area" }),
    statusEl: el("p", { class: "status-line", role: "status", "aria-live": "polite" }),
    hintEl: el("p", { class: "reveal-hint", dataset: { ui: "reveal-hint" }, hidden: true }),
    windowEl: el("div", { class: "window-countdown", hidden: true }),
    tableHost: el("div", { class: "table-host" }),
    bar: el("div", {
      class: "action-bar",
      role: "toolbar",
      "aria-label": t("ui.shell.actions"),
      hidden: true,
    }),
    endHost: el("div", { class: "end-host" }),
    chatHost: el("div", { class: "chat-host" }),
    logList,
    logPanel,
    logToggle,
    announcer: el("div", {
      class: "sr-only",
      role: "log",
      "aria-live": "polite",
      dataset: { ui: "announcer" },
    }),
  };
  page.root.replaceChildren(
    el(
      "div",
      { class: "room-bar" },
      el("div", { class: "room-head" }, shell.titleEl, shell.formatEl),
      el(
        "div",
        { class: "invite" },
        el("span", { class: "invite-label" }, t("ui.shell.invite")),
        inviteInput,
        copyBtn,
      ),
      el("a", { class: "btn btn-small", href: `/r/${room}/history` }, t("ui.shell.history")),
      logToggle,
    ),
    shell.banner,
    shell.connBanner,
    el(
      "div",
      { class: "table-layout" },
      el(
        "div",
        { class: "table-main" },
        shell.endHost,
        el("div", { class: "status-row" }, shell.statusEl, shell.windowEl, shell.hintEl),
        shell.tableHost,
        shell.bar,
        shell.chatHost,
      ),
      logPanel,
    ),
    shell.announcer,
  );
  fitLogPanel(logPanel);
  return shell;
}

/** Screens this wide and wider show the move log beside the table (narrower: a drawer). */
const SIDE_LOG = window.matchMedia("(min-width: 981px)");

/**
 * Keep the move log beside the table inside the window, from wherever its top lies now to the
 * window's bottom, so that its newest lines (at the bottom) are never below the fold; the
 * drawer of narrow screens is the window's height anyway.
 * @param {HTMLElement} panel
 */
function fitLogPanel(panel) {
  const fit = () => {
    if (!SIDE_LOG.matches) {
      panel.style.maxHeight = "";
      return;
    }
    const top = Math.max(8, panel.getBoundingClientRect().top);
    const height = `${Math.max(200, window.innerHeight - top - 12)}px`;
    if (panel.style.maxHeight === height) return;
    const list = panel.querySelector(".log-list");
    const atBottom = list !== null && atEnd(list);
    panel.style.maxHeight = height;
    if (list && atBottom) list.scrollTop = list.scrollHeight; // the newest line stays in view
  };
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit();
    });
  };
  window.addEventListener("scroll", later, { passive: true });
  window.addEventListener("resize", later);
  SIDE_LOG.addEventListener("change", later);
  new ResizeObserver(later).observe(document.body);
  later();
}

/**
 * Open or close the move log's drawer (on wide screens the log is always beside the table).
 * @param {TableShell} shell
 * @param {boolean} open
 */
export function setDrawer(shell, open) {
  shell.logPanel.dataset.open = open ? "1" : "";
  shell.logToggle.setAttribute("aria-expanded", String(open));
  if (open) shell.logList.lastElementChild?.scrollIntoView({ block: "nearest" });
}

/**
 * The sound button says whether sound is on.
 * @param {HTMLButtonElement} button
 */
export function showSound(button) {
  const snd = getPref("sound");
  button.textContent = snd ? t("ui.shell.sound_on") : t("ui.shell.sound_off");
  button.setAttribute("aria-pressed", String(snd));
}

/**
 * A problem that stops the page (no such room …), with the way back to the lobby.
 * @param {TableShell} shell
 * @param {string} message
 */
export function showProblem(shell, message) {
  shell.banner.replaceChildren(
    el(
      "div",
      { class: "banner banner-error", role: "alert" },
      message,
      " ",
      el("a", { href: "/" }, t("ui.shell.back_to_lobby")),
    ),
  );
}

/**
 * Show the connection's state: the dot in the page tools and, while it is lost, a banner above
 * the table with a way to retry at once.
 * @param {TableShell} shell
 * @param {StatusDetail} detail
 * @param {() => void} retryNow
 */
export function showConnection(shell, { status, retryIn }, retryNow) {
  document.body.dataset.conn = status;
  const seconds = Math.round((retryIn ?? 0) / 1000);
  const text = t(`ui.shell.conn.${status}`, { seconds });
  shell.connDot.className = `conn conn-${status}`;
  shell.connDot.title = text;
  shell.connDot.replaceChildren(el("span", { class: "conn-text" }, text));
  // A lost connection also gets a banner above the table, with a way to retry at once.
  if (status === "waiting") {
    const retry = el(
      "button",
      {
        type: "button",
        class: "btn btn-small",
        dataset: { ui: "retry" },
        onclick: retryNow,
      },
      t("ui.shell.retry"),
    );
    shell.connBanner.replaceChildren(
      el(
        "div",
        { class: "banner banner-error", role: "alert", dataset: { ui: "offline" } },
        `${t("ui.shell.lost", { seconds })} `,
        retry,
      ),
    );
  } else if (status === "open") {
    shell.connBanner.replaceChildren();
  }
}
