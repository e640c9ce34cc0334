// @ts-check
// A player's profile (profile.html), /p/{name}: per game type the games played and won, the
// average round score and the rating with its interval; the rating over time, drawn here as an
// SVG from the profile's history; the recent games, with links to their replays and reviews.
// On the signed-in player's own profile also the people they played with lately, the download
// of everything kept about them, and the deletion of the account.

import {
  accountControl,
  currentPlayer,
  forgetAccount,
  onAccountChange,
  openDialog,
  profileUrl,
} from "./account.js";
import { has, language, t } from "./i18n.js";
import { api, ApiError, errorMessage } from "./net.js";
import { settingsButton } from "./settings.js";
import { byId, el, toast } from "./ui.js";
import { loadVariants, variantInfo } from "./variants.js";

/** @typedef {import("./types/protocol").AccountPlayer} AccountPlayer */
/** @typedef {import("./types/protocol").PlayedWithList} PlayedWithList */
/** @typedef {import("./types/protocol").PlayerGameStats} PlayerGameStats */
/** @typedef {import("./types/protocol").PlayerProfile} PlayerProfile */
/** @typedef {import("./types/protocol").RatingPoint} RatingPoint */
/** @typedef {import("./types/protocol").RecentGame} RecentGame */
/** @typedef {import("./types/protocol").RecentSeat} RecentSeat */

const SVG = "http://www.w3.org/2000/svg";

/** The rating a new player starts at (the chart marks it). */
const START_RATING = 1500;

/**
 * An SVG element with attributes and children.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string)} children
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/**
 * A game's title (as the server names it), else its name.
 * @param {string} game
 */
export function gameTitle(game) {
  return variantInfo(game)?.title ?? game;
}

/**
 * A day in the page's language ("3 Dec 2026").
 * @param {number} at Unix seconds
 */
export function day(at) {
  return new Date(at * 1000).toLocaleDateString(language(), {
    day: "numeric",
    month: "short",
    year: "numeric",
  });
}

/**
 * A day in few words: its year only if it is not this year's ("3 Dec", "3 Dec 2025").
 * @param {number} at Unix seconds
 */
function shortDay(at) {
  const date = new Date(at * 1000);
  return date.toLocaleDateString(language(), {
    day: "numeric",
    month: "short",
    ...(date.getFullYear() === new Date().getFullYear() ? {} : { year: "numeric" }),
  });
}

/**
 * The name of an AI level's seat in the page's language ("Expert AI").
 * @param {string | null} level
 */
export function aiName(level) {
  const key = `ui.seat.ai.${level ?? ""}`;
  return has(key) ? t(key) : t("ui.seat.ai", { level: level ?? "" });
}

/**
 * A rating with its interval, as words: "1520 (1400–1640)".
 * @param {{rating: number, low: number, high: number}} r
 */
export function ratingText(r) {
  return t("ui.profile.rating_range", {
    rating: Math.round(r.rating),
    low: Math.round(r.low),
    high: Math.round(r.high),
  });
}

// --- the chart ---------------------------------------------------------------------------------

/**
 * Round tick values covering [lo, hi]: about `count` of them, at 1, 2 or 5 times a power of ten.
 * @param {number} lo
 * @param {number} hi
 * @param {number} count
 */
function ticks(lo, hi, count) {
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(v);
  return out;
}

/**
 * The rating over time as an SVG `width` pixels wide: one step along the bottom per rated game
 * (a player's games are often minutes apart, then weeks), the interval as a band, the rating as
 * a line with a dot per game (its day and rating as its tooltip), the start rating dashed;
 * ratings up the side, the games' numbers along the bottom and, under them, the days they span.
 * @param {RatingPoint[]} points oldest first
 * @param {number} width
 * @param {string} label what the picture shows, in words (its title)
 * @returns {SVGSVGElement}
 */
