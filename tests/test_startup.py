"""Start-up is lazy: `--help`, `--version` and a usage error import only what they need."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import subprocess
import sys

import pytest

import gamesearch
import gamesearch.cli
from gamesearch.cli import COMMANDS

#: a fresh interpreter runs the command line and prints the modules it imported
PROBE = """
import json, sys
from gamesearch.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

#: what no command line that only parses needs: the search machinery, the plugins, rich
HEAVY = (
    "rich",
    "pluggy",
    "gamesearch.plugins",
    "gamesearch.game",
    "gamesearch.search",
    "gamesearch.views",
    "gamesearch_games",
)


def imported(*argv: str) -> tuple[set[str], str]:
    """Return the modules ``gamesearch argv`` imports, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    *_, modules = done.stderr.strip().splitlines()
    return set(json.loads(modules)), done.stdout + done.stderr


def loaded(modules: set[str], prefix: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for module in modules)


def built_in_modules() -> set[str]:
    return {f"gamesearch.cli.{name}" for name in COMMANDS}


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["--bogus"], []])
def test_the_top_level_help_version_and_usage_errors_import_no_command_and_no_plugin(
    argv: list[str],
) -> None:
    modules, _ = imported(*argv)
    assert not {prefix for prefix in HEAVY if loaded(modules, prefix)}
    assert not built_in_modules() & modules


def test_the_help_lists_every_built_in_command_without_importing_it() -> None:
    modules, printed = imported("--help")
    for name, help_text in COMMANDS.items():
        assert name in printed and help_text[:40] in " ".join(printed.split())
    assert "--plugin-commands" in printed and not built_in_modules() & modules


@pytest.mark.parametrize(
    "argv", [["analyze", "--help"], ["analyze"], ["analyze", "tictactoe", "--depth", "x"]]
)
def test_a_commands_help_and_usage_errors_import_that_command_alone(argv: list[str]) -> None:
    modules, printed = imported(*argv)
    assert "gamesearch.cli.analyze" in modules
    assert not (built_in_modules() - {"gamesearch.cli.analyze"}) & modules
    assert not {prefix for prefix in HEAVY if loaded(modules, prefix)}
    assert "gamesearch analyze" in printed  # its usage, or an error naming its --help


def test_a_command_that_is_not_built_in_loads_the_plugins_to_find_it() -> None:
    modules, printed = imported("solve-bench", "--help")
    assert loaded(modules, "gamesearch_games") and "usage: gamesearch solve-bench" in printed


def test_the_table_of_commands_is_every_command_module_with_its_own_help() -> None:
    modules = {
        info.name
        for info in pkgutil.iter_modules(gamesearch.cli.__path__)
        if not info.name.startswith("_")
        and hasattr(importlib.import_module(f"gamesearch.cli.{info.name}"), "register")
    }
    assert modules == set(COMMANDS)
    for name, help_text in COMMANDS.items():
        subparsers = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"gamesearch.cli.{name}").register(subparsers)
        (action,) = subparsers._choices_actions
        assert (action.dest, action.help) == (name, help_text)


def test_every_public_name_of_the_package_is_there_when_first_used() -> None:
    names = set(dir(gamesearch))
    for name in gamesearch.__all__:
        assert name in names
        home = importlib.import_module(gamesearch._HOMES[name])
        assert getattr(gamesearch, name) is getattr(home, name)
    with pytest.raises(AttributeError, match="has no attribute 'Nonesuch'"):
        _ = gamesearch.Nonesuch  # type: ignore[attr-defined]
