// @ts-check
// The Cabo family's table: each seat's hand in positions (empty positions keep the hand's
// shape, seen-by markers under the cards), the deck, the discard pile and the drawn card in the
// middle, and the round's facts (turn, call, snap, power) beside them.

import { cardName, cardShort } from "./cards.js";
import { cardElement, emptySlot, pile, SEEN_TEXT, seatInitials, seenMarks } from "./cardview.js";
import { t } from "./i18n.js";
import { el, forTheScreen } from "./ui.js";
import { callName, variantInfo } from "./variants.js";

/** @typedef {import("./types/view").FamilyView} FamilyView */

/** The turn cap is shown when this many turns or fewer are left before it. */
const TURN_CAP_NEAR = 10;
/** @typedef {import("./table.js").TableCtx} TableCtx */

/**
 * @param {FamilyView} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
export function familyHand(view, seat, ctx) {
  const hand = view.hands[seat] ?? [];
  const mine = seat === ctx.viewer;
  const over = view.phase === "over";
  const wrap = el("div", {
    class: `hand ${variantInfo(view.game)?.hand_layout === "square" ? "hand-square" : ""}`,
    role: "group",
    "aria-label": t("ui.family.cards_of", { who: ctx.names(seat) }),
  });
  const size = mine ? "lg" : "sm";
  const short = seatInitials(view.players, ctx.names);
  hand.forEach((slot, n) => {
    const addr = `${seat}.${n}`;
    const where = mine
      ? t("ui.family.position", { pos: n })
      : t("ui.family.their_position", { who: ctx.names(seat), pos: n });
    if (slot === null) {
      const cell = el("div", { class: "slot slot-empty" }, emptySlot(addr, n, size));
      if (mine) cell.append(el("span", { class: "pos-label", "aria-hidden": "true" }, String(n)));
      wrap.append(cell);
      return;
    }
    // The server sends a code only for a card this viewer may have face up: with the memory
    // aid every card it knows, without it none during play (the round's end shows them all).
    // A card it has just seen comes in the events of that moment and is shown for a while
    // (ctx.revealed: address -> code). A card that lies face up in the hand (cabo: taken from
    // the discard pile, or shown by a failed claim) is face up for everyone, always: drawn like
    // a card on the pile, not as one remembered.
    const open = Boolean(slot.face_up) && !over;
    const flash = slot.card ? null : (ctx.revealed?.get(addr) ?? null);
    const code = slot.card ?? flash;
    const card = cardElement({
      code,
      faceUp: Boolean(code),
      addr,
      label: open
        ? t("ui.family.face_up", { where })
        : code && !over
          ? t("ui.family.face_down", { where })
          : where,
      legal: ctx.targets?.has(addr),
      selected: ctx.selection?.includes(addr),
      known: ctx.viewer !== null && !over && !open,
      revealed: Boolean(flash),
      interactive: ctx.interactive,
      size,
      extra: open ? "open" : undefined,
      powers: ctx.powers,
      marks: ctx.marks,
    });
    const cell = el("div", { class: "slot" }, card);
    // Who else has looked at this card (the viewer's own knowledge shows as the face), in a
    // row under the card, clear of its rank.
    const seen = over ? [] : (slot.seen ?? []).filter((x) => x !== ctx.viewer);
    if (seen.length) cell.append(seenMarks(seen, ctx.names, short));
    if (mine) cell.append(el("span", { class: "pos-label", "aria-hidden": "true" }, String(n)));
    wrap.append(cell);
  });
  return wrap;
}

/**
 * @param {FamilyView} view
 * @param {TableCtx} ctx
 */
