"""``tricktable standings``: the standings, ratings and head-to-head results of a tournament.

Reads a tournament from the database (``tricktable.db`` in the current folder by default; the
newest tournament unless ``--name`` is given) and prints Rich tables: the standings, the
ratings, the head-to-head matrix and the faults, with how faults counted stated above them.
With ``--json`` it prints :meth:`tricktable.analysis.standings.Standings.to_dict` as one JSON
object and nothing else. docs/standings.md explains every figure.

The database is opened read-only: nothing is ever written to it, and a file that is empty or
not a tricktable database is refused, not given a schema. Exit status: 0, or 2 with one line on
standard error for a database that is missing, damaged or cannot be read, a tournament that is
not there, or one whose games cannot be read.
"""

from __future__ import annotations

import json

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tricktable.analysis.intervals import Proportion, Summary
from tricktable.analysis.standings import Standings, plural, read_standings
from tricktable.cli import fail
from tricktable.db.store import Store
from tricktable.errors import TricktableError

#: shown where a figure has no data
NONE = "—"


def run_standings(db: str, name: str | None, as_json: bool) -> int:
    """Print the standings of tournament ``name`` (None: the newest) in database ``db``; the
    exit status."""
    try:
        with Store.open(db, readonly=True) as store:
            standings = read_standings(store, name)
    except TricktableError as exc:
        return fail(exc)
    if as_json:
        print(json.dumps(standings.to_dict()))
    else:
        render(standings)
    return 0


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def _summary(summary: Summary | None) -> str:
    if summary is None:
        return NONE
    if summary.n < 2:
        return f"{_signed(summary.mean)} (n=1)"
    return f"{_signed(summary.mean)} ± {summary.half_width:.2f}"


def _rate(rate: Proportion | None) -> str:
    if rate is None:
        return NONE
    return f"{100 * rate.rate:.0f}% ({100 * rate.low:.0f}–{100 * rate.high:.0f})"


def render(standings: Standings) -> None:
    """Print the standings as Rich tables, each with a line saying what its figures are."""
    console = Console(highlight=False)
    _render_header(standings, console)
    _render_standings(standings, console)
    _render_ratings(standings, console)
    _render_head_to_head(standings, console)
    _render_faults(standings, console)


def _table(*headers: str | Text, left: int = 1) -> Table:
    """A table of this command: a rule under the headers, the first ``left`` columns (names)
    to the left, numbers to the right."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for i, header in enumerate(headers):
        table.add_column(header, justify="left" if i < left else "right")
    return table


def _render_header(standings: Standings, console: Console) -> None:
    info, rules = standings.tournament, standings.rules
    console.print(
        f"[bold]{escape(info.name)}[/] ({escape(info.status)}): {escape(rules.game)}, "
        f"{escape(rules.format)}, partnerships {escape(rules.partnerships)}"
        + (", the lower score wins" if rules.lower_wins else "")
    )
    deals = f"{standings.deals} {plural(rules.unit)}"
    if rules.duplicate:
        deals += f" ({standings.complete_deals} with every table played)"
    seed = "" if standings.seed is None else f"; seed {standings.seed}"
    console.print(f"{standings.games} games (tables) played; {deals}{seed}")
    console.print(f"faults count by {escape(rules.fault_rule)}: {escape(rules.fault_policy())}")


def _render_standings(standings: Standings, console: Console) -> None:
    unit, duplicate = standings.rules.unit, standings.rules.duplicate
    headers = ["#", "entrant", "games", "W-L-S", "win rate", f"margin/{unit}"]
    table = _table(*headers, *[f"duplicate/{unit}"] * duplicate, left=2)
    for rank, row in enumerate(standings.rows, 1):
        cells: list[str | Text] = [
            str(rank),
            Text(row.name),
            str(row.games),
            f"{row.won}-{row.lost}-{row.shared}",
            _rate(row.win_rate),
            _summary(row.margin),
        ]
        if duplicate:
            cells.append(_summary(row.duplicate))
        table.add_row(*cells)
    console.print()
    console.print(f"[bold]Standings[/], ranked by {standings.ranked_by}")
    console.print(table)
    console.print(
        f"win rate: a shared {unit} a half, 95% Wilson interval in brackets; "
        "±: half the 95% interval of the mean"
    )


def _render_ratings(standings: Standings, console: Console) -> None:
    ratings = standings.ratings
    table = _table("entrant", "mu", "sigma", "ordinal")
    for name in ratings.order():
        rating = ratings.ratings[name]
        table.add_row(
            Text(name), f"{rating.mu:.2f}", f"{rating.sigma:.2f}", f"{rating.ordinal:.2f}"
        )
    console.print()
    console.print(f"[bold]Ratings[/]: {ratings.model}, {ratings.games} games")
    console.print(table)
    console.print("ordinal = mu - 3 sigma; every entrant started at mu 25, sigma 8.33")


def _render_head_to_head(standings: Standings, console: Console) -> None:
    h2h = standings.head_to_head
    unit = standings.rules.unit
    paired = "paired over its tables" if standings.rules.duplicate else "one table each"
    table = _table("", *(Text(name) for name in h2h.names))
    for a in h2h.names:
        cells: list[str | Text] = [Text(a)]
        for b in h2h.names:
            cell = h2h.get(a, b)
            cells.append(
                "·" if a == b else NONE if cell is None else f"{_signed(cell.mean)} ({cell.n})"
            )
        table.add_row(*cells)
    console.print()
    console.print("[bold]Head to head[/]")
    console.print(table)
    console.print(
        f"the row's margin over the column per {unit} ({paired}); "
        f"(n): the {plural(unit)} where they met as opponents"
    )


def _render_faults(standings: Standings, console: Console) -> None:
    faulty = [row for row in standings.rows if row.faults.total or row.faults.forfeited]
    console.print()
    if not faulty:
        console.print("[bold]Faults[/]: none")
        return
    table = _table("entrant", "by kind", "faults", "games", "substituted", "forfeited")
    for row in faulty:
        kinds = ", ".join(f"{kind} {n}" for kind, n in row.faults.kinds.items())
        table.add_row(
            Text(row.name),
            Text(kinds or NONE),
            str(row.faults.total),
            str(row.faults.games),
            str(row.faults.substituted),
            str(row.faults.forfeited),
        )
    console.print(f"[bold]Faults[/] ({escape(standings.rules.fault_rule)})")
    console.print(table)
    console.print("games: the games it faulted in; forfeited: the games it forfeited for its side")
