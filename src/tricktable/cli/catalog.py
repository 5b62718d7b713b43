"""``tricktable games`` and ``tricktable rules NAME``: what can be played, and how.

A game's rules are written from its options when its module has a ``_text`` companion with
``rules_text(options, title)`` (``games/setback.py`` has ``games/setback_text.py``: every Pitch
variant differs by options alone); otherwise they are the fixed text ``games/rules/NAME.md``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from tricktable.engine.options import option_rows, parse_spec
from tricktable.engine.trick import Game
from tricktable.games import GAMES, PRESETS, load_game

RULES_DIR = Path(__file__).resolve().parent.parent / "games" / "rules"


def seats_text(counts: tuple[int, ...]) -> str:
    """Table sizes as a reader writes them: "4", "3-7", "2-4, 6"."""
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def list_games() -> int:
    """Print every game and variant, one line each, grouped by family: a base game first
    with the table sizes it allows, then its variants with the seats each sets."""
    width = max(len(n) for n in [*GAMES, *PRESETS])
    base = max(len(n) for n in GAMES)
    families: dict[str, list[str]] = {}
    for name, cls in GAMES.items():
        families.setdefault(cls.family or cls.title, []).append(name)
    for family in sorted(families):
        members = sorted(families[family])
        variants = sorted(p for p in PRESETS if PRESETS[p].game in members)
        click.echo(f"{family} ({len(members) + len(variants)})")
        for name in members:
            cls = GAMES[name]
            seats = f"seats {seats_text(cls.seat_counts)}"
            click.echo(f"  {name:<{width}}  {'game':<{base}} {seats:<11} {cls.summary}")
        for name in variants:
            preset = PRESETS[name]
            seats = f"seats {load_game(name).num_players}"
            click.echo(f"  {name:<{width}}  {preset.game:<{base}} {seats:<11} {preset.summary}")
    return 0


def show_rules(spec: str) -> int:
    """Print the rules of a game or variant and every option with its value and default."""
    click.echo(rules_page(spec).rstrip())
    return 0


def rules_page(spec: str) -> str:
    """The rules of a game or variant, its source, and every option with its value and
    default, as Markdown (what ``tricktable rules`` prints and docs/rules/ holds)."""
    game = load_game(spec)
    name, values = parse_spec(spec)
    preset = PRESETS.get(name)
    base = preset.game if preset else name
    lines = [f"# {name}" + (f" — a variant of {base}" if preset else "") + "\n"]
    if preset:
        # The summary speaks of the preset's own options; other values would contradict it.
        summary = f"{preset.summary}\n" if not values else ""
        lines.append(f"{summary}Source: {preset.source}\n")
    text = rules_text(game, game.spec() if preset or values else game.title)
    if text is None:
        for file in (RULES_DIR / f"{name}.md", RULES_DIR / f"{base}.md"):
            if file.exists():
                text = file.read_text(encoding="utf-8")
                break
    if text:
        lines.append(text.rstrip())
    defaults = dict((n, d) for n, _, d, _ in option_rows(type(game.options)()))
    lines.append(f"\n## Options of {name} (load as {game.spec()})\n")
    for option, valid, value, doc in option_rows(game.options):
        default = defaults[option]
        note = "" if value == default else f" (default {default.lower()})"
        lines.append(
            f"- {option} = {value.lower() if value in ('True', 'False') else value}"
            f"{note} — {doc}; valid: {valid}"
        )
    return "\n".join(lines) + "\n"


def rules_text(game: Game, title: str) -> str | None:
    """The rules as ``game``'s options set them, if its module has a ``_text`` companion."""
    try:
        module = importlib.import_module(f"{type(game).__module__}_text")
    except ModuleNotFoundError:
        return None
    text: str = module.rules_text(game.options, title)
    return text
