"""Checkers: the rules, the notation, bad input, and the moves against an independent oracle.

The oracle below is this file's own: the rules re-written over a dictionary of
(row, column) cells, walked step by step in the four diagonal directions, sharing no code
with ``games/checkers.py``. It reads positions from their PDN text.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch import AlphaBeta
from gamesearch.boardview import BoardView
from gamesearch.errors import (
    ConformanceError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamesearch.plugins import default_registry
from gamesearch.testing import check_game, check_position
from gamesearch_games.checkers import Checkers, can_move, longest_game

Cell = tuple[int, int]
Board = dict[Cell, str]  # "b", "w" men; "B", "W" kings
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


# --------------------------------------------------------------------- the oracle
def cell_of(number: int) -> Cell:
    """Return the (row, column) of square ``number``: Black's side at the top, four squares a
    row."""
    row = (number - 1) // 4
    return row, 2 * ((number - 1) % 4) + (row + 1) % 2


def number_of(cell: Cell) -> int:
    return cell[0] * 4 + cell[1] // 2 + 1


def read(text: str) -> tuple[Board, str]:
    """Return the board and the side to move ("b" or "w") of a PDN position."""
    fields = text.split()[0].split(":")
    board: Board = {}
    for field in fields[1:]:
        side = field[0].lower()
        for word in filter(None, field[1:].split(",")):
            king = word.startswith("K")
            board[cell_of(int(word.lstrip("K")))] = side.upper() if king else side
    return board, fields[0].lower()


def directions(piece: str) -> list[Cell]:
    if piece.isupper():
        return [(1, -1), (1, 1), (-1, -1), (-1, 1)]
    return [(1, -1), (1, 1)] if piece == "b" else [(-1, -1), (-1, 1)]


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < 8 and 0 <= cell[1] < 8


def oracle_moves(board: Board, side: str) -> dict[str, tuple[list[Cell], list[Cell]]]:
    """Return each legal move's text with the cells it stops on and the cells it jumps."""
    jumps: dict[str, tuple[list[Cell], list[Cell]]] = {}
    for start, piece in board.items():
        if piece.lower() != side:
            continue
        rest = {cell: other for cell, other in board.items() if cell != start}
        crown_row = 7 if side == "b" else 0

        def chain(
            path: list[Cell],
            taken: list[Cell],
            piece: str = piece,
            rest: Board = rest,
            crown_row: int = crown_row,
        ) -> None:
            row, col = path[-1]
            went_on = False
            for d_row, d_col in directions(piece):
                over, landing = (row + d_row, col + d_col), (row + 2 * d_row, col + 2 * d_col)
                enemy = rest.get(over, "").lower() not in ("", side)
                if enemy and over not in taken and on_board(landing) and landing not in rest:
                    went_on = True
                    if piece.islower() and landing[0] == crown_row:
                        record(path + [landing], taken + [over])
                    else:
                        chain(path + [landing], taken + [over])
            if not went_on and len(path) > 1:
                record(path, taken)

        def record(path: list[Cell], taken: list[Cell]) -> None:
            jumps["x".join(str(number_of(cell)) for cell in path)] = (path, taken)

        chain([start], [])
    if jumps:
        return jumps
    steps: dict[str, tuple[list[Cell], list[Cell]]] = {}
    for start, piece in board.items():
        if piece.lower() != side:
            continue
        for d_row, d_col in directions(piece):
            target = (start[0] + d_row, start[1] + d_col)
            if on_board(target) and target not in board:
                steps[f"{number_of(start)}-{number_of(target)}"] = ([start, target], [])
    return steps


def oracle_play(board: Board, side: str, path: list[Cell], taken: list[Cell]) -> Board:
    after = dict(board)
    piece = after.pop(path[0])
    for cell in taken:
        del after[cell]
    if path[-1][0] == (7 if side == "b" else 0):
        piece = piece.upper()
    after[path[-1]] = piece
    return after


