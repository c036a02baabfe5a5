"""Max^n, paranoid and best-reply search equal their definitions, computed here.

Two kinds of game: three-player m,n,k (the in-tree game, against a brute force over
its rules written in this file) and random games drawn by hypothesis (a test-local
game whose moves and utilities come from a hash of the moves so far, and in which the
turn can be passed, as best-reply search needs). The oracles are the textbook
definitions, memoised, sharing no code with the searchers.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from clirun import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch import Game, Rules, default_registry
from gamesearch.arena import play_match
from gamesearch.errors import (
    BudgetExceededError,
    ConformanceError,
    GameOverError,
    InvalidOptionError,
    UnsupportedGameError,
)
from gamesearch.game import Option, UtilitiesGame
from gamesearch.notebook import board_svg, result_html
from gamesearch.rules import winners
from gamesearch.search.base import Limit
from gamesearch.testing import check_game
from gamesearch.tournament import run_tournament
from gamesearch.web.service import describe_state
from gamesearch.words import describe_result
from gamesearch_games.mnk3 import ThreePlayerMNK

REGISTRY = default_registry()
MNK3 = ThreePlayerMNK
MARKS = "ABC"


# ----------------------------------------------------------- three-player m,n,k oracle
def lines_of(rows: int, cols: int, k: int) -> list[tuple[int, ...]]:
    """Every row, column and diagonal window of k cells, written from the rules."""
    found = set()
    for row in range(rows):
        for col in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + dr * i, col + dc * i) for i in range(k)]
                if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                    found.add(tuple(r * cols + c for r, c in cells))
    return sorted(found)


LINES = lines_of(3, 3, 3)


@functools.cache  # (the walks below ask it of each board many times over)
def final(board: str) -> tuple[int, ...] | None:
    """The rules' utilities: 3 to a player with a line, 0 to the others; 1 each when full."""
    for mark in MARKS:
        if any(all(board[cell] == mark for cell in line) for line in LINES):
            return tuple(3 if other == mark else 0 for other in MARKS)
    return (1, 1, 1) if "." not in board else None


def mover_of(board: str) -> int:
    return (9 - board.count(".")) % 3


def moves_of(board: str) -> list[int]:
    return [] if final(board) is not None else [cell for cell in range(9) if board[cell] == "."]


def put(board: str, cell: int, player: int) -> str:
    return board[:cell] + MARKS[player] + board[cell + 1 :]


@functools.cache
def maxn_oracle(board: str) -> tuple[int, ...]:
    """Max^n: the mover takes the child best for itself, the first such in move order."""
    done = final(board)
    if done is not None:
        return done
    mover = mover_of(board)
    best: tuple[int, ...] | None = None
    for cell in moves_of(board):
        child = maxn_oracle(put(board, cell, mover))
        if best is None or child[mover] > best[mover]:
            best = child
    assert best is not None
    return best


@functools.cache
def paranoid_oracle(board: str, player: int) -> int:
    """Paranoid: ``player`` maximises its utility, everyone else minimises it."""
    done = final(board)
    if done is not None:
        return done[player]
    mover = mover_of(board)
    values = [paranoid_oracle(put(board, cell, mover), player) for cell in moves_of(board)]
    return max(values) if mover == player else min(values)


@functools.cache
def brs_oracle(board: str, player: int, turn: int) -> int:
    """Best-reply search to the end: ``player`` moves; then the one reply of any single
    opponent that is worst for ``player`` (the others pass), and ``player`` again."""
    done = final(board)
    if done is not None:
        return done[player]
    if turn == player:
        return max(
            brs_oracle(put(board, cell, player), player, (player + 1) % 3)
            for cell in moves_of(board)
        )
    replies = [
        brs_oracle(put(board, cell, opponent), player, player)
        for opponent in range(3)
        if opponent != player
        for cell in moves_of(board)
    ]
    return min(replies)


