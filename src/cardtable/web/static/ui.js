// Small DOM helpers shared by the pages: element builder, toasts, modals.

/**
 * Build an element: el("button", {class: "x", dataset: {action: "pass"}, onclick: f}, "Pass").
 * Attributes starting with "on" become listeners; `dataset` and `style` objects are merged;
 * other values are set as attributes (false/null/undefined skipped, true as "").
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(node.style, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Show a message in the toast area. kind: "error" | "info". Errors stay until dismissed. */
export function toast(message, kind = "info", { timeout } = {}) {
  const area = document.getElementById("toasts");
  const close = el("button", { class: "toast-close", "aria-label": "Dismiss message" }, "×");
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
  while (area.children.length > 4) area.firstElementChild.remove();
  const ms = timeout ?? (kind === "error" ? 8000 : 3000);
  if (ms > 0) setTimeout(remove, ms);
  return item;
}

let openModal = null;

/** Open a modal dialog with a title and body nodes; returns a function that closes it. */
export function modal(title, body, { className = "", onClose } = {}) {
  closeModal();
  const closeBtn = el("button", { class: "modal-close", "aria-label": "Close" }, "×");
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

/** Close the open modal, if any; returns whether one was open. */
export function closeModal() {
  if (!openModal) return false;
  openModal();
  return true;
}

export const isModalOpen = () => openModal !== null;

/** True when the user asked for less motion. */
export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Copy text to the clipboard, falling back to selecting an input. */
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
