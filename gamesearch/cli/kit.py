"""What a plugin's own subcommand uses to behave like the built-in ones.

A plugin adds a command with the ``gamesearch_register_commands`` hook; its
``register(subparsers)`` builds the parser, and its handler may use these helpers for
the project's conventions: one JSON object with ``--json``, tables on a terminal, a
progress bar and Ctrl-C stopping with what is done, usage errors as one line (raise a
:class:`~gamesearch.errors.GameSearchError`), and the batch runner's executors and
store for many positions::

    from gamesearch.cli import kit

    def register(subparsers):
        parser = subparsers.add_parser("count", help="count the positions of a file")
        kit.add_data_argument(parser, "the folder holding the data files")
        parser.set_defaults(handler=run)
"""

from __future__ import annotations

from gamesearch.cli._common import add_data_argument, integer, print_json, registry
from gamesearch.cli._output import check_at_least, console, table
from gamesearch.cli._progress import interruptible, progress, report_interruption
from gamesearch.cli.batch import add_executor_arguments, executor_from, run_with_progress

__all__ = [
    "add_data_argument",
    "add_executor_arguments",
    "check_at_least",
    "console",
    "executor_from",
    "integer",
    "interruptible",
    "print_json",
    "progress",
    "registry",
    "report_interruption",
    "run_with_progress",
    "table",
]
