"""What the subcommands share: game and searcher arguments, output files, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamesearch import capabilities
from gamesearch.errors import InvalidOptionError, InvalidPositionError

if TYPE_CHECKING:  # (imported when a command runs: a usage error needs none of them)
    from gamesearch.game import Game
    from gamesearch.plugins import Registry
    from gamesearch.search.base import Searcher


def __getattr__(name: str) -> Any:
    """Return ``default_registry`` (the plugins' registry, imported when first asked for).

    :raises AttributeError: for any other name the module does not have.
    """
    if name == "default_registry":
        from gamesearch.plugins import default_registry

        return default_registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def add_game_arguments(parser: argparse.ArgumentParser, *, position: bool = True) -> None:
    """Add ``GAME``, ``--option KEY=VALUE`` and (optionally) ``--position TEXT``."""
    parser.add_argument("game", metavar="GAME", help="a registered game (see `gamesearch games`)")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. -o rows=4 -o k=3 (repeatable)",
    )
    if position:
        parser.add_argument(
            "-p",
            "--position",
            metavar="TEXT",
            help="the position in the game's notation, or for games whose positions are files "
            "(tree) the file's name (default: the starting position)",
        )


def add_data_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """Add ``--data DIR``: the folder data files are looked for in (``args.data``, a
    :class:`~pathlib.Path` or ``None``)."""
    parser.add_argument("--data", type=Path, metavar="DIR", help=help)


def integer(text: str) -> int:
    """Return ``text`` read as a whole number (an argparse ``type``).

    :raises argparse.ArgumentTypeError: naming the text, for anything else.
    """
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer: {text!r}") from None


def parse_key_values(items: list[str]) -> dict[str, str]:
    """Return ``KEY=VALUE`` items as a dict.

    :raises InvalidOptionError: for an item without ``=``.
    """
    options: dict[str, str] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise InvalidOptionError(f"option {item!r} must be written KEY=VALUE")
        options[key.strip()] = value  # as written: " 3" is not a number
    return options


def registry() -> Registry:
    """Return the registry of installed plugins (``default_registry`` here, which a test
    may replace)."""
    make = globals().get("default_registry") or __getattr__("default_registry")
    return make()  # type: ignore[no-any-return]


def load_game(args: argparse.Namespace) -> Game[Any]:
    """Return the game position the arguments name.

    :raises GameSearchError: for an unknown game, a bad option or position.
    """
    options = parse_key_values(args.option)
    position = getattr(args, "position", None)
    if position is not None and capabilities.position_files(registry().game_class(args.game)):
        position = read_position_file(position)
    return registry().new_game(args.game, position, **options)


def read_position_file(position: str) -> str:
    """Return the text of the file named ``position`` when there is one, else ``position``.

    :raises InvalidPositionError: when the file cannot be read as text, or ``position`` is
        one word (a file's name) and no such file exists.
    """
    path = Path(position)
    try:
        is_file = "\n" not in position and path.is_file()
    except (OSError, ValueError):  # not a possible file name (too long, a NUL byte)
        is_file = False
    if not is_file:
        if position.strip() and len(position.split()) == 1:  # one word: meant as a file's name
            raise InvalidPositionError(
                f"no file {position!r}: give the name of a file, or the position's text"
            )
        return position
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidPositionError(f"cannot read the position file {position!r}: {error}") from None


#: the clocks ``--clock`` offers: the names of ``gamesearch.search.base.CLOCKS`` (a test ties
#: them), written out so that a command's ``--help`` imports no search machinery
CLOCK_CHOICES = ("wall", "cpu")


def add_clock_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--clock wall|cpu``: the clock every time budget of the command is measured on
    (give its value to :func:`load_searcher` as the ``clock`` option)."""
    parser.add_argument(
        "--clock",
        choices=CLOCK_CHOICES,
        help="the clock of every time budget (seconds): wall, elapsed time (the default); "
        "cpu, the processor time of the search, which a busy machine does not shorten",
    )


def spec_on_clock(spec: str, clock: str | None) -> str:
    """Return the searcher ``spec`` with its time budget measured on ``clock`` (``None``, or a
    spec that names its own clock: the spec as it is)."""
    from gamesearch.search.base import parse_searcher_spec

    if clock is None or "clock" in parse_searcher_spec(spec)[1]:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}clock={clock}"


def load_searcher(spec: str, **options: Any) -> Searcher:
    """Return the searcher ``spec`` names (``name:key=value,...``) with extra options.

    :raises GameSearchError: for an unknown searcher or a bad option.
    """
    return registry().new_searcher(
        spec, **{key: value for key, value in options.items() if value is not None}
    )


def game_default_searcher(game: Game[Any]) -> str | None:
    """Return the searcher spec the game names for analysing it, or ``None`` when it names none."""
    spec = capabilities.default_searcher(type(game))
    return spec if isinstance(spec, str) and spec.strip() else None


def default_searcher_spec(
    game: Game[Any], fallback: str, depth: int | None = None
) -> tuple[str, dict[str, Any]]:
    """Return the spec of the searcher to use when the user names none, and its depth option.

    That is the game's own searcher (:func:`game_default_searcher`), else ``fallback``; when
    a ``depth`` is given and the game's searcher takes none, ``fallback``. The options
    give the searcher its ``depth`` option.

    :raises GameSearchError: when the game names a searcher that is not registered.
    """
    for spec in (game_default_searcher(game), fallback):
        if spec is None:
            continue
        option = depth_option(registry().searcher_class(spec.partition(":")[0].strip()))
        if depth is None:
            return spec, {}
        if option is not None:
            return spec, {option: depth}
    return fallback, {"depth": depth}


def depth_option(searcher_class: type[Searcher]) -> str | None:
    """Return ``"depth"`` when the searcher stops at a depth limit (every searcher's
    option of that name, see :class:`~gamesearch.search.base.Limit`), else ``None``."""
    return "depth" if searcher_class.honours_depth else None


def check_output_file(path: str | Path, option: str = "--output") -> Path:
    """Return ``path`` once a file has been opened there for writing.

    Call it before any work starts, so that a long command does not fail at its end. The
    file is opened, not judged by its permission bits (which say yes to root where the
    system says no, as in ``/sys``): an existing file is opened to append (nothing is
    written to it), a new one is created and removed again.

    :raises InvalidOptionError: when ``path`` is a folder, its folder is missing or is a
        file, or the file cannot be opened for writing, naming the system's reason.
    """
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise InvalidOptionError(f"{option} {str(path)!r} is a folder; give a file name")
    if not folder.exists():
        raise InvalidOptionError(
            f"{option} {str(path)!r}: the folder {str(folder)!r} does not exist"
        )
    if not folder.is_dir():
        raise InvalidOptionError(f"{option} {str(path)!r}: {str(folder)!r} is a file, not a folder")
    existed = target.exists()
    try:
        with target.open("ab" if existed else "xb"):
            pass
        if not existed:
            target.unlink()
    except OSError as error:
        raise InvalidOptionError(
            f"{option} {str(path)!r} cannot be written: {error.strerror or error}"
        ) from None
    return target


def write_output(path: str | Path, text: str, option: str = "--output") -> None:
    """Write ``text`` to the file ``path`` (checked first with :func:`check_output_file`).

    :raises InvalidOptionError: when the file cannot be written, naming the reason.
    """
    target = check_output_file(path, option)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidOptionError(
            f"cannot write {option} {str(path)!r}: {error.strerror or error}"
        ) from None


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
