"""Addresses a person may open: an unknown one gets a page that says so, the API keeps JSON."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from ..webserver import Server


def _get(url: str, accept: str) -> tuple[int, str, str]:
    req = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers.get("content-type", ""), resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("content-type", ""), err.read().decode()


def test_an_unknown_address_gets_a_page_saying_so(server: Server) -> None:
    html = "text/html,application/xhtml+xml,*/*;q=0.8"
    status, kind, body = _get(server.url + "/no/such/page", html)
    assert status == 404 and kind.startswith("text/html")
    assert "There is no such page" in body and 'href="/"' in body
    # the API, and clients that do not ask for a page, keep the JSON answer
    status, kind, body = _get(server.url + "/api/nothing-here", html)
    assert status == 404 and kind.startswith("application/json")
    assert json.loads(body) == {"detail": "Not Found"}
    status, kind, body = _get(server.url + "/no/such/page", "application/json")
    assert status == 404 and json.loads(body) == {"detail": "Not Found"}
    # a known page is unchanged
    status, kind, body = _get(server.url + "/", html)
    assert status == 200 and "/static/app.js" in body
