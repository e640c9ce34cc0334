// @ts-check
// Drawing a game view (RULES.md §5) as a table: the viewer's hand at the bottom, the other
// seats around it, the piles in the middle. Used by the live table and by the replay, which
// passes a spectator view and no click handlers.

import { aidBadge } from "./cardview.js";
import { familyCenter, familyHand, familyInfo, seenLegend } from "./familytable.js";
import { quteCenter, quteHand, quteInfo, quteSortControl } from "./qutetable.js";
import { has, t } from "./i18n.js";
import { el } from "./ui.js";
import { callName, isSheddingView, variantInfo } from "./variants.js";

// Other modules take these from here, where the table is drawn.
export { AID_TEXT, aidBadge, cardElement, initials, SEEN_TEXT, seenMarks } from "./cardview.js";
export { renderResults } from "./results.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./types/view").FamilyView} FamilyView */
/** @typedef {import("./types/view").QuteView} QuteView */
/** @typedef {import("./types/protocol").SeatInfo} SeatInfo */
/** @typedef {import("./types/protocol").RoomOptions} RoomOptions */

/**
 * A seat's display name (seatName over the seats of a room or state).
 * @typedef {(seat: number) => string} Names
 */

/**
 * What renderTable draws besides the view: the viewer (null: a spectator), the seats, the names,
 * the cards shown for a moment (address → code), the targets that may be clicked next and the
 * selection, which piles play an action, whether cards are buttons, whether the table is live
 * (online dots), the seat that acted last; `powers` and `marks` (the unusual card values drawn as
 * badges) are added by renderTable.
 * @typedef {{
 *   viewer: number | null,
 *   seats?: SeatInfo[],
 *   names: Names,
 *   revealed?: Map<string, string>,
 *   targets?: Set<string>,
 *   selection?: string[],
 *   piles?: {deck: boolean, discard: boolean},
 *   interactive?: boolean,
 *   live?: boolean,
 *   lastActor?: number | null,
 *   powers?: Record<string, string> | null,
 *   marks?: Record<string, number> | null,
 * }} TableCtx
 */

/**
 * A room's length from its options: "One round" or "Match to N".
 * @param {RoomOptions | null | undefined} options
 */
export function matchFormat(options) {
  const target = options?.target;
  return target === null || target === undefined
    ? t("ui.table.one_round")
    : t("ui.table.match_to", { target });
}

/**
 * The name of an AI seat of `level` in the page's language ("Casual AI", "Hobby-KI"),
 * as the server names it in its words (web/said.py).
 * @param {string} level
 */
export function aiLabel(level) {
  const key = `ui.seat.ai.${level}`;
  if (has(key)) return t(key);
  return t("ui.seat.ai", { level: level ? level[0].toUpperCase() + level.slice(1) : "" });
}

/**
 * An AI level in words ("casual", "Hobby"); the level itself if it has none.
 * @param {string} level
 */
export function levelName(level) {
  const key = `ui.level.${level}`;
  return has(key) ? t(key) : level;
}

/**
 * Display name of seat `i`: its player's name, an AI level, or "Seat i" (the server names an AI
 * seat with its English label, "Casual AI": that one is said in the page's language).
 * @param {SeatInfo[] | null | undefined} seats
 * @param {number} i
 * @returns {string}
 */
export function seatName(seats, i) {
  /** @param {number} k */
  const base = (k) => {
    const s = seats?.[k];
    const level = s?.level ?? "";
    const own = `${level ? level[0].toUpperCase() + level.slice(1) : ""} AI`;
    if (s?.type === "ai" && (!s.name || s.name === own)) return aiLabel(level);
    if (s?.name) return s.name;
    return t("ui.seat.name", { seat: k });
  };
  const name = base(i);
  // Two seats with one name (two "Casual AI"s): add the seat number to tell them apart.
  const twins = (seats ?? []).some((_, k) => k !== i && base(k) === name);
  return twins ? `${name} ${i}` : name;
}

// Order seats around the table from the viewer's point of view: the viewer at the bottom,
// then the others in turn order, from the left over the top to the right.
/**
 * @param {number} players
 * @param {number | null} viewer
 */
function placeSeats(players, viewer) {
  const first = viewer ?? 0;
  /** @type {number[]} */
  const others = [];
  for (let k = 1; k < players; k += 1) others.push((first + k) % players);
  /** @type {{left: number[], top: number[], right: number[]}} */
  const places = { left: [], top: [], right: [] };
  if (others.length === 1) places.top = others;
  else if (others.length === 2) [places.left, places.right] = [[others[0]], [others[1]]];
  else {
    // Left and right take one seat each (two each beyond six players), the top the rest.
    const side = others.length > 5 ? 2 : 1;
    places.left = others.slice(0, side);
    places.right = others.slice(-side);
    places.top = others.slice(side, others.length - side);
  }
  return { me: first, places };
}

