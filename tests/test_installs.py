"""What each install can do (issue 28, item 8): ``pip install tricktable`` plays, the extras serve,
draw and store.

The commands run in child processes in which every library the core does not need cannot be
imported: a ``sitecustomize`` on the child's path puts a finder first on ``sys.meta_path`` that
refuses them, as an install without the extras would. The core's commands must work there; the
extras' commands must say which extra in one line and exit 2. Then the split itself, read from
the source and pyproject.toml, so that it cannot rot: a core module imports, at its top, only the
standard library and the core dependencies, and nothing of an extra's modules.

The children run the tricktable this process imported (the source tree, or the compiled install
that ``make test`` tests), whatever PYTHONPATH says.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import socket
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name

import tricktable
from tricktable.extras import MODULES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "tricktable"
#: the folder the children import tricktable from: the one this process imported
IMPORTED_FROM = str(Path(tricktable.__file__).resolve().parents[1])
EXAMPLE_BOTS = ROOT / "examples" / "bots"
SELF = canonicalize_name("tricktable")
#: extras that are no part of a command: the tests' tools, and OpenSpiel's bots (their own
#: one line: tricktable.bridges.openspiel)
NOT_PARTS = {"dev", "openspiel", "bench"}

#: the modules an extra brings: a dotted name and all below it, the longest match deciding
#: (None: the core, inside an extra's package). Every other module is the core's.
EXTRA_OF: dict[str, str | None] = {
    "tricktable.db": "db",
    "tricktable.tournament.run": "db",
    # a tournament's games journaled while played (tournament --live)
    "tricktable.tournament.live": "db",
    # the leagues' nights, seasons and standings: the web server's
    "tricktable.league.service": "web",
    "tricktable.league.tables": "web",
    "tricktable.analysis.standings": "db",
    "tricktable.analysis.insights": "db",
    # the players' pages' rows, filled by a tournament and read by the web server
    "tricktable.analysis.profile_store": "db",
    "tricktable.cli.standings": "db",
    "tricktable.analysis.plots": "report",
    "tricktable.analysis.report": "report",
    "tricktable.cli.report": "report",
    "tricktable.web": "web",
    # many server processes sharing their tables through Redis (serve --redis)
    "tricktable.web.redis_cluster": "scale",
    "tricktable.cli.serve": "web",
    "tricktable.tui": "tui",
    # the skins' names, which `tricktable tui --help` lists without the TUI installed
    "tricktable.tui.model": None,
}


# ------------------------------------------------------------------ pyproject and the install


@cache
def project() -> dict[str, Any]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found: dict[str, Any] = tomllib.loads(text)["project"]
    return found


def extras() -> dict[str, list[str]]:
    found: dict[str, list[str]] = project()["optional-dependencies"]
    return found


def requirements(*wanted: str) -> list[Requirement]:
    """The core's requirements and those of the extras ``wanted``, tricktable[...] expanded."""
    out = [Requirement(r) for r in project()["dependencies"]]
    todo, seen = list(wanted), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in extras()[extra]:
            req = Requirement(text)
            if canonicalize_name(req.name) == SELF:
                todo += sorted(req.extras)
            else:
                out.append(req)
    return out


def installed(reqs: Iterable[Requirement]) -> set[NormalizedName]:
    """Every distribution installed here that ``reqs`` bring, their own requirements followed
    (markers read for this Python; an extra's requirements where the extra is asked for)."""
    environment = {k: str(v) for k, v in default_environment().items()}
    seen: set[tuple[NormalizedName, str]] = set()
    stack = [(canonicalize_name(r.name), e) for r in reqs for e in ("", *r.extras)]
    while stack:
        name, extra = stack.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        try:
            needs = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue  # not here (a requirement of another platform): nothing to follow
        for text in needs:
            need = Requirement(text)
            if need.marker is None and extra:
                continue  # the package's own requirement, followed with ""
            if need.marker is not None and not need.marker.evaluate(
                {**environment, "extra": extra}
            ):
                continue
            stack += [(canonicalize_name(need.name), e) for e in ("", *need.extras)]
    return {name for name, _ in seen if _is_installed(name)}


def _is_installed(name: str) -> bool:
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@cache
def distributions_of() -> dict[str, set[NormalizedName]]:
    """Each importable top-level name: the distributions that install it."""
    return {
        module: {canonicalize_name(d) for d in dists}
        for module, dists in importlib.metadata.packages_distributions().items()
    }


def import_names(dists: set[NormalizedName]) -> set[str]:
    """The top-level names the distributions ``dists`` install."""
    return {m for m, ds in distributions_of().items() if ds & dists}


@cache
def core_names() -> frozenset[str]:
    """What the core needs: the names its distributions install, and the standard library."""
    return frozenset(import_names(installed(requirements())) | sys.stdlib_module_names)


