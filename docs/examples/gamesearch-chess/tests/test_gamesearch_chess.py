"""The chess plugin's tests: the kit on chess positions, the rules through the adapter,
perft, and mates found by the searchers (checked against a brute-force mate search
written here on python-chess alone)."""

from __future__ import annotations

import json
import pickle
import random
import resource
import subprocess
import sys
from collections.abc import Hashable, Iterable
from pathlib import Path

import pytest

pytest.importorskip(
    "gamesearch_chess",
    reason="the chess plugin is not installed: pip install -e docs/examples/gamesearch-chess",
)

import chess  # noqa: E402
import chess.variant  # noqa: E402
from gamesearch_chess import MAX_PLIES, Chess, plies_left_at_most  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gamesearch import (  # noqa: E402
    AlphaBeta,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)
from gamesearch.problems import Problem  # noqa: E402
from gamesearch.rules import terminal_sign  # noqa: E402
from gamesearch.testing import check_game, perft  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


# ------------------------------------------------------------------ the kit
# (the opening: tests/test_kit.py walks it 100 positions deep, with a random game to its end)
@pytest.mark.parametrize(
    ("start", "positions"),
    [
        # castling both ways, pins, en passant after a double step (3 s: castling has
        # fast tests of its own below)
        pytest.param(KIWIPETE, 40, marks=pytest.mark.slow),
        ("8/2P5/8/8/8/8/5k2/K7 w - - 0 1", 150),  # promotions and the end of the game
        ("8/8/8/8/8/5k2/7q/K7 b - - 140 80", 150),  # mates, stalemates and the 75-move rule
    ],
)
def test_chess_keeps_the_protocol(start: str, positions: int) -> None:
    game = Chess.from_text(start)
    report = check_game(game, max_positions=positions, playouts=1 if "8/8" in start else 0)
    assert report.positions >= positions


def test_a_position_sent_to_another_process_still_knows_its_game_is_not_over() -> None:
    game = Chess()
    game.play("e4")  # its result is not worked out before the position is sent
    twin = pickle.loads(pickle.dumps(game))
    assert twin.result() is None
    assert terminal_sign(twin) is None
    twin.play("e5")
    twin.undo()
    twin.undo()
    assert (twin.to_text(), twin.result()) == (Chess().to_text(), None)


# ------------------------------------------------- the rules through the adapter
def round_trip(fen: str, moves: list[str], expected_fen: str) -> Chess:
    """Play ``moves`` from ``fen``, check the FEN reached and that undo restores the start."""
    game = Chess.from_text(fen)
    key = game.key()
    for text in moves:
        game.play(text)
    assert game.to_text() == expected_fen
    assert Chess.from_text(game.to_text()).key() == game.key()
    for _ in moves:
        game.undo()
    assert (game.to_text(), game.key()) == (fen, key)
    return game


@pytest.mark.parametrize(
    "written",
    [["O-O"], ["e1g1"], ["0-0"], ["e1h1"]],
    ids=["san", "uci", "zeros", "king-takes-rook"],
)
def test_castling_short_moves_king_and_rook_and_drops_both_white_rights(written: list[str]) -> None:
    round_trip(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", written, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    )


def test_castling_long_for_black_in_san_and_uci() -> None:
    after = "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2"
    round_trip("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", ["O-O-O"], after)
    round_trip("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", ["e8c8"], after)


def test_castling_through_check_is_refused() -> None:
    game = Chess.from_text("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")  # the rook on f2 guards f1
    with pytest.raises(
        IllegalMoveError, match=r"illegal move 'O-O' in 'r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1'"
    ):
        game.play("O-O")
    assert game.to_text() == "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"


def test_en_passant_takes_the_pawn_that_passed_and_only_right_after() -> None:
    game = round_trip(
        chess.STARTING_FEN,
        ["e4", "a6", "e5", "d5", "exd6"],
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
    )
    for text in ["e4", "a6", "e5", "d5", "h3", "h6"]:
        game.play(text)
    with pytest.raises(IllegalMoveError, match=r"illegal move 'e5d6'"):
        game.play("e5d6")  # one move too late


def test_the_en_passant_square_is_in_the_key_only_when_a_capture_can_use_it() -> None:
    capturable = Chess.from_text("e4 a6 e5 d5")
    same_board_later = Chess.from_text(
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
    )
    assert capturable.key() != same_board_later.key()
    assert "e5d6" in {capturable.format_move(move) for move in capturable.legal_moves()}
    no_capture = Chess.from_text("e4 a6 a3 d5")  # no white pawn beside d5
    assert no_capture.to_text() == "rnbqkbnr/1pp1pppp/p7/3p4/4P3/P7/1PPP1PPP/RNBQKBNR w KQkq - 0 3"


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        (["a8=Q"], "Q7/8/8/8/8/8/8/k6K b - - 0 1"),
        (["a7a8q"], "Q7/8/8/8/8/8/8/k6K b - - 0 1"),
        (["a8=N"], "N7/8/8/8/8/8/8/k6K b - - 0 1"),
        (["a7a8r"], "R7/8/8/8/8/8/8/k6K b - - 0 1"),
    ],
)
def test_promotion_round_trips_in_san_and_uci(written: list[str], expected: str) -> None:
    round_trip("8/P7/8/8/8/8/8/k6K w - - 0 1", written, expected)


