"""docs/rules/ holds every game's and variant's rules with its source, as they are now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tricktable.games import GAMES, PRESETS

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_and_variant_has_a_current_rules_page() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "write_rules.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for name in [*GAMES, *PRESETS]:
        assert (ROOT / "docs" / "rules" / f"{name}.md").exists(), name


def test_every_variant_names_its_source() -> None:
    for name, preset in PRESETS.items():
        assert len(preset.source) > 10, name
