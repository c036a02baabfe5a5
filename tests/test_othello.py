"""Othello: the rules, the text, bad input, and exact values against an independent oracle.

The oracle below is this file's own: a plain re-implementation of the rules over a tuple
of cells walked row and column by row and column, solved by the memoised minimax of
``exhaustive.py`` (which knows no game). It reads positions from their text and shares no
code with ``games/othello.py`` or with the framework's searchers.
"""

from __future__ import annotations

import functools
import pickle
import random
from typing import cast

import pytest
from exhaustive import (
    EVERY_POSITION,
    EXACT_SEARCHERS,
    TABLE_SEARCHERS,
    Expected,
    Oracle,
    check_every_position,
    expected_answers,
    one_in,
    search_answer,
    searcher_id,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import gamesearch_games.othello
from gamesearch import AlphaBeta, IterativeDeepening, Minimax, Scoring, Searcher
from gamesearch.errors import (
    BudgetExceededError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamesearch.plugins import build_registry, make_plugin_manager
from gamesearch.search.base import Limit
from gamesearch.search.mcts import MonteCarlo
from gamesearch.search.negamax import PrincipalVariationSearch
from gamesearch.search.nullwindow import MTDf, Solver
from gamesearch.search.table import SearchMemory
from gamesearch.testing import check_game
from gamesearch_games.othello import PASS, Othello

STEPS = tuple((d_row, d_col) for d_row in (-1, 0, 1) for d_col in (-1, 0, 1) if d_row or d_col)
#: reachable 4x4 positions (the start included) with pass moves and with automatic passes
MOVE_4X4_POSITIONS, AUTO_4X4_POSITIONS = 62_789, 53_801

Cells = tuple[str, ...]
State = tuple[Cells, str]  # the cells row by row, the side to move ("B" or "W")


def other(side: str) -> str:
    return "W" if side == "B" else "B"


class OthelloOracle(Oracle[State]):
    """The rules of Othello, written plainly (solved by the shared minimax)."""

    def __init__(self, size: int, passes: str = "move") -> None:
        super().__init__()
        self.size, self.is_auto = size, passes == "auto"
        #: by cell: the cells in each of the eight directions from it, nearest first
        self.lines = [[self.line(cell, step) for step in STEPS] for cell in range(size * size)]

    def line(self, cell: int, step: tuple[int, int]) -> list[int]:
        """Return the cells from ``cell`` (not included) to the edge, ``step`` at a time."""
        size, (row, col), (d_row, d_col) = self.size, divmod(cell, self.size), step
        found = []
        row, col = row + d_row, col + d_col
        while 0 <= row < size and 0 <= col < size:
            found.append(row * size + col)
            row, col = row + d_row, col + d_col
        return found

    def start(self) -> State:
        size, half = self.size, self.size // 2
        cells = ["."] * (size * size)
        for row, col, disc in (
            (half - 1, half - 1, "W"),
            (half, half, "W"),
            (half - 1, half, "B"),
            (half, half - 1, "B"),
        ):
            cells[row * size + col] = disc
        return tuple(cells), "B"

    def final_result(self, state: State) -> int:
        return state[0].count("B") - state[0].count("W")

    def first_to_move(self, state: State) -> bool:
        return state[1] == "B"

    def parse(self, text: str) -> State:
        rows, side, *_ = text.split()  # the ply, if given, is no part of the oracle's state
        return tuple("".join(rows.split("/"))), side

    def text(self, state: State) -> str:
        cells, side = state
        size = self.size
        return (
            "/".join("".join(cells[row * size : (row + 1) * size]) for row in range(size))
            + " "
            + side
        )

    def turned(self, cells: Cells, cell: int, side: str) -> list[int]:
        """Return the cells a disc of ``side`` on ``cell`` turns over: in each direction, the
        run of the other side's discs that one of ``side``'s closes."""
        opponent, turned = other(side), []
        for line in self.lines[cell]:
            run = 0
            while run < len(line) and cells[line[run]] == opponent:
                run += 1
            if run and run < len(line) and cells[line[run]] == side:
                turned += line[:run]
        return turned

    def placements(self, cells: Cells, side: str) -> list[int]:
        return [
            cell
            for cell in range(len(cells))
            if cells[cell] == "." and self.turned(cells, cell, side)
        ]

    def place(self, cells: Cells, cell: int, side: str) -> Cells:
        board = list(cells)
        for index in [cell, *self.turned(cells, cell, side)]:
            board[index] = side
        return tuple(board)

    def name(self, cell: int) -> str:
        row, col = divmod(cell, self.size)
        return "abcdefgh"[col] + str(row + 1)

    def _children(self, state: State) -> list[tuple[str, State]]:
        """Return (move text, next state) for every legal move; [] once the game is over."""
        cells, side = state
        moves = self.placements(cells, side)
        if not moves:
            if not self.is_auto and self.placements(cells, other(side)):
                return [("pass", (cells, other(side)))]
            return []
        found = []
        for cell in moves:
            board, after = self.place(cells, cell, side), other(side)
            if self.is_auto and not self.placements(board, after) and self.placements(board, side):
                after = side
            found.append((self.name(cell), (board, after)))
        return found


@functools.cache
def oracle(size: int, passes: str = "move") -> OthelloOracle:
    return OthelloOracle(size, passes)


@functools.cache
def positions_4x4(passes: str) -> dict[State, Othello]:
    """Return every reachable 4x4 state of the oracle with the game's position read from
    its text, made once per process for the walks of the rules and of the searchers (which
    search copies)."""
    rules = oracle(4, passes)
    return {
        state: Othello.from_text(rules.text(state), passes=passes) for state in rules.reachable()
    }


def board_and_side(game: Othello) -> str:
    """Return the position's text without its ply (the oracle's states have none)."""
    return " ".join(game.to_text().split()[:2])


def random_game(size: int, passes: str, plies: int, rng: random.Random) -> Othello:
    game = Othello.new(size=size, passes=passes)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(list(moves)))
    return game


# --------------------------------------------------------------------- the start
@pytest.mark.parametrize(
    ("size", "text"),
    [
        (4, "..../.WB./.BW./.... B"),
        (6, "....../....../..WB../..BW../....../...... B"),
        (8, "......../......../......../...WB.../...BW.../......../......../........ B"),
    ],
)
def test_the_start_has_four_discs_in_the_centre_and_black_to_move(size: int, text: str) -> None:
    game = Othello.new(size=size)
    assert game.to_text() == text
    assert game.to_move() == 0
    assert game.result() is None
    assert game.ply == 0


def test_black_opens_with_one_of_the_four_textbook_moves_on_8x8() -> None:
    game = Othello.new()
    assert sorted(game.format_move(move) for move in game.legal_moves()) == ["c4", "d3", "e6", "f5"]


@pytest.mark.parametrize(
    ("passes", "alternating", "max_plies"), [("move", True, 2 * 60), ("auto", False, 60)]
)
def test_the_rules_depend_on_how_a_pass_is_played(
    passes: str, alternating: bool, max_plies: int
) -> None:
    rules = Othello.new(size=8, passes=passes).rules
    assert rules.alternating is alternating
    assert rules.max_plies == max_plies
    assert rules.result_range == (-64, 64)
    assert (rules.players, rules.chance) == (2, False)


# --------------------------------------------------------------------- the rules
def test_a_disc_turns_over_the_lines_it_closes_in_all_eight_directions() -> None:
    # c3 is closed in by White discs with a Black one behind them in every direction;
    # the lines to the south and to the east are two discs long.
    before = "B.B.B.../.WWW..../BW.WWB../.WWWB.../B.WBB.../..B...../......../........ B"
    game = Othello.from_text(before)
    game.play("c3")
    after = "B.B.B.../.BBB..../BBBBBB../.BBBB.../B.BBB.../..B...../......../........ W"
    assert game.to_text() == after
    assert game.to_text() == oracle(8).text(dict(oracle(8).children(oracle(8).parse(before)))["c3"])
    assert game.result() == 21  # White has no disc left: no one can move
    game.undo()
    assert game.to_text() == before


def test_a_player_without_a_move_must_pass_when_passes_are_moves() -> None:
    game = Othello.from_text("...B/WWBW/.WWW/BWWW B")
    assert tuple(game.legal_moves()) == (PASS,)
    assert game.format_move(PASS) == "pass"
    view = game.board_view()
    assert view.extra_moves == (("pass", "pass"),)
    assert all(move is None for move in view.moves)
    game.play("pass")
    assert game.to_text() == "...B/WWBW/.WWW/BWWW W"
    assert game.history == (PASS,)
    assert game.result() is None
    game.undo()
    assert game.to_text() == "...B/WWBW/.WWW/BWWW B"


def test_the_ply_counts_the_passes_and_the_text_gives_it_after_two() -> None:
    game = Othello.from_text("...B/WWBW/.WWW/BWWW B")
    assert game.ply == 8  # 8 discs placed, no pass
    game.play("pass")
    assert game.ply == 9
    two_passes = Othello.from_text("...B/WWBW/.WWW/BWWW B 10")
    assert two_passes.ply == 10
    assert two_passes.to_text() == "...B/WWBW/.WWW/BWWW B 10"
    assert two_passes.key() != Othello.from_text("...B/WWBW/.WWW/BWWW B").key()
    two_passes.play("pass")
    assert two_passes.to_text() == "...B/WWBW/.WWW/BWWW W 11"
    assert Othello.from_text("...B/WWBW/.WWW/BWWW B 8").to_text() == "...B/WWBW/.WWW/BWWW B"


def test_a_player_without_a_move_is_skipped_when_passes_are_automatic() -> None:
    game = Othello.from_text("...B/.WBW/.BWW/BWWW W", passes="auto")
    # b1 leaves Black without a move while White still has one: White moves again.
    game.play("b1")
    assert game.to_text() == ".W.B/.WWW/.BWW/BWWW W"
    assert "pass" not in {game.format_move(move) for move in game.legal_moves()}
    assert game.board_view().extra_moves == ()
    game.undo()
    assert game.to_text() == "...B/.WBW/.BWW/BWWW W"


def test_the_same_move_passes_the_turn_when_passes_are_moves() -> None:
    game = Othello.from_text("...B/.WBW/.BWW/BWWW W")
    game.play("b1")
    assert game.to_text() == ".W.B/.WWW/.BWW/BWWW B"
    assert [game.format_move(move) for move in game.legal_moves()] == ["pass"]


@pytest.mark.parametrize("passes", ["move", "auto"])
def test_the_game_ends_when_neither_player_can_move_even_with_empty_cells(passes: str) -> None:
    game = Othello.from_text(".W.B/WWWW/.WWW/BWWW B", passes=passes)
    assert tuple(game.legal_moves()) == ()
    assert game.result() == 2 - 11
    assert game.board_view().extra_moves == ()
    wiped_out = Othello.from_text("BB.B/BBBB/BBBB/BBB. W", passes=passes)
    assert tuple(wiped_out.legal_moves()) == ()
    assert wiped_out.result() == 14


def test_a_full_board_ends_the_game_with_black_discs_minus_white_discs() -> None:
    game = Othello.from_text("WBBB/BWWW/BWWW/BWWW B")
    assert tuple(game.legal_moves()) == ()
    assert game.result() == 6 - 10


@pytest.mark.slow
@pytest.mark.parametrize(("size", "passes"), [(4, "move"), (4, "auto")])
def test_every_reachable_4x4_position_has_the_oracles_moves_and_children(
    size: int, passes: str
) -> None:
    rules = oracle(size, passes)
    count = 0
    for state, made in positions_4x4(passes).items():
        text = rules.text(state)
        game = made.copy()
        children = dict(rules.children(state))
        moves = game.legal_moves()
        assert sorted(game.format_move(move) for move in moves) == sorted(children), text
        expected_result = None if children else state[0].count("B") - state[0].count("W")
        assert game.result() == expected_result, text
        for move in moves:
            game.push(move)
            assert board_and_side(game) == rules.text(children[game.format_move(move)]), text
            game.undo()
        assert game.to_text() == text
        count += 1
    assert count == {"move": MOVE_4X4_POSITIONS, "auto": AUTO_4X4_POSITIONS}[passes]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([6, 8]), st.sampled_from(["move", "auto"]), st.randoms(use_true_random=False)
)
def test_random_games_on_larger_boards_follow_the_oracles_rules(
    size: int, passes: str, rng: random.Random
) -> None:
    rules, game = oracle(size, passes), Othello.new(size=size, passes=passes)
    state = rules.parse(game.to_text())
    while True:
        children = dict(rules.children(state))
        moves = list(game.legal_moves())
        assert sorted(game.format_move(move) for move in moves) == sorted(children)
        if not moves:
            break
        move = rng.choice(moves)
        game.push(move)
        state = children[game.format_move(move)]
        assert board_and_side(game) == rules.text(state)
    assert game.result() == state[0].count("B") - state[0].count("W")
    while game.history:
        game.undo()
    assert game.to_text() == Othello.new(size=size).to_text()


