"""What differs between a student's search and the reference's, and its usual cause.

The values, utilities, moves and generated positions of two :class:`Run` objects are
compared, and a difference comes with a hint at the usual mistake (pruning on
equality, a depth counted in plies instead of rounds, values from the wrong player's
point of view). :func:`first_difference` follows a wrong value down the tree to the
position where it starts.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from gamesearch import capabilities
from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game
from gamesearch.rules import CHANCE
from gamesearch.search.base import Searcher, heuristic
from gamesearch.testing.grading_local import configured
from gamesearch.testing.grading_model import Line, Reference, Run
from gamesearch.testing.grading_sandbox import SandboxedStudent


# ------------------------------------------------------------------ comparing
def _describe(game: Game[Any], path: Line) -> str:
    return "after " + " ".join(game.format_move(move) for move in path)


def _tuple_text(game: Game[Any], utilities: Sequence[int | Fraction]) -> str:
    return ", ".join(
        f"{name} {utility}"
        for name, utility in zip(capabilities.player_names(game), utilities, strict=False)
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
    game: Game[Any],
    expected: Run,
    found: Run,
    mode: str,
    options: Mapping[str, Any] | None = None,
    rule: str | None = None,
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
    problems.extend(_hints(game, wanted, got, options, rule))
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
#: how each pruning rule of a reference reads (see :func:`pruning_rule`)
PRUNING_RULES = ("equality", "strict", "none")
#: the searchers that never prune, by name
NEVER_PRUNE = ("minimax", "textbook-minimax", "reference-minimax", "expectiminimax")


def pruning_rule(reference: Searcher) -> str | None:
    """Return when ``reference`` stops trying a position's moves: ``"equality"`` (once alpha
    >= beta), ``"strict"`` (only once alpha > beta), ``"none"`` (it never prunes), or ``None``
    when that is not known (the hints then name no rule)."""
    if reference.name in NEVER_PRUNE or getattr(reference, "pruning", True) is False:
        return "none"
    on_equality = getattr(reference, "prune_on_equality", None)
    if on_equality is not None:
        return "equality" if on_equality else "strict"
    return "equality" if reference.name in ("alphabeta", "iterative") else None


def _pruning_hint(rule: str | None, skips: bool) -> str:
    """Return the hint at a search that skips positions the reference generates (``skips``)
    or generates positions it skips, as the reference's pruning ``rule`` makes likely."""
    if skips:
        if rule == "strict":
            return (
                f"{PRUNES_ON_EQUALITY}: does it prune on equality (alpha >= beta) where only "
                "alpha > beta may prune?"
            )
        if rule == "none":
            return f"{PRUNES_ON_EQUALITY}: does it prune? This test searches every move"
        return (
            f"{PRUNES_ON_EQUALITY}: does it stop trying a position's moves too early (before "
            "alpha >= beta), or pass on a window it has not earned?"
        )
    if rule == "equality":
        return (
            "the search generates positions the reference skips: does it miss cut-offs "
            "(or prune only once alpha > beta where the reference prunes on equality)?"
        )
    if rule == "none":
        return "the search generates positions the reference does not: does it search past the end?"
    return (
        "the search generates positions the reference skips: does it miss cut-offs (is alpha "
        "raised at the first player's positions and beta lowered at the second's)?"
    )


def _hints(
    game: Game[Any],
    wanted: Sequence[Line],
    got: Sequence[Line],
    options: Mapping[str, Any] | None = None,
    rule: str | None = None,
) -> list[str]:
    """Return the usual cause of a difference in generated positions, when it is recognisable
    (``options``: the searcher options both were given; ``rule``: the reference's pruning
    rule, see :func:`pruning_rule`)."""
    deepest_wanted = max(map(len, wanted), default=0)
    deepest_got = max(map(len, got), default=0)
    players = game.rules.players
    rounds = (options or {}).get("rounds")
    depth = (options or {}).get("depth")
    if deepest_got != deepest_wanted:
        plies = "move" if deepest_got == 1 else "moves"
        hint = f"the search goes {deepest_got} {plies} deep, the reference {deepest_wanted}"
        # a search that takes a round off after every move stops after about `rounds` moves
        counts_moves = isinstance(rounds, int) and deepest_got <= rounds + 1 < deepest_wanted
        if game.rules.chance and "depth" in (options or {}) and deepest_got < deepest_wanted:
            hint += (
                ": does it count an outcome of chance as a move? "
                "The depth counts the players' moves only"
            )
        elif rounds is not None and (
            counts_moves
            or deepest_wanted == deepest_got * players
            or deepest_got == deepest_wanted * players
        ):
            hint += (
                f": is the depth counted in plies instead of rounds? A round is one move of each "
                f"of the {players} players"
            )
        elif isinstance(depth, int) and abs(deepest_got - deepest_wanted) == 1:
            hint += (
                f": is the depth off by one? depth={depth} searches {depth} moves below the "
                "position, and a position there is scored by its evaluation"
            )
        return [hint]
    if set(got) < set(wanted):
        return [_pruning_hint(rule, skips=True)]
    if set(got) > set(wanted):
        return [_pruning_hint(rule, skips=False)]
    if set(got) == set(wanted):
        return ["the same positions in another order: are the moves tried in legal_moves() order?"]
    return []