def test_a_promotion_that_captures_is_noisy_and_ordered_first() -> None:
    game = Chess.from_text("1r5k/P7/8/8/8/8/8/K7 w - - 0 1")
    noisy = [game.format_move(move) for move in game.noisy_moves()]
    assert set(noisy) == {"a7b8q", "a7b8r", "a7b8b", "a7b8n", "a7a8q", "a7a8r", "a7a8b", "a7a8n"}
    assert noisy[0] == "a7b8q"
    assert [game.format_move(move) for move in game.ordered_moves()][:1] == ["a7b8q"]


def test_the_board_is_the_python_chess_board_and_moves_are_python_chess_moves() -> None:
    board = chess.Board()
    game = Chess.from_board(board)
    assert game.board is board
    move = game.play("Nf3")
    assert move == chess.Move.from_uci("g1f3") and board.move_stack == [move]
    AlphaBeta(depth=2).search(game)
    assert board.move_stack == [move] and board.fen() == game.to_text()
    game.undo()
    assert board.fen() == chess.STARTING_FEN


def test_moves_are_written_in_uci_and_read_in_both() -> None:
    game = Chess()
    assert game.format_move(game.parse_move("Nc3")) == "b1c3"
    assert game.san(game.parse_move("b1c3")) == "Nc3"


def test_mvv_lva_puts_the_queen_capture_by_the_pawn_first() -> None:
    game = Chess.from_text("4k3/8/8/2q1r3/3P4/8/3Q4/7K w - - 0 1")
    ordered = [game.format_move(move) for move in game.ordered_moves()]
    assert ordered[:2] == ["d4c5", "d4e5"]  # queen before rook, both taken by the pawn
    assert set(game.format_move(move) for move in game.noisy_moves()) == {"d4c5", "d4e5"}


def test_checks_are_forcing_and_quiet_moves_are_not() -> None:
    game = Chess.from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert game.is_forcing(game.parse_move("Ra8"))
    assert not game.is_forcing(game.parse_move("Ra7"))


def test_a_null_move_passes_the_turn_and_comes_back() -> None:
    game = Chess.from_text("e4")
    before = (game.to_text(), game.key())
    game.make_null_move()
    assert game.to_move() == 0 and game.result() is None
    game.unmake_null_move()
    assert (game.to_text(), game.key()) == before


def test_passing_in_check_loses_at_once() -> None:
    game = Chess.from_text("4k3/8/8/8/8/8/8/R3K2r w - - 0 1")
    game.make_null_move()
    assert game.result() == -1 and game.legal_moves() == ()
    game.unmake_null_move()
    assert game.result() is None


@pytest.mark.parametrize(
    ("fen", "result"),
    [
        ("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", 1),  # mate
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0),  # stalemate
        ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", 0),  # king and bishop cannot mate
        ("8/8/4k3/8/8/3RK3/8/8 w - - 150 120", 0),  # 75 moves without a capture or pawn move
        ("8/8/4k3/8/8/3RK3/8/8 w - - 149 120", None),
    ],
)
def test_the_game_ends_by_the_rules_python_chess_knows(fen: str, result: int | None) -> None:
    game = Chess.from_text(fen)
    assert game.result() == result
    assert (game.legal_moves() == ()) == (result is not None)


