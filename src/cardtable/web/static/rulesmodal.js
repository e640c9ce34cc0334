// The rules of a game in a modal (GET /api/rules/{variant}), fetched once per variant.

import { api } from "./net.js";
import { markdownToHtml } from "./rules.js";
import { el, modal, toast } from "./ui.js";

const cache = new Map();

/** Open the rules of `variant` in a modal. */
export async function showRules(variant) {
  let rules = cache.get(variant);
  if (!rules) {
    try {
      rules = await api(`/api/rules/${encodeURIComponent(variant)}`);
    } catch (err) {
      toast(`Could not load the rules: ${err.message}`, "error");
      return;
    }
    cache.set(variant, rules);
  }
  const body = el("div", { class: "rules-text" });
  // markdownToHtml escapes the text before adding its own tags.
  body.innerHTML = markdownToHtml(rules.markdown);
  modal(`Rules: ${rules.title ?? variant}`, body, { className: "rules-modal" });
}
