// @ts-check
// Accounts (web/accounts.py): signing up, in and out from a page's top bar, and what an account
// brings — the seats this browser played as a guest claimed for it, the player's open tables on
// any device, a seat resumed where this browser holds none. Playing as a guest needs none of it.
//
// The session is an HttpOnly cookie the page cannot read: who is signed in comes from
// GET /api/account, asked once per page. A hint in localStorage (the name, `cardtable:account`)
// says this browser signed in once, so that a guest's table page asks the server nothing more.

import { t } from "./i18n.js";
import { api, ApiError, errorMessage, heldSeats, loadSeat, saveSeat } from "./net.js";
import { setName } from "./prefs.js";
import { el, toast } from "./ui.js";

/** @typedef {import("./types/protocol").AccountAnswer} AccountAnswer */
/** @typedef {import("./types/protocol").AccountPlayer} AccountPlayer */
/** @typedef {import("./types/protocol").ClaimAnswer} ClaimAnswer */
/** @typedef {import("./types/protocol").HeldSeat} HeldSeat */
/** @typedef {import("./types/protocol").ResumedSeat} ResumedSeat */
/** @typedef {import("./types/protocol").YourTable} YourTable */
/** @typedef {import("./types/protocol").YourTables} YourTables */

/** Where this browser notes that it signed in (the player's name; never the session). */
const HINT_KEY = "cardtable:account";

/** Seats sent per claim. */
const CLAIM_BATCH = 50;

/** An answer the browser must not take from its cache (the cookie decides it). */
const FRESH = { headers: { Accept: "application/json" } };

/** @type {Promise<AccountPlayer | null> | null} */
let asked = null;
/** Whether the server offers accounts at all (false: it answered 404). */
let offered = true;
const changes = new EventTarget();

/** @param {AccountPlayer | null} player */
function remember(player) {
  try {
    if (player) localStorage.setItem(HINT_KEY, player.name);
    else localStorage.removeItem(HINT_KEY);
  } catch {
    // storage refused: the hint only spares a request
  }
}

/**
 * The signed-in player, or null (a guest, or a server without accounts): asked once per page,
 * later calls share the answer.
 * @returns {Promise<AccountPlayer | null>}
 */
export function currentPlayer() {
  asked ??= /** @type {Promise<AccountAnswer>} */ (api("/api/account", FRESH)).then(
    (answer) => {
      remember(answer.player);
      return answer.player;
    },
    (err) => {
      if (err instanceof ApiError && err.status === 404) offered = false;
      return null;
    },
  );
  return asked;
}

/**
 * Say who is signed in now (after signing in, out, or deleting the account): every listener
 * of onAccountChange is told.
 * @param {AccountPlayer | null} player
 */
function changed(player) {
  asked = Promise.resolve(player);
  remember(player);
  changes.dispatchEvent(new CustomEvent("change", { detail: player }));
}

/**
 * Call `handler` whenever the person signs in or out on this page.
 * @param {(player: AccountPlayer | null) => void} handler
 */
export function onAccountChange(handler) {
  changes.addEventListener("change", (ev) =>
    handler(/** @type {CustomEvent<AccountPlayer | null>} */ (ev).detail),
  );
}

/** Sign out; the page is told (onAccountChange). */
export async function signOut() {
  try {
    await api("/api/account/signout", { method: "POST" });
  } catch (err) {
    toast(t("ui.account.no_signout", { problem: errorMessage(err) }), "error");
    return;
  }
  changed(null);
  toast(t("ui.account.signed_out"));
}

/** The player's account is gone (deleted): the page is told. */
export function forgetAccount() {
  changed(null);
}

/**
 * Claim every seat this browser holds as a guest for the signed-in account; returns how many
 * became its games.
 * @returns {Promise<number>}
 */
export async function claimGuestSeats() {
  const seats = heldSeats();
  let claimed = 0;
  for (let i = 0; i < seats.length; i += CLAIM_BATCH) {
    const answer = /** @type {ClaimAnswer} */ (
      await api("/api/account/claim", {
        method: "POST",
        body: { seats: seats.slice(i, i + CLAIM_BATCH) },
      })
    );
    claimed += Number(answer.claimed) || 0;
  }
  return claimed;
}

/**
 * The signed-in player's open tables (waiting or playing), on any device.
 * @returns {Promise<YourTable[]>}
 */
