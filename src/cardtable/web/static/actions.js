// @ts-check
// Turning clicks into actions (the notation of RULES.md §4).
//
// Every legal action is one of three kinds:
//   - a pile action: "draw deck", "draw discard", "discard" (family), "draw" (qute) — played by
//     clicking the deck or the discard pile;
//   - a target action: a verb with card arguments — addresses ("peek 0", "spy 1.2",
//     "exchange 0 1.3", "replace 0 2") or Qute card codes ("play 7S 7H") — built by clicking
//     cards in order;
//   - a word action: everything else ("knock", "pass", "suit H", "eights all", "exchange" …) —
//     a button in the action bar.
//
// A selection is the list of targets clicked so far. The candidates are the legal target actions
// whose arguments start with the selection; when the selection is exactly one candidate and no
// candidate extends it, that action is played at once, otherwise the complete candidates are
// offered as buttons (`data-action`) until one is pressed or the selection grows.

const ADDRESS = /^\d+(\.\d+)?$/;
const CARD = /^(10|[2-9AJQK])[CDHS]$/;

// Verbs whose arguments form a set: "replace 0 2" claims positions 0 and 2 in any click order;
// an exchange or a look is symmetric. Everything else (play) is ordered.
const UNORDERED = new Set(["replace", "exchange", "look"]);

// Verbs that are never played by a single click (see autoPlay).
const RISKY = new Set(["drop"]);

// Verbs whose one-card form is played by one click even when longer forms exist: a click on a
// card after drawing replaces it ("replace 2"). The longer forms (cabo's claim of several equal
// cards, "replace 0 2") are built in "several" mode: the action bar's "Claim several" button
// or a Shift-click turns it on, then the cards are clicked one after the other as before.
const ONE_CLICK = new Set(["replace"]);

/** CSS selector of the button that turns on the "several cards" mode. */
export const SEVERAL_SELECTOR = '[data-ui="several"]';

/**
 * A legal action parsed for one seat: `targets` are the cards it names (absolute addresses or
 * Qute card codes), null when it names none.
 * @typedef {{text: string, verb: string, args: string[], targets: string[] | null}} ParsedAction
 */
/** @typedef {ParsedAction & {targets: string[]}} TargetAction */

/**
 * What a click on a target did (Picker.click).
 * @typedef {{play?: string, invalid?: boolean, pending?: boolean}} ClickResult
 */

/**
 * @param {ParsedAction} action
 * @returns {action is TargetAction}
 */
const hasTargets = (action) => action.targets !== null;

/**
 * A pile an action is played from, or null. A bare "draw" (Qute's blind) is never offered in
 * the Cabo family, whose draws name the pile, so the game itself does not matter.
 * @param {string} text
 * @param {string | null} [_game]
 * @returns {"deck" | "discard" | null}
 */
export function pileOf(text, _game) {
  if (text === "draw deck" || text === "draw") return "deck";
  if (text === "draw discard" || text === "discard") return "discard";
  return null;
}

/**
 * Parse an action text for the viewer at `seat`: {text, verb, args, targets} where `targets`
 * are absolute card addresses "P.N" (own positions "N" made absolute) or Qute card codes;
 * `targets` is null when the action takes no card argument.
 * @param {string} text
 * @param {number | null} seat
 * @returns {ParsedAction}
 */
export function parseAction(text, seat) {
  const [verb, ...args] = text.split(" ");
  const isTarget = args.length > 0 && args.every((a) => ADDRESS.test(a) || CARD.test(a));
  const targets = isTarget
    ? args.map((a) => (a.includes(".") || CARD.test(a) ? a : `${seat}.${a}`))
    : null;
  return { text, verb, args, targets };
}

/**
 * CSS selector of the element that stands for `target` (an address or a card code).
 * @param {string} target
 */
export function targetSelector(target) {
  return CARD.test(target) ? `[data-card="${target}"]` : `.card[data-addr="${target}"]`;
}

/** @param {string} text */
export const actionSelector = (text) => `[data-action="${text}"]`;
/** @param {string} pile */
export const pileSelector = (pile) => `[data-pile="${pile}"]`;

/**
 * @param {TargetAction} action
 * @param {string[]} selection
 */
function startsWith(action, selection) {
  const t = action.targets;
  if (selection.length > t.length) return false;
  if (UNORDERED.has(action.verb)) return selection.every((s) => t.includes(s));
  return selection.every((s, i) => t[i] === s);
}

/** The selection state of one seat's table. */
export class Picker {
  constructor() {
    /** @type {string | null | undefined} */
    this.game = null;
    /** @type {number | null} */
    this.seat = null;
    /** @type {ParsedAction[]} */
    this.legal = [];
    /** @type {string[]} the targets clicked so far */
    this.selection = [];
    /** Whether one-click verbs wait for more cards (a claim of several equal cards). */
    this.several = false;
  }

