"""Write requirements-dev.lock: exact versions of the dev tools and of all they depend on.

The dev tools are pyproject's ``dev`` extra (pytest, pytest-xdist, hypothesis, mypy, ruff,
playwright, pytest-textual-snapshot, httpx). pip resolves them together with every other
requirement of pyproject.toml (``pip install --dry-run --ignore-installed --report``: nothing is
installed), so that a package the tools share with tricktable (textual, which
pytest-textual-snapshot draws with) is pinned inside tricktable's own range; then only the dev
tools' part of the answer is kept: the runtime's other libraries still follow pyproject's ranges.
``make test`` installs with the lock as constraints (``pip install -c requirements-dev.lock``).

    .venv/bin/python tools/lock_dev.py      # what `make lock` runs; needs PyPI
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-dev.lock"
SELF = canonicalize_name("tricktable")


def requirements() -> tuple[list[str], list[str]]:
    """Every requirement of pyproject.toml (tricktable's own extras left out), and the dev
    extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    every = list(project["dependencies"])
    for listed in extras.values():
        every += [r for r in listed if canonicalize_name(Requirement(r).name) != SELF]
    return every, extras["dev"]


def resolve(wanted: list[str]) -> dict[NormalizedName, dict[str, Any]]:
    """pip's resolution of ``wanted`` on this Python: each package's metadata, by name."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        command += ["--quiet", "--report", str(report), *wanted]
        subprocess.run(command, check=True)
        installs = json.loads(report.read_text(encoding="utf-8"))["install"]
    return {canonicalize_name(item["metadata"]["name"]): item["metadata"] for item in installs}


def closure(
    resolved: dict[NormalizedName, dict[str, Any]], roots: list[str]
) -> dict[NormalizedName, str]:
    """The packages ``roots`` need, their extras' included, with their resolved versions."""
    environment = {k: str(v) for k, v in default_environment().items()}
    seen: set[tuple[NormalizedName, str]] = set()
    stack = [
        (canonicalize_name(r.name), extra)
        for r in map(Requirement, roots)
        for extra in ("", *r.extras)
    ]
    while stack:
        name, extra = stack.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        for text in resolved[name].get("requires_dist") or []:
            need = Requirement(text)
            if need.marker is None and extra:
                continue  # an unconditional requirement is the package's own, seen with ""
            if need.marker is not None and not need.marker.evaluate(
                {**environment, "extra": extra}
            ):
                continue
            dep = canonicalize_name(need.name)
            stack += [(dep, e) for e in ("", *need.extras)]
    return {name: resolved[name]["version"] for name, _ in seen}


def main() -> None:
    every, dev = requirements()
    pins = closure(resolve(every), dev)
    where = f"Python {platform.python_version()} on {sys.platform} {platform.machine()}"
    header = f"""\
# The dev tools of `make test`, pinned: pyproject's dev extra and everything it needs, each at
# one version, so that CI tests with the same tools every run. `make test` installs with this
# file as constraints: pip install -c requirements-dev.lock '.[all,dev,openspiel]'.
# Made by tools/lock_dev.py (pip resolves every requirement of pyproject.toml together, without
# installing anything, and the dev tools' part is kept), on {where}.
# To refresh (new releases of the tools, or a change to pyproject.toml's ranges): `make lock`,
# then `make test`, and commit the two together. Needs PyPI.
"""
    lines = [f"{name}=={version}" for name, version in sorted(pins.items())]
    LOCK.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{LOCK.name}: {len(lines)} packages")


if __name__ == "__main__":
    main()
