# Two commands do all the set-up: each creates .venv and installs into it when needed.
#   make run                                  # gamesearch analyze tictactoe
#   make run ARGS="analyze tictactoe --json"  # any gamesearch command line
#   make test                                 # the whole test suite
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
ARGS ?= analyze tictactoe

.PHONY: run test clean

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/gamesearch $(ARGS)

test: $(STAMP)
	$(VENV)/bin/python -m pytest

clean:
	rm -rf $(VENV)
