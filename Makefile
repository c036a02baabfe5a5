# Two commands do all the set-up: each creates .venv and installs into it what it needs,
# once (a stamp file records it; editing pyproject.toml installs again).
#   make run                                  # gamesearch analyze tictactoe
#   make run ARGS="analyze tictactoe --json"  # any gamesearch command line
#   make test                                 # the whole test suite, on every core
#   make test-fast                            # the fast tier: before each commit
#   make lint                                 # formatting, lint rules, types, import layers
#   make coverage                             # the fast tier's line coverage against the suite's
#   make bench                                # benchmark against the peers (installs them)
#   make bench BENCH_ARGS="--quick --json"    # any `python -m benchmarks` options
#   make docs                                 # build the documentation site into site/
# PYTEST_ARGS passes options to pytest: make test-fast PYTEST_ARGS="-k alphabeta -x"
PYTHON ?= python3
VENV := .venv
ARGS ?= analyze tictactoe
BENCH_ARGS ?=
PYTEST_ARGS ?=
# nbmake (the test extra, for `pytest --nbmake` on a notebook) is a plugin the suite does
# not use: loading it cost 0.35 s of CPU in each of a run's three processes.
PYTEST := $(VENV)/bin/python -m pytest -p no:nbmake
# The tiers (markers declared in pyproject.toml): the fast one leaves out the slow tests,
# the browser, the documentation and the builds.
FAST_TIER := not slow and not browser and not docs and not build
# ... and tries 25 examples of a property test that names no count (tests/conftest.py);
# benchmarks/tiers.py (make coverage) runs the fast tier with the same options.
FAST_OPTIONS := -m "$(FAST_TIER)" --hypothesis-profile=fast
# The Connect Four reference sets live outside the repository: tests read them only from
# $GAMESEARCH_CONNECT4_DATA (or the `gamesearch data fetch` cache) and skip without them.
# Where the workplace keeps a copy beside the checkout, the variable names it.
SHARED_CONNECT4 := $(abspath ../shared/data/connect4)
ifneq ($(wildcard $(SHARED_CONNECT4)/Test_L3_R1),)
export GAMESEARCH_CONNECT4_DATA ?= $(SHARED_CONNECT4)
endif
# Python keeps what it compiles (pytest: its rewritten test modules) in the __pycache__
# folders git ignores; an environment that sets PYTHONDONTWRITEBYTECODE made every run
# compile them all again, half the CPU of collecting the tests in each worker.
unexport PYTHONDONTWRITEBYTECODE
# -qq: no progress lines and no pip warnings about the index set-up; errors still print.
PIP := $(VENV)/bin/python -m pip install -qq --disable-pip-version-check
# The main job: the runtime and the command line's extras, nothing for the tests.
RUN_STAMP := $(VENV)/.installed-run
# The test tooling (pytest, hypothesis, mypy, Playwright, MkDocs, Jupyter) and the example plugins.
TEST_STAMP := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test test-fast lint coverage bench docs clean

$(VENV)/bin/python:
	@$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "installing gamesearch and its command-line extras into $(VENV) ..."
	@$(PIP) -e '.[cli]'
	@touch $@

$(TEST_STAMP): $(RUN_STAMP) pyproject.toml docs/examples/gamesearch-nim/pyproject.toml docs/examples/gamesearch-chess/pyproject.toml
	@echo "installing the test tools and the example plugins into $(VENV) ..."
	@$(PIP) -e '.[cli,test,pettingzoo,openspiel]'
	@$(PIP) --no-deps -e docs/examples/gamesearch-nim
	@# the chess plugin with its dependency, python-chess (GPL-3.0, as the plugin is)
	@$(PIP) -e docs/examples/gamesearch-chess
	@touch $@

run: $(RUN_STAMP)
	@$(VENV)/bin/gamesearch $(ARGS)

# Every test, one worker process per core, and the 15 slowest named at the end: 3 min 53 s
# of wall and 398 s of CPU on two idle cores (median of three runs, 4 December 2026).
test: $(TEST_STAMP)
	$(PYTEST) -n auto --durations=15 $(PYTEST_ARGS)

# The contributor's loop, meant to stay under a minute on two idle cores: 42 s of wall
# and 74 s of CPU (user + system, with the processes the tests start; median of three
# idle runs, 4 December 2026), against 186 s of CPU before wave 3's cuts.
test-fast: $(TEST_STAMP)
	$(PYTEST) -n auto $(FAST_OPTIONS) $(PYTEST_ARGS)

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/python -m mypy
	$(VENV)/bin/lint-imports --no-cache

# Lines the fast tier covers, against the lines the whole suite covers (coverage.py).
coverage: $(TEST_STAMP)
	$(VENV)/bin/python -m benchmarks.tiers

docs: $(TEST_STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/python -m mkdocs build --strict

# The peers come from the bench extra, except aima3, aima (aima-python's newer package, with
# expect_minmax) and sunfish: they install only without their deps (aima declares Python < 3.11).
$(BENCH_STAMP): $(TEST_STAMP) pyproject.toml
	@echo "installing the benchmark's peer libraries into $(VENV) ..."
	@$(PIP) -e '.[cli,test,bench,plot]'
	@$(PIP) --no-deps aima3
	@$(PIP) --no-deps --ignore-requires-python aima==2024.9.28
	@# sunfish (benchmarks strength chess, gamesearch_chess.versus) pins python-chess 1.9.4,
	@# which the chess plugin is too new for; its UCI engine (sunfish-uci) does not import it
	@$(PIP) --no-deps 'sunfish>=2026.1'
	@touch $@

bench: $(BENCH_STAMP)
	$(VENV)/bin/python -m benchmarks $(BENCH_ARGS)

clean:
	rm -rf $(VENV)
