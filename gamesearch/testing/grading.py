"""Autograding: compare a student's searcher with a reference on a suite, position by position.

A course writes a suite of :class:`Case` objects (a position, the searcher options both
searchers get, points) and calls :func:`grade` with the student's searcher class and a
reference searcher. For every case both searchers search the position; the student's
search runs in another process, stopped at the case's time limit: a student's *file*
(:class:`StudentFile`) in a sandbox (:mod:`gamesearch.testing.grading_sandbox`) that is
sent positions, never the reference's answers; a trusted class in a forked child. The
student passes a case when it finds the reference's value (exactly: expected results of a game of
chance are fractions), a move among the reference's best moves, every player's utility
when the case compares them (max^n), and (unless the case says otherwise) generates
the same positions in the same order.

A *generated position* is one the searcher reaches with ``push`` or ``advance`` on the
position it was given, written as the moves that lead to it from there, and counted
once, where first generated: the positions an autograder that counts generated states
compares. A case may compare them as a set, not at all, or require *fewer* than the
reference generates (a pruning search, such as Star1, against the full tree of
expectiminimax); and another searcher than the reference may give them (the full tree
of ``maxn:pruning=false`` for a search that must not prune, with paranoid's values).

The report names, for every case that fails, what differs: the value, the utilities,
the move, the first generated position that is not the reference's, with a hint at the
usual cause (pruning on equality, a depth counted in plies instead of rounds, values
from the wrong player's point of view). A wrong value is followed down the tree,
through chance positions, to the position where it starts, and the usual mistakes are
named there: a chance position worth the plain mean of its outcomes or the smallest
of them, a player who takes the other player's choice.

:meth:`GradeReport.as_gradescope` writes the results as Gradescope's ``results.json``
expects them (a total score and one entry per test with name, number, score, max_score,
output, visibility and tags).

The parts live in modules of their own: the data in :mod:`~gamesearch.testing.grading_model`,
the comparisons and hints in :mod:`~gamesearch.testing.grading_diagnosis`, the trusted
process's parts in :mod:`~gamesearch.testing.grading_local`, the sandbox in
:mod:`~gamesearch.testing.grading_sandbox` and its child in
:mod:`~gamesearch.testing.grading_runner`; this module grades, and names them all.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from gamesearch.errors import InvalidOptionError
from gamesearch.search.base import Searcher
from gamesearch.testing.grading_diagnosis import (
    MAX_DESCENT_SEARCHES,
    PRUNES_ON_EQUALITY,
    _move_problems,
    _state_problems,
    _tuple_text,
    _utility_problems,
    _value_problems,
    first_difference,
    pruning_rule,
)
from gamesearch.testing.grading_evaluation import (
    evaluated_position,
    grade_evaluation_check,
    horizon_problems,
    missing_problem,
)
from gamesearch.testing.grading_local import (
    configured,
    failed_run,
    load_searcher_class,
    record_search,
    reference_name,
)
from gamesearch.testing.grading_model import (
    DEFAULT_TIME_LIMIT,
    STATES_MODES,
    VISIBILITIES,
    Case,
    CaseResult,
    GradeReport,
    Line,
    Reference,
    Run,
)
from gamesearch.testing.grading_runner import recording
from gamesearch.testing.grading_sandbox import Limits, SandboxedStudent, StudentFile, game_modules

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "MAX_DESCENT_SEARCHES",
    "NETWORK_NOT_ISOLATED",
    "STATES_MODES",
    "VISIBILITIES",
    "Case",
    "CaseResult",
    "GradeReport",
    "Limits",
    "Line",
    "Reference",
    "Run",
    "SandboxedStudent",
    "StudentFile",
    "StudentSearch",
    "first_difference",
    "grade",
    "grade_case",
    "load_searcher_class",
    "record_search",
    "recording",
]

#: the student's searcher as the grader asks it (a file in the sandbox, or a trusted class)
StudentSearch = SandboxedStudent

#: the note on a report graded where the student's process kept the network
NETWORK_NOT_ISOLATED = (
    "note: the network was not isolated on this machine (no network namespace could be made)"
)


def _reference_run(reference: Reference, case: Case, who: str) -> Run:
    """Return what ``reference`` does on ``case``.

    :raises InvalidOptionError: when the reference does not take the case's options or
        fails on its position.
    """
    run = record_search(configured(reference, case.options, who), case.position, every_move=True)
    if run.error is not None:
        raise InvalidOptionError(f"{who} fails on {case.name!r}: {run.error}")
    if case.states != "none" and run.nodes > 1 and not run.generated:
        raise InvalidOptionError(
            f"{who} ({reference_name(reference)}) cannot be graded against on {case.name!r}: "
            "its search plays no move where the grader sees it, so the positions it generates "
            'are unknown; compare values and moves only (states = "none"), or take a '
            "textbook-* reference"
        )
    if case.utilities and run.utilities is None:
        raise InvalidOptionError(f"{who} gives no utilities to compare on {case.name!r}")
    return run


def _generated_problems(
    case: Case, expected: Run, found: Run, rule: str | None = None
) -> list[str]:
    """Return what differs in the positions ``found`` generated on ``case`` from ``expected``'s
    (``rule``: how the searcher whose positions they are prunes, see :func:`pruning_rule`)."""
    problems = _state_problems(case.position, expected, found, case.states, case.options, rule)
    if (
        case.states_reference is not None
        and problems
        and problems[-1].startswith(PRUNES_ON_EQUALITY)
    ):
        # the positions are a search's that does not prune: the usual hint does not apply
        problems[-1] = (
            f"the search skips positions {reference_name(case.states_reference)} generates: "
            "this test asks for every one of them (no pruning)"
        )
    return problems


def _generating_run(case: Case, reference: Reference, expected: Run) -> tuple[Run, str | None]:
    """Return the run whose generated positions ``case`` compares (``expected``, the
    reference's, unless the case names another searcher for them) and how that searcher
    prunes (:func:`pruning_rule`).

    :raises InvalidOptionError: when that searcher cannot search the case.
    """
    full, whose = expected, reference
    if case.states_reference is not None and case.states != "none":
        whose = case.states_reference
        full = _reference_run(whose, case, "the reference of the generated positions")
    return full, pruning_rule(configured(whose, case.options, "the reference"))


def grade_case(
    case: Case, student: SandboxedStudent | type[Searcher], reference: Reference
) -> CaseResult:
    """Return how ``student`` (a trusted searcher class, searched with in a child forked for
    it, or a :class:`SandboxedStudent`) does on ``case`` against ``reference`` (the case's
    own reference instead, when it has one).

    Both get the case's options (a spec's own options stay, the case's are added).

    :raises InvalidOptionError: when the reference does not take the case's options, or
        fails on its position.
    """
    if isinstance(student, type):
        session = SandboxedStudent(student)
        try:
            return grade_case(case, session, reference)
        finally:
            session.close()
    if case.checks_evaluation:
        return grade_evaluation_check(case, student)
    reference = case.reference if case.reference is not None else reference
    position, session = case.position, student
    if case.evaluation is None:
        expected = _reference_run(reference, case, "the reference")
        full, rule = _generating_run(case, reference, expected)
        limit = case.student_time_limit(expected.seconds)
    else:  # the student's search first: the reference takes its evaluation's values
        limit = case.time_limit
    found = session.isolated(
        lambda: session.search(position, case.options, limit, evaluation=case.evaluation),
        limit,
        failed_run(limit),
    )

    def result(score: float, output: str) -> CaseResult:
        return CaseResult(
            case.name,
            score,
            case.max_score,
            output,
            score == case.max_score,
            visibility=case.visibility,
            tags=case.tags,
            seconds=found.seconds,
            printed=found.printed,
        )

    if found.error is not None:
        return result(0.0, found.error)
    if case.evaluation is not None:
        evaluated, missing = evaluated_position(position, found.evaluations or ())
        given = attrs.evolve(case, position=evaluated)
        expected = _reference_run(reference, given, "the reference")
        full, rule = _generating_run(given, reference, expected)
        horizon = horizon_problems(case, found)
        horizon += [missing_problem(case, found, missing)] if missing and not horizon else []
        if horizon:
            return result(0.0, "; ".join(horizon))
    problems = _value_problems(expected, found)
    values_differ = bool(problems)
    # a horizon in rounds has no smaller step, and in a game of utilities a search from
    # another player's turn answers for that player
    if (
        problems
        and "rounds" not in case.options
        and not position.rules.utilities
        and case.evaluation is None  # (the descent's reference has the game's own evaluation)
    ):
        root_values = (found.value, expected.value)
        where = session.isolated(
            lambda: first_difference(
                session, reference, position, case.options, values=root_values
            ),
            case.time_limit,
            lambda reason: None,
        )
        problems += [where] if where else []
    if case.utilities:
        utility_problems = _utility_problems(position, expected, found)
        values_differ = values_differ or (bool(utility_problems) and found.utilities is not None)
        problems += utility_problems
    # the levels of partial credit: the value (and utilities), then the move, then the
    # positions generated
    value_problems = list(problems)
    move_problems = _move_problems(position, expected, found)
    problems += move_problems + _generated_problems(case, full, found, rule)
    if (
        values_differ
        and position.rules.utilities
        and full.generated == found.generated
        and case.states != "none"
    ):
        problems.append(
            "the positions are the reference's but not the values: does each player take the "
            "largest "
            "or the smallest value as it should, of the right player's utility?"
        )
    if problems:
        credit = 0.0
        if case.partial_credit and not value_problems:
            levels = 2 if case.states == "none" else 3
            credit = case.max_score * (1 if move_problems else 2) / levels
        return result(credit, "; ".join(problems))
    move = "none" if found.move is None else position.format_move(found.move)
    utilities = (
        ""
        if not case.utilities
        else f", utilities {_tuple_text(position, expected.utilities or ())}"
    )
    answer = f"value {found.value}{utilities}, move {move}"
    if case.states == "fewer":
        output = (
            f"{answer}: as the reference; {len(found.generated)} positions generated, fewer than "
            f"the reference's {len(full.generated)}"
        )
    else:
        states = "" if case.states == "none" else f", {len(found.generated)} positions generated"
        output = f"{answer}{states}: as the reference"
    return result(case.max_score, output)


def grade(
    student: type[Searcher] | StudentFile,
    cases: Iterable[Case],
    reference: Reference,
    *,
    limits: Limits | None = None,
) -> GradeReport:
    """Return the report of ``student`` against ``reference`` on every case.

    ``student`` is a trusted searcher class, searched with in a child forked for it, or a
    student's file (:class:`StudentFile`), graded in the sandbox with ``limits`` (the
    defaults of :class:`Limits` without): a file that cannot be imported fails every
    case with the reason, and the report notes a network that could not be taken away.

    :raises InvalidOptionError: when the reference cannot search a case.
    """
    cases = list(cases)
    sandbox = SandboxedStudent(
        student,
        limits or Limits(),
        preload=game_modules(case.position for case in cases),
        cpu_seconds=2 * sum(case.time_limit for case in cases) + 5,
    )
    try:
        results = tuple(grade_case(case, sandbox, reference) for case in cases)
    finally:
        sandbox.close()
    notes = (NETWORK_NOT_ISOLATED,) if sandbox.network_isolated is False else ()
    return GradeReport(results, notes)
