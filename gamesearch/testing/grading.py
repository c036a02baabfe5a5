"""Autograding: compare a student's searcher with a reference on a suite, position by position.

A course writes a suite of :class:`Case` objects (a position, the searcher options both
searchers get, points) and calls :func:`grade` with the student's searcher class and a
reference searcher. For every case both searchers search the position; the student's
search runs in a child process stopped at the case's time limit. The student passes a
case when it finds the reference's value (exactly: expected results of a game of
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
expects them (a total score and one entry per test with name, score, max_score, output).
"""

from __future__ import annotations

import importlib
import importlib.util
import multiprocessing
import sys
import threading
import time
import traceback
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import attrs

from gamesearch.errors import GameSearchError, InvalidOptionError
from gamesearch.game import Game, offers
from gamesearch.plugins import default_registry
from gamesearch.rules import CHANCE
from gamesearch.search.base import Searcher

#: how the generated positions are compared: in order, as a set, fewer of them (a
#: pruning search against the full tree), or not at all
STATES_MODES = ("sequence", "set", "fewer", "none")
#: the time limit of a case when none is given, in seconds
DEFAULT_TIME_LIMIT = 10.0

T = TypeVar("T")
#: a reference: a searcher spec (``"textbook-alphabeta:prune_on_equality=false"``) or class
Reference = str | type[Searcher]

#: a generated position: the moves that lead to it from the searched position
Line = tuple[Hashable, ...]


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

    @states.validator
    def _check_states(self, attribute: Any, value: str) -> None:
        if value not in STATES_MODES:
            raise InvalidOptionError(
                f"'states' must be one of {', '.join(STATES_MODES)}: {value!r}"
            )

    def __attrs_post_init__(self) -> None:
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


@attrs.frozen
class CaseResult:
    """How the student did on one case."""

    name: str
    score: float
    max_score: float
    output: str  #: what was compared, and what differs
    passed: bool


@attrs.frozen
class GradeReport:
    """The results of a suite, case by case."""

    results: tuple[CaseResult, ...]

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

    def as_gradescope(self) -> dict[str, Any]:
        """Return the results as Gradescope's ``results.json`` data."""
        return {
            "score": self.score,
            "output": self.summary(),
            "tests": [
                {
                    "name": result.name,
                    "score": result.score,
                    "max_score": result.max_score,
                    "status": "passed" if result.passed else "failed",
                    "output": result.output,
                }
                for result in self.results
            ],
        }


def _points(value: float) -> str:
    return f"{value:g}"


# ----------------------------------------------------------------- loading a searcher
def load_searcher_class(spec: str) -> type[Searcher]:
    """Return the searcher class ``spec`` names: ``path/to/file.py:Class`` or ``module:Class``.

    A file is imported under a name of its own, with its folder on ``sys.path`` (so it
    may import the files beside it).

    :raises InvalidOptionError: when the file, module or class is missing, the file
        cannot be imported, or the class is not a :class:`~gamesearch.Searcher`.
    """
    where, colon, class_name = spec.rpartition(":")
    if not colon or not where or not class_name:
        raise InvalidOptionError(
            f"a student searcher is written FILE.py:Class or module:Class: {spec!r}"
        )
    if where.endswith(".py") or Path(where).is_file():
        module = _import_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as error:
            raise InvalidOptionError(f"cannot import the module {where!r}: {error}") from None
    found = getattr(module, class_name, None)
    if found is None:
        raise InvalidOptionError(f"{where!r} has no class {class_name!r}")
    if not (isinstance(found, type) and issubclass(found, Searcher)):
        raise InvalidOptionError(f"{class_name!r} in {where!r} is not a Searcher class: {found!r}")
    return found


