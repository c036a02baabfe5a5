"""Repetition draws in chess: a perpetual check saves a lost position, and a side ahead
steers clear of a threefold repetition; python-chess is the oracle of the rules.
"""

from __future__ import annotations

from typing import Any

import pytest

chess = pytest.importorskip("chess", reason="the chess example plugin is not installed")

from gamesearch_chess import Chess  # noqa: E402

from gamesearch import default_registry  # noqa: E402
from gamesearch.search.reference.alphabeta import ReferenceAlphaBeta  # noqa: E402
from gamesearch.search.table import SearchMemory  # noqa: E402
from gamesearch.testing import check_game, check_position  # noqa: E402

REGISTRY = default_registry()

#: White has a queen and three pawns against queen, two rooks, a bishop and a pawn; but
#: Qe8+ Kh7 Qh5+ Kg8 checks for ever (no black piece can block the checks on f8 or h6)
PERPETUAL = "6k1/6p1/8/7Q/8/8/rqr2PPP/1b4K1 w - - 0 1"
PERPETUAL_CHECK = "h5e8"
#: White is a knight up; Kf1, the engine's move here when the position has no history,
#: would be the third occurrence of the position it reaches (a draw): see SHUFFLE
AHEAD = "6k1/5pp1/7p/8/8/3N4/5PPP/5K2 b - - 1 1"
#: from AHEAD: the two kings walk away and back, twice
SHUFFLE = ("g8h8", "f1g1", "h8g8", "g1f1", "g8h8", "f1g1", "h8g8")
REPEATING = "g1f1"
#: centipawns by piece, for the material count (the oracle of who is ahead)
PIECE_VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500}
PIECE_VALUES[chess.QUEEN] = 900


class NoRepetitionChess(Chess):
    """Chess whose searches know only the game's own threefold rule (the line rule off)."""

    repetition_key = None  # type: ignore[assignment]


def white_material_lead(board: Any) -> int:
    """Return White's material minus Black's, in centipawns (kings left out)."""
    return sum(
        value * (len(board.pieces(piece, chess.WHITE)) - len(board.pieces(piece, chess.BLACK)))
        for piece, value in PIECE_VALUES.items()
    )


def white_forces_repetition(board: Any, plies: int) -> bool:
    """Return whether White, checking at every move, forces a threefold repetition within
    ``plies`` plies whatever Black replies: python-chess alone, no gamesearch."""
    if board.is_repetition(3):
        return True
    if plies == 0 or board.is_game_over():
        return False
    if board.turn == chess.WHITE:
        for move in list(board.legal_moves):
            if board.gives_check(move):
                board.push(move)
                forced = white_forces_repetition(board, plies - 1)
                board.pop()
                if forced:
                    return True
        return False
    for move in list(board.legal_moves):
        board.push(move)
        forced = white_forces_repetition(board, plies - 1)
        board.pop()
        if not forced:
            return False
    return True


def shuffled() -> Chess:
    """Return AHEAD after the shuffle, White to move (Kf1 would repeat a third time)."""
    game = Chess.from_text(AHEAD)
    for move in SHUFFLE:
        game.play(move)
    return game


def test_the_oracle_sees_white_lost_but_for_a_forced_repetition() -> None:
    board = chess.Board(PERPETUAL)
    assert white_material_lead(board) <= -1000
    assert white_forces_repetition(board, 8)


def test_chess_reports_the_third_occurrence_of_a_position_as_a_draw() -> None:
    game = Chess.from_text(PERPETUAL)
    for move in ("h5e8", "g8h7", "e8h5", "h7g8", "h5e8", "g8h7", "e8h5"):
        game.play(move)
        assert game.result() is None
    game.play("h7g8")
    board = chess.Board(PERPETUAL)
    for move in game.history:
        board.push(move)
    assert board.is_repetition(3)  # python-chess agrees: the third occurrence
    assert game.result() == 0 and game.legal_moves() == ()
    check_position(game)  # the kit counts the occurrences from the history
    game.undo()
    assert game.result() is None


@pytest.mark.slow
def test_the_kit_meets_threefold_repetitions_in_its_games_that_seek_them() -> None:
    # a king and a knight walk to and fro: the kit's game that seeks repetitions ends in
    # one, whose draw it counts from the history
    report = check_game(Chess.from_text(AHEAD), max_positions=1, playouts=1)
    assert report.terminal >= 1


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["alphabeta:depth=5", "engine:depth=5,quiescence=true,table=true"])
def test_the_side_behind_finds_the_perpetual_check_and_without_the_rule_loses(spec: str) -> None:
    searcher = REGISTRY.new_searcher(spec)
    saved = searcher.search(Chess.from_text(PERPETUAL))
    assert saved.value == 0
    assert [move.uci() for move in saved.best_moves] == [PERPETUAL_CHECK]
    lost = searcher.search(NoRepetitionChess.from_text(PERPETUAL))
    assert lost.value <= -500  # the same search without the rule: material decides


@pytest.mark.slow
def test_the_engine_playing_both_sides_draws_the_perpetual_by_threefold_repetition() -> None:
    game = Chess.from_text(PERPETUAL)
    searcher = REGISTRY.new_searcher("engine:depth=4,quiescence=true,table=true")
    memory = SearchMemory()
    for _ in range(12):
        if game.result() is not None:
            break
        game.push(searcher.search(game, memory=memory).move)
    board = chess.Board(PERPETUAL)
    for move in game.history:
        board.push(move)
    assert game.result() == 0 and board.is_repetition(3)
    assert all(move.uci() in ("h5e8", "e8h5") for move in game.history[::2])


@pytest.mark.slow
def test_the_line_rule_of_the_engine_and_alphabeta_matches_their_twin_on_the_perpetual() -> None:
    game = Chess.from_text(PERPETUAL)
    game.play(PERPETUAL_CHECK)  # (Black to move: one reply, so the twin's search is short)
    twin = ReferenceAlphaBeta(depth=4).search(game)
    for spec in ("alphabeta:depth=4", "alphabeta:depth=4,table=true", "engine:depth=4"):
        result = REGISTRY.new_searcher(spec).search(game)
        assert (result.value, set(result.best_moves)) == (twin.value, set(twin.best_moves))


@pytest.mark.parametrize(
    "spec",
    ["alphabeta:depth=3", pytest.param("engine:depth=4,quiescence=true", marks=pytest.mark.slow)],
)
def test_the_side_ahead_picks_a_winning_move_that_does_not_repeat(spec: str) -> None:
    searcher = REGISTRY.new_searcher(spec)
    fresh = Chess.from_text(shuffled().to_text())  # the same position without its history
    assert [move.uci() for move in searcher.search(fresh).best_moves] == [REPEATING]
    game = shuffled()
    result = searcher.search(game, move_values=True)
    values = {move.uci(): value for move, value in result.move_values or ()}
    assert values[REPEATING] == 0  # the threefold repetition
    assert REPEATING not in [move.uci() for move in result.best_moves]
    assert result.value >= 200  # still winning: a knight up
    board = chess.Board(AHEAD)
    for move in SHUFFLE:
        board.push_uci(move)
    board.push_uci(REPEATING)
    assert board.is_repetition(3)  # python-chess: Kf1 would draw
    board.pop()
    board.push(result.move)
    assert not board.is_repetition(3) and white_material_lead(board) >= 300
