// @ts-check
// The rules of a game in a modal: the plain-words page (GET /api/rules/{variant}?plain=1&lang=…)
// in the reader's language, its cards drawn as on the table (value badges included), fetched
// once per variant and language.

import { cardElement } from "./cardview.js";
import { language, t } from "./i18n.js";
import { api, errorMessage } from "./net.js";
import { markdownToHtml } from "./rules.js";
import { el, modal, toast } from "./ui.js";
import { variantInfo } from "./variants.js";

/** @typedef {import("./types/protocol").RulesText} RulesText */

/** @type {Map<string, RulesText>} */
const cache = new Map();

/**
 * The language the rules are shown in: the page's (i18n.js: the one chosen in the settings, else
 * the browser's); the server answers English for a language the rules are not written in.
 * @returns {string}
 */
export function rulesLanguage() {
  return language();
}

/** How wide a card is drawn in a line of text, and in a table of the rules (the legend). */
const CARD_WIDTH = { text: "1.7em", table: "2.2em" };

/**
 * Fill each card token of a rendered rules page (span.rules-card[data-card]) with the card's
 * face, its power word and its value badge as the table draws them, small enough to sit in a
 * line of text; in a table cell the cards that open it stay together on one line, the words
 * after them wrap below on a narrow screen.
 * @param {HTMLElement} body
 * @param {string} variant
 */
export function drawRulesCards(body, variant) {
  const info = variantInfo(variant);
  for (const slot of body.querySelectorAll("span.rules-card[data-card]")) {
    const code = slot instanceof HTMLElement ? (slot.dataset.card ?? "") : "";
    if (!code) continue;
    const card = cardElement({
      code,
      faceUp: true,
      size: "sm",
      powers: info?.powers ?? null,
      marks: info?.value_marks ?? null,
    });
    // Sized and placed in the line by the CSSOM (allowed under the page's style-src 'self').
    card.style.setProperty("--w", slot.closest("td") ? CARD_WIDTH.table : CARD_WIDTH.text);
    Object.assign(card.style, {
      display: "inline-block",
      verticalAlign: "middle",
      margin: "2px 1px",
    });
    slot.replaceWith(card);
  }
  for (const cell of body.querySelectorAll("td")) keepCardsTogether(cell);
}

/**
 * Gather the cards a table cell opens with (and the spaces and "…" between them) into one
 * unbreakable group.
 * @param {Element} cell
 */
function keepCardsTogether(cell) {
  /** @type {ChildNode[]} */
  const lead = [];
  for (const child of cell.childNodes) {
    const isCard = child instanceof HTMLElement && child.classList.contains("card");
    const between = child.nodeType === Node.TEXT_NODE && /^[\s…]*$/.test(child.textContent ?? "");
    if (!isCard && !between) break;
    lead.push(child);
  }
  while (lead.length && !(lead.at(-1) instanceof HTMLElement)) lead.pop();
  if (!lead.length) return;
  const group = el("span", { class: "rules-cards", style: { whiteSpace: "nowrap" } });
  lead[0].before(group);
  group.append(...lead);
}

/**
 * Open the rules of `variant` in a modal.
 * @param {string} variant
 */
export async function showRules(variant) {
  const lang = rulesLanguage();
  const key = `${variant}\n${lang}`;
  let rules = cache.get(key);
  if (!rules) {
    try {
      const url = `/api/rules/${encodeURIComponent(variant)}?plain=1&lang=${lang}`;
      rules = /** @type {RulesText} */ (await api(url));
    } catch (err) {
      toast(t("ui.rulesmodal.failed", { error: errorMessage(err) }), "error");
      return;
    }
    cache.set(key, rules);
  }
  // data-illustration: the cards drawn here are the rules' examples, never a seat's cards
  const body = el("div", { class: "rules-text", lang: rules.lang ?? lang, "data-illustration": "rules" });
  // markdownToHtml escapes the text before adding its own tags.
  body.innerHTML = markdownToHtml(rules.markdown);
  drawRulesCards(body, rules.variant ?? variant);
  modal(rules.heading ?? t("ui.rulesmodal.heading", { title: rules.title ?? variant }), body, { className: "rules-modal" });
}
