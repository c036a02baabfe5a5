"""``gamesearch tree``: the traced search tree in text, JSON, Graphviz and SVG."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from clirun import assert_usage_error, run_cli, run_script

from gamesearch.cli import tree
from gamesearch.plugins import default_registry
from gamesearch_games.tictactoe import TicTacToe

SEED_004 = "XOX/O.O/.X."


def tree_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    status, out, err = run_cli(capsys, "tree", "tictactoe", "--format", "json", *argv)
    assert status == 0, err
    return json.loads(out)


def count(node: dict) -> int:
    return 1 + sum(count(child) for child in node["children"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    [
        "minimax",
        "alphabeta",
        "alphabeta:ordering=natural,all_best=off,scoring=plain",
        "alphabeta:table=on",
        "iterative",
        "minimax:depth=2",
    ],
)
@pytest.mark.parametrize("position", [SEED_004, "X.O/.X./...", "XO./.../..."])
def test_tree_node_counts_equal_the_searchers_own_statistics(
    capsys: pytest.CaptureFixture[str], spec: str, position: str
) -> None:
    data = tree_json(capsys, "--position", position, "--searcher", spec, "--max-nodes", "100000")
    searcher = default_registry().new_searcher(spec)
    own = searcher.search(TicTacToe.from_text(position)).stats.nodes
    assert data["nodes"] == data["stats"]["nodes"] == own
    assert sum(count(tree) for tree in data["trees"]) == own
    assert data["is_truncated"] is False


def test_seed_004_position_shows_10_of_14_nodes_and_the_pruned_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "tree", "tictactoe", "--position", SEED_004)
    assert status == 0
    assert "10 nodes traced, the searcher counted 10" in out
    assert "the full minimax tree has 14 nodes (71% visited)" in out
    assert out.count("pruned: ") == 2 and "window [990, +inf]" in out
    data = tree_json(capsys, "--position", SEED_004)
    assert (data["nodes"], data["full_tree_nodes"]) == (10, 14)
    root = data["trees"][0]
    assert [child["move"] for child in root["children"]] == ["4", "6", "8"]
    assert [child["pruned"] for child in root["children"]] == [[], ["8"], ["6"]]
    assert root["children"][1]["bound"] == "upper"


def test_max_nodes_draws_fewer_nodes_but_counts_them_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tree_json(
        capsys,
        "--position",
        "X.../....",
        "-o",
        "rows=2",
        "-o",
        "cols=4",
        "-o",
        "k=2",
        "--max-nodes",
        "5",
    )
    assert data["recorded"] == sum(count(tree) for tree in data["trees"]) == 5
    assert data["nodes"] == data["stats"]["nodes"] > 5 and data["is_truncated"]
    status, out, _ = run_cli(capsys, "tree", "tictactoe", "--max-nodes", "3", "-p", "X.O/.X./...")
    assert status == 0 and "more nodes not drawn (--max-nodes 3)" in out


def test_dot_output_is_graphviz_source_with_pruned_edges(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "tree", "tictactoe", "-p", SEED_004, "--format", "dot")
    assert status == 0
    assert out.startswith("digraph search {") and out.rstrip().endswith("}")
    assert out.count(" -> ") == 9 + 2  # 9 searched edges, 2 pruned ones
    assert out.count("style=dashed") == 2


def empty_path(tmp_path: Path) -> str:
    folder = tmp_path / "no-graphviz"
    folder.mkdir()
    return str(folder)


def test_svg_without_graphviz_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", empty_path(tmp_path))
    status, out, err = run_cli(capsys, "tree", "tictactoe", "-p", SEED_004, "--format", "svg")
    assert status == 2 and out == ""
    assert "graphviz's 'dot' program is needed" in err and "apt-get install graphviz" in err
    assert err.count("\n") == 1


def test_svg_with_graphviz_runs_dot_on_the_source(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A stand-in for Graphviz's dot: wraps its input in an <svg> element.
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\n[ "$1" = "-Tsvg" ] || exit 1\necho "<svg>"; cat; echo "</svg>"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    target = tmp_path / "tree.svg"
    status, _, err = run_cli(
        capsys, "tree", "tictactoe", "-p", SEED_004, "-f", "svg", "--output", str(target)
    )
    assert status == 0, err
    svg = target.read_text()
    assert svg.startswith("<svg>") and "digraph search {" in svg


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("-p", "XOX/O.O/.X.", "--searcher", "dfs"), "unknown searcher 'dfs'"),
        (("-p", "XOQ/.../..."), "has 'Q' at cell 2"),
        (("-p", "XOX/O.O/.X.", "--max-nodes", "0"), "--max-nodes must be >= 1: 0"),
        (
            ("-p", "XOX/O.O/.X.", "--searcher", "alphabeta:ordering=best"),
            "option 'ordering' must be one of",
        ),
        (("-o", "rows=0"), "option 'rows' must be >= 1: 0"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "tree", "tictactoe", *argv)


def test_a_search_too_big_to_trace_is_refused_not_hung(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tree, "SEARCH_LIMIT", 5000)
    # with a depth given, tree draws that depth or refuses; it does not pick another
    status, _, err = run_cli(
        capsys, "tree", "tictactoe", "-o", "rows=4", "-o", "cols=4", "-s", "minimax", "-d", "12"
    )
    assert status == 2 and "the search entered more than 5,000 positions" in err


@pytest.mark.slow
def test_installed_script_draws_the_tree_and_has_help() -> None:
    done = run_script("tree", "tictactoe", "--position", SEED_004)
    assert done.returncode == 0 and "pruned: 8 (never searched)" in done.stdout
    helped = run_script("tree", "--help")
    assert "gamesearch tree tictactoe --position XOX/O.O/.X." in helped.stdout


def test_iterative_deepening_draws_one_tree_per_iteration(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(
        capsys, "tree", "tictactoe", "-p", SEED_004, "-s", "iterative:table=off"
    )
    assert status == 0
    assert "iteration 1:" in out and "iteration 3:" in out and "iteration 4:" not in out
