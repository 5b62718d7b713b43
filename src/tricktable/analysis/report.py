"""The tournament report: one self-contained HTML page of standings, ratings and strategy.

:func:`read_report` reads a stored tournament in one pass over its games (records included):
each game goes to the strategy insights (:mod:`tricktable.analysis.insights`) and on to the
standings (:mod:`tricktable.analysis.standings`), so a record is read and replayed once.
:func:`render_html` makes the page: every figure a PNG inlined as base64 (matplotlib, see
:mod:`tricktable.analysis.plots`), the style inline, no script and no address outside the page,
so it opens anywhere, offline, and can be mailed as one file. Every figure and table states its
sample size and its 95% intervals; docs/report.md explains each section.
"""

from __future__ import annotations

import base64
import html
import math
import os
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tricktable.analysis.insights import (
    MIN_CELL,
    PASSED,
    SITUATIONS,
    Contracts,
    Insights,
    InsightsReader,
    choice_label,
    hand_type_label,
)
from tricktable.analysis.intervals import Proportion, Summary, wilson
from tricktable.analysis.standings import Standings, plural, standings_of
from tricktable.db.store import Store, StoredGame, TournamentInfo
from tricktable.errors import TricktableError
from tricktable.files import check_writable, shown, write_atomic

#: shown where a figure has no data
NONE = "—"
#: the file the report is written to, in the folder given
INDEX = "index.html"


class ReportError(TricktableError):
    """A report that cannot be made: no such tournament, or a folder that cannot be written."""


@dataclass(frozen=True)
class Report:
    """What the page shows: the standings and the insights of one tournament, and what reading
    them cost (``seconds`` for ``games`` games)."""

    tournament: TournamentInfo
    standings: Standings
    insights: Insights
    where: str
    seconds: float

    @property
    def games(self) -> int:
        """The games read."""
        return self.standings.games

    def per_game_ms(self) -> float:
        """Milliseconds of reading a game (its record replayed included)."""
        return 1000 * self.seconds / self.games if self.games else 0.0


def find_tournament(store: Store, name: str | None) -> TournamentInfo:
    """The tournament named ``name`` in ``store``, or the newest for None."""
    if name is None:
        every = store.tournaments()
        if not every:
            raise ReportError(f"{store.where} holds no tournament")
        return every[-1]
    found = store.find_tournament(name)
    if found is None:
        known = ", ".join(repr(t.name) for t in store.tournaments()[-10:]) or "none"
        raise ReportError(f"{store.where}: no tournament named {name!r} (the newest: {known})")
    return found


