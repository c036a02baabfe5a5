"""Grading a student's own evaluation function: at the horizon of their search, and alone.

A test that names the student's ``evaluation`` (a function of the student's file, such
as ``my_evaluation(game) -> int``) is graded in one of two ways:

- with a search (the usual test): the student's depth-limited search runs in the
  sandbox, where every call of the evaluation is recorded (the position, as the moves
  that lead to it, and the value; :func:`~gamesearch.testing.grading_runner.search`).
  Here, the grader checks each call (:func:`horizon_problems`: an unfinished position,
  reached with no depth left, a value inside the game's evaluation bound, the same
  value for the same position), then searches with the reference on a copy of the
  position whose ``evaluate`` answers the recorded values (:func:`evaluated_position`):
  the student's own numbers, never the student's code, which is not imported here. The
  two searches are then compared as any test's are: value, move, generated positions;
- alone (:func:`grade_evaluation_check`): the sandbox is asked the evaluation of a
  position and, where the suite says so, of its mirror image (``same_as``: the same
  value) or with the sign it must have (``sign``: a side plainly ahead).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.testing.grading_model import Case, CaseResult, Line, Run
from gamesearch.testing.grading_runner import _line_text
from gamesearch.testing.grading_sandbox import SandboxedStudent


def evaluated_position(
    position: Game[Any], evaluations: Iterable[tuple[Line, int]]
) -> tuple[Game[Any], list[Line]]:
    """Return a copy of ``position`` whose ``evaluate`` answers the values recorded in
    ``evaluations`` (each position by the moves from ``position``), and the list it fills
    with each position asked that has none (valued 0 meanwhile)."""
    values = dict(evaluations)
    missing: list[Line] = []
    base = type(position)
    start = len(position.history)

    def evaluate(self: Game[Any]) -> int:
        line = tuple(self.history[start:])
        if line not in values:
            missing.append(line)
            return 0
        return values[line]

    twin = position.copy()
    # (the game's own module: capabilities take a framework module's evaluate for none)
    members = {"__slots__": (), "__module__": base.__module__, "evaluate": evaluate}
    twin.__class__ = type(f"Evaluated{base.__name__}", (base,), members)
    return twin, missing


def horizon_problems(case: Case, found: Run) -> list[str]:
    """Return what is wrong with the calls of the student's evaluation in ``found``, the
    student's search on ``case``: the first call on a finished game, before the horizon,
    out of the evaluation's bounds or giving a position another value than before."""
    name, position = case.evaluation, case.position
    depth = case.options.get("depth")
    bound = capabilities.heuristic_bound(position)
    seen: dict[Line, int] = {}
    for line, value in found.evaluations or ():
        where = _line_text(position, line)
        game = position.copy()
        try:
            for move in line:
                game.apply(move)
        except Exception:
            return [
                f"{name}() was asked to score a position the search cannot have reached ({where})"
            ]
        if game.is_over():
            return [
                f"the search called {name}() on a finished game ({where}): a finished game is "
                "scored by its result, whatever the depth left; the evaluation is for positions "
                "that are not finished"
            ]
        if depth is not None and len(line) != depth:
            return [
                f"the search called {name}() {len(line)} move{'' if len(line) == 1 else 's'} "
                f"deep ({where}), before its "
                f"horizon at depth {depth}: only a position reached with no depth left is "
                "evaluated; the others are searched"
            ]
        if not -bound < value < bound:
            return [
                f"{name}() returned {value} ({where}), outside the range of an evaluation of "
                f"this game: it must stay strictly between -{bound} and {bound}, the values "
                "of a lost and of a won game"
            ]
        if seen.setdefault(line, value) != value:
            return [
                f"{name}() scored the same position ({where}) {seen[line]} and then {value}: "
                "an evaluation gives a position the same value every time"
            ]
    return []


def missing_problem(case: Case, found: Run, missing: Sequence[Line]) -> str:
    """Return what a student reads when the reference needed the evaluation of positions
    (``missing``) the student's search (``found``) never evaluated."""
    name, where = case.evaluation, _line_text(case.position, missing[0])
    if not found.evaluations:
        return (
            f"the search never called {name}(), though the reference evaluates the position "
            f"{where} at its horizon: does the search score a position reached with no depth "
            f"left with the evaluation it is given ({name})?"
        )
    return (
        f"the reference evaluates the position {where} at its horizon, but the search never "
        f"called {name}() there ({len(set(missing))} such positions): does it evaluate every "
        "unfinished position it reaches with no depth left?"
    )


def grade_evaluation_check(case: Case, student: SandboxedStudent) -> CaseResult:
    """Return how the student's evaluation does on ``case``, a test of the evaluation alone:
    the sign it gives the position, and the same value for its mirror image."""
    name = str(case.evaluation)
    positions = [case.position] + ([case.same_as] if case.same_as is not None else [])
    values = student.evaluate(positions, name, case.time_limit)

    def result(problems: list[str], output: str) -> CaseResult:
        score = 0.0 if problems else case.max_score
        text = "; ".join(problems) if problems else output
        return CaseResult(
            case.name,
            score,
            case.max_score,
            text,
            not problems,
            visibility=case.visibility,
            tags=case.tags,
        )

    if isinstance(values, str):
        return result([values], "")
    value, text = values[0], repr(case.position.to_text())
    problems = []
    bound = capabilities.heuristic_bound(case.position)
    if not -bound < value < bound:
        problems.append(
            f"{name}() returned {value} for {text}, outside the range of an evaluation of this "
            f"game: it must stay strictly between -{bound} and {bound}"
        )
    if case.sign is not None and (value > 0) - (value < 0) != case.sign:
        ahead = capabilities.player_names(case.position)[0 if case.sign > 0 else 1]
        wanted = "positive" if case.sign > 0 else "negative"
        mover = capabilities.player_names(case.position)[case.position.to_move()]
        problems.append(
            f"{name}() gives {text} ({mover} to move) {value}, but {ahead} is plainly ahead "
            f"there: the value must be {wanted}. An evaluation is from the first player's point "
            "of view, whoever is to move"
        )
    if case.same_as is not None and values[1] != value:
        problems.append(
            f"{name}() gives {text} {value} but its mirror image {case.same_as.to_text()!r} "
            f"{values[1]}: a position and its mirror image are worth the same"
        )
    shown = "" if case.same_as is None else f", its mirror image {values[1]}"
    return result(problems, f"{name}() gives {text} {value}{shown}: as it should")