# ------------------------------------------------------------------------ text
@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([4, 6, 8]),
    st.sampled_from(["move", "auto"]),
    st.integers(0, 70),
    st.randoms(use_true_random=False),
)
def test_text_round_trips_keep_the_position_and_its_moves(
    size: int, passes: str, plies: int, rng: random.Random
) -> None:
    game = random_game(size, passes, plies, rng)
    again = Othello.from_text(game.to_text(), passes=passes)
    assert again.to_text() == game.to_text()
    assert again.key() == game.key()
    assert list(again.legal_moves()) == list(game.legal_moves())
    assert again.result() == game.result()
    assert (
        again.ply
        == game.ply
        == (game.discs()[0] | game.discs()[1]).bit_count() - 4 + game.history.count(PASS)
    )


@pytest.mark.parametrize("size", [4, 6, 8])
def test_every_cell_and_the_pass_round_trip_through_move_text(size: int) -> None:
    game = Othello.new(size=size)
    texts = [game.format_move(cell) for cell in range(size * size)]
    assert texts[0] == "a1" and texts[-1] == "abcdefgh"[size - 1] + str(size)
    assert [game.parse_move(text) for text in texts] == list(range(size * size))
    assert game.parse_move(" PASS ") == PASS
    assert game.parse_move("C4") == game.parse_move("c4")


