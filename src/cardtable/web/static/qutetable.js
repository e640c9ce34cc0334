// @ts-check
// Qute's table: the viewer's hand fanned and sorted by suit or by rank (the person's choice,
// remembered), the others' hands as backs, the blind and the stack in the middle with a wished
// suit, and the round's facts.

import { cardName, parseCard, SUITS } from "./cards.js";
import { cardElement, pile } from "./cardview.js";
import { QUTE_SORTS, quteSort, setPref } from "./prefs.js";
import { el, tapOrClick } from "./ui.js";

/** @typedef {import("./types/view").QuteView} QuteView */
/** @typedef {import("./table.js").TableCtx} TableCtx */

const QUTE_RANK_ORDER = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/**
 * Where a card goes in the hand: by suit then rank, or by rank then suit.
 * @param {string} code
 * @param {(typeof QUTE_SORTS)[number]} by
 */
export function quteSortKey(code, by = "suit") {
  const c = parseCard(code);
  const suit = c.suit === null ? -1 : "CDHS".indexOf(c.suit);
  const rank = QUTE_RANK_ORDER.indexOf(c.rank);
  return by === "rank" ? rank * 10 + suit : suit * 20 + rank;
}

/**
 * A decision in progress, in words (RULES.md: the order of decisions after a play).
 * @type {Record<string, string>}
 */
const PENDING = {
  qute: "Qute, or play on",
  suit: "the suit to follow",
  eights: "who draws for the 8s",
  jpoints: "the J points",
};

/** What each way of sorting is called beside the hand. */
const SORT_NAMES = { suit: "suit", rank: "rank" };

/**
 * The choice of how the viewer's hand is sorted (seed 002's "Sort by"), beside its name: kept
 * in the preferences, and the hand drawn again at once.
 * @param {QuteView} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
export function quteSortControl(view, seat, ctx) {
  const now = quteSort();
  /** @param {(typeof QUTE_SORTS)[number]} by */
  const option = (by) => {
    const id = `qute-sort-${by}`;
    return [
      el("input", {
        type: "radio",
        name: "qute-sort",
        id,
        value: by,
        checked: by === now,
        onchange: (ev) => {
          setPref("quteSort", by);
          const panel = /** @type {Element} */ (ev.target).closest(".seat");
          panel?.querySelector(".hand-fan")?.replaceWith(quteHand(view, seat, ctx));
        },
      }),
      el("label", { for: id }, SORT_NAMES[by]),
    ];
  };
  return el(
    "span",
    {
      class: "qute-sort",
      role: "radiogroup",
      "aria-label": "Sort my cards by",
      dataset: { ui: "qute-sort" },
    },
    el("span", { class: "qute-sort-label", "aria-hidden": "true" }, "Sort by"),
    QUTE_SORTS.flatMap(option),
  );
}

/**
 * @param {QuteView} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
export function quteHand(view, seat, ctx) {
  const mine = seat === ctx.viewer;
  const hand = view.hands[seat] ?? [];
  if (!mine || hand.every((s) => !s?.card)) {
    // Opponents (and everyone, for spectators): backs, overlapped.
    const count = view.counts?.[seat] ?? hand.length;
    const shown = Math.min(count, 12);
    const fan = el("div", {
      class: "hand hand-stack",
      role: "group",
      "aria-label": `${ctx.names(seat)}: ${count} cards`,
    });
    for (let i = 0; i < shown; i += 1) {
      fan.append(
        cardElement({
          code: null,
          addr: `${seat}.${i}`,
          size: "sm",
          label: `${ctx.names(seat)}, card ${i + 1}`,
        }),
      );
    }
    if (count > shown) fan.append(el("span", { class: "more" }, `+${count - shown}`));
    return fan;
  }
  const by = quteSort();
  const order = hand
    .flatMap((slot, i) => (slot?.card ? [{ code: slot.card, i }] : []))
    .sort((a, b) => quteSortKey(a.code, by) - quteSortKey(b.code, by));
  const fan = el("div", {
    class: "hand hand-fan",
    role: "group",
    "aria-label": "your cards",
    style: { "--n": String(order.length) },
  });
  order.forEach(({ code, i }, k) => {
    const selIdx = ctx.selection?.indexOf(code) ?? -1;
    const card = cardElement({
      code,
      faceUp: true,
      addr: `${seat}.${i}`,
      dataCard: code,
      label: selIdx >= 0 ? `selected ${selIdx + 1}` : "in your hand",
      legal: ctx.targets?.has(code),
      selected: selIdx >= 0,
      interactive: ctx.interactive,
      size: "lg",
      marks: ctx.marks,
    });
    card.style.setProperty("--k", String(k));
    if (selIdx >= 0)
      card.append(el("span", { class: "sel-order", "aria-hidden": "true" }, String(selIdx + 1)));
    fan.append(card);
  });
  return fan;
}

/**
 * @param {QuteView} view
 * @param {TableCtx} ctx
 */
