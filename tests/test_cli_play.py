"""``gamesearch play``: a game at the terminal, driven here through standard input."""

from __future__ import annotations

import io
import os
import sys
import time
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli, run_script

from gamesearch import AlphaBeta, Player
from gamesearch.boardview import BoardView
from gamesearch.cli.play import PlaySession, board_key
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.tictactoe import TicTacToe

#: every cell in order: whatever the engine took, the first free cell gets played
EVERY_CELL = "".join(f"{cell}\n" for cell in range(9))


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str
) -> str:
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
    assert ". . .    0 1 2\n. X .    3 . 5\n. . .    6 7 8" in out
    assert "O (alphabeta) plays 0: value 0 (draw), exact, depth 8, " in out and " nodes, " in out
    assert "O . .    . 1 2\n. X .    3 . 5\n. . .    6 7 8" in out


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
    assert out.split("Took back 4, 0.")[1].startswith(
        "\n\n. . .    0 1 2\n. . .    3 4 5\n. . .    6 7 8\n"
    )


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
    assert f"Hint: {expected.move} (best: {best}); value 0 (draw), exact, depth " in out


def test_help_lists_commands_and_legal_moves_and_new_starts_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "help\n4\nhelp\nnew\n", "--opponent", "alphabeta")
    assert "legal now: 0, 1, 2, 3, 4, 5, 6, 7, 8" in out
    assert "legal now: 1, 2, 3, 5, 6, 7, 8" in out
    for command in ("undo", "hint", "go", "new", "quit", "help"):
        assert f"\n  {command} " in out
    assert "New game.\n\n. . .    0 1 2\n" in out