def test_the_longest_game_is_the_75_move_rules_bound() -> None:
    assert Chess().rules.max_plies == MAX_PLIES == 150 * (30 + 16 * 6 + 1) == 19_050


def test_a_transposition_has_one_key_and_castling_rights_or_the_count_part_keys() -> None:
    assert Chess.from_text("Nf3 Nf6 Nc3 Nc6").key() == Chess.from_text("Nc3 Nc6 Nf3 Nf6").key()
    # the same pieces at the same ply: rooks that went out and back lost their castling
    rooks = Chess.from_text("Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8")
    knights = Chess.from_text("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
    assert rooks.board.board_fen() == knights.board.board_fen() and rooks.ply == knights.ply
    assert rooks.key() != knights.key()
    # the same position with another count toward the 75-move rule
    assert (
        Chess.from_text("8/8/4k3/8/8/3RK3/8/8 w - - 3 40").key()
        != Chess.from_text("8/8/4k3/8/8/3RK3/8/8 w - - 4 40").key()
    )


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_random_game_outlasts_the_bound_of_the_plies_left(seed: int) -> None:
    chooser = random.Random(seed)
    game = Chess()
    bound = game.ply + plies_left_at_most(game.board)
    while moves := game.legal_moves():
        game.push(chooser.choice(list(moves)))
        reach = game.ply + plies_left_at_most(game.board)
        assert reach <= bound <= MAX_PLIES, game.to_text()
        bound = reach


def test_only_standard_boards_are_wrapped() -> None:
    with pytest.raises(
        InvalidPositionError,
        match=r"only standard chess boards can be played, not Board \(Chess960\)",
    ):
        Chess.from_board(chess.Board(chess960=True))
    with pytest.raises(
        InvalidPositionError, match=r"only standard chess boards can be played, not AtomicBoard"
    ):
        Chess.from_board(chess.variant.AtomicBoard())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", r"is not a FEN: .*turn"),
        ("8/8/8/8/8/8/8/K7 w - - 0 1", r"is not a legal chess position: no black king"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 200",
            r"move 200 is too late .* 19,050 plies",
        ),
        ("e4 e5 Ke3", r"move 3 \('Ke3'\) cannot be played: illegal move 'Ke3'"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Chess.from_text(text)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("Nd2", InvalidMoveError, r"move 'Nd2' is ambiguous in .*: name the piece's file or rank"),
        (
            "Qh9",
            InvalidMoveError,
            r"'Qh9' is not a chess move: write it in UCI \(e2e4, e7e8q\) or SAN",
        ),
        ("0000", InvalidMoveError, r"'0000' is the null move"),
        ("Ke2", IllegalMoveError, r"illegal move 'Ke2' in .*; legal moves: .*Nbd2"),
    ],
)
def test_bad_move_text_says_what_is_wrong(text: str, error: type[Exception], message: str) -> None:
    game = Chess.from_text("4k3/8/8/8/8/8/4P3/1N2KN2 w - - 0 1")
    with pytest.raises(error, match=message):
        game.parse_move(text)


# -------------------------------------------------------------------- perft
# The standard figures (chessprogramming.org, "Perft Results": the initial position
# and position 2, "Kiwipete").
@pytest.mark.parametrize(
    ("fen", "depth", "leaves"),
    [
        (chess.STARTING_FEN, 1, 20),
        (chess.STARTING_FEN, 2, 400),
        (chess.STARTING_FEN, 3, 8_902),
        (KIWIPETE, 1, 48),
        (KIWIPETE, 2, 2_039),
        (KIWIPETE, 3, 97_862),
    ],
)
def test_perft_reproduces_the_published_counts(fen: str, depth: int, leaves: int) -> None:
    game = Chess.from_text(fen)
    assert perft(game, depth) == leaves
    assert game.to_text() == fen


