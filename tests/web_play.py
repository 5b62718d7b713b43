"""A person at a web table who acts only through ARIA roles and accessible names.

Shared by ``tests/test_web_games.py`` and ``benchmarks/web_every_game.py``: a real
``tricktable serve`` (127.0.0.1, a temporary SQLite file, ``--pace 0``), Debian's Chromium
driven by Playwright, and :class:`Player`, who plays a hand as a person would — by the
buttons' names (``get_by_role("button", name="seven of hearts")``), never by a CSS class or
an engine's code. The server's snapshots, read off the page's websocket, only say *which*
names to click (the decision's kind, the legal calls, how many cards a choice takes); every
act goes through the page.

The page contract (``web/static/js/table.js``): on your turn a decision is either *one of
these* — cards to play are buttons named by their words ("seven of hearts"), calls are
buttons named by their text ("bid 3", "pass", "order up") — or *k cards of these*: the
eligible cards of your hand are toggle buttons (``aria-pressed``) named by their words, a
counter says "2 of 3 chosen", and one confirm button named by the decision's words ("Pass
these three") is enabled only when the count is allowed. A hand's summary is a dialog.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricktable.cards import SUIT_NAMES, SUITS
from tricktable.chat.notation import RANK_WORDS

ROOT = Path(__file__).resolve().parents[1]
#: milliseconds a table's page may take to show its table (a deadline for a broken page)
OPEN_MS = 30_000
CHROMIUM = "/usr/bin/chromium"

_RANKS = dict(zip("23456789TJQKA", RANK_WORDS, strict=True))
_SUITS = dict(zip(SUITS, SUIT_NAMES, strict=True))


#: a button's line in Playwright's ARIA snapshot: its name and its states (a line whose
#: name holds a colon is quoted again, as YAML: ``- 'button "Trump: clubs"': ...``)
_BUTTON = re.compile(r'^\s*- \'?button "((?:[^"\\]|\\.)*)"((?:\s*\[[^\]]*\])*)')

#: the accessible name of a hand's summary or of the match's end
SUMMARY = re.compile(r"^(Hand \d+|The match is over)$")


class PlayFailed(Exception):
    """The person could not go on: what was expected and what the page showed."""


def card_words(code: str) -> str:
    """A card's accessible name as the page says it ("seven of hearts", "joker")."""
    if code == "JK":
        return "joker"
    if code == "JL":
        return "little joker"
    return f"{_RANKS[code[0]]} of {_SUITS[code[1]]}"


def card_name_pattern(code: str) -> re.Pattern[str]:
    """The card's name, whole, with or without a leading "the" (the server says "the joker")."""
    return re.compile(rf"^(the )?{re.escape(card_words(code))}$", re.IGNORECASE)


def is_card_play(action: dict[str, Any]) -> bool:
    """Whether a snapshot's legal action plays a card (its words one card, or its text)."""
    words = action.get("words")
    if isinstance(words, list) and len(words) == 1 and isinstance(words[0], dict):
        return words[0].get("t") == "card"
    return bool(_PLAY.fullmatch(str(action.get("text", ""))))


_PLAY = re.compile(r"(play )?([2-9TJQKA][CDHS]|J[KL])")


# ------------------------------------------------------------------------- server, browser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, log: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """``tricktable serve`` of ``db`` on ``port`` with the sources of this checkout, once it
    answers; raises RuntimeError if it does not within 20 s."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--pace", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tricktable", *args], env=env, stdout=log, stderr=log
    )
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/me", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"tricktable serve stopped (exit {proc.returncode})") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("tricktable serve did not answer in 20 s")


#: each served address's log file (what a failure quotes from the server's side)
SERVER_LOGS: dict[str, Path] = {}


@contextlib.contextmanager
def served(db: Path) -> Iterator[str]:
    """A ``tricktable serve`` of ``db`` on a free port while the block runs: its address.
    The server's output goes to ``serve.log`` beside ``db``."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    SERVER_LOGS[base] = db.parent / "serve.log"
    with SERVER_LOGS[base].open("ab") as log:
        proc = start_server(db, port, log=log)
        try:
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def server_log_tail(base: str, lines: int = 15) -> str:
    """The last ``lines`` lines the server at ``base`` wrote ("" if none is known)."""
    path = SERVER_LOGS.get(base)
    if path is None or not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def launch(playwright: Any) -> Any:
    """Debian's Chromium (never a downloaded one)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


