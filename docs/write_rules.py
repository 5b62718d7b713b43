"""Write docs/rules/: each game's and variant's rules with its source, and an index by family.

``PYTHONPATH=src python docs/write_rules.py`` (or with the package installed). A page is
what ``tricktable rules NAME`` prints: rules written from the options where the game's module
has a ``_text`` companion, else the fixed text ``games/rules/NAME.md`` (edit that one), then
every option. ``--check`` writes nothing and exits 1 naming the pages that are not current
(the test suite runs it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tricktable.cli.catalog import rules_page, seats_text
from tricktable.games import GAMES, PRESETS, load_game

OUT = Path(__file__).resolve().parent / "rules"


def pages() -> dict[str, str]:
    """Every page this script writes, by file name."""
    out: dict[str, str] = {}
    for name in sorted(GAMES):
        out[f"{name}.md"] = rules_page(name)
    for name in sorted(PRESETS):
        out[f"{name}.md"] = rules_page(name)
    out["README.md"] = index()
    return out


def index() -> str:
    """The list of every game and variant by family, with its seats and its source."""
    lines = [
        "# The rules of every game and variant",
        "",
        "Written by `docs/write_rules.py` from the games' options (what `tricktable rules "
        "NAME` prints); grouped as `tricktable games` groups them.",
    ]
    families: dict[str, list[str]] = {}
    for name, cls in GAMES.items():
        families.setdefault(cls.family or cls.title, []).append(name)
    for family in sorted(families):
        members = sorted(families[family])
        lines += ["", f"## {family}", "", "| name | base game | seats | source |"]
        lines.append("|---|---|---|---|")
        for name in members:
            seats = seats_text(GAMES[name].seat_counts)
            lines.append(f"| [{name}]({name}.md) | — | {seats} | |")
        for name in sorted(p for p in PRESETS if PRESETS[p].game in members):
            preset = PRESETS[name]
            seats = load_game(name).num_players
            source = preset.source.replace("|", "/")
            lines.append(f"| [{name}]({name}.md) | {preset.game} | {seats} | {source} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; say what is stale")
    args = parser.parse_args(argv)
    stale = []
    OUT.mkdir(exist_ok=True)
    for file, text in pages().items():
        path = OUT / file
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append(file)
            if not args.check:
                path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"docs/rules is not current ({', '.join(stale)}): run docs/write_rules.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
