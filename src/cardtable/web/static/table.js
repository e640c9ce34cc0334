// @ts-check
// Drawing a game view (RULES.md §5) as a table: the viewer's hand at the bottom, the other
// seats around it, the piles in the middle. Used by the live table and by the replay, which
// passes a spectator view and no click handlers.

import { cardBack, cardFace, cardName, cardShort, parseCard, SUITS } from "./cards.js";
import { el } from "./ui.js";
import { callName, isSheddingView, variantInfo } from "./variants.js";

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
 * (online dots), the seat that acted last; `powers` is added by renderTable.
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
 * }} TableCtx
 */

/**
 * What cardElement draws: the code (null: unknown), face up or down, the address, a label for
 * screen readers, and the marks of a target, a selection, a known or revealed card; `extra` is
 * one more class, `powers` the power words printed on numbered cards. (Who has seen a card is
 * drawn under it by seenMarks.)
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
 * }} CardOpts
 */

const QUTE_RANK_ORDER = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** What the memory-aid badge means, for its tooltip and screen readers. */
export const AID_TEXT = "Memory aid: this player sees every card they have seen";

/** The badge shown by the name of a seat that has the memory aid. */
export function aidBadge() {
  return el(
    "span",
    { class: "badge badge-aid", title: AID_TEXT, dataset: { ui: "aid-badge" } },
    el("span", { "aria-hidden": "true" }, "Memory aid"),
    el("span", { class: "sr-only" }, AID_TEXT),
  );
}

/**
 * A room's length from its options: "One round" or "Match to N".
 * @param {RoomOptions | null | undefined} options
 */
export function matchFormat(options) {
  const target = options?.target;
  return target === null || target === undefined ? "One round" : `Match to ${target}`;
}

/**
 * Display name of seat `i`: its player's name, an AI level, or "Seat i".
 * @param {SeatInfo[] | null | undefined} seats
 * @param {number} i
 * @returns {string}
 */
export function seatName(seats, i) {
  /** @param {number} k */
  const base = (k) => {
    const s = seats?.[k];
    if (s?.name) return s.name;
    if (s?.type === "ai") return `${s.level ? s.level[0].toUpperCase() + s.level.slice(1) : ""} AI`;
    return `Seat ${k}`;
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

/**
 * One card element.
 * opts: {code, faceUp, addr, label, legal, selected, known, revealed, interactive, size,
 *        extra, powers (card code → power word printed on numbered cards)}
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
  const label = showFace
    ? `${cardName(code)}${where ? `, ${where}` : ""}${
        opts.revealed ? " (shown for a moment: click to turn it over)" : ""
      }`
    : `face-down card${where ? `, ${where}` : ""}`;
  /** @type {Record<string, string>} */
  const dataset = {};
  const attrs = {
    class: classes.join(" "),
    "aria-label": label + (opts.selected ? " (selected)" : ""),
    dataset,
    title: showFace ? cardShort(code) : undefined,
  };
  if (addr) attrs.dataset.addr = addr;
  if (opts.dataCard) attrs.dataset.card = opts.dataCard;
  if (showFace) attrs.dataset.face = code;
  const node = interactive
    ? el("button", { ...attrs, type: "button", "aria-pressed": opts.selected ? "true" : "false" })
    : el("div", { ...attrs, role: "img" });
  node.append(showFace ? cardFace(code, opts.powers) : cardBack());
  if (opts.known && showFace)
    node.append(el("span", { class: "known-mark", "aria-hidden": "true" }));
  return node;
}

/** What the seen-by markers mean, for the legend by the table. */
export const SEEN_TEXT = "Initials under a card: who else has looked at it";

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
function seatInitials(players, names) {
  const all = [...Array(players).keys()].map((s) => initials(names(s)));
  return all.map((short, s) =>
    all.some((o, k) => k !== s && o === short) ? `${short}${s}` : short,
  );
}

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
      "aria-label": `seen by ${who.join(", ")}`,
      dataset: { ui: "seen-by" },
    },
    seats.map((s, k) =>
      el(
        "span",
        {
          class: "seen-dot",
          role: "img",
          title: `seen by ${who[k]}`,
          "aria-label": `seen by ${who[k]}`,
          dataset: { seat: String(s) },
        },
        short[s] ?? String(s),
      ),
    ),
  );
}

