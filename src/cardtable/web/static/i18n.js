// @ts-check
// The words of the browser client in the reader's language. Every sentence a person reads is a
// message of the server's catalogs (text/locale/<lang>/LC_MESSAGES/ui.po), looked up by a key
// such as "ui.lobby.play_now" and filled with named placeholders, as the server fills its own:
//
//   t("ui.seats.free_seats", {}, 2)      // "2 free seats" (a plural: the form for the count)
//   t("ui.table.time_for", {who: "Ann"}) // "Time for Ann"
//
// The language is the person's choice in the settings (the preference `lang`), else the first
// of the browser's languages (navigator.languages) that the server ships, else English. The
// messages are fetched once per page load (GET /api/messages/{lang}, revalidated by its ETag)
// while this module loads: every module that imports it (the whole client) runs only once they
// are here, so nothing is drawn before. <html lang> says which language the page is in.
//
// This module imports nothing (every other module waits on it): it reads the preference from
// prefs.js's store itself.

/**
 * The languages the server ships, each named in its own words (the settings offer them).
 * @type {Readonly<Record<string, string>>}
 */
export const LANGUAGES = Object.freeze({ en: "English", de: "Deutsch" });

/** The language every other falls back to. */
export const FALLBACK = "en";

/** @typedef {string | string[]} Template a message, or its forms by plural category */

/** @type {string} */
let current = FALLBACK;
/** @type {Record<string, Template>} */
let messages = {};
/** @type {Intl.PluralRules} */
let plurals = new Intl.PluralRules(FALLBACK);
/** @type {string[]} the current language's plural categories, in the order of its forms */
let forms = ["one", "other"];
/** @type {Intl.NumberFormat} */
let numbers = new Intl.NumberFormat(FALLBACK, { useGrouping: false, maximumFractionDigits: 6 });

/** The order in which CLDR (and gettext, for the shipped languages) lists plural forms. */
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

/**
 * The first shipped language among `tags` (BCP 47 tags, most wanted first: "de-AT", "en-US"),
 * else English.
 * @param {readonly string[]} tags
 * @returns {string}
 */
export function negotiate(tags) {
  for (const tag of tags) {
    const base = String(tag).trim().toLowerCase().split(/[-_]/)[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return FALLBACK;
}

/** Where prefs.js keeps the preferences (one JSON object); `lang` is the chosen language. */
const PREFS_KEY = "cardtable:prefs";

/** The language chosen in the settings ("": none, follow the browser). */
function chosenLanguage() {
  try {
    const lang = JSON.parse(localStorage.getItem(PREFS_KEY) ?? "{}")?.lang;
    return typeof lang === "string" ? lang : "";
  } catch {
    return "";
  }
}

/**
 * The language the person reads: the one chosen in the settings, else the browser's.
 * @returns {string}
 */
export function wantedLanguage() {
  const chosen = chosenLanguage();
  if (Object.hasOwn(LANGUAGES, chosen)) return chosen;
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language ?? ""];
  return negotiate(tags);
}

/** The language the page is in now (its messages loaded). */
export function language() {
  return current;
}

/**
 * Fetch the messages of `lang` (default: the wanted language) and speak it: every later t()
 * reads them, <html lang> says so. If they cannot be had, English is tried; if that fails too,
 * t() answers each key itself (the page still works, in keys).
 * @param {string} [lang]
 * @returns {Promise<void>}
 */
export async function loadMessages(lang = wantedLanguage()) {
  for (const code of lang === FALLBACK ? [lang] : [lang, FALLBACK]) {
    try {
      const res = await fetch(`/api/messages/${encodeURIComponent(code)}`, {
        headers: { Accept: "application/json" },
      });
      if (!res.ok) continue;
      const body = /** @type {{lang: string, messages: Record<string, Template>}} */ (
        await res.json()
      );
      use(body.lang, body.messages);
      return;
    } catch {
      // the next language, or keys
    }
  }
}

/**
 * Speak `lang` with `found` as its messages (what loadMessages does once they are here).
 * @param {string} lang
 * @param {Record<string, Template>} found
 */
export function use(lang, found) {
  current = lang;
  messages = found;
  plurals = new Intl.PluralRules(lang);
  const categories = /** @type {string[]} */ (plurals.resolvedOptions().pluralCategories);
  forms = CATEGORIES.filter((c) => categories.includes(c));
  numbers = new Intl.NumberFormat(lang, { useGrouping: false, maximumFractionDigits: 6 });
  document.documentElement.lang = lang;
  translateStatic(document);
}

/**
 * The template of `key` for the count `n`: a plural message's form for the category
 * Intl.PluralRules gives `n` in the current language.
 * @param {Template} found
 * @param {number | undefined} n
 */
function pick(found, n) {
  if (typeof found === "string") return found;
  if (n === undefined) return found[0] ?? "";
  const index = Math.max(0, forms.indexOf(plurals.select(n)));
  return found[Math.min(index, found.length - 1)] ?? "";
}

/**
 * A value as the current language writes it in a sentence: numbers with its decimal mark
 * (0.5 → "0,5" in German), without grouping (a room's target 1000 stays "1000").
 * @param {unknown} value
 */
function shown(value) {
  return typeof value === "number" ? numbers.format(value) : String(value ?? "");
}

/**
 * The message `key` in the current language, its `{name}` placeholders filled from `params`
 * (and `{n}` from `n`, the count that picks a plural form). `{{` and `}}` are braces. A key the
 * catalog lacks is answered with the key itself.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @param {number} [n]
 * @returns {string}
 */
export function t(key, params = {}, n) {
  const found = messages[key];
  if (found === undefined) return key;
  /** @type {Record<string, unknown>} */
  const values = n === undefined ? params : { ...params, n };
  return pick(found, n).replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    return Object.hasOwn(values, name) ? shown(values[name]) : whole;
  });
}

/**
 * Whether the current language has a message `key` (English included).
 * @param {string} key
 */
export function has(key) {
  return messages[key] !== undefined;
}

/**
 * Items in a list as a sentence says them: "Ann", "Ann and Bob", "Ann and Bob and Cy".
 * @param {readonly string[]} items
 */
export function joinAnd(items) {
  return items.join(t("ui.list.and"));
}

/**
 * The fixed words of a page written in its HTML (index.html, notfound.html), in the current
 * language: an element with `data-i18n="key"` gets the message as its text, one with
 * `data-i18n-label="key"` as its aria-label (the <title> too: its text is the tab's title).
 * @param {ParentNode} root
 */
export function translateStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const key = node.getAttribute("data-i18n") ?? "";
    if (has(key)) node.textContent = t(key);
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    const key = node.getAttribute("data-i18n-label") ?? "";
    if (has(key)) node.setAttribute("aria-label", t(key));
  }
}

// The messages, before any module that reads them runs.
await loadMessages();
