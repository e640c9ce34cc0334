// @ts-check
// The one-page client: picks the page from location.pathname.
//   /                      lobby
//   /r/{room}              the table
//   /r/{room}/history      the room's games
//   /r/{room}/replay/{n}   a finished game, move by move
//   /r/{room}/review/{n}   a finished game's decisions weighed, beside its open hands

import { HistoryPage } from "./history.js";
import { t } from "./i18n.js";
import { ReplayPage } from "./replay.js";
import { ReviewPage } from "./review.js";
import { LobbyPage } from "./lobby.js";
import { TablePage } from "./tablepage.js";
import { errorMessage } from "./net.js";
import { byId, el, toast } from "./ui.js";
import { loadVariants } from "./variants.js";

/**
 * The page for `path`, or null (then the page says there is none).
 * @param {string} path
 * @returns {LobbyPage | TablePage | HistoryPage | ReplayPage | ReviewPage | null}
 */
function route(path) {
  const root = byId("app");
  const room = "([A-Za-z0-9_-]+)";
  let m;
  if (path === "/" || path === "/index.html") return new LobbyPage(root);
  if ((m = new RegExp(`^/r/${room}/?$`).exec(path))) return new TablePage(root, m[1]);
  if ((m = new RegExp(`^/r/${room}/history/?$`).exec(path))) return new HistoryPage(root, m[1]);
  if ((m = new RegExp(`^/r/${room}/replay/(\\d+)/?$`).exec(path))) {
    return new ReplayPage(root, m[1], Number(m[2]));
  }
  if ((m = new RegExp(`^/r/${room}/review/(\\d+)/?$`).exec(path))) {
    return new ReviewPage(root, m[1], Number(m[2]));
  }
  root.replaceChildren(
    el("p", {}, t("ui.app.no_page"), " ", el("a", { href: "/" }, t("ui.app.to_lobby"))),
  );
  return null;
}

// Anything that goes wrong in the client is shown, not swallowed.
window.addEventListener("error", (ev) =>
  toast(t("ui.app.client_error", { problem: ev.message }), "error"),
);
window.addEventListener("unhandledrejection", (ev) =>
  toast(t("ui.app.client_error", { problem: ev.reason?.message ?? ev.reason }), "error"),
);

document.body.dataset.page = "loading";
// The browser tests' hook is there as soon as the client runs (the words are loaded by then,
// the games not yet): no state until the table page has one and fills it in.
window.cardtable = { state: () => null, clicksFor: () => null };
// Every page reads what it shows of a game (its kind, call word, card powers) from the
// variants the server lists; without them the lobby says what went wrong.
try {
  await loadVariants();
} catch (err) {
  toast(t("ui.app.no_games", { problem: errorMessage(err) }), "error");
}
const page = route(location.pathname);
if (page) {
  document.body.dataset.page = page.constructor.name.replace("Page", "").toLowerCase();
  page.start();
}
