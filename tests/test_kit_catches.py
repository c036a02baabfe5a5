"""Deliberately broken games and searchers: the kit must catch each and say what is wrong."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import attrs
import pytest

from gamesearch import AlphaBeta, Game, Player, Searcher
from gamesearch.errors import ConformanceError
from gamesearch.rules import Rules, proven_value, terminal_sign
from gamesearch.search.base import INFINITY, RootAnswer, SearchContext
from gamesearch.testing import (
    Reference,
    check_game,
    check_position,
    check_search,
    check_searcher,
    reachable_positions,
)
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.kalah import Kalah
from gamesearch_games.tictactoe import TicTacToe


class UndoForgetsTheMark(TicTacToe):
    """undo() takes the move off the history but leaves the mark on the board."""

    def undo(self) -> int:
        move = super().undo()
        self._mover |= 1 << move  # the bug: the mark goes back on
        return move


class KeyIgnoresWhoseMarkItIs(TicTacToe):
    """key() is the set of occupied cells: X in 0 and O in 1 looks like O in 0 and X in 1."""

    def key(self) -> int:
        return self._mover | self._other


class FutureKeyForgetsWhoseTurn(Kalah):
    """future_key() is the board alone: South to move and North to move look alike."""

    def future_key(self) -> int:
        return super().future_key() - self._turn


class EvaluateReachesTheBound(TicTacToe):
    """evaluate() returns its declared bound itself."""

    def evaluate(self) -> int:
        return self.evaluation_bound if self.ply == 2 else 0


class ApplyTrustsEveryMove(TicTacToe):
    """apply() skips the legality check (it is push)."""

    def apply(self, move: int) -> None:
        self.push(move)


class LegalMovesAfterTheEnd(TicTacToe):
    """legal_moves() keeps listing empty cells after a line is complete."""

    def legal_moves(self) -> tuple[int, ...]:
        occupied = self._mover | self._other
        return tuple(cell for cell in range(9) if not occupied >> cell & 1)


class RetractLeavesTheMark(TicTacToe):
    """retract() forgets to take the mark off: a search would leave marks behind."""

    def retract(self, move: int) -> None:
        self._mover, self._other = self._other, self._mover


class ClaimsAlternatingTurns(TicTacToe):
    """Declares alternating turns (as tic-tac-toe does), but X moves twice in a row after
    the centre is taken."""

    def to_move(self) -> Player:
        if self.ply == 1 and self.cell(4) == "X":
            return Player.FIRST
        return super().to_move()


class TurnAsABareNumber(TicTacToe):
    """to_move() answers 0 or 1, not a Player: ``game.to_move().sign`` would crash."""

    def to_move(self) -> Player:
        return int(super().to_move())  # type: ignore[return-value]


class CopySharesTheBoard(TicTacToe):
    """copy() shares the move history with the original."""

    def copy(self) -> TicTacToe:
        twin = super().copy()
        twin._history = self._history
        return twin


class MoveResultsMissTheDraw(TicTacToe):
    """move_results() says the game goes on after the move that fills the board."""

    def move_results(self, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        return [
            (move, None if result == 0 else result)
            for move, result in super().move_results(ordered)
        ]

    advance_results = None  # (the default: it asks move_results())


class MoveResultsIgnoreTheOrder(TicTacToe):
    """move_results(True) lists the moves in natural order, not in ordered_moves() order."""

    def move_results(self, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        return super().move_results(False)

    advance_results = None  # (the default: it asks move_results())


class AdvanceResultsLeaveTheHistoryOut(TicTacToe):
    """advance_results() plays the move on the board but not into the history."""

    def advance_results(self, move: int, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        answer = super().advance_results(move, ordered)
        self._history.pop()  # the bug
        self._history.insert(0, -1)  # (kept as long, so that retract() still pops one)
        return answer


class AdvanceResultsAnswerTheParent(TicTacToe):
    """advance_results() answers the move results of the position before the move."""

    def advance_results(self, move: int, ordered: bool = False) -> Sequence[tuple[int, int | None]]:
        answer = self.move_results(ordered)
        self.advance(move)
        return answer


def test_advance_results_that_leave_the_history_out_are_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"tictactoe at '\.\.\./\.\.\./\.\.\.': advance_results\(0\) and push\(0\) differ: "
        r"history \(0,\) became \(-1,\)",
    ):
        check_game(AdvanceResultsLeaveTheHistoryOut)


def test_advance_results_of_the_wrong_position_are_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"tictactoe at '\.\.\./\.\.\./\.\.\.': advance_results\(0, False\) answers \(\(0, "
        r"None\), .*; push\(0\) then move_results\(False\) answers \(\(1, None\), ",
    ):
        check_game(AdvanceResultsAnswerTheParent)


def test_move_results_that_miss_a_draw_are_caught_naming_position_and_move() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"tictactoe at '[XO.]{3}/[XO.]{3}/[XO.]{3}': move_results\(False\) says \d gives "
        r"None; playing it gives 0",
    ):
        check_game(MoveResultsMissTheDraw)


def test_move_results_in_the_wrong_order_are_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"tictactoe at '\.\.\./\.\.\./\.\.\.': move_results\(True\) lists the moves \(0, 1, "
        r"2, 3, 4, 5, 6, 7, 8\), not ordered_moves\(\) \(4, ",
    ):
        check_game(MoveResultsIgnoreTheOrder)


def test_an_undo_that_leaves_the_mark_on_the_board_is_caught() -> None:
    with pytest.raises(
        ConformanceError, match=r"apply\(0\) then undo\(\) changed the position: text"
    ):
        check_game(UndoForgetsTheMark)


def test_a_key_that_forgets_whose_mark_is_where_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"tictactoe at '[XO.]{3}/[XO.]{3}/[XO.]{3}': it shares the key \d+ with the "
        r"different position '[XO.]{3}/",
    ):
        check_game(KeyIgnoresWhoseMarkItIs)


def test_a_future_key_that_forgets_whose_turn_it_is_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"kalah at '[0-9,/]+ [SN] \d+': it shares the future key \d+ with '[0-9,/]+ [SN] "
        r"\d+', whose result, side to move, legal moves or next future keys differ",
    ):
        check_game(FutureKeyForgetsWhoseTurn, options={"pits": 3, "seeds": 2})


def test_an_evaluate_outside_the_bounds_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"evaluate\(\) returned 500, outside the open interval \(-500, 500\) the game "
        r"declares",
    ):
        check_game(EvaluateReachesTheBound)


def test_an_apply_that_accepts_an_illegal_move_is_caught() -> None:
    game = TicTacToe.from_text("X........")
    with pytest.raises(ConformanceError, match=r"accepted a move that is not in legal_moves\(\)"):
        check_position(ApplyTrustsEveryMove.from_text(game.to_text()), other_moves=[0])


def test_moves_listed_after_the_game_is_over_are_caught() -> None:
    game = LegalMovesAfterTheEnd.from_text("XXX/OO./...")
    with pytest.raises(
        ConformanceError,
        match=r"'XXX/OO\./\.\.\.': the game is over but legal_moves\(\) returned \(5, 6, 7, 8\)",
    ):
        check_position(game)


def test_a_retract_that_leaves_the_mark_is_caught() -> None:
    with pytest.raises(
        ConformanceError, match=r"advance\(0\) then retract\(0\) changed the position: text"
    ):
        check_game(RetractLeavesTheMark)


def test_a_false_claim_of_alternating_turns_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"apply\(4\) left player 0 to move, but the rules declare alternating turns",
    ):
        check_game(ClaimsAlternatingTurns)


def test_a_turn_given_as_a_bare_number_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"tictactoe at '\.\.\./\.\.\./\.\.\.': to_move\(\) returned the bare int 0; a game "
        r"of two players returns Player\.FIRST or Player\.SECOND .*game\.to_move\(\)\.sign",
    ):
        check_game(TurnAsABareNumber)


def test_a_copy_that_shares_the_history_is_caught() -> None:
    with pytest.raises(ConformanceError, match=r"push\(0\) on its copy\(\) changed the position"):
        check_game(CopySharesTheBoard)


_NOT_OVER = object()  # a marker a pickle round trip copies into another object


class ResultKeptBehindAMarker(TicTacToe):
    """result() is kept with the key it was worked out for, an unfinished game as a marker
    made by ``object()``: in another process the copied marker reads as a result."""

    __slots__ = ("_kept",)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._kept: tuple[Hashable, object] = (None, _NOT_OVER)

    def result(self) -> int | None:
        key = self.key()
        kept_key, kept = self._kept
        if kept_key == key:
            return None if kept is _NOT_OVER else kept  # type: ignore[return-value]
        result = super().result()
        self._kept = (key, _NOT_OVER if result is None else result)
        return result

    def copy(self) -> ResultKeptBehindAMarker:
        twin = super().copy()
        assert isinstance(twin, ResultKeptBehindAMarker)
        twin._kept = self._kept
        return twin

    def __getstate__(self) -> tuple[Any, ...]:
        return (super().__getstate__(), self._kept)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        inner, self._kept = state
        super().__setstate__(inner)


def test_a_result_marker_that_does_not_survive_pickling_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"after a pickle round trip, the copy differs: result None became <object",
    ):
        check_game(ResultKeptBehindAMarker, max_positions=50, playouts=1)


@attrs.frozen(kw_only=True)
class InvertedCutoff(Searcher):
    """Alpha-beta whose cut-off test is inverted: it stops while the window is still open."""

    name: ClassVar[str] = "inverted-cutoff"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        counters, move_values = context.counters, context.move_values

        def value(alpha: int, beta: int) -> int:
            counters.nodes += 1
            sign = terminal_sign(game)
            if sign is not None:
                return proven_value(game, self.scoring)
            maximizing = game.to_move() == Player.FIRST
            best = -INFINITY if maximizing else INFINITY
            for move in game.legal_moves():
                game.push(move)
                child = value(alpha, beta)
                game.undo()
                if maximizing:
                    best = max(best, child)
                    alpha = max(alpha, best)
                else:
                    best = min(best, child)
                    beta = min(beta, best)
                if alpha < beta:  # the bug: a correct search cuts off when alpha >= beta
                    break
            return best

        root_values: list[tuple[Hashable, int]] = []
        for move in game.legal_moves():
            game.push(move)
            root_values.append((move, value(-INFINITY, INFINITY)))
            game.undo()
        sign = Player(game.to_move()).sign
        best_value = sign * max(sign * child for _, child in root_values)
        return RootAnswer(
            value=best_value,
            best_moves=tuple(move for move, child in root_values if child == best_value),
            move_values=tuple(root_values) if move_values else None,
            is_exact=True,
            depth=game.rules.max_plies - game.ply,
        )


@attrs.frozen(kw_only=True)
class ForgetsToUndo(AlphaBeta):
    """Alpha-beta that leaves its first root move on the board."""

    name: ClassVar[str] = "forgets-to-undo"

    def search(self, game: Game[Any], **kwargs: Any) -> Any:
        result = super().search(game, **kwargs)
        if game.legal_moves():
            game.push(game.legal_moves()[0])
        return result


@pytest.mark.slow
def test_alphabeta_with_an_inverted_cutoff_is_caught_with_the_position_and_the_values() -> None:
    positions = reachable_positions(TicTacToe())
    with pytest.raises(
        ConformanceError,
        match=r"searcher 'inverted-cutoff' disagrees with minimax on tictactoe '.*' \(. to move\): "
        r"value -?\d+, minimax -?\d+",
    ):
        check_searcher(InvertedCutoff(), positions, reference=Reference())


def test_a_searcher_that_changes_the_position_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"searcher 'forgets-to-undo' changed the position: text '\.\.\./\.\.\./\.\.\.' "
        r"became 'X\.\./",
    ):
        check_search(ForgetsToUndo(), TicTacToe())


@attrs.frozen(kw_only=True)
class ClaimsEveryBestMove(AlphaBeta):
    """Alpha-beta that finds one best move and says it found them all."""

    name: ClassVar[str] = "claims-every-best-move"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        found = super().root(game, context)
        return attrs.evolve(found, best_moves_complete=True)


@pytest.mark.slow
def test_a_searcher_that_claims_every_best_move_and_knows_one_is_caught() -> None:
    with pytest.raises(
        ConformanceError, match=r"best moves \[4\], minimax \[0, 1, 2, 3, 4, 5, 6, 7, 8\]"
    ):
        check_search(ClaimsEveryBestMove(all_best=False), TicTacToe(), move_values=False)


@pytest.mark.slow
def test_a_searcher_that_says_it_knows_one_of_the_best_moves_is_checked_on_that_one() -> None:
    result = check_search(AlphaBeta(all_best=False), TicTacToe(), move_values=False)
    assert result.best_moves == (4,) and not result.best_moves_complete


def test_a_reference_that_searches_differently_from_the_searcher_is_refused() -> None:
    with pytest.raises(
        ConformanceError, match=r"compare searchers with the same scoring and depth limit"
    ):
        check_search(AlphaBeta(depth=2), TicTacToe(), Reference())


class ConnectFourHintsEveryMove(ConnectFour):
    """non_losing_moves() returns every move, also those that hand the opponent a win."""

    def non_losing_moves(self) -> Sequence[int]:
        return self.ordered_moves()


class TicTacToeHintsEveryMove(TicTacToe):
    """Offers non_losing_moves() and returns every move."""

    def non_losing_moves(self) -> Sequence[int]:
        return self.ordered_moves()


class ResultOutsideItsRange(TicTacToe):
    """Reports a win by 2 in a game whose rules declare results -1..1."""

    advance = None  # the protocol's own pair: the result is all that is wrong
    retract = None
    move_results = None
    advance_results = None

    def result(self) -> int | None:
        result = super().result()
        return 2 if result == 1 else result


class ThreatHintsWithoutAlternation(TicTacToe):
    """Offers threat hints but declares turns that do not alternate."""

    @property
    def rules(self) -> Rules:
        return attrs.evolve(super().rules, alternating=False)

    def non_losing_moves(self) -> Sequence[int]:
        return self.ordered_moves()


def test_a_threat_hint_that_lets_the_opponent_win_is_caught_naming_position_and_move() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"connect4 at '\d+': non_losing_moves\(\) is wrong about \d: it lets the opponent "
        r"win at once",
    ):
        check_game(
            ConnectFourHintsEveryMove,
            options={"width": 4, "height": 4},
            max_positions=300,
            playouts=5,
        )


def test_a_threat_hint_returning_every_move_fails_the_tictactoe_kit() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"non_losing_moves\(\) is wrong about \d: it lets the opponent win at once",
    ):
        check_game(TicTacToeHintsEveryMove)


def test_a_result_outside_the_declared_range_is_caught() -> None:
    with pytest.raises(
        ConformanceError,
        match=r"result\(\) returned 2; expected None or an integer in the declared result_range "
        r"-1..1",
    ):
        check_game(ResultOutsideItsRange)


def test_threat_hints_on_a_game_that_does_not_alternate_are_refused() -> None:
    with pytest.raises(
        ConformanceError, match=r"only games whose rules declare two players, alternating turns"
    ):
        check_game(ThreatHintsWithoutAlternation)
