"""The page's own check of a match's fair deals (web/static/js/fair.js) in Debian's Chromium:
its BLAKE2b and seeds agree with Python's, it re-deals real records of several games from
their seeds, and it refuses a record whose seed, nonce, cards, stock or dealer were changed."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from tricktable.bots.random_bot import RandomBot
from tricktable.games import load_game
from tricktable.match import play_match
from tricktable.records import to_record
from tricktable.seeds import derive_seed
from tricktable.web.room import Room

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
STATIC = Path(str(files("tricktable") / "web" / "static"))
#: a secure context (127.0.0.1 is one), so that crypto.subtle is there
ORIGIN = "http://127.0.0.1:9"
#: games whose deals differ in kind: a joker, a stock laid out whole (California Jack), an
#: up-card (Oh Hell, hands of changing size), a kitty, counter-clockwise dealing
SPECS = [
    "setback(target=11)",
    "setback(players=3,partners=false,target=7)",
    "california-jack(target=3)",
    "oh-hell(max_cards=3)",
    "pitch-with-kitty(target=7)",
    "trinidad-all-fours(target=3)",
]


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make chromium` installs it")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page()

        def serve(route: Any) -> None:
            path = route.request.url[len(ORIGIN) :].split("?")[0]
            if path == "/":
                route.fulfill(body="<!doctype html><title>fair</title>", content_type="text/html")
            elif path.startswith("/static/") and (STATIC / path[8:]).is_file():
                route.fulfill(path=str(STATIC / path[8:]), content_type="text/javascript")
            else:
                route.fulfill(status=404, body="")

        page.route(f"{ORIGIN}/**", serve)
        page.goto(f"{ORIGIN}/")
        yield page
        browser.close()


def js(page: Any, body: str, arg: Any = None) -> Any:
    """Run ``body`` (an async function body with fair.js as ``fair`` and ``arg``)."""
    return page.evaluate(
        f"async (arg) => {{ const fair = await import('{ORIGIN}/static/js/fair.js'); {body} }}", arg
    )


def dealing_of(spec: str) -> dict[str, Any]:
    """What the server's TABLE_INFO says of the game's dealing (``Room.dealing``)."""
    room = Room.__new__(Room)
    room.game = load_game(spec)
    room._dealing = None
    return room.dealing


def fair_record(spec: str, seed: int) -> tuple[str, str]:
    """A real match's first four hands (random bots) as a record with its fair-deal proof,
    and the commitment."""
    game = load_game(spec)
    state = play_match(game, [RandomBot() for _ in range(game.num_players)], seed, max_hands=4)
    record = to_record(state)
    nonce = "n" + str(seed)
    record["fair"] = {"commitment": None, "nonce": nonce}
    commitment = hashlib.sha256(f"tricktable-seed/1:{seed}:{nonce}".encode()).hexdigest()
    record["fair"]["commitment"] = commitment
    return json.dumps(record), commitment


def test_blake2b_and_the_seeds_agree_with_python(page: Any) -> None:
    texts = ["", "abc", "x" * 127, "y" * 128, "z" * 129, "5/deal", "18446744073709551615/deal"]
    ours = js(
        page,
        "return arg.map((t) => Array.from(fair.blake2b(new TextEncoder().encode(t), 8)));",
        texts,
    )
    assert ours == [list(hashlib.blake2b(t.encode(), digest_size=8).digest()) for t in texts]
    whole = js(page, "return Array.from(fair.blake2b(new TextEncoder().encode(arg)));", "abc")
    assert whole == list(hashlib.blake2b(b"abc").digest())
    seeds = [0, 1, 7, 2**53 + 1, 2**64 - 1]
    got = js(  # as text: a JavaScript number keeps only 53 bits
        page,
        "return arg.map((s) => fair.deriveSeed(BigInt(s), 'deal').toString());",
        [str(s) for s in seeds],
    )
    assert got == [str(derive_seed(s, "deal")) for s in seeds]


@pytest.mark.parametrize("spec", SPECS)
def test_the_page_re_deals_every_hand_of_a_record_from_its_seed(page: Any, spec: str) -> None:
    seed = random.Random(spec).getrandbits(64)  # above 2**53: the text's seed, not a float
    text, commitment = fair_record(spec, seed)
    check = "return await fair.checkRecord(arg.text, arg.commitment, arg.dealing);"
    dealing = dealing_of(spec)
    verdict = js(page, check, {"text": text, "commitment": commitment, "dealing": dealing})
    assert verdict["ok"], verdict
    hands = len(json.loads(text)["hands"])
    assert verdict["lines"][-1] == f"Every one of the {hands} deals came from seed {seed}."

    # Every kind of change is caught, each with its one line.
    record = json.loads(text)
    changed: list[tuple[dict[str, Any] | str, str, str]] = []
    other = json.dumps({**record, "seed": seed ^ 1})
    changed.append((other, commitment, "does not match the commitment"))
    changed.append((text, "0" * 64, "does not match the commitment"))
    swapped = copy.deepcopy(record)
    a, b = swapped["hands"][0]["deal"][0], swapped["hands"][0]["deal"][1]
    a[0], b[0] = b[0], a[0]
    changed.append((json.dumps(swapped), commitment, "hand 1: seat 0's cards"))
    moved = copy.deepcopy(record)
    moved["hands"][-1]["dealer"] = (moved["hands"][-1]["dealer"] + 1) % load_game(spec).num_players
    changed.append((json.dumps(moved), commitment, f"hand {len(record['hands'])}: dealt by"))
    if dealing["stock_used"] is not None and len(record["hands"][0]["deal"][-1]) > 1:
        stocked = copy.deepcopy(record)
        stock = stocked["hands"][0]["deal"][-1]
        stock[0], stock[1] = stock[1], stock[0]
        changed.append((json.dumps(stocked), commitment, "hand 1: the stock"))
    for bad, committed, words in changed:
        verdict = js(page, check, {"text": bad, "commitment": committed, "dealing": dealing})
        assert not verdict["ok"] and words in verdict["reason"], (words, verdict)
