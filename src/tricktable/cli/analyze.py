"""``tricktable analyze RECORD``: a finished match, decision by decision (docs/analyze.md).

The analysis is :func:`tricktable.analysis.analyze.analyze`; this module reads the options,
shows progress on standard error and prints the report with Rich: per hand, the decisions where
points were lost and by whom, then one summary row per seat. ``--json`` prints the analysis
as one JSON object and nothing else.

Exit status: 0, or 2 with one line on standard error for a record that is missing, is not a
record, does not replay, is unfinished, or is of a game no analyser handles.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tricktable.analysis.analyze import Analysis, AnalysisError, Decision, analyze
from tricktable.cli import fail
from tricktable.errors import TricktableError
from tricktable.records import load_record
from tricktable.search.explain import value_text
from tricktable.seat.games import Presenter, Seating, presenter_for, safely
from tricktable.seat.games.base import HandSeen
from tricktable.ui.render import join, rich_text
from tricktable.ui.terminal import seat_names

#: shown where a figure has no data
NONE = "—"
#: the report's width where standard output is not a terminal (a file, a pipe): wide enough
#: that no name or cell is cut, since a saved report is read whole, not at a terminal's 80
PIPE_WIDTH = 1000


def run_analyze(
    path: str,
    seats: tuple[int, ...],
    hands: str | None,
    sampling: bool,
    as_json: bool,
    seed: int,
    budget: float,
    threshold: float,
    solve_time: float | None = None,
) -> int:
    """Analyse the record at ``path`` and print the report; the exit status."""
    try:
        record = load_record(path)
        chosen = parse_hands(hands) if hands else None
        with _progress(as_json) as told:
            analysis = analyze(
                record,
                seats=seats or None,
                hands=chosen,
                sampling=sampling,
                budget=budget,
                seed=seed,
                threshold=threshold,
                solve_time=solve_time,
                progress=told.decision,
                on_hand=told.hand,
            )
    except TricktableError as exc:
        return fail(exc)
    if as_json:
        print(json.dumps(analysis.to_dict()))
    else:
        render(analysis, report_console())
    return 0


def report_console() -> Console:
    """Standard output's console: a terminal's own width, or :data:`PIPE_WIDTH` elsewhere
    (Rich would otherwise take 80 columns, or ``COLUMNS``, and cut names short)."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=PIPE_WIDTH)


def parse_hands(text: str) -> list[int]:
    """``--hands``: hand numbers from 1, as ``3``, ``1,4`` or ``2-5``; 0-based indices."""
    out: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise AnalysisError(
                f"bad --hands {text!r}: hand numbers from 1, like 3, 1,4 or 2-5"
            ) from None
        if low < 1 or high < low:
            raise AnalysisError(f"bad --hands {text!r}: hands count from 1, ranges go upward")
        out.extend(range(low - 1, high))
    return out


@dataclass
class _Told:
    """What the analysis tells as it goes (None: nothing is shown)."""

    decision: Callable[[int, int], None] | None = None
    hand: Callable[[int, int, int], None] | None = None


