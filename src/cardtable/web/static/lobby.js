// @ts-check
// The lobby, /: play now (a seat at a table of strangers, computer players if nobody comes),
// create a table, or join or watch an open one.

import {
  accountControl,
  currentPlayer,
  goToTable,
  onAccountChange,
  openSignIn,
  yourTables,
} from "./account.js";
import { has, language, t } from "./i18n.js";
import { api, errorMessage, loadSeat, saveSeat } from "./net.js";
import { getName, getPref, guestName, setName, setPref } from "./prefs.js";
import { showRules } from "./rulesmodal.js";
import { settingsButton } from "./settings.js";
import { AID_TEXT, levelName, matchFormat, seatName } from "./table.js";
import { byId, el, toast } from "./ui.js";
import { loadVariants, variantInfo } from "./variants.js";

/** @typedef {import("./types/protocol").CreateRoomBody} CreateRoomBody */
/** @typedef {import("./types/protocol").CreatedRoom} CreatedRoom */
/** @typedef {import("./types/protocol").JoinedSeat} JoinedSeat */
/** @typedef {import("./types/protocol").LevelInfo} LevelInfo */
/** @typedef {import("./types/protocol").RoomList} RoomList */
/** @typedef {import("./types/protocol").RoomSummary} RoomSummary */
/** @typedef {import("./types/protocol").SeatRequest} SeatRequest */
/** @typedef {import("./types/protocol").VariantInfo} VariantInfo */
/** @typedef {import("./types/protocol").YourTable} YourTable */
/** @typedef {import("./types/protocol").AccountPlayer} AccountPlayer */
/**
 * A room as the server lists it, with what it adds beside the summary: whether quick play opened
 * it, the seconds each turn has, and (a quick-play room waiting for people) the seconds until
 * computer players take its open seats.
 * @typedef {RoomSummary & {quickplay?: boolean, turn_time?: number, ai_fill_in?: number}} ListedRoom
 */

const REFRESH_MS = 4000;

/**
 * A room's status in words ("waiting", "playing"; the server's word for one it has no words for).
 * @param {string} status
 */
function statusWord(status) {
  const key = `ui.lobby.status.${status}`;
  return has(key) ? t(key) : status;
}

// A match's target: the bounds the server accepts, and the default for games that are one
// round unless told otherwise.
const TARGET = { min: 1, max: 1000, fallback: 100 };

