"""A league night's tables where people sit: the hub's tables, made, watched and stored
for the nights' thread (:mod:`tricktable.league.service`).

Each table of a night where a person sits is a table of the server's hub
(:meth:`Hub.create_league_table <tricktable.web.hub.Hub.create_league_table>`, and
:mod:`tricktable.web.room` for what such a table does): one match a deal, dealt from that
deal's seed — every table's — the person's seat theirs alone, played by the away rule while
they are not there. The nights' thread lives off the server's loop, so everything it asks of
the hub is run in the loop (:meth:`PeopleTables.on_loop`).

Nothing of such a night is stored until all its people's tables have ended
(:meth:`PeopleTables.store_when_over`): a stored game is read from the tournaments' pages,
and a person still playing a deal must not read how another table played it. Each deal a
table played is then rebuilt from the table's journal and stored as a game of the night's
tournament, beside the bots' — one kind of game for the standings. The tables stay withheld
(no watcher, record, replay or seed) until the night is scored (:meth:`PeopleTables.release`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import select

from tricktable.db import GameRow, StoreError
from tricktable.db.league_models import LeagueFixture
from tricktable.errors import TricktableError
from tricktable.league import night as nights
from tricktable.tournament.schedule import Unit
from tricktable.web.store import WebStore

if TYPE_CHECKING:
    from tricktable.web.hub import Hub

#: how often the thread looks at a night's people's tables when no deal's end woke it
LOOK_S: Final = 1.0


class PeopleTables:
    """The hub's tables of the leagues' nights where people sit (see the module)."""

    def __init__(self, store: WebStore, hub: Hub | None) -> None:
        self.store = store
        #: the server's tables (none: a night with a person cannot be played, and says so)
        self.hub = hub
        #: set when a night's table has played a deal (the thread looks at once)
        self._dealt = threading.Event()
        if hub is not None:
            hub.league_listeners.append(lambda _room: self._dealt.set())
        #: each night's tables where people sit (``{table, url, people}``), as the thread
        #: made or found them: the page's "your table" links
        self._made: dict[int, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def rooms(self, fid: int) -> list[dict[str, Any]]:
        """Night ``fid``'s tables where people sit: ``{table, url, people, deal, over}`` each
        (``deal``: the one being played, from 1; as the thread last looked)."""
        with self._lock:
            return [dict(r) for r in self._made.get(fid, [])]

    def _progress(self, fid: int, states: dict[int, tuple[str, int, str] | None]) -> None:
        """Note how far each of night ``fid``'s people's tables is (what :meth:`rooms` says)."""
        with self._lock:
            for room in self._made.get(fid, []):
                state = states.get(room["table"])
                if state is not None:
                    room["deal"], room["over"] = state[1], state[2] == "over"

    def on_loop(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` run in the server's loop (the hub's rooms live there); its result."""
        hub = self.hub
        if hub is None:
            raise TricktableError("this server has no tables for people: a night of people waits")
        if not hub.ready.wait(60) or hub.loop is None:
            raise StoreError("the server's tables are not up: the night's people wait")

        async def call() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), hub.loop).result(timeout=60)

    def make(
        self,
        fid: int,
        league: Any,
        seed: int,
        first: Sequence[Unit],
        left: Sequence[Unit],
    ) -> None:
        """Make night ``fid``'s tables where people sit that are not made yet (a night played
        on after a restart finds them: the hub brought them back from their journals)."""
        seeds = [str(nights.deal_seed(seed, d)) for d in range(league.deals)]
        tables = sorted({u.table for u in left})
        plans = {}
        for unit in first:
            if unit.table in tables:
                plans[unit.table] = self.seats(unit.players)
        hub = self.hub

        def make() -> list[tuple[int, str, list[str]]]:
            assert hub is not None
            made = []
            for t in tables:
                room = hub.league_table(fid, t)
                if room is None:
                    about = {"league": league.id, "fixture": fid, "table": t, "seeds": seeds}
                    room = hub.create_league_table(league.owner, league.game, plans[t], about)
                made.append((t, room.id, [s["name"] for s in room.seats if s["kind"] == "person"]))
            return made

        found = self.on_loop(make)
        with self._lock:
            self._made[fid] = [
                {"table": t, "url": f"/t/{rid}", "people": names, "deal": 1, "over": False}
                for t, rid, names in found
            ]

    def seats(self, players: Sequence[str]) -> list[dict[str, Any]]:
        """A night's table's seats from its players' specs: a person's reserved for their
        account (an account gone since is played by the away rule's bot, named so)."""
        from tricktable.characters.roster import CHARACTERS

        seats: list[dict[str, Any]] = []
        names: dict[str, int] = {}
        for spec in players:
            if nights.is_person(spec):
                found = self.store.account(spec[len(nights.PERSON) :])
                if found is not None:
                    seats.append({"kind": "person", "name": found[0].name, "user": found[0].id})
                    continue
                gone = spec[len(nights.PERSON) :][:40]
                seats.append({"kind": "bot", "spec": nights.SUBSTITUTE, "name": f"{gone} (gone)"})
                continue
            character = CHARACTERS.get(spec.split("(")[0].lower())
            name = character.display if character is not None else spec
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:  # two seats of one bot, told apart (and their avatars)
                name = f"{name} {names[name]}"
            kind = "character" if character is not None else "bot"
            seats.append({"kind": kind, "spec": spec, "name": name})
        return seats

    def store_when_over(
        self, fid: int, tid: int, game: str, ids: Sequence[int], left: Sequence[Unit]
    ) -> None:
        """Wait until night ``fid``'s people's tables have all ended, then store the deals
        they played (each rebuilt from its table's journal)."""
        hub = self.hub
        tables = sorted({u.table for u in left})

        def look() -> dict[int, tuple[str, int, str] | None]:
            assert hub is not None
            out: dict[int, tuple[str, int, str] | None] = {}
            for t in tables:
                room = hub.league_table(fid, t)
                out[t] = None if room is None else (room.id, room.match_no, room.status)
            return out

        while True:
            self._dealt.clear()
            states = self.on_loop(look)
            self._progress(fid, states)
            for t, state in states.items():
                if state is None:
                    raise StoreError(f"the night's table {t + 1} is gone")
            if all(state is not None and state[2] == "over" for state in states.values()):
                break
            self._dealt.wait(LOOK_S)
        rows = []
        for unit in left:
            state = states[unit.table]
            assert state is not None
            rows.append(self.table_game(tid, unit, ids, state[0], game))
        self.store.store.add_games(rows)

    def table_game(
        self, tid: int, unit: Unit, ids: Sequence[int], room_id: str, game: str
    ) -> GameRow:
        """Deal ``unit.deal`` as a night's table played it (its match ``deal + 1``), rebuilt
        from the table's journal, as the night's tournament stores a game."""
        from tricktable.games import load_game
        from tricktable.records import to_record
        from tricktable.runner import BOT_LABEL, MatchResult
        from tricktable.steps import apply_step
        from tricktable.tournament.play import result_of

        rows = self.store.journal(room_id, unit.deal + 1)
        begun = next((st for r in rows for st in r.steps if st[0] == "begin"), None)
        if begun is None or int(begun[2]) != unit.seed:
            raise StoreError(f"table {room_id} did not deal the night's deal {unit.deal + 1}")
        state = load_game(game).new_state(unit.seed)
        faults: list[dict[str, Any]] = []
        for row in rows:
            for step in row.steps:
                apply_step(state, step, faults)
        labels = [p if nights.is_person(p) else BOT_LABEL + p for p in unit.players]
        record = to_record(state, labels, faults=faults)
        # The deal came from the seed the table committed to before it dealt (the fair
        # deal's proof holds); that seed is the night's deal, shared by every table.
        record["fair"] = {
            "commitment": begun[4],
            "nonce": begun[3],
            "seed_is": f"the league night's deal {unit.deal + 1}: every table's",
            "table": room_id,
        }
        return GameRow(
            tournament_id=tid,
            unit=unit.key,
            round_no=unit.deal,
            table_no=unit.table,
            seats=[ids[e] for e in unit.entrants],
            seed=unit.seed,
            record=record,
            result=result_of(MatchResult.of(state), unit.group),
            faults=faults,
        )

    def release(self, fids: Sequence[int]) -> None:
        """Show nights ``fids``' tables to all (records, replays, watchers): scored."""
        hub = self.hub
        wanted = set(fids)

        def release() -> None:
            assert hub is not None
            for room in list(hub.rooms.values()):
                league = room.league
                if league is not None and league.get("fixture") in wanted and room.withheld:
                    league["scored"] = True
                    hub.save(room)
                    room.changed_seats()

        self.on_loop(release)

    def release_played(self) -> None:
        """Release the tables of nights scored before a server stopped could release them."""
        hub = self.hub
        if hub is None or not hub.ready.wait(60):
            return

        def held() -> set[int]:
            assert hub is not None
            return {
                int(r.league["fixture"])
                for r in list(hub.rooms.values())
                if r.league is not None and r.withheld
            }

        fids = self.on_loop(held)
        if not fids:
            return
        with self.store._read("cannot read the nights") as c:
            playing = set(
                c.scalars(
                    select(LeagueFixture.id).where(
                        LeagueFixture.id.in_(fids), LeagueFixture.status != "played"
                    )
                )
            )
        if fids - playing:
            self.release(sorted(fids - playing))
