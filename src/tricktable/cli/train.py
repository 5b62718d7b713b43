"""``tricktable train cfr``: train Setback's CFR strategy into SQLite, on every core.

Progress goes to standard error every chunk (about 20 s); the final line, on standard
output, gives the iterations, the speed, the workers and the keys. A bad, corrupt or foreign
database is one line on standard error and exit status 2; Ctrl-C saves what was merged and
exits 130.

:data:`cfr_command` is the whole command, the training scheme's options included
(``--phase``, ``--payoff``, ``--against``: docs/cfr.md); ``python -m tricktable.cli.train``
runs it on its own.
"""

from __future__ import annotations

import sys

import click

from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.workers import default_workers


def run_train_cfr(
    iterations: int | None,
    db: str,
    workers: int | None,
    seed: int,
    seconds: float | None,
    compact_to: str | None = None,
    min_weight: float = 0.0,
    phase: str = "all",
    payoff: str = "abstract",
    against: str = "self",
    strategy: str = "average",
    max_keys: int | None = None,
    compact_phase: str = "all",
) -> int:
    """Train (see :func:`tricktable.cfr.train.train`), say how it went; the exit status."""
    from tricktable.cfr.store import Store, compact
    from tricktable.cfr.train import Progress, Scheme, train

    workers = workers or default_workers()

    def progress(p: Progress) -> None:
        print(
            f"  {p.iterations} iterations in {p.seconds:.0f} s ({p.rate:.2f}/s), {p.keys} keys",
            file=sys.stderr,
            flush=True,
        )

    try:
        scheme = Scheme(phase, payoff, against)
        done = train(db, iterations, seconds, workers, seed, progress, scheme)
        held = f"{db} holds {done.keys} keys from {done.total_iterations} iterations"
        if iterations == 0:
            print(held)  # only compacting
        else:
            print(
                f"trained {done.iterations} iterations in {done.seconds:.1f} s"
                f" ({done.rate:.2f} iterations/s, {workers} workers, {scheme.text()}); {held}"
            )
        if compact_to is not None:
            store = Store.open(db, readonly=True)
            try:
                kept = compact(store, compact_to, min_weight, strategy, max_keys, compact_phase)
            finally:
                store.close()
            print(f"wrote the {strategy} strategy of {kept} keys to {compact_to}")
    except KeyboardInterrupt:
        print("interrupted: what was merged is saved", file=sys.stderr)
        return 130
    except TricktableError as exc:
        return fail(exc)
    return 0


@click.command("cfr")
@click.option("--iterations", type=click.IntRange(min=0), default=None, help="deals to train on")
@click.option("--db", required=True, help="the strategy's SQLite file: made if new, else continued")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="worker processes (default: every core)",
)
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=1, show_default=True)
@click.option(
    "--seconds", type=click.FloatRange(min=0, min_open=True), default=None, help="time limit"
)
@click.option(
    "--phase",
    type=click.Choice(["all", "auction", "play"]),
    default="all",
    show_default=True,
    help="the keys learnt: every one, the auction's and the first lead's, or the card play's",
)
@click.option(
    "--payoff",
    type=click.Choice(["abstract", "heuristic"]),
    default="abstract",
    show_default=True,
    help="who plays the phases not learnt: the strategy itself, or the heuristic bot",
)
@click.option(
    "--against",
    type=click.Choice(["self", "heuristic"]),
    default="self",
    show_default=True,
    help="the traverser's opponents: the strategy (self-play) or the heuristic bot",
)
@click.option(
    "--compact",
    "compact_to",
    default=None,
    help="then write the average strategy alone, rounded, to this file (what a bot needs)",
)
@click.option(
    "--min-weight",
    type=click.FloatRange(min=0),
    default=0.0,
    show_default=True,
    help="with --compact: leave out keys visited fewer times (docs/cfr.md)",
)
@click.option(
    "--strategy",
    type=click.Choice(["average", "current", "best"]),
    default="average",
    show_default=True,
    help="with --compact: the strategy written: the average, the current, or the average's"
    " most probable action",
)
@click.option(
    "--max-keys",
    type=click.IntRange(min=1),
    default=None,
    help="with --compact: keep this many keys at most, the most visited",
)
@click.option(
    "--compact-phase",
    type=click.Choice(["all", "auction", "play"]),
    default="all",
    show_default=True,
    help="with --compact: keep only the keys this phase learns",
)
def cfr_command(
    iterations: int | None,
    db: str,
    workers: int | None,
    seed: int,
    seconds: float | None,
    phase: str,
    payoff: str,
    against: str,
    compact_to: str | None,
    min_weight: float,
    strategy: str,
    max_keys: int | None,
    compact_phase: str,
) -> None:
    """Train Setback's CFR strategy by Monte Carlo CFR (external sampling) on every core.

    The first scheme learns every key in self-play (--phase all --payoff abstract); issue
    21's learns the auction against the heuristic's card play (--phase auction --payoff
    heuristic), then the card play against heuristic opponents (--phase play --payoff
    heuristic --against heuristic), into the same --db (docs/cfr.md).
    """
    if iterations is None and seconds is None:
        raise click.UsageError("give --iterations N, --seconds T or both")
    sys.exit(
        run_train_cfr(
            iterations,
            db,
            workers,
            seed,
            seconds,
            compact_to,
            min_weight,
            phase,
            payoff,
            against,
            strategy,
            max_keys,
            compact_phase,
        )
    )


if __name__ == "__main__":
    cfr_command()
