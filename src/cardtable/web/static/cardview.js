// @ts-check
// The pieces a table is drawn from: one card (face, back, marks of a target or a selection), an
// empty position that keeps a hand's shape, the seen-by markers under a card, the memory-aid
// badge, and a pile (deck, discard, blind, stack) that may be clicked.

import { cardBack, cardFace, cardName, cardShort, valueText } from "./cards.js";
import { t } from "./i18n.js";
import { el, isTouch } from "./ui.js";

/** @typedef {(seat: number) => string} Names */
/** @typedef {import("./table.js").TableCtx} TableCtx */

/**
 * What cardElement draws: the code (null: unknown), face up or down, the address, a label for
 * screen readers, and the marks of a target, a selection, a known or revealed card; `extra` is
 * one more class, `powers` the power words printed on numbered cards, `marks` the game's unusual
 * card values (card code → points, /api/variants' value_marks) drawn as a badge on the face.
 * (Who has seen a card is drawn under it by seenMarks.)
 * @typedef {{
 *   code?: string | null,
 *   faceUp?: boolean,
 *   addr?: string,
 *   dataCard?: string,
 *   label?: string,
 *   legal?: boolean,
 *   selected?: boolean,
 *   known?: boolean,
 *   revealed?: boolean,
 *   interactive?: boolean,
 *   size?: "sm" | "md" | "lg",
 *   extra?: string,
 *   powers?: Record<string, string> | null,
 *   marks?: Record<string, number> | null,
 * }} CardOpts
 */

/** What the memory-aid badge means, for its tooltip and screen readers. */
export const AID_TEXT = t("ui.cardview.aid_text");

/** What the hints badge means: a person who asked for hints at a table of people. */
export const HINTS_TEXT = t("ui.cardview.hints_text");

/**
 * The badge shown by the name of a seat that has the memory aid — or, for a person who asked
 * for hints at a table of people (`info.hints`, which brings the memory aid with it), the
 * hints badge instead.
 * @param {{hints?: boolean} | null} [info] the seat, as the server describes it
 */
export function aidBadge(info = null) {
  if (info?.hints) {
    return el(
      "span",
      { class: "badge badge-hints", title: HINTS_TEXT, dataset: { ui: "hints-badge" } },
      el("span", { "aria-hidden": "true" }, t("ui.cardview.hints")),
      el("span", { class: "sr-only" }, HINTS_TEXT),
    );
  }
  return el(
    "span",
    { class: "badge badge-aid", title: AID_TEXT, dataset: { ui: "aid-badge" } },
    el("span", { "aria-hidden": "true" }, t("ui.cardview.aid")),
    el("span", { class: "sr-only" }, AID_TEXT),
  );
}

/**
 * One card element.
 * opts: {code, faceUp, addr, label, legal, selected, known, revealed, interactive, size,
 *        extra, powers (card code → power word printed on numbered cards), marks (card code →
 *        points, for the cards whose value is unusual: a badge on the face, said in the label)}
 * @param {CardOpts} opts
 * @returns {HTMLElement}
 */
export function cardElement(opts) {
  const { faceUp, addr, interactive } = opts;
  // The code, when the card is drawn face up.
  const code = opts.code && faceUp ? opts.code : null;
  const showFace = code !== null;
  const classes = ["card", showFace ? "face-up" : "face-down"];
  if (opts.size) classes.push(`card-${opts.size}`);
  if (opts.legal) classes.push("legal");
  if (opts.selected) classes.push("selected");
  if (opts.known && showFace) classes.push("known");
  if (opts.revealed && showFace) classes.push("revealed");
  if (opts.extra) classes.push(opts.extra);
  const where = opts.label ?? "";
  const mark = showFace ? (opts.marks?.[code] ?? null) : null;
  const worth = mark === null ? "" : t("ui.cardview.worth", { points: valueText(mark) });
  const turn = isTouch() ? t("ui.cardview.revealed_tap") : t("ui.cardview.revealed_click");
  const label = showFace
    ? `${cardName(code)}${worth}${where ? `, ${where}` : ""}${opts.revealed ? turn : ""}`
    : `${t("ui.cardview.face_down")}${where ? `, ${where}` : ""}`;
  /** @type {Record<string, string>} */
  const dataset = {};
  const attrs = {
    class: classes.join(" "),
    "aria-label": label + (opts.selected ? t("ui.cardview.selected") : ""),
    dataset,
    title: showFace ? `${cardShort(code)}${worth}` : undefined,
  };
  if (addr) attrs.dataset.addr = addr;
  if (opts.dataCard) attrs.dataset.card = opts.dataCard;
  if (showFace) attrs.dataset.face = code;
  const node = interactive
    ? el("button", { ...attrs, type: "button", "aria-pressed": opts.selected ? "true" : "false" })
    : el("div", { ...attrs, role: "img" });
  node.append(showFace ? cardFace(code, opts.powers, mark) : cardBack());
  if (mark !== null) node.dataset.value = String(mark);
  if (opts.known && showFace)
    node.append(el("span", { class: "known-mark", "aria-hidden": "true" }));
  return node;
}