export function ratingChart(points, width, label) {
  const narrow = width < 480;
  const height = narrow ? 210 : 250;
  const pad = { left: 46, right: 14, top: 22, bottom: 44 };
  const inner = { w: width - pad.left - pad.right, h: height - pad.top - pad.bottom };
  const n = points.length;
  let lo = Math.min(START_RATING, ...points.map((p) => p.low));
  let hi = Math.max(START_RATING, ...points.map((p) => p.high));
  const margin = Math.max(20, (hi - lo) * 0.08);
  lo -= margin;
  hi += margin;
  /** @param {number} i the game's index, from 0 */
  const x = (i) => pad.left + (n === 1 ? inner.w / 2 : (i / (n - 1)) * inner.w);
  /** @param {number} r */
  const y = (r) => pad.top + (1 - (r - lo) / (hi - lo)) * inner.h;
  /** @param {number} v */
  const px = (v) => v.toFixed(1);

  const grid = svg("g", { class: "chart-grid" });
  for (const v of ticks(lo, hi, narrow ? 5 : 6)) {
    grid.append(
      svg("line", { x1: pad.left, x2: width - pad.right, y1: px(y(v)), y2: px(y(v)) }),
      svg(
        "text",
        { x: pad.left - 6, y: px(y(v) + 4), "text-anchor": "end", class: "chart-text" },
        String(Math.round(v)),
      ),
    );
  }
  // the games' numbers: 1, the last, and round ones between
  const games = svg("g", { class: "chart-games" });
  const numbers = new Set([1, n]);
  if (n > 2) {
    for (const v of ticks(1, n, Math.min(n - 1, narrow ? 4 : 8))) {
      if (Number.isInteger(v) && v > 1 && v < n) numbers.add(v);
    }
  }
  const room = narrow ? 26 : 30; // the least distance between two numbers
  let last = -Infinity;
  for (const k of [...numbers].sort((a, b) => a - b)) {
    const at = x(k - 1);
    if (at - last < room && k !== n) continue;
    last = at;
    games.append(
      svg(
        "text",
        { x: px(at), y: pad.top + inner.h + 16, "text-anchor": "middle", class: "chart-text" },
        String(k),
      ),
    );
  }
  const first = shortDay(points[0].at);
  const latest = shortDay(points[n - 1].at);
  const caption = svg(
    "text",
    { x: px(pad.left + inner.w / 2), y: height - 6, "text-anchor": "middle", class: "chart-text" },
    first === latest
      ? t("ui.profile.chart_games_on", { date: first })
      : t("ui.profile.chart_games", { from: first, to: latest }),
  );
  const highs = points.map((p, i) => `${px(x(i))},${px(y(p.high))}`);
  const lows = points.map((p, i) => `${px(x(i))},${px(y(p.low))}`).reverse();
  const line = points.map((p, i) => `${i ? "L" : "M"}${px(x(i))},${px(y(p.rating))}`);
  const band =
    n === 1
      ? svg("rect", {
          class: "chart-band",
          x: px(x(0) - 6),
          width: 12,
          y: px(y(points[0].high)),
          height: px(y(points[0].low) - y(points[0].high)),
          rx: 4,
        })
      : svg("path", { class: "chart-band", d: `M${highs.join("L")}L${lows.join("L")}Z` });
  const dots = svg("g", { class: "chart-dots" });
  if (n <= 80) {
    points.forEach((p, i) => {
      dots.append(
        svg(
          "circle",
          { cx: px(x(i)), cy: px(y(p.rating)), r: 3.5 },
          svg("title", {}, `${day(p.at)}: ${ratingText(p)}`),
        ),
      );
    });
  }
  return svg(
    "svg",
    {
      class: "rating-chart",
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": label,
    },
    svg("title", {}, label),
    grid,
    svg("line", {
      class: "chart-start",
      x1: pad.left,
      x2: width - pad.right,
      y1: px(y(START_RATING)),
      y2: px(y(START_RATING)),
    }),
    band,
    svg("path", { class: "chart-line", d: n === 1 ? `${line[0]}h0.01` : line.join("") }),
    dots,
    games,
    caption,
    svg(
      "text",
      { x: pad.left, y: 13, class: "chart-text chart-axis-title" },
      t("ui.profile.chart_axis"),
    ),
  );
}

// --- the page ----------------------------------------------------------------------------------

