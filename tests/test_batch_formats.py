"""How ``gamesearch batch`` reads a file: an expected value only where the format says so.

The framework's ``lines`` format reads a value only after ``|``; a plugin's own formats
(Connect Four's ``pons`` and ``uci``) are chosen by ``--format`` or by the name of a file
of the game's data set, never guessed from the text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli

from gamesearch.batch import Expect, read_positions
from gamesearch.errors import InvalidPositionError
from gamesearch.plugins import default_registry

#: two Connect Four positions where the side to move wins at once with its 4th stone:
#: Pons' score 22 - 4 = 18 for the side to move (X after "121212", O after "2121213")
PONS_LINES = "121212 18\n2121213 18\n"
#: chess positions in FEN, whose last two fields are move counters
FENS = (
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
)


def needs_chess() -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        "chess" not in default_registry().games, reason="the chess example plugin is not installed"
    )


def batch(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    store = str(tmp_path / "results.sqlite")
    return run_cli(capsys, "batch", *argv, "--workers", "1", "--store", store)


@needs_chess()
def test_a_fens_move_counters_are_part_of_the_position_not_an_expected_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "fens.txt"
    path.write_text("".join(fen + "\n" for fen in FENS))
    positions, _ = read_positions(path, "chess")
    assert [(item.position, item.expected) for item in positions] == [(fen, None) for fen in FENS]
    status, out, err = batch(capsys, tmp_path, "chess", str(path), "-s", "alphabeta:depth=1")
    assert (status, err) == (0, "")
    assert out.startswith("2 of 2 done, 0 failed") and "disagree" not in out


@needs_chess()
def test_a_fen_with_a_value_after_the_bar_is_compared_with_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mate.txt"
    mated = "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"  # after Rd8: black is checkmated
    path.write_text(f"{mated} | win\n")
    positions, _ = read_positions(path, "chess")
    assert [(item.position, item.expected, item.expect) for item in positions] == [
        (mated, 1, Expect.OUTCOME)
    ]
    status, out, _ = batch(capsys, tmp_path, "chess", str(path), "-s", "alphabeta:depth=1")
    assert status == 0 and "1 of 1 agree" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("zzz not a position", "is not a Connect Four position: expected the columns played"),
        ("4 4 45", "mixes columns written together and apart"),
        ("8", "columns are 1 to 7"),
    ],
)
def test_a_line_that_is_not_a_connect4_position_is_named_as_such(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"4453\n{line}\n")
    status, out, err = batch(capsys, tmp_path, "connect4", str(path))
    assert status == 2 and out == ""
    assert err.startswith(
        f"gamesearch: error: line 2 of {str(path)!r} is not a position of connect4"
    )
    assert message in err and "width" not in err and "height" not in err


def test_moves_written_one_a_space_are_one_position(tmp_path: Path) -> None:
    path = tmp_path / "spaced.txt"
    path.write_text("4 4 4 | 0\n")
    positions, _ = read_positions(path, "connect4")
    assert [(item.position, item.expected) for item in positions] == [("4 4 4", 0)]


def test_a_renamed_slice_of_a_pons_set_is_not_read_as_margins(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "my-slice.txt"
    path.write_text(PONS_LINES)
    status, _, err = batch(capsys, tmp_path, "connect4", str(path))
    assert status == 2
    assert "line 1 of" in err and "--format NAME: 'pons': Pascal Pons'" in err
    status, out, _ = batch(capsys, tmp_path, "connect4", str(path), "--format", "pons", "--json")
    summary = json.loads(out)
    assert status == 0 and (summary["done"], summary["agreed"]) == (2, 2)


def test_a_file_named_as_a_pons_set_is_read_in_the_format_its_data_set_declares(
    tmp_path: Path,
) -> None:
    path = tmp_path / "Test_L3_R1"
    path.write_text(PONS_LINES)
    positions, position_format = read_positions(path, "connect4")
    assert position_format.name == "pons" and position_format.expect is Expect.SCORE
    assert [(item.position, item.expected) for item in positions] == [
        ("121212", 18),
        ("2121213", 18),
    ]


def test_a_value_that_cannot_be_a_final_result_of_the_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "scores.txt"
    path.write_text("121212 | 18\n")
    with pytest.raises(
        InvalidPositionError,
        match=r"line 1 of .*: 18 cannot be a final result of connect4, whose results lie "
        r"between -1 and 1",
    ):
        read_positions(path, "connect4")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O/.X./... | maybe", r"the expected value after '\|' is 'maybe'; expected win, draw"),
        (" | 1", r"has no position before '\|'"),
        ("X.O/.X./... | 1_0", r"the expected value after '\|' is '1_0'"),
    ],
)
def test_a_bad_expected_value_is_named_with_its_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"# a comment\n{text}\n")
    with pytest.raises(InvalidPositionError, match=r"line 2 of .*" + message):
        read_positions(path, "tictactoe")


def test_a_game_of_three_players_takes_no_single_expected_value(tmp_path: Path) -> None:
    path = tmp_path / "three.txt"
    path.write_text("..././... | 1\n")
    with pytest.raises(InvalidPositionError, match=r"one result per player"):
        read_positions(path, "mnk3")


def test_a_format_the_game_does_not_declare_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "one.txt"
    path.write_text("X.O/.X./...\n")
    status, _, err = batch(capsys, tmp_path, "tictactoe", str(path), "--format", "pons")
    assert status == 2
    assert (
        err == "gamesearch: error: tictactoe has no position format 'pons'; expected one of lines\n"
    )
