"""A person plays through the balancer of a two-process cluster (tests/cluster.py: PostgreSQL,
Redis, two ``cardtable serve --redis`` processes, HAProxy), the process that owns their room is
killed (SIGKILL) mid-game, and the page comes back by itself: its connection is closed (by the
dead process, or with 1012 by the other one once it sees the owner dead), it reconnects through
the balancer, the surviving process takes the room over from the store, the table shows no
version older than any it showed before (no acknowledged move lost), and the person plays the
game to its end.

The owner is found from Redis, not guessed: the room's lease key names its process's cluster
id, and each process logs its id at start (:meth:`tests.cluster.Cluster.owner_of`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page

from ..cluster import ID_LOGGING, Cluster
from .driver import (
    choose_action,
    create_room,
    describe,
    play_action,
    play_to_end,
    state,
    wait_actionable,
)

pytestmark = pytest.mark.postgres

# Every version and connection status the page shows, in order, kept in the page (run in every
# document: the lobby's form leads to the table page, where it starts again).
RECORD = """(() => {
    window.__shown = [];
    new MutationObserver((changes) => {
        for (const c of changes) {
            if (c.target !== document.body) continue;
            window.__shown.push([c.attributeName, c.target.getAttribute(c.attributeName)]);
        }
    }).observe(document, {
        subtree: true, attributes: true, attributeFilter: ["data-version", "data-conn"],
    });
})();"""


# Since entry ``n`` of ``window.__shown``: the connection was lost, the last status is "open",
# and a state was drawn after it (the same version too: the page sets it at every state).
RECOVERED = """n => {
    const since = window.__shown.slice(n);
    let lost = false, open = -1;
    since.forEach(([what, value], i) => {
        if (what !== "data-conn") return;
        if (value !== "open") { lost = true; open = -1; } else open = i;
    });
    return lost && open >= 0 && since.slice(open + 1).some(([what]) => what === "data-version");
}"""


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """Two processes with Redis behind the balancer; AI moves at once; ids in their logs."""
    with Cluster(
        2, redis=True, ai_workers=1, extra_args=ID_LOGGING, workdir=tmp_path / "cluster"
    ) as running:
        yield running


def shown(page: Page) -> list[tuple[str, str | None]]:
    """What the page showed so far: ``("data-version" | "data-conn", value)`` in order."""
    return [(name, value) for name, value in page.evaluate("() => window.__shown")]


def versions(page: Page) -> list[int]:
    """The versions the page showed, in order."""
    return [int(v) for name, v in shown(page) if name == "data-version" and v is not None]


def test_the_page_survives_its_room_owner_killed(
    cluster: Cluster, context: BrowserContext, tmp_path: Path
) -> None:
    context.add_init_script(RECORD)
    page = context.new_page()
    # cabo: the driver calls the end only after a dozen of its moves, so the game goes on
    room = create_room(page, cluster.url, "cabo", ["human", "ai:casual"])
    moves = 0
    while moves < 3:
        play_action(page, choose_action(wait_actionable(page)["view"], moves))
        moves += 1
    assert not wait_actionable(page)["view"]["over"], "the game ended before the kill"
    assert page.evaluate("() => document.body.dataset.conn") == "open"
    before = versions(page)
    assert before and before == sorted(before), before
    seen = len(shown(page))

    owner = cluster.owner_of(room)
    assert owner is not None, f"nobody holds the lease of {room}"
    cluster.kill(owner)

    # the page loses its connection (directly, or with 1012 once the survivor sees the owner
    # dead), comes back by itself, and draws a state sent on its last connection: the room's,
    # from the survivor. (A connection opened while the dead owner still counted as alive had
    # its join forwarded there, unanswered, until the survivor closed it too.)
    page.wait_for_function(RECOVERED, arg=seen, timeout=30_000)
    assert page.locator("[data-ui=offline]").count() == 0
    current = wait_actionable(page, timeout=30_000)
    assert current["version"] >= max(before), (current["version"], before, describe(page))
    assert cluster.owner_of(room) == 1 - owner
    page.screenshot(path=str(tmp_path / "after-failover.png"), full_page=True)

    # the person's moves are accepted by the new owner, to the end of the game
    assert not current["view"]["over"], describe(page)
    errors = page.evaluate("() => document.body.dataset.errors ?? ''")
    play_action(page, choose_action(current["view"], moves))
    assert state(page)["version"] > current["version"], describe(page)
    assert page.evaluate("() => document.body.dataset.errors ?? ''") == errors, describe(page)
    final = play_to_end(page)
    assert final["status"] == "finished" and final["view"]["result"] is not None
    page.screenshot(path=str(tmp_path / "after-failover-end.png"), full_page=True)
    after = versions(page)
    assert after == sorted(after), f"a version went backwards: {after}"
    assert page.locator("[data-ui=offline]").count() == 0
