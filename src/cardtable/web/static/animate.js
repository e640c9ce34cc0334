// @ts-check
// Short animations for what the events of a state did: cards moving between piles, hands and
// the drawn slot, swaps, flips for peeks and spies, and a flash on the seat that acted; and the
// places each event touched (the table marks them for a moment).
//
// Positions are measured before the table is redrawn (`measure`) and after it; a moved card is
// drawn at its new place and animated from the old one (FLIP). Nothing runs when the user asks
// for reduced motion.

import { reducedMotion } from "./ui.js";

/** @typedef {import("./types/protocol").ViewEvent} ViewEvent */

/**
 * Where things were: "addr:P.N", "card:CODE", "pile:NAME", "seat:N" and "drawn" → rectangle.
 * @typedef {Map<string, DOMRect>} Rects
 */

// Slow enough to follow with the eye (the CSS's --anim is the same).
const DURATION_MS = 700;

/**
 * The elements under `root` that match `selector` (the table's elements are HTML elements).
 * @param {ParentNode} root
 * @param {string} selector
 */
const all = (root, selector) =>
  /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector));

/**
 * Remember where cards, piles and seats are before a redraw.
 * @param {ParentNode | null} root
 * @returns {Rects}
 */
export function measure(root) {
  /** @type {Rects} */
  const rects = new Map();
  if (!root) return rects;
  for (const node of all(root, "[data-addr]"))
    rects.set(`addr:${node.dataset.addr}`, node.getBoundingClientRect());
  for (const node of all(root, "[data-card]"))
    rects.set(`card:${node.dataset.card}`, node.getBoundingClientRect());
  for (const node of all(root, "[data-pile]"))
    rects.set(
      `pile:${node.dataset.pile}`,
      node.querySelector(".card")?.getBoundingClientRect() ?? node.getBoundingClientRect(),
    );
  for (const node of all(root, "[data-seat]"))
    rects.set(`seat:${node.dataset.seat}`, node.getBoundingClientRect());
  const drawn = root.querySelector(".drawn .card");
  if (drawn) rects.set("drawn", drawn.getBoundingClientRect());
  return rects;
}

/**
 * Restart the animation class `cls` on `node`, with CSS custom properties `vars`.
 * @param {HTMLElement | null} node
 * @param {string} cls
 * @param {Record<string, string>} [vars]
 */
function run(node, cls, vars = {}) {
  if (!node) return;
  for (const [k, v] of Object.entries(vars)) node.style.setProperty(k, v);
  node.classList.remove(cls);
  // Force a style flush so that re-adding the class restarts the animation.
  void node.offsetWidth;
  node.classList.add(cls);
  setTimeout(() => node.classList.remove(cls), DURATION_MS + 50);
}

/**
 * Animate `node` from the rectangle `from` to where it is now.
 * @param {HTMLElement | null} node
 * @param {DOMRect | undefined} from
 */
function moveFrom(node, from) {
  if (!node || !from) return;
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return run(node, "anim-touch");
  run(node, "anim-move", { "--dx": `${dx}px`, "--dy": `${dy}px` });
}

/**
 * An address or a list of them, as a list.
 * @param {string | string[] | null | undefined} x
 * @returns {string[]}
 */
const list = (x) => (Array.isArray(x) ? x : x ? [x] : []);

/**
 * The addresses an event touched on the table (cards to highlight where it happened).
 * @param {ViewEvent} ev
 * @returns {string[]}
 */
export function eventPlaces(ev) {
  /** @param {unknown} x */
  const list = (x) =>
    Array.isArray(x) ? x.filter((a) => typeof a === "string") : typeof x === "string" ? [x] : [];
  switch (ev.type) {
    case "peek":
    case "spy":
    case "look":
    case "replace":
    case "claim":
    case "exchange":
    case "drop":
    case "snap":
      return list(ev.at).filter((a) => a.includes("."));
    case "penalty":
      return "at" in ev ? list(ev.at) : [];
    case "give":
      return [ev.from, ev.to];
    default:
      return [];
  }
}

/**
 * Animate the events of one state on the freshly drawn table `root`.
 * @param {ViewEvent[] | null | undefined} events
 * @param {HTMLElement | null} root
 * @param {Rects} before what measure() gave before the redraw
 */
export function animateEvents(events, root, before) {
  if (!events?.length || !root || reducedMotion()) return;
  /** @param {string} sel */
  const q = (sel) => /** @type {HTMLElement | null} */ (root.querySelector(sel));
  /** @param {string} addr */
  const card = (addr) => q(`.card[data-addr="${addr}"]`);
  /** @param {string} name */
  const pileCard = (name) =>
    q(`[data-pile="${name}"] .pile-top`) ?? q(`[data-pile="${name}"] .card`);
  const drawn = () => q(".drawn .card");
  for (const ev of events) {
    if ("seat" in ev && ev.seat !== undefined && ev.seat !== null && ev.type !== "turn") {
      run(q(`.seat[data-seat="${ev.seat}"]`), "anim-acting");
    }
    switch (ev.type) {
      case "draw":
        if ("from" in ev && ev.from) moveFrom(drawn(), before.get(`pile:${ev.from}`));
        else run(q(`.seat[data-seat="${ev.seat}"] .hand`), "anim-touch");
        break;
      case "replace":
        for (const a of list(ev.at)) moveFrom(card(a), before.get("drawn"));
        moveFrom(pileCard("discard"), before.get(`addr:${list(ev.at)[0]}`));
        break;
      case "claim":
        if (ev.ok) moveFrom(pileCard("discard"), before.get(`addr:${list(ev.at).at(-1)}`));
        else list(ev.at).forEach((a) => run(card(a), "anim-flip"));
        if (ev.new) moveFrom(card(ev.new), before.get("drawn"));
        break;
      case "discard":
        moveFrom(pileCard("discard"), before.get("drawn"));
        break;
      case "exchange": {
        const [a, b] = list(ev.at);
        moveFrom(card(a), before.get(`addr:${b}`));
        moveFrom(card(b), before.get(`addr:${a}`));
        break;
      }
      case "peek":
      case "spy":
      case "look":
        list(ev.at).forEach((a) => run(card(a), "anim-flip"));
        break;
      case "drop":
      case "snap":
        if (ev.ok) moveFrom(pileCard("discard"), before.get(`addr:${ev.at}`));
        else run(card(ev.at), "anim-shake");
        break;
      case "give":
        moveFrom(card(ev.to), before.get(`addr:${ev.from}`));
        break;
      case "penalty":
        if ("at" in ev && ev.at) moveFrom(card(ev.at), before.get("pile:deck"));
        break;
      case "play": {
        const from = before.get(`card:${ev.cards.at(-1)}`) ?? before.get(`seat:${ev.seat}`);
        moveFrom(pileCard("discard"), from);
        break;
      }
      case "call":
      case "qute":
        run(q(`.seat[data-seat="${ev.seat}"]`), "anim-call");
        break;
      default:
        break;
    }
  }
}