@contextlib.contextmanager
def _progress(quiet: bool) -> Iterator[_Told]:
    """Progress on standard error while the analysis runs (a Hearts hand may take a minute):
    a bar on a terminal (gone when the report prints); elsewhere, a log or a pipe, one line as
    each hand begins and one at the end, so a long analysis is never silent. ``quiet``
    (``--json``) off a terminal prints nothing: a program reading the JSON may read standard
    error too. Standard output, the report, is the same either way."""
    began = time.perf_counter()
    if sys.stderr.isatty():
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("analysing", total=None)

            def decision(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            def hand(h: int, done: int, total: int) -> None:
                bar.update(task, description=f"analysing hand {h + 1} ({done + 1} of {total})")

            yield _Told(decision, hand)
        return
    if quiet:
        yield _Told()
        return
    hands = 0

    def line(h: int, done: int, total: int) -> None:
        nonlocal hands
        hands = total
        so_far = f", {time.perf_counter() - began:.0f} s so far" if done else ""
        print(
            f"analysing hand {h + 1} ({done + 1} of {total}){so_far}", file=sys.stderr, flush=True
        )

    yield _Told(hand=line)
    if hands:
        took = time.perf_counter() - began
        said = f"{hands} hand" + ("s" if hands != 1 else "")
        print(f"analysed {said} in {took:.1f} s", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------ the report


def render(analysis: Analysis, console: Console) -> None:
    """Print the analysis: a header, the hands where points were lost, the summary."""
    game = analysis.game
    names = seat_names([], game.num_players)
    seating = Seating(game, names)
    presenter = presenter_for(game)
    spec = game.spec()
    title = game.title or game.name
    console.print(
        Text(f"Analysis of {title}" + ("" if spec == game.name else f" ({spec})"), style="bold")
        + Text(f" · seed {analysis.seed} · {len(analysis.state.history)} hands")
    )
    console.print(
        "Seats: " + " · ".join(f"{names[s]}: {p}" for s, p in enumerate(analysis.players))
    )
    _methods(analysis, console)
    for h in analysis.hands:
        _hand(analysis, h, seating, presenter, console)
    _summary(analysis, names, console)


def _methods(analysis: Analysis, console: Console) -> None:
    how = []
    if analysis.double_dummy:
        how.append("double-dummy (dd): the solver's exact value of each card with every hand known")
    else:
        game = analysis.game
        named = game.name if game.num_players == 4 else game.spec()  # a size it does not solve
        how.append(f"no double-dummy solver for {named}")
    if analysis.sampling:
        bots = sorted({d.sampled.hint.bot for d in analysis.decisions if d.sampled is not None})
        who = " or ".join(bots) or "the search bot"
        how.append(f"sampled: {who} from the seat's own view, by its own estimate")
    else:
        how.append("no sampling (--no-sampling)")
    values = value_text(analysis.game, "pimc" if analysis.double_dummy else "ismcts", you=False)
    console.print(
        Text("; ".join(how) + ".", style="dim"),
        Text(
            f"Values: {values}. Shown: decisions that lost {analysis.threshold:g} points or more.",
            style="dim",
        ),
        sep="\n",
    )


def _hand(
    analysis: Analysis, h: int, seating: Seating, presenter: Presenter, console: Console
) -> None:
    state = analysis.state
    log = state.history[h]
    before = analysis.scores_after[h - 1] if h else (0,) * len(analysis.scores_after[h])
    seen = HandSeen(h, log.dealer, analysis.game.num_players, before)
    seen.result = state.results[h]
    seen.scores = analysis.scores_after[h]
    line = safely(
        lambda: [presenter.hand_line(seating, seen)],
        lambda: [Presenter(analysis.game).hand_line(seating, seen)],
    )[0]
    head = Text(f"Hand {h + 1} · {seating.names[log.dealer]} deals · ", style="bold")
    head.append_text(rich_text(line))
    console.print()
    console.print(head)
    mistakes = analysis.mistakes(h)
    if not mistakes:
        judged = sum(1 for d in analysis.decisions if d.hand == h and d.analysed)
        console.print(Text(f"  no points lost in {judged} decisions analysed", style="dim"))
        return
    dd, est = analysis.double_dummy, analysis.sampling
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    headers = ["trick", "seat", "played"]
    headers += ["dd best", "dd lost"] * dd + ["bot's choice", "est. lost"] * est
    for header in headers:
        right = header in ("dd lost", "est. lost", "trick")
        table.add_column(header, justify="right" if right else "left")
    for d in mistakes:
        cells = _row(d, seating, presenter)
        table.add_row(*cells[:3], *cells[3:5] * dd, *cells[5:] * est)
    console.print(table)


def _row(d: Decision, seating: Seating, presenter: Presenter) -> list[str | Text]:
    """The cells of a decision: trick, seat, played, dd best, dd lost, bot's choice, lost."""
    words = lambda a: rich_text(presenter.action_words(a, d.trumps))  # noqa: E731
    dd, sampled = d.double_dummy, d.sampled
    played = words(d.action)
    if dd is not None:
        played.append(f" ({dd.played:+d})", style="dim")
    best: Text | str = NONE
    if dd is not None:
        best = join((words(c) for c in dd.best), " ")
        best.append(f" ({dd.value:+d})", style="dim")
    choice: Text | str = NONE
    lost = NONE
    if sampled is not None:
        choice = words(sampled.best)
        loss = sampled.loss
        lost = NONE if loss is None else f"{loss:.2f}"
    return [
        str(d.trick + 1) if d.playing else "auction",
        seating.names[d.seat],
        played,
        best,
        NONE if dd is None else str(dd.loss),
        choice,
        lost,
    ]


def _summary(analysis: Analysis, names: list[str], console: Console) -> None:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    dd, est = analysis.double_dummy, analysis.sampling
    headers = ["seat", "player", "decisions"]
    headers += ["dd mistakes", "dd lost", "dd mean"] * dd
    headers += ["est. mistakes", "est. lost", "est. mean"] * est
    for i, header in enumerate(headers):
        table.add_column(header, justify="left" if i < 2 else "right")
    rows = analysis.summary()
    for row in rows:
        cells: list[str | Text] = [names[row.seat], Text(row.label), str(row.analysed)]
        if dd:
            solved = row.dd_decisions > 0
            cells += [
                str(row.dd_mistakes) if solved else NONE,
                str(row.dd_lost) if solved else NONE,
                _mean(row.dd_mean),
            ]
        if est:
            valued = row.sampled_decisions > 0
            cells += [
                str(row.sampled_mistakes) if valued else NONE,
                f"{row.sampled_lost:.2f}" if valued else NONE,
                _mean(row.sampled_mean),
            ]
        table.add_row(*cells)
    console.print()
    console.print(Text("Summary", style="bold"))
    console.print(table)
    unsolved = sum(row.dd_unsolved for row in rows)
    if unsolved:
        console.print(
            Text(
                f"{unsolved} decisions left unsolved double-dummy: a solve that takes more than"
                f" {analysis.solve_time:g} s (--solve-time) is given up, with the rest of its"
                " trick",
                style="yellow",
            )
        )
    console.print(
        Text(
            "decisions: those with a choice that were analysed; mistakes: decisions that lost"
            f" {analysis.threshold:g} points or more; lost: points in all; mean: per decision",
            style="dim",
        )
    )


def _mean(value: float | None) -> str:
    return NONE if value is None else f"{value:.2f}"
