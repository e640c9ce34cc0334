"""What the fairness tests need beside the driver: a seat opened through the API, the frames a
page received with the page's own (fake) time of arrival, and the check that no card a seat
without memory aid saw for a moment is anywhere in its page past the reveal time.

The check runs inside the page, in one go (no frame can arrive meanwhile), against the frames
the page itself received: a card code the seat saw privately (its peek, spy, look, a card it drew
from the deck) or that a failed claim or drop showed for a moment may be on the page only within
the reveal time of that sight, unless the table may show it now (the current view holds it) or
it has been public (in a public field of an event, in a join's log, or on the discard pile).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import BrowserContext, Page

from ..webserver import Server, http

__all__ = [
    "RECORD_FRAMES",
    "check_memory",
    "frames_sent",
    "open_seat",
]

RECORD_FRAMES = """(() => {
    // Every frame a WebSocket of the page receives, with the page's time (Date.now: the fake
    // clock's) when it arrived; and every frame it sends.
    const received = [];
    const sent = [];
    window.__ctFrames = received;
    window.__ctSent = sent;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (ev) => {
                try { received.push({ t: Date.now(), msg: JSON.parse(ev.data) }); } catch {}
            });
        }
        send(data) {
            try { sent.push({ t: Date.now(), msg: JSON.parse(data) }); } catch {}
            return super.send(data);
        }
    };
})();"""

CHECK = r"""([earlier, revealMs]) => {
    const now = Date.now();
    const state = window.cardtable && window.cardtable.state();
    if (!state || !state.view) return { problems: [], private: 0 };
    const game = state.view.game;
    const seat = state.seat;
    const frames = [...earlier, ...window.__ctFrames]
        .filter((f) => f.msg.type === "state" && f.msg.game_no === state.game_no);
    const CODE = /^(10|[2-9AJQK])[CDHS]$|^(RJ|BJ)$|^([0-9]|1[0-3])$/;
    const isCode = (x) => typeof x === "string" && CODE.test(x);
    const codes = (x) => (Array.isArray(x) ? x : [x]).filter(isCode);
    const seen = new Map();       // code -> when this seat last saw it, alone, for a moment
    const shown = new Map();      // code -> when it was last face up for a moment (seen too)
    const pub = new Set();        // codes shown to the whole table at some point
    const note = (map, list, t) => {
        for (const c of list) map.set(c, Math.max(map.get(c) ?? 0, t));
    };
    const PUBLIC = {
        discard: ["card"], replace: ["out"], snap: ["card"], snap_open: ["card"],
        round_start: ["discard"], play: ["cards"], round_end: ["hands"],
    };
    for (const { t, msg } of frames) {
        const events = [...(msg.events ?? []), ...(msg.log ?? []).flatMap((e) => e.events)];
        for (const ev of events) {
            const mine = ev.seat === seat;
            if ((ev.type === "peek" || ev.type === "spy") && mine) note(seen, codes(ev.card), t);
            else if (ev.type === "look" && mine) note(seen, codes(ev.cards), t);
            else if (ev.type === "draw" && "from" in ev) {
                const open = ev.from === "discard" || game === "cabo-german";
                if (open) codes(ev.card).forEach((c) => pub.add(c));
                else if (mine) note(seen, codes(ev.card), t);
            } else if (ev.type === "draw" && mine) note(seen, codes(ev.drawn), t);
            else if (ev.type === "penalty" && mine && ev.cards) note(seen, codes(ev.cards), t);
            else if (ev.type === "claim") {
                codes(ev.out).forEach((c) => pub.add(c));
                codes(ev.shown).forEach((c) => pub.add(c));
                note(shown, codes(ev.shown), t);
            } else if (ev.type === "drop") {
                codes(ev.card).forEach((c) => pub.add(c));
                if (!ev.ok) note(shown, codes(ev.card), t);
            }
            for (const f of PUBLIC[ev.type] ?? []) {
                const v = ev[f];
                (Array.isArray(v) ? v.flat() : [v]).filter(isCode).forEach((c) => pub.add(c));
            }
        }
        for (const c of codes(msg.view?.discard ?? [])) pub.add(c);
        // The card in hand is face up to its holder until it is placed: its moment of sight
        // lasts until then (the move that places it may show it a moment longer, as it goes).
        if (msg.view && msg.view.drawer === seat) note(seen, codes(msg.view.drawn), t);
    }
    for (const [c, t] of seen) note(shown, [c], t);
    // Whatever the current view holds, the table may show now.
    const inView = new Set();
    const walk = (x) => {
        if (isCode(x)) inView.add(x);
        else if (Array.isArray(x)) x.forEach(walk);
        else if (x && typeof x === "object")
            for (const [k, v] of Object.entries(x)) if (k !== "legal") walk(v);
    };
    walk(state.view);
    const problems = [];
    // 1. Face-up cards in the hands on the table: the view's own, or a sight within its time.
    const view = state.view;
    for (const node of document.querySelectorAll(".table .card[data-addr][data-face]")) {
        const [s, n] = node.dataset.addr.split(".").map(Number);
        const slot = view.hands?.[s]?.[n];
        const face = node.dataset.face;
        if (slot && slot.card === face) continue;
        const when = shown.get(face);
        const shownFor = when === undefined ? null : now - when;
        if (shownFor !== null && shownFor < revealMs) continue;
        problems.push(`card ${face} face up at ${node.dataset.addr} ${shownFor} ms after seen`);
    }
    // 2. The code of a card seen for a moment, anywhere in the page (text, any attribute, the
    //    title) once its time is up, unless the table may show it.
    const stale = [...seen].filter(
        ([c, t]) => now - t >= revealMs && !pub.has(c) && !inView.has(c));
    if (stale.length) {
        const attrs = [];
        const faces = new Set();
        const texts = [document.title];
        // (the rules' example cards, inside [data-illustration], are nobody's cards: a page
        // that always shows the same cards reminds nobody of a card they saw)
        const example = (node) => node.closest && node.closest("[data-illustration]");
        for (const node of document.querySelectorAll("*")) {
            if (example(node)) continue;
            for (const a of node.attributes) attrs.push(a.value);
            if (node.dataset && node.dataset.face) faces.add(node.dataset.face);
        }
        const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const parent = walker.currentNode.parentElement;
            if (!(parent && example(parent))) texts.push(walker.currentNode.nodeValue);
        }
        const text = texts.join("\n");
        const SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };
        const NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
        const RANK = { A: "ace", J: "jack", Q: "queen", K: "king" };
        for (const [c] of stale) {
            const forms = [];
            if (c === "RJ" || c === "BJ") forms.push(c === "RJ" ? "red joker" : "black joker",
                                                     c === "RJ" ? "Joker (red)" : "Joker (black)");
            else if (/^\d+$/.test(c)) forms.push(`Cabo ${c}`);
            else {
                const r = c.slice(0, -1), s = c.slice(-1);
                forms.push(`${r}${SUIT[s]}`, `${RANK[r] ?? r} of ${NAME[s]}`);
            }
            // (a Cabo card's code is a bare number: only a card face may carry it as it is;
            // "Cabo 1" must not be found in "Cabo 10")
            const bare = /^\d+$/.test(c);
            const escape = (f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
            const found = forms.map((f) => new RegExp(escape(f) + "(?![0-9])"));
            const has = (v) => found.some((re) => re.test(v));
            const attrHit = faces.has(c) || attrs.some((v) => (!bare && v === c) || has(v));
            const textHit = has(text);
            if (attrHit || textHit)
                problems.push(`code ${c} in the page ${now - seen.get(c)} ms after seen`);
        }
    }
    return { problems, private: seen.size, stale: stale.length };
}"""


def open_seat(
    context: BrowserContext,
    server: Server,
    game: str,
    seats: list[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    reveal_seconds: float = 2.0,
    name: str = "Ann",
) -> tuple[Page, str]:
    """Create a room through the API (seat 0 a person without memory aid unless told), open its
    table in a new page of ``context`` holding seat 0, with the reveal time set, once its first
    state is there; returns the page and the room's id."""
    body: dict[str, Any] = {"game": game, "players": len(seats), "seats": seats, "name": name}
    if options is not None:
        body["options"] = options
    status, room = http("POST", f"{server.url}/api/rooms", body)
    assert status == 201, room
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate(
        """([r, s, t, secs]) => {
            localStorage.setItem("cardtable:seat:" + r, JSON.stringify({ seat: s, token: t }));
            localStorage.setItem("cardtable:prefs", JSON.stringify({ revealSeconds: secs }));
        }""",
        [room["room"], room["seat"], room["token"], reveal_seconds],
    )
    page.goto(f"{server.url}/r/{room['room']}")
    page.wait_for_function("() => window.cardtable && window.cardtable.state()?.view")
    return page, str(room["room"])


def check_memory(page: Page, earlier: list[Any], reveal_seconds: float) -> dict[str, Any]:
    """Run the check in the page; returns ``{"problems": [...], "private": n, "stale": n}``."""
    result: dict[str, Any] = page.evaluate(CHECK, [earlier, reveal_seconds * 1000])
    return result


def frames_sent(page: Page, kind: str) -> list[dict[str, Any]]:
    """The frames of type ``kind`` the page sent so far (since it was loaded)."""
    sent: list[dict[str, Any]] = page.evaluate(
        "k => window.__ctSent.filter((f) => f.msg.type === k).map((f) => f.msg)", kind
    )
    return sent