def board_of(game: Checkers) -> Board:
    return read(game.to_text())[0]


def assert_agrees_with_the_oracle(game: Checkers) -> None:
    board, side = read(game.to_text())
    expected = oracle_moves(board, side)
    moves = {game.format_move(move): move for move in game.legal_moves()}
    assert set(moves) == set(expected), game.to_text()
    for text, (path, taken) in expected.items():
        game.push(moves[text])
        assert board_of(game) == oracle_play(board, side, path, taken), (game.to_text(), text)
        game.undo()


def playout_positions(count: int, seed: int) -> list[Checkers]:
    """Return every position of ``count`` random games from the start."""
    chooser = random.Random(seed)
    found = []
    for _ in range(count):
        game = Checkers()
        while game.legal_moves():
            found.append(game.copy())
            game.apply(chooser.choice(list(game.legal_moves())))
        found.append(game)
    return found


# ------------------------------------------------------------------ the rules
def test_every_position_of_random_games_has_the_oracles_moves_and_boards() -> None:
    positions = playout_positions(8, seed=3)
    assert any(game.is_capture(game.legal_moves()[0]) for game in positions if game.legal_moves())
    for game in positions:
        assert_agrees_with_the_oracle(game)


@st.composite
def placements(draw: st.DrawFn) -> str:
    """Return a PDN position: up to 12 pieces a side on random squares, men off their crowning
    row."""
    squares = draw(st.lists(st.integers(1, 32), min_size=2, max_size=20, unique=True))
    sides: dict[str, list[str]] = {"W": [], "B": []}
    for number in squares:
        side = draw(st.sampled_from("WB"))
        crowning = number <= 4 if side == "W" else number >= 29
        king = crowning or draw(st.booleans())
        if len(sides[side]) < 12:
            sides[side].append(f"K{number}" if king else str(number))
    mover = draw(st.sampled_from("BW"))
    return f"{mover}:W{','.join(sides['W'])}:B{','.join(sides['B'])}"


@settings(max_examples=150, deadline=None)
@given(text=placements())
def test_random_placements_have_the_oracles_moves_and_boards(text: str) -> None:
    game = Checkers.from_text(text)
    assert_agrees_with_the_oracle(game)


def test_a_capture_must_be_taken_when_one_is_open() -> None:
    game = Checkers.from_text("B:W18,30:B14,11")
    assert [game.format_move(move) for move in game.legal_moves()] == ["14x23"]
    with pytest.raises(IllegalMoveError, match=r"illegal move '11-15' in .*; legal moves: 14x23"):
        game.play("11-15")


def test_a_chain_of_jumps_is_one_move_and_must_be_finished() -> None:
    game = Checkers.from_text("B:W14,23:B9")
    assert [game.format_move(move) for move in game.legal_moves()] == ["9x18x27"]
    with pytest.raises(IllegalMoveError, match="'9x18'"):
        game.play("9x18")
    assert game.parse_move("9x27") == game.parse_move("9x18x27") == (8, 17, 26)
    game.play("9x27")
    assert game.to_text() == "W:W:B27 0 1"
    assert game.result() == 1  # White has no piece left


def test_a_man_crowned_in_the_middle_of_a_chain_stops_there() -> None:
    game = Checkers.from_text("B:W26,27:B22")
    assert [game.format_move(move) for move in game.legal_moves()] == ["22x31"]
    game.play("22x31")
    assert game.to_text() == "W:W27:BK31 0 1"
    king = Checkers.from_text("B:W26,27:BK22")
    assert [king.format_move(move) for move in king.legal_moves()] == ["22x31x24"]


