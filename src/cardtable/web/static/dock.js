// @ts-check
// The docked parts of the live table (dock.css): on a phone the prompt, the person's own seat
// and the action bar lie fixed at the bottom of the screen, one above the other, and the page
// keeps room for them under the table; on a wide screen the own seat sticks above the action
// bar. Their heights are kept in CSS variables on <html>: --bar-h (the action bar), --me-h (the
// own seat, where it is docked), --dock-h (the three together).

/**
 * The parts watched: the action bar, the status row (the prompt) and the table's host, whose
 * own seat (`.area-me`) is drawn anew with every state.
 * @typedef {{bar: HTMLElement, prompt: HTMLElement, host: HTMLElement}} DockParts
 */

/** @type {DockParts | null} */
let parts = null;
/** @type {ResizeObserver | null} */
let observer = null;
/** @type {Element | null} the own seat's area being watched */
let watchedMe = null;

/**
 * The height an element takes on screen (0 when it is not drawn).
 * @param {Element | null} node
 */
function height(node) {
  // (not offsetParent, which is null for a fixed element too)
  return node && node.getClientRects().length ? node.getBoundingClientRect().height : 0;
}

/** Write the heights of the docked parts into the CSS variables. */
function update() {
  if (!parts) return;
  const bar = height(parts.bar);
  // The own seat counts only where it is docked (a spectator's bottom seat stays in the table).
  const seat = parts.host.querySelector(".area-me");
  const me = seat && getComputedStyle(seat).position === "fixed" ? height(seat) : 0;
  const prompt = height(parts.prompt);
  const root = document.documentElement.style;
  root.setProperty("--bar-h", `${Math.ceil(bar)}px`);
  root.setProperty("--me-h", `${Math.ceil(me)}px`);
  root.setProperty("--dock-h", `${Math.ceil(bar + me + prompt)}px`);
}

/**
 * Keep the dock's variables right after a redraw (and whenever a part changes size later: a
 * wrapped line, a turned phone).
 * @param {DockParts} next
 */
export function dock(next) {
  if (!observer) {
    observer = new ResizeObserver(update);
    window.addEventListener("resize", update);
  }
  if (parts?.bar !== next.bar) observer.observe(next.bar);
  if (parts?.prompt !== next.prompt) observer.observe(next.prompt);
  parts = next;
  const me = next.host.querySelector(".area-me");
  if (me !== watchedMe) {
    if (watchedMe) observer.unobserve(watchedMe);
    if (me) observer.observe(me);
    watchedMe = me;
  }
  update();
}