def test_text_accepts_lower_case_and_line_breaks_and_render_labels_the_board() -> None:
    game = Othello.from_text("....\n.wb.\n.bw.\n.... b")
    assert game.to_text() == "..../.WB./.BW./.... B"
    assert (
        game.render()
        == "  a b c d\n1 . . . .\n2 . W B .\n3 . B W .\n4 . . . .\nBlack 2, White 2; Black to move"
    )


def test_the_board_view_offers_the_movers_cells() -> None:
    view = Othello.new(size=4).board_view()
    assert (view.rows, view.cols) == (4, 4)
    assert view.symbols[5:7] == ("W", "B")
    assert {move for move in view.moves if move} == {"b1", "a2", "d3", "c4"}
    assert view.extra_moves == ()


def test_copies_are_independent_and_keep_the_history() -> None:
    game = Othello.new(size=4)
    game.play("b1")
    twin = game.copy()
    twin.play(twin.format_move(twin.legal_moves()[0]))
    assert game.history == (1,) and len(twin.history) == 2
    twin.undo()
    twin.undo()
    assert twin.to_text() == Othello.new(size=4).to_text()
    assert game.to_text() == ".B../.BB./.BW./.... W"


def test_positions_pickle_without_the_boards_tables() -> None:
    game = Othello.new(size=6, passes="auto")
    game.play("c2")
    data = pickle.dumps(game)
    assert len(data) < 1000
    again = pickle.loads(data)
    assert again.to_text() == game.to_text() and again.history == game.history
    again.undo()
    assert again.to_text() == Othello.new(size=6).to_text()


