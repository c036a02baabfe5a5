"""``python -m benchmarks.tiers`` (``make coverage``) on a tiny suite of its own.

Each test runs pytest under coverage.py on one file written here, so the share it would
print is never measured over the real suite (that takes the whole suite's time).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.tiers import SuiteFailed, covered_lines, main, measure, output_file

PASSING = """
from gamesearch_games.tictactoe import TicTacToe

def test_a_game_starts():
    assert TicTacToe().to_move() is not None
"""

FAILING = """
def test_one_passes():
    assert True

def test_the_one_that_fails():
    assert 6 * 7 == 43, "the arithmetic this test expects"
"""


@pytest.mark.slow
def test_a_failing_test_is_reported_with_its_message(tmp_path: Path) -> None:
    suite = tmp_path / "test_failing.py"
    suite.write_text(FAILING)
    # in one process (the caller's options come last): the report is read the same way,
    # and the run with workers is test_a_passing_run_records_the_lines_it_ran's
    with pytest.raises(SuiteFailed) as failed:
        measure(tmp_path / "data", ["-n", "0", str(suite)])
    report = str(failed.value)
    assert "test_the_one_that_fails" in report and "the arithmetic this test expects" in report
    assert "1 failed, 1 passed" in report
    assert output_file(tmp_path / "data").read_text().endswith(report)


@pytest.mark.slow
def test_a_passing_run_records_the_lines_it_ran(tmp_path: Path) -> None:
    suite = tmp_path / "test_passing.py"
    suite.write_text(PASSING)
    seconds = measure(tmp_path / "data", [str(suite)])
    assert seconds > 0 and "1 passed" in output_file(tmp_path / "data").read_text()
    ran = {Path(path).name: lines for path, lines in covered_lines(tmp_path / "data").items()}
    assert ran.get("tictactoe.py"), sorted(ran)


def test_measuring_the_fast_tier_alone_needs_the_kept_data_of_the_whole_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--keep", str(tmp_path), "--fast-only"])
    assert exited.value.code == 2
    assert "--fast-only needs --keep naming a folder" in capsys.readouterr().err
