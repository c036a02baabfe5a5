"""The Connect Four benchmark commands on samples of the public data sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import assert_usage_error, run_cli

from gamesearch.errors import InvalidDataError, InvalidPositionError
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.connect4.data import (
    benchmark_score,
    data_dir,
    parse_uci_row,
    read_score_file,
    read_uci,
)

DATA = data_dir()
needs_data = pytest.mark.skipif(
    not (DATA / "Test_L3_R1").is_file(), reason=f"no benchmark data in {DATA}"
)

#: a sample of each set (line numbers) that solves in seconds, strong and weak: every
#: 50th or 100th line of the easy sets, cheap lines (under ~50,000 nodes) of the others
SAMPLES = {
    "Test_L3_R1": range(1, 1001, 50),
    "Test_L2_R1": range(1, 1001, 100),
    "Test_L2_R2": (4, 12, 13, 20),
    "Test_L1_R1": (3, 6, 7, 11, 13),
    "Test_L1_R2": (9,),
}


def write_sample(tmp_path: Path, name: str) -> Path:
    lines = (DATA / name).read_text().splitlines()
    sample = tmp_path / name
    sample.write_text("".join(f"{lines[number - 1]}\n" for number in SAMPLES[name]))
    return sample


@needs_data
@pytest.mark.parametrize("weak", [False, True], ids=["strong", "weak"])
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_sample_of_each_set_agrees_with_its_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, weak: bool
) -> None:
    sample = write_sample(tmp_path, name)
    status, out, _ = run_cli(
        capsys, "solve-bench", str(sample), "--json", *(["--weak"] if weak else [])
    )
    report = json.loads(out)
    assert status == 0
    assert report["positions"] == report["agree"] == len(SAMPLES[name])
    assert report["mean_nodes"] > 0 and report["disagreements"] == []


@needs_data
def test_the_whole_published_set_is_compared_with_pons_mean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "solve-bench", "Test_L3_R1", "--json")
    report = json.loads(out)
    assert status == 0 and report["set"] == "Test_L3_R1" and report["positions"] == 1000
    assert report["pons_mean_nodes"] == 51.28 and report["pons_positions"] == 1000
    assert report["ratio_to_pons"] == pytest.approx(report["mean_nodes"] / 51.28)
    assert report["pons_note"] is None


@needs_data
def test_a_limited_run_prints_no_ratio_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "solve-bench", "Test_L3_R1", "--limit", "5")
    assert status == 0
    assert (
        "agree with the file" in out
        and "Pons' mean nodes (all 1,000 positions)" in out
        and "51.3" in out
    )
    ratio_row = next(line for line in out.splitlines() if "ratio to Pons" in line and "│" in line)
    assert ratio_row.split("│")[2].strip() == "-"
    assert "his counts per position are not published, so it is not comparable with these 5" in out
    status, out, _ = run_cli(capsys, "solve-bench", "Test_L3_R1", "--limit", "5", "--json")
    report = json.loads(out)
    assert report["ratio_to_pons"] is None and "not comparable" in report["pons_note"]


@needs_data
def test_a_file_that_is_not_the_published_set_gets_no_ratio(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sample = write_sample(tmp_path, "Test_L3_R1")  # named like the set, 20 of its lines
    status, out, _ = run_cli(capsys, "solve-bench", str(sample), "--json")
    report = json.loads(out)
    assert status == 0 and report["set"] is None and report["ratio_to_pons"] is None
    assert report["pons_note"].startswith(
        "no ratio to Pons: this file is not the published Test_L3_R1"
    )


def test_a_disagreement_is_printed_and_fails_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    wrong = tmp_path / "wrong"
    wrong.write_text("1212121 0\n121212 3\n")  # the first is over; the second wins at once: 18
    status, out, _ = run_cli(capsys, "solve-bench", str(wrong), "--each")
    assert status == 1
    assert "disagreement on line 2: 121212 expected 3, found 18" in out
    assert "line 1 1212121 expected 0 found -18" in out


def test_a_malformed_line_and_a_missing_file_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad"
    bad.write_text("4453 x\n")
    assert_usage_error(capsys, "line 1 of", "solve-bench", str(bad))
    assert_usage_error(capsys, "no file 'missing'", "solve-bench", "missing")
    assert_usage_error(capsys, "--limit must be >= 1: 0", "solve-bench", str(bad), "--limit", "0")


def test_a_file_that_is_not_text_or_is_empty_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    latin = tmp_path / "latin"
    latin.write_bytes("4453 2\n44 caf\xe9\n".encode("latin-1"))
    image = tmp_path / "image.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n")
    empty = tmp_path / "empty"
    empty.write_text("\n\n")
    assert_usage_error(capsys, "line 2 of", "solve-bench", str(latin))
    assert_usage_error(capsys, "is not ASCII text (byte 0xe9)", "solve-bench", str(latin))
    assert_usage_error(capsys, "holds no '<moves> <score>' line", "solve-bench", str(empty))
    assert_usage_error(capsys, "line 1 of", "uci-check", "--file", str(image))
    assert_usage_error(capsys, "is not ASCII text (byte 0x89)", "uci-check", "--file", str(image))
    assert_usage_error(capsys, "holds no UCI row", "uci-check", "--file", str(empty))
    assert_usage_error(capsys, "is a folder", "uci-check", "--file", str(tmp_path))
    with pytest.raises(InvalidDataError, match=r"holds no UCI row"):
        read_uci(empty)


def test_benchmark_scores_count_the_winners_stones() -> None:
    game = ConnectFour.from_text("121212")
    assert benchmark_score(game, game.rules.scale.win - 7) == 18  # X wins with its 4th stone
    assert benchmark_score(game, -(game.rules.scale.win - 42)) == -1  # O wins with its 21st stone
    assert benchmark_score(game, 0) == 0


def test_score_file_lines_are_read_with_their_numbers(tmp_path: Path) -> None:
    path = tmp_path / "set"
    path.write_text("4453 -2\n\n12 7\n")
    assert [(p.line, p.moves, p.score) for p in read_score_file(path)] == [
        (1, "4453", -2),
        (3, "12", 7),
    ]


UCI_ROW = (
    "x,o,b,b,b,b, b,b,b,b,b,b, x,o,x,o,b,b, o,b,b,b,b,b, b,b,b,b,b,b, x,b,b,b,b,b, b,b,b,b,b,b, win"
)


def test_a_uci_row_is_read_column_by_column_from_the_bottom() -> None:
    row = parse_uci_row(UCI_ROW.replace(" ", ""), 7)
    assert row.line == 7 and row.result == 1
    game = ConnectFour.from_text(row.grid)
    assert game.to_grid().split("/")[-2:] == ["O.O....", "X.XO.X."]
    assert game.cell(0, 1) == "O" and game.ply == 8


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x,o,win", r"UCI row 3 has 3 fields; expected 43"),
        (
            UCI_ROW.replace(" ", "").replace("win", "won"),
            r"ends with 'won'; expected win, loss or draw",
        ),
        (
            UCI_ROW.replace(" ", "").replace("x,o,b", "x,z,b", 1),
            r"has cell 'z'; expected x, o or b",
        ),
    ],
)
def test_bad_uci_rows_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        parse_uci_row(text, 3)


def uci_row(game: ConnectFour, label: str) -> str:
    cells = []
    for col in range(7):
        for row in range(6):
            cells.append({"X": "x", "O": "o", ".": "b"}[game.cell(col, row)])
    return ",".join([*cells, label])


def test_uci_check_compares_the_weak_solver_with_each_label(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Late positions of Test_L3_R1 (quick to solve) written as UCI rows: X to move wins,
    # draws; O to move loses, so X wins.
    late = {
        "7422341735647741166133573473242566": "win",
        "211376455663355325112113664364524722": "draw",
        "6763525635134453444361412671365712": "loss",
        "2252576253462244111563365343671351441": "win",
    }
    rows = [uci_row(ConnectFour.from_text(moves), label) for moves, label in late.items()]
    data = tmp_path / "c4.data"
    data.write_text("\n".join(rows) + "\n")
    status, out, _ = run_cli(capsys, "uci-check", "--file", str(data), "--sample", "5", "--json")
    report = json.loads(out)
    assert status == 0 and report["checked"] == report["agree"] == 4
    data.write_text(rows[0].replace("win", "loss") + "\n")
    status, out, _ = run_cli(capsys, "uci-check", "--file", str(data))
    assert status == 1 and "expected loss, found win" in out