def test_the_heuristic_counts_corners_mobility_and_discs_for_black() -> None:
    assert Othello.new().evaluate() == 0
    corner = Othello.from_text("B.../.BB./.BW./.... W")
    assert 0 < corner.evaluate() < Othello.evaluation_bound


def test_corners_come_first_and_cells_next_to_corners_last_in_move_order() -> None:
    game = Othello.from_text("..../.WB./.WBB/.WWW B")
    assert [game.format_move(move) for move in game.legal_moves()] == ["a1", "a2", "a3", "a4"]
    assert [game.format_move(move) for move in game.ordered_moves()] == ["a1", "a4", "a2", "a3"]
    big = Othello.new(size=8)
    assert [big.format_move(move) for move in big.ordered_moves()] == ["d3", "c4", "f5", "e6"]


# ------------------------------------------------------------ the plugin and the kit
def test_the_plugin_hook_registers_the_game() -> None:
    registry = build_registry(
        make_plugin_manager(plugins=[gamesearch_games.othello], entry_points=False)
    )
    assert registry.games["othello"] is Othello


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "positions"),
    [
        ({"size": 4}, 1500),
        ({"size": 4, "passes": "auto"}, 1500),
        ({"size": 6}, 300),
        ({"size": 8, "passes": "auto"}, 200),
    ],
)
def test_the_game_keeps_every_promise_of_the_protocol(
    options: dict[str, object], positions: int
) -> None:
    report = check_game(Othello, options=options, max_positions=positions, playouts=10)
    assert report.is_exhaustive or report.positions >= positions


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("..../.WB./.BW./....", r"must be rows of 'B', 'W' and '\.' then the side to move"),
        ("..../.WB./.BW./.... X", r"then the side to move, 'B' or 'W'"),
        ("..../.WB./.BW./..X. B", r"has 'X' in row 4; use 'B', 'W' or '\.'"),
        ("..../.WB./.BW./... B", r"must have 4 rows of 4 cells"),
        ("..../.W../.BW./.... B", r"has an empty centre square"),
        (
            "......../......../......../...WB.../...BW.../......../......../........ B",
            r"must have 4 rows",
        ),
    ],
)
def test_bad_positions_are_refused_with_the_problem_named(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Othello.from_text(text, size=4)


def test_a_board_of_a_size_othello_is_not_played_on_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match=r"'size'.*\b3\b"):
        Othello.from_text("..../.WB./.BW. B")


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        (
            "..../.WB./.BW./.... W",
            {},
            r"no game reaches position '\.\.\.\./\.WB\./\.BW\./\.\.\.\. W' with White to move at "
            r"ply 1",
        ),
        (
            "...B/WWBW/.WWW/BWWW B 9",
            {},
            r"at ply 9: the ply is the 8 discs placed plus the passes, its parity",
        ),
        ("...B/WWBW/.WWW/BWWW B 6", {}, r"at ply 6"),
        ("...B/WWBW/.WWW/BWWW B 18", {}, r"each pass follows a disc"),
        (
            "...B/.WBW/.BWW/BWWW W 9",
            {"passes": "auto"},
            r"has 7 discs placed, so its ply is 7, not 9",
        ),
    ],
)
def test_a_ply_no_game_reaches_is_refused(text: str, options: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Othello.from_text(text, **options)


def test_a_position_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match=r"must be text, not int: 5"):
        Othello.from_text(5)  # type: ignore[arg-type]


