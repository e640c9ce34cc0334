// @ts-check
// The seats of the live table before its game: taking a free seat (or watching) when this
// browser holds none, and the list of seats while the room waits for its players.

import { renderBar } from "./actionbar.js";
import { api, errorMessage, saveSeat } from "./net.js";
import { getName, setName } from "./prefs.js";
import { aidBadge } from "./table.js";
import { el, toast } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */
/** @typedef {import("./types/protocol").JoinedSeat} JoinedSeat */
/** @typedef {import("./types/protocol").StateMessage} StateMessage */

/**
 * No seat yet: take a free one, or watch.
 * @param {TablePage} page
 */
export function offerSeat(page) {
  const nameInput = el("input", {
    name: "join-name",
    value: getName(),
    maxlength: 24,
    "aria-label": "your name",
    placeholder: "your name",
  });
  const take = el(
    "button",
    {
      type: "button",
      class: "btn btn-primary",
      dataset: { ui: "take-seat" },
      onclick: async () => {
        take.disabled = true;
        try {
          const name = nameInput.value.trim();
          setName(name);
          const body = name ? { name } : {};
          const res = /** @type {JoinedSeat} */ (
            await api(`/api/rooms/${encodeURIComponent(page.room)}/join`, {
              method: "POST",
              body,
            })
          );
          saveSeat(page.room, res.seat, res.token);
          page.held = { seat: res.seat, token: res.token };
          page.ui.banner.replaceChildren();
          page.connect();
        } catch (err) {
          take.disabled = false;
          toast(`Could not take a seat: ${errorMessage(err)}`, "error");
        }
      },
    },
    "Take a free seat",
  );
  const watch = el(
    "button",
    {
      type: "button",
      class: "btn",
      dataset: { ui: "watch" },
      onclick: () => {
        page.ui.banner.replaceChildren();
        page.connect();
      },
    },
    "Watch",
  );
  page.ui.banner.replaceChildren(
    el(
      "div",
      { class: "banner banner-choice" },
      el("p", {}, "A seat at this table is free."),
      el("div", { class: "banner-actions" }, nameInput, take, watch),
    ),
  );
  take.focus();
}

/**
 * The room has no game yet: who sits where, and who is still awaited.
 * @param {TablePage} page
 * @param {StateMessage} state
 */
export function renderWaiting(page, state) {
  const names = page.names();
  const list = el(
    "ul",
    { class: "waiting-seats" },
    state.seats.map((s, i) =>
      el(
        "li",
        {},
        el("span", {
          class: `dot dot-${s.type === "ai" ? "ai" : s.online ? "online" : "offline"}`,
        }),
        names(i),
        s.type === "human" ? (s.taken ? "" : " — free seat") : "",
        i === state.seat ? " (you)" : "",
        s.memory_aid ? [" ", aidBadge()] : null,
      ),
    ),
  );
  page.ui.tableHost.replaceChildren(
    el(
      "div",
      { class: "waiting" },
      el("h2", {}, "Waiting for players"),
      el(
        "p",
        {},
        "Send the invite link to your friends; the game starts when every seat is taken.",
      ),
      list,
    ),
  );
  page.ui.statusEl.textContent = "Waiting for players";
  renderBar(page);
  page.ui.endHost.replaceChildren();
}