// --- a seat ------------------------------------------------------------------------------------

/**
 * @param {View} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
function seatHeader(view, seat, ctx) {
  const info = ctx.seats?.[seat];
  const badges = [];
  if (!isSheddingView(view)) {
    if (view.caller === seat)
      badges.push(
        el("span", { class: "badge badge-call" }, callName(view.call) || t("ui.table.called")),
      );
    if (view.drawer === seat && !view.over)
      badges.push(el("span", { class: "badge" }, t("ui.table.holds_card")));
  } else if (view.counts) {
    const n = view.counts[seat];
    badges.push(el("span", { class: "badge badge-count" }, t("ui.table.cards", {}, n)));
    // The viewer's own cards, face up: sorted as they choose.
    if (seat === ctx.viewer && (view.hands[seat] ?? []).some((slot) => slot?.card))
      badges.push(quteSortControl(view, seat, ctx));
  }
  if (info?.memory_aid || info?.hints) badges.push(aidBadge(info));
  if (info && ctx.live && info.stand_in)
    badges.push(
      el(
        "span",
        { class: "badge badge-away", title: t("ui.table.stand_in_why") },
        t("ui.table.stand_in", { level: levelName(info.stand_in) }),
      ),
    );
  else if (info && ctx.live && info.away)
    badges.push(
      el("span", { class: "badge badge-away", title: t("ui.table.away_why") }, t("ui.table.away")),
    );
  // Online dots only at a live table (a replay's seats are not connected to anything).
  const online =
    info && ctx.live ? (info.type === "ai" ? "ai" : info.online ? "online" : "offline") : null;
  return el(
    "div",
    { class: "seat-head" },
    online
      ? el("span", {
          class: `dot dot-${online}`,
          title: t(`ui.table.dot.${online}`),
          "aria-label": online === "ai" ? t("ui.table.computer") : t(`ui.table.dot.${online}`),
          role: "img",
        })
      : null,
    el(
      "span",
      { class: "seat-name" },
      ctx.names(seat),
      seat === ctx.viewer ? ` ${t("ui.table.you_mark")}` : "",
    ),
    el(
      "span",
      { class: "seat-total", title: t("ui.table.total") },
      String(view.totals?.[seat] ?? 0),
    ),
    badges,
  );
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {TableCtx} ctx
 * @param {HTMLElement} body
 */
function seatPanel(view, seat, ctx, body) {
  const classes = ["seat"];
  if (!view.over && view.actors.includes(seat)) classes.push("to-act");
  if (seat === ctx.viewer) classes.push("seat-me");
  if (ctx.lastActor === seat) classes.push("last-actor");
  return el(
    "section",
    {
      class: classes.join(" "),
      dataset: { seat: String(seat) },
      "aria-label":
        view.actors.includes(seat) && !view.over
          ? t("ui.table.seat_to_play", { who: ctx.names(seat) })
          : ctx.names(seat),
    },
    seatHeader(view, seat, ctx),
    body,
  );
}

// --- the whole table ---------------------------------------------------------------------------

/**
 * Render `view` as a table element.
 * ctx: {viewer, seats, names, revealed (Map address -> code of cards seen a moment ago),
 *       targets, selection, piles, interactive, live, lastActor}
 * @param {View} view
 * @param {TableCtx} tableCtx
 * @returns {HTMLElement}
 */
export function renderTable(view, tableCtx) {
  const info = variantInfo(view.game);
  const ctx = { ...tableCtx, powers: info?.powers ?? null, marks: info?.value_marks ?? null };
  const qute = isSheddingView(view);
  /** @type {(seat: number) => HTMLElement} */
  const hand = isSheddingView(view)
    ? (seat) => quteHand(view, seat, ctx)
    : (seat) => familyHand(view, seat, ctx);
  const { me, places } = placeSeats(view.players, ctx.viewer);
  /**
   * @param {string} name
   * @param {number[]} seats
   */
  const area = (name, seats) =>
    el(
      "div",
      { class: `area area-${name}` },
      seats.map((s) => seatPanel(view, s, ctx, hand(s))),
    );
  // The field (the other seats around the piles) above the viewer's own seat: apart, so that
  // the own seat can stay in view while a tall field scrolls (dock.css).
  return el(
    "div",
    {
      class: `table game-${view.game} players-${view.players}`,
      dataset: { game: view.game },
    },
    el(
      "div",
      { class: "table-field" },
      area("left", places.left),
      area("top", places.top),
      area("right", places.right),
      el(
        "div",
        { class: "area area-center" },
        qute ? quteCenter(view, ctx) : familyCenter(view, ctx),
        qute ? quteInfo(view, ctx) : familyInfo(view, ctx),
        qute ? null : seenLegend(view, ctx),
      ),
    ),
    el("div", { class: "area area-me" }, seatPanel(view, me, ctx, hand(me))),
  );
}