def test_a_blocked_side_to_move_is_refused_when_passes_are_automatic() -> None:
    with pytest.raises(
        InvalidPositionError,
        match=r"has White to move without a move; with automatic passes Black moves",
    ):
        Othello.from_text("BBBB/BBBB/WWBB/.WBB W", passes="auto")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("z9", r"move 'z9' is not a cell; use a cell from a1 to d4 or 'pass'"),
        ("", r"move '' is not a cell"),
        ("a", r"move 'a' is not a cell"),
        ("a5", r"cell 'a5' is off the board; rows run from 1 to 4"),
        ("a0", r"cell 'a0' is off the board"),
        ("e1", r"move 'e1' is not a cell"),
    ],
)
def test_bad_move_text_is_refused_with_the_text_named(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Othello.new(size=4).parse_move(text)


def test_a_pass_is_not_a_move_when_passes_are_automatic() -> None:
    game = Othello.new(size=4, passes="auto")
    with pytest.raises(
        InvalidMoveError,
        match=r"move 'pass' is not a move with automatic passes; use a cell from a1 to d4",
    ):
        game.parse_move("pass")
    with pytest.raises(InvalidMoveError, match=r"use a cell from a1 to d4$"):
        game.parse_move("x")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"size": 5}, r"option 'size' must be one of 4, 6, 8: 5"),
        ({"passes": "skip"}, r"option 'passes' must be one of move, auto: 'skip'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        Othello(**options)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match=repr(next(iter(options.values())))):
        Othello.new(**options)


# ------------------------------------------------------------ the exact values
@pytest.mark.slow
def test_4x4_othello_is_a_white_win_by_8_discs() -> None:
    """White, the second player, wins 4x4 Othello by 8 discs, the game lasting 10 plies
    (passes counted) with best play; with automatic passes the margin is the same."""
    start = oracle(4).parse(Othello.new(size=4).to_text())
    assert oracle(4).solve(start) == (-8, 10)
    result, _ = oracle(4, "auto").solve(start)
    assert result == -8


# ------------------------------------------------- the searchers against the oracle
#: unfinished reachable 4x4 positions with pass moves and with automatic passes
UNFINISHED_4X4 = {"move": 56_621, "auto": 47_633}
#: positions with at least this many empty cells are also searched from an empty memory
#: (the ones where a search from nothing does the most work)
EARLY_EMPTY_CELLS = 7
#: the random positions plain scoring is checked on
SAMPLED_4X4 = 300
#: the exhaustive walk checks one position in this many (in its order, fewest empty cells
#: first) where checking all repeats work: with automatic passes, whose positions are
#: those of the walk with pass moves less the passes (checked there, every one); for
#: minimax, which keeps no memory and searches each position down to the end of the game;
#: and for the searchers outside ``EVERY_POSITION``, each of which runs the loops of one
#: that checks every position, with other switches or under another driver
SPARSER_STEP = 16
#: the searchers of ``EVERY_POSITION`` check every position with pass moves (and every
#: early one with pass moves from an empty memory); the others one in ``SPARSER_STEP``,
#: each from its own place in ``EXACT_SEARCHERS`` (``exhaustive.one_in``): 3,539 of 56,621
#: with pass moves, 2,977 or 2,978 of 47,633 with automatic passes, 36 or 37 of the 583
#: early ones with pass moves and 35 or 36 of the 571 with automatic passes; between them
#: the 9 sampled searchers with pass moves check 9 positions in 16, the 13 with automatic
#: passes 13 in 16


def check_search(
    searcher: Searcher, rules: OthelloOracle, text: str, scoring: Scoring = Scoring.DISTANCE
) -> None:
    """Check one search of the position ``text`` against the oracle."""
    game = Othello.from_text(text, passes="auto" if rules.is_auto else "move")
    assert search_answer(searcher, game) == rules.answer(rules.parse(text), game, scoring), (
        searcher_id(searcher),
        text,
    )


@functools.cache
def sampled_4x4(passes: str) -> list[State]:
    rules = oracle(4, passes)
    unfinished = sorted(
        (state for state in rules.reachable() if rules.children(state)), key=rules.text
    )
    return [
        rules.parse(Othello.new(size=4).to_text()),
        *random.Random(4).sample(unfinished, SAMPLED_4X4),
    ]


@functools.cache
def every_4x4(passes: str) -> list[Expected]:
    """Return every unfinished reachable 4x4 position with the oracle's answer, made once
    for all the searchers: those with the fewest empty cells first, so that a searcher
    keeping its table holds the answers of the positions nearer the end when it comes to
    those they lead to."""
    rules = oracle(4, passes)
    unfinished = sorted(
        (state for state in rules.reachable() if rules.children(state)),
        key=lambda state: (state[0].count("."), state),
    )
    return expected_answers(rules, unfinished, positions_4x4(passes).__getitem__)


@functools.cache
def early_4x4(passes: str) -> list[Expected]:
    """Return the positions of :func:`every_4x4` with at least ``EARLY_EMPTY_CELLS`` empty cells."""
    return [
        case for case in every_4x4(passes) if case.game.to_text().count(".") >= EARLY_EMPTY_CELLS
    ]


@pytest.mark.slow
@pytest.mark.parametrize("passes", ["move", "auto"])
@pytest.mark.parametrize("searcher", EXACT_SEARCHERS, ids=searcher_id)
def test_every_exact_searcher_finds_the_oracles_answer_on_every_reachable_4x4_position(
    searcher: Searcher, passes: str
) -> None:
    """Each exact searcher (alpha-beta with every combination of its switches) walks every
    unfinished position back from the end of the game with one memory kept, as a solver
    filling in a whole game would, and gives the oracle's value, margin and best moves
    (one position in ``SPARSER_STEP`` where every one would repeat work, see there)."""
    cases = every_4x4(passes)
    assert len(cases) == UNFINISHED_4X4[passes]
    step = 1 if passes == "move" and searcher in EVERY_POSITION else SPARSER_STEP
    sample = one_in(step, cases, searcher)
    assert check_every_position(searcher, sample, SearchMemory()) == len(sample)


@pytest.mark.slow
@pytest.mark.parametrize("passes", ["move", "auto"])
@pytest.mark.parametrize("searcher", TABLE_SEARCHERS, ids=searcher_id)
def test_searchers_with_a_table_find_the_oracles_answer_from_an_empty_memory_on_early_4x4_positions(
    searcher: Searcher, passes: str
) -> None:
    """Without a memory kept, each search of an early position goes down to the end of the
    game (every one with pass moves for the searchers of ``EVERY_POSITION``, else one in
    ``SPARSER_STEP``, as in the walk above)."""
    cases = early_4x4(passes)
    assert len(cases) == {"move": 583, "auto": 571}[passes]
    step = 1 if passes == "move" and searcher in EVERY_POSITION else SPARSER_STEP
    sample = one_in(step, cases, searcher)
    assert check_every_position(searcher, sample, None) == len(sample)


@pytest.mark.slow
@pytest.mark.parametrize(
    "searcher",
    [
        Minimax(scoring=Scoring.PLAIN),
        AlphaBeta(scoring=Scoring.PLAIN, table=True),
        Solver(scoring=Scoring.PLAIN),
    ],
    ids=searcher_id,
)
def test_plain_scoring_finds_the_oracles_margin_and_every_move_that_keeps_it(
    searcher: Searcher,
) -> None:
    for state in sampled_4x4("move")[1::5]:
        check_search(searcher, oracle(4), oracle(4).text(state), Scoring.PLAIN)


@st.composite
def late_positions(draw: st.DrawFn, size: int, empty: int) -> tuple[str, str]:
    """Return (passes, text) of an unfinished position with at most ``empty`` empty cells."""
    passes = draw(st.sampled_from(["move", "auto"]))
    game = Othello.new(size=size, passes=passes)
    while (
        game.discs()[0] | game.discs()[1]
    ).bit_count() < size * size - empty and game.legal_moves():
        game.push(draw(st.sampled_from(list(game.legal_moves()))))
    return passes, game.to_text()


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.one_of(late_positions(6, 7), late_positions(8, 6)), st.sampled_from(EXACT_SEARCHERS[1:]))
def test_every_exact_searcher_finds_the_oracles_value_on_late_6x6_and_8x8_positions(
    position: tuple[str, str], searcher: Searcher
) -> None:
    passes, text = position
    rules = oracle(len(text.split()[0].split("/")), passes)
    check_search(searcher, rules, text)