def test_a_king_may_jump_round_and_come_back_to_its_square() -> None:
    game = Checkers.from_text("B:W9,10,17,18:BK6")
    texts = sorted(game.format_move(move) for move in game.legal_moves())
    assert texts == ["6x13x22x15x6", "6x15x22x13x6"]
    game.play("6x15x22x13x6")
    assert game.to_text() == "W:W:BK6 0 1" and game.result() == 1
    game.undo()
    assert game.to_text() == "B:W9,10,17,18:BK6"
    with pytest.raises(InvalidMoveError, match=r"'6x6' could be 6x13x22x15x6, 6x15x22x13x6"):
        game.parse_move("6x6")


def test_kings_step_backwards_and_men_only_forwards() -> None:
    game = Checkers.from_text("B:W32:B14,K19")
    assert sorted(game.format_move(move) for move in game.legal_moves()) == [
        "14-17",
        "14-18",
        "19-15",
        "19-16",
        "19-23",
        "19-24",
    ]


def test_a_player_who_cannot_move_loses() -> None:
    blocked = Checkers.from_text("W:W29:B22,25")
    assert blocked.legal_moves() == () and blocked.result() == 1
    no_pieces = Checkers.from_text("B:W5:B")
    assert no_pieces.result() == -1


def test_quiet_plies_draw_the_game_and_a_mans_move_or_a_capture_starts_them_again() -> None:
    game = Checkers.from_text("B:WK32,28:BK1,5", draw_plies=4)
    for move in ("1-6", "32-27", "6-1"):
        game.play(move)
        assert game.result() is None
    assert game.quiet_plies == 3
    assert "3 plies without a capture or a man's move (a draw at 4)" in (game.board_view().caption)
    game.play("27-32")
    assert game.result() == 0 and game.legal_moves() == () and game.quiet_plies == 4
    assert game.to_text() == "B:W28,K32:BK1,5 4 4"
    game.undo()
    game.play("28-24")  # White's man moves: the count starts again
    assert game.quiet_plies == 0 and game.result() is None
    game.play("5-9")
    assert game.quiet_plies == 0


def test_blocking_the_last_piece_on_the_last_quiet_ply_still_wins() -> None:
    game = Checkers.from_text("B:W29:B22,25,K31 1 1", draw_plies=2)
    game.play("31-26")
    assert game.quiet_plies == 2 and game.result() == 1


def test_the_longest_game_follows_from_the_draw_rule() -> None:
    # 72 rows for each side's men to go, 22 captures before a side has no piece: each of
    # those 166 moves may be followed by a full count of quiet plies
    assert longest_game(80) == 80 + 166 * 81 == Checkers().rules.max_plies == 13_526
    assert Checkers(draw_plies=10).rules.max_plies == 10 + 166 * 11


# ------------------------------------------------------------------- notation
def test_the_start_and_its_text() -> None:
    game = default_registry().new_game("checkers")
    assert game.to_text() == START
    assert Checkers.from_text("B:W21-32:B1-12.").to_text() == START
    assert Checkers.from_text("B:B1-12:W21-32").key() == game.key()
    assert [game.format_move(move) for move in game.legal_moves()] == [
        "9-13",
        "9-14",
        "10-14",
        "10-15",
        "11-15",
        "11-16",
        "12-16",
    ]


def test_text_keeps_the_quiet_plies_and_the_ply() -> None:
    game = Checkers.from_text("11-15 23-19 8-11")
    assert game.ply == 3 and game.history != ()
    text = game.to_text()
    assert text.endswith(" 0 3")
    twin = Checkers.from_text(text)
    assert (twin.key(), twin.ply, twin.history) == (game.key(), 3, ())
    kings = Checkers.from_text("W:WK10:BK20 7 31")
    assert (kings.quiet_plies, kings.ply, kings.to_text()) == (7, 31, "W:WK10:BK20 7 31")


