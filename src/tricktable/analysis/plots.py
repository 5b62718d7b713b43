"""The report's figures: matplotlib (Agg, no display), each returned as PNG bytes.

Each function draws one figure from the standings (:mod:`tricktable.analysis.standings`) or the
strategy insights (:mod:`tricktable.analysis.insights`); every error bar is a 95% interval
(Wilson's for a rate, Student's t or the normal for a mean) and every title or axis says how
many games or hands it stands on. Figures are made with :class:`matplotlib.figure.Figure`
directly, never ``pyplot``: no global state, no window, nothing a headless machine lacks.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

from matplotlib.figure import Figure

from tricktable.analysis.insights import LENGTHS, BidKey, Contracts, Insights
from tricktable.analysis.intervals import Proportion, Summary
from tricktable.analysis.standings import Standings, plural

#: the resolution of the PNGs: sharp on a laptop, a few tens of kB each
DPI = 110
#: a point of a line plot stands on at least this many hands (the tables show every cell)
MIN_PLOT = 10
#: colours of the series, one a bid or an entrant (matplotlib's tab10, readable in print)
COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (no timestamp in it: the same data gives the same file)."""
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
    return out.getvalue()


def _errors(low: Sequence[float], mid: Sequence[float], high: Sequence[float]) -> list[list[float]]:
    """matplotlib's asymmetric error bars from an interval: distances below and above (never
    below 0: at a rate of 0 or 1 rounding can put the bound a hair past the rate)."""
    below = [max(0.0, m - lo) for lo, m in zip(low, mid, strict=True)]
    return [below, [max(0.0, h - m) for m, h in zip(mid, high, strict=True)]]


def _finite(summary: Summary) -> tuple[float, float]:
    """A mean's interval, collapsed to the mean where one value gives none."""
    if math.isfinite(summary.low) and math.isfinite(summary.high):
        return summary.low, summary.high
    return summary.mean, summary.mean


def _rate_percent(rate: Proportion) -> tuple[float, float, float]:
    return 100 * rate.low, 100 * rate.rate, 100 * rate.high


# -- standings ----------------------------------------------------------------------------------


