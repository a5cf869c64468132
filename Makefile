# Parlour: `make run` serves the browser lobby, `make test` checks everything. Both set themselves up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test setup system lint typecheck pytest bench bench-server soak fuzz clean postgres chromium docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# uv installs the packages (the dev extra in about 20 s on a fresh machine, against 40 s for pip,
# which resolves and unpacks one package after another). It looks where pip is told to look too
# (pip's find-links: a wheel on this disk, such as the CPU build of torch, comes from there), and
# should it fail, pip installs the same in its place.
UV := $(BIN)/uv
$(UV): | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'uv>=0.9,<0.14' || echo "uv is not installed: pip installs in its place"
INSTALL = links="$$($(BIN)/python -m pip config get global.find-links 2>/dev/null || echo "$$PIP_FIND_LINKS")"; \
	set -- $$(for l in $$links; do echo --find-links "$$l"; done); \
	$(UV) pip install --quiet --python $(BIN)/python "$$@" $(1) || \
	$(BIN)/python -m pip install --quiet --no-compile $(1)

# Every command here may write byte-code caches, whatever the environment says: where
# PYTHONDONTWRITEBYTECODE is set, nothing would ever write them, and every process the tests start
# (servers, Dask workers, the command line under test, each pytest worker) would compile every
# module it imports again, and rewrite every test file's asserts again. The install does not
# byte-compile (uv does not by default; pip is told --no-compile: it compiles all 12,650 files of
# the dev extra one after another, about 45 s); a module is compiled the first time a process
# imports it, once.
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml | $(UV)
	@$(call INSTALL,-e '.[serve]')
	touch $@

# The dev install adds the fourth game, Crazy Eights, a distribution of its own that registers
# through the entry-point group parlour.games like the built-in games (examples/crazy_eights).
EXAMPLE := examples/crazy_eights
$(DEV_STAMP): pyproject.toml $(EXAMPLE)/pyproject.toml | $(UV)
	@$(call INSTALL,-e '.[dev]' -e $(EXAMPLE))
	touch $(STAMP) $@

# The browser lobby and tables; terminal play is `.venv/bin/parlour play`. Another port:
# `make run PORT=8080`; friends on the network: `make run HOST=0.0.0.0`.
PORT ?= 8000
HOST ?= 127.0.0.1
run: $(STAMP)
	$(BIN)/parlour serve --host $(HOST) --port $(PORT)

# The tests need two Debian packages: PostgreSQL (the online rooms' tests run a real server of
# their own, tests/server/postgres.py) and Chromium's headless shell (the browser tests and
# benchmarks/bench_pages.py drive it with Playwright; no browser download). Whichever is missing
# is installed here, both in one apt-get (through sudo when not root and sudo exists).
SYSTEM_PACKAGES = \
	$$(ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || echo postgresql) \
	$$([ -x /usr/bin/chromium-headless-shell ] || echo chromium-headless-shell fonts-dejavu-core)
system:
	@set -- $(SYSTEM_PACKAGES); [ $$# = 0 ] || { \
		echo "Installing Debian's $$* for the tests"; \
		SUDO=; [ "$$(id -u)" = 0 ] || ! command -v sudo >/dev/null || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$$@" >/dev/null; }
postgres chromium: system

# What `make test` needs, the Python environment and the Debian packages, installed side by side.
setup:
	@$(MAKE) --no-print-directory -j2 $(DEV_STAMP) system

# The documentation site (docs/, mkdocs.yml) into site/; --strict: a broken link or anchor fails.
docs: $(DEV_STAMP)
	$(BIN)/mkdocs build --strict --quiet

# Ruff first (seconds); then the type check and the docs build start in the background, and
# pytest collects every test once in this process (-n 0), while the games' numba kernels compile
# beside it (tests/_precompile.py): this writes the byte-code of every module the tests import and
# pytest's rewritten test files, so that the workers of the run that follows each collect in a
# few seconds instead of all compiling the same files at once. Their output follows the tests';
# any of the three failing fails `make test`.
test: setup
	$(BIN)/ruff check src tests benchmarks $(EXAMPLE)
	@mkdir -p build; \
	$(BIN)/mypy --strict > build/mypy.log 2>&1 & mypy=$$!; \
	$(BIN)/mkdocs build --strict --quiet > build/docs.log 2>&1 & docs=$$!; \
	$(BIN)/python -m tests._precompile > build/precompile.log 2>&1 & kernels=$$!; \
	$(BIN)/python -m pytest --collect-only -q -n 0 > build/collect.log 2>&1; \
	wait $$kernels; \
	$(BIN)/python -m pytest; tests=$$?; \
	wait $$mypy; typed=$$?; wait $$docs; built=$$?; \
	echo "mypy --strict: $$(cat build/mypy.log)"; \
	if [ $$built = 0 ]; then echo "docs: built into site/"; else cat build/docs.log; fi; \
	[ $$tests = 0 ] && [ $$typed = 0 ] && [ $$built = 0 ]

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_beggar.py

# The rooms server under load (about 15 minutes; one case: BENCH="--case latency"):
# benchmarks/bench_server.py; figures in build/bench-server.json.
bench-server: $(DEV_STAMP) system
	$(BIN)/python benchmarks/bench_server.py $(BENCH)

# Rooms made, played to the end and left against a real server for 15 minutes (SOAK="--minutes 3"),
# memory sampled; fails when it is not flat: benchmarks/soak.py, plot in build/soak.png.
soak: $(DEV_STAMP)
	$(BIN)/python benchmarks/soak.py $(SOAK)

# The long fuzzing run (several minutes): the fuzzing suite of `make test` (tests/fuzz) with many
# more inputs per property (hypothesis profile "fuzz", registered in tests/fuzz/conftest.py).
fuzz: $(DEV_STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/fuzz -n 0 --hypothesis-show-statistics

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info
