// @ts-check
// Qute's table: the viewer's hand fanned and sorted by suit or by rank (the person's choice,
// remembered), the others' hands as backs, the blind and the stack in the middle with a wished
// suit, and the round's facts.

import { cardName, parseCard, SUITS } from "./cards.js";
import { cardElement, pile } from "./cardview.js";
import { has, t } from "./i18n.js";
import { QUTE_SORTS, quteSort, setPref } from "./prefs.js";
import { el, forTheScreen } from "./ui.js";

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
 * A decision in progress, in words (RULES.md: the order of decisions after a play): qute, suit,
 * eights, jpoints; the word itself for another.
 * @param {string} pending
 */
function pendingWords(pending) {
  const key = `ui.qute.pending.${pending}`;
  return has(key) ? t(key) : pending;
}

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
      el("label", { for: id }, t(`ui.qute.sort.${by}`)),
    ];
  };
  return el(
    "span",
    {
      class: "qute-sort",
      role: "radiogroup",
      "aria-label": t("ui.qute.sort_mine"),
      dataset: { ui: "qute-sort" },
    },
    el("span", { class: "qute-sort-label", "aria-hidden": "true" }, t("ui.qute.sort_by")),
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
      "aria-label": t("ui.qute.hand_of", { who: ctx.names(seat) }, count),
    });
    for (let i = 0; i < shown; i += 1) {
      fan.append(
        cardElement({
          code: null,
          addr: `${seat}.${i}`,
          size: "sm",
          label: t("ui.qute.card_of", { who: ctx.names(seat), pos: i + 1 }),
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
    "aria-label": t("ui.qute.your_cards"),
    style: { "--n": String(order.length) },
  });
  order.forEach(({ code, i }, k) => {
    const selIdx = ctx.selection?.indexOf(code) ?? -1;
    const card = cardElement({
      code,
      faceUp: true,
      addr: `${seat}.${i}`,
      dataCard: code,
      label: selIdx >= 0 ? t("ui.qute.selected", { pos: selIdx + 1 }) : t("ui.qute.in_hand"),
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
    forTheScreen(
      t("ui.qute.blind_label", {}, view.blind) + (deckLegal ? t("ui.family.click_to_draw") : ""),
    ),
    [
      view.blind
        ? cardElement({ code: null, size: "md" })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, t("ui.qute.blind", { n: view.blind })),
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
    t("ui.qute.stack_label", {}, view.stack.length) +
      (view.top ? t("ui.family.top", { card: cardName(view.top) }) : ""),
    [
      el("div", { class: "stack-fan" }, stackCards),
      el("span", { class: "pile-count" }, t("ui.qute.stack", { n: view.stack.length })),
    ],
    { ...ctx, interactive: false },
    false,
  );
  const parts = [blind, stack];
  if (view.suit) {
    const s = SUITS[view.suit];
    const name = t(`ui.suit.${view.suit}`);
    parts.push(
      el(
        "div",
        {
          class: `suit-wish ${s.red ? "red" : ""}`,
          "aria-label": t("ui.qute.wished", { suit: name }),
        },
        el("span", { class: "suit-symbol", "aria-hidden": "true" }, s.symbol),
        el("span", {}, name),
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
  const items = [el("span", {}, t("ui.family.round", { round: view.round }))];
  if (view.target !== null && view.target !== undefined)
    items.push(el("span", {}, t("ui.family.target", { target: view.target })));
  items.push(
    el(
      "span",
      { class: view.multiplier > 1 ? "info-call" : "" },
      t("ui.qute.multiplier", { n: view.multiplier }),
    ),
  );
  if (view.run?.rank && view.run.cards.length > 1) {
    items.push(
      el(
        "span",
        { class: "info-run" },
        t("ui.qute.run", { n: view.run.cards.length, rank: view.run.rank }),
      ),
    );
  }
  if (view.must_cover) items.push(el("span", { class: "info-power" }, t("ui.qute.must_cover")));
  const penalties = (view.penalty_counts ?? [])
    .map((n, s) => (n ? `${ctx.names(s)} +${n}` : null))
    .filter(Boolean);
  if (penalties.length)
    items.push(
      el("span", { class: "info-power" }, t("ui.qute.draws", { who: penalties.join(", ") })),
    );
  if (view.pending) {
    items.push(
      el(
        "span",
        { class: "info-power" },
        t("ui.qute.deciding", { what: pendingWords(view.pending) }),
      ),
    );
  }
  return el("div", { class: "table-info" }, items);
}