/**
 * An empty hand position: a dashed outline the size of the hand's cards, so the hand keeps
 * its shape.
 * @param {string} addr
 * @param {number} label
 * @param {"sm" | "md" | "lg"} size
 */
function emptySlot(addr, label, size) {
  return el("div", {
    class: `card empty card-${size}`,
    role: "img",
    "aria-label": `empty position ${label}`,
    dataset: { addr },
  });
}

// --- the family table ------------------------------------------------------------------------

/**
 * @param {FamilyView} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
function familyHand(view, seat, ctx) {
  const hand = view.hands[seat] ?? [];
  const mine = seat === ctx.viewer;
  const over = view.phase === "over";
  const wrap = el("div", {
    class: `hand ${variantInfo(view.game)?.hand_layout === "square" ? "hand-square" : ""}`,
    role: "group",
    "aria-label": `${ctx.names(seat)}'s cards`,
  });
  const size = mine ? "lg" : "sm";
  const short = seatInitials(view.players, ctx.names);
  hand.forEach((slot, n) => {
    const addr = `${seat}.${n}`;
    const where = mine ? `position ${n}` : `${ctx.names(seat)}, position ${n}`;
    if (slot === null) {
      const cell = el("div", { class: "slot slot-empty" }, emptySlot(addr, n, size));
      if (mine) cell.append(el("span", { class: "pos-label", "aria-hidden": "true" }, String(n)));
      wrap.append(cell);
      return;
    }
    // The server sends a code only for a card this viewer may have face up: with the memory
    // aid every card it knows, without it none during play (the round's end shows them all).
    // A card it has just seen comes in the events of that moment and is shown for a while
    // (ctx.revealed: address -> code).
    const flash = slot.card ? null : (ctx.revealed?.get(addr) ?? null);
    const code = slot.card ?? flash;
    const card = cardElement({
      code,
      faceUp: Boolean(code),
      addr,
      label: where,
      legal: ctx.targets?.has(addr),
      selected: ctx.selection?.includes(addr),
      known: ctx.viewer !== null && !over,
      revealed: Boolean(flash),
      interactive: ctx.interactive,
      size,
      powers: ctx.powers,
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
 * @param {View} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
function seatHeader(view, seat, ctx) {
  const info = ctx.seats?.[seat];
  const badges = [];
  if (!isSheddingView(view)) {
    if (view.caller === seat)
      badges.push(el("span", { class: "badge badge-call" }, callName(view.call) || "Called"));
    if (view.drawer === seat && !view.over)
      badges.push(el("span", { class: "badge" }, "holds a card"));
  } else if (view.counts) {
    const n = view.counts[seat];
    badges.push(el("span", { class: "badge badge-count" }, `${n} card${n === 1 ? "" : "s"}`));
  }
  if (info?.memory_aid) badges.push(aidBadge());
  if (info && ctx.live && info.stand_in)
    badges.push(
      el(
        "span",
        { class: "badge badge-away", title: "missed several turns; a computer player stands in" },
        `AI playing (${info.stand_in})`,
      ),
    );
  else if (info && ctx.live && info.away)
    badges.push(el("span", { class: "badge badge-away", title: "their time ran out" }, "away"));
  // Online dots only at a live table (a replay's seats are not connected to anything).
  const online =
    info && ctx.live ? (info.type === "ai" ? "ai" : info.online ? "online" : "offline") : null;
  return el(
    "div",
    { class: "seat-head" },
    online
      ? el("span", {
          class: `dot dot-${online}`,
          title: online,
          "aria-label": online === "ai" ? "computer player" : online,
          role: "img",
        })
      : null,
    el("span", { class: "seat-name" }, ctx.names(seat), seat === ctx.viewer ? " (you)" : ""),
    el("span", { class: "seat-total", title: "total" }, String(view.totals?.[seat] ?? 0)),
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
      "aria-label": `${ctx.names(seat)}${view.actors.includes(seat) && !view.over ? ", to play" : ""}`,
    },
    seatHeader(view, seat, ctx),
    body,
  );
}

/**
 * @param {"deck" | "discard"} name
 * @param {string} label
 * @param {Node[]} content
 * @param {TableCtx} ctx
 * @param {boolean | undefined} legal
 */
