"""The specialiser of loop templates: tests of known names folded, branches mirrored."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Iterable

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


def test_a_mirrored_branch_is_the_one_above_for_the_other_side() -> None:
    both_sides = specialise(_best_of, {}, swaps=("alpha", "beta"))
    values = [3, -2, 8, 5]
    # the maximiser's branch as written; the minimiser's: min, beta narrowed, the
    # window passed on in its order and the side's constant flipped
    assert both_sides(values, True, 0, 10) == (8, 8, 10, 1)
    assert both_sides(values, False, 0, 10) == (-2, 0, -2, -1)
    assert both_sides(values, False, -5, 4) == (min(values), -5, min(values), -1)
    assert both_sides([], False, 0, 10) == (INFINITY, 0, 10, -1)


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
        code = _loops(has_table, traces, False, True).__code__
        nested = [const for const in code.co_consts if inspect.iscode(const)]
        return {loop.co_name: set(loop.co_freevars) for loop in nested}

    plain = node_loops(False, False)
    assert plain["expand"].isdisjoint({"tracer", "probe", "entries", "evaluate", "to_move"})
    traced = node_loops(True, True)
    assert {"tracer", "probe", "entries"} <= traced["expand"]
    at_a_depth = _loops(False, False, True, False).__code__
    nested = {const.co_name: const for const in at_a_depth.co_consts if inspect.iscode(const)}
    assert {"evaluate", "to_move"} <= set(nested["expand"].co_freevars)
    assert _loops(False, False, False, True) is _loops(
        False, False, False, True
    )  # compiled once per combination


def test_the_engine_with_every_trick_off_reads_no_tricks_switch_at_its_nodes() -> None:
    game = TicTacToe()
    switches = Engine(follow="root").switches_for(game, has_table=False)
    tricks = ("keeps_lines", "use_killers", "use_history", "nulls", "reduces", "quiesces")
    assert not any(switches[trick] for trick in (*tricks, "extends", "arranges"))
    code = _kind(True, True, **switches).__code__
    nested = {const.co_name: const for const in code.co_consts if inspect.iscode(const)}
    read = set(nested["node"].co_freevars) | set(nested["visit"].co_freevars)
    unread = {"use_killers", "keeps_lines", "nulls", "tracer", "arrange", "remember_cutoff"}
    assert read.isdisjoint({*unread, "lines", "killer_slots", "probe"})
    every = Engine(killers=True, history=True, iterative=True).switches_for(game, has_table=True)
    code = _kind(True, False, **every).__code__
    nested = {const.co_name: const for const in code.co_consts if inspect.iscode(const)}
    read = set(nested["node"].co_freevars)
    assert {"killer_slots", "lines", "probe", "arrange", "remember_cutoff"} <= read
