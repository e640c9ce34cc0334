// Player preferences, kept in localStorage.

const KEY = "cardtable:prefs";
const DEFAULTS = { memoryAid: true, sound: false };

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) ?? "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Current value of a preference. */
export function getPref(name) {
  return load()[name];
}

/** Store a preference. */
export function setPref(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...load(), [name]: value }));
}

/** The name a player last typed (lobby, joins). */
export function getName() {
  return localStorage.getItem("cardtable:name") ?? "";
}

export function setName(name) {
  localStorage.setItem("cardtable:name", name);
}
