"""``tricktable duel A B``: two bots on paired deals, stopped by an SPRT or a count of deals.

Prints a progress bar while it plays (when standard output is a terminal), then the score
difference per deal (A minus B; positive favours A) with its 95% interval, the share of deals
A won, the SPRT's ratio and bounds, the verdict, and each bot's faults. With ``--json`` the
result (:meth:`tricktable.analysis.duel.DuelResult.to_dict`) is one JSON object on standard
output and nothing else. The model and the numbers are explained in docs/duel.md.

Exit status: 0 done, 1 done but a bot faulted, 2 bad input (one line on standard error),
3 the engine failed (a bug: the line names the deal's seed).
"""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

from tricktable.analysis.duel import (
    DEFAULT_DEALS,
    Duel,
    DuelFailure,
    DuelResult,
    prepare,
    run_duel,
)
from tricktable.analysis.duel import Progress as DuelProgress
from tricktable.analysis.sprt import SprtParams, SprtStatus
from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.limits import RunnerOptions

#: seconds between redraws of the progress bar: a deal takes a few milliseconds, a redraw more
REFRESH = 0.1


def run_duel_command(
    game_spec: str,
    a: str,
    b: str,
    *,
    deals: int | None = None,
    sprt: dict[str, float] | None = None,
    seed: int = 1,
    workers: int | None = None,
    as_json: bool = False,
    limits: RunnerOptions | None = None,
) -> int:
    """Run a duel and print its result; the exit status (see this module's docstring).

    ``sprt`` holds the test's parameters given (``d0``, ``d1``, ``alpha``, ``beta``; the rest
    keep :class:`SprtParams`'s defaults), or is None for no test: every deal is played.
    """
    try:
        params = _sprt_params(sprt) if sprt is not None else None
        duel = prepare(
            game_spec,
            a,
            b,
            deals=deals if deals is not None else DEFAULT_DEALS,
            seed=seed,
            sprt=params,
            limits=limits,
        )
        if not as_json and sys.stdout.isatty():
            result = _duel_with_progress(duel, workers)
        else:
            result = run_duel(duel, workers)
    except DuelFailure as exc:
        return fail(exc, 3)
    except TricktableError as exc:
        return fail(exc)
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        render(result)
    return 1 if any(f.count for f in result.faults.values()) else 0


def _sprt_params(given: dict[str, float]) -> SprtParams:
    """The test's parameters: those given, the defaults for the rest."""
    unknown = set(given) - {"d0", "d1", "alpha", "beta"}
    if unknown:
        raise TricktableError(f"unknown SPRT parameters: {', '.join(sorted(unknown))}")
    default = SprtParams()
    return SprtParams(
        d0=given.get("d0", default.d0),
        d1=given.get("d1", default.d1),
        alpha=given.get("alpha", default.alpha),
        beta=given.get("beta", default.beta),
    )


def _duel_with_progress(duel: Duel, workers: int | None) -> DuelResult:
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    # No refresh thread (auto_refresh=False), as simulate: a thread alive while the pool forks
    # its workers could leave them a held lock. The bar is redrawn from the deal loop instead.
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[state]}"),
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task(escape(f"{duel.a} v {duel.b}"), total=duel.deals, state="")
        bar.refresh()
        drawn = 0.0

        def advance(n: int, mean: float, status: SprtStatus | None) -> None:
            nonlocal drawn
            now = time.monotonic()
            if now - drawn < REFRESH:
                return
            drawn = now
            state = f"A-B {mean:+.3f}"
            if status is not None:
                state += f"  LLR {_llr(status.llr)} ({status.lower:+.2f} .. {status.upper:+.2f})"
            bar.update(task, completed=n, state=state)
            bar.refresh()

        progress: DuelProgress = advance
        return run_duel(duel, workers, progress)


def _llr(value: float) -> str:
    return f"{value:+.3f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def render(result: DuelResult) -> None:
    """Print a duel's result: a line a figure, never wrapped (for grep and copy)."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)
    duel = result.duel
    report = result.to_dict()
    timing = report["timing"]
    console.print(
        f"[bold]{escape(duel.a)}[/] (A) v [bold]{escape(duel.b)}[/] (B)  "
        f"{escape(duel.game)}  seed {duel.seed}"
    )
    tables = result.tables
    how = (
        "two tables with the seats swapped" if tables == 2 else f"{tables} tables, A a side at each"
    )
    console.print(
        f"{result.n} deals, each at {how} ({tables * result.n} hands): "
        f"{timing['elapsed_seconds']:.2f} s, {timing['hands_per_second']:,.0f} hands/s, "
        f"{timing['workers']} worker{'' if timing['workers'] == 1 else 's'}"
    )
    d = result.difference
    if d.n > 1:
        method = "Student t" if d.method == "t" else "normal"
        console.print(
            f"A - B per deal: [bold]{d.mean:+.3f} ± {d.half_width:.3f}[/] "
            f"(95% interval {d.low:+.3f} .. {d.high:+.3f}, {method}; sd {d.sd:.3f})"
        )
    else:
        console.print(f"A - B per deal: {d.mean:+.3f} (one deal: no interval)")
    if report["lower_wins"]:
        console.print("  (the lower score wins this game: the sign is turned, + favours A)")
    won = result.won
    console.print(
        f"deals won: A {result.wins}, B {result.losses}, tied {result.ties}; "
        f"A {_pct(won.rate)} (95% interval {_pct(won.low)} .. {_pct(won.high)}, a tie a half)"
    )
    status, params = result.sprt, duel.sprt
    if status is not None and params is not None:
        console.print(
            f"SPRT: H0 {params.d0:+g} v H1 {params.d1:+g} points a deal, alpha {params.alpha:g}, "
            f"beta {params.beta:g}; LLR {_llr(status.llr)}, bounds "
            f"{status.lower:+.3f} .. {status.upper:+.3f}"
        )
    console.print(f"verdict: [bold]{escape(result.sentence())}[/]")
    warning = result.warning()
    if warning is not None:
        console.print(f"[bold yellow]warning:[/] {escape(warning)}")
    _render_faults(report["faults"], duel, console)


def _render_faults(faults: dict[str, Any], duel: Duel, console: Any) -> None:
    if not faults["count"]:
        console.print("faults: none")
        return
    console.print(f"[bold yellow]faults: {faults['count']}[/]")
    for who, spec in (("a", duel.a), ("b", duel.b)):
        mine = faults[who]
        if not (mine["count"] or mine["substituted"] or mine["forfeits"]):
            continue
        kinds = ", ".join(f"{kind} {n}" for kind, n in mine["kinds"].items())
        line = f"  {who.upper()} {spec}: {mine['count']} faults ({kinds})"
        if mine["substituted"]:
            line += f"; a substitute took its seat {mine['substituted']} times"
        if mine["forfeits"]:
            line += f"; forfeited {mine['forfeits']} tables"
        console.print(line, markup=False)
        for fault in mine["listed"]:
            console.print(
                f"    deal {fault['deal']} (seed {fault['seed']}), table {fault['table']}, "
                f"seat {fault['seat']}: {fault['kind']}: {fault['detail']}",
                markup=False,
            )
