// @ts-check
// The leaderboards (leaderboard.html), /leaderboard/{game} (/leaderboard: the first game): the
// people rated in one game type, best first, with the interval of each rating and the rated
// games it rests on; the AI levels placed among them on the same scale. A game is chosen above
// the table; a person who has not played enough rated games is not listed yet.

import { accountControl, currentPlayer, profileUrl } from "./account.js";
import { t } from "./i18n.js";
import { api, ApiError, errorMessage } from "./net.js";
import { aiName, gameTitle, showClientErrors } from "./profile.js";
import { settingsButton } from "./settings.js";
import { byId, el } from "./ui.js";
import { loadVariants } from "./variants.js";

/** @typedef {import("./types/protocol").AccountPlayer} AccountPlayer */
/** @typedef {import("./types/protocol").Leaderboard} Leaderboard */
/** @typedef {import("./types/protocol").LeaderboardEntry} LeaderboardEntry */
/** @typedef {import("./types/protocol").LeaderboardLevel} LeaderboardLevel */
/** @typedef {import("./types/protocol").VariantInfo} VariantInfo */

/**
 * A row of the board: a person, or an AI level on the same scale.
 * @typedef {{kind: "player", entry: LeaderboardEntry} | {kind: "level", entry: LeaderboardLevel}} Row
 */

/** The game in the address (/leaderboard/{game}), or "". */
function gameInPath() {
  const m = /^\/leaderboard\/([^/]+)\/?$/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]) : "";
}

