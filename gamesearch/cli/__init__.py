"""The ``gamesearch`` command.

Each built-in subcommand is a module of this package with a ``register(subparsers)``
function; modules are found by name, so adding a command is adding a module (the
helpers they share are in modules without that function). Plugins
add theirs with the ``gamesearch_register_commands`` hook, and ``gamesearch --help``
lists them with the rest. Every error the user can cause ends in one line on stderr
and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from gamesearch.errors import DuplicateNameError, GameSearchError, InvalidOptionError

EXIT_USAGE = 2

DESCRIPTION = """\
Adversarial game search from the command line: analyse positions, compare
searchers, play against the engine. Games and searchers come from plugins;
`gamesearch games` lists them.
"""


class OneLineErrorParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line naming ``--help`` and exit with status 2."""
        self.exit(EXIT_USAGE, f"gamesearch: error: {message} (see '{self.prog} --help')\n")


def version() -> str:
    """Return the installed distribution's version, or a sentence saying it is not installed."""
    try:
        return importlib.metadata.version("gamesearch")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(version unknown: the package is not installed)"


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every subcommand module registered."""
    parser = OneLineErrorParser(
        prog="gamesearch",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"gamesearch {version()}",
        help="print the version and exit",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        if hasattr(module, "register"):
            module.register(subparsers)
    added = add_plugin_commands(subparsers)
    if added:
        parser.epilog = f"commands that plugins add: {', '.join(added)}"
    return parser


def add_plugin_commands(subparsers: argparse._SubParsersAction[OneLineErrorParser]) -> list[str]:
    """Add every subcommand the installed plugins register after the built-in ones; return
    their names.

    :raises DuplicateNameError: when a plugin's command has a built-in command's name.
    :raises InvalidOptionError: when a plugin's ``register`` adds no parser of its name.
    """
    from gamesearch.cli._common import registry

    commands = registry().commands
    for name, register in commands.items():
        if name in subparsers.choices:
            raise DuplicateNameError(f"a plugin registers the command {name!r}, a built-in one")
        register(subparsers)
        if name not in subparsers.choices:
            raise InvalidOptionError(
                f"the plugin command {name!r} added no parser of that name: {register!r}"
            )
    return list(commands)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except GameSearchError as error:
        print(f"gamesearch: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("gamesearch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`gamesearch ... | head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
