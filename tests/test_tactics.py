"""``gamesearch tactics`` on suites in the plain format (tic-tac-toe) and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import assert_usage_error, run_cli

from gamesearch import InvalidPositionError
from gamesearch.problems import Problem, read_problems
from gamesearch_games.tictactoe import TicTacToe

# X wins at once on cell 2; O must block on cell 2 (cells are numbered 0-8 row by row)
SUITE = """\
# two tic-tac-toe problems
XX./OO./... | 2 | X wins in one
XX./O../... | 2
"""


def write_suite(folder: Path, text: str) -> str:
    path = folder / "suite.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_plain_format_reads_position_best_moves_and_name() -> None:
    problems = read_problems(TicTacToe, SUITE)
    assert problems == [
        Problem("X wins in one", "XX./OO./...", ("2",)),
        Problem("line 3", "XX./O../...", ("2",)),
    ]


def test_every_searcher_gets_a_row_counting_the_positions_it_solves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = write_suite(tmp_path, SUITE + "X../.O./... | 0 | not the best move: any corner draws\n")
    status, out, err = run_cli(
        capsys,
        "tactics",
        "tictactoe",
        suite,
        "--searcher",
        "alphabeta",
        "--searcher",
        "minimax:depth=1",
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    assert (data["problems"], data["max_nodes"]) == (3, 20_000)
    rows = {row["searcher"]: row for row in data["rows"]}
    # alphabeta prefers the first best move, 1 (an edge), to the corner 0 on the last line
    assert [attempt["solved"] for attempt in rows["alphabeta"]["attempts"]] == [True, True, False]
    assert rows["alphabeta"]["solved"] == 2
    first = rows["minimax:depth=1"]["attempts"][0]
    assert (first["name"], first["move"], first["solved"], first["best_moves"]) == (
        "X wins in one",
        "2",
        True,
        ["2"],
    )
    assert first["nodes"] == 1 + 5  # the root and its five moves


def test_a_searcher_that_gives_up_within_the_budget_fails_the_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = write_suite(tmp_path, "......... | 4 | the empty board\n")
    status, out, err = run_cli(
        capsys,
        "tactics",
        "tictactoe",
        suite,
        "--searcher",
        "minimax",
        "--max-nodes",
        "10",
        "--json",
    )
    assert status == 0, err
    attempt = json.loads(out)["rows"][0]["attempts"][0]
    assert (attempt["move"], attempt["solved"]) == (None, False)


def test_the_table_names_the_suite_and_the_budget(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run_cli(
        capsys, "tactics", "tictactoe", write_suite(tmp_path, SUITE), "-s", "alphabeta"
    )
    assert status == 0, err
    assert "2 positions, 20,000 nodes each" in out and "2 of 2" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "XX./OO./...\n",
            r"line 1: 'XX./OO./...' must be 'position \| best move, best move \| name'",
        ),
        (" | 2\n", r"line 1: '\| 2' must be"),
    ],
)
def test_a_line_that_is_no_problem_is_named(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        read_problems(TicTacToe, text)


def test_bad_suites_and_budgets_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert_usage_error(
        capsys,
        "suite 'nowhere.txt' is no file and no suite of 'tictactoe' (its suites: none)",
        "tactics",
        "tictactoe",
        "nowhere.txt",
    )
    empty = write_suite(tmp_path, "# nothing\n")
    assert_usage_error(capsys, f"suite {empty!r} holds no problem", "tactics", "tictactoe", empty)
    suite = write_suite(tmp_path, "XX./OO./... | 9 | a full cell\n")
    assert_usage_error(
        capsys, "problem 'a full cell': move '9' cannot be read", "tactics", "tictactoe", suite
    )
    assert_usage_error(
        capsys, "--max-nodes must be >= 1: 0", "tactics", "tictactoe", suite, "--max-nodes", "0"
    )


def test_ctrl_c_prints_the_rows_of_the_searchers_done(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import gamesearch.cli.tactics as tactics

    real, calls = tactics.run_suite, []

    def interrupt_the_second(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tactics, "run_suite", interrupt_the_second)
    status, out, err = run_cli(
        capsys,
        "tactics",
        "tictactoe",
        write_suite(tmp_path, SUITE),
        "--searcher",
        "alphabeta",
        "--searcher",
        "minimax",
        "--json",
    )
    assert status == 130
    assert [row["searcher"] for row in json.loads(out)["rows"]] == ["alphabeta"]
    assert err.endswith(
        "gamesearch: interrupted after 1 of 2 searchers; the figures above are for those 1\n"
    )
