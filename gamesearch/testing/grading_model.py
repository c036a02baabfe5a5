"""The grader's data: a test (:class:`Case`), what a searcher did on it (:class:`Run`), how
the student did (:class:`CaseResult`) and a whole report (:class:`GradeReport`), with
Gradescope's ``results.json`` form of it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import attrs

from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.search.base import Searcher

#: how the generated positions are compared: in order, as a set, fewer of them (a
#: pruning search against the full tree), or not at all
STATES_MODES = ("sequence", "set", "fewer", "none")
#: the time limit of a case when none is given, in seconds
DEFAULT_TIME_LIMIT = 10.0
#: the shortest time limit a ``time_factor`` gives, in seconds (starting a search in the
#: sandbox costs some)
SHORTEST_STUDENT_LIMIT = 1.0
#: when Gradescope shows a student a test (or the grader's output): Gradescope's words
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")

T = TypeVar("T")
#: a reference: a searcher spec (``"textbook-alphabeta:prune_on_equality=false"``) or class
Reference = str | type[Searcher]

#: a generated position: the moves that lead to it from the searched position
Line = tuple[Hashable, ...]


def _as_tuple(tags: Iterable[str]) -> tuple[str, ...]:
    return tuple(tags)


def _as_dict(options: Mapping[str, Any]) -> dict[str, Any]:
    return dict(options)


@attrs.frozen
class Case:
    """One test of a suite: a position, the options both searchers get, and its points."""

    name: str
    position: Game[Any]
    #: searcher options given to both searchers (``depth``, ``rounds``, ...)
    options: dict[str, Any] = attrs.field(factory=dict, converter=_as_dict)
    max_score: float = 1.0
    #: how generated positions are compared: ``sequence``, ``set``, ``fewer`` or ``none``
    states: str = attrs.field(default="sequence")
    time_limit: float = DEFAULT_TIME_LIMIT  #: seconds the student's search may take
    #: this case's reference, when it is not the suite's (a searcher spec or class)
    reference: Reference | None = None
    #: compare the whole utility tuple too (max^n), not only the root mover's utility
    utilities: bool = False
    #: the searcher whose generated positions are compared, when it is not the
    #: reference (``maxn:pruning=false`` for the full tree of a search that must not prune)
    states_reference: Reference | None = None

    #: when Gradescope shows the student this test: one of :data:`VISIBILITIES`
    visibility: str = attrs.field(default="visible")
    #: Gradescope's labels of the test (the concepts it tests)
    tags: tuple[str, ...] = attrs.field(default=(), converter=_as_tuple)
    #: give part of the points to a search that is right only in part: a third for the
    #: value, two thirds for the value and the move, all for the generated positions too
    #: (halves when the test compares no positions); off: all or nothing
    partial_credit: bool = False
    #: the student's evaluation graded with this test: a function of the student's file
    #: (``my_evaluation``), which the student's search calls at its horizon; the reference
    #: searches with the values it returned there (see
    #: :mod:`~gamesearch.testing.grading_evaluation`)
    evaluation: str | None = None
    #: with ``evaluation``: the sign the evaluation must give the position (+1, -1), when
    #: one side is plainly ahead; no search then
    sign: int | None = None
    #: with ``evaluation``: a position the evaluation must score as it scores this one (its
    #: mirror image); no search then
    same_as: Game[Any] | None = None
    #: the student's time limit as a multiple of the reference's time on the test (at
    #: least :data:`SHORTEST_STUDENT_LIMIT`, at most ``time_limit``); ``None``: ``time_limit``
    time_factor: float | None = None

    def student_time_limit(self, reference_seconds: float) -> float:
        """Return the seconds the student's search may take, the reference having taken
        ``reference_seconds``."""
        if self.time_factor is None:
            return self.time_limit
        relative = max(SHORTEST_STUDENT_LIMIT, self.time_factor * reference_seconds)
        return round(min(self.time_limit, relative), 3)

    @visibility.validator
    def _check_visibility(self, attribute: Any, value: str) -> None:
        if value not in VISIBILITIES:
            raise InvalidOptionError(
                f"'visibility' must be one of {', '.join(VISIBILITIES)}: {value!r}"
            )

    @states.validator
    def _check_states(self, attribute: Any, value: str) -> None:
        if value not in STATES_MODES:
            raise InvalidOptionError(
                f"'states' must be one of {', '.join(STATES_MODES)}: {value!r}"
            )

    @property
    def checks_evaluation(self) -> bool:
        """Return whether the test asks the student's evaluation of positions (no search)."""
        return self.sign is not None or self.same_as is not None

    def __attrs_post_init__(self) -> None:
        if self.checks_evaluation and self.evaluation is None:
            raise InvalidOptionError("'sign' and 'same_as' check an 'evaluation': name it")
        if self.sign is not None and (isinstance(self.sign, bool) or self.sign not in (1, -1)):
            raise InvalidOptionError(f"'sign' must be 1 or -1: {self.sign!r}")
        if self.time_factor is not None and not self.time_factor > 0:
            raise InvalidOptionError(f"'time_factor' must be > 0: {self.time_factor!r}")
        if not self.time_limit > 0:
            raise InvalidOptionError(f"'time_limit' must be > 0 seconds: {self.time_limit!r}")
        if self.max_score < 0:
            raise InvalidOptionError(f"'max_score' must be >= 0: {self.max_score!r}")


