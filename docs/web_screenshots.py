"""Draw the README's pictures of the web tables: ``python docs/web_screenshots.py``.

It starts ``tricktable serve`` on a free port of 127.0.0.1 with a temporary SQLite file (the
bots answer at once: ``--pace 0``), and drives Debian's Chromium (``/usr/bin/chromium``, the
browser of ``tests/test_web_browser.py``) through Playwright: a guest opens the lobby,
starts a Setback table with three characters and plays until a trick is half played, then
until the hand is over. It writes into ``docs/img/``:

- ``web-lobby.png``: the lobby, with a table waiting for a friend;
- ``web-table.png``: the table in the middle of a trick, on a wide screen;
- ``web-table-phone.png``: the same table on a phone (375 x 812, the large-index cards);
- ``web-summary.png``: the hand's summary;
- ``web-replay.png``: the replay of a finished match (a second table, to 1 point, played out),
  every hand face up, in its second trick;
- ``web-hearts-pass.png``: Hearts' pass of three, two cards chosen in the hand.

Run it from the repository with the package importable (``PYTHONPATH=src`` or installed)
and the dev extra (Playwright) installed. Deals are random, so each run draws other cards.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "img"
CHROMIUM = "/usr/bin/chromium"
#: what the page clicks when it is its turn: a playable card, or a call (not the hint)
LEGAL = ".hand-card.legal, .actions button:not(.hint)"


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``tricktable serve`` on a free port; the process and its URL once it answers."""
    port = free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(HERE.parent / "src") + os.pathsep + env.get("PYTHONPATH", "")
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--pace", "0"]
    proc = subprocess.Popen([sys.executable, "-m", "tricktable", *args], env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(base + "/api/me", timeout=1):
                return proc, base
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("tricktable serve stopped") from None
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("tricktable serve did not answer in 20 s")


def table_state(page: Any) -> dict[str, Any]:
    """The phase, the cards in the trick and whether it is our turn, as the page knows them."""
    return dict(
        page.evaluate(
            """() => {
              const s = window.tricktable.store.shown || {};
              const h = s.hand || {};
              return {phase: h.phase, trick: (h.trick || []).length,
                      turn: document.querySelectorAll('.hand-card.legal').length > 0,
                      summaries: window.tricktable.store.summaries.length,
                      busy: !!window.tricktable.store.busy};
            }"""
        )
    )


def shoot(page: Any, name: str) -> None:
    # The animations of the events so far have played, and the avatars are drawn.
    page.wait_for_function("!window.tricktable || !window.tricktable.store.busy")
    page.wait_for_timeout(300)
    page.evaluate("window.scrollTo(0, 0)")  # a click scrolled its card into view
    page.wait_for_function("Array.from(document.images).every(i => i.complete)")
    page.screenshot(path=str(OUT / name))
    print("wrote", OUT / name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "tables.db")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 1280, "height": 860})
                page = context.new_page()
                page.set_default_timeout(20000)
                # The lobby, with a table waiting for a friend (created in a second session).
                other = browser.new_context()
                other.request.post(base + "/api/guest", data={"name": "Basil"})
                csrf = other.request.get(base + "/api/me").json()["csrf"]
                seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "character", "name": "kit"}]
                other.request.post(
                    base + "/api/tables",
                    data={"game": "setback", "seats": [*seats, {"kind": "open"}], "move_time": 30},
                    headers={"X-CSRF-Token": csrf},
                )
                page.goto(base + "/")
                page.get_by_label("Your name").fill("Ann")
                page.get_by_role("button", name="Play as guest").click()
                page.get_by_role("region", name="Start a table").wait_for()
                page.get_by_role("cell", name="Setback").first.wait_for()
                shoot(page, "web-lobby.png")
                # A table with three characters, played to the middle of a trick.
                page.get_by_role("button", name="Create the table").click()
                page.wait_for_url("**/t/**")
                page.wait_for_selector(".felt")
                for _ in range(60):
                    page.wait_for_selector(LEGAL)
                    state = table_state(page)
                    if state["phase"] == "play" and state["trick"] >= 2 and state["turn"]:
                        break
                    page.locator(LEGAL).first.click()
                    page.wait_for_timeout(100)
                shoot(page, "web-table.png")
                page.set_viewport_size({"width": 375, "height": 812})
                page.reload()
                page.wait_for_selector(".hand-card.legal")
                shoot(page, "web-table-phone.png")
                page.set_viewport_size({"width": 1280, "height": 860})
                page.evaluate("localStorage.removeItem('tt-skin')")
                page.reload()
                page.wait_for_selector(".felt")
                # The rest of the hand, to its summary.
                for _ in range(80):
                    if table_state(page)["summaries"]:
                        break
                    page.wait_for_selector(LEGAL + ", .summary")
                    if not table_state(page)["summaries"]:
                        page.locator(LEGAL).first.click()
                page.get_by_role("dialog").wait_for()
                shoot(page, "web-summary.png")
                # A short match (to 1 point) played out, then its replay caught mid-trick.
                csrf = context.request.get(base + "/api/me").json()["csrf"]
                seats = [{"kind": "me"}] + [
                    {"kind": "character", "name": n, "level": "beginner"}
                    for n in ("moe", "ada", "kit")
                ]
                made = context.request.post(
                    base + "/api/tables",
                    data={"game": "setback", "options": {"target": 1}, "seats": seats},
                    headers={"X-CSRF-Token": csrf},
                ).json()
                page.goto(base + made["url"])
                over = page.get_by_role("dialog").filter(has_text="The match is over")
                for _ in range(300):
                    page.wait_for_selector(LEGAL + ", .summary")
                    if over.count():
                        break
                    if page.locator(".summary").count():
                        page.get_by_role("button", name="Continue").click()
                    elif page.locator(LEGAL).count():
                        page.locator(LEGAL).first.click()
                over.get_by_role("link", name="Watch the replay").click()
                # the server's snapshots, every hand face up: a position in the second trick
                page.wait_for_selector(".replay-page[data-step]")
                index = page.evaluate(
                    "fetch(location.pathname.replace('/t/', '/api/tables/') + '/replay')"
                    ".then(r => r.json())"
                )
                stop = index["trick_stops"][min(2, len(index["trick_stops"]) - 1)] + 2
                page.goto(f"{page.url.split('&step=')[0]}&step={stop}")
                page.wait_for_function(
                    f"document.querySelector('.replay-page')?.dataset.step === '{stop}'"
                )
                shoot(page, "web-replay.png")
                # Hearts' pass of three: two cards chosen in the hand, the counter and the button
                made = context.request.post(
                    base + "/api/tables",
                    data={"game": "hearts", "seats": [{"kind": "me"}, *seats[1:]]},
                    headers={"X-CSRF-Token": csrf},
                ).json()
                page.goto(base + made["url"])
                confirm = page.get_by_role("button", name="Pass these three")
                confirm.wait_for()
                cards = page.locator(".hand-card[aria-pressed]")
                cards.nth(0).click()
                cards.nth(4).click()
                page.get_by_text("2 of 3 chosen").wait_for()
                shoot(page, "web-hearts-pass.png")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
