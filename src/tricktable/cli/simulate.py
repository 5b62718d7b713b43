"""``tricktable simulate``: play many hands or matches between bots and report statistics.

With ``--json`` the report (see :mod:`tricktable.simulate` for its keys) is one JSON object on
standard output and nothing else; otherwise it is a set of Rich tables, after a progress bar
when standard output is a terminal. Rich and the process pool are imported only when used, so
that ``--json --workers 1`` starts as fast as the engine allows.

Exit status: 0 when no bot faulted, 1 when one did (the report lists every fault and labels
the players whose seats a substitute took), 2 for bad input, 3 when the engine failed (a bug:
the one-line error names the match's seed).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.simulate import (
    DEFAULT_LIMITS,
    Limits,
    Simulation,
    SimulationFailure,
    prepare,
    simulate,
)


def run_simulate(
    game_spec: str,
    players: str,
    hands: int | None,
    matches: int | None,
    seed: int,
    workers: int | None,
    as_json: bool,
    limits: Limits = DEFAULT_LIMITS,
) -> int:
    """Simulate and print the report; the exit status (see this module's docstring).

    Errors are one line on standard error.
    """
    try:
        sim = prepare(game_spec, players, seed, hands, matches, limits)
        if not as_json and sys.stdout.isatty():
            report = _simulate_with_progress(sim, workers)
        else:
            report = simulate(sim, workers)
    except SimulationFailure as exc:
        return fail(exc, 3)
    except TricktableError as exc:
        return fail(exc)
    if as_json:
        print(json.dumps(report))
    else:
        render_report(report)
    return 1 if report["faults"]["count"] else 0


def _simulate_with_progress(sim: Simulation, workers: int | None) -> dict[str, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    # No refresh thread (auto_refresh=False): the bar moves once per chunk anyway, and a
    # thread alive while the pool forks its workers could leave them a held lock.
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task(f"playing {sim.mode}", total=sim.total)
        bar.refresh()

        def advance(n: int) -> None:
            bar.advance(task, n)
            bar.refresh()

        return simulate(sim, workers, advance)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:+.{digits}f}"


def render_report(report: dict[str, Any]) -> None:
    """Print a simulation report as readable tables."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    timing = report["timing"]
    console.print(
        f"[bold]{escape(report['game'])}[/]  players {escape(','.join(report['players']))}  "
        f"seed {report['seed']}"
    )
    console.print(
        f"{report['hands']} hands; {report['matches']} matches completed, "
        f"{report['matches_stopped']} stopped unfinished; "
        f"{timing['hands_per_second']:,.0f} hands/s "
        f"({timing['elapsed_seconds']:.2f} s, {timing['workers']} workers)"
    )

    # A side is a partnership, or one seat in a game where each plays for itself.
    partners = any(len(team["seats"]) > 1 for team in report["teams"])
    side = "team" if partners else "seat"
    teams = Table(title="Teams" if partners else "Seats")
    for name in (side, "players", "match wins", "points taken", "per hand"):
        teams.add_column(name, justify="left" if name in (side, "players") else "right")
    teams.add_column("score change", justify="right")
    teams.add_column("per hand", justify="right")
    taken = report.get("points_taken")
    change = report["score_change"]
    for t, team in enumerate(report["teams"]):
        seats = ", ".join(f"{s} {p}" for s, p in zip(team["seats"], team["players"], strict=True))
        teams.add_row(
            str(t),
            escape(seats),
            str(report["match_wins"][t]),
            str(taken["total"][t]) if taken else "—",
            _num(taken["per_hand"][t]) if taken else "—",
            str(change["total"][t]),
            _num(change["per_hand"][t]),
        )
    console.print(teams)

    if "bids" in report:
        bids = Table(title="Winning bids")
        for name in ("bid", "hands", "share", "made", "make rate"):
            bids.add_column(name, justify="left" if name == "bid" else "right")
        for bid, row in report["bids"].items():
            bids.add_row(
                bid,
                str(row["count"]),
                _pct(row["share"]),
                str(row["made"]),
                _pct(row["make_rate"]),
            )
        console.print(bids)

    if "points" in report:
        points = Table(title="Points (shares of the hands where the point was in play)")
        points.add_column("point")
        points.add_column("in play", justify="right")
        for t in range(len(report["teams"])):
            points.add_column(f"team {t}", justify="right")
        points.add_column("declarers", justify="right")
        points.add_column("tied", justify="right")
        for name, row in report["points"].items():
            available = row["available"]
            points.add_row(
                name,
                _pct(row["available_rate"]),
                *(_pct(share) for share in row["won_share"]),
                _pct(row["declarers_share"]),
                _pct(row["tied"] / available) if available else "—",
            )
        console.print(points)

    if "game_stats" in report:
        console.print(game_stats_table(report["game_stats"]))
    if report.get("matches_shared"):
        console.print(f"{report['matches_shared']} matches ended in a shared win.")
    render_faults(report["faults"], console)


def render_faults(faults: dict[str, Any], console: Any) -> None:
    """The faults of a report: a line a faulting seat, then the first faults in full."""
    if not faults["count"]:
        console.print("faults: none")
        return
    console.print(f"[bold yellow]faults: {faults['count']}[/]")
    for seat in faults["by_seat"]:
        if not (seat["count"] or seat["matches_substituted"] or seat["matches_forfeited"]):
            continue
        kinds = ", ".join(f"{kind} {n}" for kind, n in seat["kinds"].items())
        line = f"  seat {seat['seat']} {seat['player']}: {seat['count']} faults ({kinds})"
        if seat["matches_substituted"]:
            line += (
                f"; substituted in {seat['matches_substituted']} matches, "
                f"{seat['hands_by_substitute']} hands played by the substitute"
            )
        if seat["matches_forfeited"]:
            line += f"; forfeited {seat['matches_forfeited']} matches"
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    for fault in faults["listed"]:
        match = f"match {fault['match']}, " if "match" in fault else ""
        console.print(
            f"  {match}seed {fault['seed']}, seat {fault['seat']}, hand {fault['hand'] + 1}: "
            f"{fault['kind']}: {fault['detail']} -> {fault['penalty']}",
            markup=False,
            highlight=False,
            soft_wrap=True,  # one fault a line, whole, for grep and copy; never wrapped
        )
    shown = len(faults["listed"])
    if shown < faults["count"]:
        console.print(f"  ... and {faults['count'] - shown} more (--json lists the first {shown})")


def _cell(key: str, value: Any) -> str:
    """A statistic for people: rates and shares as percentages, lists space-separated."""
    if isinstance(value, list):
        return "  ".join(_cell(key, v) for v in value)
    if value is None:
        return "—"
    if isinstance(value, float):
        if key.endswith(("rate", "share")):
            return f"{100 * value:.1f}%"
        return f"{value:.3f}"
    return str(value)


def _rows(prefix: str, value: Any) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        rows: list[tuple[str, str]] = []
        for key, inner in value.items():
            rows.extend(_rows(f"{prefix} {key}".strip(), inner))
        return rows
    last = prefix.rsplit(" ", 1)[-1]
    return [(prefix.replace("_", " "), _cell(last, value))]


def game_stats_table(stats: dict[str, Any]) -> Any:
    """The report's ``game_stats`` as a two-column table (lists: one value per side or seat)."""
    from rich.table import Table

    table = Table(
        title=f"Game statistics ({stats.get('family', 'generic')}; lists by side or seat)"
    )
    table.add_column("statistic")
    table.add_column("value", justify="right")
    for key, value in stats.items():
        if key == "family":
            continue
        for name, cell in _rows(key, value):
            table.add_row(name, cell)
    return table
