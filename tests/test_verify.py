"""The check every unit's result passes before it is stored: its record replayed on the
scheduled deals (tricktable.tournament.verify). True results of every game pass; each way to
forge one is refused, with a reason that says which."""

from __future__ import annotations

import dataclasses
import json

import pytest

from forgeries import FORGERIES, cut_short, more_points, other_cards, swapped_hands
from tricktable.games import GAMES, load_game
from tricktable.tournament.play import Played, play_units
from tricktable.tournament.schedule import Unit, units
from tricktable.tournament.spec import TournamentSpec
from tricktable.tournament.verify import refusal

ENTRANTS = (("r", "random"), ("h", "heuristic"), ("r2", "random"), ("h2", "heuristic"))


def tournament(game: str, fmt: str) -> list[tuple[Unit, Played]]:
    """A few units of a small tournament of ``game``, played: (unit, its true result)."""
    extra = {"deals": 2} if fmt == "duplicate" else {"matches": 1, "max_hands": 3}
    spec = TournamentSpec(name="v", game=game, entrants=ENTRANTS, format=fmt, seed=7, **extra)
    todo = list(units(spec))[:6]
    return list(zip(todo, play_units(todo), strict=True))


@pytest.mark.parametrize("fmt", ["duplicate", "round-robin"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_true_results_pass_and_every_forgery_is_refused(game: str, fmt: str) -> None:
    played = tournament(load_game(game).spec(), fmt)
    for unit, result in played:
        assert refusal(unit, result) is None, unit.key
    unit, result = played[0]
    words = {
        more_points: "its result says scores",
        other_cards: "is not the deal its seed gives",
        swapped_hands: "its record does not replay",
        cut_short: "its match stops after",
    }
    for forge in FORGERIES:
        why = refusal(unit, forge(unit, result))
        # Hands swapped in a hand thrown in before any card (All Fours' stock ran dry) replay
        # alike: the deal check refuses them instead.
        allowed = [words[forge]] + (["is not the deal its seed gives"] * (forge is swapped_hands))
        assert why is not None and any(w in why for w in allowed), (forge.__name__, why)
        assert "\n" not in why and len(why) < 200


def test_a_result_for_another_unit_seat_or_game_is_refused() -> None:
    (unit, result), (other, _) = tournament("setback", "duplicate")[:2]
    # The second table of a deal: the same cards, the entrants seated the other way.
    assert unit.seed == other.seed and unit.entrants != other.entrants
    moved = dataclasses.replace(result, entrants=other.entrants)
    assert "another unit, seating or seed" in str(refusal(unit, moved))
    record = json.loads(result.record)
    renamed = dataclasses.replace(
        result, record=json.dumps(dict(record, players=record["players"][::-1]))
    )
    assert "names other players" in str(refusal(unit, renamed))
    hearts = dataclasses.replace(result, record=json.dumps(dict(record, game="hearts")))
    assert refusal(unit, hearts) is not None
    winner = dataclasses.replace(
        result, result=dict(result.result, winner=1 - (result.result["winner"] or 0))
    )
    assert "its result says winner" in str(refusal(unit, winner))
    for junk in ("not json", "[]", json.dumps(dict(record, hands=[{"dealer": 9}]))):
        assert refusal(unit, dataclasses.replace(result, record=junk)) is not None
    assert "not a unit's result" in str(refusal(unit, "a string"))  # type: ignore[arg-type]
