"""Build: the engine's hot modules are compiled with mypyc; everything else stays Python.

Set TRICKTABLE_PURE=1 to build without compiling (the code is the same typed Python either way).
The double-dummy solver's core is a C extension (``tricktable.search.solver._dd``), optional:
where it does not build, the solver's pure-Python search answers the same. Set
TRICKTABLE_SOLVER_ONLY=1 to build that extension alone (``setup.py build_ext --inplace``).
"""

import os

from setuptools import Extension, setup

# The modules on the path every bot and every search takes: cards, actions, the trick-taking
# core, the games' rules, the match loop and the random bot. They are plain typed Python;
# mypyc makes them about four times faster.
HOT = [
    "src/tricktable/cards.py",
    "src/tricktable/engine/actions.py",
    "src/tricktable/engine/mixing.py",
    "src/tricktable/engine/trick.py",
    "src/tricktable/engine/phases.py",
    "src/tricktable/engine/tables.py",
    "src/tricktable/engine/log.py",
    "src/tricktable/engine/game.py",
    "src/tricktable/engine/state.py",
    "src/tricktable/engine/view.py",
    "src/tricktable/games/setback.py",
    "src/tricktable/games/pitch_scoring.py",
    "src/tricktable/games/hearts.py",
    "src/tricktable/games/passing.py",
    "src/tricktable/games/filippa.py",
    "src/tricktable/games/spades.py",
    "src/tricktable/games/euchre.py",
    "src/tricktable/games/tricks.py",
    "src/tricktable/games/oh_hell.py",
    "src/tricktable/games/all_fours.py",
    "src/tricktable/games/california_jack.py",
    "src/tricktable/games/cinch.py",
    "src/tricktable/games/cinch_scoring.py",
    "src/tricktable/bots/base.py",
    "src/tricktable/bots/random_bot.py",
    # The `heuristic` player and Setback's heuristic: tournaments are played by them.
    "src/tricktable/bots/family.py",
    "src/tricktable/bots/pitch_heuristic.py",
    "src/tricktable/match.py",
]

# The solver's core in plain C with the CPython API: no toolchain beyond the C compiler that
# builds CPython extensions; `optional` lets an install go on without it.
SOLVER = Extension(
    "tricktable.search.solver._dd",
    ["src/tricktable/search/solver/_dd.c"],
    extra_compile_args=["-O2"],
    optional=True,
)

ext_modules = []
if os.environ.get("TRICKTABLE_SOLVER_ONLY") == "1":
    ext_modules = [SOLVER]
elif os.environ.get("TRICKTABLE_PURE") != "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(
        ["--ignore-missing-imports", "--follow-imports=silent", *HOT], opt_level="3"
    )
    ext_modules.append(SOLVER)

setup(ext_modules=ext_modules)
