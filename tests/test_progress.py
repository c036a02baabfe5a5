"""Long commands show their progress and, stopped with Ctrl-C, print what they finished."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli
from rich.console import Console

import gamesearch_games.connect4.solve_bench
import gamesearch_games.connect4.uci_check
from gamesearch.cli import _progress
from gamesearch.cli._progress import EXIT_INTERRUPTED, ProgressReport, duration, interruptible

#: late Test_L3_R1 positions (solved in milliseconds) with their scores
LATE = (
    "7422341735647741166133573473242566 1\n"
    "2252576253462244111563365343671351441 -1\n"
    "211376455663355325112113664364524722 0\n"
    "6763525635134453444361412671365712 -1\n"
)


def text_console() -> tuple[Console, io.StringIO]:
    stream = io.StringIO()
    return Console(file=stream, force_terminal=False, width=200), stream


def test_without_a_terminal_a_line_is_written_every_interval() -> None:
    console, stream = text_console()
    with ProgressReport("solving", 10, unit="positions", console=console, interval=0.05) as report:
        assert not report.is_bar
        for _ in range(4):
            report.advance()
            time.sleep(0.06)
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 3
    assert (
        lines[0].startswith("solving: ")
        and " of 10 positions (" in lines[0]
        and " elapsed" in lines[0]
    )
    assert lines[-1].startswith("solving: 4 of 10 positions (40%), ") and "left" in lines[-1]


def test_a_short_run_without_a_terminal_writes_nothing() -> None:
    console, stream = text_console()
    with ProgressReport("solving", 3, console=console, interval=5) as report:
        report.advance(3)
    assert stream.getvalue() == ""


def test_the_estimate_of_the_time_left_follows_the_rate_so_far() -> None:
    console, _ = text_console()
    report = ProgressReport("checking", 4, unit="rows", console=console)
    assert report.status_line() == "checking: 0 of 4 rows (0%), 0 s elapsed, time left unknown yet"
    report._started = time.monotonic() - 30
    report.advance()
    assert (
        report.status_line() == "checking: 1 of 4 rows (25%), 30 s elapsed, about 1 min 30 s left"
    )
    downloading = ProgressReport("downloading", 2_000_000, unit="bytes", console=console)
    downloading.set_completed(500_000)
    assert downloading.status_line().startswith("downloading: 0.5 MB of 2.0 MB (25%), ")


def test_on_a_terminal_a_bar_shows_the_steps_and_the_time_left() -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=120)
    with ProgressReport("solving Test_L3_R1", 5, unit="positions", console=console) as report:
        assert report.is_bar
        report.advance(2, note="4453")
        console.file.flush()
        report._bar.refresh()  # type: ignore[union-attr]
    drawn = stream.getvalue()
    assert "solving Test_L3_R1: 4453" in drawn and "2/5" in drawn and "left" in drawn


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0 s"), (41.6, "42 s"), (185, "3 min 05 s"), (3725, "1 h 02 min")]
)
def test_durations_read_as_people_write_them(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_interruptible_turns_ctrl_c_into_a_flag() -> None:
    done = []
    with interruptible() as stop:
        done.append(1)
        raise KeyboardInterrupt
    assert stop.interrupted and done == [1]
    with interruptible() as calm:
        pass
    assert not calm.interrupted


def interrupt_on_call(number: int, real: Any) -> Any:
    """Return ``solve`` that raises KeyboardInterrupt on its ``number``-th call."""
    calls = []

    def solve(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == number:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    return solve


def test_ctrl_c_in_solve_bench_prints_the_figures_so_far_and_exits_130(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "late"
    path.write_text(LATE)
    monkeypatch.setattr(
        gamesearch_games.connect4.solve_bench,
        "solve",
        interrupt_on_call(3, gamesearch_games.connect4.solve_bench.solve),
    )
    status, out, err = run_cli(capsys, "solve-bench", str(path))
    assert status == EXIT_INTERRUPTED == 130
    assert "positions solved" in out and "│ agree with the file" in out
    solved_row = next(line for line in out.splitlines() if "positions solved" in line)
    assert solved_row.split("│")[2].strip() == "2"
    assert (
        err == "gamesearch: interrupted after 2 of 4 positions; the figures above are for those 2\n"
    )


def test_ctrl_c_in_solve_bench_json_marks_the_report_interrupted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "late"
    path.write_text(LATE)
    monkeypatch.setattr(
        gamesearch_games.connect4.solve_bench,
        "solve",
        interrupt_on_call(4, gamesearch_games.connect4.solve_bench.solve),
    )
    status, out, _ = run_cli(capsys, "solve-bench", str(path), "--json")
    report = json.loads(out)
    assert status == 130 and report["interrupted"] is True
    assert (report["positions"], report["planned"], report["agree"]) == (3, 4, 3)


def test_ctrl_c_in_uci_check_prints_the_rows_checked_so_far(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = "b,b,b,b,b,b,b,b,b,b,b,b,x,o,x,o,x,o,x,o,b,b,b,b,o,x,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,b,win"
    cells = row.split(",")[:-1]
    columns = [cells[6 * column : 6 * column + 6] for column in range(7)]
    mirrored = ",".join(cell for column in reversed(columns) for cell in column) + ",win"
    shifted = ",".join(cell for column in [*columns[1:], columns[0]] for cell in column) + ",win"
    data = tmp_path / "rows"
    data.write_text("\n".join([row, mirrored, shifted]) + "\n")  # three positions, each once
    monkeypatch.setattr(
        gamesearch_games.connect4.uci_check,
        "solve",
        interrupt_on_call(2, lambda game, weak: (1, 7)),
    )
    status, out, err = run_cli(capsys, "uci-check", "--file", str(data), "--sample", "3")
    assert status == 130
    checked = next(line for line in out.splitlines() if "rows checked" in line)
    assert checked.split("│")[2].strip() == "1 of 3 (0)"
    assert err == "gamesearch: interrupted after 1 of 3 rows; the figures above are for those 1\n"


def test_solve_bench_writes_progress_lines_on_stderr_without_a_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "late"
    path.write_text(LATE)
    monkeypatch.setattr(_progress, "LINE_INTERVAL", 0.05)
    real = gamesearch_games.connect4.solve_bench.solve

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.08)
        return real(*args, **kwargs)

    monkeypatch.setattr(gamesearch_games.connect4.solve_bench, "solve", slow)
    status, out, err = run_cli(capsys, "solve-bench", str(path))
    assert status == 0 and "agree with the file" in out
    assert "solving late: " in err and err.rstrip().splitlines()[-1].startswith(
        "solving late: 4 of 4 positions (100%)"
    )


@pytest.mark.slow
def test_sigint_to_the_running_command_prints_the_report_and_exits_130(tmp_path: Path) -> None:
    import os
    import select
    import signal
    import subprocess
    import sys

    slow = "4444" + " 1\n"  # an early position: minutes to solve, so still running when stopped
    path = tmp_path / "mixed"
    path.write_text(LATE.splitlines()[0] + "\n" + slow)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "gamesearch", "solve-bench", str(path), "--each"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "the command printed nothing in 60 s"
        first = process.stdout.readline()
        assert first.startswith("line 1 ")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait(timeout=10)
    assert process.returncode == 130
    solved_row = next(line for line in out.splitlines() if "positions solved" in line)
    assert solved_row.split("│")[2].strip() == "1"
    assert err.endswith(
        "gamesearch: interrupted after 1 of 2 positions; the figures above are for those 1\n"
    )
