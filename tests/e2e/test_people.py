"""People at one table: two players and a spectator; a player who reloads the page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, expect

from ..webserver import Server
from .driver import (
    choose_action,
    create_room,
    face_up_hand_cards,
    play_action,
    play_to_end,
    state,
    wait_actionable,
    wait_version,
)


def _public_cards(view: dict[str, object]) -> list[str]:
    hands = view["hands"]
    assert isinstance(hands, list)
    return [slot["card"] for hand in hands for slot in hand if slot and slot["card"]]


def test_two_players_and_a_spectator(browser: Browser, server: Server, screenshots: Path) -> None:
    # Full motion here (the other tests reduce it), so the animations run during real play.
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(3)]
    try:
        a, b, c = (ctx.new_page() for ctx in contexts)
        create_room(a, server.url, "kaboo", ["human", "human"], name="Ann")
        expect(a.locator(".waiting")).to_contain_text("Waiting for players")
        invite = a.locator(".invite-input").input_value()

        # The spectator arrives first and chooses to watch; then Bob takes the free seat.
        c.goto(invite)
        c.click("[data-ui=watch]")
        b.goto(invite)
        b.fill("input[name=join-name]", "Bob")
        b.click("[data-ui=take-seat]")
        for page in (a, b, c):
            page.wait_for_function("() => document.body.dataset.status === 'playing'")
        assert state(b)["seat"] == 1
        assert state(c)["seat"] is None
        expect(c.locator(".seat[data-seat='1'] .seat-name")).to_contain_text("Bob")

        moves = {0: 0, 1: 0}
        been_face_up: set[str] = set(state(c)["view"]["discard"])
        players = {0: a, 1: b}
        # Kaboo has no simultaneous phases: the one seat in `actors` plays next.
        page = players[state(a)["view"]["actors"][0]]
        for _ in range(400):
            current = wait_actionable(page)
            view = current["view"]
            if view["over"]:
                break
            seat = current["seat"]
            play_action(page, choose_action(view, moves[seat]))
            moves[seat] += 1
            latest = state(page)
            if moves[0] + moves[1] == 6:
                c.screenshot(path=str(screenshots / "kaboo-spectator-midgame.png"))
            # The spectator follows, and sees no card face in a hand that was never face up
            # on the discard pile (a card taken from the pile stays public).
            wait_version(c, latest["version"])
            watched = state(c)
            assert watched["seat"] is None
            if not watched["view"]["over"]:
                shown = face_up_hand_cards(c)
                assert sorted(shown) == sorted(_public_cards(watched["view"]))
                assert set(shown) <= been_face_up, f"{shown} were never public"
                if watched["view"]["drawn"] is None:
                    assert c.locator(".drawn .card.face-up").count() == 0
                been_face_up.update(watched["view"]["discard"])
            if not latest["view"]["over"]:
                page = players[latest["view"]["actors"][0]]
        else:
            raise AssertionError("the game did not end")

        finals = [wait_actionable(page) for page in (a, b)]
        c.wait_for_function("() => window.cardtable.state().view.over")
        spectator = state(c)
        assert finals[0]["view"]["result"] == finals[1]["view"]["result"]
        assert spectator["view"]["result"] == finals[0]["view"]["result"]
        winners = ",".join(str(w) for w in finals[0]["view"]["result"]["winners"])
        for page in (a, b, c):
            expect(page.locator("[data-ui=end-panel] [data-winners]")).to_have_attribute(
                "data-winners", winners
            )
        # After the round every card is public: the spectator's end panel shows the hands.
        assert c.locator(".revealed .card.face-up").count() == 8
        expect(c.locator("[data-ui=rematch]")).to_have_count(0)
        c.screenshot(path=str(screenshots / "kaboo-spectator-end.png"), full_page=True)
    finally:
        for ctx in contexts:
            ctx.close()


def test_reload_keeps_the_seat_and_rematch(server: Server, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, server.url, "cabo", ["human", "ai:casual"])
    for moves in range(5):
        current = wait_actionable(page)
        play_action(page, choose_action(current["view"], moves))
    before = state(page)
    assert before["seat"] == 0

    page.reload()
    page.wait_for_function("() => document.body.dataset.seat === '0'")
    wait_version(page, before["version"])
    after = state(page)
    assert after["seat"] == 0 and after["game_no"] == 1
    # The page did not ask for a seat: the token came from localStorage.
    expect(page.locator("[data-ui=take-seat]")).to_have_count(0)

    final = play_to_end(page)
    assert final["view"]["result"] is not None

    # Rematch: the same room plays game 2.
    page.click("[data-ui=rematch]")
    page.wait_for_function("() => window.cardtable.state().game_no === 2")
    again = wait_actionable(page)
    assert again["status"] == "playing" and not again["view"]["over"]
    expect(page.locator("[data-ui=end-panel]")).to_have_count(0)
