"""Forged unit results, as a worker that is not running tricktable's code as it should would
send them: each a way to lie that the storing process must catch (tests/test_verify.py,
tests/test_cluster.py, where :func:`tampering` runs on the workers of a real cluster)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from tricktable.records import replay
from tricktable.runner import MatchResult
from tricktable.tournament.play import Played, play_units
from tricktable.tournament.schedule import Unit


def more_points(unit: Unit, played: Played) -> Played:
    """The first side's score raised: a result its record does not give."""
    result = dict(
        played.result, scores=[played.result["scores"][0] + 5, *played.result["scores"][1:]]
    )
    return dataclasses.replace(played, result=result)


def other_cards(unit: Unit, played: Played) -> Played:
    """A legal match with a result true to it, played on other cards than the unit's seed deals."""
    (elsewhere,) = play_units([dataclasses.replace(unit, seed=unit.seed + 1)])
    record = json.loads(elsewhere.record)
    record["seed"] = unit.seed
    return dataclasses.replace(elsewhere, seed=unit.seed, record=json.dumps(record))


def swapped_hands(unit: Unit, played: Played) -> Played:
    """Two seats' cards swapped in the record: its actions no longer replay."""
    record = json.loads(played.record)
    deal = record["hands"][0]["deal"]
    deal[0], deal[1] = deal[1], deal[0]
    return dataclasses.replace(played, record=json.dumps(record))


def cut_short(unit: Unit, played: Played) -> Played:
    """The hand stopped before its end, with a result true to what is left of it."""
    record = json.loads(played.record)
    hand = record["hands"].pop()
    record["unfinished_hand"] = dict(hand, actions=hand["actions"][:-3])
    got = MatchResult.of(replay(record))
    result = dict(played.result, status=got.status, scores=list(got.scores), winner=got.winner,
                  hands=got.hands, shared=got.shared, forfeited_by=got.forfeited_by)  # fmt: skip
    return dataclasses.replace(played, record=json.dumps(record), result=result)


FORGERIES = (more_points, other_cards, swapped_hands, cut_short)


def tampering(batch: Sequence[Unit]) -> list[Played]:
    """What a worker that does not run tricktable's code as it should sends back (this runs on
    the workers): the batch's true results, every other one forged, each way in turn."""
    played = play_units(batch)
    return [
        FORGERIES[(i // 2) % len(FORGERIES)](unit, p) if i % 2 else p
        for i, (unit, p) in enumerate(zip(batch, played, strict=True))
    ]
