"""`gamesearch analyze` shows how far a deepening search has got while it runs."""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

import pytest
from clirun import run_cli
from rich.console import Console

from gamesearch.cli import _progress, analyze
from gamesearch.cli._progress import ProgressReport
from gamesearch.plugins import default_registry
from gamesearch.search.base import Iteration, Limit

REGISTRY = default_registry()


def searcher(spec: str, **options: Any) -> Any:
    """Return the registered searcher ``spec`` names, with ``options``."""
    return REGISTRY.searcher_class(spec).configured(options)


@pytest.mark.parametrize(
    ("game_name", "deepening", "fixed"),
    [
        ("connect4", searcher("iterative", depth=4), "alphabeta"),
        ("kalah", searcher("engine", iterative=True, depth=4), "alphabeta"),
        ("pig", searcher("chance-iterative", depth=3), "star2"),
    ],
)
def test_each_deepening_searcher_reports_each_depth_as_a_fixed_depth_search_finds_it(
    game_name: str, deepening: Any, fixed: str
) -> None:
    game = REGISTRY.new_game(game_name)
    seen: list[Iteration] = []
    result = deepening.search(game, on_iteration=seen.append)
    deepest = 3 if game_name == "pig" else 4
    assert [iteration.depth for iteration in seen] == list(range(1, deepest + 1))
    for iteration in seen:  # the oracle: a search to that depth alone
        alone = searcher(fixed, depth=iteration.depth).search(game)
        assert iteration.value == alone.value, iteration
        assert not iteration.is_exact
    assert seen[-1].best_moves == result.best_moves and seen[-1].value == result.value
    nodes = [iteration.nodes for iteration in seen]
    assert nodes == sorted(nodes) and 0 < nodes[-1] <= result.stats.nodes
    assert all(0 <= iteration.seconds <= result.stats.seconds for iteration in seen)


def test_a_search_that_does_not_deepen_reports_no_depth() -> None:
    seen: list[Iteration] = []
    searcher("alphabeta", depth=3).search(REGISTRY.new_game("connect4"), on_iteration=seen.append)
    assert seen == []


def test_a_depth_ending_every_line_is_reported_exact() -> None:
    seen: list[Iteration] = []
    game = REGISTRY.new_game("tictactoe", "XX./OO./...")
    searcher("iterative").search(game, on_iteration=seen.append)
    assert seen[-1].is_exact and seen[-1].value == 995 and seen[-1].best_moves == (2,)


def test_a_limit_given_to_the_search_keeps_the_listener() -> None:
    seen: list[Iteration] = []
    searcher("iterative").search(
        REGISTRY.new_game("connect4"), Limit(depth=2), on_iteration=seen.append
    )
    assert [iteration.depth for iteration in seen] == [1, 2]


def test_the_status_names_depth_best_move_its_rivals_value_and_speed() -> None:
    game = REGISTRY.new_game("connect4")
    one = Iteration(6, 12, (3,), 7_185, 1.0, False)
    assert analyze.depth_status(game, one) == "depth 6, best 4, value 12, 7,185 nodes/s"
    three = Iteration(5, Fraction(1, 8), (2, 4, 5), 990, 0.5, True)
    assert (
        analyze.depth_status(game, three)
        == "depth 5 (exact), best 3 (or 2 others), value 0.125, 1,980 nodes/s"
    )
    two = Iteration(1, -3, (2, 4), 8, 0.0, False)
    assert analyze.depth_status(game, two) == "depth 1, best 3 (or 1 other), value -3, 0 nodes/s"


def fake_display(stream: io.StringIO, *, is_terminal: bool) -> Any:
    """Return a stand-in for analyze's ``progress`` that draws on ``stream``."""
    console = Console(file=stream, force_terminal=is_terminal, width=100)

    def display(description: str, total: float, *, unit: str = "") -> ProgressReport:
        return ProgressReport(description, total, unit=unit, console=console)

    return display


def test_on_a_terminal_analyze_shows_the_depth_the_best_move_and_nodes_per_second(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(analyze, "progress", fake_display(stream, is_terminal=True))
    status, out, _ = run_cli(capsys, "analyze", "connect4", "-s", "iterative:seconds=0.2")
    assert status == 0 and "Searcher iterative" in out
    drawn = stream.getvalue()
    assert "searching with iterative (up to 0.2 s)" in drawn
    # depth 1 of the empty board: the centre column, as a one-ply search finds it
    first = searcher("alphabeta", depth=1).search(REGISTRY.new_game("connect4"))
    assert f"depth 1, best {first.move + 1}, value {first.value}, " in drawn
    assert "nodes/s" in drawn and "depth 2, best " in drawn


@pytest.mark.slow  # (a second of search)
def test_the_default_searcher_and_its_fallback_show_their_depths_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(analyze, "progress", fake_display(stream, is_terminal=True))
    # Connect Four's solver gives up after 2,000 nodes; iterative deepening answers
    status, out, _ = run_cli(capsys, "analyze", "connect4", "-p", "4444", "--max-nodes", "2000")
    assert status == 0 and "gave up after 2,000 nodes" in out
    drawn = stream.getvalue()
    assert "searching with solver" in drawn and "searching with iterative (up to 1 s)" in drawn
    assert "depth 1, best " in drawn and " nodes/s" in drawn


def test_without_a_terminal_the_lines_on_standard_error_carry_the_depth(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(analyze, "progress", fake_display(stream, is_terminal=False))
    monkeypatch.setattr(_progress, "LINE_INTERVAL", 0.05)
    status, _, _ = run_cli(capsys, "analyze", "connect4", "-s", "iterative:seconds=0.3")
    lines = stream.getvalue().splitlines()
    assert status == 0 and lines
    assert all(line.startswith("searching with iterative (up to 0.3 s)") for line in lines)
    assert "\x1b[" not in stream.getvalue()  # no bar drawn
    assert any(": depth " in line and " nodes/s: " in line for line in lines[1:]), lines


def test_a_game_that_names_its_forced_wins_says_mate_in_the_winners_moves() -> None:
    pytest.importorskip("gamesearch_chess", reason="the chess plugin is not installed")
    from gamesearch.words import describe_value

    game = REGISTRY.new_game("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    scale = game.rules.scale
    # (plies to the end -> the winner's moves: the winner plays the first and the last)
    for plies, words in ((1, "White wins: mate in 1"), (3, "White wins: mate in 2")):
        assert describe_value(game, scale.proven(1, game.ply + plies)) == words
    game.play("g2g3")  # now Black is to move, and loses
    assert describe_value(game, scale.proven(1, game.ply + 2)) == "White wins: mate in 1"
    assert describe_value(game, scale.proven(-1, game.ply + 3)) == "Black wins: mate in 2"
    # a game that names none keeps its plies
    tictactoe = REGISTRY.new_game("tictactoe", "XX./OO./...")
    assert describe_value(tictactoe, tictactoe.rules.scale.proven(1, 5)) == "X wins in 1 ply"


def test_analyze_says_a_mate_a_depth_limited_search_found_is_proven_mate_in_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("gamesearch_chess", reason="the chess plugin is not installed")
    status, out, _ = run_cli(
        capsys,
        "analyze",
        "chess",
        "-p",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "-s",
        "iterative:depth=2",
    )
    assert status == 0 and "White wins: mate in 1." in out and "Best move: d1d8" in out
