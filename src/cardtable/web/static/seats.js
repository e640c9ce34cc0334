// @ts-check
// The seats of the live table before its game: the invite page (a preview of the table, and
// taking a free seat or watching) when this browser holds no seat, and the list of seats while
// the room waits for its players.

import { currentPlayer, openSignIn } from "./account.js";
import { renderBar } from "./actionbar.js";
import { language, t } from "./i18n.js";
import { api, errorMessage, saveSeat } from "./net.js";
import { getName, guestName, setName } from "./prefs.js";
import { aidBadge, matchFormat, seatName } from "./table.js";
import { el, toast } from "./ui.js";

/** @typedef {import("./tablepage.js").TablePage} TablePage */
/** @typedef {import("./types/protocol").JoinedSeat} JoinedSeat */
/** @typedef {import("./types/protocol").SeatInfo} SeatInfo */
/** @typedef {import("./lobby.js").ListedRoom} ListedRoom */
/**
 * A state, with the seconds until computer players take the open seats of a quick-play room
 * that waits for people.
 * @typedef {import("./types/protocol").StateMessage & {ai_fill_in?: number}} StateMessage
 */

const PREVIEW_REFRESH_MS = 4000;

/**
 * "about 18 seconds", "about a minute": the time left until computer players come.
 * @param {number} seconds
 * @returns {string}
 */
function aboutSeconds(seconds) {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return t("ui.seats.about_seconds", {}, s);
  return t("ui.seats.about_minutes", {}, Math.round(s / 60));
}

/**
 * A paragraph saying when computer players fill the free seats, counting down each second
 * (`deadline`: Date.now() milliseconds). It stops counting once it leaves the page.
 * @param {number} deadline
 * @param {"empty" | "free"} seats what the seats are called ("empty seats", "free seats")
 * @returns {HTMLParagraphElement}
 */
function fillNotice(deadline, seats) {
  const time = el("strong", { class: "fill-time" });
  // the sentence around the time, which stands where the message has {time}
  const [before, after = ""] = t(`ui.seats.fill_${seats}`).split("{time}");
  const para = el("p", { class: "fill-notice", dataset: { ui: "ai-fill" } }, before, time, after);
  const show = () => {
    const left = (deadline - Date.now()) / 1000;
    time.textContent = left > 0.5 ? aboutSeconds(left) : t("ui.seats.a_moment");
  };
  show();
  const timer = setInterval(() => {
    if (!para.isConnected) clearInterval(timer);
    else show();
  }, 1000);
  return para;
}

/** @type {WeakMap<object, number>} the moment (Date.now()) a frame or summary's wait ends */
const deadlines = new WeakMap();

/**
 * When the wait of `carrier` (a state or summary with `ai_fill_in`) ends, fixed at first sight.
 * @param {{ai_fill_in?: number}} carrier
 * @returns {number | null}
 */
function fillDeadline(carrier) {
  if (typeof carrier.ai_fill_in !== "number") return null;
  let at = deadlines.get(carrier);
  if (at === undefined) {
    at = Date.now() + carrier.ai_fill_in * 1000;
    deadlines.set(carrier, at);
  }
  return at;
}

/**
 * Who sits at each seat, in words: the person's name, the AI's level, or a free seat.
 * @param {SeatInfo[]} seats
 * @param {number} i
 * @param {number | null} mine this browser's seat
 * @returns {HTMLLIElement}
 */
function seatItem(seats, i, mine) {
  const s = seats[i];
  const free = s.type === "human" && !s.taken;
  const dot = s.type === "ai" ? "ai" : s.online ? "online" : "offline";
  let note = "";
  if (s.type === "ai") note = t("ui.table.computer");
  else if (free) note = t("ui.seats.waiting_for_player");
  else if (!s.online) note = t("ui.seats.not_here");
  return el(
    "li",
    { dataset: { seat: String(i), kind: free ? "free" : s.type } },
    el("span", { class: `dot dot-${free ? "free" : dot}`, "aria-hidden": "true" }),
    el("span", { class: "seat-who-name" }, free ? t("ui.seats.free_seat") : seatName(seats, i)),
    i === mine ? el("span", { class: "seat-you" }, t("ui.table.you_mark")) : null,
    note ? el("span", { class: "seat-note" }, note) : null,
    s.memory_aid ? aidBadge() : null,
  );
}

/**
 * The facts of a room for someone deciding to join: the game, its format, players, time per
 * turn, and each seat.
 * @param {ListedRoom} room
 * @returns {HTMLElement[]}
 */
