"""The small Game: its public names are the core and the history and text helpers; the
names it used to carry answer for one release with a DeprecationWarning naming their new
place; the framework finds capabilities through gamesearch.capabilities; the kit checks
a game's own ply against the base class's count."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

import gamesearch
import gamesearch.game
from gamesearch import capabilities
from gamesearch.errors import ConformanceError
from gamesearch.game import Game
from gamesearch.rules import (
    PLAYERS,
    Outcome,
    Player,
    Rules,
    Scoring,
    outcome,
    proven_value,
    terminal_sign,
)
from gamesearch.testing import check_game
from gamesearch_games.tictactoe import TicTacToe

#: the members the class keeps, written out from the design (the oracle of the first test)
KEPT = {
    # the core
    "rules", "to_move", "legal_moves", "make_move", "unmake_move", "result", "key",
    # construction with options
    "new", "options", "settings",
    # the history
    "push", "undo", "history", "ply", "copy", "is_over",
    # text in and out, checked moves
    "to_text", "from_text", "format_move", "parse_move", "apply", "play",
}  # fmt: skip


class TakeAway(Game[int]):
    """Take one or two from a pile of five; who takes the last wins (nothing but the core)."""

    name = "takeaway"

    def __init__(self) -> None:
        self._pile = 5

    @property
    def rules(self) -> Rules:
        return Rules(max_plies=5, alternating=True)

    def to_move(self) -> Player:
        return PLAYERS[self.ply % 2]

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(take for take in (1, 2) if take <= self._pile)

    def make_move(self, move: int) -> None:
        self._pile -= move

    def unmake_move(self, move: int) -> None:
        self._pile += move

    def result(self) -> int | None:
        if self._pile:
            return None
        return 1 if self.ply % 2 else -1  # the player who just moved took the last

    def key(self) -> tuple[int, int]:
        return self._pile, self.ply


class CountsPliesTwice(TakeAway):
    """A ply of its own that counts each move twice: the kit must catch it."""

    @property
    def ply(self) -> int:
        return 2 * len(self.history)


class StartsAtPlyOne(TakeAway):
    """A ply of its own that says a new game has had a move: the kit must catch it."""

    @property
    def ply(self) -> int:
        return 1 + len(self.history)


def test_game_has_at_most_25_public_names_and_they_are_the_core_and_its_helpers() -> None:
    public = {name for name in dir(gamesearch.Game) if not name.startswith("_")}
    assert public == KEPT
    assert len(public) <= 25


@pytest.mark.parametrize(
    ("member", "place"),
    [
        ("evaluate", "Heuristic capability: call gamesearch.capabilities.heuristic(game)()"),
        ("ordered_moves", "MoveOrdering capability: call gamesearch.capabilities.move_order"),
        ("advance", "FastMoves capability: call gamesearch.capabilities.advancer(game)"),
        ("render", "Presentation capability: call gamesearch.capabilities.render(game)"),
        ("player_names", "Presentation capability: call gamesearch.capabilities.player_names"),
        ("winning_moves", "ThreatHints capability: call gamesearch.capabilities.winning_moves"),
        ("max_plies", "use game.rules.max_plies"),
        ("value_scale", "use game.rules.scale"),
        ("outcome", "use gamesearch.rules.outcome(game)"),
    ],
)
def test_an_old_member_warns_and_names_its_new_place(member: str, place: str) -> None:
    game = TakeAway()
    with pytest.deprecated_call(match=rf"Game\.{member} has moved.*{re.escape(place)}"):
        getattr(game, member)


def test_the_old_members_still_answer_what_the_old_defaults_answered() -> None:
    game = TakeAway()
    game.push(2)
    game.push(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old: Any = game
        assert old.evaluate() == 0 and old.evaluation_bound == 100
        assert list(old.ordered_moves()) == [1] == list(old.winning_moves())
        assert list(old.move_results()) == [(1, 1)]
        assert old.player_names == ("first", "second") and old.render() == "2 2"
        assert old.board_view() is None and old.non_losing_moves() is None
        assert old.max_plies == 5 and old.value_scale == game.rules.scale
        assert old.win_score == game.rules.scale.win
        assert old.advance(1) == 1 and old.outcome() is Outcome.FIRST_WINS
        assert old.score(Scoring.PLAIN) == proven_value(game, Scoring.PLAIN)
        old.retract(1)
        assert game.history == (2, 2) and old.terminal_sign() is None
        with pytest.raises(ValueError, match=r"'2 2' is not a chance position"):
            old.chance_outcomes()
        with pytest.raises(NotImplementedError, match="TakeAway offers no null move"):
            old.make_null_move()


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="'TakeAway' object has no attribute 'nonsense'"):
        TakeAway().nonsense  # type: ignore[attr-defined]  # noqa: B018


def test_the_moved_words_warn_from_their_old_module() -> None:
    with pytest.deprecated_call(match="gamesearch.game.describe_value has moved to gamesearch"):
        describe = gamesearch.game.describe_value  # type: ignore[attr-defined]
    assert describe(TicTacToe(), 0) == "draw"
    with pytest.raises(AttributeError, match="has no attribute 'nonsense'"):
        gamesearch.game.nonsense  # type: ignore[attr-defined]  # noqa: B018


def test_a_game_that_defines_a_capability_is_served_its_own_member_without_a_warning() -> None:
    game = TicTacToe()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert capabilities.advancer(game) == game.advance
        assert capabilities.move_order(game) == game.ordered_moves
        assert capabilities.heuristic(game) == game.evaluate
        assert capabilities.player_names(game) == ("X", "O")
        assert capabilities.offered(game, capabilities.FastMoves)
        assert not capabilities.offered(TakeAway(), capabilities.FastMoves)


def test_a_subclass_withdraws_an_inherited_member_by_setting_it_to_none() -> None:
    class WithoutOrdering(TicTacToe):
        ordered_moves = None

    game = WithoutOrdering()
    assert capabilities.move_order(game) == game.legal_moves
    assert not capabilities.offered(game, capabilities.MoveOrdering)


def test_the_result_functions_read_a_finished_game() -> None:
    game = TakeAway.from_text("2 2 1")
    assert terminal_sign(game) == 1 and outcome(game) is Outcome.FIRST_WINS
    assert proven_value(game) == game.rules.scale.proven(1, 3)
    assert terminal_sign(TakeAway()) is None


def test_the_kit_passes_the_bare_core_and_catches_a_ply_that_miscounts() -> None:
    # pile p is reached after k moves of 1 or 2 taking 5 - p, for each k from
    # ceil((5 - p) / 2) to 5 - p: 1 + 1 + 2 + 2 + 3 + 3 positions for piles 5 down to 0
    assert check_game(TakeAway).positions == 12
    with pytest.raises(ConformanceError, match="the game's own ply says 1, but the base class"):
        check_game(StartsAtPlyOne)
    with pytest.raises(ConformanceError, match=r"apply\(1\) gave ply 2 and history \(1,\)"):
        check_game(CountsPliesTwice)