def test_every_free_cell_shows_the_move_that_plays_it_beside_the_board(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(
        capsys,
        monkeypatch,
        "5\n",
        "-o",
        "rows=4",
        "-o",
        "cols=4",
        "-o",
        "k=4",
        "--opponent",
        "alphabeta:depth=1",
    )
    reply = (
        AlphaBeta(depth=1)
        .search(TicTacToe.from_text("..../.X../..../....", rows=4, cols=4, k=4))
        .move
    )
    labels = [" ." if cell in (5, reply) else f"{cell:>2}" for cell in range(16)]
    key = ["    " + " ".join(labels[row * 4 : row * 4 + 4]) for row in range(4)]
    board = TicTacToe.from_text("..../.X../..../....", rows=4, cols=4, k=4)
    board.play(str(reply))
    drawn = "\n".join(
        line + row for line, row in zip(board.render().splitlines(), key, strict=True)
    )
    assert drawn in out


def test_connect_four_keeps_its_column_numbers_under_the_board_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n"))
    status, out, err = run_cli(capsys, "play", "connect4", "--opponent", "alphabeta:depth=1")
    assert status == 0, err
    drawings = out.count("\n\n. . . . . . .")  # every drawing starts with the empty top row
    assert drawings == 3 and out.count("1 2 3 4 5 6 7\n") == drawings
    assert "4 4 4" not in out  # no grid of column numbers beside the board


def test_a_column_game_whose_drawing_lacks_the_columns_gets_a_line_of_them() -> None:
    view = BoardView(2, 3, ("", "", "X", "", "O", "X"), ("1", "2", None, "1", "2", None))
    assert board_key(view, ". . X\n. O X") == ("1 2 .",)
    assert board_key(view, ". . X\n. O X\n1 2 3") is None
    assert board_key(None, "anything") is None


def test_the_engine_says_the_depth_it_reached_and_whether_its_value_is_exact(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n"))
    status, out, err = run_cli(capsys, "play", "connect4", "--opponent", "alphabeta:depth=3")
    assert status == 0, err
    expected = AlphaBeta(depth=3).search(ConnectFour.from_text("4"))
    assert f"O (alphabeta:depth=3) plays {expected.move + 1}: value {expected.value} " in out
    assert f"not exact, depth {expected.stats.depth}, {expected.stats.nodes:,} nodes" in out


def _interrupted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make AlphaBeta.search scribble on the position it is given, then raise
    KeyboardInterrupt, the first time only: a Ctrl-C in the middle of a search."""
    search, calls = AlphaBeta.search, []

    def interrupted(searcher: AlphaBeta, game: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(game)
        if len(calls) == 1:
            game.push(game.legal_moves()[0])
            raise KeyboardInterrupt
        return search(searcher, game, *args, **kwargs)

    monkeypatch.setattr(AlphaBeta, "search", interrupted)


def test_ctrl_c_in_a_search_cancels_the_move_leaves_the_game_alone_and_go_resumes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _interrupted_once(monkeypatch)
    out = io.StringIO()
    session = PlaySession(
        TicTacToe(),
        {Player.FIRST: AlphaBeta(), Player.SECOND: AlphaBeta()},
        {Player.SECOND},
        io.StringIO("go\nquit\n"),
        out,
    )
    assert session.run() == 0
    text = out.getvalue()
    _, resumed = text.split(
        "X's move cancelled: type go to let the engine move; Ctrl-C again quits."
    )
    assert "X to move (go lets the engine play): go" in resumed
    expected = AlphaBeta().search(TicTacToe()).move
    assert f"X (alphabeta) plays {expected}: value 0 (draw), exact" in resumed
    assert session.game.history == (expected,)  # only the move played after go


def test_ctrl_c_during_a_hint_cancels_only_the_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupted_once(monkeypatch)
    out = io.StringIO()
    session = PlaySession(
        TicTacToe(),
        {side: AlphaBeta() for side in Player},
        {Player.FIRST},
        io.StringIO("hint\nhint\n"),
        out,
    )
    assert session.run() == 0
    expected = AlphaBeta().search(TicTacToe()).move
    assert "Hint cancelled." in out.getvalue() and f"Hint: {expected} (best: " in out.getvalue()
    assert session.game.history == ()


class _InterruptedPrompt(io.StringIO):
    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_says_goodbye_and_returns_130() -> None:
    out = io.StringIO()
    session = PlaySession(
        TicTacToe(),
        {side: AlphaBeta() for side in Player},
        {Player.FIRST},
        _InterruptedPrompt(),
        out,
    )
    assert session.run() == 130
    assert out.getvalue().endswith("X to move: \nInterrupted: goodbye.\n")


def _spawn(*argv: str) -> Any:
    """Return ``gamesearch argv`` running in a pseudo-terminal (pexpect), 20 s per expectation."""
    pexpect = pytest.importorskip(
        "pexpect", reason="the terminal tests drive a pseudo-terminal with pexpect"
    )
    env = {**os.environ, "TERM": "xterm", "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "gamesearch", *argv],
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(40, 120),
    )


def _finish(child: Any) -> int:
    """Wait (bounded) for the child to end and return its exit status."""
    child.expect(pytest.importorskip("pexpect").EOF)
    child.close()
    return int(child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus)


@pytest.mark.slow
def test_at_a_terminal_ctrl_c_cancels_the_thinking_engine_and_ctrl_c_at_the_prompt_quits() -> None:
    child = _spawn(
        "play", "connect4", "--human", "second", "--opponent", "alphabeta"
    )  # no depth: never ends
    try:
        child.expect_exact("X (alphabeta) is thinking; Ctrl-C cancels.")
        time.sleep(0.5)  # well inside the search
        child.sendintr()
        child.expect_exact("X's move cancelled: type go")
        child.expect_exact("X to move (go lets the engine play): ")
        child.sendline("4")
        child.expect_exact("O to move: ")
        # the cancelled search left the game as it was: one stone, where it was typed
        empty = ". . . . . . .\r\n"
        assert empty * 5 + ". . . X . . .\r\n1 2 3 4 5 6 7" in child.before
        child.sendintr()
        child.expect_exact("Interrupted: goodbye.")
        assert _finish(child) == 130
    finally:
        child.terminate(force=True)


@pytest.mark.slow
def test_at_a_terminal_go_lets_the_engine_move_after_a_cancel() -> None:
    child = _spawn("play", "tictactoe", "--human", "second", "--opponent", "iterative:seconds=1")
    try:
        child.expect_exact("is thinking; Ctrl-C cancels.")
        child.sendintr()
        child.expect_exact("X to move (go lets the engine play): ")
        child.sendline("go")
        child.expect_exact(") plays ")
        child.expect_exact("O to move: ")
        child.sendline("quit")
        assert _finish(child) == 0
    finally:
        child.terminate(force=True)


@pytest.mark.slow
def test_at_a_terminal_the_prompt_completes_commands_and_keeps_a_history() -> None:
    child = _spawn("play", "tictactoe", "--opponent", "alphabeta")
    try:
        child.expect_exact("X to move: ")
        child.send("hel\t\r")  # Tab completes "help"
        child.expect_exact("legal now: 0, 1, 2, 3, 4, 5, 6, 7, 8")
        child.expect_exact("X to move: ")
        child.send("4\r")
        child.expect_exact("O (alphabeta) plays ")
        child.expect_exact("X to move: ")
        child.send("\x1b[A\x1b[A\r")  # up twice: "help" again
        child.expect_exact("legal now: ")
        child.expect_exact("X to move: ")
        child.sendeof()
        assert _finish(child) == 0
    finally:
        child.terminate(force=True)


def test_the_human_may_play_second(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "quit\n", "--human", "second", "--opponent", "alphabeta")
    assert "X: engine alphabeta, O: human" in out
    assert out.index("X (alphabeta) plays 4") < out.index("O to move:")


def test_two_humans_undo_one_move_at_a_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "0\n4\nundo\n", "--human", "both")
    assert "Took back 4." in out and "O (" not in out


def test_watching_two_searchers_plays_to_the_end_without_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(
        capsys,
        monkeypatch,
        "",
        "--human",
        "none",
        "--opponent",
        "minimax",
        "--opponent",
        "alphabeta",
    )
    assert "X: engine minimax, O: engine alphabeta" in out
    assert out.count(" plays ") == 9 and out.rstrip().endswith("Game over: a draw.")


def test_the_seed_breaks_ties_at_random_and_repeats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def watch(seed: int) -> str:
        return play(
            capsys,
            monkeypatch,
            "",
            "--human",
            "none",
            "--opponent",
            "alphabeta",
            "--seed",
            str(seed),
        )

    assert _moves(watch(3)) == _moves(watch(3))
    assert len({_moves(watch(seed)) for seed in range(5)}) > 1


def _moves(transcript: str) -> tuple[str, ...]:
    return tuple(
        line.split(" plays ")[1].split(":")[0]
        for line in transcript.splitlines()
        if " plays " in line
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--opponent", "alphabeta:depth=x"), "option 'depth' must be"),
        (("--opponent", "random"), "unknown searcher 'random'"),
        (
            ("--opponent", "a", "--opponent", "b", "--opponent", "c"),
            "--opponent is given at most twice",
        ),
        (("--position", "XXXX/OOO/..."), "position 'XXXX/OOO/...'"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "play", "tictactoe", *argv)


@pytest.mark.slow
def test_the_installed_script_plays_a_game_from_a_pipe() -> None:
    done = run_script("play", "tictactoe", "--opponent", "alphabeta", stdin=EVERY_CELL)
    assert done.returncode == 0, done.stderr
    assert "Game over: a draw." in done.stdout or "Game over: O wins" in done.stdout
    helped = run_script("play", "--help")
    assert "gamesearch play tictactoe --human second --opponent minimax --seed 1" in helped.stdout
