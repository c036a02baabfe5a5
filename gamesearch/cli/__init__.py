"""The ``gamesearch`` command.

Each built-in subcommand is a module of this package with a ``register(subparsers)``
function, named in :data:`COMMANDS` with its one-line help (the helpers they share are
in modules whose names start with ``_``). Plugins add theirs with the
``gamesearch_register_commands`` hook. Every error the user can cause ends in one line
on stderr and exit status 2.

Start-up is lazy: ``gamesearch --help``, ``--version`` and a usage error import no
subcommand module but the one named, and no plugin unless the command line names a
command that is not built in (a plugin's) or asks for the plugins' commands.
"""

from __future__ import annotations

import argparse
import importlib
import os
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

#: the built-in commands and their one-line help: ``gamesearch --help`` lists them without
#: importing them; command NAME is the module ``gamesearch.cli.NAME``, imported when it runs
#: (a test checks that each module's own parser gives the same help)
COMMANDS = {
    "analyze": "analyse a position: value, best moves, each move's value, statistics",
    "batch": "search every position of a file on local processes or a Dask cluster; "
    "results stored, resumable",
    "compare": "compare searchers on a position: value, agreement, nodes, cut-offs, time; plots",
    "data": "download the reference data sets that plugins publish (such as Pons' Connect "
    "Four sets)",
    "games": "list registered games and searchers with their options",
    "grade": "grade a student's searcher against a reference: values, moves, generated positions",
    "match": "play a match between two searchers: wins, draws, losses, nodes and time per move",
    "perft": "count the move sequences of a given length: a check of a game's move generation",
    "play": "play a game in the terminal against a searcher, or watch two searchers play",
    "serve": "play any game against any searcher in the browser, and watch the search",
    "solve": "solve a game strongly: every reachable position's exact value, into a file",
    "tactics": "run searchers on a test suite of positions with known best moves: how many "
    "each solves",
    "tournament": "round robin between searchers: wins/draws/losses, Elo ratings, time and nodes",
    "tree": "draw the search tree: each node's move, window on entry, value, pruned moves",
}
#: what ``gamesearch --help`` says of the commands plugins add (it loads no plugin)
PLUGIN_COMMANDS_HINT = (
    "Installed plugins may add commands of their own: `gamesearch --plugin-commands` "
    "lists them, and each takes --help too."
)


class OneLineErrorParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line naming ``--help`` and exit with status 2."""
        self.exit(EXIT_USAGE, f"gamesearch: error: {message} (see '{self.prog} --help')\n")


def version() -> str:
    """Return the installed distribution's version, or a sentence saying it is not installed."""
    import importlib.metadata

    try:
        return importlib.metadata.version("gamesearch")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(version unknown: the package is not installed)"


class _VersionAction(argparse.Action):
    """``--version``: print the version and exit (read from the metadata only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"gamesearch {version()}")
        parser.exit()


class _PluginCommandsAction(argparse.Action):
    """``--plugin-commands``: list the commands the installed plugins add, and exit."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        listing = OneLineErrorParser(prog="gamesearch")
        subparsers = listing.add_subparsers(metavar="COMMAND")
        _list_built_in(subparsers)  # (a plugin's command of a built-in name fails loudly)
        added = add_plugin_commands(subparsers)
        if not added:
            print("the installed plugins add no commands")
            parser.exit()
        width = max(len(name) for name in added)
        print("commands that plugins add:")
        for action in subparsers._choices_actions:
            if action.dest in added:
                print(f"  {action.dest:<{width}}  {action.help or ''}")
        parser.exit()


def _list_built_in(
    subparsers: argparse._SubParsersAction[OneLineErrorParser], *, but: str | None = None
) -> None:
    """Add every built-in command to ``subparsers``: the one named ``but`` whole (its module
    imported), the others by name and help only."""
    for name, help_text in COMMANDS.items():
        if name == but:
            importlib.import_module(f"{__name__}.{name}").register(subparsers)
        else:  # listed only: nothing else of it is needed to parse this command line
            subparsers.add_parser(name, help=help_text, add_help=False)


def command_named(argv: Sequence[str]) -> str | None:
    """Return the command ``argv`` names (its first word that is not an option), or ``None``."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Return the argument parser for the command line ``argv``: every built-in command
    listed, and registered whole the one ``argv`` names; the plugins' commands too when
    ``argv`` names a command that is not built in. Without ``argv``: every command,
    the plugins' included, registered whole.

    :raises DuplicateNameError: when a plugin's command has a built-in command's name.
    """
    named = None if argv is None else command_named(argv)
    parser = OneLineErrorParser(
        prog="gamesearch",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    parser.add_argument(
        "--plugin-commands",
        action=_PluginCommandsAction,
        help="list the commands the installed plugins add, and exit",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    if argv is None:
        for name in COMMANDS:
            importlib.import_module(f"{__name__}.{name}").register(subparsers)
    else:
        _list_built_in(subparsers, but=named)
    if argv is None or (named is not None and named not in COMMANDS):
        added = add_plugin_commands(subparsers)
        if added:
            parser.epilog = f"commands that plugins add: {', '.join(added)}"
    else:
        parser.epilog = PLUGIN_COMMANDS_HINT
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
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
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