@attrs.frozen
class Run:
    """What one searcher did on one case: its answer and the positions it generated."""

    value: int | Fraction | None
    move: Hashable | None
    best_moves: tuple[Hashable, ...]
    generated: tuple[Line, ...]
    nodes: int
    seconds: float
    error: str | None = None  #: why there is no answer (an exception, a time limit)
    #: one utility per player, when the searcher gave them
    utilities: tuple[int | Fraction, ...] | None = None
    #: the value the search gave each move, when it was asked to
    move_values: tuple[tuple[Hashable, Any], ...] | None = None
    #: what the student's code printed during the search (truncated)
    printed: str = ""
    #: each call of the student's evaluation, when the case grades one: the position (the
    #: moves that lead to it) and the value returned
    evaluations: tuple[tuple[Line, int], ...] | None = None


@attrs.frozen
class CaseResult:
    """How the student did on one case."""

    name: str
    score: float
    max_score: float
    output: str  #: what was compared, and what differs
    passed: bool
    visibility: str = "visible"  #: when Gradescope shows it (see :data:`VISIBILITIES`)
    tags: tuple[str, ...] = ()
    seconds: float = 0.0  #: how long the student's search took
    printed: str = ""  #: what the student's code printed during the test (truncated)

    def gradescope_output(self) -> str:
        """Return the test's output as the student reads it: what differs, then what the
        student's code printed."""
        if not self.printed:
            return self.output
        return f"{self.output}\n\nYour code printed:\n{self.printed}"


@attrs.frozen
class GradeReport:
    """The results of a suite, case by case."""

    results: tuple[CaseResult, ...]
    #: notes on how the grading ran (a network left open, for one), shown with the score
    notes: tuple[str, ...] = ()

    @property
    def score(self) -> float:
        """Return the points scored."""
        return sum(result.score for result in self.results)

    @property
    def max_score(self) -> float:
        """Return the points there are."""
        return sum(result.max_score for result in self.results)

    @property
    def first_failure(self) -> CaseResult | None:
        """Return the first case the student failed, or ``None`` when every case passed."""
        return next((result for result in self.results if not result.passed), None)

    def summary(self) -> str:
        """Return one line: the score and the name of the first case that failed, if any."""
        passed = sum(result.passed for result in self.results)
        points = f"{_points(self.score)} of {_points(self.max_score)} points"
        line = f"{points}, {passed} of {len(self.results)} tests passed"
        failure = self.first_failure
        return line if failure is None else f"{line}; first difference in {failure.name!r}"

    def as_gradescope(
        self, *, stdout_visibility: str = "hidden", numbers: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """Return the results as Gradescope's ``results.json`` data: the score, the run's
        ``execution_time``, ``stdout_visibility`` (of the autograder's own output) and one
        entry a test with its ``number`` (``numbers``, else 1, 2, ...), ``visibility``,
        ``tags`` and output (what the student's code printed included, truncated)."""
        output = "\n".join((self.summary(), *self.notes))
        return {
            "score": self.score,
            "execution_time": round(sum(result.seconds for result in self.results), 3),
            "output": output,
            "stdout_visibility": stdout_visibility,
            "tests": [
                {
                    "name": result.name,
                    "number": str(index + 1) if numbers is None else numbers[index],
                    "score": result.score,
                    "max_score": result.max_score,
                    "status": "passed" if result.passed else "failed",
                    "output": result.gradescope_output(),
                    "visibility": result.visibility,
                    "tags": list(result.tags),
                }
                for index, result in enumerate(self.results)
            ],
        }


def _points(value: float) -> str:
    return f"{value:g}"