def test_render_shows_men_kings_and_the_square_numbers() -> None:
    lines = Checkers.from_text("W:WK10,21:B5").render().splitlines()
    assert lines[1] == "b   .   .   .     5-8"
    assert lines[2] == "  .   W   .   .   9-12"
    assert lines[-1] == "White to move"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11_15", r"move '11_15' is not a move; write the squares \(1 to 32\)"),
        ("0-4", r"move '0-4' names a square off the board; squares run from 1 to 32"),
        ("11-33", r"move '11-33' names a square off the board"),
        ("11-12", r"move '11-12' is not a move: a piece steps to a diagonal neighbour"),
        ("11-", r"move '11-' is not a move; write the squares"),
        ("not a move!", r"move 'not a move!' is not a move"),
    ],
)
def test_bad_move_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Checkers().parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("B:W21:B1:W22", r"must be the side to move \('B' or 'W'\)"),
        ("X:W21:B1", r"must be the side to move"),
        ("B:W21:W1", r"must give White's pieces after 'W' and Black's after 'B', once each"),
        ("B:W21,x:B1", r"'x' is not a square number \(1 to 32\) or a range"),
        ("B:W21:B0", r"'0' is no square from 1 to 32 or range of them from low to high"),
        ("B:W21:B12-3", r"'12-3' is no square from 1 to 32 or range"),
        ("B:W21:B21", r"puts two pieces on square 21"),
        ("B:WK1-13:B20", r"gives White 13 pieces; a side has at most 12"),
        ("B:W21:B30", r"a man of Black on 30, the row where it is crowned; write a king as K"),
        ("B:W21:B1 81 90", r"has 81 quiet plies; the game is drawn after 80"),
        ("B:W21:B1 a 2", r"must be whole numbers, not 'a' and '2'"),
        ("B:W21:B1 3", r"must be the side to move"),
        ("B:W21:B1 0 13000", r"has ply 13000; .* so its ply is at most "),
        ("11-15 11-15", r"move 2 \('11-15'\) cannot be played"),
    ],
)
def test_bad_positions_are_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Checkers.from_text(text)


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="option 'draw_plies' must be >= 2: 1"):
        Checkers.new(draw_plies=1)


# ----------------------------------------------- heuristic, ordering, capabilities
def mirrored(text: str) -> str:
    """Return the position turned round: each square n becomes 33 - n and the colours swap."""
    board, side = read(text)
    sides: dict[str, list[str]] = {"W": [], "B": []}
    for (row, col), piece in board.items():
        number = number_of((7 - row, 7 - col))
        colour = "W" if piece.lower() == "b" else "B"
        sides[colour].append(f"K{number}" if piece.isupper() else str(number))
    return f"{'W' if side == 'b' else 'B'}:W{','.join(sides['W'])}:B{','.join(sides['B'])}"


@settings(max_examples=60, deadline=None)
@given(text=placements())
def test_the_heuristic_is_the_same_for_either_colour_and_inside_its_bound(text: str) -> None:
    game, turned = Checkers.from_text(text), Checkers.from_text(mirrored(text))
    assert turned.evaluate() == -game.evaluate()
    assert abs(game.evaluate()) < Checkers.evaluation_bound
    assert sorted(map(len, turned.legal_moves())) == sorted(map(len, game.legal_moves()))


def test_the_heuristic_counts_a_king_as_more_than_a_man() -> None:
    assert Checkers().evaluate() == 0
    assert (
        Checkers.from_text("B:W21:BK20").evaluate() > Checkers.from_text("B:W21:B20").evaluate() > 0
    )


def test_ordering_tries_long_chains_and_crowning_first() -> None:
    game = Checkers.from_text("B:W14,23,15:B9,10")
    assert [game.format_move(move) for move in game.ordered_moves()][0] == "9x18x27"
    crowning = Checkers.from_text("B:WK1:B9,25,K14")
    assert game.format_move(crowning.ordered_moves()[0]) in ("25-29", "25-30")


def test_noisy_moves_are_the_captures_or_the_crowning_moves() -> None:
    capture = Checkers.from_text("B:W18,30:B14,11")
    assert capture.noisy_moves() == capture.legal_moves()
    crowning = Checkers.from_text("B:WK1:B9,25")
    assert [crowning.format_move(move) for move in crowning.noisy_moves()] == ["25-29", "25-30"]
    assert Checkers().noisy_moves() == []