export function quteCenter(view, ctx) {
  const deckLegal = ctx.piles?.deck;
  const blind = pile(
    "deck",
    `blind, ${view.blind} cards${deckLegal ? ` — ${tapOrClick()} to draw` : ""}`,
    [
      view.blind
        ? cardElement({ code: null, size: "md" })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, `Draw · ${view.blind}`),
    ],
    ctx,
    deckLegal,
  );
  // The stack: the last few cards fanned, the top one last.
  const recent = view.stack.slice(-4);
  const stackCards = recent.length
    ? recent.map((code, k) =>
        cardElement({
          code,
          faceUp: true,
          size: "md",
          extra: k === recent.length - 1 ? "pile-top" : "under",
          marks: ctx.marks,
        }),
      )
    : [el("div", { class: "card empty card-md" })];
  const stack = pile(
    "discard",
    `stack, ${view.stack.length} cards${view.top ? `, top ${cardName(view.top)}` : ""}`,
    [
      el("div", { class: "stack-fan" }, stackCards),
      el("span", { class: "pile-count" }, `Stack · ${view.stack.length}`),
    ],
    { ...ctx, interactive: false },
    false,
  );
  const parts = [blind, stack];
  if (view.suit) {
    const s = SUITS[view.suit];
    parts.push(
      el(
        "div",
        { class: `suit-wish ${s.red ? "red" : ""}`, "aria-label": `wished suit: ${s.name}` },
        el("span", { class: "suit-symbol", "aria-hidden": "true" }, s.symbol),
        el("span", {}, s.name),
      ),
    );
  }
  return el("div", { class: "piles" }, parts);
}

/**
 * @param {QuteView} view
 * @param {TableCtx} ctx
 */
export function quteInfo(view, ctx) {
  const items = [el("span", {}, `Round ${view.round}`)];
  if (view.target !== null && view.target !== undefined)
    items.push(el("span", {}, `Target ${view.target}`));
  items.push(
    el("span", { class: view.multiplier > 1 ? "info-call" : "" }, `Multiplier ×${view.multiplier}`),
  );
  if (view.run?.rank && view.run.cards.length > 1) {
    items.push(
      el("span", { class: "info-run" }, `Run: ${view.run.cards.length} × ${view.run.rank}`),
    );
  }
  if (view.must_cover) items.push(el("span", { class: "info-power" }, "A 6 must be covered"));
  const penalties = (view.penalty_counts ?? [])
    .map((n, s) => (n ? `${ctx.names(s)} +${n}` : null))
    .filter(Boolean);
  if (penalties.length)
    items.push(el("span", { class: "info-power" }, `Draws: ${penalties.join(", ")}`));
  if (view.pending) {
    const what = PENDING[view.pending] ?? view.pending;
    items.push(el("span", { class: "info-power" }, `Deciding: ${what}`));
  }
  return el("div", { class: "table-info" }, items);
}