export async function yourTables() {
  const answer = /** @type {YourTables} */ (await api("/api/account/tables", FRESH));
  return answer.tables ?? [];
}

/**
 * A fresh key for the player's seat in `room`, kept as a joined seat is (net.js); throws
 * ApiError when the player has no seat there (404, 403) or is not signed in (401).
 * @param {string} room
 * @returns {Promise<HeldSeat>}
 */
export async function resumeTable(room) {
  const answer = /** @type {ResumedSeat} */ (
    await api(`/api/account/tables/${encodeURIComponent(room)}/resume`, { method: "POST" })
  );
  saveSeat(answer.room || room, answer.seat, answer.token);
  return { seat: answer.seat, token: answer.token };
}

/**
 * Open the player's seat in `room` (one from "Your tables"): with the key this browser holds,
 * else a fresh one. Says why when there is none.
 * @param {string} room
 * @param {number} seat
 */
export async function goToTable(room, seat) {
  const held = loadSeat(room);
  if (!held || held.seat !== seat) {
    try {
      await resumeTable(room);
    } catch (err) {
      toast(t("ui.account.no_resume", { problem: errorMessage(err) }), "error");
      return;
    }
  }
  location.assign(`/r/${encodeURIComponent(room)}`);
}

/**
 * At a table page: the seat a signed-in player has in `room` though this browser holds no key
 * for it (they sat down on another device), or null — a guest, or no seat there: then the page
 * goes on as it would (a spectator, or the offer of a free seat), silently.
 * @param {string} room
 * @returns {Promise<HeldSeat | null>}
 */
export async function resumeHere(room) {
  let hinted = null;
  try {
    hinted = localStorage.getItem(HINT_KEY);
  } catch {
    hinted = null;
  }
  if (!hinted) return null;
  try {
    return await resumeTable(room);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) remember(null);
    return null;
  }
}

// --- the top bar's control -------------------------------------------------------------------

/**
 * The top bar's account control: "Sign in" for a guest; the player's name (a link to their
 * profile) and "Sign out" once signed in. Nothing while the answer is awaited, or where the
 * server has no accounts.
 * @returns {HTMLSpanElement}
 */
export function accountControl() {
  const box = el("span", { class: "account-box", dataset: { ui: "account" } });
  /** @param {AccountPlayer | null} player */
  const draw = (player) => {
    if (!offered) {
      box.replaceChildren();
      return;
    }
    box.dataset.state = player ? "in" : "out";
    if (!player) {
      box.replaceChildren(
        el(
          "button",
          {
            type: "button",
            class: "btn",
            dataset: { ui: "sign-in" },
            onclick: () => openSignIn("signin"),
          },
          t("ui.account.sign_in"),
        ),
      );
      return;
    }
    box.replaceChildren(
      el(
        "a",
        {
          class: "account-name",
          href: profileUrl(player.name),
          dataset: { ui: "account-name" },
          title: t("ui.account.profile_title"),
        },
        player.name,
      ),
      el(
        "button",
        { type: "button", class: "btn", dataset: { ui: "sign-out" }, onclick: () => signOut() },
        t("ui.account.sign_out"),
      ),
    );
  };
  currentPlayer().then(draw);
  onAccountChange(draw);
  return box;
}

/**
 * A player's profile page.
 * @param {string} name
 */
export function profileUrl(name) {
  return `/p/${encodeURIComponent(name)}`;
}

// --- the sign-in dialog ----------------------------------------------------------------------

/**
 * A native dialog (<dialog>, modal): its heading, a close button and `body`; removed from the
 * page once closed. Escape and a click beside it close it.
 * @param {string} title
 * @param {Node[]} body
 * @param {{className?: string, ui?: string}} [options]
 * @returns {HTMLDialogElement}
 */
export function openDialog(title, body, { className = "", ui = "" } = {}) {
  const heading = el("h2", { id: `dlg-${Date.now()}` }, title);
  /** @type {HTMLDialogElement} */
  const dialog = el(
    "dialog",
    {
      class: `dialog ${className}`,
      "aria-labelledby": heading.id,
      dataset: ui ? { ui } : {},
    },
    el(
      "div",
      { class: "modal-head" },
      heading,
      el(
        "button",
        {
          type: "button",
          class: "modal-close",
          "aria-label": t("ui.ui.close"),
          onclick: () => dialog.close(),
        },
        "×",
      ),
    ),
    el("div", { class: "modal-body" }, body),
  );
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) dialog.close(); // the backdrop
  });
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/**
 * The dialog to sign in, or (`mode` "signup") to create an account; the link at its foot
 * switches between the two. Once in, the seats this browser played as a guest are claimed,
 * and the page told.
 * @param {"signin" | "signup"} mode
 * @param {{name?: string}} [given] what the person typed so far
 */