export class LobbyPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {VariantInfo[]} */
    this.variants = [];
    /** @type {LevelInfo[]} */
    this.levels = [];
    /** @type {number | undefined} */
    this.timer = undefined;
    // Built by start() and buildForm(), before anything reads them:
    /** @type {HTMLDivElement} */
    this.roomsEl;
    /** @type {HTMLDivElement} */
    this.formHost;
    /** @type {HTMLSelectElement} */
    this.gameSelect;
    /** @type {HTMLParagraphElement} */
    this.summaryEl;
    /** @type {HTMLInputElement} */
    this.playersInput;
    /** @type {HTMLDivElement} */
    this.seatsEl;
    /** @type {HTMLInputElement} */
    this.aidAllInput;
    /** @type {HTMLInputElement} the hints switch of a table of people */
    this.hintsInput;
    /** @type {HTMLDivElement} the hints switch and its note (shown for two people or more) */
    this.hintsField;
    /** @type {HTMLInputElement} */
    this.singleInput;
    /** @type {HTMLInputElement} */
    this.targetInput;
    /** @type {HTMLParagraphElement} */
    this.targetNote;
    /** @type {HTMLInputElement} */
    this.nameInput;
    /** @type {HTMLInputElement} */
    this.publicInput;
    /** @type {HTMLSelectElement} */
    this.turnSelect;
    /** @type {HTMLParagraphElement} */
    this.playersNote;
    /** @type {HTMLButtonElement} */
    this.submit;
    /** @type {HTMLDivElement} */
    this.quickHost;
    /** @type {HTMLSelectElement | null} the quick play's game */
    this.quickGame = null;
    /** @type {HTMLInputElement | null} the quick play's name */
    this.quickName = null;
    /** @type {ListedRoom[]} the rooms the lobby lists now */
    this.rooms = [];
    /** @type {AccountPlayer | null} the signed-in player (null: a guest) */
    this.player = null;
    /** @type {HTMLInputElement | null} the new table is rated (for a signed-in player only) */
    this.ratedInput = null;
    /** @type {HTMLElement | null} that switch and its note */
    this.ratedField = null;
    /** whether the person set the switch (else: rated when they play alone against AI) */
    this.ratedChosen = false;
    /** @type {HTMLElement} a signed-in player's open tables, on any device (hidden for a guest) */
    this.mineEl = el("section", {
      class: "panel your-tables",
      "aria-labelledby": "mine-title",
      dataset: { ui: "your-tables" },
      hidden: true,
    });
  }

  async start() {
    document.title = "cardtable";
    byId("page-tools").replaceChildren(accountControl(), settingsButton());
    onAccountChange((player) => {
      if (player) this.playAs(player.name);
      this.signedIn(player);
      this.refreshMine();
      this.refreshRooms();
    });
    this.roomsEl = el("div", { class: "rooms", "aria-live": "polite" }, t("ui.lobby.loading"));
    this.formHost = el("div", { class: "create-host" }, t("ui.lobby.loading_games"));
    this.quickHost = el("div", { class: "quick-host" });
    this.root.replaceChildren(
      el(
        "section",
        { class: "panel quick-play", "aria-labelledby": "quick-title", dataset: { ui: "quick-play" } },
        el("h1", { id: "quick-title" }, t("ui.lobby.play_now")),
        el("p", { class: "quick-lead" }, t("ui.lobby.play_now_lead")),
        this.quickHost,
        el(
          "p",
          { class: "learn-entry" },
          el("a", { class: "btn", href: "/learn", dataset: { ui: "learn" } }, "Learn to play"),
          " New to these games? A short guided lesson for each one.",
        ),
        el(
          "p",
          { class: "learn-entry" },
          el(
            "a",
            { class: "btn", href: "/leaderboard", dataset: { ui: "leaderboards" } },
            t("ui.lobby.leaderboards"),
          ),
          " ",
          t("ui.lobby.leaderboards_lead"),
        ),
      ),
      this.mineEl,
      el(
        "div",
        { class: "lobby" },
        el(
          "section",
          { class: "panel create" },
          el("h2", {}, t("ui.lobby.new_table")),
          this.formHost,
        ),
        el(
          "section",
          { class: "panel open-rooms" },
          el("h2", {}, t("ui.lobby.open_tables")),
          this.roomsEl,
        ),
      ),
    );
    try {
      [this.variants, this.levels] = await Promise.all([
        loadVariants(),
        /** @type {Promise<LevelInfo[]>} */ (
          api(`/api/levels?lang=${encodeURIComponent(language())}`)
        ),
      ]);
    } catch (err) {
      this.formHost.replaceChildren(
        el(
          "p",
          { class: "error-text", role: "alert" },
          t("ui.lobby.no_games", { problem: errorMessage(err) }),
        ),
      );
      toast(errorMessage(err), "error");
      return;
    }
    this.buildQuickPlay();
    this.buildForm();
    this.refreshRooms();
    this.refreshMine();
    this.timer = setInterval(() => {
      this.refreshRooms();
      this.refreshMine();
    }, REFRESH_MS);
  }

  variant() {
    return this.variants.find((v) => v.name === this.gameSelect.value) ?? this.variants[0];
  }

  /** The game chosen last (quick play or a new table), if the server still has it. */
  lastGame() {
    const last = getPref("lastGame");
    return this.variants.some((v) => v.name === last) ? last : (this.variants[0]?.name ?? "");
  }

  // Play now: a game (the last one played) and the remembered name; one big button.
  buildQuickPlay() {
    const game = el(
      "select",
      { name: "quick-game", id: "q-game" },
      this.variants.map((v) => el("option", { value: v.name }, v.title ?? v.name)),
    );
    game.value = this.lastGame();
    /** @type {HTMLInputElement} */
    const name = el("input", {
      type: "text",
      name: "quick-name",
      id: "q-name",
      maxlength: 24,
      value: getName(),
      autocomplete: "nickname",
      oninput: () => this.mirrorName(name),
    });
    const button = el(
      "button",
      { type: "submit", class: "btn btn-primary btn-play-now", dataset: { ui: "play-now" } },
      t("ui.lobby.play_now"),
    );
    this.quickGame = game;
    this.quickName = name;
    this.quickHost.replaceChildren(
      el(
        "form",
        {
          class: "quick-form",
          onsubmit: (ev) => {
            ev.preventDefault();
            this.playNow(button);
          },
        },
        el("div", { class: "field" }, el("label", { for: "q-game" }, t("ui.lobby.game")), game),
        el(
          "div",
          { class: "field" },
          el("label", { for: "q-name" }, t("ui.lobby.your_name")),
          name,
        ),
        button,
      ),
    );
  }

  /**
   * One name on the page: what is typed in one name field shows in the other.
   * @param {HTMLInputElement} from
   */
  mirrorName(from) {
    for (const input of [this.quickName, this.nameInput]) {
      if (input && input !== from) input.value = from.value;
    }
  }

  /**
   * Take a seat by quick play and go to the table; a browser that already waits at a quick-play
   * table of that game goes back to it rather than taking a second seat.
   * @param {HTMLButtonElement} button
   */
  async playNow(button) {
    const game = this.quickGame?.value ?? this.lastGame();
    const name = this.quickName?.value.trim() || guestName();
    setPref("lastGame", game);
    const mine = this.rooms.find(
      (r) => r.quickplay && r.game === game && r.status === "waiting" && loadSeat(r.room),
    );
    if (mine) {
      location.assign(`/r/${encodeURIComponent(mine.room)}`);
      return;
    }
    button.disabled = true;
    try {
      const res = /** @type {{room: string, seat: number, token: string}} */ (
        await api("/api/quickplay", { method: "POST", body: { game, name } })
      );
      setName(name);
      saveSeat(res.room, res.seat, res.token);
      clearInterval(this.timer);
      location.assign(`/r/${encodeURIComponent(res.room)}`);
    } catch (err) {
      button.disabled = false;
      toast(t("ui.lobby.no_table", { problem: errorMessage(err) }), "error");
    }
  }

  buildForm() {
    this.gameSelect = el(
      "select",
      { name: "game", id: "f-game", onchange: () => this.onGameChange() },
      this.variants.map((v) => el("option", { value: v.name }, v.title ?? v.name)),
    );
    this.summaryEl = el("p", { class: "variant-summary" });
    this.playersInput = el("input", {
      type: "number",
      name: "players",
      id: "f-players",
      inputmode: "numeric",
      onchange: () => this.clampPlayers(),
      oninput: () => this.buildSeats(),
    });
    this.playersNote = el("p", { class: "field-note", hidden: true, dataset: { ui: "players-note" } });
    this.seatsEl = el("div", { class: "seat-rows" });
    this.aidAllInput = el("input", {
      type: "checkbox",
      name: "aid-all",
      id: "f-aid-all",
      onchange: () => this.labelSeats(),
    });
    this.hintsInput = el("input", { type: "checkbox", name: "hints", id: "f-hints" });
    this.hintsField = el(
      "div",
      { class: "hints-field", dataset: { ui: "hints-field" } },
      el(
        "div",
        { class: "field check" },
        this.hintsInput,
        el("label", { for: "f-hints" }, t("ui.lobby.hints")),
      ),
      el("p", { class: "field-note" }, t("ui.lobby.hints_note")),
    );
    this.singleInput = el("input", {
      type: "checkbox",
      name: "single",
      id: "f-single",
      onchange: () => this.syncTarget(),
    });
    this.targetInput = el("input", {
      type: "number",
      name: "target",
      id: "f-target",
      min: TARGET.min,
      max: TARGET.max,
      step: 1,
      inputmode: "numeric",
      required: true,
    });
    this.nameInput = el("input", {
      type: "text",
      name: "name",
      id: "f-name",
      maxlength: 24,
      value: getName(),
      autocomplete: "nickname",
    });
    this.nameInput.addEventListener("input", () => this.mirrorName(this.nameInput));
    this.turnSelect = el(
      "select",
      { name: "turn-time", id: "f-turn-time" },
      el("option", { value: "" }, t("ui.lobby.turn_default")),
      [20, 30, 60, 120, 300, 600].map((s) =>
        el(
          "option",
          { value: String(s) },
          s < 120 ? t("ui.lobby.seconds", {}, s) : t("ui.lobby.minutes", {}, s / 60),
        ),
      ),
    );
    this.publicInput = el("input", {
      type: "checkbox",
      name: "public",
      id: "f-public",
      checked: true,
    });
    this.ratedInput = el("input", {
      type: "checkbox",
      name: "rated",
      id: "f-rated",
      checked: true,
      onchange: () => {
        this.ratedChosen = true;
        this.labelSeats();
      },
    });
    this.ratedField = el(
      "div",
      { class: "rated-field", dataset: { ui: "rated-field" }, hidden: !this.player },
      el(
        "div",
        { class: "field check" },
        this.ratedInput,
        el("label", { for: "f-rated" }, t("ui.lobby.rated")),
      ),
      el("p", { class: "field-note" }, t("ui.lobby.rated_note")),
    );
    this.submit = el(
      "button",
      { type: "submit", class: "btn btn-primary", dataset: { ui: "create" } },
      t("ui.lobby.create"),
    );
    const rulesBtn = el(
      "button",
      { type: "button", class: "btn btn-small", onclick: () => showRules(this.gameSelect.value) },
      t("ui.lobby.rules"),
    );
    const form = el(
      "form",
      { class: "create-form", onsubmit: (ev) => this.onSubmit(ev) },
      el(
        "div",
        { class: "field" },
        el("label", { for: "f-game" }, t("ui.lobby.game")),
        el("div", { class: "row" }, this.gameSelect, rulesBtn),
      ),
      this.summaryEl,
      el(
        "div",
        { class: "field" },
        el("label", { for: "f-players" }, t("ui.lobby.players")),
        this.playersInput,
        this.playersNote,
      ),
      this.ratedField,
      el(
        "fieldset",
        { class: "seats" },
        el("legend", {}, t("ui.lobby.seats")),
        this.seatsEl,
        el(
          "div",
          { class: "field check" },
          this.aidAllInput,
          el("label", { for: "f-aid-all" }, t("ui.lobby.aid_all")),
        ),
        el("p", { class: "field-note" }, t("ui.lobby.aid_note")),
        this.hintsField,
      ),
      el(
        "fieldset",
        { class: "length" },
        el("legend", {}, t("ui.lobby.length")),
        el(
          "div",
          { class: "field check" },
          this.singleInput,
          el("label", { for: "f-single" }, t("ui.lobby.single")),
        ),
        el(
          "div",
          { class: "field check target-row" },
          el("label", { for: "f-target" }, t("ui.lobby.match_to")),
          this.targetInput,
          el("span", {}, t("ui.lobby.points")),
        ),
        (this.targetNote = el("p", { class: "field-note" })),
      ),
      el(
        "div",
        { class: "field" },
        el("label", { for: "f-name" }, t("ui.lobby.your_name")),
        this.nameInput,
      ),
      el(
        "div",
        { class: "field" },
        el("label", { for: "f-turn-time" }, t("ui.lobby.turn_time")),
        this.turnSelect,
        el("p", { class: "field-note" }, t("ui.lobby.turn_note")),
      ),
      el(
        "div",
        { class: "field check" },
        this.publicInput,
        el("label", { for: "f-public" }, t("ui.lobby.public")),
      ),
      this.submit,
    );
    this.formHost.replaceChildren(form);
    this.gameSelect.value = this.lastGame();
    this.onGameChange();
    currentPlayer().then((player) => this.signedIn(player));
  }

  /**
   * Who is signed in: a signed-in player may make the new table rated.
   * @param {AccountPlayer | null} player
   */
  signedIn(player) {
    this.player = player;
    if (!this.ratedField) return;
    this.ratedField.hidden = !player;
    this.labelSeats();
  }

  /** Whether the new table is to be rated. */
  rated() {
    return Boolean(this.ratedField && !this.ratedField.hidden && this.ratedInput?.checked);
  }

  onGameChange() {
    const v = this.variant();
    this.summaryEl.textContent = v.summary ?? "";
    this.playersInput.min = String(v.min_players);
    this.playersInput.max = String(v.max_players);
    this.playersInput.value = String(v.default_players ?? v.min_players);
    const target = (v.options ?? []).find((o) => o.name === "target");
    // Games that are one round by default show the box ticked; a match then goes to 100.
    this.singleInput.checked = target !== undefined && target.default === null;
    this.singleInput.disabled = !target;
    this.targetInput.value = String(target?.default ?? TARGET.fallback);
    this.syncTarget();
    this.buildSeats();
  }

  // The target is asked for only when the table plays a match.
  syncTarget() {
    const single = this.singleInput.checked || this.singleInput.disabled;
    this.targetInput.disabled = single;
    this.targetNote.textContent = single ? t("ui.lobby.single_note") : t("ui.lobby.match_note");
  }

  // A count the game does not allow is brought into its range, and the form says so.
  clampPlayers() {
    const v = this.variant();
    const asked = Number(this.playersInput.value);
    const n = Math.min(v.max_players, Math.max(v.min_players, Math.round(asked) || v.min_players));
    this.playersNote.hidden = n === asked;
    this.playersNote.textContent =
      n === asked
        ? ""
        : t("ui.lobby.players_range", {
            game: v.title ?? v.name,
            min: v.min_players,
            max: v.max_players,
          });
    this.playersInput.value = String(n);
    this.buildSeats();
  }

  // One row per seat: a person (you or a friend) or an AI level.
  buildSeats() {
    const v = this.variant();
    const n = Math.min(
      v.max_players,
      Math.max(v.min_players, Number(this.playersInput.value) || v.min_players),
    );
    const old = [...this.seatsEl.querySelectorAll("select")].map((s) => s.value);
    const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (
      this.seatsEl.querySelectorAll("input[type=checkbox]")
    );
    const oldAid = [...boxes].map((c) => c.checked);
    const defaultLevel = this.levels.find((l) => l.name === "casual")?.name ?? this.levels[0]?.name;
    const rows = [];
    for (let i = 0; i < n; i += 1) {
      const select = el(
        "select",
        { name: `seat-${i}`, id: `f-seat-${i}`, onchange: () => this.labelSeats() },
        el("option", { value: "human" }, t("ui.lobby.person")),
        this.levels.map((l) =>
          el(
            "option",
            { value: `ai:${l.name}`, title: l.description ?? "" },
            t("ui.lobby.ai_level", { level: levelName(l.name) }),
          ),
        ),
      );
      select.value = old[i] ?? (i === 0 ? "human" : `ai:${defaultLevel}`);
      const aid = el("input", {
        type: "checkbox",
        name: `aid-${i}`,
        id: `f-aid-${i}`,
        checked: Boolean(oldAid[i]),
      });
      rows.push(
        el(
          "div",
          { class: "seat-row" },
          el("label", { for: `f-seat-${i}` }, t("ui.seat.name", { seat: i })),
          select,
          el("span", { class: "seat-who" }),
          el(
            "span",
            { class: "seat-aid", title: AID_TEXT },
            aid,
            el("label", { for: `f-aid-${i}` }, t("ui.lobby.aid")),
          ),
          el("p", { class: "seat-level field-note", id: `f-level-${i}` }),
        ),
      );
    }
    this.seatsEl.replaceChildren(...rows);
    this.labelSeats();
  }

  // Who sits where, and the memory-aid box of each person's seat (AI seats have none); the hints
  // switch only where two people or more sit (alone against AI players, hints are free).
  labelSeats() {
    const people = [...this.seatsEl.querySelectorAll(".seat-row select")].filter(
      (select) => /** @type {HTMLSelectElement} */ (select).value === "human",
    ).length;
    this.hintsField.hidden = people < 2;
    // rated unless the person says otherwise when they play alone against the computer (a
    // friend invited to a rated table must sign in to sit down)
    if (this.ratedInput && !this.ratedChosen) this.ratedInput.checked = people === 1;
    // a rated table has no memory aid and no hints
    const ratedTable = this.rated();
    for (const box of [this.aidAllInput, this.hintsInput]) {
      box.disabled = ratedTable;
      if (ratedTable) box.checked = false;
    }
    let first = true;
    const all = this.aidAllInput.checked;
    for (const row of this.seatsEl.querySelectorAll(".seat-row")) {
      // Each row as buildSeats made it.
      const select = /** @type {HTMLSelectElement} */ (row.querySelector("select"));
      const note = /** @type {HTMLElement} */ (row.querySelector(".seat-level"));
      const box = /** @type {HTMLElement} */ (row.querySelector(".seat-aid"));
      const input = /** @type {HTMLInputElement} */ (box.querySelector("input"));
      const human = select.value === "human";
      /** @type {HTMLElement} */ (row.querySelector(".seat-who")).textContent = human
        ? first
          ? t("ui.lobby.seat_you")
          : t("ui.lobby.seat_friend")
        : "";
      if (human) first = false;
      // how the chosen AI level plays, in a player's words (from /api/levels)
      const level = human ? null : this.levels.find((l) => `ai:${l.name}` === select.value);
      // and its rating in the chosen game, on the scale people are rated on
      const rated = level?.ratings?.[this.variant().name];
      const rating = rated ? t("ui.lobby.level_rating", { ...rated }) : "";
      note.textContent = [level?.description ?? "", rating].filter(Boolean).join(" ");
      note.hidden = !note.textContent;
      box.hidden = !human;
      input.disabled = !human || all || ratedTable;
      if (all && human) input.checked = true;
      if (ratedTable) input.checked = false;
    }
  }

  /** @param {SubmitEvent} ev */
  async onSubmit(ev) {
    ev.preventDefault();
    /** @type {SeatRequest[]} */
    const seats = [...this.seatsEl.querySelectorAll(".seat-row")].map((row) => {
      const value = /** @type {HTMLSelectElement} */ (row.querySelector("select")).value;
      if (value !== "human") return { type: "ai", level: value.slice(3) };
      const box = /** @type {HTMLInputElement} */ (row.querySelector(".seat-aid input"));
      return box.checked ? { type: "human", memory_aid: true } : { type: "human" };
    });
    const name = this.nameInput.value.trim() || guestName();
    /** @type {CreateRoomBody} */
    const body = {
      game: this.gameSelect.value,
      players: seats.length,
      seats,
      public: this.publicInput.checked,
    };
    body.name = name;
    if (this.aidAllInput.checked) body.memory_aid = true;
    if (!this.hintsField.hidden && this.hintsInput.checked) body.hints = true;
    if (this.rated()) body.rated = true;
    if (this.turnSelect.value) body.turn_time = Number(this.turnSelect.value);
    if (!this.singleInput.disabled) {
      let target = null;
      if (!this.singleInput.checked) {
        target = Number(this.targetInput.value);
        if (!Number.isInteger(target) || target < TARGET.min || target > TARGET.max) {
          toast(t("ui.lobby.target_range", { min: TARGET.min, max: TARGET.max }), "error");
          this.targetInput.focus();
          return;
        }
      }
      body.options = { target };
    }
    this.submit.disabled = true;
    try {
      const res = /** @type {CreatedRoom} */ (await api("/api/rooms", { method: "POST", body }));
      setName(name);
      setPref("lastGame", body.game);
      if (res.token && res.seat !== null && res.seat !== undefined)
        saveSeat(res.room, res.seat, res.token);
      clearInterval(this.timer);
      location.assign(`/r/${encodeURIComponent(res.room)}`);
    } catch (err) {
      this.submit.disabled = false;
      toast(t("ui.lobby.no_create", { problem: errorMessage(err) }), "error");
    }
  }

  async refreshRooms() {
    let data;
    try {
      data = /** @type {RoomList} */ (await api("/api/rooms"));
    } catch (err) {
      this.roomsEl.replaceChildren(
        el("p", { class: "error-text" }, t("ui.lobby.no_tables", { problem: errorMessage(err) })),
      );
      return;
    }
    const rooms = data.rooms ?? [];
    this.rooms = rooms;
    if (!rooms.length) {
      this.roomsEl.replaceChildren(
        el("p", { class: "muted" }, t("ui.lobby.none_open")),
      );
      return;
    }
    this.roomsEl.replaceChildren(
      el(
        "ul",
        { class: "room-list" },
        rooms.map((r) => this.roomItem(r)),
      ),
    );
  }

  /**
   * A signed-in player plays under their account's name: the name fields say it.
   * @param {string} name
   */
  playAs(name) {
    for (const input of [this.quickName, this.nameInput]) {
      if (input) input.value = name;
    }
  }

  /** "Your tables": a signed-in player's open tables, on any device; hidden for a guest. */
  async refreshMine() {
    const player = await currentPlayer();
    if (!player) {
      this.mineEl.hidden = true;
      this.mineEl.replaceChildren();
      return;
    }
    if (this.mineEl.hidden) this.playAs(player.name); // the first answer of this page
    /** @type {YourTable[]} */
    let tables;
    try {
      tables = await yourTables();
    } catch (err) {
      this.showMine(
        el("p", { class: "error-text" }, t("ui.lobby.no_mine", { problem: errorMessage(err) })),
      );
      return;
    }
    if (!(await currentPlayer())) return; // signed out meanwhile
    this.showMine(
      tables.length
        ? el(
            "ul",
            { class: "room-list" },
            tables.map((table) => this.mineItem(table)),
          )
        : el("p", { class: "muted" }, t("ui.lobby.none_mine")),
    );
  }

  /** @param {HTMLElement} body */
  showMine(body) {
    this.mineEl.replaceChildren(
      el("h2", { id: "mine-title" }, t("ui.lobby.your_tables")),
      body,
    );
    this.mineEl.hidden = false;
  }

  /** @param {YourTable} table */
  mineItem(table) {
    const title = variantInfo(table.game)?.title ?? table.game;
    return el(
      "li",
      { class: "room-item", dataset: { room: table.room, ui: "your-table" } },
      el(
        "div",
        { class: "room-main" },
        el("strong", {}, title),
        el("span", { class: `status status-${table.status}` }, statusWord(table.status)),
        el(
          "span",
          { class: "muted" },
          t("ui.lobby.mine_seat", { room: table.room, seat: table.seat }),
        ),
      ),
      el(
        "div",
        { class: "room-actions" },
        el(
          "button",
          {
            type: "button",
            class: "btn btn-primary btn-small",
            dataset: { ui: "resume" },
            onclick: (ev) => {
              const button = /** @type {HTMLButtonElement} */ (ev.currentTarget);
              button.disabled = true;
              goToTable(table.room, table.seat).finally(() => {
                button.disabled = false;
              });
            },
          },
          t("ui.lobby.to_table"),
        ),
      ),
    );
  }

  /** @param {RoomSummary} room */
  roomItem(room) {
    const free = room.seats.some((s) => s.type === "human" && !s.taken);
    const held = loadSeat(room.room);
    const who = room.seats
      .map((s, i) => {
        if (s.type === "ai") return seatName(room.seats, i); // as the table names it
        const person = s.taken ? s.name || t("ui.lobby.player") : t("ui.lobby.free_seat");
        if (s.hints) return t("ui.lobby.with_hints", { who: person });
        return s.memory_aid ? t("ui.lobby.with_aid", { who: person }) : person;
      })
      .join(", ");
    const buttons = [];
    if (held) {
      buttons.push(
        el(
          "a",
          { class: "btn btn-primary btn-small", href: `/r/${room.room}` },
          t("ui.lobby.your_seat"),
        ),
      );
    } else if (free && room.rated && !this.player) {
      // a rated table seats signed-in players only
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn btn-small",
            dataset: { ui: "join-sign-in" },
            onclick: () => openSignIn("signin"),
          },
          t("ui.lobby.sign_in_to_join"),
        ),
      );
    } else if (free) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn btn-primary btn-small",
            dataset: { ui: "join" },
            onclick: () => this.join(room.room),
          },
          t("ui.lobby.join"),
        ),
      );
    }
    buttons.push(
      el(
        "a",
        { class: "btn btn-small", href: `/r/${room.room}?watch`, dataset: { ui: "watch" } },
        t("ui.lobby.watch"),
      ),
    );
    return el(
      "li",
      { class: "room-item", dataset: { room: room.room } },
      el(
        "div",
        { class: "room-main" },
        el("strong", {}, room.title ?? room.game),
        el(
          "span",
          { class: "room-format", dataset: { ui: "room-format" } },
          matchFormat(room.options),
        ),
        el("span", { class: `status status-${room.status}` }, statusWord(room.status)),
        room.practice
          ? el(
              "span",
              {
                class: "status room-tag",
                dataset: { ui: "room-practice" },
                title: t("ui.lobby.practice_why"),
              },
              t("ui.lobby.practice"),
            )
          : null,
        room.rated
          ? el(
              "span",
              {
                class: "status room-tag",
                dataset: { ui: "room-rated" },
                title: t("ui.lobby.rated_why"),
              },
              t("ui.lobby.rated_tag"),
            )
          : null,
        room.hints
          ? el(
              "span",
              {
                class: "status room-tag",
                dataset: { ui: "room-hints" },
                title: t("ui.lobby.hints_allowed_why"),
              },
              t("ui.lobby.hints_allowed"),
            )
          : null,
        el("span", { class: "muted" }, who),
      ),
      el("div", { class: "room-actions" }, buttons),
    );
  }

  /** @param {string} room */
  async join(room) {
    try {
      const name = this.nameInput?.value.trim() || guestName();
      const res = /** @type {JoinedSeat} */ (
        await api(`/api/rooms/${encodeURIComponent(room)}/join?lang=${language()}`, {
          method: "POST",
          body: { name },
        })
      );
      setName(name);
      saveSeat(res.room ?? room, res.seat, res.token);
      location.assign(`/r/${encodeURIComponent(room)}`);
    } catch (err) {
      toast(t("ui.lobby.no_join", { problem: errorMessage(err) }), "error");
      this.refreshRooms();
    }
  }
}
