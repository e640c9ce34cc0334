// @ts-check
// The status line of the live table: what is going on, and what the viewer can do. (Every move
// is phrased by the server: each event's `said`, drawn by said.js.)

import { cardShort } from "./cards.js";
import { t } from "./i18n.js";
import { countWord, isSheddingView, variantInfo } from "./variants.js";

/** @typedef {import("./types/view").View} View */
/** @typedef {import("./table.js").Names} Names */

/**
 * A short status line: what is going on, and what the viewer can do.
 * @param {View} view
 * @param {number | null} viewer
 * @param {Names} names
 * @returns {string}
 */
export function statusLine(view, viewer, names) {
  if (view.over) return t("ui.words.over");
  const mine = viewer !== null && view.actors.includes(viewer) && view.legal?.length;
  const verbs = new Set((view.legal ?? []).map((a) => a.split(" ")[0]));
  if (view.phase === "peek") {
    const left = viewer === null ? null : view.peeks_left?.[viewer];
    const peeks = variantInfo(view.game)?.initial_peeks ?? 2;
    return left
      ? t("ui.words.peek_yours", { count: countWord(left) }, left)
      : t("ui.words.peek_all", { count: countWord(peeks) }, peeks);
  }
  if (!mine) {
    if (view.phase === "snap") return t("ui.words.snap_window");
    if (!view.actors.length) return "";
    const acting = view.actors.map(names).join(", ");
    return t("ui.words.playing", { who: acting }, view.actors.length);
  }
  if (isSheddingView(view)) {
    if (verbs.has("qute")) return t("ui.words.qute");
    if (verbs.has("suit")) return t("ui.words.suit");
    if (verbs.has("eights")) return t("ui.words.eights");
    if (verbs.has("jpoints")) return t("ui.words.jpoints");
    if (view.must_cover) return t("ui.words.cover");
    if (verbs.has("play")) return t("ui.words.play");
    return t("ui.words.nothing_fits");
  }
  if (view.phase === "snap") return t("ui.words.snap");
  if (verbs.has("give")) return t("ui.words.give");
  if (view.phase === "look" && verbs.has("exchange")) return t("ui.words.exchange");
  // (typeof: a Qute view, whose `pending` is a word, comes here when the variants are unknown)
  const pending = typeof view.pending === "object" ? view.pending : null;
  if (pending && "power" in pending && pending.power) {
    const p = pending.power;
    const key = `ui.words.power.${p}`;
    const how = ["peek", "spy", "exchange", "look"].includes(p) ? t(key) : p;
    return t(verbs.has("pass") ? "ui.words.power_or_pass" : "ui.words.power", {
      card: cardShort(pending.card),
      how,
    });
  }
  if (view.drawn && view.drawer === viewer) {
    const claim = (view.legal ?? []).some((a) => /^replace \d+ \d+/.test(a));
    return [
      t("ui.words.replace"),
      claim ? t("ui.words.replace_claim") : "",
      verbs.has("discard") ? t("ui.words.replace_discard") : "",
      verbs.has("drop") ? t("ui.words.replace_drop") : "",
    ].join("");
  }
  if (verbs.has("draw")) {
    return t(verbs.has("drop") ? "ui.words.draw_or_drop" : "ui.words.draw");
  }
  if (verbs.has("drop")) return t("ui.words.drop");
  return t("ui.words.your_turn");
}