export function openSignIn(mode, given = {}) {
  const signup = mode === "signup";
  /** @type {HTMLInputElement} */
  const name = el("input", {
    type: "text",
    id: "acc-name",
    name: "username",
    maxlength: 24,
    required: true,
    autocomplete: "username",
    autocapitalize: "off",
    spellcheck: "false",
    value: given.name ?? (localStorage.getItem(HINT_KEY) || ""),
  });
  /** @type {HTMLInputElement} */
  const password = el("input", {
    type: "password",
    id: "acc-password",
    name: "password",
    required: true,
    minlength: signup ? 8 : false,
    autocomplete: signup ? "new-password" : "current-password",
    "aria-describedby": signup ? "acc-password-note" : false,
  });
  const problem = el("p", {
    class: "error-text",
    role: "alert",
    dataset: { ui: "account-error" },
    hidden: true,
  });
  const submit = el(
    "button",
    { type: "submit", class: "btn btn-primary", dataset: { ui: "account-submit" } },
    signup ? t("ui.account.create") : t("ui.account.sign_in"),
  );
  const other = el(
    "button",
    {
      type: "button",
      class: "linkish",
      dataset: { ui: "account-mode" },
      onclick: () => {
        dialog.close();
        openSignIn(signup ? "signin" : "signup", { name: name.value });
      },
    },
    signup ? t("ui.account.to_sign_in") : t("ui.account.to_create"),
  );
  const form = el(
    "form",
    {
      class: "account-form",
      onsubmit: (ev) => {
        ev.preventDefault();
        send();
      },
    },
    el("p", { class: "field-note" }, signup ? t("ui.account.create_lead") : t("ui.account.lead")),
    el(
      "div",
      { class: "field" },
      el("label", { for: "acc-name" }, t("ui.account.name")),
      name,
    ),
    el(
      "div",
      { class: "field" },
      el("label", { for: "acc-password" }, t("ui.account.password")),
      password,
      signup
        ? el("p", { class: "field-note", id: "acc-password-note" }, t("ui.account.password_note"))
        : null,
    ),
    problem,
    submit,
    el(
      "p",
      { class: "account-switch" },
      signup ? t("ui.account.have_one") : t("ui.account.have_none"),
      " ",
      other,
    ),
  );
  /** @type {HTMLDialogElement} */
  const dialog = openDialog(signup ? t("ui.account.create") : t("ui.account.sign_in"), [form], {
    className: "account-dialog",
    ui: "account-dialog",
  });
  (name.value ? password : name).focus();

  async function send() {
    problem.hidden = true;
    submit.disabled = true;
    /** @type {AccountPlayer | null} */
    let player = null;
    try {
      const answer = /** @type {AccountAnswer} */ (
        await api(signup ? "/api/account/signup" : "/api/account/signin", {
          method: "POST",
          body: { name: name.value.trim(), password: password.value },
        })
      );
      player = answer.player;
    } catch (err) {
      submit.disabled = false;
      const why = refusal(err);
      problem.textContent = why.charAt(0).toUpperCase() + why.slice(1);
      problem.hidden = false;
      password.select();
      return;
    }
    if (!player) return;
    dialog.close();
    setName(player.name);
    let words = signup
      ? t("ui.account.welcome_new", { name: player.name })
      : t("ui.account.welcome", { name: player.name });
    try {
      const claimed = await claimGuestSeats();
      if (claimed) words += ` ${t("ui.account.claimed", {}, claimed)}`;
    } catch (err) {
      toast(t("ui.account.no_claim", { problem: errorMessage(err) }), "error");
    }
    changed(player);
    toast(words, "info", { timeout: 6000 });
  }
}

/**
 * Why signing in or up was refused, in words: the server's reason, or ours for a limit.
 * @param {unknown} err
 */
function refusal(err) {
  if (err instanceof ApiError && err.status === 429) {
    return err.message && !/^429\b/.test(err.message) ? err.message : t("ui.account.too_many");
  }
  return errorMessage(err);
}
