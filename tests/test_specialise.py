"""The specialiser of loop templates: tests of known names folded, branches mirrored."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable, Iterable
from types import CodeType

import pytest

from gamesearch.search.alphabeta import _loops
from gamesearch.search.base import INFINITY, NEGATIVE_INFINITY
from gamesearch.search.engine import Engine
from gamesearch.search.engine_core import _kind
from gamesearch.search.specialise import mirrored, specialise
from gamesearch_games.tictactoe import TicTacToe


def _described(count: int | None, label: str | None) -> str:
    """A template: what it says depends on which of its arguments are given."""
    said = "no count" if count is None else f"{count} counted"
    if label is not None and count is not None:
        said += f" as {label}"
    elif label is not None:
        said += " but labelled"
    return said


def _counted(values: Iterable[int], doubles: bool, skips_odd: bool) -> list[int]:
    """A template with two switches."""
    kept = [value for value in values if not (skips_odd and value % 2)]
    if doubles:
        kept = [2 * value for value in kept]
    return kept if doubles or skips_odd else [0, *kept]


def _best_of(values: Iterable[int], maximizing: bool, alpha: int, beta: int) -> tuple[int, ...]:
    """A template: the best value for one side, the window it leaves and the calls' order."""
    if maximizing:
        best = NEGATIVE_INFINITY
        for value in values:
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
        window = _window(alpha, beta, True)
    else:
        mirrored()
    return (best, *window)


def _window(alpha: int, beta: int, maximizing: bool) -> tuple[int, int, int]:
    return alpha, beta, 1 if maximizing else -1


def _summed(values: Iterable[int], traces: bool) -> int:
    """A template: a sum that may print each value."""
    total = 0
    for value in values:
        if traces:
            print(value)
        total += value
    return total


def _summed_plainly(values: Iterable[int], traces: bool) -> int:
    """The template above written without its switch (the oracle of its kind without it)."""
    total = 0
    for value in values:
        total += value
    return total


def _windows(maximizing: bool, alpha: int, beta: int, best: int, depth: int) -> tuple[object, ...]:
    """A template: a null window at one bound, the best one point inside, a depth test."""
    if maximizing:
        null = _window(alpha, alpha + 1, True)
        shared = max(alpha, best - 1)
        deep = depth >= 2
    else:
        mirrored()
    return null, shared, deep


def _weighed(values: list[int], doubles: bool) -> tuple[int, list[str]]:
    """A template whose inner functions read some of their parameters only when doubling."""
    asked: list[str] = []

    def weight() -> int:
        asked.append("weight")
        return 2

    def total(index: int, factor: int, label: str, again: Callable[..., int]) -> int:
        if index == len(values):
            return 0
        value = values[index] * factor if doubles else values[index]
        return value + again(index + 1, factor, label, again)

    def first(factor: int, label: str = "first") -> int:
        return values[0]

    def kept(factor: int) -> int:  # (handed on as a value: its calls cannot all be seen)
        return values[-1]

    keeper: Callable[[int], int] = kept
    sums = total(0, 2, "sum", total) + first(weight()) + first(factor=3) + keeper(4)
    return sums, asked


def _parameters(function: Callable[..., object]) -> dict[str, tuple[str, ...]]:
    """Return the parameters of each function defined in ``function``, by name."""
    return {
        inner.co_name: inner.co_varnames[: inner.co_argcount]
        for inner in _nested(function.__code__).values()
    }


def _nested(code: CodeType) -> dict[str, CodeType]:
    """Return the code of each function defined in ``code``, by name."""
    return {const.co_name: const for const in code.co_consts if inspect.iscode(const)}


def _fails(count: int | None) -> int:
    if count is not None:
        return count
    raise ValueError("no count")


def test_a_test_of_a_name_known_to_be_none_keeps_only_its_branch() -> None:
    without_count = specialise(_described, {"count": True})
    with_both = specialise(_described, {"count": False, "label": False})
    # the tests are gone: what the arguments hold no longer decides the branch
    assert without_count(7, "seven") == "no count but labelled"
    assert with_both(None, "none") == "None counted as none"
    # a name left out is tested at each call, as the template does
    assert without_count(None, None) == "no count"
    assert specialise(_described, {})(3, None) == _described(3, None)


def test_a_switch_known_on_or_off_keeps_only_what_it_decides() -> None:
    values = [1, 2, 3]
    doubling = specialise(_counted, {}, flags={"doubles": True})
    plain = specialise(_counted, {}, flags={"doubles": False, "skips_odd": False})
    # the switches given when compiled decide, whatever the call passes
    assert doubling(values, False, False) == [2, 4, 6]
    assert doubling(values, False, True) == [4]
    assert plain(values, True, True) == [0, 1, 2, 3]


def test_a_switch_that_is_off_costs_not_one_instruction() -> None:
    quiet = specialise(_summed, {}, flags={"traces": False})
    assert quiet([1, 2, 3], True) == 6
    # the same instructions as the loop written without the switch: no test, no pass
    assert quiet.__code__.co_code == _summed_plainly.__code__.co_code


def test_a_mirrored_branch_is_the_one_above_for_the_other_side() -> None:
    both_sides = specialise(_best_of, {}, swaps=("alpha", "beta"))
    values = [3, -2, 8, 5]
    # the maximiser's branch as written; the minimiser's: min, beta narrowed, the
    # window passed on in its order and the side's constant flipped
    assert both_sides(values, True, 0, 10) == (8, 8, 10, 1)
    assert both_sides(values, False, 0, 10) == (-2, 0, -2, -1)
    assert both_sides(values, False, -5, 4) == (min(values), -5, min(values), -1)
    assert both_sides([], False, 0, 10) == (INFINITY, 0, 10, -1)