  /**
   * New legal actions: keep the selection only if it still leads somewhere.
   * @param {string[]} legal
   * @param {number | null} seat
   * @param {string | null | undefined} game
   */
  setLegal(legal, seat, game) {
    this.game = game;
    this.seat = seat;
    this.legal = legal.map((text) => parseAction(text, seat));
    if (this.selection.length && this.candidates().length === 0) this.selection = [];
    if (!this.hasSeveral()) this.several = false;
  }

  clear() {
    this.selection = [];
    this.several = false;
  }

  /** Whether a one-click verb also has longer forms now (so the "several" mode means something). */
  hasSeveral() {
    return this.targetActions().some((a) => ONE_CLICK.has(a.verb) && a.targets.length > 1);
  }

  /** @returns {TargetAction[]} */
  targetActions() {
    return this.legal.filter(hasTargets);
  }

  /**
   * Target actions that the current selection starts.
   * @param {string[]} [selection]
   */
  candidates(selection = this.selection) {
    return this.targetActions().filter((a) => startsWith(a, selection));
  }

  /**
   * Candidates whose arguments are exactly the selection (offered as buttons).
   * @param {string[]} [selection]
   */
  complete(selection = this.selection) {
    return this.candidates(selection).filter((a) => a.targets.length === selection.length);
  }

  /** Targets that may be clicked next. */
  nextTargets() {
    /** @type {Set<string>} */
    const next = new Set();
    for (const a of this.candidates()) {
      if (UNORDERED.has(a.verb)) {
        for (const t of a.targets) if (!this.selection.includes(t)) next.add(t);
      } else if (a.targets.length > this.selection.length) {
        next.add(a.targets[this.selection.length]);
      }
    }
    return next;
  }

  /** Actions without card arguments, for the action bar: the pile actions first (they are
   * also played by clicking the piles), then the words. */
  words() {
    const plain = this.legal.filter((a) => a.targets === null);
    const piles = plain.filter((a) => pileOf(a.text, this.game));
    return [...piles, ...plain.filter((a) => !pileOf(a.text, this.game))];
  }

  /**
   * The legal action played from `pile`, or null.
   * @param {string} pile
   */
  pileAction(pile) {
    return this.legal.find((a) => a.targets === null && pileOf(a.text, this.game) === pile) ?? null;
  }

  /**
   * Click on a target. Returns {play: text} when that completes an action, {invalid: true} when
   * the click leads nowhere, otherwise {pending: true} (selection grown, or an unselect).
   * @param {string} target
   * @param {boolean} [several] the click asks for several cards (Shift-click)
   * @returns {ClickResult}
   */
  click(target, several = false) {
    if (several && this.hasSeveral()) this.several = true;
    const idx = this.selection.indexOf(target);
    if (idx >= 0) {
      // Clicking the last selected card again confirms it when it is one complete action;
      // clicking an earlier one takes the selection back to before it.
      const done = this.complete();
      if (idx === this.selection.length - 1 && done.length === 1) return { play: done[0].text };
      this.selection = this.selection.slice(0, idx);
      return { pending: true };
    }
    const grown = [...this.selection, target];
    if (this.candidates(grown).length === 0) return { invalid: true };
    this.selection = grown;
    const auto = this.autoPlay(grown);
    if (auto) {
      this.selection = [];
      return { play: auto };
    }
    return { pending: true };
  }

  // The action a selection plays at once: the only complete candidate, nothing extending it.
  // A drop (cabo-german) or snap (gabo) costs penalty cards when wrong, so it always waits for
  // its button: one stray click must not cost points. A one-click verb's single card
  // (ONE_CLICK) plays at once even when longer forms extend it, unless the "several" mode is on.
  /**
   * @param {string[]} selection
   * @param {boolean} [several] the "several" mode (default: the picker's)
   * @returns {string | null}
   */
  autoPlay(selection, several = this.several) {
    const cands = this.candidates(selection);
    const done = cands.filter((a) => a.targets.length === selection.length);
    if (done.length !== 1 || RISKY.has(done[0].verb)) return null;
    if (cands.length === 1) return done[0].text;
    const one = selection.length === 1 && ONE_CLICK.has(done[0].verb) && !several;
    return one && cands.every((a) => a.verb === done[0].verb) ? done[0].text : null;
  }

  /**
   * CSS selectors to click, in order, that play `text` from an empty selection with the
   * "several" mode off; null if it is not legal now.
   * @param {string} text
   * @returns {string[] | null}
   */
  clicksFor(text) {
    const action = this.legal.find((a) => a.text === text);
    if (!action) return null;
    const pile = pileOf(text, this.game);
    if (action.targets === null) return [pile ? pileSelector(pile) : actionSelector(text)];
    // A longer form of a one-click verb needs the "several" mode first.
    const several = ONE_CLICK.has(action.verb) && action.targets.length > 1;
    const clicks = [...(several ? [SEVERAL_SELECTOR] : []), ...action.targets.map(targetSelector)];
    if (!this.autoPlay(action.targets, several)) clicks.push(actionSelector(text));
    return clicks;
  }
}