def _import_file(path: Path) -> Any:
    """Return the module the Python file ``path`` holds, imported afresh."""
    if not path.is_file():
        raise InvalidOptionError(f"no file {str(path)!r}")
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module_name = f"gamesearch_student_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InvalidOptionError(f"cannot import {str(path)!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise InvalidOptionError(
            f"importing {str(path)!r} failed: {type(error).__name__}: {error}"
        ) from None
    return module


# ------------------------------------------------------------ recording a search
def recording(game: Game[Any]) -> tuple[Game[Any], list[Line]]:
    """Return a copy of ``game`` that records every position generated on it, and the record.

    Each ``push`` (or a game's own ``advance``) appends the moves from ``game`` to the
    new position. Copies taken of the recording position (``copy()``) record nothing.
    """
    log: list[Line] = []
    base = type(game)
    start = len(game.history)

    def push(self: Game[Any], move: Hashable) -> None:
        base.push(self, move)
        log.append(tuple(self.history[start:]))

    def advance(self: Game[Any], move: Hashable) -> int | None:
        result = base.advance(self, move)
        log.append(tuple(self.history[start:]))
        return result

    def copy(self: Game[Any]) -> Game[Any]:
        twin = base.copy(self)
        twin.__class__ = base
        return twin

    members: dict[str, Any] = {"__slots__": (), "push": push, "copy": copy}
    if offers(base, "advance"):  # the default advance pushes: it is recorded there
        members["advance"] = advance
    recorder = type(f"Recorded{base.__name__}", (base,), members)
    twin = game.copy()
    twin.__class__ = recorder
    return twin, log


def record_search(searcher: Searcher, game: Game[Any]) -> Run:
    """Return what ``searcher`` answers on ``game`` (left unchanged) and the positions it generated.

    Each position counts once, where first generated: a search that looks ahead along
    a line before it searches (expectiminimax finds the probabilities' common
    denominator so) generates that line's positions again, in the order a depth-first
    search generates them first. An exception of the search is kept in
    :attr:`Run.error`, not raised.
    """
    position, log = recording(game)
    started = time.perf_counter()
    try:
        result = searcher.search(position)
    except Exception as error:  # the student's code may raise anything: report it
        reason = f"{type(error).__name__}: {error}"
        if not isinstance(error, GameSearchError):  # the framework's own errors say enough
            where = traceback.extract_tb(error.__traceback__)[-1]
            reason += f" (line {where.lineno} of {Path(where.filename).name})"
        return Run(None, None, (), tuple(log), 0, time.perf_counter() - started, reason)
    generated = tuple(dict.fromkeys(log))  # each position once, where first generated
    return Run(
        result.value,
        result.move,
        tuple(result.best_moves),
        generated,
        result.stats.nodes,
        time.perf_counter() - started,
        utilities=result.utilities,
    )


def run_with_time_limit(work: Callable[[], T], seconds: float, failed: Callable[[str], T]) -> T:
    """Return ``work()`` run in a child process, stopped after ``seconds``.

    ``failed(reason)`` is the answer when ``work`` raises, overruns its time or its
    process dies. Where processes cannot be forked, ``work`` runs in a thread instead,
    which cannot be stopped: its answer is given up after ``seconds``.
    """
    timed_out = f"timed out after {seconds:g} s"
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return _run_in_thread(work, seconds, failed(timed_out))
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, failed, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            return failed(timed_out)
        try:
            answer: T = receiver.recv()
        except EOFError:
            return failed(f"the search ended its process (exit status {child.exitcode})")
        return answer
    finally:
        receiver.close()
        if child.is_alive():
            child.terminate()
            child.join(1)
            if child.is_alive():
                child.kill()
        child.join(1)


def _child(work: Callable[[], T], failed: Callable[[str], T], sender: Any) -> None:
    """Run ``work`` in the child process and send its answer back."""
    try:
        answer = work()
    except BaseException as error:  # a student's sys.exit() or worse: say so
        answer = failed(f"{type(error).__name__}: {error}")
    try:
        sender.send(answer)
    except Exception as error:  # an answer that does not pickle
        sender.send(failed(f"the answer cannot be sent back: {error}"))
    sender.close()


def _run_in_thread(work: Callable[[], T], seconds: float, timed_out: T) -> T:
    answers: list[T] = []
    worker = threading.Thread(target=lambda: answers.append(work()), daemon=True)
    worker.start()
    worker.join(seconds)
    return answers[0] if answers else timed_out


def _failed_run(seconds: float) -> Callable[[str], Run]:
    return lambda reason: Run(None, None, (), (), 0, seconds, reason)


# ------------------------------------------------------------------ comparing
def _describe(game: Game[Any], path: Line) -> str:
    return "after " + " ".join(game.format_move(move) for move in path)


def _tuple_text(game: Game[Any], utilities: Sequence[int | Fraction]) -> str:
    return ", ".join(
        f"{name} {utility}" for name, utility in zip(game.player_names, utilities, strict=False)
    )


def _value_problems(expected: Run, found: Run) -> list[str]:
    if found.value == expected.value:
        return []
    problem = f"value {found.value}, the reference {expected.value}"
    if isinstance(found.value, float):
        problem += " (a float: keep values exact with fractions.Fraction, as a float rounds)"
    elif found.value is not None and expected.value and found.value == -expected.value:
        problem += (
            " (the opposite sign: values are from the first player's point of view, whoever is "
            "to move)"
        )
    return [problem]


def _utility_problems(game: Game[Any], expected: Run, found: Run) -> list[str]:
    assert expected.utilities is not None
    if found.utilities is None:
        return ["no utilities: give one per player in the answer (RootAnswer's utilities)"]
    if tuple(found.utilities) == tuple(expected.utilities):
        return []
    return [
        f"utilities {_tuple_text(game, found.utilities)}, the reference "
        f"{_tuple_text(game, expected.utilities)}"
    ]


def _move_problems(game: Game[Any], expected: Run, found: Run) -> list[str]:
    if found.move in expected.best_moves:
        return []
    best = ", ".join(game.format_move(move) for move in expected.best_moves)
    written = "none" if found.move is None else game.format_move(found.move)
    return [f"move {written} is not among the reference's best moves ({best})"]


def _state_problems(
    game: Game[Any], expected: Run, found: Run, mode: str, options: Mapping[str, Any] | None = None
) -> list[str]:
    wanted, got = expected.generated, found.generated
    if mode == "fewer":
        return _fewer_problems(game, wanted, got)
    if mode == "none" or (wanted == got if mode == "sequence" else set(wanted) == set(got)):
        return []
    problems = [f"{len(got)} positions generated, the reference {len(wanted)}"]
    if mode == "sequence":
        index = next(
            (i for i, (a, b) in enumerate(zip(wanted, got, strict=False)) if a != b),
            min(len(wanted), len(got)),
        )
        mine = _describe(game, got[index]) if index < len(got) else "none (the search stops)"
        theirs = (
            _describe(game, wanted[index]) if index < len(wanted) else "none (the reference stops)"
        )
        problems.append(f"generated position {index + 1} is {mine}, the reference's {theirs}")
    else:
        missing = [path for path in wanted if path not in set(got)]
        extra = [path for path in got if path not in set(wanted)]
        if missing:
            problems.append(
                f"the reference generates {_describe(game, missing[0])}, the search does not"
            )
        if extra:
            problems.append(
                f"the search generates {_describe(game, extra[0])}, the reference does not"
            )
    problems.extend(_hints(game, wanted, got, options))
    return problems


def _fewer_problems(game: Game[Any], wanted: Sequence[Line], got: Sequence[Line]) -> list[str]:
    """Return what is wrong with the positions of a search that must prune: it generates
    fewer than the reference (the full tree), and none the reference does not."""
    within = set(wanted)
    extra = next((path for path in got if path not in within), None)
    if extra is not None:
        return [f"the search generates {_describe(game, extra)}, the reference does not"]
    if len(got) < len(wanted):
        return []
    problem = (
        f"{len(got)} positions generated, the reference {len(wanted)}: "
        "a pruning search generates fewer"
    )
    if game.rules.chance:
        problem += (
            " (at a chance position, stop once the outcomes left cannot bring the mean back "
            "inside the window)"
        )
    return [problem]


#: how the hint at a search that skips positions begins
PRUNES_ON_EQUALITY = "the search skips positions the reference generates"


def _hints(
    game: Game[Any],
    wanted: Sequence[Line],
    got: Sequence[Line],
    options: Mapping[str, Any] | None = None,
) -> list[str]:
    """Return the usual cause of a difference in generated positions, when it is recognisable
    (``options``: the searcher options both were given)."""
    deepest_wanted = max(map(len, wanted), default=0)
    deepest_got = max(map(len, got), default=0)
    players = game.rules.players
    rounds = (options or {}).get("rounds")
    if deepest_got != deepest_wanted:
        hint = f"the search goes {deepest_got} moves deep, the reference {deepest_wanted}"
        # a search that takes a round off after every move stops after about `rounds` moves
        counts_moves = isinstance(rounds, int) and deepest_got <= rounds + 1 < deepest_wanted
        if game.rules.chance and "depth" in (options or {}) and deepest_got < deepest_wanted:
            hint += (
                ": does it count an outcome of chance as a move? "
                "The depth counts the players' moves only"
            )
        elif (
            counts_moves
            or deepest_wanted == deepest_got * players
            or deepest_got == deepest_wanted * players
        ):
            hint += (
                f": is the depth counted in plies instead of rounds? A round is one move of each "
                f"of the {players} players"
            )
        return [hint]
    if set(got) < set(wanted):
        return [
            f"{PRUNES_ON_EQUALITY}: does it prune on equality (alpha >= beta) where only alpha > "
            "beta may prune?"
        ]
    if set(got) > set(wanted):
        return [
            (
                "the search generates positions the reference skips: does it miss cut-offs "
                "(or prune only once alpha > beta where the reference prunes on equality)?"
            )
        ]
    if set(got) == set(wanted):
        return ["the same positions in another order: are the moves tried in legal_moves() order?"]
    return []


def _reference_run(reference: Reference, case: Case, who: str) -> Run:
    """Return what ``reference`` does on ``case``.

    :raises InvalidOptionError: when the reference does not take the case's options or
        fails on its position.
    """
    run = record_search(_configured(reference, case.options, who), case.position)
    if run.error is not None:
        raise InvalidOptionError(f"{who} fails on {case.name!r}: {run.error}")
    if case.utilities and run.utilities is None:
        raise InvalidOptionError(f"{who} gives no utilities to compare on {case.name!r}")
    return run


def _generated_problems(case: Case, expected: Run, found: Run) -> list[str]:
    """Return what differs in the positions ``found`` generated on ``case`` from ``expected``'s."""
    problems = _state_problems(case.position, expected, found, case.states, case.options)
    if (
        case.states_reference is not None
        and problems
        and problems[-1].startswith(PRUNES_ON_EQUALITY)
    ):
        # the positions are a search's that does not prune: the usual hint does not apply
        problems[-1] = (
            f"the search skips positions {_name(case.states_reference)} generates: this test asks "
            "for "
            "every one of them (no pruning)"
        )
    return problems


def grade_case(case: Case, student: type[Searcher], reference: Reference) -> CaseResult:
    """Return how ``student`` (a searcher class) does on ``case`` against ``reference``
    (the case's own reference instead, when it has one).

    Both get the case's options (a spec's own options stay, the case's are added).

    :raises InvalidOptionError: when the reference does not take the case's options, or
        fails on its position.
    """
    reference = case.reference if case.reference is not None else reference
    expected = _reference_run(reference, case, "the reference")
    full = expected
    if case.states_reference is not None and case.states != "none":
        full = _reference_run(
            case.states_reference, case, "the reference of the generated positions"
        )
    try:
        searcher = _configured(student, case.options, "the student's searcher")
    except InvalidOptionError as error:
        return CaseResult(case.name, 0.0, case.max_score, str(error), False)
    position = case.position
    found = run_with_time_limit(
        lambda: record_search(searcher, position), case.time_limit, _failed_run(case.time_limit)
    )
    if found.error is not None:
        return CaseResult(case.name, 0.0, case.max_score, found.error, False)
    problems = _value_problems(expected, found)
    values_differ = bool(problems)
    # a horizon in rounds has no smaller step, and in a game of utilities a search from
    # another player's turn answers for that player
    if problems and "rounds" not in case.options and not position.rules.utilities:
        root_values = (found.value, expected.value)
        where = run_with_time_limit(
            lambda: first_difference(
                student, reference, position, case.options, values=root_values
            ),
            case.time_limit,
            lambda reason: None,
        )
        problems += [where] if where else []
    if case.utilities:
        utility_problems = _utility_problems(position, expected, found)
        values_differ = values_differ or (bool(utility_problems) and found.utilities is not None)
        problems += utility_problems
    problems += _move_problems(position, expected, found) + _generated_problems(case, full, found)
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
        return CaseResult(case.name, 0.0, case.max_score, "; ".join(problems), False)
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
    return CaseResult(case.name, case.max_score, case.max_score, output, True)


#: the most searches spent looking for the first position whose value differs
MAX_DESCENT_SEARCHES = 200


def first_difference(
    student: type[Searcher],
    reference: Reference,
    game: Game[Any],
    options: Mapping[str, Any],
    *,
    values: tuple[Any, Any] | None = None,
) -> str | None:
    """Return where the values of ``student`` and ``reference`` first go wrong below ``game``.

    From ``game`` (whose values differ: ``values`` are the student's and the reference's,
    when known), each move is searched by both in turn (the ``depth`` option one less a
    player's move; an outcome of chance costs no depth); the first move whose values
    differ is followed, until a position from whose every move both agree, or a
    finished one. There, the values the student's search gives its moves (its
    ``move_values``) show the move it values otherwise inside the search, and the usual
    cause is named when it is recognisable (a chance position worth its outcomes' plain
    mean or their smallest value, a player taking the other player's choice). A
    position one of the two cannot search from is skipped. ``None`` when no such
    position is found within :data:`MAX_DESCENT_SEARCHES` searches.
    """
    position, path = game.copy(), []
    depth = options.get("depth")
    budget = [MAX_DESCENT_SEARCHES]
    unsearched = False
    agreed: list[Any] = []  # the values of the moves searched from the last position
    while position.result() is None:
        below = _depth_below(position, depth)
        if below is not None and below < 1:
            break
        follow, unsearched, agreed = None, False, []
        for move in position.legal_moves():
            if budget[0] < 2:
                return None
            position.push(move)
            both = _values_of_both(
                student, reference, position, _with_depth(options, below), budget
            )
            if both is None:
                unsearched = True  # one of the two cannot search from here
            elif both[0] != both[1]:
                follow, values = move, both
                break
            else:
                agreed.append(both[1])
            position.undo()
        if follow is None:
            break
        path.append(follow)
        depth = below
    mover = position.to_move()
    where = "at the position itself" if not path else f"first {_describe(game, tuple(path))}"
    if position.result() is not None and values is not None:
        return (
            f"the values differ {where}, a finished game: value {values[0]}, the reference "
            f"{values[1]} (score a finished game with context.finished_value)"
        )
    head = f"the values differ {where} ({_who(position)})" + (
        "" if values is None or not path else f": value {values[0]}, the reference {values[1]}"
    )
    moves = list(position.legal_moves())
    if unsearched or len(agreed) != len(moves):
        return head
    children = "outcomes" if mover == CHANCE else "moves"
    text = f"{head}; searched from each of its {children}, the search agrees with the reference"
    # the search from here may value a move otherwise than a search from that move does
    inside = _inside_the_search(
        student, reference, position, options, depth, dict(zip(moves, agreed, strict=True)), budget
    )
    if inside is None:  # else the position's own value is made wrong from right ones
        cause = None if values is None else _cause(position, values[0], values[1], agreed)
        return text if cause is None else f"{text}; {cause}"
    move, found, expected, cause = inside
    text += (
        f"; inside its search, {_describe(game, (*path, move))} ({_who_after(position, move)}) is "
        "worth "
        f"{found}, the reference {expected}"
    )
    return text if cause is None else f"{text}: {cause}"


def _depth_below(position: Game[Any], depth: int | None) -> int | None:
    """Return the depth left after a move of ``position`` (an outcome of chance costs none)."""
    return depth if depth is None or position.to_move() == CHANCE else depth - 1


def _with_depth(options: Mapping[str, Any], depth: int | None) -> dict[str, Any]:
    return dict(options) if depth is None else {**options, "depth": depth}


def _who(position: Game[Any]) -> str:
    mover = position.to_move()
    return "chance" if mover == CHANCE else f"{position.player_names[mover]} to move"


def _who_after(position: Game[Any], move: Hashable) -> str:
    position.push(move)
    try:
        return _who(position)
    finally:
        position.undo()


def _inside_the_search(
    student: type[Searcher],
    reference: Reference,
    position: Game[Any],
    options: Mapping[str, Any],
    depth: int | None,
    expected: Mapping[Hashable, Any],
    budget: list[int],
) -> tuple[Hashable, Any, Any, str | None] | None:
    """Return the first move the student's search from ``position`` values otherwise than
    the reference values it searched from there (``expected``), what each gives it, and the
    usual cause, when recognisable; ``None`` when the search does not say or agrees."""
    try:
        result = _configured(student, _with_depth(options, depth), "the student's searcher").search(
            position, move_values=True
        )
    except Exception:  # the student's code may raise anything: nothing more to say
        return None
    for move, found in result.move_values or ():
        if move not in expected or found == expected[move]:
            continue
        cause = None
        below = _depth_below(position, depth)
        position.push(move)
        try:
            under = _depth_below(position, below)
            if position.result() is not None:
                cause = _cause(position, found, expected[move], [])
            elif under is None or under >= 1:
                children = []
                for child in position.legal_moves():
                    position.push(child)
                    try:
                        children.append(
                            _configured(reference, _with_depth(options, under), "the reference")
                            .search(position)
                            .value
                        )
                    finally:
                        position.undo()
                budget[0] -= len(children)
                cause = _cause(position, found, expected[move], children)
        finally:
            position.undo()
        return move, found, expected[move], cause
    return None


def _values_of_both(
    student: type[Searcher],
    reference: Reference,
    position: Game[Any],
    options: Mapping[str, Any],
    budget: list[int],
) -> tuple[Any, Any] | None:
    """Return the student's and the reference's values of ``position``, or ``None`` when one
    of them cannot search it (a searcher that does not start at a chance position)."""
    budget[0] -= 2
    try:
        expected = _configured(reference, options, "the reference").search(position).value
        found = _configured(student, options, "the student's searcher").search(position).value
    except InvalidOptionError:
        raise
    except Exception:  # the student's code may raise anything: this position is skipped
        return None
    return found, expected


def _cause(position: Game[Any], found: Any, expected: Any, children: Sequence[Any]) -> str | None:
    """Return the usual cause of a position worth ``found`` (the reference: ``expected``)
    whose moves' values ``children`` both agree on, when it is recognisable."""
    if position.result() is not None:
        if found == -expected:
            return (
                "the opposite sign: a finished game's value is from the first player's "
                "point of view, whoever is to move"
            )
        return "score a finished game with context.finished_value"
    if not children:
        return None
    if position.to_move() == CHANCE:
        plain_mean = sum((Fraction(value) for value in children), Fraction(0)) / len(children)
        if found == plain_mean != expected:
            return (
                "its value is the plain mean of its outcomes' values: weigh each outcome by its "
                "probability (chance_outcomes())"
            )
        for word, pick in (("smallest", min), ("largest", max)):
            if found == pick(children):
                return (
                    f"its value is its {word} outcome's, as if chance were a player: a chance "
                    "position is worth the probability-weighted mean of its outcomes"
                )
        return None
    name = position.player_names[position.to_move()]
    maximising = position.to_move() == 0
    other, own = ("smallest", "largest") if maximising else ("largest", "smallest")
    if found == (min if maximising else max)(children) != expected:
        return f"its value is the {other} of its moves' values, where {name} takes the {own}"
    return None


def _name(searcher: Reference) -> str:
    return searcher if isinstance(searcher, str) else searcher.name


def _configured(searcher: Reference, options: Mapping[str, Any], who: str) -> Searcher:
    try:
        if isinstance(searcher, str):
            return default_registry().new_searcher(searcher, **options)
        return searcher.configured(options)
    except InvalidOptionError as error:
        raise InvalidOptionError(f"{who} does not take the test's options: {error}") from None


def grade(student: type[Searcher], cases: Iterable[Case], reference: Reference) -> GradeReport:
    """Return the report of ``student`` (a searcher class) against ``reference`` on every case.

    :raises InvalidOptionError: when the reference cannot search a case.
    """
    return GradeReport(tuple(grade_case(case, student, reference) for case in cases))