function pile(name, label, content, ctx, legal) {
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

/**
 * @param {FamilyView} view
 * @param {TableCtx} ctx
 */
function familyCenter(view, ctx) {
  const deckLegal = ctx.piles?.deck;
  const discardLegal = ctx.piles?.discard;
  const top = view.discard.at(-1) ?? null;
  const deck = pile(
    "deck",
    `deck, ${view.deck} cards${deckLegal ? " — click to draw" : ""}`,
    [
      view.deck
        ? cardElement({ code: null, size: "md" })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, `${view.deck}`),
    ],
    ctx,
    deckLegal,
  );
  const discard = pile(
    "discard",
    `discard pile, ${view.discard.length} cards${top ? `, top ${cardName(top)}` : ""}${
      discardLegal ? " — click to play" : ""
    }`,
    [
      top
        ? cardElement({
            code: top,
            faceUp: true,
            size: "md",
            extra: "pile-top",
            powers: ctx.powers,
          })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, `${view.discard.length}`),
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
          label: own ? "the card you drew" : `drawn by ${ctx.names(view.drawer)}`,
          extra: "drawn-card",
          powers: ctx.powers,
        }),
        el("span", { class: "pile-count" }, own ? "your card" : ctx.names(view.drawer)),
      ),
    );
  }
  return el("div", { class: "piles" }, parts);
}

/**
 * @param {FamilyView} view
 * @param {TableCtx} ctx
 */
function familyInfo(view, ctx) {
  const items = [el("span", {}, `Round ${view.round}`)];
  items.push(el("span", {}, `Turn ${view.turns + 1}/${view.max_turns}`));
  if (view.target !== null && view.target !== undefined)
    items.push(el("span", {}, `Target ${view.target}`));
  if (view.reshuffles) items.push(el("span", {}, `Reshuffles ${view.reshuffles}`));
  if (view.caller !== null && view.caller !== undefined) {
    const left = view.final_turns_left;
    items.push(
      el(
        "span",
        { class: "info-call" },
        `${ctx.names(view.caller)} called ${callName(view.call)}`,
        left && !view.over ? ` — ${left} final turn${left === 1 ? "" : "s"} left` : "",
      ),
    );
  }
  if (view.snap) {
    items.push(
      el("span", { class: "info-snap" }, `Snap: ${view.snap.rank}s (${cardShort(view.snap.card)})`),
    );
  }
  // (typeof: a Qute view, whose `pending` is a word, comes here when the variants are unknown)
  const pending = typeof view.pending === "object" ? view.pending : null;
  if (pending && "power" in pending && pending.power) {
    items.push(
      el("span", { class: "info-power" }, `Power: ${pending.power} (${cardShort(pending.card)})`),
    );
  }
  if (pending && "give" in pending && pending.give)
    items.push(el("span", { class: "info-power" }, `Give to ${pending.give}`));
  return el("div", { class: "table-info" }, items);
}

/**
 * The legend of the seen-by markers, by the piles: what they mean and whose initials are
 * whose. Null when no card on the table carries a marker.
 * @param {FamilyView} view
 * @param {TableCtx} ctx
 */
