# The two set-up commands of the README: `make run` and `make test`.
# The package is installed (not editable) because mypyc compiles its hot modules: an
# installed copy can never run a stale compiled module beside an edited source file.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# every file of the package (the C solver, the web page's files and the data, not only the
# Python), so that editing any of them reinstalls
SOURCES := pyproject.toml setup.py $(shell find src -type f -not -path '*/__pycache__/*' -not -name '*.so' -not -name '*.pyc' -not -path '*.egg-info/*' 2>/dev/null)
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed
# the dev tools' exact versions, installed as constraints by `make test` (`make lock` remakes it)
LOCK := requirements-dev.lock

.PHONY: run test lint typecheck tools postgres redis chromium cairo bench lock clean

$(BIN)/python:
	@echo "Creating the virtual environment $(VENV)..."
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# build/ is wiped first: a compiled module left there from an older build would be
# packed into the wheel and shadow its source. `make run` serves, so it installs the web
# extra (docs/install.md: which command needs which extra).
$(RUN_STAMP): $(SOURCES) | $(BIN)/python
	@echo "Installing tricktable[web] into $(VENV) and compiling the engine with mypyc (about 2 minutes on 2 cores)..."
	rm -rf build
	$(BIN)/pip install --quiet '.[web]'
	touch $@

# The tests need every extra; the dev tools come at the lock's versions (-c: the lock
# constrains what is asked for, and asks for nothing more).
$(STAMP): $(SOURCES) $(LOCK) | $(BIN)/python
	@echo "Installing tricktable, every extra and the dev tools into $(VENV) and compiling the engine with mypyc (about 2 minutes on 2 cores)..."
	rm -rf build
	$(BIN)/pip install --quiet -c $(LOCK) '.[all,dev,openspiel]'
	touch $@ $(RUN_STAMP)

# The card tables in the browser on the embedded defaults: http://127.0.0.1:8000/, a SQLite
# file in the working directory (`tricktable serve --help` for the rest).
run: $(RUN_STAMP)
	$(BIN)/tricktable serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools setup.py
	$(BIN)/ruff format --check src tests benchmarks tools setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

# The example bots of other languages need Node.js and a C compiler on the machine.
tools:
	@command -v node >/dev/null 2>&1 || { apt-get update && apt-get install -y nodejs; }
	@command -v cc >/dev/null 2>&1 || { apt-get update && apt-get install -y gcc; }

# The database tests start a PostgreSQL server of their own (tests/local_postgres.py) from
# Debian's binaries; they fail, rather than skip, where those are missing.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }

# The report's browser test (tests/test_report.py) drives Debian's Chromium through Playwright;
# it fails, rather than skips, where /usr/bin/chromium is missing.
chromium:
	@test -x /usr/bin/chromium || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

# The tests of many server processes (tests/test_web_scale.py) start a Redis of their own
# (tests/local_redis.py) from Debian's redis-server; they fail, rather than skip, without it.
redis:
	@command -v redis-server >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server; }

# Avatars are rendered by CairoSVG through the system's Cairo library.
cairo:
	@ldconfig -p | grep -q 'libcairo\.so\.2' || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libcairo2; }

test: lint typecheck tools postgres redis chromium cairo
	$(BIN)/pytest -n 2 --durations=30

bench: $(RUN_STAMP)
	$(BIN)/python benchmarks/setback_speed.py

# The dev tools' lock, resolved afresh from PyPI against pyproject.toml's ranges (tools/lock_dev.py);
# commit it with what `make test` then says.
lock: $(STAMP)
	$(BIN)/python tools/lock_dev.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache src/*.egg-info