/** What the seen-by markers mean, for the legend by the table. */
export const SEEN_TEXT = t("ui.cardview.seen_text");

/**
 * Short initials of a name for a seen-by marker: "Ann" → "A", "Bob Lee" → "BL",
 * "Casual AI 2" → "C2" (a trailing number is kept whole).
 * @param {string} name
 */
export function initials(name) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const last = words.at(-1) ?? "";
  if (words.length > 1 && /^\d+$/.test(last)) return words[0][0].toUpperCase() + last;
  return words
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join("");
}

/**
 * Initials for each seat, told apart by the seat number where two would be the same.
 * @param {number} players
 * @param {Names} names
 * @returns {string[]}
 */
export function seatInitials(players, names) {
  const all = [...Array(players).keys()].map((s) => initials(names(s)));
  return all.map((short, s) =>
    all.some((o, k) => k !== s && o === short) ? `${short}${s}` : short,
  );
}

/** How many seen-by markers a card shows on a phone before "+N". */
const SEEN_SHOWN = 2;

/**
 * The row of markers drawn under a card: one per seat that has seen it, its initials shown and
 * its full name as the tooltip and the spoken label.
 * @param {number[]} seats
 * @param {Names} names
 * @param {string[]} short initials by seat
 */
export function seenMarks(seats, names, short) {
  const who = seats.map((s) => names(s));
  return el(
    "div",
    {
      class: "seen-by",
      role: "group",
      "aria-label": t("ui.cardview.seen_by", { who: who.join(", ") }),
      dataset: { ui: "seen-by" },
    },
    seats.map((s, k) =>
      el(
        "span",
        {
          class: "seen-dot",
          role: "img",
          title: t("ui.cardview.seen_by", { who: who[k] }),
          "aria-label": t("ui.cardview.seen_by", { who: who[k] }),
          dataset: { seat: String(s) },
        },
        short[s] ?? String(s),
      ),
    ),
    // On a phone only the first two markers show, then how many more (cards.css).
    seats.length > SEEN_SHOWN
      ? el(
          "span",
          { class: "seen-more", title: t("ui.cardview.seen_by", { who: who.join(", ") }), "aria-hidden": "true" },
          `+${seats.length - SEEN_SHOWN}`,
        )
      : null,
  );
}

/**
 * An empty hand position: a dashed outline the size of the hand's cards, so the hand keeps
 * its shape.
 * @param {string} addr
 * @param {number} label
 * @param {"sm" | "md" | "lg"} size
 */
export function emptySlot(addr, label, size) {
  return el("div", {
    class: `card empty card-${size}`,
    role: "img",
    "aria-label": t("ui.cardview.empty", { pos: label }),
    dataset: { addr },
  });
}

/**
 * @param {"deck" | "discard"} name
 * @param {string} label
 * @param {Node[]} content
 * @param {TableCtx} ctx
 * @param {boolean | undefined} legal
 */
export function pile(name, label, content, ctx, legal) {
  const attrs = {
    class: `pile pile-${name}${legal ? " legal" : ""}`,
    dataset: { pile: name },
    "aria-label": label,
  };
  const node = ctx.interactive
    ? el("button", { ...attrs, type: "button" })
    : el("div", { ...attrs, role: "img" });
  node.append(...content);
  return node;
}