def test_a_move_is_forcing_when_it_leaves_the_opponent_a_capture() -> None:
    game = Checkers.from_text("11-15 23-19")
    before = game.to_text()
    forcing = {game.format_move(move) for move in game.legal_moves() if game.is_forcing(move)}
    assert game.to_text() == before
    board, side = read(before)
    expected = set()
    for text, (path, taken) in oracle_moves(board, side).items():
        replies = oracle_moves(oracle_play(board, side, path, taken), "w")
        if any("x" in reply for reply in replies):
            expected.add(text)
    assert forcing == expected and "15-18" in forcing


def test_the_board_view_draws_each_piece_and_a_path_per_move() -> None:
    view = Checkers.from_text("B:W14,23:BK9,12").board_view()
    assert (view.rows, view.cols) == (8, 8)
    assert (
        view.symbols[2 * 8 + 1] == "B" and view.symbols[3 * 8 + 2] == "w" and view.symbols[0] == ""
    )
    assert view.moves == (None,) * 64
    assert view.paths == (("9x18x27", (17, 35, 53)),) and view.caption == ""


@pytest.mark.slow
def test_check_game_passes_on_random_games() -> None:
    report = check_game("checkers", max_positions=800, playouts=12, seed=5)
    assert report.terminal > 0 and report.longest > 40
    check_position(Checkers.from_text("B:W9,10,17,18:BK6"))


def test_alphabeta_proves_the_win_by_a_chain_of_jumps() -> None:
    game = Checkers.from_text("B:W14,23:B9")
    result = AlphaBeta().search(game)
    assert game.format_move(result.move) == "9x18x27"
    assert result.value == game.rules.scale.proven(1, 1)


class BadPaths(Checkers):
    """Checkers whose board view offers a path of its own choosing."""

    path: tuple[str, tuple[int, ...]] = ("9-13", (17, 24))

    def board_view(self) -> BoardView:
        return attrs.evolve(super().board_view(), paths=(self.path,))


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            ("9-13", (17,)),
            r"board_view\(\) path of '9-13' is \(17,\), not two cells or more of the 64",
        ),
        (("9-13", (17, 64)), r"board_view\(\) path of '9-13' is \(17, 64\), not two cells or more"),
        (("9-14", (17, 26)), r"board_view\(\) path \(17, 26\) plays '9-14', which is not legal"),
    ],
)
def test_the_kit_refuses_a_board_view_path_that_is_no_legal_move(
    path: tuple[str, tuple[int, ...]], message: str
) -> None:
    game = BadPaths.from_text("B:W14,23:BK9,12")
    game.path = path
    with pytest.raises(ConformanceError, match=message):
        check_position(game)


@settings(max_examples=150, deadline=None)
@given(text=placements())
def test_the_quick_test_of_whether_a_side_can_move_agrees_with_the_oracle(text: str) -> None:
    board, _ = read(text)
    black, white, kings = Checkers.from_text(text).pieces()
    assert can_move(black, white, kings, 0) == bool(oracle_moves(board, "b"))
    assert can_move(white, black, kings, 1) == bool(oracle_moves(board, "w"))


@settings(max_examples=120, deadline=None)
@given(text=placements())
def test_a_move_is_forcing_exactly_when_the_oracle_gives_the_reply_a_capture(text: str) -> None:
    game = Checkers.from_text(text)
    board, side = read(text)
    other = "w" if side == "b" else "b"
    expected = oracle_moves(board, side)
    for move in game.legal_moves():
        path, taken = expected[game.format_move(move)]
        replies = oracle_moves(oracle_play(board, side, path, taken), other)
        assert game.is_forcing(move) == any("x" in reply for reply in replies), (text, move)
