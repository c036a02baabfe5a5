# Two commands do all the set-up: each creates .venv and installs into it when needed.
#   make run                                  # gamesearch analyze tictactoe
#   make run ARGS="analyze tictactoe --json"  # any gamesearch command line
#   make test                                 # the whole test suite
#   make bench                                # benchmark against the peers (installs them)
#   make bench BENCH_ARGS="--quick --json"    # any `gamesearch bench` options
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
ARGS ?= analyze tictactoe
BENCH_STAMP := $(VENV)/.bench-installed
BENCH_ARGS ?=

.PHONY: run test bench clean

$(STAMP): pyproject.toml docs/examples/gamesearch-nim/pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	$(VENV)/bin/python -m pip install --quiet --no-deps -e docs/examples/gamesearch-nim
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/gamesearch $(ARGS)

test: $(STAMP)
	$(VENV)/bin/python -m pytest

# The peers come from the bench extra, except aima3: it installs only without its deps.
$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(VENV)/bin/python -m pip install --quiet -e '.[test,bench,plot]'
	$(VENV)/bin/python -m pip install --quiet --no-deps aima3
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(VENV)/bin/python -m benchmarks $(BENCH_ARGS)

clean:
	rm -rf $(VENV)