def test_perft_divides_kiwipete_by_first_move_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamesearch.cli import main

    assert (
        main(["perft", "chess", "--position", KIWIPETE, "--depth", "2", "--divide", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert (data["game"], data["depth"], data["nodes"]) == ("chess", 2, 2_039)
    divide = data["divide"]
    assert len(divide) == 48 and sum(divide.values()) == 2_039
    # after castling short, Black has 43 replies (the same count python-chess gives)
    board = chess.Board(KIWIPETE)
    board.push_san("O-O")
    assert divide["e1g1"] == board.legal_moves.count() == 43


# -------------------------------------------------------------------- mates
def can_mate_within(board: chess.Board, moves: int) -> bool:
    """Return whether the side to move can force mate within ``moves`` of its moves
    (brute force on python-chess alone: the oracle for the searchers)."""
    return bool(mating_moves(board, moves))


def mating_moves(board: chess.Board, moves: int) -> set[str]:
    """Return the UCI moves that force mate within ``moves`` moves of the side to move."""
    found = set()
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                found.add(move.uci())
            elif moves > 1:
                replies = list(board.legal_moves)
                if replies and all(_mates_after(board, reply, moves - 1) for reply in replies):
                    found.add(move.uci())
        finally:
            board.pop()
    return found


def _mates_after(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return can_mate_within(board, moves)
    finally:
        board.pop()


def uci(moves: Iterable[Hashable]) -> set[str]:
    """Return the chess moves ``moves`` in UCI."""
    written = set()
    for move in moves:
        assert isinstance(move, chess.Move)
        written.add(move.uci())
    return written


MATES_IN_ONE = {
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4": "h5f7",  # scholar's mate
    "6rk/6pp/8/4N3/8/8/8/6K1 w - - 0 1": "e5f7",  # smothered
    "1r4k1/8/8/8/8/8/5PPP/6K1 b - - 0 1": "b8b1",  # back rank
    "r1b1kbnr/pppp1Npp/8/8/3nq3/8/PPPPBP1P/RNBQKR2 b Qkq - 1 7": "d4f3",  # Blackburne Shilling
}
MATES_IN_TWO = {
    "r2qkbnr/ppp2ppp/2np4/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6": "c4f7",  # Légal
    "r1bBk2r/pppp1ppp/2n5/2b1p3/4n3/2NP4/PPP2PPP/R2QKBNR b KQkq - 0 6": "c5f2",  # Légal, mirrored
    "1r5k/6pp/7N/3Q4/8/8/8/6K1 w - - 0 1": "d5g8",  # queen sacrifice, smothered mate
    "7k/8/8/8/8/8/R7/1R5K w - - 0 1": "a2a7",  # the rook ladder
}


@pytest.mark.parametrize("fen", MATES_IN_ONE)
def test_alphabeta_finds_every_mate_in_one(fen: str) -> None:
    game = Chess.from_text(fen)
    expected = mating_moves(game.board.copy(), 1)
    assert MATES_IN_ONE[fen] in expected
    result = AlphaBeta(depth=1).search(game)
    assert uci(result.best_moves) == expected
    assert result.value == (1 if game.to_move() == 0 else -1) * (
        game.rules.scale.win - game.ply - 1
    )


@pytest.mark.parametrize("fen", MATES_IN_TWO)
def test_alphabeta_finds_every_mate_in_two_and_no_faster_one(fen: str) -> None:
    game = Chess.from_text(fen)
    board = game.board.copy()
    assert not mating_moves(board, 1)
    expected = mating_moves(board, 2)
    assert MATES_IN_TWO[fen] in expected
    result = AlphaBeta(depth=3).search(game)
    assert uci(result.best_moves) == expected
    sign = 1 if game.to_move() == 0 else -1
    value = result.value
    assert isinstance(value, int) and value == sign * (game.rules.scale.win - game.ply - 3)
    assert game.rules.scale.end_ply(value) == game.ply + 3
    assert game.to_text() == fen


TRICKS = [
    "",
    "iterative=true",
    "aspiration=50",
    "killers=true",
    "history=true",
    "null_move=2",
    "lmr=true",
    "quiescence=true",
    "extensions=true",
    "table=true",
    "iterative=true,aspiration=50,killers=true,history=true,null_move=2,lmr=true,"
    "quiescence=true,extensions=true,table=true",
]


@pytest.mark.parametrize("tricks", TRICKS, ids=lambda tricks: tricks or "plain")
@pytest.mark.parametrize("fen", list(MATES_IN_TWO)[:2])
def test_the_engine_finds_the_mate_in_two_with_each_trick(fen: str, tricks: str) -> None:
    from gamesearch import default_registry

    game = Chess.from_text(fen)
    assert game.rules.zugzwang_rare  # the null move may prune
    result = (
        default_registry()
        .new_searcher("engine:depth=3" + (f",{tricks}" if tricks else ""))
        .search(game)
    )
    assert isinstance(result.move, chess.Move) and result.move.uci() == MATES_IN_TWO[fen]
    sign = 1 if game.to_move() == 0 else -1
    assert result.value == sign * (game.rules.scale.win - game.ply - 3)
    assert game.to_text() == fen


@pytest.mark.slow
def test_plain_analyze_finds_the_mating_move_of_a_mate_in_two_with_the_default_searcher(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamesearch.cli import main

    fen = "r2qkbnr/ppp2ppp/2np4/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6"
    # the command line in this process (another test starts the installed command)
    before = resource.getrusage(resource.RUSAGE_SELF)
    status = main(["analyze", "chess", "--position", fen, "--json", "--clock", "cpu"])
    after = resource.getrusage(resource.RUSAGE_SELF)
    out, err = capsys.readouterr()
    assert status == 0, err
    answer = json.loads(out)
    assert answer["searcher"].partition(":")[0] == str(Chess.default_searcher).partition(":")[0]
    assert answer["move"] == "c4f7" and answer["best_moves"] == ["c4f7"]
    # the default searcher's own budget, on the processor clock so that a loaded machine cannot
    # shorten it; a few seconds more for the command's own work (not a timed test)
    cpu_seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert cpu_seconds <= float(str(Chess.default_searcher).rpartition("seconds=")[2]) + 4


# ------------------------------------------------------------------ suites
def test_the_shipped_suites_are_read_with_legal_best_moves() -> None:
    suites = Chess.problem_suites()
    assert set(suites) == {"bratko-kopec", "mates"}
    bratko_kopec = Chess.read_problems(suites["bratko-kopec"].read_text(encoding="utf-8"))
    assert [problem.name for problem in bratko_kopec] == [
        f"BK.{number:02d}" for number in range(1, 25)
    ]
    assert bratko_kopec[0] == Problem(
        "BK.01", "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1", ("d6d1",)
    )
    assert bratko_kopec[4].best_moves == ("c3d5", "a2a4")  # two best moves: Nd5 and a4
    for problem in bratko_kopec + Chess.read_problems(suites["mates"].read_text(encoding="utf-8")):
        game = Chess.from_text(problem.position)
        assert uci(game.legal_moves()) >= set(problem.best_moves), problem.name


def test_the_mates_suite_lists_every_fastest_mate() -> None:
    for problem in Chess.read_problems(Chess.problem_suites()["mates"].read_text(encoding="utf-8")):
        board = chess.Board(problem.position)
        fastest = mating_moves(board, 1) or mating_moves(board, 2)
        assert set(problem.best_moves) == fastest, problem.name


def test_tactics_counts_the_mates_alphabeta_finds_within_the_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamesearch.cli import main

    status = main(
        [
            "tactics",
            "chess",
            "mates",
            "--searcher",
            "alphabeta:depth=3",
            "--max-nodes",
            "5000",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and (data["problems"], data["rows"][0]["solved"]) == (8, 8)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("8/8/8 w - - bm e4;", r"line 1: '8/8/8 w - - bm e4;' is not EPD"),
        (
            '7k/8/8/8/8/8/R7/1R5K w - - id "no move";',
            r"line 1: .* names no best move \(bm\) and no move to avoid",
        ),
    ],
)
def test_an_epd_line_that_is_no_problem_is_named(line: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Chess.read_problems(line)


@pytest.mark.slow
def test_a_match_on_two_worker_processes_plays_its_chess_games_to_the_end() -> None:
    command = [
        str(Path(sys.executable).with_name("gamesearch")),
        "match",
        "chess",
        "--first",
        "alphabeta:depth=1",
        "--second",
        "alphabeta:depth=1",
        "-n",
        "2",
        "--workers",
        "2",
        "--seed",
        "3",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert [standing["games"] for standing in answer["standings"]] == [2, 2]