export class LeaderboardPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {VariantInfo[]} */
    this.variants = [];
    /** @type {AccountPlayer | null} */
    this.me = null;
    this.game = "";
    /** @type {HTMLSelectElement} */
    this.select = el("select", {
      id: "board-game",
      name: "game",
      dataset: { ui: "board-game" },
      onchange: () => this.choose(this.select.value),
    });
    this.heading = el("h1", { id: "board-title" });
    this.board = el("div", { class: "board-host", "aria-live": "polite" });
  }

  async start() {
    byId("page-tools").replaceChildren(accountControl(), settingsButton());
    this.root.replaceChildren(el("p", { class: "muted" }, t("ui.leaderboard.loading")));
    try {
      [this.variants, this.me] = await Promise.all([loadVariants(), currentPlayer()]);
    } catch (err) {
      this.root.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          t("ui.leaderboard.failed", { problem: errorMessage(err) }),
        ),
      );
      return;
    }
    this.select.replaceChildren(
      ...this.variants.map((v) => el("option", { value: v.name }, v.title ?? v.name)),
    );
    const asked = gameInPath();
    this.game = this.variants.some((v) => v.name === asked) ? asked : (this.variants[0]?.name ?? "");
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel board", "aria-labelledby": "board-title" },
        this.heading,
        el(
          "div",
          { class: "field board-picker" },
          el("label", { for: "board-game" }, t("ui.leaderboard.game")),
          this.select,
        ),
        el("p", { class: "field-note" }, t("ui.leaderboard.about")),
        this.board,
        el(
          "p",
          { class: "profile-links" },
          el("a", { href: "/" }, t("ui.profile.to_lobby")),
          this.me
            ? [" · ", el("a", { href: profileUrl(this.me.name) }, t("ui.leaderboard.my_profile"))]
            : null,
        ),
      ),
    );
    window.addEventListener("popstate", () => {
      const game = gameInPath();
      if (game && game !== this.game) this.show(game);
    });
    await this.show(this.game);
    if (asked && asked !== this.game) {
      history.replaceState(null, "", `/leaderboard/${encodeURIComponent(this.game)}`);
    }
  }

  /**
   * Show another game's board, and put it in the address.
   * @param {string} game
   */
  choose(game) {
    history.pushState(null, "", `/leaderboard/${encodeURIComponent(game)}`);
    this.show(game);
  }

  /** @param {string} game */
  async show(game) {
    this.game = game;
    this.select.value = game;
    const title = gameTitle(game);
    this.heading.textContent = t("ui.leaderboard.title", { game: title });
    document.title = t("ui.leaderboard.page_game", { game: title });
    document.body.dataset.ready = "";
    /** @type {Leaderboard} */
    let data;
    try {
      data = /** @type {Leaderboard} */ (
        await api(`/api/leaderboard/${encodeURIComponent(game)}`)
      );
    } catch (err) {
      if (this.game !== game) return;
      this.board.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          err instanceof ApiError && err.status === 404
            ? t("ui.leaderboard.no_board", { game: title })
            : t("ui.leaderboard.failed", { problem: errorMessage(err) }),
        ),
      );
      document.body.dataset.ready = "1";
      return;
    }
    if (this.game !== game) return; // another game was chosen meanwhile
    this.board.replaceChildren(...this.draw(data, title));
    document.body.dataset.ready = "1";
  }

  /**
   * The board's table (people and levels by rating), or the words for an empty board.
   * @param {Leaderboard} data
   * @param {string} title
   * @returns {Node[]}
   */
  draw(data, title) {
    /** @type {Row[]} */
    const rows = [
      ...data.players.map((entry) => /** @type {Row} */ ({ kind: "player", entry })),
      ...data.levels.map((entry) => /** @type {Row} */ ({ kind: "level", entry })),
    ].sort((a, b) => b.entry.rating - a.entry.rating);
    const empty = data.players.length
      ? null
      : el(
          "p",
          { class: "board-empty", dataset: { ui: "board-empty" } },
          t("ui.leaderboard.empty", { game: title }, data.min_games),
        );
    if (!rows.length) return empty ? [empty] : [];
    const lo = Math.min(...rows.map((r) => r.entry.low));
    const hi = Math.max(...rows.map((r) => r.entry.high));
    /** @param {number} v */
    const at = (v) => `${(((v - lo) / Math.max(1, hi - lo)) * 100).toFixed(1)}%`;
    const table = el(
      "table",
      { class: "board-table", dataset: { ui: "board" } },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", class: "num" }, t("ui.leaderboard.col.rank")),
          el("th", { scope: "col" }, t("ui.leaderboard.col.player")),
          el("th", { scope: "col", class: "num" }, t("ui.leaderboard.col.rating")),
          el("th", { scope: "col", class: "range-col" }, t("ui.leaderboard.col.range")),
          el("th", { scope: "col", class: "num" }, t("ui.leaderboard.col.games")),
        ),
      ),
      el(
        "tbody",
        {},
        rows.map((row) => {
          const r = row.entry;
          const bar = el(
            "span",
            {
              class: "range-bar",
              "aria-hidden": "true",
              style: { "--lo": at(r.low), "--hi": at(r.high), "--at": at(r.rating) },
            },
            el("span", { class: "range-fill" }),
            el("span", { class: "range-dot" }),
          );
          const range = el(
            "td",
            { class: "range-col" },
            bar,
            el(
              "span",
              { class: "range-text" },
              t("ui.profile.range", { low: Math.round(r.low), high: Math.round(r.high) }),
            ),
          );
          if (row.kind === "level") {
            return el(
              "tr",
              { class: "level-row", dataset: { level: row.entry.level } },
              el("td", { class: "num" }),
              el("td", { class: "level-name" }, aiName(row.entry.level)),
              el("td", { class: "num" }, String(Math.round(r.rating))),
              range,
              el("td", { class: "num muted" }, "—"),
            );
          }
          const p = row.entry;
          const mine = this.me?.name === p.name;
          return el(
            "tr",
            { class: mine ? "player-row me" : "player-row", dataset: { player: p.name } },
            el("td", { class: "num" }, String(p.rank)),
            el(
              "td",
              {},
              el("a", { href: profileUrl(p.name) }, p.name),
              mine ? el("span", { class: "status you-tag" }, t("ui.profile.you")) : null,
            ),
            el("td", { class: "num" }, el("strong", {}, String(Math.round(p.rating)))),
            range,
            el("td", { class: "num" }, String(p.games)),
          );
        }),
      ),
    );
    return [
      ...(empty ? [empty] : []),
      el("div", { class: "board-scroll" }, table),
      el(
        "p",
        { class: "field-note" },
        t("ui.leaderboard.listed", {}, data.min_games),
      ),
    ];
  }
}

if (document.body.dataset.page === "leaderboard") {
  showClientErrors();
  new LeaderboardPage(byId("app")).start();
}
