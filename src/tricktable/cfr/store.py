"""A CFR strategy in SQLite: the trainer's sums, or the average strategy alone, by key.

Two kinds of database, told apart by ``meta.kind``:

- ``sums`` (what ``tricktable train cfr`` writes and continues): table ``nodes``, one row a key,
  its cumulative regrets and strategy sums as float64 arrays (``regret``, ``total``);
- ``average`` (what ships with the package, :func:`compact`): table ``strategy``, one row a key,
  its average strategy as one byte a probability (``probs``, in 255ths, rounded), no regrets —
  a quarter of the size and all a bot needs; it cannot be trained further.

``meta`` also holds the format, the game trained, the keys' version and the iterations and
seconds of training so far. Anything else — a folder, a file that is not SQLite, a SQLite file
of other tables — is a one-line :class:`StrategyError`.
"""

from __future__ import annotations

import os
import random
import sqlite3
from array import array
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Final

from tricktable.errors import TricktableError

#: the format name written in meta, checked on open
FORMAT: Final = "tricktable-cfr/1"
#: the version of the abstraction (keys.py): strategies of another version do not apply
KEYS_VERSION: Final = "keys/1"

#: a node of the trainer's table: [cumulative regrets, cumulative strategy], one entry an action
Node = list[list[float]]


class StrategyError(TricktableError):
    """A strategy database that cannot be used: missing, not SQLite, or of another schema."""


def _schema(kind: str) -> str:
    body = (
        "CREATE TABLE nodes (key TEXT PRIMARY KEY, regret BLOB NOT NULL, total BLOB NOT NULL)"
        if kind == "sums"
        else "CREATE TABLE strategy (key TEXT PRIMARY KEY, probs BLOB NOT NULL)"
    )
    return (
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
        + body
        + " WITHOUT ROWID;\n"
    )