#: the most searches spent looking for the first position whose value differs
MAX_DESCENT_SEARCHES = 200
#: the seconds one search of the descent may take (the descent as a whole has the test's)
STEP_TIME = 10.0


def first_difference(
    student: SandboxedStudent | type[Searcher],
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
    position is found within :data:`MAX_DESCENT_SEARCHES` searches. ``student`` is a
    searcher class (searched with in a child forked for it) or a :class:`SandboxedStudent`.
    """
    if not isinstance(student, type):
        return _first_difference(student, reference, game, options, values)
    session = SandboxedStudent(student)
    try:
        return _first_difference(session, reference, game, options, values)
    finally:
        session.close()


def _first_difference(
    student: SandboxedStudent,
    reference: Reference,
    game: Game[Any],
    options: Mapping[str, Any],
    values: tuple[Any, Any] | None,
) -> str | None:
    """Return :func:`first_difference`'s answer, the student's searches asked of ``student``."""
    position = game.copy()
    path: list[Hashable] = []
    depth = options.get("depth")
    budget = [MAX_DESCENT_SEARCHES]
    unsearched = False
    agreed: list[Any] = []  # the values of the moves searched from the last position
    while position.result() is None:
        below = _depth_below(position, depth)
        if below is not None and below < 1:  # the moves from here reach the horizon
            horizon = _at_the_horizon(
                student, reference, position, _with_depth(options, depth), game, path
            )
            if horizon is not None:
                where = "at the position itself" if not path else _describe(game, tuple(path))
                return f"the values differ {where} ({_who(position)}); {horizon}"
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


def _at_the_horizon(
    student: SandboxedStudent,
    reference: Reference,
    position: Game[Any],
    options: Mapping[str, Any],
    game: Game[Any],
    path: Sequence[Hashable],
) -> str | None:
    """Return what differs one move above the horizon: the first move of ``position`` (searched
    with ``options``, whose depth ends after one move) whose value in the student's search is
    not the reference's there (a finished game's score, else the position's evaluation);
    ``None`` when none."""
    result = student.search(position, options, STEP_TIME, move_values=True)
    if result.error is not None:
        return None
    for move, found in result.move_values or ():
        if move not in position.legal_moves():
            continue
        position.push(move)
        try:
            if position.to_move() == CHANCE:
                continue
            estimate = capabilities.heuristic(position)()
            where = _describe(game, (*path, move))
            if position.result() is not None:
                expected = configured(reference, options, "the reference").search(position).value
                if found == expected:
                    continue
                evaluated = found == heuristic(position)()
                return (
                    f"{where} the game is over: the reference scores it as a finished game "
                    f"(value {expected}), the search gives it {found}"
                    + (
                        f", its evaluation ({estimate}): does the search look at the depth "
                        "before it looks whether the game is over? A finished game is scored, "
                        "whatever the depth left"
                        if evaluated
                        else ": score a finished game with context.finished_value"
                    )
                )
            expected = heuristic(position)()
            if found == expected:
                continue
            side = (
                " (the opposite sign: an evaluation is from the first player's point of view, "
                "whoever is to move)"
                if expected and found == -expected
                else ""
            )
            return (
                f"{where} the depth is spent: the reference scores that position by its "
                f"evaluation, {estimate} (value {expected}), the search gives it {found}{side}: "
                "does the search stop there and score it by its evaluation "
                "(context.horizon_value(game), or evaluation(game) in the starter file)?"
            )
        finally:
            position.undo()
    return None


def _depth_below(position: Game[Any], depth: int | None) -> int | None:
    """Return the depth left after a move of ``position`` (an outcome of chance costs none)."""
    return depth if depth is None or position.to_move() == CHANCE else depth - 1


def _with_depth(options: Mapping[str, Any], depth: int | None) -> dict[str, Any]:
    return dict(options) if depth is None else {**options, "depth": depth}


def _who(position: Game[Any]) -> str:
    mover = position.to_move()
    return "chance" if mover == CHANCE else f"{capabilities.player_names(position)[mover]} to move"


def _who_after(position: Game[Any], move: Hashable) -> str:
    position.push(move)
    try:
        return _who(position)
    finally:
        position.undo()


def _inside_the_search(
    student: SandboxedStudent,
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
    result = student.search(position, _with_depth(options, depth), STEP_TIME, move_values=True)
    if result.error is not None:  # nothing more to say
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
                            configured(reference, _with_depth(options, under), "the reference")
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
    student: SandboxedStudent,
    reference: Reference,
    position: Game[Any],
    options: Mapping[str, Any],
    budget: list[int],
) -> tuple[Any, Any] | None:
    """Return the student's and the reference's values of ``position``, or ``None`` when one
    of them cannot search it (a searcher that does not start at a chance position)."""
    budget[0] -= 2
    try:
        expected = configured(reference, options, "the reference").search(position).value
    except InvalidOptionError:
        raise
    except Exception:  # the reference cannot search from here: this position is skipped
        return None
    found = student.search(position, options, STEP_TIME)
    if found.error is not None:  # the student's code may raise anything: skipped
        return None
    return found.value, expected


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
    name = capabilities.player_names(position)[position.to_move()]
    maximising = position.to_move() == 0
    other, own = ("smallest", "largest") if maximising else ("largest", "smallest")
    if found == (min if maximising else max)(children) != expected:
        return f"its value is the {other} of its moves' values, where {name} takes the {own}"
    return None