def test_a_mirrored_window_narrows_at_the_other_bound_and_leaves_depths_alone() -> None:
    both_sides = specialise(_windows, {}, swaps=("alpha", "beta"), values=("best",))
    # the maximiser: a null window just above alpha, one point under the best
    assert both_sides(True, 0, 10, 5, 3) == ((0, 1, 1), 4, True)
    # the minimiser: a null window just under beta, one point over the best, the same
    # test of the depth (not a value: not mirrored) and the side's constant flipped
    assert both_sides(False, 0, 10, 5, 3) == ((9, 10, -1), 6, True)
    assert both_sides(False, 0, 10, 12, 1) == ((9, 10, -1), 10, False)
    # without the names of the values every comparison is taken for a value's
    assert specialise(_windows, {})(False, 0, 10, 5, 3)[2] is False


def test_an_inner_function_loses_the_parameters_its_kind_does_not_read() -> None:
    plain = specialise(_weighed, {}, flags={"doubles": False})
    doubling = specialise(_weighed, {}, flags={"doubles": True})
    # 1 + 2 + 3 (or doubled), then the first value twice and the last
    assert plain([1, 2, 3], True) == (6 + 1 + 1 + 3, ["weight"])
    assert doubling([1, 2, 3], False) == (12 + 1 + 1 + 3, ["weight"])
    parameters = _parameters(plain)
    # the label is never read, the factor only when doubling; the recursion through
    # ``again`` loses the same arguments
    assert parameters["total"] == ("index", "again")
    assert _parameters(doubling)["total"] == ("index", "factor", "again")
    # a call in an argument is still made, so its parameter stays (the unread default goes)
    assert parameters["first"] == ("factor",)
    # a function used as a value keeps its parameters
    assert parameters["kept"] == ("factor",)


def test_a_template_run_as_written_says_it_must_be_specialised() -> None:
    with pytest.raises(AssertionError, match=r"mirrored\(\) marks a branch of a template"):
        _best_of([1], False, 0, 10)


def test_a_specialised_function_reports_the_templates_lines() -> None:
    fails = specialise(_fails, {"count": True})
    with pytest.raises(ValueError, match="no count") as raised:
        fails(4)
    frame = traceback.extract_tb(raised.tb)[-1]
    lines, first = inspect.getsourcelines(_fails)
    assert frame.filename == __file__
    assert lines[frame.lineno - first].strip() == 'raise ValueError("no count")'


def test_alpha_beta_reads_at_its_nodes_only_what_its_kind_of_search_has() -> None:
    def node_loops(has_table: bool, traces: bool) -> dict[str, set[str]]:
        nested = _nested(_loops(has_table, traces, False, True).__code__)
        return {name: set(loop.co_freevars) for name, loop in nested.items()}

    plain = node_loops(False, False)
    assert plain["expand"].isdisjoint({"tracer", "probe", "entries", "evaluate", "to_move"})
    traced = node_loops(True, True)
    assert {"tracer", "probe", "entries"} <= traced["expand"]
    nested = _nested(_loops(False, False, True, False).__code__)
    assert {"evaluate", "to_move"} <= set(nested["expand"].co_freevars)
    assert _loops(False, False, False, True) is _loops(
        False, False, False, True
    )  # compiled once per combination


def test_alpha_beta_pays_nothing_at_its_nodes_for_the_engine_tricks_it_is_not_given() -> None:
    tricks = {"killers", "history", "forcing_of", "late_moves", "extension_reach", "arrange"}
    plain = _nested(_loops(False, False, True, True).__code__)["expand"]
    assert plain.co_varnames[: plain.co_argcount] == (
        "ply",
        "depth_left",
        "alpha",
        "beta",
        "maximizing",
        "again",
    )
    assert set(plain.co_freevars).isdisjoint(tricks)
    # killers, history, reductions asking the forcing moves, extensions
    every = _nested(_loops(False, False, True, True, True, True, True, True, True).__code__)
    tricked = every["expand"]
    assert "checked" in tricked.co_varnames[: tricked.co_argcount]
    assert tricks - {"killers", "history"} <= set(tricked.co_freevars)


def test_the_engine_with_every_trick_off_reads_no_tricks_switch_at_its_nodes() -> None:
    game = TicTacToe()
    switches = Engine(follow="root").switches_for(game, has_table=False)
    tricks = ("keeps_lines", "use_killers", "use_history", "nulls", "reduces", "quiesces")
    assert not any(switches[trick] for trick in (*tricks, "extends", "arranges"))
    nested = _nested(_kind(True, True, **switches).__code__)
    read = set(nested["node"].co_freevars) | set(nested["visit"].co_freevars)
    unread = {"use_killers", "keeps_lines", "nulls", "tracer", "arrange", "remember_cutoff"}
    assert read.isdisjoint({*unread, "lines", "killer_slots", "probe"})
    every = Engine(killers=True, history=True, iterative=True).switches_for(game, has_table=True)
    nested = _nested(_kind(True, False, **every).__code__)
    read = set(nested["node"].co_freevars)
    assert {"killer_slots", "lines", "probe", "arrange", "remember_cutoff"} <= read