def positions_with_marks(at_least: int, at_most: int = 9) -> list[str]:
    """Every reachable board with at least ``at_least`` and at most ``at_most`` marks,
    unfinished (the walk stops at ``at_most`` marks: a board is reached through boards
    with fewer)."""
    seen: set[str] = set()

    def walk(board: str) -> None:
        if board in seen or final(board) is not None:
            return
        seen.add(board)
        if 9 - board.count(".") < at_most:
            for cell in moves_of(board):
                walk(put(board, cell, mover_of(board)))

    walk("." * 9)
    return sorted(board for board in seen if 9 - board.count(".") >= at_least)


#: one in six of the positions with four marks (252 positions; the random games below
#: cover deeper trees)
LATE = positions_with_marks(4, at_most=4)[::6]


def finished_positions() -> int:
    """Return how many reachable boards are finished."""
    seen: set[str] = set()

    def walk(board: str) -> None:
        for cell in moves_of(board):
            child = put(board, cell, mover_of(board))
            if child not in seen:
                seen.add(child)
                walk(child)

    walk("." * 9)
    return sum(final(board) is not None for board in seen)


def game_at(board: str) -> Game[Any]:
    return MNK3.from_text("/".join(board[i : i + 3] for i in range(0, 9, 3)))


@pytest.mark.slow
def test_three_player_mnk_passes_the_conformance_kit() -> None:
    small = check_game(MNK3, options={"rows": 2, "cols": 3, "k": 2})
    assert small.is_exhaustive and small.terminal > 0
    sampled = check_game(MNK3, max_positions=1500, playouts=20)
    assert sampled.positions > 1500 and sampled.longest == 9


@pytest.mark.slow
def test_the_rules_of_three_player_mnk_match_the_oracle_on_every_position() -> None:
    game = MNK3.new()
    seen: set[str] = set()

    def walk(board: str) -> None:
        seen.add(board)
        assert game.result() == final(board) and game.to_move() == mover_of(board)
        assert list(game.legal_moves()) == moves_of(board)
        for cell in moves_of(board):
            child = put(board, cell, mover_of(board))
            if child not in seen:
                game.push(cell)
                walk(child)
                game.undo()

    walk("." * 9)
    assert len(seen) == len(positions_with_marks(0)) + finished_positions()


@pytest.mark.slow
def test_maxn_equals_its_definition_on_positions_with_four_marks_with_and_without_pruning() -> None:
    pruned = REGISTRY.new_searcher("maxn")
    plain = REGISTRY.new_searcher("maxn:pruning=false")
    pruned_nodes = plain_nodes = 0
    for board in LATE:
        game = game_at(board)
        mover = mover_of(board)
        expected = maxn_oracle(board)
        children = {cell: maxn_oracle(put(board, cell, mover)) for cell in moves_of(board)}
        wanted_moves = tuple(cell for cell, utilities in children.items() if utilities == expected)
        for searcher in (pruned, plain):
            result = searcher.search(game)
            assert result.utilities == expected, board
            assert result.value == expected[mover]
            assert result.best_moves == wanted_moves, board
            assert result.is_exact and result.margin is None
            if searcher is pruned:
                pruned_nodes += result.stats.nodes
            else:
                plain_nodes += result.stats.nodes
    assert pruned_nodes < plain_nodes


@pytest.mark.slow
def test_paranoid_and_brs_equal_their_definitions_on_positions_with_four_marks() -> None:
    paranoid, brs = REGISTRY.new_searcher("paranoid"), REGISTRY.new_searcher("brs")
    for board in LATE:
        game = game_at(board)
        mover = mover_of(board)
        children = {
            cell: paranoid_oracle(put(board, cell, mover), mover) for cell in moves_of(board)
        }
        best = max(children.values())
        result = paranoid.search(game)
        assert result.value == best == paranoid_oracle(board, mover), board
        assert result.best_moves == tuple(cell for cell, value in children.items() if value == best)
        assert result.utilities is not None and result.utilities[mover] == best
        replies = {
            cell: brs_oracle(put(board, cell, mover), mover, (mover + 1) % 3)
            for cell in moves_of(board)
        }
        found = brs.search(game)
        assert found.value == max(replies.values()) == brs_oracle(board, mover, mover), board
        assert found.best_moves == tuple(
            cell for cell, value in replies.items() if value == found.value
        )


