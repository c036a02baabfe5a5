"""``gamesearch play``: a game at the terminal, driven here through standard input."""

from __future__ import annotations

import io

import pytest
from clirun import assert_usage_error, run_cli, run_script

from games.tictactoe import TicTacToe
from gamesearch import AlphaBeta

#: every cell in order: whatever the engine took, the first free cell gets played
EVERY_CELL = "".join(f"{cell}\n" for cell in range(9))


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status, out, err = run_cli(capsys, "play", "tictactoe", *argv)
    assert status == 0 and err == "", err
    return out


@pytest.mark.parametrize("opening", range(9))
def test_a_full_game_against_the_unbeatable_engine_ends_in_a_draw_or_an_engine_win(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, opening: int
) -> None:
    out = play(capsys, monkeypatch, f"{opening}\n" + EVERY_CELL, "--opponent", "alphabeta")
    assert "Game over: a draw." in out or "Game over: O wins (the engine alphabeta)." in out
    assert "(you)" not in out
    assert out.rstrip().endswith("game over; new, undo or quit:")


def test_the_board_is_drawn_after_every_move_and_the_engine_reports_its_search(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "4\nquit\n", "--opponent", "alphabeta")
    assert "X: human, O: engine alphabeta" in out
    assert ". . .\n. X .\n. . ." in out
    assert "O (alphabeta) plays 0: value 0 (draw), " in out and " nodes, " in out
    assert "O . .\n. X .\n. . ." in out


def test_unreadable_and_illegal_input_gets_the_reason_and_the_prompt_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "e4\n9\n4\n4\n\n", "--opponent", "alphabeta")
    assert "move 'e4' is not a cell index; use a number from 0 to 8. Type help" in out
    assert "cell '9' is off the board" in out
    assert "illegal move '4' in 'O../.X./...'; legal moves: 1, 2, 3, 5, 6, 7, 8" in out
    # e4, 9, 4 (played), 4 (refused), the empty line, then the end of input
    assert out.count("X to move:") == 6


def test_undo_takes_back_the_human_move_and_the_reply(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "undo\n4\nundo\nundo\n", "--opponent", "alphabeta")
    assert out.count("Nothing to undo: you have not moved yet.") == 2
    assert "Took back 4, 0." in out
    assert out.split("Took back 4, 0.")[1].startswith("\n\n. . .\n. . .\n. . .\n")


def test_after_a_lost_game_undo_takes_the_last_moves_back_and_play_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # X plays 1, 2, 3, 5: the engine wins with its fourth move; undo, then quit
    out = play(capsys, monkeypatch, "1\n2\n3\n5\nundo\nhint\n", "--opponent", "alphabeta")
    before, after = out.split("Took back ")
    assert "Game over: O wins (the engine alphabeta)." in before
    assert "X to move:" in after and "Hint: " in after and "Game over" not in after


def test_hint_gives_the_engines_best_move_and_value(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "0\nhint\n", "--opponent", "alphabeta")
    expected = AlphaBeta().search(TicTacToe.from_text("X../.O./..."))
    best = ", ".join(str(move) for move in expected.best_moves)
    assert f"Hint: {expected.move} (best: {best}); value 0 (draw)" in out


def test_help_lists_commands_and_legal_moves_and_new_starts_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "help\n4\nhelp\nnew\n", "--opponent", "alphabeta")
    assert "legal now: 0, 1, 2, 3, 4, 5, 6, 7, 8" in out
    assert "legal now: 1, 2, 3, 5, 6, 7, 8" in out
    for command in ("undo", "hint", "new", "quit", "help"):
        assert f"\n  {command} " in out
    assert "New game.\n\n. . .\n. . .\n. . ." in out


def test_the_human_may_play_second(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(capsys, monkeypatch, "quit\n", "--human", "second", "--opponent", "alphabeta")
    assert "X: engine alphabeta, O: human" in out
    assert out.index("X (alphabeta) plays 4") < out.index("O to move:")


def test_two_humans_undo_one_move_at_a_time(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(capsys, monkeypatch, "0\n4\nundo\n", "--human", "both")
    assert "Took back 4." in out and "O (" not in out


def test_watching_two_searchers_plays_to_the_end_without_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "", "--human", "none", "--opponent", "minimax", "--opponent", "alphabeta")
    assert "X: engine minimax, O: engine alphabeta" in out
    assert out.count(" plays ") == 9 and out.rstrip().endswith("Game over: a draw.")


def test_the_seed_breaks_ties_at_random_and_repeats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def watch(seed: int) -> str:
        return play(capsys, monkeypatch, "", "--human", "none", "--opponent", "alphabeta", "--seed", str(seed))

    assert _moves(watch(3)) == _moves(watch(3))
    assert len({_moves(watch(seed)) for seed in range(5)}) > 1


def _moves(transcript: str) -> tuple[str, ...]:
    return tuple(line.split(" plays ")[1].split(":")[0] for line in transcript.splitlines() if " plays " in line)



@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--opponent", "alphabeta:depth=x"), "option 'depth' must be"),
        (("--opponent", "random"), "unknown searcher 'random'"),
        (("--opponent", "a", "--opponent", "b", "--opponent", "c"), "--opponent is given at most twice"),
        (("--position", "XXXX/OOO/..."), "position 'XXXX/OOO/...'"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "play", "tictactoe", *argv)


def test_the_installed_script_plays_a_game_from_a_pipe() -> None:
    done = run_script("play", "tictactoe", "--opponent", "alphabeta", stdin=EVERY_CELL)
    assert done.returncode == 0, done.stderr
    assert "Game over: a draw." in done.stdout or "Game over: O wins" in done.stdout
    helped = run_script("play", "--help")
    assert "gamesearch play tictactoe --human second --opponent minimax --seed 1" in helped.stdout
