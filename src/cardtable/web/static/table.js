// Drawing a game view (RULES.md §5) as a table: the viewer's hand at the bottom, the other
// seats around it, the piles in the middle. Used by the live table and by the replay, which
// passes a spectator view and no click handlers.

import { cardBack, cardFace, cardName, cardShort, parseCard, SUITS } from "./cards.js";
import { el } from "./ui.js";
import { callName, countWord, isShedding, variantInfo } from "./variants.js";

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

/** A room's length from its options: "One round" or "Match to N". */
export function matchFormat(options) {
  const target = options?.target;
  return target === null || target === undefined ? "One round" : `Match to ${target}`;
}

/** Display name of seat `i`: its player's name, an AI level, or "Seat i". */
export function seatName(seats, i) {
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
function placeSeats(players, viewer) {
  const first = viewer ?? 0;
  const others = [];
  for (let k = 1; k < players; k += 1) others.push((first + k) % players);
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
 * opts: {code, faceUp, addr, label, legal, selected, known, revealed, seen, interactive, size,
 *        extra, powers (card code → power word printed on numbered cards)}
 */
export function cardElement(opts) {
  const { code, faceUp, addr, interactive } = opts;
  const showFace = Boolean(code && faceUp);
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
  const attrs = {
    class: classes.join(" "),
    "aria-label": label + (opts.selected ? " (selected)" : ""),
    dataset: {},
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
  if (opts.seen?.length) {
    node.append(
      el(
        "span",
        { class: "seen-by", "aria-hidden": "true" },
        opts.seen.map((s) => el("span", { class: "seen-dot" }, String(s))),
      ),
    );
  }
  return node;
}

function emptySlot(addr, label) {
  return el("div", {
    class: "card empty",
    role: "img",
    "aria-label": `empty position ${label}`,
    dataset: { addr },
  });
}

/** Describe one event in plain words for the move log (null to leave it out). */
export function describeEvent(ev, names) {
  const who = ev.seat !== undefined && ev.seat !== null ? names(ev.seat) : "";
  const at = (a) => (Array.isArray(a) ? a.join(" and ") : a);
  const c = (code) => (code ? cardShort(code) : "a card");
  // Codes in brackets, when the event carries them (a table without memory aid gets none).
  const shown = (codes) => {
    const list = (Array.isArray(codes) ? codes : [codes]).filter(Boolean);
    return list.length ? ` (${list.map(c).join(", ")})` : "";
  };
  switch (ev.type) {
    case "round_start":
      return `Round ${ev.round} begins`;
    case "peek":
      return `${who} looked at ${at(ev.at)}${ev.card ? ` (${c(ev.card)})` : ""}`;
    case "spy":
      return `${who} spied on ${at(ev.at)}${ev.card ? ` (${c(ev.card)})` : ""}`;
    case "look":
      return `${who} looked at ${at(ev.at)}${ev.cards ? ` (${ev.cards.map(c).join(", ")})` : ""}`;
    case "draw":
      if (ev.from) return `${who} drew from the ${ev.from}${ev.card ? ` (${c(ev.card)})` : ""}`;
      return `${who} drew from the blind${typeof ev.card === "string" ? ` (${c(ev.card)})` : ""}`;
    case "replace":
      return ev.out?.length
        ? `${who} replaced ${at(ev.at)}, discarding ${ev.out.map(c).join(", ")}`
        : `${who} replaced ${at(ev.at)}`;
    case "claim":
      return ev.ok
        ? `${who} claimed ${at(ev.at)}: equal!${shown(ev.out)}`
        : `${who} claimed ${at(ev.at)}: not equal${shown(ev.shown)}`;
    case "discard":
      return `${who} discarded ${c(ev.card)}${ev.power ? ` — power: ${ev.power}` : ""}`;
    case "exchange":
      return `${who} exchanged ${at(ev.at)}`;
    case "drop":
      return `${who} dropped ${at(ev.at)}${shown(ev.card)}: ${ev.ok ? "match" : "no match"}`;
    case "snap":
      return `${who} snapped ${at(ev.at)}${shown(ev.card)}: ${ev.ok ? "match" : "no match"}`;
    case "snap_open":
      return ev.card ? `Snap window for ${c(ev.card)}` : "Snap window";
    case "give":
      return `${who} gave ${ev.from} to ${ev.to}`;
    case "penalty":
      if (ev.count !== undefined) return `${who} draws ${ev.count} for ${ev.for}`;
      return `${who} takes a penalty card at ${ev.at}`;
    case "pass":
      return `${who} passed`;
    case "call":
      return `${who} called ${callName(ev.word)}!`;
    case "reshuffle":
      return `The discard pile is shuffled into a new deck (${ev.deck} cards)`;
    case "play":
      return `${who} played ${ev.cards.map(c).join(" ")} (${ev.left} left)`;
    case "suit":
      return `${who} wishes ${SUITS[ev.suit]?.name ?? ev.suit}`;
    case "eights":
      return `${who}: eights ${ev.mode}`;
    case "skip":
      return `${ev.seats.map(names).join(", ")} skipped (${ev.for})`;
    case "refill":
      return `The blind is refilled (${ev.blind} cards, ×${ev.refills + 1})`;
    case "qute":
      return `${who} called Qute!`;
    case "continue":
      return `${who} plays on`;
    case "jpoints":
      return `${who}: J points ${ev.mode ?? ev.choice ?? ""}`;
    case "round_end":
      return `Round ${ev.round} over — winners: ${ev.winners.map(names).join(", ")}`;
    case "game_over":
      return `Game over — winners: ${ev.winners.map(names).join(", ")}`;
    case "turn":
      return null;
    default:
      return `${who} ${ev.type}`.trim();
  }
}

/** A short status line: what is going on, and what the viewer can do. */
export function statusLine(view, viewer, names) {
  if (view.over) return "Game over";
  const mine = viewer !== null && view.actors.includes(viewer) && view.legal?.length;
  const verbs = new Set((view.legal ?? []).map((a) => a.split(" ")[0]));
  if (view.phase === "peek") {
    const left = viewer === null ? null : view.peeks_left?.[viewer];
    const peeks = variantInfo(view.game)?.initial_peeks ?? 2;
    return left
      ? `Look at ${left} of your cards: click ${countWord(left)}`
      : `Everybody looks at ${countWord(peeks)} of their cards`;
  }
  if (!mine) {
    const acting = view.actors.map(names).join(", ");
    if (view.phase === "snap") return `Snap window: anyone may throw a matching card`;
    return acting ? `${acting} ${view.actors.length > 1 ? "are" : "is"} playing` : "";
  }
  if (isShedding(view.game)) {
    if (verbs.has("qute")) return "Four of a kind! Call Qute to end the round, or continue";
    if (verbs.has("suit")) return "Choose the suit to follow";
    if (verbs.has("eights")) return "Your 8s: the next player draws them all, or they go round";
    if (verbs.has("jpoints")) return "J points: minus for you, or plus for everyone else";
    if (view.must_cover) return "Cover the 6: play a card that fits, or draw";
    if (verbs.has("play")) return "Your turn: click a card to play (several of one rank in order)";
    return "Nothing fits: draw a card";
  }
  if (view.phase === "snap") return "Snap: click a card of the same rank, or pass";
  if (verbs.has("give")) return "Give one of your cards (click it), or pass";
  if (view.phase === "look" && verbs.has("exchange")) return "Exchange the two cards, or pass";
  if (view.pending?.power) {
    const p = view.pending.power;
    const how = {
      peek: "click one of your cards to look at it",
      spy: "click another player's card to look at it",
      exchange: "click two cards to swap them",
      look: "click one of yours and one of theirs to look at both",
    }[p];
    return `Power ${cardShort(view.pending.card)}: ${how ?? p}${verbs.has("pass") ? ", or pass" : ""}`;
  }
  if (view.drawn && view.drawer === viewer) {
    const claim = (view.legal ?? []).some((a) => /^replace \d+ \d+/.test(a));
    return `Click one of your cards to replace it${claim ? " (several equal ones to claim them)" : ""}${
      verbs.has("discard") ? ", or the discard pile to throw the card away" : ""
    }`;
  }
  if (verbs.has("draw")) {
    const drop = verbs.has("drop") ? ", or drop a card that matches the pile" : "";
    return `Your turn: draw from the deck or the discard pile${drop}`;
  }
  if (verbs.has("drop")) return "Drop a card that matches the pile, or go on";
  return "Your turn";
}

// --- the family table ------------------------------------------------------------------------

function familyHand(view, seat, ctx) {
  const hand = view.hands[seat] ?? [];
  const mine = seat === ctx.viewer;
  const over = view.phase === "over";
  const wrap = el("div", {
    class: `hand ${variantInfo(view.game)?.hand_layout === "square" ? "hand-square" : ""}`,
    role: "group",
    "aria-label": `${ctx.names(seat)}'s cards`,
  });
  hand.forEach((slot, n) => {
    const addr = `${seat}.${n}`;
    const where = mine ? `position ${n}` : `${ctx.names(seat)}, position ${n}`;
    if (slot === null) {
      wrap.append(emptySlot(addr, n));
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
      // Who else has looked at this card (the viewer's own knowledge shows as the face).
      seen: !over ? slot.seen?.filter((x) => x !== ctx.viewer) : null,
      interactive: ctx.interactive,
      size: mine ? "lg" : "sm",
      powers: ctx.powers,
    });
    const cell = el("div", { class: "slot" }, card);
    if (mine) cell.append(el("span", { class: "pos-label", "aria-hidden": "true" }, String(n)));
    wrap.append(cell);
  });
  return wrap;
}

function seatHeader(view, seat, ctx) {
  const info = ctx.seats?.[seat];
  const badges = [];
  if (view.caller === seat)
    badges.push(el("span", { class: "badge badge-call" }, callName(view.call) || "Called"));
  if (view.drawer === seat && !view.over)
    badges.push(el("span", { class: "badge" }, "holds a card"));
  if (isShedding(view.game) && view.counts) {
    const n = view.counts[seat];
    badges.push(el("span", { class: "badge badge-count" }, `${n} card${n === 1 ? "" : "s"}`));
  }
  if (info?.memory_aid) badges.push(aidBadge());
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
        ? cardElement({ code: top, faceUp: true, size: "md", extra: "pile-top", powers: ctx.powers })
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
  if (view.pending?.power) {
    items.push(
      el(
        "span",
        { class: "info-power" },
        `Power: ${view.pending.power} (${cardShort(view.pending.card)})`,
      ),
    );
  }
  if (view.pending?.give)
    items.push(el("span", { class: "info-power" }, `Give to ${view.pending.give}`));
  return el("div", { class: "table-info" }, items);
}

// --- Qute --------------------------------------------------------------------------------------

function quteSortKey(code) {
  const c = parseCard(code);
  return "CDHS".indexOf(c.suit) * 20 + QUTE_RANK_ORDER.indexOf(c.rank);
}

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
    .map((slot, i) => ({ code: slot?.card, i }))
    .filter((x) => x.code)
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
 */
export function renderTable(view, tableCtx) {
  const ctx = { ...tableCtx, powers: variantInfo(view.game)?.powers ?? null };
  const qute = isShedding(view.game);
  const hand = qute ? quteHand : familyHand;
  const { me, places } = placeSeats(view.players, ctx.viewer);
  const area = (name, seats) =>
    el(
      "div",
      { class: `area area-${name}` },
      seats.map((s) => seatPanel(view, s, ctx, hand(view, s, ctx))),
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
    ),
    el("div", { class: "area area-me" }, seatPanel(view, me, ctx, hand(view, me, ctx))),
  );
}

/** Results of the finished rounds and the game: a table of scores, winners, revealed hands. */
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
            title: r.sums ? `sum ${r.sums[p]}` : "",
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
            last.sums ? el("span", { class: "sum" }, `sum ${last.sums[p]}`) : null,
            last.hand_points ? el("span", { class: "sum" }, `points ${last.hand_points[p]}`) : null,
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