def test_each_root_moves_value_is_the_movers_utility_after_it() -> None:
    board = LATE[0]
    mover = mover_of(board)
    result = REGISTRY.new_searcher("maxn").search(game_at(board), move_values=True)
    assert result.move_values == tuple(
        (cell, maxn_oracle(put(board, cell, mover))[mover]) for cell in moves_of(board)
    )


def test_the_line_plays_out_to_the_utilities_found() -> None:
    for board in LATE[::25]:
        game = game_at(board)
        result = REGISTRY.new_searcher("maxn").search(game)
        for move in result.pv:
            game.apply(move)
        assert game.result() == result.utilities


# ------------------------------------------------------- the heuristic at a horizon
def mapped(game: Game[Any], estimates: Sequence[int]) -> tuple[Fraction, ...]:
    """The documented mapping of heuristic estimates, written out again: linear inside the
    result range, then shares of the constant sum (rounded down on the searchers' scale)."""
    bound = type(game).evaluation_bound
    unit = 2 * bound
    low, high = game.rules.result_range
    scaled = [low * unit + (high - low) * (estimate + bound) for estimate in estimates]
    room = (game.rules.constant_sum - 3 * low) * unit
    above = [value - low * unit for value in scaled]
    shares = [min(high * unit, low * unit + value * room // sum(above)) for value in above]
    return tuple(Fraction(share, unit) for share in shares)


def test_a_depth_limited_maxn_scores_the_horizon_with_the_mapped_heuristic() -> None:
    game = MNK3.new(rows=4, cols=4)
    game.apply(5)

    def oracle(depth: int) -> tuple[Fraction, ...]:
        if game.result() is not None:
            return tuple(Fraction(value) for value in game.result())  # type: ignore[union-attr]
        if depth == 0:
            return mapped(game, game.evaluate())  # type: ignore[arg-type]
        mover = game.to_move()
        best = None
        for move in game.legal_moves():
            game.push(move)
            child = oracle(depth - 1)
            game.undo()
            if best is None or child[mover] > best[mover]:
                best = child
        assert best is not None
        return best

    for depth in (1, 2, 3):
        result = REGISTRY.new_searcher(f"maxn:depth={depth}").search(game)
        assert result.utilities == oracle(depth)
        assert not result.is_exact and result.stats.depth == depth
        assert sum(result.utilities) <= 3
        assert all(0 <= value <= 3 for value in result.utilities)
        assert result.describe(game).startswith("estimate A ")


def test_rounds_count_one_move_of_every_player() -> None:
    game = MNK3.new(rows=4, cols=4)
    by_rounds = REGISTRY.new_searcher("paranoid:rounds=1").search(game)
    by_depth = REGISTRY.new_searcher("paranoid:depth=3").search(game)
    assert (by_rounds.utilities, by_rounds.pv, by_rounds.stats.nodes) == (
        by_depth.utilities,
        by_depth.pv,
        by_depth.stats.nodes,
    )
    assert by_rounds.stats.depth == 3 and len(by_rounds.pv) == 3


# ---------------------------------------------------------------- random games
class RandomGame(UtilitiesGame[int]):
    """A random game of three players drawn from ``seed``: at each point the moves and
    whether the game ends come from a hash of every (player, move) so far; the turn
    can be passed in search (the passes are no moves: they change nothing else)."""

    name = "random-three"
    player_names = ("A", "B", "C")
    options = (
        Option("seed", int, 0, "what the game is drawn from"),
        Option("constant_sum", bool, False, "every result adds up to 4"),
        Option("horizon", int, 5, "the longest game"),
    )

    def __init__(self, seed: int = 0, constant_sum: bool = False, horizon: int = 5) -> None:
        self.seed, self.constant_sum, self.horizon = seed, constant_sum, horizon
        self.actions: list[tuple[int, int]] = []
        self.turns = [0]

    @property
    def rules(self) -> Rules:
        return Rules(
            max_plies=self.horizon,
            players=3,
            result_range=(0, 4),
            utilities=True,
            constant_sum=4 if self.constant_sum else None,
        )

    def _draw(self) -> random.Random:
        return random.Random(hash((self.seed, tuple(self.actions))))

    def to_move(self) -> int:
        return self.turns[-1]

    def legal_moves(self) -> Sequence[int]:
        if self.result() is not None:
            return ()
        return tuple(range(1 + self._draw().randrange(3)))

    def make_move(self, move: int) -> None:
        self.actions.append((self.turns[-1], move))
        self.turns.append((self.turns[-1] + 1) % 3)

    def unmake_move(self, move: int) -> None:
        self.actions.pop()
        self.turns.pop()

    def make_null_move(self) -> None:
        self.turns.append((self.turns[-1] + 1) % 3)

    def unmake_null_move(self) -> None:
        self.turns.pop()

    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        draw = self._draw()
        if self.actions and (len(self.actions) >= self.horizon or draw.random() < 0.15):
            if self.constant_sum:
                first = draw.randrange(5)
                second = draw.randrange(5 - first)
                return (first, second, 4 - first - second)
            return tuple(draw.randrange(5) for _ in range(3))
        return None

    def key(self) -> tuple[tuple[int, int], ...]:
        return (*self.actions, (-1, self.turns[-1]))


def random_maxn(game: RandomGame) -> tuple[int, ...]:
    done = game.result()
    if done is not None:
        return done
    mover = game.to_move()
    best = None
    for move in game.legal_moves():
        game.push(move)
        child = random_maxn(game)
        game.undo()
        if best is None or child[mover] > best[mover]:
            best = child
    assert best is not None
    return best


def random_paranoid(game: RandomGame, player: int) -> int:
    done = game.result()
    if done is not None:
        return done[player]
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(random_paranoid(game, player))
        game.undo()
    return max(values) if game.to_move() == player else min(values)


def random_brs(game: RandomGame, player: int) -> int:
    """BRS by its definition: max over ``player``'s moves of the min over every single
    opponent's replies, that opponent given the turn by passes, then ``player`` again."""
    done = game.result()
    if done is not None:
        return done[player]
    values = []
    for move in game.legal_moves():
        game.push(move)
        if game.result() is not None or game.to_move() == player:
            values.append(random_brs(game, player))
        else:
            replies = []
            first = game.to_move()
            for step in range(3):
                opponent = (first + step) % 3
                if opponent == player:
                    continue
                passes = 0
                while game.to_move() != opponent:
                    game.make_null_move()
                    passes += 1
                for reply in game.legal_moves():
                    game.push(reply)
                    back = 0
                    while game.result() is None and game.to_move() != player:
                        game.make_null_move()
                        back += 1
                    replies.append(random_brs(game, player))
                    for _ in range(back):
                        game.unmake_null_move()
                    game.undo()
                for _ in range(passes):
                    game.unmake_null_move()
            values.append(min(replies))
        game.undo()
    return max(values)


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), constant_sum=st.booleans(), horizon=st.integers(1, 6))
def test_the_searchers_equal_their_definitions_on_random_games(
    seed: int, constant_sum: bool, horizon: int
) -> None:
    game = RandomGame(seed, constant_sum, horizon)
    expected = random_maxn(game)
    pruned = REGISTRY.new_searcher("maxn").search(game)
    plain = REGISTRY.new_searcher("maxn:pruning=false").search(game)
    assert pruned.utilities == plain.utilities == expected
    assert pruned.best_moves == plain.best_moves
    assert pruned.stats.nodes <= plain.stats.nodes
    assert REGISTRY.new_searcher("paranoid").search(game).value == random_paranoid(game, 0)
    assert REGISTRY.new_searcher("brs").search(game).value == random_brs(game, 0)
    assert game.actions == [] and game.turns == [0]