def game_sizes(base: str) -> dict[str, int]:
    """Every game and variant the server offers, with its default table size, in its order."""
    with urllib.request.urlopen(base + "/api/games", timeout=10) as answer:
        games = json.load(answer)["games"]
    out: dict[str, int] = {}
    for g in games:
        out[g["name"]] = int(g["players"])
        for v in g.get("variants", []):
            seats = v.get("players", v["seats"])
            out[v["name"]] = int(seats if isinstance(seats, int) else seats[0])
    return out


# ------------------------------------------------------------------------------ the person

#: a chooser of one call among the legal entries' names (None: the default, at random)
Chooser = Callable[[list[str], random.Random], str]


@dataclass
class Played:
    """What one person did in a hand: every decision as (kind, name)."""

    decisions: list[tuple[str, str]] = field(default_factory=list)
    hands: int = 0
    over: bool = False
    #: what a person would stumble on, though the hand went on (a card it could not click)
    notes: list[str] = field(default_factory=list)

    def count(self, kind: str) -> int:
        return sum(k == kind for k, _ in self.decisions)

    def names(self, kind: str) -> list[str]:
        return [n for k, n in self.decisions if k == kind]

    def line(self) -> str:
        """``12 decisions: 9 cards played, 2 calls (bid, pass), 1 choice (Pass these three)``."""
        parts = [f"{self.count('card')} cards played"]
        calls = Counter((n.split() or [n])[0].rstrip(":").lower() for n in self.names("call"))
        if calls:
            parts.append(f"{self.count('call')} calls ({', '.join(sorted(calls))})")
        choices = self.names("cards")
        if choices:
            parts.append(f"{len(choices)} multi-card ({'; '.join(dict.fromkeys(choices))})")
        line = f"{len(self.decisions)} decisions: " + ", ".join(parts)
        if self.notes:
            line += f"; NOTE {len(self.notes)} by keyboard, e.g. {self.notes[0]}"
        return line


def bold(names: list[str], rng: random.Random) -> str:
    """A chooser that takes the contract when it can: the highest bid, ordering up, begging,
    naming a suit — so that the decisions after a won auction come to this seat."""

    def score(name: str) -> tuple[int, int]:
        words = name.split()
        if words and words[0] == "bid" and len(words) > 1 and words[1].isdigit():
            return (2, int(words[1]))
        if name in ("pass", "stand", "refuse", "no"):
            return (0, 0)
        if "alone" in name:
            return (1, 0)
        return (1, 1)

    best = max(score(n) for n in names)
    return rng.choice([n for n in names if score(n) == best])


