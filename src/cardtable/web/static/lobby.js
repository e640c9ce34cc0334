// The lobby, /: create a table, or join or watch an open one.

import { api, loadSeat, saveSeat } from "./net.js";
import { getName, setName } from "./prefs.js";
import { showRules } from "./rulesmodal.js";
import { el, toast } from "./ui.js";

const REFRESH_MS = 4000;

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.variants = [];
    this.levels = [];
    this.timer = null;
  }

  async start() {
    document.title = "cardtable";
    document.getElementById("page-tools").replaceChildren();
    this.roomsEl = el("div", { class: "rooms", "aria-live": "polite" }, "Loading…");
    this.formHost = el("div", { class: "create-host" }, "Loading the games…");
    this.root.replaceChildren(
      el(
        "div",
        { class: "lobby" },
        el("section", { class: "panel create" }, el("h1", {}, "New table"), this.formHost),
        el("section", { class: "panel open-rooms" }, el("h2", {}, "Open tables"), this.roomsEl),
      ),
    );
    try {
      [this.variants, this.levels] = await Promise.all([api("/api/variants"), api("/api/levels")]);
    } catch (err) {
      this.formHost.replaceChildren(
        el("p", { class: "error-text", role: "alert" }, `Could not load the games: ${err.message}`),
      );
      toast(err.message, "error");
      return;
    }
    this.buildForm();
    this.refreshRooms();
    this.timer = setInterval(() => this.refreshRooms(), REFRESH_MS);
  }

  variant() {
    return this.variants.find((v) => v.name === this.gameSelect.value) ?? this.variants[0];
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
      onchange: () => this.buildSeats(),
      oninput: () => this.buildSeats(),
    });
    this.seatsEl = el("fieldset", { class: "seats" });
    this.singleInput = el("input", { type: "checkbox", name: "single", id: "f-single" });
    this.nameInput = el("input", {
      type: "text",
      name: "name",
      id: "f-name",
      maxlength: 24,
      value: getName(),
      autocomplete: "nickname",
    });
    this.publicInput = el("input", {
      type: "checkbox",
      name: "public",
      id: "f-public",
      checked: true,
    });
    this.submit = el(
      "button",
      { type: "submit", class: "btn btn-primary", dataset: { ui: "create" } },
      "Create table",
    );
    const rulesBtn = el(
      "button",
      { type: "button", class: "btn btn-small", onclick: () => showRules(this.gameSelect.value) },
      "Rules",
    );
    const form = el(
      "form",
      { class: "create-form", onsubmit: (ev) => this.onSubmit(ev) },
      el(
        "div",
        { class: "field" },
        el("label", { for: "f-game" }, "Game"),
        el("div", { class: "row" }, this.gameSelect, rulesBtn),
      ),
      this.summaryEl,
      el(
        "div",
        { class: "field" },
        el("label", { for: "f-players" }, "Players"),
        this.playersInput,
      ),
      this.seatsEl,
      el(
        "div",
        { class: "field check" },
        this.singleInput,
        el("label", { for: "f-single" }, "Single round"),
      ),
      el("div", { class: "field" }, el("label", { for: "f-name" }, "Your name"), this.nameInput),
      el(
        "div",
        { class: "field check" },
        this.publicInput,
        el("label", { for: "f-public" }, "List in the lobby (public)"),
      ),
      this.submit,
    );
    this.formHost.replaceChildren(form);
    this.onGameChange();
  }

  onGameChange() {
    const v = this.variant();
    this.summaryEl.textContent = v.summary ?? "";
    this.playersInput.min = String(v.min_players);
    this.playersInput.max = String(v.max_players);
    this.playersInput.value = String(v.default_players ?? v.min_players);
    const target = (v.options ?? []).find((o) => o.name === "target");
    // Games that are one round by default show the box ticked.
    this.singleInput.checked = Boolean(target) && target.default === null;
    this.singleInput.disabled = !target;
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
    const defaultLevel = this.levels.find((l) => l.name === "casual")?.name ?? this.levels[0]?.name;
    const rows = [];
    for (let i = 0; i < n; i += 1) {
      const select = el(
        "select",
        { name: `seat-${i}`, id: `f-seat-${i}`, onchange: () => this.labelSeats() },
        el("option", { value: "human" }, "Person"),
        this.levels.map((l) =>
          el("option", { value: `ai:${l.name}`, title: l.description ?? "" }, `AI: ${l.name}`),
        ),
      );
      select.value = old[i] ?? (i === 0 ? "human" : `ai:${defaultLevel}`);
      rows.push(
        el(
          "div",
          { class: "seat-row" },
          el("label", { for: `f-seat-${i}` }, `Seat ${i}`),
          select,
          el("span", { class: "seat-who" }),
        ),
      );
    }
    this.seatsEl.replaceChildren(el("legend", {}, "Seats"), ...rows);
    this.labelSeats();
  }

  labelSeats() {
    let first = true;
    for (const row of this.seatsEl.querySelectorAll(".seat-row")) {
      const human = row.querySelector("select").value === "human";
      row.querySelector(".seat-who").textContent = human
        ? first
          ? "you"
          : "a friend (invite link)"
        : "";
      if (human) first = false;
    }
  }

  async onSubmit(ev) {
    ev.preventDefault();
    const seats = [...this.seatsEl.querySelectorAll("select")].map((s) =>
      s.value === "human" ? { type: "human" } : { type: "ai", level: s.value.slice(3) },
    );
    const name = this.nameInput.value.trim();
    setName(name);
    const body = {
      game: this.gameSelect.value,
      players: seats.length,
      seats,
      public: this.publicInput.checked,
    };
    if (name) body.name = name;
    if (this.singleInput.checked) body.options = { target: null };
    this.submit.disabled = true;
    try {
      const res = await api("/api/rooms", { method: "POST", body });
      if (res.token && res.seat !== null && res.seat !== undefined)
        saveSeat(res.room, res.seat, res.token);
      clearInterval(this.timer);
      location.assign(`/r/${encodeURIComponent(res.room)}`);
    } catch (err) {
      this.submit.disabled = false;
      toast(`Could not create the table: ${err.message}`, "error");
    }
  }

  async refreshRooms() {
    let data;
    try {
      data = await api("/api/rooms");
    } catch (err) {
      this.roomsEl.replaceChildren(
        el("p", { class: "error-text" }, `Could not load the tables: ${err.message}`),
      );
      return;
    }
    const rooms = data.rooms ?? [];
    if (!rooms.length) {
      this.roomsEl.replaceChildren(
        el("p", { class: "muted" }, "No open tables right now. Create one!"),
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

  roomItem(room) {
    const free = room.seats.some((s) => s.type === "human" && !s.taken);
    const held = loadSeat(room.room);
    const who = room.seats
      .map((s) => (s.type === "ai" ? `AI ${s.level}` : s.taken ? s.name || "player" : "free seat"))
      .join(", ");
    const buttons = [];
    if (held) {
      buttons.push(
        el("a", { class: "btn btn-primary btn-small", href: `/r/${room.room}` }, "Your seat"),
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
          "Join",
        ),
      );
    }
    buttons.push(
      el(
        "a",
        { class: "btn btn-small", href: `/r/${room.room}?watch`, dataset: { ui: "watch" } },
        "Watch",
      ),
    );
    return el(
      "li",
      { class: "room-item", dataset: { room: room.room } },
      el(
        "div",
        { class: "room-main" },
        el("strong", {}, room.title ?? room.game),
        el("span", { class: `status status-${room.status}` }, room.status),
        el("span", { class: "muted" }, who),
      ),
      el("div", { class: "room-actions" }, buttons),
    );
  }

  async join(room) {
    try {
      const name = this.nameInput?.value.trim();
      const res = await api(`/api/rooms/${encodeURIComponent(room)}/join`, {
        method: "POST",
        body: name ? { name } : {},
      });
      saveSeat(res.room ?? room, res.seat, res.token);
      location.assign(`/r/${encodeURIComponent(room)}`);
    } catch (err) {
      toast(`Could not join: ${err.message}`, "error");
      this.refreshRooms();
    }
  }
}