def test_shallow_pruning_saves_nodes_on_constant_sum_random_games() -> None:
    saved = 0
    for seed in range(30):
        game = RandomGame(seed, constant_sum=True, horizon=6)
        saved += (
            REGISTRY.new_searcher("maxn:pruning=false").search(game).stats.nodes
            - REGISTRY.new_searcher("maxn").search(game).stats.nodes
        )
    assert saved > 0


# ---------------------------------------------------------------- what they refuse
@pytest.mark.parametrize("spec", ["minimax", "alphabeta", "iterative", "pvs", "mtdf", "solver"])
def test_two_player_searchers_refuse_three_player_mnk_at_once(spec: str) -> None:
    game = MNK3.new()
    with pytest.raises(
        UnsupportedGameError,
        match=rf"searcher '{spec}' cannot search 'mnk3': it needs two players, and this game has 3",
    ):
        REGISTRY.new_searcher(spec).search(game)


@pytest.mark.parametrize("spec", ["maxn", "paranoid", "brs"])
def test_the_searchers_of_utilities_refuse_a_single_value_game(spec: str) -> None:
    with pytest.raises(
        UnsupportedGameError,
        match=rf"searcher '{spec}' cannot search 'tictactoe': it needs one utility per player, and "
        r"this game's rules declare none",
    ):
        REGISTRY.new_searcher(spec).search(REGISTRY.new_game("tictactoe"))