def blocked_beyond(*extras_kept: str) -> list[str]:
    """The top-level names that every extra installs and the core and ``extras_kept`` do not:
    what an install of only those lacks."""
    parts = [e for e in extras() if e not in NOT_PARTS and e != "all"]
    beyond = installed(requirements(*parts)) - installed(requirements(*extras_kept))
    kept = import_names(installed(requirements(*extras_kept))) | sys.stdlib_module_names
    return sorted(import_names(beyond) - kept - {"tricktable"})


# ------------------------------------------------------------------------- the child processes


BLOCKER = """\
# Written by tests/test_installs.py: an install without some of tricktable's extras.
import sys

BLOCKED = frozenset({names!r})


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, Refuse())
"""


def tricktable_without(
    blocked: list[str], *args: str, cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m tricktable ARGS`` in ``cwd`` where the top-level names ``blocked`` cannot be
    imported, in the child and in every process it starts."""
    site = cwd / ".blocker"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCKER.format(names=sorted(blocked)), encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(site), IMPORTED_FROM, env.get("PYTHONPATH")) if p
    )
    env["COLUMNS"] = "200"  # Rich wraps at 80 in a pipe
    for forced in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        env.pop(forced, None)
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def core_only(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m tricktable ARGS`` as ``pip install tricktable`` alone has it."""
    return tricktable_without(blocked_beyond(), *args, cwd=cwd)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def test_the_blocker_blocks_the_extras_and_not_the_core() -> None:
    names = blocked_beyond()
    for needed in ("sqlalchemy", "starlette", "uvicorn", "textual", "dask", "matplotlib"):
        assert needed in names, needed
    for core in ("click", "rich", "mypy_extensions", "tricktable"):
        assert core not in names, core


@pytest.fixture
def bot_record(tmp_path: Path) -> Path:
    """A record of bots alone, played by ``play`` on the core."""
    record = tmp_path / "match.json"
    args = ["play", "--players", "random,heuristic,random,heuristic", "--seed", "3"]
    ok(core_only(*args, "--max-hands", "2", "--save", str(record), cwd=tmp_path))
    return record


def test_play_replay_and_verify_on_the_core(bot_record: Path, tmp_path: Path) -> None:
    assert json.loads(bot_record.read_text(encoding="utf-8"))["seed"] == 3
    assert "after 2 hands" in ok(core_only("replay", str(bot_record), cwd=tmp_path))
    assert "verified" in ok(core_only("verify", str(bot_record), cwd=tmp_path))


def test_simulate_on_the_core(tmp_path: Path) -> None:
    out = ok(core_only("simulate", "--hands", "3", "--workers", "1", "--json", cwd=tmp_path))
    assert json.loads(out)["hands"] == 3


def test_duel_games_and_rules_on_the_core(tmp_path: Path) -> None:
    args = ["duel", "random", "heuristic", "--deals", "1", "--no-sprt", "--workers", "1"]
    assert "verdict" in ok(core_only(*args, cwd=tmp_path))
    assert "hearts" in ok(core_only("games", cwd=tmp_path))
    assert "target" in ok(core_only("rules", "setback", cwd=tmp_path))


def test_bot_check_of_the_example_stdio_bot_on_the_core(tmp_path: Path) -> None:
    bot = f"cmd:{sys.executable} {EXAMPLE_BOTS / 'python' / 'bot.py'}"
    assert "result: OK" in ok(core_only("bot-check", bot, "--matches", "1", cwd=tmp_path))


@pytest.fixture
def http_bot() -> Iterator[str]:
    """The example Spades bot as a web service on loopback: its URL."""
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLE_BOTS / "http_spades_bot.py"), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().split()[-1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_bot_check_of_the_example_http_bot_on_the_core(http_bot: str, tmp_path: Path) -> None:
    args = ["bot-check", http_bot, "--game", "spades", "--matches", "1"]
    assert "result: OK" in ok(core_only(*args, cwd=tmp_path))


def free_port() -> int:
    """A port free on loopback now (were a refusal to fail, the server would start there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def needs_extra(done: subprocess.CompletedProcess[str], command: str, extra: str) -> None:
    """``done`` said, in one line and exit status 2, that ``command`` needs ``extra``."""
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    lines = done.stderr.splitlines()
    said = f"error: tricktable {command} needs the {extra} extra: pip install 'tricktable[{extra}]'"
    assert len(lines) == 1 and lines[0].startswith(said), done.stderr


@pytest.mark.parametrize(
    ("args", "command", "extra"),
    [
        (["serve", "--port", "PORT"], "serve", "web"),
        (["tui", "--play"], "tui", "tui"),
        (["tui", "--serve", "--port", "PORT"], "tui", "tui"),
        (["report", "--db", "t.db"], "report", "report"),
        (["standings", "--db", "t.db"], "standings", "db"),
        (["tournament", "random", "heuristic", "--deals", "1", "--db", "t.db"], "tournament", "db"),
        (
            [
                "tournament",
                "random",
                "heuristic",
                "--deals",
                "1",
                "--db",
                "t.db",
                "--cluster",
                "local",
            ],
            "tournament --cluster",
            "cluster",
        ),
    ],
)
def test_an_extras_command_on_the_core_names_the_extra(
    args: list[str], command: str, extra: str, tmp_path: Path
) -> None:
    args = [str(free_port()) if a == "PORT" else a for a in args]
    needs_extra(core_only(*args, cwd=tmp_path), command, extra)
    assert [p.name for p in tmp_path.iterdir()] == [".blocker"]  # nothing made, nothing served


def test_a_cluster_tournament_with_the_database_but_not_dask(tmp_path: Path) -> None:
    blocked = blocked_beyond("db")
    assert "distributed" in blocked and "sqlalchemy" not in blocked
    args = ["tournament", "random", "heuristic", "--deals", "1", "--db", "t.db"]
    needs_extra(
        tricktable_without(blocked, *args, "--cluster", "local", cwd=tmp_path),
        "tournament --cluster",
        "cluster",
    )
    assert not (tmp_path / "t.db").exists()


def test_a_missing_library_deeper_than_the_check_is_its_extra_too(tmp_path: Path) -> None:
    # textual-serve's aiohttp-jinja2: `tui` finds its extra's modules, `tui --serve` imports
    # it (aiohttp itself is the core's: the HTTP bots' client)
    port = str(free_port())
    done = tricktable_without(["aiohttp_jinja2"], "tui", "--serve", "--port", port, cwd=tmp_path)
    needs_extra(done, "tui", "tui")
    assert "no module named 'aiohttp_jinja2'" in done.stderr


# ------------------------------------------------------------------------------- the split


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _extra_of(module: str) -> str | None:
    found = [p for p in EXTRA_OF if module == p or module.startswith(p + ".")]
    return EXTRA_OF[max(found, key=len)] if found else None


def _top_imports(module: str, path: Path) -> Iterator[str]:
    """The absolute module names ``path`` imports at its top (what importing it runs: under
    ``try`` and ``if`` too, not under ``if TYPE_CHECKING``, not in functions)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def walk(body: list[ast.stmt]) -> Iterator[str]:
        for node in body:
            if isinstance(node, ast.Import):
                yield from (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                yield base
                yield from (f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If):
                test = node.test
                checking = getattr(test, "id", None) == "TYPE_CHECKING" or (
                    getattr(test, "attr", None) == "TYPE_CHECKING"
                )
                yield from walk(node.orelse) if checking else walk(node.body + node.orelse)
            elif isinstance(node, ast.Try):
                yield from walk(node.body + node.orelse + node.finalbody)
                for handler in node.handlers:
                    yield from walk(handler.body)
            elif isinstance(node, ast.With | ast.ClassDef):
                yield from walk(node.body)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")).body)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_a_core_module_imports_at_its_top_only_the_core() -> None:
    modules = _modules()
    allowed = core_names()
    wrong, used = [], set()
    for module, path in modules.items():
        if _extra_of(module) is not None:
            continue
        for name in _top_imports(module, path):
            top = name.partition(".")[0]
            if top == "tricktable":
                if name in modules and _extra_of(name) is not None:
                    wrong.append(f"{module} imports {name}, of the {_extra_of(name)} extra")
            elif top not in allowed:
                wrong.append(f"{module} imports {top}, which no core dependency installs")
            else:
                used |= distributions_of().get(top, set())
    assert not wrong, "\n".join(sorted(set(wrong)))
    # and every core dependency is one the core imports: none is there for an extra's sake
    core = {canonicalize_name(r.name) for r in requirements()}
    assert core <= used, f"core dependencies no core module imports: {sorted(core - used)}"


def test_an_extras_module_imports_at_its_top_only_what_its_extra_installs() -> None:
    modules = _modules()
    wrong = []
    for module, path in modules.items():
        extra = _extra_of(module)
        if extra is None:
            continue
        allowed = import_names(installed(requirements(extra))) | sys.stdlib_module_names
        for name in _top_imports(module, path):
            top = name.partition(".")[0]
            if top != "tricktable" and top not in allowed:
                wrong.append(f"{module} ({extra}) imports {top}, which the {extra} extra lacks")
            theirs = _extra_of(name) if name in modules else None
            if theirs is not None and theirs != extra and theirs not in _included(extra):
                wrong.append(f"{module} ({extra}) imports {name}, of the {theirs} extra")
    assert not wrong, "\n".join(sorted(set(wrong)))


def _included(extra: str) -> set[str]:
    """The extras ``extra`` brings with it (pyproject's tricktable[...] in it)."""
    out: set[str] = set()
    for text in extras()[extra]:
        req = Requirement(text)
        if canonicalize_name(req.name) == SELF:
            for inner in req.extras:
                out |= {inner} | _included(inner)
    return out


def test_all_is_every_extra_and_each_check_is_its_extras() -> None:
    parts = {e for e in extras() if e not in NOT_PARTS and e != "all"}
    assert _included("all") == parts
    assert set(MODULES) <= parts
    for extra, names in MODULES.items():
        brings = import_names(installed(requirements(extra)))
        assert set(names) <= brings, (extra, sorted(set(names) - brings))
