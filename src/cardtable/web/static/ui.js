// @ts-check
// Small DOM helpers shared by the pages: element builder, toasts, modals.

import { language, t } from "./i18n.js";

/**
 * What el() appends: nodes, and text (a string or number); null, undefined and false are
 * skipped, and an array's items are appended in turn (one level deep).
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * The attributes el() sets: `class`, `dataset` and `style` objects, listeners ("on…"), and any
 * attribute (false/null/undefined skipped, true as "").
 * @typedef {{
 *   class?: string,
 *   dataset?: Record<string, string>,
 *   style?: Record<string, string>,
 *   onclick?: (ev: MouseEvent) => unknown,
 *   onfocus?: (ev: FocusEvent) => unknown,
 *   onchange?: (ev: Event) => unknown,
 *   oninput?: (ev: Event) => unknown,
 *   onsubmit?: (ev: SubmitEvent) => unknown,
 *   [name: string]: unknown,
 * }} Attrs
 */

/**
 * Build an element: el("button", {class: "x", dataset: {action: "pass"}, onclick: f}, "Pass").
 * Attributes starting with "on" become listeners; `dataset` and `style` objects are merged;
 * other values are set as attributes (false/null/undefined skipped, true as "").
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") {
      for (const [prop, value] of Object.entries(/** @type {object} */ (v))) {
        // A custom property ("--n") is set only through setProperty.
        if (prop.startsWith("--")) node.style.setProperty(prop, String(value));
        else Object.assign(node.style, { [prop]: value });
      }
    } else if (k.startsWith("on") && typeof v === "function") {
      node.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    } else if (k === "class") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * The element of the page with this id (index.html's fixed parts: #app, #page-tools, #toasts).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

/**
 * Show a message in the toast area. Errors stay until dismissed.
 * @param {string} message
 * @param {"info" | "error"} [kind]
 * @param {{timeout?: number}} [options] how long it stays (ms; 0: until dismissed)
 * @returns {HTMLDivElement}
 */
export function toast(message, kind = "info", { timeout } = {}) {
  const area = byId("toasts");
  const close = el("button", { class: "toast-close", "aria-label": t("ui.ui.dismiss") }, "×");
  const item = el(
    "div",
    { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" },
    el("span", { class: "toast-text" }, message),
    close,
  );
  const remove = () => item.remove();
  close.addEventListener("click", remove);
  area.append(item);
  // Keep at most four messages on screen.
  while (area.children.length > 4) area.firstElementChild?.remove();
  const ms = timeout ?? (kind === "error" ? 8000 : 3000);
  if (ms > 0) setTimeout(remove, ms);
  return item;
}

/** @type {(() => void) | null} */
let openModal = null;

/**
 * Open a modal dialog with a title and body nodes; returns a function that closes it.
 * @param {string} title
 * @param {Child | Child[]} body
 * @param {{className?: string, onClose?: () => void}} [options]
 * @returns {() => void}
 */
export function modal(title, body, { className = "", onClose } = {}) {
  closeModal();
  const closeBtn = el("button", { class: "modal-close", "aria-label": t("ui.ui.close") }, "×");
  const box = el(
    "div",
    {
      class: `modal ${className}`,
      role: "dialog",
      "aria-modal": "true",
      "aria-label": title,
    },
    el("div", { class: "modal-head" }, el("h2", {}, title), closeBtn),
    el("div", { class: "modal-body" }, body),
  );
  const backdrop = el("div", { class: "modal-backdrop" }, box);
  const previous = document.activeElement;
  const close = () => {
    if (openModal !== close) return;
    openModal = null;
    backdrop.remove();
    onClose?.();
    if (previous instanceof HTMLElement) previous.focus();
  };
  closeBtn.addEventListener("click", close);
  backdrop.addEventListener("click", (ev) => {
    if (ev.target === backdrop) close();
  });
  document.body.append(backdrop);
  openModal = close;
  closeBtn.focus();
  return close;
}

// Escape closes the open dialog on every page (the lobby's rules too), and does nothing else:
// this listener comes before the pages' own (ui.js is loaded first), and stops the key there.
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !openModal || ev.defaultPrevented) return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
  closeModal();
});

/** Close the open modal, if any; returns whether one was open. */
export function closeModal() {
  if (!openModal) return false;
  openModal();
  return true;
}

export const isModalOpen = () => openModal !== null;

/** True when the user asked for less motion. */
export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Copy text to the clipboard, falling back to selecting an input.
 * @param {string} text
 * @param {HTMLInputElement} [input]
 * @returns {Promise<boolean>}
 */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      return document.execCommand?.("copy") ?? false;
    }
    return false;
  }
}

/**
 * Whether a scrolling list shows its end (within a line's height): a reader there is kept at
 * the end as lines are added; one who scrolled up to read back is left where they are.
 * @param {Element} list
 */
export function atEnd(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 24;
}

/** Whether the screen is touched with a finger rather than pointed at with a mouse. */
export function isTouch() {
  return window.matchMedia("(pointer: coarse)").matches;
}

/** "tap" on a touch screen, else "click": the word for pressing a card or a button. */
export function tapOrClick() {
  return isTouch() ? "tap" : "click";
}

/**
 * Words written for a mouse, said for the screen in use: on a touch screen every "click"
 * becomes "tap" ("Click one of your cards" → "Tap one of your cards"; German "klicke" →
 * "tippe", "anklicken" → "antippen"); a Shift-click, which a touch screen has not, is left
 * alone.
 * @param {string} text
 */
export function forTheScreen(text) {
  if (!isTouch()) return text;
  if (language() === "de") {
    return text.replace(/(?<!Shift-)([Kk])lick/g, (_, k) => (k === "K" ? "Tipp" : "tipp"));
  }
  /** @type {Record<string, string>} */
  const ends = { ed: "ped", ing: "ping" };
  return text.replace(
    /(?<!Shift-)\b([Cc])lick(s|ed|ing)?\b/g,
    (_, c, end = "") => (c === "C" ? "Tap" : "tap") + (ends[end] ?? end),
  );
}