def standings_figure(standings: Standings) -> bytes:
    """The ranked figure of each entrant (duplicate score, or margin) and its win rate, with
    95% intervals, the best at the top."""
    rows = list(standings.rows)
    unit = standings.rules.unit
    fig = Figure(figsize=(9, 0.55 * len(rows) + 1.6), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    y = list(range(len(rows)))[::-1]
    figures = [row.duplicate if standings.rules.duplicate else row.margin for row in rows]
    kept = [(yy, f) for yy, f in zip(y, figures, strict=True) if f is not None]
    if kept:
        ys = [yy for yy, _ in kept]
        mids = [f.mean for _, f in kept]
        bounds = [_finite(f) for _, f in kept]
        left.errorbar(
            mids,
            ys,
            xerr=_errors([b[0] for b in bounds], mids, [b[1] for b in bounds]),
            fmt="o",
            color=COLOURS[0],
            capsize=4,
        )
    left.axvline(0, color="#999", lw=0.8)
    left.set_ylim(-0.6, len(rows) - 0.4)
    what = "duplicate score" if standings.rules.duplicate else "margin"
    n = max((f.n for f in figures if f is not None), default=0)
    left.set_xlabel(f"{what} per {unit} (points; n = {n} {plural(unit)} an entrant at most)")
    left.set_yticks(y, [row.name for row in rows])
    rated = [(yy, row.win_rate) for yy, row in zip(y, rows, strict=True) if row.win_rate]
    if rated:
        trio = [_rate_percent(rate) for _, rate in rated]
        right.errorbar(
            [t[1] for t in trio],
            [yy for yy, _ in rated],
            xerr=_errors([t[0] for t in trio], [t[1] for t in trio], [t[2] for t in trio]),
            fmt="s",
            color=COLOURS[1],
            capsize=4,
        )
    right.axvline(50, color="#999", lw=0.8)
    right.set_xlim(0, 100)
    right.set_xlabel(f"{plural(unit)} won, % (a shared one a half)")
    for ax in (left, right):
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Standings: {standings.games} games; error bars: 95% intervals")
    return png(fig)


def head_to_head_figure(standings: Standings) -> bytes:
    """The head-to-head matrix as a heat map: the row's margin over the column, each cell
    annotated with its mean, the half width of its 95% interval and n."""
    h2h = standings.head_to_head
    names = list(h2h.names)
    size = len(names)
    grid = [[math.nan] * size for _ in names]
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            cell = h2h.get(a, b)
            if cell is not None and a != b:
                grid[i][j] = cell.mean
    span = max((abs(v) for row in grid for v in row if not math.isnan(v)), default=1.0) or 1.0
    fig = Figure(figsize=(1.3 * size + 3, 1.0 * size + 1.8), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(grid, cmap="RdBu", vmin=-span, vmax=span)
    ax.set_xticks(range(size), names, rotation=30, ha="right")
    ax.set_yticks(range(size), names)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            cell = h2h.get(a, b)
            if a == b:
                text = "·"
            elif cell is None:
                text = "never met"
            elif cell.n < 2:
                text = f"{cell.mean:+.2f}\nn={cell.n}"
            else:
                text = f"{cell.mean:+.2f}\n±{cell.half_width:.2f}\nn={cell.n}"
            dark = not math.isnan(grid[i][j]) and abs(grid[i][j]) > 0.6 * span
            ax.text(
                j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black"
            )
    unit = standings.rules.unit
    fig.colorbar(image, ax=ax, label=f"row's margin over column, points per {unit}")
    ax.set_xlabel("opponent")
    ax.set_ylabel("entrant")
    ax.set_title(f"Head to head: mean ±95% half-width, n = {plural(unit)} met")
    return png(fig)


def ratings_figure(standings: Standings) -> bytes:
    """Each entrant's rating ordinal (mu - 3 sigma) after each stretch of games, and its final
    mu with a 95% band (± 1.96 sigma) at the right."""
    ratings = standings.ratings
    fig = Figure(figsize=(9, 4.2), layout="constrained")
    ax = fig.subplots()
    games = [snap.games for snap in ratings.history]
    last = games[-1] if games else 0
    step = max(1.0, 0.02 * last)  # the final ratings side by side, right of the lines
    for k, name in enumerate(ratings.order()):
        colour = COLOURS[k % len(COLOURS)]
        ax.plot(
            games,
            [snap.ordinals.get(name, math.nan) for snap in ratings.history],
            color=colour,
            label=name,
        )
        rating = ratings.ratings[name]
        ax.errorbar(
            [last + (k + 1) * step],
            [rating.mu],
            yerr=[[1.96 * rating.sigma], [1.96 * rating.sigma]],
            fmt="D",
            color=colour,
            capsize=3,
        )
    ax.set_xlabel(f"games rated (of {ratings.games})")
    ax.set_ylabel("rating")
    ax.set_title(f"{ratings.model}: ordinal (mu − 3σ) over time; diamonds: final mu ± 1.96σ")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return png(fig)


# -- strategy -----------------------------------------------------------------------------------


def _bid_series(
    ins: Insights, feature: str, values: Sequence[str], least: int = 1
) -> list[tuple[BidKey, list[tuple[int, Contracts]]]]:
    """For each chosen contract (stuck dealers left out), its cells of ``least`` hands or more
    at ``values``' indices."""
    cells = ins.cells(feature)
    out = []
    for key in ins.contracts(feature):
        if key.stuck:
            continue
        points = [
            (i, cells[v, key])
            for i, v in enumerate(values)
            if (v, key) in cells and cells[v, key].n >= least
        ]
        if points:
            out.append((key, points))
    return out


def trump_length_figure(ins: Insights) -> bytes:
    """Make rate and the declaring side's score by trump length, a line a bid."""
    values = [v for v in LENGTHS if v in ins.values("trump length")]
    fig = Figure(figsize=(10, 4), layout="constrained")
    rate_ax, score_ax = fig.subplots(1, 2)
    series = _bid_series(ins, "trump length", values, MIN_PLOT)
    width = 0.08
    for k, (key, points) in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        shift = (k - (len(series) - 1) / 2) * width
        xs = [i + shift for i, _ in points]
        rates = [_rate_percent(cell.make_rate()) for _, cell in points]  # type: ignore[arg-type]
        rate_ax.errorbar(
            xs,
            [r[1] for r in rates],
            yerr=_errors([r[0] for r in rates], [r[1] for r in rates], [r[2] for r in rates]),
            fmt="o-",
            color=colour,
            capsize=3,
            label=f"bid {key.label} (n={sum(c.n for _, c in points)})",
        )
        means = [cell.score.mean for _, cell in points]
        bounds = [_finite(cell.score.summary()) for _, cell in points]
        score_ax.errorbar(
            xs,
            means,
            yerr=_errors([b[0] for b in bounds], means, [b[1] for b in bounds]),
            fmt="o-",
            color=colour,
            capsize=3,
        )
    for ax in (rate_ax, score_ax):
        ax.set_xticks(range(len(values)), values)
        ax.set_xlabel("trumps in the declarer's hand (dealt)")
        ax.grid(alpha=0.3)
    rate_ax.set_ylabel("contracts made, %")
    rate_ax.set_ylim(-2, 102)
    if series:
        rate_ax.legend(fontsize=7)
    else:
        for ax in (rate_ax, score_ax):
            _too_little(ax)
    score_ax.axhline(0, color="#999", lw=0.8)
    score_ax.set_ylabel("declaring side's score change")
    chosen = sum(cell.n for (_, key), cell in ins.cells("all").items() if not key.stuck)
    fig.suptitle(
        f"Bids by trump length: {chosen} chosen contracts; 95% intervals; "
        f"points of fewer than {MIN_PLOT} hands left out"
    )
    return png(fig)


def holdings_figure(ins: Insights) -> bytes:
    """Make rate by bid, holding each top trump or not: a panel a card."""
    cards = [f for f in ("joker", "jack", "ace", "ten") if ins.cells(f)]
    fig = Figure(figsize=(3.2 * max(1, len(cards)), 3.8), layout="constrained")
    axes = fig.subplots(1, max(1, len(cards)), sharey=True, squeeze=False)[0]
    for ax, card in zip(axes, cards, strict=False):
        keys = [k for k in ins.contracts(card) if not k.stuck]
        cells = ins.cells(card)
        for k, value in enumerate(("held", "not held")):
            pts = [
                (i, cells[value, key])
                for i, key in enumerate(keys)
                if (value, key) in cells and cells[value, key].n >= MIN_PLOT
            ]
            if not pts:
                continue
            rates = [_rate_percent(c.make_rate()) for _, c in pts]  # type: ignore[arg-type]
            ax.errorbar(
                [i + (0.1 if k else -0.1) for i, _ in pts],
                [r[1] for r in rates],
                yerr=_errors([r[0] for r in rates], [r[1] for r in rates], [r[2] for r in rates]),
                fmt="o" if value == "held" else "s",
                color=COLOURS[k],
                capsize=3,
                label=f"{value} (n={sum(c.n for _, c in pts)})",
            )
        ax.set_xticks(range(len(keys)), [k.label for k in keys])
        ax.set_xlabel("bid")
        ax.set_title(f"the {card} of trump" if card != "joker" else "the joker")
        ax.set_ylim(-2, 102)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[1]:
            ax.legend(fontsize=7)
        else:
            _too_little(ax)
    axes[0].set_ylabel("contracts made, %")
    fig.suptitle(
        "Make rate by bid and top trump held; 95% Wilson intervals; "
        f"points of fewer than {MIN_PLOT} hands left out"
    )
    return png(fig)


def points_figure(ins: Insights) -> bytes:
    """Each point: how often it is in play, and the declaring side's share of it."""
    names = list(ins.points)
    fig = Figure(figsize=(9, 0.45 * len(names) + 1.8), layout="constrained")
    play_ax, share_ax = fig.subplots(1, 2, sharey=True)
    y = list(range(len(names)))[::-1]
    play = [_rate_percent(wilson_of(t.in_play, t.hands)) for t in ins.points.values()]
    play_ax.barh(y, [p[1] for p in play], color=COLOURS[0], alpha=0.8)
    play_ax.errorbar(
        [p[1] for p in play],
        y,
        xerr=_errors([p[0] for p in play], [p[1] for p in play], [p[2] for p in play]),
        fmt="none",
        color="black",
        capsize=3,
    )
    play_ax.set_yticks(y, names)
    play_ax.set_xlim(0, 100)
    play_ax.set_xlabel(f"in play, % of {ins.declared} declared hands")
    shares = [
        (yy, _rate_percent(wilson_of(t.declarers, t.in_play)))
        for yy, t in zip(y, ins.points.values(), strict=True)
        if t.in_play
    ]
    share_ax.barh([s[0] for s in shares], [s[1][1] for s in shares], color=COLOURS[2], alpha=0.8)
    share_ax.errorbar(
        [s[1][1] for s in shares],
        [s[0] for s in shares],
        xerr=_errors(
            [s[1][0] for s in shares], [s[1][1] for s in shares], [s[1][2] for s in shares]
        ),
        fmt="none",
        color="black",
        capsize=3,
    )
    share_ax.axvline(50, color="#999", lw=0.8)
    share_ax.set_xlim(0, 100)
    share_ax.set_xlabel("taken by the declaring side, % of hands in play")
    fig.suptitle("Points: in play and who takes them; 95% Wilson intervals")
    return png(fig)


def edges_figure(ins: Insights) -> bytes:
    """Each seat's side's gain by its place after the dealer, and the declarer's edge."""
    labels = [place_label(i, len(ins.positions)) for i in range(len(ins.positions))]
    stats = [acc.summary() for acc in ins.positions if acc.n]
    labels = [*labels[: len(stats)], "declaring side"]
    if ins.declarer_edge.n:
        stats.append(ins.declarer_edge.summary())
    else:
        labels.pop()
    fig = Figure(figsize=(9, 3.6), layout="constrained")
    ax = fig.subplots()
    means = [s.mean for s in stats]
    bounds = [_finite(s) for s in stats]
    ax.bar(range(len(stats)), means, color=[COLOURS[0]] * (len(stats) - 1) + [COLOURS[3]])
    ax.errorbar(
        range(len(stats)),
        means,
        yerr=_errors([b[0] for b in bounds], means, [b[1] for b in bounds]),
        fmt="none",
        color="black",
        capsize=4,
    )
    ax.axhline(0, color="#999", lw=0.8)
    ax.set_xticks(range(len(stats)), labels, fontsize=8)
    ax.set_ylabel("side's gain per hand, points")
    n = stats[0].n if stats else 0
    ax.set_title(f"Dealer's and declarer's edge: {n} hands; 95% intervals")
    ax.grid(axis="y", alpha=0.3)
    return png(fig)


def _too_little(ax: Any) -> None:
    """Say on an empty panel why it is empty."""
    ax.text(
        0.5,
        0.5,
        f"no cell of {MIN_PLOT} hands or more:\nsee the table",
        transform=ax.transAxes,
        ha="center",
        va="center",
        color="#777",
    )


def place_label(place: int, players: int) -> str:
    """A seat's place after the dealer, for people.

    >>> [place_label(p, 4) for p in range(4)]
    ['dealer (bids last)', 'bids 1st', 'bids 2nd', 'bids 3rd']
    """
    if place == 0:
        return "dealer (bids last)"
    return "bids " + {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def wilson_of(successes: int, n: int) -> Proportion:
    """A rate with its interval, or an empty one for no trials."""
    from tricktable.analysis.intervals import wilson

    return wilson(successes, n) if n else Proportion(0, 0, 0.0, 0.0, 0.0)
