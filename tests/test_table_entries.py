"""What a kept alpha-beta table holds after searches to the end of tic-tac-toe: true bounds."""

from __future__ import annotations

import functools

import pytest

from gamesearch import AlphaBeta, Scoring
from gamesearch.search.table import SearchMemory
from gamesearch_games.tictactoe import TicTacToe

LINES = (0b111, 0b111000, 0b111000000, 0b1001001, 0b10010010, 0b100100100, 0b100010001, 0b1010100)


def _won(marks: int) -> bool:
    return any(marks & line == line for line in LINES)


@functools.cache
def _value(mover: int, other: int) -> int:
    """Return the win/draw/loss value (+1: X wins) of the 3x3 position whose side to
    move holds ``mover`` and whose other side holds ``other`` (a plain minimax)."""
    crosses_to_move = mover.bit_count() == other.bit_count()
    if _won(other):
        return -1 if crosses_to_move else 1
    empty = [cell for cell in range(9) if not (mover | other) >> cell & 1]
    if not empty:
        return 0
    values = [_value(other, mover | 1 << cell) for cell in empty]
    return max(values) if crosses_to_move else min(values)


@pytest.mark.parametrize("text", [".........", "X...O....", "XO..X..O."])
def test_every_entry_bounds_the_true_value_and_a_second_search_agrees(text: str) -> None:
    searcher = AlphaBeta(scoring=Scoring.PLAIN, ordering="natural", all_best=False, table=True)
    memory = SearchMemory()
    game = TicTacToe.from_text(text)
    first = searcher.search(game, memory=memory)
    (table,) = memory.tables.values()
    assert len(table.entries) > 0
    for key, (searched, lower, upper) in table.entries.items():
        assert isinstance(key, int)
        value = (
            _value(key & 0b111111111, key >> 9) * game.rules.scale.win
        )  # plain scores: a win is worth win_score
        assert lower <= value <= upper, (key, lower, upper, value)
        assert searched > 0  # nothing rests on a horizon: every entry is exact
    again = searcher.search(game, memory=memory)  # the kept entries answer most of it
    assert (again.value, again.best_moves, again.is_exact) == (first.value, first.best_moves, True)
    assert again.value == _value(game.key() & 0b111111111, game.key() >> 9) * game.rules.scale.win
    assert again.stats.tt_hits > 0