class NoPassing(RandomGame):
    name = "no-passing"
    make_null_move = None
    unmake_null_move = None


def test_brs_refuses_a_game_of_three_that_cannot_pass_the_turn() -> None:
    game = NoPassing(1)
    with pytest.raises(
        UnsupportedGameError,
        match=r"searcher 'brs' cannot search 'no-passing': it needs the NullMove capability "
        r"\(make_null_move, unmake_null_move\) to let one opponent reply",
    ):
        REGISTRY.new_searcher("brs").search(game)
    assert REGISTRY.new_searcher("maxn").search(game).utilities == random_maxn(game)


def test_a_two_player_game_with_utilities_is_refused_by_single_value_searchers() -> None:
    class Pair(RandomGame):
        name = "pair"

        @property
        def rules(self) -> Rules:
            return Rules(max_plies=self.horizon, players=2, result_range=(0, 4), utilities=True)

    with pytest.raises(
        UnsupportedGameError,
        match=r"cannot search 'pair': it needs one first-player result, and this game gives one "
        r"utility per player",
    ):
        REGISTRY.new_searcher("alphabeta").search(Pair(3))


# ------------------------------------------------------------ rules and the kit
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": 3}, r"a game of 3 players must declare utilities=True"),
        ({"constant_sum": 1}, r"'constant_sum' needs utilities=True: 1"),
        (
            {"players": 3, "utilities": True, "result_range": (0, 1), "constant_sum": 4},
            r"'constant_sum' must lie between 0 and 3 \(3 utilities in 0..1\): 4",
        ),
    ],
)
def test_rules_refuse_declarations_that_cannot_hold(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(max_plies=3, **fields)


class Broken(RandomGame):
    """A random game whose results or heuristic break one promise (``flaw``)."""

    name = "broken"
    flaw = ""

    @property
    def rules(self) -> Rules:
        return Rules(
            max_plies=self.horizon, players=3, result_range=(0, 4), utilities=True, constant_sum=4
        )

    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        found = super().result()
        if found is None:
            return None
        if self.flaw == "sum":
            return (4, 4, 0)
        if self.flaw == "length":
            return (4, 0)
        if self.flaw == "range":
            return (5, -1, 0)
        return found

    def evaluate(self) -> tuple[int, ...]:  # type: ignore[override]
        return (100, 0, 0) if self.flaw == "evaluate" else (1, 2, 1)


@pytest.mark.parametrize(
    ("flaw", "message"),
    [
        (
            "sum",
            r"result\(\) returned \(4, 4, 0\), which adds up to 8, not the declared constant_sum 4",
        ),
        (
            "length",
            r"result\(\) returned \(4, 0\); the rules declare utilities: expected None or a tuple "
            r"of 3 integers",
        ),
        ("range", r"result\(\) returned \(5, -1, 0\); .* in the declared result_range 0..4"),
        (
            "evaluate",
            r"evaluate\(\) returned \(100, 0, 0\); .* each inside the open interval \(-100, 100\)",
        ),
    ],
)
def test_the_kit_catches_broken_utilities(flaw: str, message: str) -> None:
    game = Broken(7, True, 4)
    game.flaw = flaw
    with pytest.raises(ConformanceError, match=message):
        check_game(game)


def test_the_kit_passes_a_sound_random_game() -> None:
    report = check_game(Broken(7, True, 4), max_positions=500)
    assert report.is_exhaustive and report.terminal > 0


# ------------------------------------------------------------------------- MCTS
#: positions with four empty cells, a fixed sample
FOUR_EMPTY = positions_with_marks(5, at_most=5)[::60]


def maxn_best_moves(board: str) -> set[int]:
    """Return every move that keeps the mover's max^n utility."""
    mover = mover_of(board)
    best = maxn_oracle(board)[mover]
    return {cell for cell in moves_of(board) if maxn_oracle(put(board, cell, mover))[mover] == best}


@pytest.mark.slow
def test_mcts_proves_the_maxn_utilities_of_small_positions() -> None:
    """With 1,500 simulations, every position with four empty cells is proven (MCTS-Solver
    over utility vectors): max^n's utilities (ties to the first move, as max^n takes
    them), the mover's value, every move that keeps it, and each move's exact value."""
    mcts = REGISTRY.new_searcher("mcts:seed=1,simulations=1500")
    assert len(FOUR_EMPTY) >= 20
    for board in FOUR_EMPTY:
        game = game_at(board)
        mover = mover_of(board)
        result = mcts.search(game, move_values=True)
        assert result.is_exact and result.best_moves_complete and result.move_values_exact, board
        assert result.utilities == maxn_oracle(board) and result.value == maxn_oracle(board)[mover]
        assert set(result.best_moves) == maxn_best_moves(board), board
        assert dict(result.move_values or ()) == {
            cell: maxn_oracle(put(board, cell, mover))[mover] for cell in moves_of(board)
        }
        assert 0 < result.stats.leaves < 1500  # it stops once every root move is settled


def test_mcts_proves_a_few_small_positions_exactly() -> None:
    for board in FOUR_EMPTY[:4]:
        result = REGISTRY.new_searcher("mcts:seed=2,simulations=1500").search(game_at(board))
        assert result.is_exact and result.utilities == maxn_oracle(board), board
        assert result.move in maxn_best_moves(board)


@pytest.mark.parametrize("seed", range(12))
def test_mcts_proves_the_maxn_utilities_of_random_games_ties_included(seed: int) -> None:
    """Random games of three have ties for the mover with different utilities for the
    others: the proof takes the first such move in legal-move order, as max^n does."""
    game = RandomGame(seed)
    result = REGISTRY.new_searcher("mcts:seed=3,simulations=3000").search(game)
    assert result.is_exact and result.utilities == random_maxn(game)
    for move in result.pv:  # the line of a proof ends where those utilities are reached
        game.push(move)
    assert game.result() == result.utilities


def test_an_unproven_mcts_answer_is_a_mean_of_final_utilities() -> None:
    """From the empty board 200 simulations prove nothing: the value is the chosen move's
    mean utility for the mover, and the means of utilities that add up to 3 add up to 3."""
    result = REGISTRY.new_searcher("mcts:seed=1,simulations=200").search(MNK3.new())
    assert not result.is_exact and not result.best_moves_complete
    assert result.stats.leaves == 200 and result.utilities is not None
    assert sum(result.utilities) == 3 and result.value == result.utilities[0]
    assert all(-1 <= entry.mean <= 1 and entry.proven is None for entry in result.visits or ())


def test_mcts_takes_an_immediate_win_and_credits_the_winner() -> None:
    game = game_at("ABCABC...")  # A to move wins with 6 (the left column)
    result = REGISTRY.new_searcher("mcts:seed=2,simulations=300").search(game)
    assert result.move == 6 and result.utilities == (3, 0, 0) and result.value == 3
    assert result.is_exact
    # proven as soon as the first move is seen to give the mover its highest utility
    quick = REGISTRY.new_searcher("mcts:seed=2,simulations=3").search(game)
    assert quick.is_exact and quick.utilities == (3, 0, 0) and not quick.best_moves_complete


# ------------------------------------------------------------- matches, web, words
def test_a_match_of_three_turns_the_seats_and_counts_who_came_top() -> None:
    searchers = [
        REGISTRY.new_searcher(spec)
        for spec in ("maxn:depth=2", "paranoid:depth=2", "mcts:simulations=50")
    ]
    match = play_match(MNK3.new(), *searchers[:2], others=searchers[2:], games=3, swap=True, seed=4)
    labels = match.labels
    assert [record.players for record in match.games] == [
        labels,
        (labels[1], labels[2], labels[0]),
        (labels[2], labels[0], labels[1]),
    ]
    for standing, index in zip(match.standings(), range(3), strict=True):
        expected = {"win": 0, "draw": 0, "loss": 0}
        for record in match.games:
            utilities = record.utilities
            assert utilities is not None and sum(utilities) == 3
            mine = utilities[record.players.index(labels[index])]
            top = [utility for utility in utilities if utility == max(utilities)]
            expected["loss" if mine < max(utilities) else "win" if len(top) == 1 else "draw"] += 1
        assert (standing.wins, standing.draws, standing.losses) == (
            expected["win"],
            expected["draw"],
            expected["loss"],
        )
    assert match.as_dict()["games"][0]["third"] == labels[2]
    with pytest.raises(ValueError, match=r"'mnk3' needs 3 searchers, one a player, not 2"):
        play_match(MNK3.new(), *searchers[:2])


def test_the_words_and_the_board_name_the_winner() -> None:
    won = MNK3.from_text("CAB/CAB/CBA")  # C's left column
    assert won.result() == (0, 0, 3) and winners(won) == (2,)
    assert describe_result(won, won.result()) == "C won: A 0, B 0, C 3"  # type: ignore[arg-type]
    assert describe_state(won)["status"] == "C wins"
    full = MNK3.from_text("ABC/ABC/BCA")
    assert describe_result(full, full.result()) == "a draw: A 1, B 1, C 1"  # type: ignore[arg-type]
    assert describe_state(full)["status"] == "draw"
    with pytest.raises(
        GameOverError,
        match=r"the game is over \(C won: A 0, B 0, C 3\); no move is legal in 'CAB/CAB/CBA'",
    ):
        won.apply(0)


def test_a_tournament_of_a_game_of_three_refuses_fewer_than_three_players() -> None:
    with pytest.raises(
        InvalidOptionError,
        match=r"'mnk3' is a game of 3 players, so a tournament of it needs at least 3",
    ):
        run_tournament(MNK3.new(), ["maxn", "paranoid"])


def test_a_notebook_draws_the_three_players_and_lists_the_utilities() -> None:
    won = MNK3.from_text("CAB/CAB/CBA")
    drawing = board_svg(won)
    assert drawing is not None and "the game is over: C won: A 0, B 0, C 3" in drawing
    assert drawing.count("<text") >= 9 + 1  # every mark, and the caption
    result = REGISTRY.new_searcher("maxn").search(game_at("AB..C...."))
    assert "<th style='text-align:left'>utilities</th><td>1, 1, 1</td>" in result_html(result)


@pytest.mark.parametrize("spec", ["maxn", "maxn:pruning=false", "paranoid", "brs"])
def test_the_searchers_give_up_at_their_budgets_leaving_the_position_whole(spec: str) -> None:
    game = MNK3.new()
    with pytest.raises(BudgetExceededError, match=r"node budget of 1,000 exhausted"):
        REGISTRY.new_searcher(spec).search(game, Limit(max_nodes=1000))
    with pytest.raises(BudgetExceededError, match=r"time budget exhausted"):
        REGISTRY.new_searcher(spec).search(game, Limit(seconds=0.01))
    assert game.to_text() == ".../.../..." and game.history == () and game.to_move() == 0


@pytest.mark.slow
def test_analyze_hands_a_game_of_three_too_big_for_max_n_to_mcts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "analyze", "mnk3", "--max-nodes", "2000")
    assert status == 0, err
    assert (
        "max^n gave up after 2,000 nodes, so Monte Carlo tree search answered within 1 s: not exact"
        in out
    )