def read_report(
    store: Store,
    name: str | None = None,
    *,
    only: Collection[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Read tournament ``name`` (None: the newest) for the report, in one pass over its games.

    ``only`` names the entrants whose bids the strategy tables and the guide count (default:
    everyone's); ``progress`` is told how many games were read, now and then.
    """
    info = find_tournament(store, name)
    entrants = store.entrants(info.id)
    began = time.perf_counter()
    reader = InsightsReader(str(info.spec.get("game", "?")), {e.id: e.name for e in entrants}, only)
    games: Iterable[StoredGame] = reader.feed(store.games(info.id, records=True))
    if progress is not None:
        games = _counted(games, progress)
    standings = standings_of(info, entrants, games)
    seconds = time.perf_counter() - began
    return Report(info, standings, reader.result(), store.where, seconds)


def _counted(games: Iterable[StoredGame], progress: Callable[[int], None]) -> Iterable[StoredGame]:
    for n, game in enumerate(games, 1):
        if n % 1000 == 0:
            progress(n)
        yield game


def report_path(out: str | Path, make: bool = False) -> Path:
    """Where the page of folder ``out`` goes, checked before any work: ``index.html`` in it
    absent or a regular file (never a link, a FIFO or a device) that a new file can replace.

    A missing ``out`` is one new folder in a folder that exists, as ``play --save`` writes
    only into a folder that exists: a mistyped parent is said, not made. It is made with
    ``make`` (when the page is written), and only checked without it, so that a report that
    fails before its page (a missing database) leaves nothing behind.
    """
    folder = Path(out)
    if not os.fspath(out):
        raise ReportError("no report folder given")
    where = f"cannot write the report into {shown(folder)}"
    if folder.is_dir():
        return check_writable(folder / INDEX, "report")
    if folder.exists() or folder.is_symlink():
        raise ReportError(f"{where}: not a folder")
    parent = folder.absolute().parent
    if not parent.is_dir():
        raise ReportError(f"{where}: no folder {shown(folder.parent)}")
    if not make:
        check_writable(folder, "report folder")  # its parent takes a new entry
        return folder / INDEX
    try:
        folder.mkdir()
    except OSError as exc:
        raise ReportError(f"{where}: {exc.strerror or exc}") from None
    return check_writable(folder / INDEX, "report")


def write_report(report: Report, out: str | Path) -> Path:
    """Write the page to ``out``/index.html (making that one folder), atomically; its path."""
    return write_atomic(report_path(out, make=True), render_html(report), "report")


# -- formatting ----------------------------------------------------------------------------------


def esc(value: object) -> str:
    """Text made safe for HTML."""
    return html.escape(str(value), quote=True)


def fmt_rate(rate: Proportion | None) -> str:
    """A rate and its 95% interval: ``71% [66–75]``."""
    if rate is None or rate.n == 0:
        return NONE
    return f"{100 * rate.rate:.0f}% [{100 * rate.low:.0f}–{100 * rate.high:.0f}]"


def fmt_mean(summary: Summary | None, digits: int = 2) -> str:
    """A mean and its 95% interval: ``+0.42 [+0.31, +0.53]``."""
    if summary is None or summary.n == 0:
        return NONE
    if not (math.isfinite(summary.low) and math.isfinite(summary.high)):
        return f"{summary.mean:+.{digits}f} (n=1: no interval)"
    return f"{summary.mean:+.{digits}f} [{summary.low:+.{digits}f}, {summary.high:+.{digits}f}]"


class Cell:
    """A table cell: its text (escaped when shown), a class and a tooltip."""

    __slots__ = ("cls", "text", "title")

    def __init__(self, text: object, cls: str = "", title: str = "") -> None:
        self.text = str(text)
        self.cls = cls
        self.title = title

    def html(self, tag: str = "td") -> str:
        """The cell as HTML (``text`` may hold line breaks)."""
        attrs = (f' class="{esc(self.cls)}"' if self.cls else "") + (
            f' title="{esc(self.title)}"' if self.title else ""
        )
        return f"<{tag}{attrs}>{esc(self.text).replace(chr(10), '<br>')}</{tag}>"


def table(
    table_id: str, headers: Sequence[str], rows: Iterable[Sequence[object]], note: str
) -> str:
    """A table with an id, its headers, rows and a note under it (sample sizes, intervals)."""
    # In a box of its own that scrolls sideways: a phone's narrow page never does.
    out = [f'<div class="wide"><table id="{esc(table_id)}"><thead><tr>']
    out += [f"<th>{esc(h)}</th>" for h in headers]
    out.append("</tr></thead><tbody>")
    for row in rows:
        cells = [c if isinstance(c, Cell) else Cell(c) for c in row]
        out.append("<tr>" + cells[0].html("th") + "".join(c.html() for c in cells[1:]) + "</tr>")
    out.append(f'</tbody></table></div><p class="note">{esc(note)}</p>')
    return "".join(out)


def figure(data: bytes, alt: str, caption: str) -> str:
    """A figure: a PNG inlined as base64, with its caption."""
    encoded = base64.b64encode(data).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{encoded}" alt="{esc(alt)}">'
        f"<figcaption>{esc(caption)}</figcaption></figure>"
    )


# -- the page ------------------------------------------------------------------------------------

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
margin:0 auto;max-width:1150px;padding:0 18px 40px;color:#222;background:#fff}
h1{font-size:26px;margin:22px 0 4px}h2{margin-top:34px;border-bottom:2px solid #ddd}
h3{margin-top:24px}nav a{margin-right:14px}
table{border-collapse:collapse;margin:8px 0 2px;font-size:13px}.wide{overflow-x:auto}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;vertical-align:top}
thead th{background:#f3f3f3;text-align:center}tbody th{text-align:left;font-weight:600}
td.thin{color:#999}td.advice{text-align:left;font-weight:600}td.best{background:#e6f4ea;font-weight:600}td.na{color:#aaa}
.note{color:#555;font-size:12px;margin:2px 0 14px}.skip{color:#8a5a00}
figure{margin:10px 0}img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{color:#555;font-size:12px}.lead{color:#444}
""".strip()


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page."""
    info, st, ins = report.tournament, report.standings, report.insights
    rules = st.rules
    title = f"tricktable report: {info.name}"
    deals = f"{st.deals} {plural(rules.unit)}"
    if rules.duplicate:
        deals += f" ({st.complete_deals} with every table played)"
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<link rel="icon" href="data:,">',
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="lead">{esc(rules.game)}, {esc(rules.format)}, partnerships '
        f"{esc(rules.partnerships)}{', the lower score wins' if rules.lower_wins else ''}; "
        f"{st.games} games (tables), {esc(deals)}"
        f"{'' if st.seed is None else f'; seed {st.seed}'}; status {esc(info.status)}; created "
        f"{esc(info.created.strftime('%Y-%m-%d %H:%M UTC'))}. Read from {esc(report.where)} "
        f"on {esc(now)} in {report.seconds:.1f} s ({report.per_game_ms():.2f} ms a game, "
        "its record replayed).</p>",
        '<nav><a href="#standings">Standings</a><a href="#head-to-head">Head to head</a>'
        '<a href="#ratings">Ratings</a><a href="#strategy">Strategy</a>'
        '<a href="#guide">Bidding guide</a></nav>',
        "<p class=\"note\">Every interval is 95%: Wilson's for a rate, Student's t (the normal "
        "from 1001 values) for a mean. n is the sample each figure stands on.</p>",
    ]
    if st.games == 0:
        parts.append('<p class="skip">No game of this tournament is stored yet.</p>')
    else:
        parts += _standings_section(st)
        parts += _ratings_section(st)
    parts += _strategy_section(ins)
    parts.append("</body></html>")
    return "\n".join(parts)


def _standings_section(st: Standings) -> list[str]:
    from tricktable.analysis import plots  # matplotlib: imported when a page is drawn

    rules, unit = st.rules, st.rules.unit
    headers = ["entrant", "#", "games", "W-L-S", "win rate [95%]", f"margin/{unit} [95%]"]
    if rules.duplicate:
        headers.append(f"duplicate/{unit} [95%]")
    headers += ["n", "faults"]
    rows = []
    for rank, row in enumerate(st.rows, 1):
        ranked = row.duplicate if rules.duplicate else row.margin
        cells: list[Cell | str | int] = [
            row.name,
            rank,
            row.games,
            f"{row.won}-{row.lost}-{row.shared}",
            fmt_rate(row.win_rate),
            fmt_mean(row.margin),
        ]
        if rules.duplicate:
            cells.append(fmt_mean(row.duplicate))
        cells += [ranked.n if ranked else 0, row.faults.total]
        rows.append(cells)
    paired = (
        f"a duplicate score is the mean of an entrant's margins over a {unit}'s tables, "
        f"over the {st.complete_deals} {plural(unit)} with every table played; "
        if rules.duplicate
        else ""
    )
    out = [
        '<h2 id="standings">Standings</h2>',
        figure(
            plots.standings_figure(st),
            "standings with 95% intervals",
            f"Ranked by {st.ranked_by}. Points: the mean; bars: its 95% interval. "
            f"{st.games} games.",
        ),
        table(
            "standings-table",
            headers,
            rows,
            f"Ranked by {st.ranked_by}. A margin is the points of an entrant's side minus the "
            f"other's per {unit}; {paired}n is the number of {plural(unit)} behind the ranked "
            f"figure. Win rate: Wilson interval, a shared {unit} a half. Faults count as "
            f"on_fault={rules.on_fault}: {rules.fault_policy()}.",
        ),
    ]
    names = list(st.head_to_head.names)
    matrix = []
    for a in names:
        line: list[Cell | str | int] = [a]
        for b in names:
            cell = st.head_to_head.get(a, b)
            if a == b:
                line.append(Cell("·", "na"))
            elif cell is None:
                line.append(Cell("never met", "na"))
            else:
                line.append(f"{fmt_mean(cell)}\nn={cell.n}")
        matrix.append(line)
    out += [
        '<h2 id="head-to-head">Head to head</h2>',
        figure(
            plots.head_to_head_figure(st),
            "head-to-head heat map",
            f"The row's margin over the column, points per {unit}, where they met as "
            "opponents; blue: the row is better. Each cell: mean, ± half its 95% interval, n.",
        ),
        table(
            "head-to-head-table",
            ["entrant \\ opponent", *names],
            matrix,
            f"Mean margin of the row over the column per {unit} [95% interval], n = the "
            f"{plural(unit)} where they met as opponents"
            + (" (paired over each deal's tables)." if rules.duplicate else "."),
        ),
    ]
    return out


def _ratings_section(st: Standings) -> list[str]:
    from tricktable.analysis import plots  # matplotlib: imported when a page is drawn

    ratings = st.ratings
    rows = []
    for name in ratings.order():
        r = ratings.ratings[name]
        rows.append(
            [
                name,
                f"{r.mu:.2f}",
                f"{r.sigma:.2f}",
                f"{r.mu - 1.96 * r.sigma:.2f} – {r.mu + 1.96 * r.sigma:.2f}",
                f"{r.ordinal:.2f}",
            ]
        )
    return [
        '<h2 id="ratings">Ratings over time</h2>',
        figure(
            plots.ratings_figure(st),
            "ratings over time",
            f"{ratings.model} ratings of individual entrants across partnerships, "
            f"{ratings.games} games rated in the order played. Lines: the ordinal mu − 3σ "
            "(every entrant starts at 0); diamonds: the final mu with ±1.96σ.",
        ),
        table(
            "ratings-table",
            ["entrant", "mu", "sigma", "mu ± 1.96σ", "ordinal"],
            rows,
            f"After {ratings.games} games; every entrant started at mu 25, sigma 8.33. The "
            "ordinal (mu − 3σ) is what a leaderboard sorts by.",
        ),
    ]


def _contract_cell(cell: Contracts | None) -> Cell:
    """A cell of a bid-by-feature table: make rate, mean score, n (grey below MIN_CELL)."""
    if cell is None:
        return Cell(NONE, "na")
    text = f"{fmt_rate(cell.make_rate())}\n{cell.score.mean:+.2f} · n={cell.n}"
    if cell.n < MIN_CELL:
        return Cell(text, "thin", f"fewer than {MIN_CELL} hands: too little data to rely on")
    return Cell(text)


def _by_feature_table(ins: Insights, feature: str, table_id: str) -> str:
    values = ins.values(feature)
    cells = ins.cells(feature)
    rows = []
    for key in ins.contracts(feature):
        rows.append([f"bid {key.label}", *(_contract_cell(cells.get((v, key))) for v in values)])
    return table(
        table_id,
        ["contract", *values],
        rows,
        f"Each cell: contracts made [95% Wilson interval], then the declaring side's mean "
        f"score change and n (declared hands). Grey: fewer than {MIN_CELL} hands.",
    )


def _holdings_table(ins: Insights) -> str:
    """Contracts by whether each top trump was held: two columns a card."""
    cards = [card for card in ("joker", "jack", "ace", "ten") if ins.cells(card)]
    headers = ["contract"]
    for card in cards:
        headers += [f"{card}: held", f"{card}: not held"]
    rows = []
    for key in ins.contracts("all"):
        line: list[object] = [f"bid {key.label}"]
        for card in cards:
            cells = ins.cells(card)
            line += [_contract_cell(cells.get((value, key))) for value in ("held", "not held")]
        rows.append(line)
    return table(
        "bids-by-holding",
        headers,
        rows,
        "Whether the declarer was dealt the card, in the trump it chose. Each cell: contracts "
        "made [95% Wilson interval], then the declaring side's mean score change and n "
        f"(declared hands). Grey: fewer than {MIN_CELL} hands.",
    )


def _strategy_section(ins: Insights) -> list[str]:
    from tricktable.analysis import plots  # matplotlib: imported when a page is drawn

    out = ['<h2 id="strategy">Strategy insights</h2>']
    if not ins.supported:
        out.append(f'<p class="skip">Skipped: {esc(ins.note)}.</p>')
        out.append('<h2 id="guide">Bidding guide</h2><p class="skip">Skipped (see above).</p>')
        return out
    if ins.declared == 0:
        out.append(f'<p class="skip">No declared hand among the {ins.hands} read.</p>')
        out.append('<h2 id="guide">Bidding guide</h2><p class="skip">No data.</p>')
        return out
    whose = (
        "every entrant's bids"
        if ins.only is None
        else "the bids of " + ", ".join(ins.only) + " only (points and edges: every hand)"
    )
    out.append(
        f'<p class="lead">{ins.hands} finished hands of {ins.games} games: {ins.declared} '
        f"declared ({ins.stuck} by a stuck dealer), {ins.thrown_in} thrown in; "
        f"{ins.unreadable} games unreadable. Of every contract, {fmt_rate(ins.make_rate())} "
        f"were made. The tables below count {esc(whose)}.</p>"
    )
    all_cells = ins.cells("all")
    bid_rows = []
    for key in ins.contracts("all"):
        cell = all_cells["all", key]
        bid_rows.append(
            [
                f"bid {key.label}",
                cell.n,
                fmt_rate(cell.make_rate()),
                fmt_mean(cell.score.summary()),
                fmt_mean(cell.gain.summary()),
            ]
        )
    out += [
        '<h3 id="bids">Each bid: made, score and gain</h3>',
        table(
            "bids",
            ["contract", "n", "made [95%]", "declaring side's score [95%]", "gain [95%]"],
            bid_rows,
            "n: declared hands at that contract (a stuck dealer's apart). Score: the "
            "declaring side's score change in the hand; gain: that minus the opponents'.",
        ),
        '<h3 id="by-length">By trump length</h3>',
        figure(
            plots.trump_length_figure(ins),
            "make rate and score by trump length",
            "The declarer's dealt hand in the trump it chose: its trump cards (jokers and a "
            "trump off-jack included). Bars: 95% intervals; n per bid in the legend.",
        ),
        _by_feature_table(ins, "trump length", "bids-by-length"),
        '<h3 id="by-holding">By top trumps held</h3>',
        figure(
            plots.holdings_figure(ins),
            "make rate by top trump held",
            "Whether the declarer was dealt each card of the trump it chose. Bars: 95% "
            "Wilson intervals; n per series in the legends.",
        ),
    ]
    out.append(_holdings_table(ins))
    out += [
        '<h3 id="by-score">By the score situation</h3>',
        _by_feature_table(ins, "score", "bids-by-score"),
        '<p class="note">Behind, level or ahead of the best other side before the hand.'
        + (
            " A tournament of one-hand deals is always level: play whole matches "
            "(--matches) to see the others."
            if ins.values("score") == ["level"]
            else ""
        )
        + "</p>",
        '<h3 id="by-entrant">By declarer</h3>',
        table(
            "bids-by-entrant",
            ["entrant", "declared", "made [95%]", "score [95%]", "gain [95%]"],
            [
                [
                    name,
                    cell.n,
                    fmt_rate(cell.make_rate()),
                    fmt_mean(cell.score.summary()),
                    fmt_mean(cell.gain.summary()),
                ]
                for name, cell in sorted(ins.by_entrant.items())
            ],
            "Declared hands by the entrant that declared (a stuck dealer's included).",
        ),
    ]
    out += _points_and_edges(ins)
    out += _guide(ins)
    return out


def _points_and_edges(ins: Insights) -> list[str]:
    from tricktable.analysis import plots  # matplotlib: imported when a page is drawn

    rows = []
    for name, tally in ins.points.items():
        rows.append(
            [
                Cell(name),
                tally.hands,
                tally.in_play,
                fmt_rate(wilson(tally.in_play, tally.hands) if tally.hands else None),
                tally.declarers,
                tally.in_play - tally.declarers,
                fmt_rate(wilson(tally.declarers, tally.in_play) if tally.in_play else None),
            ]
        )
    players = len(ins.positions)
    place_rows = []
    for place, acc in enumerate(ins.positions):
        if not acc.n:
            continue
        place_rows.append(
            [
                plots.place_label(place, players),
                acc.n,
                fmt_rate(wilson(ins.declared_from[place], ins.declared)),
                fmt_mean(acc.summary()),
            ]
        )
    edge_rows = [
        ["the dealer's side", ins.dealer_edge.n, NONE, fmt_mean(ins.dealer_edge.summary())],
        [
            "the declaring side",
            ins.declarer_edge.n,
            fmt_rate(ins.make_rate()),
            fmt_mean(ins.declarer_edge.summary()),
        ],
    ]
    return [
        '<h3 id="points">Points: in play, and who takes them</h3>',
        figure(
            plots.points_figure(ins),
            "points in play and who takes them",
            f"{ins.declared} declared hands; bars: 95% Wilson intervals.",
        ),
        table(
            "points",
            [
                "point",
                "hands",
                "in play",
                "in play [95%]",
                "declarers took",
                "defenders took",
                "declarers' share [95%]",
            ],
            rows,
            "Hands: declared hands. In play: its card was dealt (Game: not tied). Declarers' "
            "share: of the hands where it was in play.",
        ),
        "<h3 id=\"edges\">The dealer's edge and the declarer's edge</h3>",
        figure(
            plots.edges_figure(ins),
            "gain by place at the table",
            "Each seat's side's gain per hand by the seat's place after the dealer, and the "
            "declaring side's. Bars: 95% intervals.",
        ),
        table(
            "positions",
            ["seat", "hands", "declares [95%]", "side's gain [95%]"],
            place_rows,
            "Declares: the share of declared hands this place won the auction (or was stuck).",
        ),
        table(
            "edges",
            ["side", "hands", "made [95%]", "gain per hand [95%]"],
            edge_rows,
            "Gain: the side's score change minus the opponents'. The dealer's side is the "
            "dealer and its partner.",
        ),
    ]


def _guide(ins: Insights) -> list[str]:
    choices = [PASSED, *ins.bids]
    out = [
        '<h2 id="guide">Bidding guide</h2>',
        '<p class="lead">For a hand like yours at this score, what did each choice in the '
        "auction bring? A hand is typed by its best suit: the trumps it would hold there, how "
        "many of the ace, jack"
        + (" and joker" if ins.jokers else "")
        + " of that suit, and the ten. Each cell: the side's mean gain in the hand after that "
        "choice [95% interval], the contracts the choice won and made [95%], and n. The advice "
        f"is the choice of the highest mean gain among those with at least {MIN_CELL} hands; "
        "'clearly' when its interval lies above the runner-up's. These are the tournament's "
        "bots' hands and choices, not a controlled experiment: a choice's gain includes "
        "being outbid and what partners did.</p>",
    ]
    for situation in ins.situations() or list(SITUATIONS[1:2]):
        rows = []
        for kind in ins.guide_types(situation):
            advice = ins.advice(situation, kind)
            line: list[object] = [hand_type_label(kind, ins.jokers)]
            if advice.best is None:
                line.append(Cell(advice.how, "thin"))
            else:
                runner = "" if advice.runner is None else f" {choice_label(advice.runner)}"
                line.append(Cell(f"{choice_label(advice.best)}\n({advice.how}{runner})", "advice"))
            for choice in choices:
                cell = ins.guide.get((situation, kind, choice))
                if cell is None:
                    line.append(Cell(NONE, "na"))
                    continue
                gain = fmt_mean(cell.gain.summary())
                won = ""
                if choice != PASSED:
                    won = f"\nwon {cell.declared}, made {fmt_rate(cell.make_rate())}"
                if cell.n < MIN_CELL:
                    line.append(Cell(f"n={cell.n}: too little data", "thin", f"gain {gain}{won}"))
                else:
                    cls = "best" if choice == advice.best else ""
                    line.append(Cell(f"{gain}{won}\nn={cell.n}", cls))
            rows.append(line)
        out.append(f"<h3>Score {esc(situation)}</h3>")
        out.append(
            table(
                f"guide-{situation}",
                ["your hand (best suit)", "advice", *(choice_label(c) for c in choices)],
                rows,
                f"Gain: the side's score change minus the opponents' in the hand [95% "
                f"interval]; won: contracts the choice won, made [95% Wilson interval]. Fewer "
                f"than {MIN_CELL} hands: too little data (hover for the figures).",
            )
        )
    return out