@settings(max_examples=15, deadline=None)
@given(st.one_of(late_positions(4, 8), late_positions(6, 6), late_positions(8, 5)))
def test_mcts_solver_proves_the_oracles_value_on_late_positions(position: tuple[str, str]) -> None:
    passes, text = position
    rules = oracle(len(text.split()[0].split("/")), passes)
    game = Othello.from_text(text, passes=passes)
    if not game.legal_moves():
        return
    answer = MonteCarlo(simulations=3000, seed=1).search(game)
    value, margin, best = rules.answer(rules.parse(text), game)
    assert answer.is_exact
    assert (answer.value, answer.margin) == (value, margin)
    assert answer.move is not None and game.format_move(cast(int, answer.move)) in best


@pytest.mark.parametrize(
    "searcher",
    [Minimax(), AlphaBeta(), PrincipalVariationSearch(), MTDf(), Solver()],
    ids=searcher_id,
)
def test_a_6x6_solve_stops_at_its_node_limit_and_leaves_the_position_alone(
    searcher: Searcher,
) -> None:
    game = Othello.new(size=6)
    with pytest.raises(BudgetExceededError):
        searcher.search(game, Limit(max_nodes=2_000))
    assert game.to_text() == Othello.new(size=6).to_text() and game.history == ()


def test_iterative_deepening_answers_a_6x6_position_with_a_heuristic_value_within_its_limit() -> (
    None
):
    game = Othello.new(size=6)
    answer = IterativeDeepening().search(game, Limit(max_nodes=3_000))
    assert not answer.is_exact
    assert answer.move in game.legal_moves()
    assert abs(answer.value) < game.rules.scale.heuristic_bound
    assert answer.margin is None
