"""The files of ``gamesearch grade``: a suite of tests and an assignment of questions, read
and checked (see :mod:`gamesearch.cli.grade` for their format).
"""

from __future__ import annotations

import argparse
import math
import tomllib
from pathlib import Path
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.cli._common import parse_key_values, read_position_file, registry
from gamesearch.errors import InvalidOptionError
from gamesearch.testing.grading import DEFAULT_TIME_LIMIT, VISIBILITIES, Case

SUITE_SETTINGS = {
    "partial_credit",
    "time_factor",
    "reference",
    "time_limit",
    "states",
    "options",
    "test",
    "states_reference",
    "utilities",
    "visibility",
    "tags",
    "evaluation",
}
TEST_SETTINGS = {
    "evaluation",
    "sign",
    "same_as",
    "partial_credit",
    "time_factor",
    "name",
    "game",
    "position",
    "game_options",
    "options",
    "max_score",
    "states",
    "time_limit",
    "reference",
    "states_reference",
    "utilities",
    "visibility",
    "tags",
}
ASSIGNMENT_SETTINGS = {"title", "stdout_visibility", "question"}
QUESTION_SETTINGS = {"name", "student", "suite", "weight"}


def new_position(game: str, position: str | None, options: dict[str, Any], folder: Path) -> Any:
    """Return the position of ``game``: the start, text, or (for games whose positions are
    files) the text of a file, found from ``folder``."""
    if position is not None and capabilities.position_files(registry().game_class(game)):
        candidate = folder / position
        position = read_position_file(str(candidate) if _is_file(candidate) else position)
    return registry().new_game(game, position, **options)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def load_suite(path: Path, args: argparse.Namespace | None = None) -> tuple[str, list[Case]]:
    """Return the reference and the tests of the suite file ``path``, as :func:`grade` takes
    them; the command line's settings in ``args`` (``--reference``, ``-s``,
    ``--time-limit``), when given, win over the suite's.

    :raises InvalidOptionError: naming the file and what is wrong with it.
    """
    if args is None:
        args = argparse.Namespace(reference=None, searcher_option=[], time_limit=None)
    suite = _read_toml(path, "suite")
    _check_settings(suite, SUITE_SETTINGS, "the suite")
    tests = _tables(suite, "test", f"the suite {str(path)!r}")
    reference = args.reference or suite.get("reference", "textbook-alphabeta")
    options = {**_table(suite, "options", "the suite"), **parse_key_values(args.searcher_option)}
    cases = []
    for number, test in enumerate(tests, 1):
        where = f"test {number}" + (
            f" ({test['name']!r})" if isinstance(test.get("name"), str) else ""
        )
        _check_settings(test, TEST_SETTINGS, where)
        if "game" not in test:
            raise InvalidOptionError(f"{where} has no 'game'")
        game = new_position(
            str(test["game"]),
            test.get("position"),
            _table(test, "game_options", where),
            path.parent,
        )
        same_as = test.get("same_as")
        if same_as is not None:
            same_as = new_position(
                str(test["game"]),
                _text(same_as, "same_as", where),
                _table(test, "game_options", where),
                path.parent,
            )
        time_limit = args.time_limit or test.get(
            "time_limit", suite.get("time_limit", DEFAULT_TIME_LIMIT)
        )
        try:
            case = Case(
                str(test.get("name", f"test {number}")),
                game,
                {**options, **_table(test, "options", where)},
                max_score=_number(test.get("max_score", 1), "max_score", where),
                states=str(test.get("states", suite.get("states", "sequence"))),
                time_limit=_number(time_limit, "time_limit", where),
                reference=None
                if args.reference
                else _text(test.get("reference"), "reference", where),
                utilities=_flag(
                    test.get("utilities", suite.get("utilities", False)), "utilities", where
                ),
                states_reference=_text(
                    test.get("states_reference", suite.get("states_reference")),
                    "states_reference",
                    where,
                ),
                visibility=_text(
                    test.get("visibility", suite.get("visibility", "visible")), "visibility", where
                )
                or "visible",
                tags=_tags(test.get("tags", suite.get("tags", [])), where),
                partial_credit=_flag(
                    test.get("partial_credit", suite.get("partial_credit", False)),
                    "partial_credit",
                    where,
                ),
                evaluation=_text(
                    test.get("evaluation", suite.get("evaluation")), "evaluation", where
                ),
                sign=test.get("sign"),
                same_as=same_as,
                time_factor=None
                if args.time_limit or "time_factor" not in {**suite, **test}
                else _number(
                    test.get("time_factor", suite.get("time_factor")), "time_factor", where
                ),
            )
        except InvalidOptionError as error:
            raise InvalidOptionError(f"{where}: {error}") from None
        cases.append(case)
    return str(reference), cases


