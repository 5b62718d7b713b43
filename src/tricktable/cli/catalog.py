"""``tricktable games`` and ``tricktable rules NAME``: what can be played, and how."""

from __future__ import annotations

from pathlib import Path

import click

from tricktable.engine.options import option_rows, parse_spec
from tricktable.games import GAMES, PRESETS, load_game

RULES_DIR = Path(__file__).resolve().parent.parent / "games" / "rules"


def list_games() -> int:
    """Print every game and variant, one line each."""
    width = max(len(n) for n in [*GAMES, *PRESETS])
    for name in sorted(GAMES):
        click.echo(f"{name:<{width}}  game     {GAMES[name].summary}")
    for name in sorted(PRESETS):
        preset = PRESETS[name]
        click.echo(f"{name:<{width}}  {preset.game:<8} {preset.summary}")
    return 0


def show_rules(spec: str) -> int:
    """Print the rules of a game or variant and every option with its value and default."""
    game = load_game(spec)
    name, _ = parse_spec(spec)
    preset = PRESETS.get(name)
    base = preset.game if preset else name
    click.echo(f"# {name}" + (f" — a variant of {base}" if preset else ""))
    if preset:
        click.echo(f"\n{preset.summary}\nSource: {preset.source}\n")
    for file in (RULES_DIR / f"{name}.md", RULES_DIR / f"{base}.md"):
        if file.exists():
            click.echo(file.read_text(encoding="utf-8").rstrip())
            break
    defaults = dict((n, d) for n, _, d, _ in option_rows(type(game.options)()))
    click.echo(f"\n## Options of {name} (load as {game.spec()})\n")
    for option, valid, value, doc in option_rows(game.options):
        default = defaults[option]
        note = "" if value == default else f" (default {default.lower()})"
        click.echo(
            f"- {option} = {value.lower() if value in ('True', 'False') else value}"
            f"{note} — {doc}; valid: {valid}"
        )
    return 0