export function familyCenter(view, ctx) {
  const deckLegal = ctx.piles?.deck;
  const discardLegal = ctx.piles?.discard;
  const top = view.discard.at(-1) ?? null;
  const deck = pile(
    "deck",
    forTheScreen(
      t("ui.family.deck_label", {}, view.deck) + (deckLegal ? t("ui.family.click_to_draw") : ""),
    ),
    [
      view.deck
        ? cardElement({ code: null, size: "md" })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, t("ui.family.deck", { n: view.deck })),
    ],
    ctx,
    deckLegal,
  );
  const discard = pile(
    "discard",
    forTheScreen(
      t("ui.family.discard_label", {}, view.discard.length) +
        (top ? t("ui.family.top", { card: cardName(top) }) : "") +
        (discardLegal ? t("ui.family.click_to_play") : ""),
    ),
    [
      top
        ? cardElement({
            code: top,
            faceUp: true,
            size: "md",
            extra: "pile-top",
            powers: ctx.powers,
            marks: ctx.marks,
          })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, t("ui.family.discard", { n: view.discard.length })),
    ],
    ctx,
    discardLegal,
  );
  const parts = [deck, discard];
  if (view.drawer !== null && view.drawer !== undefined) {
    const own = view.drawer === ctx.viewer;
    parts.push(
      el(
        "div",
        { class: "drawn", dataset: { drawn: String(view.drawer) } },
        cardElement({
          code: view.drawn,
          faceUp: Boolean(view.drawn),
          size: "md",
          label: own
            ? t("ui.family.you_drew_label")
            : t("ui.family.drawn_by", { who: ctx.names(view.drawer) }),
          extra: "drawn-card",
          powers: ctx.powers,
          marks: ctx.marks,
        }),
        el(
          "span",
          { class: "pile-count" },
          own ? t("ui.family.you_drew") : t("ui.family.drew", { who: ctx.names(view.drawer) }),
        ),
      ),
    );
  }
  return el("div", { class: "piles" }, parts);
}

/**
 * @param {FamilyView} view
 * @param {TableCtx} ctx
 */
export function familyInfo(view, ctx) {
  const items = [el("span", {}, t("ui.family.round", { round: view.round }))];
  // The turn cap is a safety limit, not the game's length: shown only when it is near.
  const capLeft = view.max_turns - view.turns;
  if (capLeft <= TURN_CAP_NEAR) {
    items.push(
      el(
        "span",
        { class: "info-call", dataset: { ui: "turn-cap" } },
        t("ui.family.turn_cap", {}, capLeft),
      ),
    );
  }
  if (view.target !== null && view.target !== undefined)
    items.push(el("span", {}, t("ui.family.target", { target: view.target })));
  if (view.reshuffles)
    items.push(el("span", {}, t("ui.family.reshuffles", { n: view.reshuffles })));
  if (view.caller !== null && view.caller !== undefined) {
    const left = view.final_turns_left;
    items.push(
      el(
        "span",
        { class: "info-call" },
        t("ui.family.called", { who: ctx.names(view.caller), call: callName(view.call) ?? "" }),
        left && !view.over ? t("ui.family.final_turns", {}, left) : "",
      ),
    );
  }
  if (view.snap) {
    items.push(
      el(
        "span",
        { class: "info-snap" },
        t("ui.family.snap", { rank: view.snap.rank, card: cardShort(view.snap.card) }),
      ),
    );
  }
  // (typeof: a Qute view, whose `pending` is a word, comes here when the variants are unknown)
  const pending = typeof view.pending === "object" ? view.pending : null;
  if (pending && "power" in pending && pending.power) {
    items.push(
      el(
        "span",
        { class: "info-power" },
        t("ui.family.power", { power: pending.power, card: cardShort(pending.card) }),
      ),
    );
  }
  if (pending && "give" in pending && pending.give) {
    // "1.2": seat 1's position 2, the gap the drop left
    const [seat, pos] = pending.give.split(".").map(Number);
    const gap =
      seat === ctx.viewer
        ? t("ui.family.gap_yours", { pos })
        : t("ui.family.gap", { who: ctx.names(seat), pos });
    items.push(el("span", { class: "info-power" }, gap));
  }
  return el("div", { class: "table-info" }, items);
}

/**
 * The legend of the seen-by markers, by the piles: what they mean and whose initials are
 * whose. Null when no card on the table carries a marker.
 * @param {FamilyView} view
 * @param {TableCtx} ctx
 */
export function seenLegend(view, ctx) {
  if (view.phase === "over" || view.over) return null;
  const who = new Set();
  for (const hand of view.hands) {
    for (const slot of hand ?? []) {
      for (const s of slot?.seen ?? []) if (s !== ctx.viewer) who.add(s);
    }
  }
  if (!who.size) return null;
  const short = seatInitials(view.players, ctx.names);
  const seats = [...who].sort((a, b) => a - b);
  return el(
    "div",
    { class: "seen-legend", dataset: { ui: "seen-legend" } },
    el("span", { class: "seen-legend-text" }, SEEN_TEXT, ":"),
    seats.map((s) =>
      el(
        "span",
        { class: "seen-legend-item" },
        el("span", { class: "seen-dot", "aria-hidden": "true" }, short[s]),
        ` ${ctx.names(s)}`,
      ),
    ),
  );
}
