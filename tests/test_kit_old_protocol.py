"""What a plugin author porting a game from the old protocol runs into: the kit reports
each as a conformance failure that names the position and what is wrong."""

from __future__ import annotations

import pytest

from gamesearch.errors import ConformanceError, InvalidMoveError
from gamesearch.testing import check_game
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.tictactoe import TicTacToe


class RefusesTheCentre(TicTacToe):
    """Lists the centre (4) among its legal moves, but its parser refuses the text "4"."""

    def parse_move(self, text: str) -> int:
        if text.strip() == "4":
            raise InvalidMoveError(f"{text!r} is not a cell")
        return super().parse_move(text)


class SaysItsOwnWinScore(TicTacToe):
    """The old protocol's class attribute, shadowing the figure the value scale works out."""

    win_score = 100_000  # type: ignore[assignment]


class SaysItsOwnMaxPlies(TicTacToe):
    """A max_plies property of its own that disagrees with the rules (9 plies)."""

    @property
    def max_plies(self) -> int:
        return 12


class KeysTheLastColumn(ConnectFour):
    """Keys a position by its board and the column played last, so one board reached by
    two move orders ('1234' and '1432') gets two keys."""

    def key(self) -> tuple[int, str]:  # type: ignore[override]
        return (super().key(), (self.move_sequence() or "")[-1:])


def test_a_legal_move_its_own_parser_refuses_is_a_failure_naming_position_and_move() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(RefusesTheCentre)
    message = str(caught.value)
    assert message.startswith("tictactoe at '.../.../...': ")
    assert "parse_move('4') refused the legal move 4: '4' is not a cell" in message


def test_a_win_score_class_attribute_that_shadows_the_value_scale_is_flagged() -> None:
    with pytest.raises(ConformanceError, match=r"class attribute SaysItsOwnWinScore\.win_score"):
        check_game(SaysItsOwnWinScore)
    with pytest.raises(ConformanceError) as caught:
        check_game(SaysItsOwnWinScore)
    assert f"says 100000, but the searchers read {TicTacToe.new().rules.scale.win}" in str(
        caught.value
    )


def test_a_max_plies_property_that_disagrees_with_the_rules_is_flagged() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(SaysItsOwnMaxPlies)
    assert (
        "the property SaysItsOwnMaxPlies.max_plies says 12, but the searchers read 9 from "
        "rules.max_plies" in str(caught.value)
    )


class AgreesOnMaxPlies(TicTacToe):
    """Says the rules' own longest game (at module level: the kit pickles positions)."""

    max_plies = 9  # type: ignore[assignment]


@pytest.mark.slow
def test_a_max_plies_that_agrees_with_the_rules_passes() -> None:
    assert check_game(AgreesOnMaxPlies).is_exhaustive


def test_two_keys_for_one_position_show_both_move_orders() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(KeysTheLastColumn, max_positions=200)
    message = str(caught.value)
    assert "the same position has two keys" in message
    # the two move orders reach one board: both are named
    first, second = message.split("(as ")[1].split(", and as ")
    first_text, second_text = first.strip("'"), second.split(")")[0].strip("'")
    assert first_text != second_text
    assert sorted(first_text) == sorted(second_text)  # the same moves, in two orders
    assert KeysTheLastColumn.from_text(first_text).board_view() == (
        KeysTheLastColumn.from_text(second_text).board_view()
    )
