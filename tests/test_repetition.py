"""Repetition draws: the declaration, the kit's check of it, the searchers' line rule and
their tables, on a small game with cycles whose every position is searched to the end.

The chess positions (a perpetual check, a side ahead that must avoid a threefold
repetition) are in ``tests/test_repetition_chess.py``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from gamesearch import Game, Rules, default_registry
from gamesearch.capabilities import Repetition, offered
from gamesearch.errors import ConformanceError
from gamesearch.rules import PLAYERS, Player, proven_value
from gamesearch.search.base import Searcher
from gamesearch.search.reference.alphabeta import ReferenceAlphaBeta
from gamesearch.search.repetition import watch_line
from gamesearch.search.table import SearchMemory
from gamesearch.testing import check_game

REGISTRY = default_registry()

#: the rooms of a small house and the doors out of each: the players take turns to walk
#: the one token through a door; walking into WON wins for the walker's side, into LOST
#: loses for it; the house has cycles, so only the repetition rule ends some games
DOORS: dict[str, tuple[str, ...]] = {
    "hall": ("kitchen", "stairs"),
    "kitchen": ("hall", "cellar", "stairs"),
    "stairs": ("hall", "attic"),
    "cellar": ("kitchen", "won"),
    "attic": ("stairs", "lost", "kitchen"),
    "won": (),
    "lost": (),
}
ROOMS = tuple(DOORS)
#: another house, whose values depend on the path more often: from the hall the first
#: player wins at once, and some rooms are won or lost by the repetitions before them
CROSSED_DOORS: dict[str, tuple[str, ...]] = {
    "hall": ("stairs", "won", "kitchen"),
    "kitchen": ("hall", "attic"),
    "cellar": ("hall", "attic"),
    "stairs": ("cellar", "hall"),
    "attic": ("won", "kitchen", "hall"),
    "won": (),
    "lost": (),
}
#: the draw on the third occurrence of a room with the same side to move
THREEFOLD = 3


class House(Game[str], Repetition):
    """The token game on :data:`DOORS`; a room occurring three times with the same side
    to move draws the game."""

    name = "house"
    repetitions = THREEFOLD
    doors = DOORS
    #: each room with each side to move occurs at most twice before the third ends it
    rules = Rules(max_plies=2 * 2 * len(ROOMS), alternating=True)

    def __init__(self, start: str = "hall", **options: Any) -> None:
        self.room = start
        self.start = start
        self.seen = {(start, 0): 1}  # (room, side to move) -> occurrences in the game

    def to_move(self) -> Player:
        return PLAYERS[len(self._history) % 2]

    def legal_moves(self) -> Sequence[str]:
        return () if self.result() is not None else self.doors[self.room]

    def make_move(self, move: str) -> None:
        self.room = move
        here = self.repetition_key()
        self.seen[here] = self.seen.get(here, 0) + 1

    def unmake_move(self, move: str) -> None:
        here = self.repetition_key()
        self.seen[here] -= 1
        self.room = self._history[-2] if len(self._history) > 1 else self.start

    def result(self) -> int | None:
        if self.room in ("won", "lost"):
            walker_sign = 1 if len(self._history) % 2 else -1  # the first player walked last
            return walker_sign if self.room == "won" else -walker_sign
        if self.seen[self.repetition_key()] >= THREEFOLD:
            return 0
        return None

    def key(self) -> Hashable:
        return (self.room, len(self._history))

    def repetition_key(self) -> Hashable:
        return (self.room, len(self._history) % 2)

    def copy(self) -> House:
        twin = type(self)(self.start)
        for move in self._history:
            twin.push(move)
        return twin


class CrossedHouse(House):
    """The token game on :data:`CROSSED_DOORS`."""

    name = "crossed-house"
    doors = CROSSED_DOORS


class ForgetfulHouse(House):
    """A house whose result forgets the repetition rule it declares."""

    name = "forgetful-house"

    def result(self) -> int | None:
        if self.room in ("won", "lost"):
            return super().result()
        return None


def rule_value(game: Game[Any]) -> int:
    """Return the value of ``game`` under its own rules, by trying every line to its end:
    the oracle, which knows no line rule and no table."""
    if game.result() is not None:
        return proven_value(game)
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(rule_value(game))
        game.undo()
    return max(values) if game.to_move() == 0 else min(values)


#: the exact searchers that apply the line rule, with and without their tables
LINE_SEARCHERS = [
    "alphabeta",
    "alphabeta:table=true",
    "alphabeta:ordering=natural,root_window=fresh",
    "engine",
    "engine:table=true",
    "engine:iterative=true,killers=true,history=true,table=true",
    "reference-alphabeta",
]


def searcher(spec: str) -> Searcher:
    """Return the searcher of ``spec``, the reference twin included (it is not registered)."""
    return ReferenceAlphaBeta() if spec == "reference-alphabeta" else REGISTRY.new_searcher(spec)


def test_the_house_declares_repetition_and_tic_tac_toe_does_not() -> None:
    assert offered(House, Repetition)
    assert not offered(REGISTRY.game_class("tictactoe"), Repetition)


def test_a_game_without_repetition_draws_gets_no_watch_and_keeps_its_own_moves() -> None:
    game = REGISTRY.new_game("tictactoe")
    assert watch_line(game, game.push, lambda move: None) is None
    assert watch_line(House(), House().push, lambda move: None) is not None


def test_the_house_ends_on_the_third_occurrence_of_a_room() -> None:
    game = House()
    for move in ("kitchen", "hall", "kitchen"):
        game.apply(move)
    assert game.result() is None  # the hall with the first to move: twice so far
    game.apply("hall")
    assert game.result() == 0 and game.legal_moves() == ()


@pytest.mark.parametrize("house", [House, CrossedHouse])
def test_the_kit_passes_the_houses_walking_every_position(house: type[House]) -> None:
    report = check_game(house(), max_positions=20_000)
    assert report.is_exhaustive and report.terminal > 0


def test_the_kit_catches_a_result_that_forgets_the_declared_repetitions() -> None:
    with pytest.raises(ConformanceError, match="occurred 3 times in the game, which draws it"):
        check_game(ForgetfulHouse(), max_positions=20_000)


@pytest.mark.slow
@pytest.mark.parametrize("spec", LINE_SEARCHERS)
@pytest.mark.parametrize("house", [House, CrossedHouse])
@pytest.mark.parametrize("start", [room for room in ROOMS if DOORS[room]])
def test_the_line_rule_gives_the_value_of_the_games_own_rule_from_every_room(
    spec: str, house: type[House], start: str
) -> None:
    game = house(start)
    expected = rule_value(game.copy())
    result = searcher(spec).search(game)
    assert result.value == expected
    assert result.is_exact


def test_the_engine_finds_the_draw_by_repetition_from_the_hall() -> None:
    # the first player cannot win from the hall; the second can only draw by going round
    game = House()
    assert rule_value(game.copy()) == 0
    for spec in ("alphabeta", "engine:table=true", "reference-alphabeta"):
        assert searcher(spec).search(game).value == 0


def positions_by_key(plies: int) -> list[list[House]]:
    """Return the unfinished positions of the crossed house up to ``plies`` deep that share
    a key (room and ply) with others of other repetitions, grouped by key (at most four
    repetition states each)."""
    found: dict[Hashable, dict[frozenset[Any], House]] = {}

    def walk(game: House, plies: int) -> None:
        if game.result() is None:
            states = found.setdefault(game.key(), {})
            states.setdefault(frozenset(game.seen.items()), game.copy())
        if plies:
            for move in game.legal_moves():
                game.push(move)
                walk(game, plies - 1)
                game.undo()

    walk(CrossedHouse(), plies)
    return [list(states.values())[:4] for states in found.values() if len(states) > 1]


@pytest.mark.slow
@pytest.mark.parametrize("spec", [spec for spec in LINE_SEARCHERS if "table" in spec])
def test_a_table_kept_across_searches_lets_no_value_of_one_path_into_another(spec: str) -> None:
    # Each position searched after another of the same key, with the other's table, must
    # get the value a fresh search gives: with the tables storing the values that rest
    # on a repetition, 12 of these 170 pairs got another value (each searcher).
    table_searcher = searcher(spec)
    groups = positions_by_key(7)
    assert sum(len(games) * (len(games) - 1) for games in groups) == 170
    for games in groups:
        for one in games:
            for other in games:
                if other is not one:
                    memory = SearchMemory()
                    table_searcher.search(one, memory=memory)
                    kept = table_searcher.search(other, memory=memory)
                    assert kept.value == table_searcher.search(other).value
