// @ts-check
// Player preferences, kept in localStorage.

const KEY = "cardtable:prefs";

/** How long a card you look at stays face up without memory aid (seconds): bounds, default. */
export const REVEAL_SECONDS = { min: 0.5, max: 30, step: 0.5, default: 3 };

const DEFAULTS = { sound: false, revealSeconds: REVEAL_SECONDS.default };

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

/** The name a player last typed (lobby, joins). */
export function getName() {
  return localStorage.getItem("cardtable:name") ?? "";
}

/** @param {string} name */
export function setName(name) {
  localStorage.setItem("cardtable:name", name);
}
