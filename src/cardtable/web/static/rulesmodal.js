// @ts-check
// The rules of a game in a modal (GET /api/rules/{variant}), fetched once per variant.

import { api, errorMessage } from "./net.js";
import { markdownToHtml } from "./rules.js";
import { el, modal, toast } from "./ui.js";

/** @typedef {import("./types/protocol").RulesText} RulesText */

/** @type {Map<string, RulesText>} */
const cache = new Map();

/**
 * Open the rules of `variant` in a modal.
 * @param {string} variant
 */
export async function showRules(variant) {
  let rules = cache.get(variant);
  if (!rules) {
    try {
      rules = /** @type {RulesText} */ (await api(`/api/rules/${encodeURIComponent(variant)}`));
    } catch (err) {
      toast(`Could not load the rules: ${errorMessage(err)}`, "error");
      return;
    }
    cache.set(variant, rules);
  }
  const body = el("div", { class: "rules-text" });
  // markdownToHtml escapes the text before adding its own tags.
  body.innerHTML = markdownToHtml(rules.markdown);
  modal(`Rules: ${rules.title ?? variant}`, body, { className: "rules-modal" });
}