class Player:
    """One person at one table page: a guest in a browser context of its own, or whoever
    ``context`` (a signed-in browser context, given) is."""

    def __init__(
        self, browser: Any, base: str, name: str = "Pat", seed: int = 0, context: Any = None
    ) -> None:
        self.base = base
        self.context = context or browser.new_context(
            viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on(
            "console", lambda m: self.problems.append(m.text) if m.type == "error" else None
        )
        #: what the page's websockets and requests did, latest last (a failure quotes it)
        self.trace: list[str] = []
        self.page.on("requestfailed", lambda r: self._note(f"failed {r.url}: {r.failure}"))
        self.page.on(
            "response",
            lambda r: self._note(f"{r.status} {r.url}") if "/api/" in r.url else None,
        )
        self.page.on("websocket", self._watch)
        self.rng = random.Random(seed)
        #: the latest snapshot the server sent this page, and how many have come
        self.snapshot: dict[str, Any] | None = None
        self.stamp = 0
        #: the reason of the last act the server refused (None: none)
        self.refused: str | None = None
        #: the count of snapshots when this person last acted (those after it are new)
        self.acted = -1
        if context is not None:
            answer = context.request.get(base + "/api/me")
        else:
            answer = self.context.request.post(base + "/api/guest", data={"name": name})
        if not answer.ok:
            raise PlayFailed(f"no session: {answer.status} {answer.text()}")
        self.csrf = str(answer.json()["csrf"])

    def _note(self, line: str) -> None:
        self.trace.append(f"{time.monotonic():.1f} {line}")
        del self.trace[:-20]

    def _watch(self, ws: Any) -> None:
        self._note(f"websocket {ws.url}")
        ws.on("close", lambda _ws: self._note("websocket closed"))
        ws.on("socketerror", lambda e: self._note(f"websocket error {e}"))

        def received(payload: str | bytes) -> None:
            try:
                frame = json.loads(payload)
            except ValueError:
                return
            data = frame.get("data") or {}
            kind = frame.get("type")
            snap = None
            if kind == "snapshot":
                snap = data.get("snapshot", data)
            elif kind in ("confirm", "refuse"):
                snap = data.get("snapshot")
            if kind == "refuse":
                self.refused = str(data.get("reason"))
            if kind != "events" and len(self.trace) < 20:
                self._note(f"frame {kind}")
            if isinstance(snap, dict):
                self.snapshot = snap
                self.stamp += 1

        ws.on("framereceived", received)

    # -- a table

    def create(
        self,
        game: str,
        seats: int,
        level: str = "beginner",
        me: int = 0,
        options: dict[str, Any] | None = None,
    ) -> str:
        """A table of ``game`` by the API: this person in seat ``me``, bots elsewhere; its id."""
        spec: list[dict[str, Any]] = [{"kind": "bot", "level": level} for _ in range(seats)]
        spec[me] = {"kind": "me"}
        settings: dict[str, Any] = {
            "game": game,
            "seats": spec,
            "move_time": 0,
            "when_empty": "close",
        }
        if options:
            settings["options"] = options
        answer = self.context.request.post(
            self.base + "/api/tables", data=settings, headers={"X-CSRF-Token": self.csrf}
        )
        if not answer.ok:
            raise PlayFailed(f"POST /api/tables: {answer.status} {answer.text()}")
        info = answer.json()["table"]
        open_seats = [s["seat"] for s in info["seats"] if s["kind"] == "open"]
        if open_seats:
            raise PlayFailed(
                f"{game} has {len(info['seats'])} seats, {seats} given: {open_seats} open"
            )
        return str(info["id"])

    def open(self, table: str) -> None:
        """Go to the page of ``table`` and wait until it shows the table.

        The wait is a deadline for a broken page, not a measure: a loaded CI machine once took
        more than the page's 10 s here, once in the dozens of tables a suite opens. On a miss
        the failure says what the page showed instead (still "Finding the table…", a refusal).
        """
        self.trace.clear()
        self._note(f"goto /t/{table}")
        self.page.goto(f"{self.base}/t/{table}")
        self._note("loaded")
        try:
            self.page.get_by_role("region", name=re.compile(r"^The table")).wait_for(
                timeout=OPEN_MS
            )
        except Exception as exc:  # playwright's TimeoutError: say what was shown instead
            shown = " ".join(self.page.locator("body").inner_text(timeout=OPEN_MS).split())
            me = self.context.request.get(self.base + "/api/me", timeout=5000)
            raise PlayFailed(
                f"table {table} not shown in {OPEN_MS // 1000} s; the page showed: "
                f"{shown[:300]!r}; /api/me now: {me.status}; the page's trace: {self.trace}; "
                f"the server's log ends:\n{server_log_tail(self.base)}"
            ) from exc

    def dealer(self, timeout: float = 10.0) -> int:
        """The first hand's dealer, from the snapshots the page was sent."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for seat in (self.snapshot or {}).get("seats") or []:
                if seat.get("dealer"):
                    return int(seat["seat"])
            self.page.wait_for_timeout(25)
        raise PlayFailed("no dealer shown")

    def seated_where(
        self,
        game: str,
        seats: int,
        dealer: Callable[[int], bool],
        tries: int = 64,
        options: dict[str, Any] | None = None,
    ) -> int:
        """Open tables of ``game`` (this person in seat 0) until the first hand's dealer is
        one ``dealer`` accepts; a table left behind is left by its "Leave seat" button (no
        person left: it closes). The dealer found.

        The seed is the server's fair draw, never the test's: a one-in-four dealer missed
        in 16 tries failed CI once in a hundred runs; in 64, once in 10^8."""
        for _ in range(tries):
            self.snapshot, self.stamp, self.refused = None, 0, None
            self.open(self.create(game, seats, options=options))
            d = self.dealer()
            if dealer(d):
                return d
            self.page.get_by_role("button", name="Leave seat").click()
            self.page.wait_for_timeout(50)
        raise PlayFailed(f"no table of {game} in {tries} with the dealer wanted")

    # -- the play

    def dialog(self) -> Any:
        """A hand's summary or the match's end (a dialog named "Hand 1", "The match is over")."""
        return self.page.get_by_role("dialog", name=SUMMARY)

    def play_hand(
        self,
        deadline: float,
        choose: Chooser | None = None,
        played: Played | None = None,
        keyboard: bool = False,
    ) -> Played:
        """Play until a hand's summary (or the match's end) is shown; each decision by its
        buttons' names (or, with ``keyboard``, by Tab, arrows, Space and Enter alone)."""
        played = played or Played()
        self.acted = -1
        while True:
            if time.monotonic() > deadline:
                raise PlayFailed(f"out of time after {len(played.decisions)} decisions")
            if self.dialog().count() and self.dialog().first.is_visible():
                played.hands += 1
                played.over = bool((self.snapshot or {}).get("over"))
                return played
            snap = self.snapshot
            decision = snap.get("decision") if snap else None
            if decision is None or self.stamp <= self.acted:
                self.page.wait_for_timeout(25)
                continue
            if self.refused is not None:
                last = played.decisions[-1] if played.decisions else None
                raise PlayFailed(f"the server refused {last}: {self.refused}")
            # Until the act is sent (set again just before it), this snapshot is handled.
            self.acted = self.stamp
            if decision.get("kind") == "cards":
                self._choose_cards(decision, played, keyboard)
            else:
                self._choose_one(snap or {}, played, choose, keyboard)

    def next_hand(self) -> None:
        """Close a hand's summary by its Continue button."""
        self.dialog().get_by_role("button", name="Continue").click()
        self.dialog().wait_for(state="hidden")

    def buttons(self, group: Any) -> list[tuple[str, bool]]:
        """The buttons of ``group`` as the accessibility tree says them: (name, enabled)."""
        out = []
        for line in group.aria_snapshot().splitlines():
            m = _BUTTON.match(line)
            if m:
                name = m.group(1).replace('\\"', '"').replace("\\\\", "\\")
                out.append((name, "[disabled" not in (m.group(2) or "")))
        return out

    def _choose_one(
        self, snap: dict[str, Any], played: Played, choose: Chooser | None, keyboard: bool
    ) -> None:
        legal = snap.get("legal") or []
        if not legal:
            raise PlayFailed(f"a decision of one action with no legal actions: {snap['decision']}")
        # The snapshot says how many cards and calls there are; the page, what they are called.
        n_cards = sum(1 for a in legal if is_card_play(a))
        n_calls = len(legal) - n_cards
        hand = self.page.get_by_role("group", name=re.compile(r"^Your hand"))
        calls = self.page.get_by_role("group", name="Your call")
        end = time.monotonic() + 5
        while True:
            cards = [n for n, on in self.buttons(hand) if on] if hand.count() else []
            said = (
                [n for n, on in self.buttons(calls) if on and n != "Hint"] if calls.count() else []
            )
            if len(cards) == n_cards and len(said) == n_calls:
                break
            if time.monotonic() > end:
                raise PlayFailed(
                    f"the page offers {len(cards)} cards {cards} and {len(said)} calls {said}; "
                    f"the server's legal actions: {[a.get('text') for a in legal]}"
                )
            self.page.wait_for_timeout(25)
        if cards and (not said or self.rng.random() < 0.5):
            kind, name, group = "card", self.rng.choice(cards), hand
        else:
            kind, group = "call", calls
            name = (choose or (lambda ns, r: r.choice(ns)))(said, self.rng)
        button = group.get_by_role("button", name=name, exact=True, disabled=False)
        if keyboard:
            self._keyboard_to(button, name)
        # A snapshot that came while choosing is older than the act: answered by it.
        self.acted = self.stamp
        if keyboard:
            self.page.keyboard.press("Enter")
        else:
            self._click(button, name, "Enter", played)
        played.decisions.append((kind, name))

    def _choose_cards(self, decision: dict[str, Any], played: Played, keyboard: bool) -> None:
        least, most = int(decision["min"]), int(decision["max"])
        if decision.get("sets"):
            chosen = list(self.rng.choice(decision["sets"]))
        else:
            k = self.rng.randint(least, most)
            chosen = self.rng.sample(list(decision["cards"]), k)
        confirm_name = str(decision["confirm"][str(len(chosen))])
        # The confirm button's name may follow the count: any of the decision's words.
        words = sorted(decision["confirm"].values(), key=len, reverse=True)
        any_confirm = re.compile("^(" + "|".join(re.escape(str(w)) for w in words) + ")$")
        first = self.page.get_by_role("button", name=any_confirm)
        try:
            first.first.wait_for(timeout=5000)
        except Exception as e:
            raise PlayFailed(
                f"no confirm button named {confirm_name!r} for a choice of {least}..{most} "
                f"of {decision.get('cards')}"
            ) from e
        if least > 0 and first.first.is_enabled():
            said = self.page.get_by_role("main").aria_snapshot()
            raise PlayFailed(
                f"{confirm_name!r} is enabled with no card chosen (min {least}): {decision}; "
                f"the page: {said}"
            )
        hand = self.page.get_by_role("group", name=re.compile(r"^Your hand"))
        for i, code in enumerate(chosen):
            toggle = hand.get_by_role("button", name=card_name_pattern(code), pressed=False)
            try:
                toggle.wait_for(timeout=5000)
            except Exception as e:
                raise PlayFailed(f"no toggle button named {card_words(code)!r}, unpressed") from e
            if keyboard:
                self._keyboard_to(toggle, card_words(code))
                self.page.keyboard.press("Space")
            else:
                self._click(toggle, card_words(code), "Space", played)
            pressed = hand.get_by_role("button", name=card_name_pattern(code), pressed=True)
            try:
                pressed.wait_for(timeout=3000)
            except Exception as e:
                raise PlayFailed(f"{card_words(code)!r} is not aria-pressed after a press") from e
            k = i + 1
            said = re.compile(rf"(^|\D){k} of \d+ chosen|(^|\D){k} chosen")
            try:
                self.page.get_by_text(said).first.wait_for(timeout=3000)
            except Exception as e:
                raise PlayFailed(f"no counter saying '{k} of {most} chosen'") from e
        try:
            self.page.get_by_role("button", name=confirm_name, exact=True, disabled=False).wait_for(
                timeout=3000
            )
        except Exception as e:
            raise PlayFailed(f"{confirm_name!r} stays disabled with {len(chosen)} chosen") from e
        confirm = self.page.get_by_role("button", name=confirm_name, exact=True)
        if keyboard:
            self._keyboard_to(confirm, confirm_name)
        self.acted = self.stamp
        if keyboard:
            self.page.keyboard.press("Enter")
        else:
            self._click(confirm, confirm_name, "Enter", played)
        played.decisions.append(("cards", confirm_name))

    def _click(self, button: Any, name: str, key: str, played: Played) -> None:
        """Click ``button``; one a pointer cannot reach (another card lies over it, as in a
        hand of 27) is pressed by the keyboard instead, and the line says so."""
        try:
            button.click(timeout=3000)
        except Exception as e:
            why = next((ln.strip() for ln in str(e).splitlines() if "intercepts" in ln), "")
            played.notes.append(f"{name!r} not clickable{': ' + why[:80] if why else ''}")
            button.press(key)

    def _keyboard_to(self, target: Any, name: str) -> None:
        """Move the focus to ``target`` by Tab and the arrow keys alone."""
        handle = target.element_handle()
        where = (
            "el => { const a = document.activeElement, p = el.parentElement;"
            " if (a === el) return 'here';"
            " if (!a || !p || a === p || !p.contains(a)) return 'out';"
            " const kids = Array.from(p.children);"
            " return kids.indexOf(a) < kids.indexOf(el) ? 'before' : 'after'; }"
        )
        for _ in range(150):
            at = self.page.evaluate(where, handle)
            if at == "here":
                return
            if at != "out":
                # Inside the hand or the calls, the arrows move between the buttons.
                focused = self.page.evaluate_handle("() => document.activeElement")
                self.page.keyboard.press("ArrowRight" if at == "before" else "ArrowLeft")
                if not self.page.evaluate("a => document.activeElement === a", focused):
                    continue
            self.page.keyboard.press("Tab")
        raise PlayFailed(f"Tab and the arrows never reached {name!r}")

    def screenshot(self, path: str) -> str:
        try:
            self.page.screenshot(path=path, full_page=True)
        except Exception as e:  # the page may be gone; say so in the path's place
            return f"(no screenshot: {e})"
        return path

    def close(self) -> None:
        self.context.close()
