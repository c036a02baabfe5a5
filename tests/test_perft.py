"""Perft: leaf counts of the legal-move tree, from Python and from the command line.

The checkers figures are the published ones from the start position: Aart Bik, "perft
for 8x8 checkers" (2009), computed with the move generator of his engine BikMove and
listed on his checkers page (aartbik.com, "Perft for Checkers"). The tic-tac-toe figures
come from this file's own count of move sequences over a list of nine cells.
"""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import permutations

import pytest
from clirun import assert_usage_error, run_cli

from gamesearch.errors import InvalidOptionError, UnknownGameError
from gamesearch.plugins import default_registry
from gamesearch.testing import perft

#: perft(1) .. perft(7) of checkers from the start (Aart Bik's table)
CHECKERS_START = (7, 49, 302, 1_469, 7_361, 36_768, 179_740)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def tictactoe_sequences(depth: int) -> int:
    """Return how many orders of ``depth`` distinct cells are games nobody won before their last
    move."""
    count = 0
    for cells in permutations(range(9), depth):
        marks: dict[int, int] = {}
        for ply, cell in enumerate(cells):
            if any(all(marks.get(square) == (ply - 1) % 2 for square in line) for line in LINES):
                break  # the mover of the previous ply had won: no further move is legal
            marks[cell] = ply % 2
        else:
            count += 1
    return count


@pytest.mark.parametrize("depth", range(1, 7))
def test_checkers_reproduces_the_published_perft_figures_from_the_start(depth: int) -> None:
    assert perft("checkers", depth) == CHECKERS_START[depth - 1]


def test_checkers_perft_7_is_179740() -> None:
    assert perft(default_registry().new_game("checkers"), 7) == CHECKERS_START[6]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_tictactoe_perft_counts_every_sequence_of_legal_moves(depth: int) -> None:
    assert perft("tictactoe", depth) == tictactoe_sequences(depth)


def test_tictactoe_perft_9_counts_only_the_games_that_last_nine_plies() -> None:
    # of the 255,168 games of tic-tac-toe, 81,792 end with X's win on the ninth move and
    # 46,080 are draws (Henry Bottomley's counts)
    assert perft("tictactoe", 9) == 81_792 + 46_080


def test_divide_gives_each_first_move_its_count_in_the_order_of_the_legal_moves() -> None:
    game = default_registry().new_game("checkers")
    counts = perft(game, 3, divide=True)
    assert list(counts) == [game.format_move(move) for move in game.legal_moves()]
    assert sum(counts.values()) == 302
    for move, count in counts.items():
        after = game.copy()
        after.play(move)
        assert perft(after, 2) == count


def test_perft_leaves_the_position_as_it_was_and_reports_each_first_move() -> None:
    game = default_registry().new_game("checkers", "11-15 23-19")
    before = (game.to_text(), game.key(), game.history)
    seen: list[tuple[str, int]] = []
    total = perft(game, 3, on_move=lambda move, count: seen.append((move, count)))
    assert (game.to_text(), game.key(), game.history) == before
    assert [move for move, _ in seen] == [game.format_move(move) for move in game.legal_moves()]
    assert sum(count for _, count in seen) == total


def test_depth_zero_counts_the_position_itself_and_a_finished_game_has_no_leaves() -> None:
    finished = default_registry().new_game("tictactoe", "XXX/OO./...")
    assert perft(finished, 0) == 1
    assert perft(finished, 1) == perft(finished, 4) == 0
    assert perft("connect4", 0) == 1


def test_options_start_the_named_game() -> None:
    assert perft("tictactoe", 2, options={"rows": 2, "cols": 2, "k": 2}) == 12


@pytest.mark.parametrize("depth", [-1, 2.5, True])
def test_a_bad_depth_is_refused(depth: object) -> None:
    with pytest.raises(InvalidOptionError, match=r"perft depth must be a whole number >= 0: "):
        perft("checkers", depth)  # type: ignore[call-overload]


def test_divide_at_depth_zero_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match="perft divide needs a depth >= 1"):
        perft("checkers", 0, divide=True)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGameError, match="'draughts'"):
        perft("draughts", 1)


# ----------------------------------------------------------------- command line
def test_the_command_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "perft", "checkers", "--depth", "5")
    assert status == 0, err
    assert out.startswith("checkers (start): perft 5 = 7,361 leaves (")


def test_the_json_gives_game_position_depth_nodes_and_the_divide_when_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "perft", "checkers", "-p", "11-15", "--depth", "1", "--json")
    assert status == 0, err
    data = json.loads(out)
    position = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15 0 1"
    assert (data["game"], data["position"], data["depth"], data["nodes"]) == (
        "checkers",
        position,
        1,
        7,
    )
    assert "divide" not in data and data["seconds"] >= 0
    status, out, err = run_cli(capsys, "perft", "checkers", "--depth", "2", "--divide", "--json")
    divide = json.loads(out)["divide"]
    assert divide == {
        move: 7 for move in ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
    }


def test_divide_prints_a_row_per_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "perft", "tictactoe", "--depth", "2", "--divide")
    assert status == 0, err
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 9 and all(line.split("│")[2].strip() == "8" for line in rows)
    assert "perft 2 = 72 leaves" in out


def test_the_command_refuses_a_depth_below_one_and_a_bad_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_usage_error(capsys, "--depth must be >= 1: 0", "perft", "checkers", "--depth", "0")
    assert_usage_error(
        capsys, "position 'B:W1:B33'", "perft", "checkers", "-p", "B:W1:B33", "--depth", "1"
    )
    assert_usage_error(capsys, "unknown game", "perft", "draughts", "--depth", "1")


def test_the_kits_perft_stays_the_function_once_the_command_line_is_imported() -> None:
    """A module that imports ``gamesearch.testing``'s submodule ``perft`` makes the package's
    ``perft`` that module, unless it imports the name: every command module is imported here,
    in a fresh interpreter, before a user's ``from gamesearch.testing import perft``."""
    script = (
        "import importlib, pkgutil, gamesearch.cli as cli\n"
        "for found in pkgutil.iter_modules(cli.__path__):\n"
        "    if not found.name.startswith('__'):  # (__main__ runs the command line)\n"
        "        importlib.import_module(f'gamesearch.cli.{found.name}')\n"
        "from gamesearch.testing import perft\n"
        "print(perft('tictactoe', 2))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tictactoe_sequences(2))]