/** The name in the address (/p/{name}), or "". */
function nameInPath() {
  const m = /^\/p\/(.+?)\/?$/.exec(location.pathname);
  if (!m) return "";
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

export class ProfilePage {
  /**
   * @param {HTMLElement} root
   * @param {string} name
   */
  constructor(root, name) {
    this.root = root;
    this.name = name;
    /** @type {PlayerProfile | null} */
    this.profile = null;
    /** @type {AccountPlayer | null} */
    this.me = null;
    /** @type {string} the game whose rating the chart shows */
    this.chartGame = "";
    /** @type {HTMLElement} */
    this.chartHost = el("div", { class: "chart-host", dataset: { ui: "rating-chart" } });
    this.chartWidth = 0;
  }

  async start() {
    byId("page-tools").replaceChildren(accountControl(), settingsButton());
    this.root.replaceChildren(el("p", { class: "muted" }, t("ui.profile.loading")));
    if (!this.name) {
      this.missing();
      return;
    }
    document.title = t("ui.profile.title", { name: this.name });
    try {
      const [profile, me] = await Promise.all([
        /** @type {Promise<PlayerProfile>} */ (
          api(`/api/players/${encodeURIComponent(this.name)}`)
        ),
        currentPlayer(),
        loadVariants(),
      ]);
      this.profile = profile;
      this.me = me;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) this.missing();
      else {
        this.root.replaceChildren(
          el(
            "p",
            { class: "error-text", role: "alert" },
            t("ui.profile.failed", { problem: errorMessage(err) }),
          ),
        );
      }
      return;
    }
    this.render();
    onAccountChange((player) => {
      this.me = player;
      this.render();
    });
    new ResizeObserver(() => {
      if (this.chartHost.clientWidth !== this.chartWidth) this.drawChart();
    }).observe(this.chartHost);
    document.body.dataset.ready = "1";
  }

  /** There is no player of that name. */
  missing() {
    document.body.dataset.ready = "1";
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel" },
        el("h1", {}, t("ui.profile.none_title")),
        el(
          "p",
          { dataset: { ui: "no-player" } },
          t("ui.profile.none", { name: this.name || "—" }),
        ),
        el("p", {}, el("a", { class: "btn btn-primary", href: "/" }, t("ui.profile.to_lobby"))),
      ),
    );
  }

  /** Whether the page shows the signed-in player's own profile. */
  own() {
    return Boolean(this.me && this.profile && this.me.name === this.profile.name);
  }

  render() {
    const profile = /** @type {PlayerProfile} */ (this.profile);
    const games = Object.keys(profile.games);
    const charted = Object.keys(profile.history ?? {}).filter(
      (g) => (profile.history[g] ?? []).length > 0,
    );
    if (!charted.includes(this.chartGame)) this.chartGame = this.latestGame(charted);
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel profile-head" },
        el(
          "h1",
          { dataset: { ui: "profile-name" } },
          profile.name,
          this.own() ? el("span", { class: "status you-tag" }, t("ui.profile.you")) : null,
        ),
        el(
          "p",
          { class: "muted" },
          profile.deleted
            ? t("ui.profile.deleted")
            : t("ui.profile.since", { date: day(profile.created) }),
        ),
        el(
          "p",
          { class: "profile-links" },
          el("a", { href: "/" }, t("ui.profile.to_lobby")),
          " · ",
          el("a", { href: "/leaderboard" }, t("ui.profile.leaderboards")),
        ),
      ),
      el(
        "section",
        { class: "panel", "aria-labelledby": "games-title" },
        el("h2", { id: "games-title" }, t("ui.profile.games")),
        games.length
          ? el("div", { class: "table-scroll" }, this.statsTable(games))
          : el("p", { class: "muted" }, t("ui.profile.no_games")),
      ),
      el(
        "section",
        { class: "panel", "aria-labelledby": "chart-title" },
        el("h2", { id: "chart-title" }, t("ui.profile.chart")),
        charted.length
          ? [
              charted.length > 1 ? this.chartPicker(charted) : null,
              this.chartHost,
              el("p", { class: "field-note" }, t("ui.profile.chart_note")),
            ]
          : el("p", { class: "muted", dataset: { ui: "no-chart" } }, t("ui.profile.no_chart")),
      ),
      el(
        "section",
        { class: "panel", "aria-labelledby": "recent-title" },
        el("h2", { id: "recent-title" }, t("ui.profile.recent")),
        profile.recent.length
          ? el(
              "ul",
              { class: "recent-list", dataset: { ui: "recent" } },
              profile.recent.map((g) => this.recentItem(g)),
            )
          : el("p", { class: "muted" }, t("ui.profile.no_recent")),
      ),
      ...(this.own() ? this.ownSections() : []),
    );
    if (charted.length) requestAnimationFrame(() => this.drawChart());
  }

  /**
   * The game whose rating changed last.
   * @param {string[]} games
   */
  latestGame(games) {
    const history = this.profile?.history ?? {};
    /** @param {string} g */
    const last = (g) => Math.max(...(history[g] ?? []).map((p) => p.at));
    return [...games].sort((a, b) => last(b) - last(a))[0] ?? "";
  }

  /** @param {string[]} games */
  statsTable(games) {
    const profile = /** @type {PlayerProfile} */ (this.profile);
    const decimal = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });
    const rows = games.map((game) => {
      const s = /** @type {PlayerGameStats} */ (profile.games[game]);
      const rating = s.rating
        ? el(
            "span",
            { class: "rating-cell" },
            el("strong", {}, String(Math.round(s.rating.rating))),
            el(
              "span",
              { class: "muted range-text" },
              t("ui.profile.range", {
                low: Math.round(s.rating.low),
                high: Math.round(s.rating.high),
              }),
            ),
          )
        : el("span", { class: "muted" }, t("ui.profile.unrated"));
      return el(
        "tr",
        { dataset: { game } },
        el("th", { scope: "row" }, el("a", { href: `/leaderboard/${game}` }, gameTitle(game))),
        el("td", { class: "num" }, String(s.played)),
        el("td", { class: "num" }, String(s.won)),
        el("td", { class: "num" }, s.avg_score === null ? "—" : decimal.format(s.avg_score)),
        el("td", { class: "num" }, rating),
      );
    });
    return el(
      "table",
      { class: "stats-table", dataset: { ui: "stats" } },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, t("ui.profile.col.game")),
          el("th", { scope: "col", class: "num" }, t("ui.profile.col.played")),
          el("th", { scope: "col", class: "num" }, t("ui.profile.col.won")),
          el(
            "th",
            { scope: "col", class: "num", title: t("ui.profile.col.avg_why") },
            t("ui.profile.col.avg"),
          ),
          el("th", { scope: "col", class: "num" }, t("ui.profile.col.rating")),
        ),
      ),
      el("tbody", {}, rows),
    );
  }

  /** @param {string[]} games */
  chartPicker(games) {
    const select = el(
      "select",
      {
        id: "chart-game",
        name: "chart-game",
        onchange: () => {
          this.chartGame = select.value;
          this.drawChart();
        },
      },
      games.map((g) => el("option", { value: g }, gameTitle(g))),
    );
    select.value = this.chartGame;
    return el(
      "div",
      { class: "field chart-picker" },
      el("label", { for: "chart-game" }, t("ui.profile.chart_game")),
      select,
    );
  }

  drawChart() {
    const points = [...(this.profile?.history?.[this.chartGame] ?? [])].sort((a, b) => a.at - b.at);
    const width = Math.floor(this.chartHost.clientWidth);
    if (!points.length || width <= 0) return;
    this.chartWidth = width;
    const last = /** @type {RatingPoint} */ (points.at(-1));
    const label = t("ui.profile.chart_label", {
      game: gameTitle(this.chartGame),
      rating: Math.round(last.rating),
    });
    this.chartHost.replaceChildren(ratingChart(points, Math.max(240, width), label));
  }

  /** @param {RecentGame} g */
  recentItem(g) {
    const me = g.players.find((p) => p.seat === g.seat);
    const others = g.players.filter((p) => p !== me);
    // the review opens on the player's own decisions
    const review = me ? `${g.review}?seat=${me.seat}` : g.review;
    return el(
      "li",
      { class: "recent-item", dataset: { room: g.room, game: String(g.game_no) } },
      el(
        "div",
        { class: "recent-main" },
        el("strong", {}, gameTitle(g.game)),
        el("span", { class: "muted" }, day(g.finished)),
        g.won
          ? el("span", { class: "status status-won" }, t("ui.profile.won"))
          : el(
              "span",
              { class: "status" },
              t("ui.profile.place", { place: g.place, count: g.players.length }),
            ),
        el("span", {}, t("ui.profile.score", {}, g.score)),
        g.rated ? null : el("span", { class: "status room-tag" }, t("ui.profile.not_rated")),
      ),
      el(
        "div",
        { class: "recent-who muted" },
        t("ui.profile.with"),
        " ",
        others.flatMap((p, i) => [i ? ", " : "", this.who(p)]),
      ),
      el(
        "div",
        { class: "recent-links" },
        el(
          "a",
          { class: "btn btn-small", href: g.replay, dataset: { ui: "replay" } },
          t("ui.profile.replay"),
        ),
        el(
          "a",
          { class: "btn btn-small", href: review, dataset: { ui: "review" } },
          t("ui.profile.review"),
        ),
      ),
    );
  }

  /**
   * Someone at a recent game: a person's name links to their profile.
   * @param {RecentSeat} p
   */
  who(p) {
    if (p.type === "ai") return aiName(p.level);
    if (!p.name) return t("ui.seat.name", { seat: p.seat });
    if (!p.account) return p.name; // a guest (or a deleted account) has no profile
    return el("a", { href: profileUrl(p.account) }, p.name);
  }

  // --- the player's own profile ------------------------------------------------------------

  ownSections() {
    const played = el("div", { class: "played-with", dataset: { ui: "played-with" } });
    this.loadPlayedWith(played);
    return [
      el(
        "section",
        { class: "panel", "aria-labelledby": "with-title" },
        el("h2", { id: "with-title" }, t("ui.profile.played_with")),
        played,
      ),
      el(
        "section",
        { class: "panel", "aria-labelledby": "data-title" },
        el("h2", { id: "data-title" }, t("ui.profile.your_data")),
        el("p", { class: "field-note" }, t("ui.profile.data_note")),
        el(
          "p",
          { class: "data-actions" },
          el(
            "a",
            {
              class: "btn",
              href: "/api/account/export",
              download: "",
              dataset: { ui: "export" },
            },
            t("ui.profile.export"),
          ),
          el(
            "button",
            {
              type: "button",
              class: "btn btn-danger",
              dataset: { ui: "delete-account" },
              onclick: () => this.askDelete(),
            },
            t("ui.profile.delete"),
          ),
        ),
      ),
    ];
  }

  /** @param {HTMLElement} host */
  async loadPlayedWith(host) {
    host.replaceChildren(el("p", { class: "muted" }, t("ui.profile.loading")));
    let list;
    try {
      list = /** @type {PlayedWithList} */ (
        await api("/api/account/played-with", { headers: { Accept: "application/json" } })
      );
    } catch (err) {
      host.replaceChildren(
        el("p", { class: "error-text" }, t("ui.profile.failed", { problem: errorMessage(err) })),
      );
      return;
    }
    const players = list.players ?? [];
    host.replaceChildren(
      players.length
        ? el(
            "ul",
            { class: "with-list" },
            players.map((p) =>
              el(
                "li",
                {},
                el("a", { href: profileUrl(p.name) }, p.name),
                el(
                  "span",
                  { class: "muted" },
                  t("ui.profile.with_games", { date: day(p.last) }, p.games),
                ),
              ),
            ),
          )
        : el("p", { class: "muted" }, t("ui.profile.with_none")),
    );
  }

  /** Ask for the password, and delete the account once it is confirmed. */
  askDelete() {
    /** @type {HTMLInputElement} */
    const password = el("input", {
      type: "password",
      id: "del-password",
      name: "password",
      required: true,
      autocomplete: "current-password",
    });
    const problem = el("p", { class: "error-text", role: "alert", hidden: true });
    const confirm = el(
      "button",
      { type: "submit", class: "btn btn-danger", dataset: { ui: "delete-confirm" } },
      t("ui.profile.delete_confirm"),
    );
    const form = el(
      "form",
      {
        class: "account-form",
        onsubmit: async (ev) => {
          ev.preventDefault();
          confirm.disabled = true;
          problem.hidden = true;
          try {
            await api("/api/account/delete", {
              method: "POST",
              body: { password: password.value },
            });
          } catch (err) {
            confirm.disabled = false;
            problem.textContent = errorMessage(err);
            problem.hidden = false;
            password.select();
            return;
          }
          dialog.close();
          forgetAccount();
          this.deleted();
        },
      },
      el("p", {}, t("ui.profile.delete_what")),
      el(
        "div",
        { class: "field" },
        el("label", { for: "del-password" }, t("ui.profile.delete_password")),
        password,
      ),
      problem,
      el(
        "div",
        { class: "dialog-buttons" },
        confirm,
        el(
          "button",
          { type: "button", class: "btn", onclick: () => dialog.close() },
          t("ui.profile.delete_cancel"),
        ),
      ),
    );
    /** @type {HTMLDialogElement} */
    const dialog = openDialog(t("ui.profile.delete_title"), [form], {
      className: "delete-dialog",
      ui: "delete-dialog",
    });
    password.focus();
  }

  /** The account is gone: say so, and lead back to the lobby. */
  deleted() {
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel", dataset: { ui: "account-deleted" } },
        el("h1", {}, t("ui.profile.deleted_title")),
        el("p", {}, t("ui.profile.deleted_done")),
        el("p", {}, el("a", { class: "btn btn-primary", href: "/" }, t("ui.profile.to_lobby"))),
      ),
    );
    toast(t("ui.profile.deleted_title"));
  }
}

/** Anything that goes wrong in the page is shown, not swallowed (as app.js does). */
export function showClientErrors() {
  window.addEventListener("error", (ev) =>
    toast(t("ui.app.client_error", { problem: ev.message }), "error"),
  );
  window.addEventListener("unhandledrejection", (ev) =>
    toast(t("ui.app.client_error", { problem: ev.reason?.message ?? ev.reason }), "error"),
  );
}

if (document.body.dataset.page === "profile") {
  showClientErrors();
  new ProfilePage(byId("app"), nameInPath()).start();
}
