// @ts-check
// Player preferences, kept in localStorage.

import { t } from "./i18n.js";

const KEY = "cardtable:prefs";

/** How long a card you look at stays face up without memory aid (seconds): bounds, default. */
export const REVEAL_SECONDS = { min: 0.5, max: 30, step: 0.5, default: 3 };

/** The speeds a replay plays at (1: a move every 0.7 s); `replaySpeed` is one of them. */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4];

/** How Qute's hand is sorted: by suit (then rank), or by rank (then suit). */
export const QUTE_SORTS = /** @type {const} */ (["suit", "rank"]);

// `name`: the name this person plays under (asked once, then offered everywhere a name is
// asked); `lastGame`: the game they last chose for a quick play; `replaySpeed`: the speed
// replays last played at; `notify`: a browser notification of their turn while the tab is
// hidden (asked for in Settings); `quteSort`: one of QUTE_SORTS; `lang`: the language the pages
// are in, chosen in Settings ("": the browser's, see i18n.js).
const DEFAULTS = {
  sound: false,
  revealSeconds: REVEAL_SECONDS.default,
  name: "",
  lastGame: "",
  replaySpeed: 1,
  notify: false,
  quteSort: "suit",
  lang: "",
};

/** @typedef {typeof DEFAULTS} Prefs */
/** @typedef {keyof Prefs} PrefName */

// Only known preferences are read (an older client stored a "memoryAid" switch: the memory aid
// is now a seat's handicap chosen when the room is created, not a setting of the browser).
/** @returns {Prefs} */
function load() {
  /** @type {Record<string, unknown>} */
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  /** @type {Record<string, unknown>} */
  const out = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS)) {
    if (typeof stored[name] === typeof out[name]) out[name] = stored[name];
  }
  return /** @type {Prefs} */ (out);
}

/**
 * Current value of a preference.
 * @template {PrefName} K
 * @param {K} name
 * @returns {Prefs[K]}
 */
export function getPref(name) {
  return load()[name];
}

/**
 * Store a preference.
 * @template {PrefName} K
 * @param {K} name
 * @param {Prefs[K]} value
 */
export function setPref(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...load(), [name]: value }));
}

/** Seconds a card you look at stays face up, within REVEAL_SECONDS's bounds. */
export function revealSeconds() {
  const s = Number(getPref("revealSeconds"));
  if (!Number.isFinite(s)) return REVEAL_SECONDS.default;
  return Math.min(REVEAL_SECONDS.max, Math.max(REVEAL_SECONDS.min, s));
}

// Where an older client kept the name, read once if the preference has none.
const OLD_NAME_KEY = "cardtable:name";

/**
 * A friendly name for someone who never gave one: "Guest" and a made-up word of four letters
 * ("Guest Rovi"), never "Player 1".
 * @returns {string}
 */
export function guestName() {
  const consonants = "bdfgklmnprstvz";
  const vowels = "aeiou";
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  /** @param {string} set @param {number} i */
  const pick = (set, i) => set[bytes[i] % set.length];
  const word = pick(consonants, 0) + pick(vowels, 1) + pick(consonants, 2) + pick(vowels, 3);
  return t("ui.prefs.guest", { word: `${word[0].toUpperCase()}${word.slice(1)}` });
}

/**
 * The name this person plays under: the one they gave last, else a guest name made for them
 * now and kept, so every form shows it (and they can change it there).
 * @returns {string}
 */
export function getName() {
  let name = String(getPref("name") ?? "").trim();
  if (!name) name = (localStorage.getItem(OLD_NAME_KEY) ?? "").trim();
  if (!name) name = guestName();
  if (name !== getPref("name")) setPref("name", name);
  return name;
}

/**
 * Keep the name a person typed; an empty one brings back a guest name.
 * @param {string} name
 * @returns {string} the name kept
 */
export function setName(name) {
  const kept = name.trim() || guestName();
  setPref("name", kept);
  return kept;
}

/**
 * How Qute's hand is sorted (one of QUTE_SORTS; by suit unless the person chose otherwise).
 * @returns {(typeof QUTE_SORTS)[number]}
 */
export function quteSort() {
  const sort = getPref("quteSort");
  return sort === "rank" ? "rank" : "suit";
}
