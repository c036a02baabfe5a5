"""move_results(): each legal move with the result it leads to, and alpha-beta scoring the
finished children unplayed without changing a single count."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from oracle import best_moves, solve_all

from gamesearch import AlphaBeta, Minimax, Scoring, capabilities
from gamesearch.errors import BudgetExceededError
from gamesearch.game import offers
from gamesearch.search.alphabeta import search_root
from gamesearch.search.base import Counters
from gamesearch.testing import reachable_positions
from gamesearch_games import tictactoe_fast
from gamesearch_games.tictactoe import TicTacToe

POSITIONS = list(reachable_positions(TicTacToe()))


class PlaysEveryMove(TicTacToe):
    """Tic-tac-toe without the capability: searchers play every child."""

    move_results = None
    advance_results = None


class ReplaysItsHistory(TicTacToe):
    """Tic-tac-toe that checks, wherever a searcher asks for the results of the moves, that
    replaying the history from the empty board gives the position (the history is whole)."""

    asked = 0

    def move_results(self, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        self._replay()
        return super().move_results(ordered)

    def advance_results(self, move: int, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        answer = super().advance_results(move, ordered)
        self._replay()
        return answer

    def _replay(self) -> None:
        ReplaysItsHistory.asked += 1
        board = ["."] * 9
        for ply, cell in enumerate(self.history):
            board[cell] = "XO"[ply % 2]
        assert "/".join("".join(board[row : row + 3]) for row in (0, 3, 6)) == self.to_text(), (
            self.history
        )


@pytest.mark.slow
def test_tictactoe_answers_the_result_of_every_move_of_every_position() -> None:
    assert len(POSITIONS) == 5478
    for position in POSITIONS:
        expected = _expected(position.to_text())
        assert list(position.move_results()) == expected, position.to_text()
        ordered = list(position.move_results(True))
        assert [move for move, _ in ordered] == list(position.ordered_moves())
        assert sorted(ordered) == expected


def test_a_board_too_large_for_the_flat_table_answers_from_its_memo_also_once_emptied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tictactoe_fast, "MOVE_RESULTS_MEMO_SIZE", 8)
    rng = random.Random(5)
    for _ in range(40):
        game = TicTacToe(rows=4, cols=4, k=3)
        for _ in range(rng.randrange(12)):
            if game.is_over():
                break
            game.push(rng.choice(list(game.legal_moves())))
        text = game.to_text()
        assert list(game.move_results()) == _expected(text, 4, 4, 3), text
    assert len(game._geometry.move_results) <= 8


def _expected(text: str, rows: int = 3, cols: int = 3, k: int = 3) -> list[tuple[int, int | None]]:
    """The oracle: for each empty cell of the board written ``text``, the result once the
    mover marks it (every run of k cells scanned for one side's marks)."""
    cells = text.replace("/", "")

    def result(board: str) -> int | None:
        for row in range(rows):
            for col in range(cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    run = [(row + d_row * i, col + d_col * i) for i in range(k)]
                    if all(0 <= r < rows and 0 <= c < cols for r, c in run):
                        marks = {board[r * cols + c] for r, c in run}
                        if marks in ({"X"}, {"O"}):
                            return 1 if marks == {"X"} else -1
        return 0 if "." not in board else None

    if result(cells) is not None:
        return []
    mover = "X" if cells.count("X") == cells.count("O") else "O"
    return [
        (cell, result(cells[:cell] + mover + cells[cell + 1 :]))
        for cell in range(len(cells))
        if cells[cell] == "."
    ]


def test_the_default_plays_each_move_and_leaves_the_position_as_it_was() -> None:
    game = PlaysEveryMove.from_text("XO./XO./...")
    before = (game.key(), game.history)
    assert not offers(game, "move_results") and offers(TicTacToe, "move_results")
    assert (
        list(capabilities.move_results(game)())
        == _expected("XO./XO./...")
        == [(2, None), (5, None), (6, 1), (7, None), (8, None)]
    )
    assert [move for move, _ in capabilities.move_results(game)(True)] == list(game.ordered_moves())
    assert (game.key(), game.history) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    "searcher",
    [
        AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False),
        AlphaBeta(),
        AlphaBeta(depth=2),
        Minimax(),
        Minimax(depth=2),
    ],
    ids=repr,
)
def test_alphabeta_and_minimax_give_the_same_answer_and_counts_with_and_without_it(
    searcher: AlphaBeta | Minimax,
) -> None:
    values = solve_all(TicTacToe(), searcher.scoring)
    for position in POSITIONS[::7]:
        plain = PlaysEveryMove.from_text(position.to_text())
        fast, slow = searcher.search(position), searcher.search(plain)
        assert (
            fast.value,
            fast.best_moves,
            fast.is_exact,
            fast.stats.nodes,
            fast.stats.leaves,
            fast.stats.cutoffs,
            fast.stats.depth,
        ) == (
            slow.value,
            slow.best_moves,
            slow.is_exact,
            slow.stats.nodes,
            slow.stats.leaves,
            slow.stats.cutoffs,
            slow.stats.depth,
        ), position.to_text()
        if searcher.depth is None:
            assert fast.value == values[position.key()], position.to_text()
            if (isinstance(searcher, Minimax) or searcher.all_best) and not position.is_over():
                assert sorted(fast.best_moves) == sorted(best_moves(position, values)), (
                    position.to_text()
                )


def test_alphabeta_keeps_the_history_whole_where_it_asks_for_the_results() -> None:
    game = ReplaysItsHistory()
    game.push(4)
    result = AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False).search(game)
    assert (result.value, game.history) == (0, (4,))
    # every position the search expanded, the root included, asked once
    assert ReplaysItsHistory.asked == result.stats.nodes - result.stats.leaves > 1000


def test_alphabeta_tries_given_first_moves_first_with_the_results_as_without_them() -> None:
    values, changed = solve_all(TicTacToe(), Scoring.PLAIN), []
    for text in ("X../.../...", "XO./.X./...", "XO./XO./..."):
        answers = []
        for game in (TicTacToe.from_text(text), PlaysEveryMove.from_text(text)):
            counters = Counters()
            answer = search_root(
                game,
                None,
                Scoring.PLAIN,
                "natural",
                False,
                True,
                None,
                counters,
                first_moves=(8, 2),
            )
            answers.append(
                (answer.value, answer.best_moves, counters.nodes, counters.leaves, counters.cutoffs)
            )
        assert answers[0] == answers[1], text
        assert answers[0][0] == values[TicTacToe.from_text(text).key()], text
        plain = Counters()
        search_root(
            TicTacToe.from_text(text), None, Scoring.PLAIN, "natural", False, True, None, plain
        )
        changed.append(plain.nodes != answers[0][2])
    assert changed[0]  # the first moves changed the order (on the board with one mark)


def test_minimax_spends_a_node_budget_the_same_with_and_without_it() -> None:
    for game in (TicTacToe.from_text("X........"), PlaysEveryMove.from_text("X........")):
        with pytest.raises(BudgetExceededError, match="node budget of 5,000 exhausted"):
            Minimax(max_nodes=5_000).search(game)
        assert game.to_text() == "X../.../..." and game.history == ()