function roomFacts(room) {
  const turn =
    typeof room.turn_time !== "number"
      ? null
      : room.turn_time > 0
        ? t("ui.seats.per_turn", { seconds: Math.round(room.turn_time) })
        : t("ui.seats.no_limit");
  const free = room.seats.filter((s) => s.type === "human" && !s.taken).length;
  const facts = [
    matchFormat(room.options),
    t("ui.seats.players", {}, room.players),
    turn,
    free ? t("ui.seats.free_seats", {}, free) : t("ui.seats.no_free_seat"),
  ].filter(Boolean);
  const out = [
    el("h2", { class: "preview-title", dataset: { ui: "preview-game" } }, room.title ?? room.game),
    el("p", { class: "preview-facts", dataset: { ui: "preview-facts" } }, facts.join(" · ")),
    el(
      "ul",
      { class: "preview-seats", dataset: { ui: "preview-seats" } },
      room.seats.map((_, i) => seatItem(room.seats, i, null)),
    ),
  ];
  const deadline = fillDeadline(room);
  if (deadline !== null) {
    out.push(fillNotice(deadline, "free"));
  }
  return out;
}

/**
 * No seat yet: a preview of the table (game, format, seats and who is there, time per turn),
 * then join it under the remembered name, or watch.
 * @param {TablePage} page
 */
export function offerSeat(page) {
  const room = /** @type {ListedRoom | null} */ (page.summary);
  const facts = el("div", { class: "preview-facts-host" }, room ? roomFacts(room) : []);
  const nameInput = el("input", {
    type: "text",
    name: "join-name",
    id: "join-name",
    value: getName(),
    maxlength: 24,
    autocomplete: "nickname",
  });
  /** @type {number | undefined} */
  let refresh = undefined;
  const take = el(
    "button",
    {
      type: "submit",
      class: "btn btn-primary",
      dataset: { ui: "take-seat" },
    },
    t("ui.seats.take"),
  );
  const watch = el(
    "button",
    {
      type: "button",
      class: "btn",
      dataset: { ui: "watch" },
      onclick: () => {
        clearInterval(refresh);
        page.connect();
      },
    },
    t("ui.seats.just_watch"),
  );
  const join = async () => {
    // a rated table seats signed-in players only: a guest is asked to sign in first
    if (room?.rated && !(await currentPlayer())) {
      openSignIn("signin");
      return;
    }
    take.disabled = true;
    try {
      const name = nameInput.value.trim() || guestName();
      const res = /** @type {JoinedSeat} */ (
        await api(`/api/rooms/${encodeURIComponent(page.room)}/join?lang=${language()}`, {
          method: "POST",
          body: { name },
        })
      );
      setName(name);
      clearInterval(refresh);
      saveSeat(page.room, res.seat, res.token);
      page.held = { seat: res.seat, token: res.token };
      page.ui.banner.replaceChildren();
      page.connect();
    } catch (err) {
      take.disabled = false;
      toast(t("ui.seats.no_seat", { problem: errorMessage(err) }), "error");
    }
  };
  page.ui.banner.replaceChildren();
  page.ui.statusEl.textContent = t("ui.seats.invited");
  page.ui.connDot.replaceChildren(el("span", { class: "conn-text" }, t("ui.seats.not_joined")));
  page.ui.tableHost.replaceChildren(
    el(
      "section",
      {
        class: "invite-preview",
        dataset: { ui: "invite-preview" },
        "aria-label": t("ui.seats.the_table"),
      },
      facts,
      room?.rated
        ? el("p", { class: "preview-rated", dataset: { ui: "preview-rated" } }, t("ui.seats.rated"))
        : null,
      el(
        "form",
        {
          class: "preview-join",
          onsubmit: (ev) => {
            ev.preventDefault();
            join();
          },
        },
        el("label", { for: "join-name" }, t("ui.lobby.your_name")),
        nameInput,
        el("div", { class: "preview-buttons" }, take, watch),
      ),
    ),
  );
  // Who is there changes while the person decides: the preview follows the room.
  refresh = setInterval(async () => {
    if (!facts.isConnected) {
      clearInterval(refresh);
      return;
    }
    try {
      const fresh = /** @type {ListedRoom} */ (
        await api(`/api/rooms/${encodeURIComponent(page.room)}`)
      );
      if (facts.isConnected) facts.replaceChildren(...roomFacts(fresh));
    } catch {
      // the next refresh tries again; the join says what is wrong if it fails
    }
  }, PREVIEW_REFRESH_MS);
  take.focus();
}

/**
 * The room has no game yet: who sits where, and who is still awaited.
 * @param {TablePage} page
 * @param {StateMessage} state
 */
export function renderWaiting(page, state) {
  const list = el(
    "ul",
    { class: "waiting-seats" },
    state.seats.map((_, i) => seatItem(state.seats, i, state.seat)),
  );
  const deadline = fillDeadline(state);
  page.ui.tableHost.replaceChildren(
    el(
      "div",
      { class: "waiting" },
      el("h2", {}, t("ui.seats.waiting")),
      deadline !== null
        ? [
            fillNotice(deadline, "empty"),
            el("p", { class: "field-note" }, t("ui.seats.quick_note")),
          ]
        : el("p", {}, t("ui.seats.invite_note")),
      list,
    ),
  );
  page.ui.statusEl.textContent = t("ui.seats.waiting");
  renderBar(page);
  page.ui.endHost.replaceChildren();
}
