"""The arena's page (static/arena.html, js/arena.js) in Debian's Chromium: its form seats two
web services on loopback (the server started with allow_local_bots) beside the built-in AI,
opens the table page, and that page draws every seat's cards face up."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_http_bots import Generic, Server
from tricktable.web.hub import HubLimits
from web_harness import serving


@pytest.fixture
def bot_servers() -> Iterator[list[Server]]:
    servers = [Server(Generic), Server(Generic)]
    yield servers
    for server in servers:
        server.close()


def test_the_form_starts_a_match_shown_face_up(
    browser: Any, tmp_path: Path, bot_servers: list[Server]
) -> None:
    limits = HubLimits(allow_local_bots=True, hand_cap_bots=3)
    with serving(tmp_path / "web.db", pace=0.05, hub_limits=limits) as base:
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(base + "/arena")
        page.locator("#game option[value=setback]").wait_for(state="attached")
        page.select_option("#game", "setback")
        for seat, server in zip((0, 2), bot_servers, strict=True):
            picker = page.locator(f"fieldset[data-seat='{seat}']")
            picker.locator("select.kind").select_option("endpoint")
            picker.locator("input.value").fill(server.url)
        page.click("button[type=submit]")
        page.wait_for_url("**/t/*")
        for seat in range(4):
            # a deadline for a broken server, not a measure
            page.locator(f".seat[data-seat='{seat}'] .face").first.wait_for(timeout=60_000)
        shown = page.locator(".seat .face[data-card]").count()
        assert shown > 0
        assert errors == []
        # Each web service is called when its seat first acts, which may come after every
        # seat's cards are drawn (the deal is shown first): waited for, with a deadline.
        end = time.monotonic() + 60
        while not all(server.requests for server in bot_servers) and time.monotonic() < end:
            page.wait_for_timeout(50)
        assert [bool(server.requests) for server in bot_servers] == [True, True]