def _check_settings(data: dict[str, Any], valid: set[str], where: str) -> None:
    """Check that ``data`` (a suite, a test, an assignment or a question) sets only ``valid``.

    :raises InvalidOptionError: naming the first unknown setting and the valid ones.
    """
    unknown = sorted(set(data) - valid)
    if unknown:
        raise InvalidOptionError(
            f"unknown setting {unknown[0]!r} in {where}; valid: {', '.join(sorted(valid))}"
        )


def _tables(data: dict[str, Any], key: str, where: str) -> list[Any]:
    """Return the ``[[key]]`` tables of ``data`` (a suite's tests, an assignment's questions).

    :raises InvalidOptionError: when there is none.
    """
    tables = data.get(key)
    if not isinstance(tables, list) or not tables:
        raise InvalidOptionError(f"{where} has no [[{key}]] table")
    return tables


def _text(value: Any, key: str, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InvalidOptionError(
            f'{key!r} in {where} must be text such as "paranoid:rounds=1": {value!r}'
        )
    return value


def _read_toml(path: Path, what: str) -> dict[str, Any]:
    """Return the TOML file ``path`` (a suite or an assignment, ``what``) as data.

    :raises InvalidOptionError: when it cannot be read or is not TOML.
    """
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InvalidOptionError(
            f"cannot read the {what} {str(path)!r}: {error.strerror or error}"
        ) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise InvalidOptionError(f"the {what} {str(path)!r} is not TOML: {error}") from None


def _tags(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(tag, str) for tag in value):
        raise InvalidOptionError(
            f"'tags' in {where} must be a list of text such as [\"minimax\"]: {value!r}"
        )
    return tuple(value)


def _flag(value: Any, key: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{key!r} in {where} must be true or false: {value!r}")
    return value


def _number(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidOptionError(f"{key!r} in {where} must be a number: {value!r}")
    return float(value)


def _table(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise InvalidOptionError(
            f"{key!r} in {where} must be a table such as {{ depth = 2 }}: {value!r}"
        )
    return value


# ------------------------------------------------------------------ an assignment
@attrs.frozen
class Question:
    """One question of an assignment: a student's class, a suite and its points."""

    name: str
    student: str  #: ``FILE.py:Class``, the file in the submission's folder
    suite: Path
    weight: float | None  #: the question's points in all (``None``: the suite's own)


def load_assignment(path: Path) -> tuple[str, str, list[Question]]:
    """Return the title, the ``stdout_visibility`` and the questions of an assignment file.

    :raises InvalidOptionError: naming the file and what is wrong with it.
    """
    data = _read_toml(path, "assignment")
    _check_settings(data, ASSIGNMENT_SETTINGS, "the assignment")
    questions = _tables(data, "question", f"the assignment {str(path)!r}")
    visibility = _text(
        data.get("stdout_visibility", "hidden"), "stdout_visibility", "the assignment"
    )
    if visibility not in VISIBILITIES:
        raise InvalidOptionError(
            f"'stdout_visibility' must be one of {', '.join(VISIBILITIES)}: {visibility!r}"
        )
    found = []
    for number, question in enumerate(questions, 1):
        where = f"question {number}"
        _check_settings(question, QUESTION_SETTINGS, where)
        for key in ("student", "suite"):
            if not isinstance(question.get(key), str):
                raise InvalidOptionError(f"{where} needs {key!r} (text)")
        file_name, colon, class_name = question["student"].rpartition(":")
        if not (colon and file_name.endswith(".py") and class_name) or "/" in file_name:
            raise InvalidOptionError(
                f"'student' in {where} is written FILE.py:Class, a file of the submission's "
                f"folder: {question['student']!r}"
            )
        weight = question.get("weight")
        found.append(
            Question(
                _text(question.get("name", where), "name", where) or where,
                question["student"],
                path.parent / question["suite"],
                None if weight is None else _number(weight, "weight", where),
            )
        )
    return str(data.get("title", path.stem)), str(visibility), found


def command_line_cases(args: argparse.Namespace) -> list[Case]:
    """Return one test a ``--position`` (the start without one), with the command line's options."""
    game_options = parse_key_values(args.option)
    options = parse_key_values(args.searcher_option)
    positions = args.position or [None]
    time_limit = DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit
    cases = []
    for number, position in enumerate(positions, 1):
        game = new_position(args.game, position, game_options, Path.cwd())
        name = (
            f"position {number}"
            if position is None or "\n" in position
            else f"position {number} ({position})"
        )
        cases.append(Case(name, game, options, time_limit=time_limit))
    return cases