function seenLegend(view, ctx) {
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

// --- Qute --------------------------------------------------------------------------------------

/** @param {string} code */
function quteSortKey(code) {
  const c = parseCard(code);
  return (c.suit === null ? -1 : "CDHS".indexOf(c.suit)) * 20 + QUTE_RANK_ORDER.indexOf(c.rank);
}

/**
 * @param {QuteView} view
 * @param {number} seat
 * @param {TableCtx} ctx
 */
function quteHand(view, seat, ctx) {
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
  const order = hand
    .flatMap((slot, i) => (slot?.card ? [{ code: slot.card, i }] : []))
    .sort((a, b) => quteSortKey(a.code) - quteSortKey(b.code));
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
function quteCenter(view, ctx) {
  const deckLegal = ctx.piles?.deck;
  const blind = pile(
    "deck",
    `blind, ${view.blind} cards${deckLegal ? " — click to draw" : ""}`,
    [
      view.blind
        ? cardElement({ code: null, size: "md" })
        : el("div", { class: "card empty card-md" }),
      el("span", { class: "pile-count" }, `${view.blind}`),
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
        }),
      )
    : [el("div", { class: "card empty card-md" })];
  const stack = pile(
    "discard",
    `stack, ${view.stack.length} cards${view.top ? `, top ${cardName(view.top)}` : ""}`,
    [
      el("div", { class: "stack-fan" }, stackCards),
      el("span", { class: "pile-count" }, `${view.stack.length}`),
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
function quteInfo(view, ctx) {
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
  if (view.pending) items.push(el("span", { class: "info-power" }, `Decision: ${view.pending}`));
  return el("div", { class: "table-info" }, items);
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
  const ctx = { ...tableCtx, powers: variantInfo(view.game)?.powers ?? null };
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
  return el(
    "div",
    {
      class: `table game-${view.game} players-${view.players}`,
      dataset: { game: view.game },
    },
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
    el("div", { class: "area area-me" }, seatPanel(view, me, ctx, hand(me))),
  );
}

/**
 * Results of the finished rounds and the game: a table of scores, winners, revealed hands.
 * @param {View} view
 * @param {Names} names
 * @returns {HTMLElement}
 */
export function renderResults(view, names) {
  const rounds = view.round_results ?? [];
  const last = rounds.at(-1);
  const players = [...Array(view.players).keys()];
  const result = view.result;
  const powers = variantInfo(view.game)?.powers ?? null;
  const winners = new Set(result ? result.winners : (last?.winners ?? []));
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Player"),
    rounds.map((r) => el("th", { scope: "col" }, `Round ${r.round}`)),
    el("th", { scope: "col" }, "Total"),
  );
  const rows = players.map((p) =>
    el(
      "tr",
      {
        class: winners.has(p) ? "winner" : "",
        dataset: {
          seat: String(p),
          total: String((result?.totals ?? last?.totals ?? view.totals)[p]),
        },
      },
      el(
        "th",
        { scope: "row" },
        names(p),
        winners.has(p) ? el("span", { class: "win-mark" }, " ★ winner") : "",
      ),
      rounds.map((r) =>
        el(
          "td",
          {
            class: r.winners.includes(p) ? "round-winner" : "",
            title: "sums" in r && r.sums ? `sum ${r.sums[p]}` : "",
          },
          String(r.scores[p]),
        ),
      ),
      el("td", { class: "total" }, String((result?.totals ?? last?.totals ?? view.totals)[p])),
    ),
  );
  const table = el("table", { class: "results" }, el("thead", {}, head), el("tbody", {}, rows));
  const hands = last
    ? el(
        "div",
        { class: "revealed" },
        el("h3", {}, `Hands at the end of round ${last.round}`),
        players.map((p) =>
          el(
            "div",
            { class: "revealed-hand" },
            el("span", { class: "seat-name" }, names(p)),
            el(
              "div",
              { class: "hand" },
              (last.hands[p] ?? [])
                .filter(Boolean)
                .map((code) => cardElement({ code, faceUp: true, size: "sm", powers })),
            ),
            "sums" in last && last.sums
              ? el("span", { class: "sum" }, `sum ${last.sums[p]}`)
              : null,
            "hand_points" in last && last.hand_points
              ? el("span", { class: "sum" }, `points ${last.hand_points[p]}`)
              : null,
          ),
        ),
      )
    : null;
  const winnerText = result
    ? el(
        "p",
        { class: "winners", dataset: { winners: result.winners.join(",") } },
        result.winners.length > 1 ? "Winners: " : "Winner: ",
        el("strong", {}, result.winners.map(names).join(", ")),
      )
    : last
      ? el(
          "p",
          { class: "winners" },
          "Round won by ",
          el("strong", {}, last.winners.map(names).join(", ")),
        )
      : null;
  return el("div", { class: "results-panel" }, winnerText, table, hands);
}