class Store:
    """An open strategy database (see the module). ``kind`` is ``sums`` or ``average``."""

    def __init__(self, path: str, conn: sqlite3.Connection, meta: dict[str, str]) -> None:
        self.path = path
        self.conn = conn
        self.meta = meta
        self.kind = meta["kind"]

    # ------------------------------------------------------------------------- opening

    @classmethod
    def open(cls, path: str, create: bool = False, readonly: bool = False) -> Store:
        """Open ``path`` (creating a ``sums`` database there if ``create`` and it is new)."""
        p = Path(path)
        if p.is_dir():
            raise StrategyError(f"strategy db {path!r} is a folder")
        exists = p.is_file() and p.stat().st_size > 0
        if not exists and not create:
            raise StrategyError(f"strategy db {path!r}: no such file")
        if not exists and not p.parent.is_dir():
            raise StrategyError(f"cannot create strategy db {path!r}: no folder {str(p.parent)!r}")
        try:
            if readonly:
                conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)
            else:
                conn = sqlite3.connect(path)
            tables = {
                row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if not tables:
                if not create:
                    raise StrategyError(f"strategy db {path!r} is empty")
                conn.executescript(_schema("sums"))
                _write_meta(
                    conn,
                    {"format": FORMAT, "kind": "sums", "keys": KEYS_VERSION, "iterations": "0"},
                )
                conn.commit()
                tables = {"meta", "nodes"}
            meta = _read_meta(conn, path, tables)
        except sqlite3.Error as exc:
            raise StrategyError(f"cannot use strategy db {path!r}: {exc}") from None
        return cls(path, conn, meta)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    # ---------------------------------------------------------------------------- meta

    @property
    def iterations(self) -> int:
        """The training iterations the strategy holds."""
        return int(self.meta.get("iterations", "0"))

    @property
    def seconds(self) -> float:
        """The seconds of training (wall clock) the strategy holds."""
        return float(self.meta.get("seconds", "0"))

    def set_meta(self, values: Mapping[str, str]) -> None:
        """Record ``values`` in meta (committed)."""
        try:
            _write_meta(self.conn, values)
            self.conn.commit()
        except sqlite3.Error as exc:
            raise StrategyError(f"cannot write strategy db {self.path!r}: {exc}") from None
        self.meta.update(values)

    # ---------------------------------------------------------------------- the sums

    def _need_sums(self) -> None:
        if self.kind != "sums":
            raise StrategyError(
                f"strategy db {self.path!r} holds only an average strategy (compacted):"
                " it cannot be trained further; train into a new db"
            )

    def load_sums(self) -> dict[str, Node]:
        """Every node's regrets and strategy sums (a ``sums`` database)."""
        self._need_sums()
        table: dict[str, Node] = {}
        try:
            for key, regret, total in self.conn.execute("SELECT key, regret, total FROM nodes"):
                table[key] = [_floats(regret), _floats(total)]
        except sqlite3.Error as exc:
            raise StrategyError(f"cannot read strategy db {self.path!r}: {exc}") from None
        return table

    def write_sums(self, nodes: Iterable[tuple[str, Node]], meta: Mapping[str, str]) -> None:
        """Write these nodes (replacing their rows) and ``meta``, in one transaction."""
        self._need_sums()
        rows = (
            (key, array("d", node[0]).tobytes(), array("d", node[1]).tobytes())
            for key, node in nodes
        )
        try:
            with self.conn:
                self.conn.executemany("INSERT OR REPLACE INTO nodes VALUES (?, ?, ?)", rows)
                _write_meta(self.conn, meta)
        except sqlite3.Error as exc:
            raise StrategyError(f"cannot write strategy db {self.path!r}: {exc}") from None
        self.meta.update(meta)

    def count(self) -> int:
        """How many keys the database holds."""
        table = "nodes" if self.kind == "sums" else "strategy"
        return int(self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    # ----------------------------------------------------------------- the average

    def average(self, key: str) -> list[float] | None:
        """The average strategy of ``key`` (probabilities summing to 1), None if unseen."""
        try:
            if self.kind == "sums":
                row = self.conn.execute("SELECT total FROM nodes WHERE key = ?", (key,)).fetchone()
                return None if row is None else normalise(_floats(row[0]))
            row = self.conn.execute("SELECT probs FROM strategy WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            raise StrategyError(f"cannot read strategy db {self.path!r}: {exc}") from None
        return None if row is None else normalise([float(b) for b in row[0]])

    def averages(self) -> Iterator[tuple[str, list[float]]]:
        """Every key with its average strategy."""
        if self.kind == "sums":
            for key, total in self.conn.execute("SELECT key, total FROM nodes"):
                yield key, normalise(_floats(total))
        else:
            for key, probs in self.conn.execute("SELECT key, probs FROM strategy"):
                yield key, normalise([float(b) for b in probs])


#: what :func:`compact` may keep of a key: the average strategy, the current one (regret
#: matching of the cumulative regrets), or the average's most probable action alone
STRATEGIES: Final = ("average", "current", "best")


def compact(
    source: Store,
    dest: str,
    min_weight: float = 0.0,
    strategy: str = "average",
    max_keys: int | None = None,
    phase: str = "all",
) -> int:
    """Write ``source``'s strategy (the average by default), rounded to 255ths, as a new
    ``average`` database at ``dest`` (replaced if it exists), then VACUUM it; the number of
    keys written.

    Keys whose strategy sum is below ``min_weight`` (visited too seldom to have learnt
    anything) are left out: the bot plays the heuristic there, as for any unseen key. In a
    database trained by Linear CFR (``meta.weighting = linear``: a phase's iteration t weighs
    t) the sum is first divided by the iterations of the phases that learn the key: a visit at
    the last iteration counts 1, one halfway through a half (:func:`visits_scale`).
    ``max_keys`` then keeps that many keys at most, the most visited: the shipped file's
    budget. ``phase`` ``auction`` or ``play`` keeps only the keys that phase learns (the bot
    plays the heuristic at the others).

    ``strategy`` (:data:`STRATEGIES`) chooses what is kept of each key. CFR's guarantees are
    about the average; Pluribus (Brown and Sandholm 2019) played the *current* strategy of its
    blueprint after the first betting round; ``best`` plays the average's most probable action
    always, a "purified" strategy (Ganzfried, Sandholm and Waugh, *Strategy Purification and
    Thresholding*, 2012, found purification often stronger in abstracted poker). Keys learnt
    against fixed opponents (``--against heuristic``) learn a best response, for which a pure
    strategy loses nothing, and purification drops the mistakes that sampling noise leaves in
    a short run's average.
    """
    if strategy not in STRATEGIES:
        raise StrategyError(f"unknown strategy {strategy!r}: one of {', '.join(STRATEGIES)}")
    if source.kind != "sums":
        raise StrategyError(f"strategy db {source.path!r} is already compacted")
    p = Path(dest)
    if p.resolve() == Path(source.path).resolve():
        raise StrategyError(f"will not compact strategy db {dest!r} onto itself")
    if p.is_dir():
        raise StrategyError(f"strategy db {dest!r} is a folder")
    if not p.parent.is_dir():
        raise StrategyError(f"cannot create strategy db {dest!r}: no folder {str(p.parent)!r}")
    tmp = dest + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    written = 0
    scales = [visits_scale(source, kind) for kind in range(3)]
    kinds = {kind for kind in range(3) if phase in _PHASES_OF[kind]}
    if not kinds:
        raise StrategyError(f"unknown phase {phase!r}: one of all, auction, play")
    try:
        conn = sqlite3.connect(tmp)
        conn.executescript(_schema("average"))
        rows = []
        visits: dict[str, float] = {}
        for key, regret, total in source.conn.execute("SELECT key, regret, total FROM nodes"):
            kind = key_kind(key)
            if kind not in kinds:
                continue
            sums = _floats(total)
            seen = visits[key] = sum(sums) / scales[kind]
            if seen < min_weight:
                continue
            if strategy == "current":
                probs = normalise(_floats(regret))
            else:
                probs = normalise(sums)
                if strategy == "best":
                    top = max(range(len(probs)), key=probs.__getitem__)
                    probs = [float(i == top) for i in range(len(probs))]
            rows.append((key, bytes(quantise(probs))))
        if max_keys is not None and len(rows) > max_keys:
            rows.sort(key=lambda row: -visits[row[0]])
            del rows[max_keys:]
        rows.sort()  # in key order: a WITHOUT ROWID table packs tightest that way
        conn.executemany("INSERT INTO strategy VALUES (?, ?)", rows)
        written = len(rows)
        meta = dict(source.meta)
        meta.update({"kind": "average", "keys_written": str(written), "strategy": strategy})
        _write_meta(conn, meta)
        conn.commit()
        conn.execute("VACUUM")
        conn.close()
    except sqlite3.Error as exc:
        raise StrategyError(f"cannot write strategy db {dest!r}: {exc}") from None
    os.replace(tmp, dest)
    return written


# ----------------------------------------------------------------------------- helpers


def key_kind(key: str) -> int:
    """0 for an auction key, 1 for an establish-trump key, 2 for a playout key (keys.py)."""
    first = key[0]
    if first == "E":
        return 1
    return 0 if first in "0S2345" else 2


#: the training phases that learn each kind of key (auction, establish trump, playout)
_PHASES_OF: Final = (("all", "auction"), ("all", "auction"), ("all", "play"))


def phase_iterations(store: Store, phase: str) -> int:
    """The iterations of training phase ``phase`` the database holds (``meta``'s
    ``iterations_<phase>``; 0 in one trained before phases were counted)."""
    return int(store.meta.get(f"iterations_{phase}", "0"))


def visits_scale(store: Store, kind: int) -> float:
    """What the strategy sum of a key of ``kind`` (:func:`key_kind`) is divided by to count
    its visits (see :func:`compact`): where Linear CFR weighed a phase's iteration t by t, the
    iterations of the phases that learn that kind; else 1."""
    if store.meta.get("weighting") != "linear":
        return 1.0
    return float(max(1, sum(phase_iterations(store, p) for p in _PHASES_OF[kind])))


def normalise(values: list[float]) -> list[float]:
    """``values``' positive parts scaled to sum to 1 (uniform when none is positive).

    Of a node's cumulative regrets this is regret matching, the trainer's current strategy; of
    its strategy sums, the average strategy.
    """
    positive = [v if v > 0 else 0.0 for v in values]
    total = sum(positive)
    if total <= 0:
        return [1.0 / len(values)] * len(values)
    return [v / total for v in positive]


def draw(probs: list[float], rng: random.Random) -> int:
    """An index drawn with probabilities ``probs``, from one ``rng.random()`` (the last index
    when rounding leaves the draw past the end)."""
    x = rng.random()
    for i, p in enumerate(probs):
        x -= p
        if x < 0:
            return i
    return len(probs) - 1


def quantise(probs: list[float]) -> list[int]:
    """Probabilities as bytes of 255ths, rounded (one below 1/510 becomes 0: never played)."""
    return [min(255, round(p * 255)) for p in probs]


def _floats(blob: bytes) -> list[float]:
    values = array("d")
    values.frombytes(blob)
    return values.tolist()


def _write_meta(conn: sqlite3.Connection, values: Mapping[str, str]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
    )


def _read_meta(conn: sqlite3.Connection, path: str, tables: set[str]) -> dict[str, str]:
    if "meta" not in tables:
        raise StrategyError(
            f"strategy db {path!r} is not a tricktable CFR strategy (no meta table;"
            f" it has {', '.join(sorted(tables))})"
        )
    meta = {str(k): str(v) for k, v in conn.execute("SELECT name, value FROM meta")}
    if meta.get("format") != FORMAT:
        raise StrategyError(
            f"strategy db {path!r} has format {meta.get('format')!r}, not {FORMAT!r}"
        )
    kind = meta.get("kind")
    wanted = {"sums": "nodes", "average": "strategy"}.get(kind or "")
    if wanted is None or wanted not in tables:
        raise StrategyError(f"strategy db {path!r} is of an unknown kind {kind!r}")
    if meta.get("keys") != KEYS_VERSION:
        raise StrategyError(
            f"strategy db {path!r} was trained on keys {meta.get('keys')!r}, these are"
            f" {KEYS_VERSION!r}"
        )
    return meta


__all__ = [
    "FORMAT",
    "KEYS_VERSION",
    "STRATEGIES",
    "Node",
    "Store",
    "StrategyError",
    "compact",
    "draw",
    "key_kind",
    "normalise",
    "phase_iterations",
    "visits_scale",
]
