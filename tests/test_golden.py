"""Golden transcripts: seeded matches of four random bots, saved as records with their results.

Each ``tests/golden/setback-seed-N.json`` holds the game, the seed, the hand limit, the record of
the match and the result of replaying it. The test replays the record, and plays the seeded
match again, and compares both exactly: any change in the engine, the deal, the random bot or
the record format shows here.

When a change of behaviour is intended, regenerate the files and review the diff::

    UPDATE_GOLDEN=1 PYTHONPATH=src .venv/bin/pytest -q tests/test_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.games import load_game
from tricktable.match import play_match
from tricktable.records import replay, result_of, to_record

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
BOTS = ["random", "random", "random", "random"]

#: (seed, game, hand limit); seeds chosen so that most of these matches end within the limit
CASES = [
    (128, "setback", 25),  # RULES.md defaults, to 21: ends after 14 hands
    (34, "setback(target=11)", 25),
    (15, "setback(target=7,low_to=dealt,declarer_scores=taken)", 25),
    (3, "setback", 12),  # stops before the match ends
]


def as_json(value: Any) -> Any:
    """A value as JSON carries it."""
    return json.loads(json.dumps(value))


def play(spec: str, seed: int, max_hands: int) -> dict[str, Any]:
    """Play the seeded match and return its golden transcript."""
    state = play_match(load_game(spec), [make_bot(b) for b in BOTS], seed, max_hands=max_hands)
    record = to_record(state, [f"bot:{b}" for b in BOTS])
    return as_json(
        {
            "game": spec,
            "seed": seed,
            "bots": BOTS,
            "max_hands": max_hands,
            "record": record,
            "result": result_of(state),
        }
    )


@pytest.mark.parametrize(("seed", "spec", "max_hands"), CASES)
def test_golden_transcript(seed: int, spec: str, max_hands: int) -> None:
    path = GOLDEN / f"setback-seed-{seed}.json"
    fresh = play(spec, seed, max_hands)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(fresh, indent=1) + "\n", encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1 to create it"
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert (golden["game"], golden["seed"], golden["max_hands"]) == (spec, seed, max_hands)
    # the saved record replays to the saved result
    assert as_json(result_of(replay(golden["record"]))) == golden["result"]
    # and the seeded match plays out the same, action for action
    for h, (new, old) in enumerate(
        zip(fresh["record"]["hands"], golden["record"]["hands"], strict=False)
    ):
        assert new == old, f"hand {h} differs from the golden transcript"
    assert fresh == golden


#: one golden transcript per other game and for some Pitch variants: (seed, spec, hand limit)
FAMILY = [
    (1, "hearts", 3),
    (1, "filippa", 3),
    (1, "spades", 3),
    (1, "tricks(target=40)", 3),
    (1, "oh-hell(max_cards=4)", 4),
    (1, "euchre", 4),
    (1, "smear", 4),
    (1, "ten-point-pitch", 4),
    (1, "pedro", 4),
    (1, "setback-classic", 4),
]


@pytest.mark.parametrize(("seed", "spec", "max_hands"), FAMILY)
def test_golden_transcript_of_each_game(seed: int, spec: str, max_hands: int) -> None:
    name = spec.split("(")[0]
    path = GOLDEN / f"{name}-seed-{seed}.json"
    fresh = play(spec, seed, max_hands)
    if UPDATE:
        path.write_text(json.dumps(fresh, indent=1) + "\n", encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1 to create it"
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert as_json(result_of(replay(golden["record"]))) == golden["result"]
    assert fresh == golden, f"{spec}: the seeded match no longer plays as recorded"


def test_golden_matches_cover_an_ended_and_an_unfinished_match() -> None:
    winners = []
    for seed, _, _ in CASES:
        path = GOLDEN / f"setback-seed-{seed}.json"
        if path.exists():
            winners.append(json.loads(path.read_text(encoding="utf-8"))["result"]["winner"])
    assert len(winners) == len(CASES), "regenerate with UPDATE_GOLDEN=1"
    assert None in winners and any(w is not None for w in winners)


#: the golden records written before deals came from per-hand seeds (and other format
#: changes): records saved by earlier versions must replay to their saved results for ever
LEGACY = sorted((GOLDEN / "v1").glob("*.json"))


@pytest.mark.parametrize("path", LEGACY, ids=[p.stem for p in LEGACY])
def test_records_of_earlier_versions_still_replay(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert golden["record"]["format"] == "tricktable-record/1"
    assert as_json(result_of(replay(golden["record"]))) == golden["result"]
