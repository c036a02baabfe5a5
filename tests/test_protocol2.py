"""Protocol 2 on games unlike tic-tac-toe: extra turns, margins, more than two players.

Each game here is written from scratch with the eight core members, and the oracle
that checks the searchers is a brute-force search written in this file over the
rules themselves (not over the framework's searchers or value scale).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import pytest

from gamesearch import Game, Player, Rules, default_registry
from gamesearch.errors import UnsupportedGameError
from gamesearch.rules import PLAYERS
from gamesearch.search.base import Limit
from gamesearch.testing import check_game

PILE = 9


class BonusPile(Game[int]):
    """One pile; a move takes 1 or 2 objects; taking 2 gives the mover another move.

    Whoever takes the last object wins, by 1 plus the objects the loser took (so the
    result has a margin, from 1 to ``PILE``).
    """

    name = "bonus-pile"
    player_names = ("A", "B")
    rules = Rules(max_plies=PILE, alternating=False, result_range=(-PILE, PILE))

    def __init__(self, **options: Any) -> None:
        self.left = PILE
        self.taken = [0, 0]
        self.movers: list[int] = []  # who made each move (to take it back)

    def to_move(self) -> Player:
        if not self.movers:
            return Player.FIRST
        last, count = self.movers[-1], self._history[-1]
        return PLAYERS[last if count == 2 else 1 - last]

    def legal_moves(self) -> Sequence[int]:
        return [take for take in (1, 2) if take <= self.left]

    def make_move(self, move: int) -> None:
        mover = self._mover_before_last()
        self.movers.append(mover)
        self.left -= move
        self.taken[mover] += move

    def _mover_before_last(self) -> int:
        # push() has put the move in the history already: whose turn was it before?
        if len(self.movers) == 0:
            return 0
        last, count = self.movers[-1], self._history[-2]
        return last if count == 2 else 1 - last

    def unmake_move(self, move: int) -> None:
        mover = self.movers.pop()
        self.left += move
        self.taken[mover] -= move

    def result(self) -> int | None:
        if self.left:
            return None
        winner = self.movers[-1]
        margin = 1 + self.taken[1 - winner]
        return margin if winner == 0 else -margin

    def key(self) -> tuple[Any, ...]:
        last = self.movers[-1] if self.movers else None  # who moved last decides a finished game
        return (self.left, self.to_move(), last, tuple(self.taken), len(self._history))


@functools.cache
def oracle(left: int, mover: int, taken: tuple[int, int], ply: int) -> tuple[int, int]:
    """Return ``(result, end ply)`` of perfect play, by the same preferences: a larger
    margin first, then the faster win or the slower loss. Written over the rules alone."""
    outcomes = [oracle_after(left, mover, taken, ply, take) for take in (1, 2) if take <= left]

    def goodness(outcome: tuple[int, int]) -> tuple[int, int]:
        result, end = outcome
        mine = result if mover == 0 else -result
        return (mine, -end if mine > 0 else end)

    return max(outcomes, key=goodness)


def oracle_after(
    left: int, mover: int, taken: tuple[int, int], ply: int, take: int
) -> tuple[int, int]:
    now = list(taken)
    now[mover] += take
    if left == take:
        margin = 1 + now[1 - mover]
        return (margin if mover == 0 else -margin, ply + 1)
    following = mover if take == 2 else 1 - mover
    return oracle(left - take, following, (now[0], now[1]), ply + 1)


def reachable(game: BonusPile) -> list[BonusPile]:
    found, seen = [], set()

    def walk() -> None:
        if game.key() in seen:
            return
        seen.add(game.key())
        found.append(game.copy())
        for move in game.legal_moves():
            game.push(move)
            walk()
            game.undo()

    walk()
    return found


EXACT = [
    "minimax",
    "alphabeta",
    "alphabeta:table=on",
    "alphabeta:ordering=natural,root_window=fresh",
    "iterative",
    "pvs",
    "mtdf",
    "solver",
    "textbook",
    "textbook-alphabeta",
]


def test_the_bonus_pile_passes_the_conformance_kit() -> None:
    report = check_game(BonusPile)
    assert report.is_exhaustive and report.terminal > 0


@pytest.mark.parametrize("spec", EXACT)
def test_every_exact_searcher_gets_the_margin_and_best_moves_of_a_game_with_extra_turns(
    spec: str,
) -> None:
    from gamesearch.search.textbook import TextbookAlphaBeta, TextbookMinimax

    registry = default_registry()
    textbook = {"textbook": TextbookMinimax(), "textbook-alphabeta": TextbookAlphaBeta()}
    searcher = textbook[spec] if spec in textbook else registry.new_searcher(spec)
    checked = 0
    for position in reachable(BonusPile()):
        if position.result() is not None:
            continue
        taken = (position.taken[0], position.taken[1])
        expected = oracle(position.left, position.to_move(), taken, position.ply)
        found = searcher.search(position)
        scale = position.rules.scale
        assert (scale.margin(found.value), scale.end_ply(found.value)) == expected, position.key()
        best = {
            move
            for move in position.legal_moves()
            if oracle_after(position.left, position.to_move(), taken, position.ply, move)
            == expected
        }
        if spec not in ("alphabeta:ordering=natural,root_window=fresh",):
            assert set(found.best_moves) <= best and found.move in best
        assert found.is_exact
        checked += 1
    assert checked > 30


def test_the_margin_is_said_in_words_and_in_the_json() -> None:
    game = BonusPile()
    result = default_registry().new_searcher("solver").search(game)
    margin, end = oracle(PILE, 0, (0, 0), 0)
    assert result.as_dict(game)["margin"] == margin
    words = game.rules.scale
    assert words.margin(result.value) == margin


class ThreeInARow(Game[int]):
    """A three-player game: each player in turn takes 1 or 2; the one who takes the last wins."""

    name = "three-players"
    rules = Rules(max_plies=6, players=3, result_range=(0, 1), utilities=True, constant_sum=1)

    def __init__(self, **options: Any) -> None:
        self.left = 6

    def to_move(self) -> int:
        return len(self._history) % 3

    def legal_moves(self) -> Sequence[int]:
        return [take for take in (1, 2) if take <= self.left]

    def make_move(self, move: int) -> None:
        self.left -= move

    def unmake_move(self, move: int) -> None:
        self.left += move

    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        if self.left:
            return None
        winner = (len(self._history) - 1) % 3
        return tuple(int(player == winner) for player in range(3))

    def key(self) -> tuple[int, int]:
        return (self.left, len(self._history))


@pytest.mark.parametrize("spec", ["minimax", "alphabeta", "iterative", "pvs", "mtdf", "solver"])
def test_every_two_player_searcher_refuses_a_three_player_game_at_once_naming_what_is_missing(
    spec: str,
) -> None:
    game = ThreeInARow()
    with pytest.raises(
        UnsupportedGameError,
        match=rf"searcher '{spec}' cannot search 'three-players': it needs two players, and this "
        r"game has 3",
    ):
        default_registry().new_searcher(spec).search(game)
    assert game.history == () and game.left == 6


def test_a_limit_passed_to_search_replaces_the_searchers_own() -> None:
    registry = default_registry()
    game = registry.new_game("connect4")
    shallow = registry.new_searcher("alphabeta").search(game, Limit(depth=2))
    assert shallow.stats.depth == 2 and not shallow.is_exact
    assert registry.new_searcher("iterative").search(game, Limit(depth=3)).stats.depth == 3
    assert registry.new_searcher("mcts").search(game, Limit(simulations=50)).stats.leaves == 50


def test_a_seeded_searcher_gives_the_same_move_call_after_call() -> None:
    registry = default_registry()
    game = registry.new_game("tictactoe")
    searcher = registry.new_searcher("alphabeta:seed=3")
    assert len({searcher.search(game).move for _ in range(8)}) == 1


@pytest.mark.parametrize("spec", ["alphabeta:table=on", "iterative"])
def test_a_kept_table_never_makes_a_horizon_value_exact(spec: str) -> None:
    """A search of a later position that finds only table entries left by a deeper
    earlier search (whose subtrees met a horizon) must not call its value exact."""
    from gamesearch.search.table import SearchMemory

    registry = default_registry()
    searcher = registry.new_searcher(spec)
    for text in ("4453", "443", "44444", "1234567"):
        earlier = registry.new_game("connect4", text)
        memory = SearchMemory()
        searcher.search(earlier, Limit(depth=4), memory=memory)
        for move in earlier.legal_moves():
            later = earlier.copy()
            later.push(move)
            if later.result() is not None:
                continue
            kept = searcher.search(later, Limit(depth=3), memory=memory)
            fresh = searcher.search(later, Limit(depth=3))
            assert kept.is_exact == fresh.is_exact, (text, move)
            if fresh.is_exact:
                assert kept.value == fresh.value
            assert (kept.value, kept.best_moves) == (
                fresh.value,
                fresh.best_moves,
            ) or not fresh.is_exact


class LongCorridor(Game[int]):
    """A game of 3,000 forced plies (one legal move each time): deeper than Python recurses."""

    name = "corridor"
    rules = Rules(max_plies=3000, alternating=True)

    def __init__(self, **options: Any) -> None:
        self.steps = 0

    def to_move(self) -> Player:
        return PLAYERS[self.steps % 2]

    def legal_moves(self) -> Sequence[int]:
        return () if self.steps == 3000 else (0,)

    def make_move(self, move: int) -> None:
        self.steps += 1

    def unmake_move(self, move: int) -> None:
        self.steps -= 1

    def result(self) -> int | None:
        return 1 if self.steps == 3000 else None

    def key(self) -> int:
        return self.steps


@pytest.mark.parametrize("spec", ["minimax", "alphabeta", "pvs", "solver"])
def test_a_game_deeper_than_the_recursion_limit_gets_a_clear_error_and_is_left_whole(
    spec: str,
) -> None:
    from gamesearch.errors import SearchTooDeepError

    game = LongCorridor()
    with pytest.raises(
        SearchTooDeepError,
        match=rf"searcher '{spec}' went deeper than Python's recursion limit \(.* frames\) in "
        r"'corridor'; give it a depth limit",
    ):
        default_registry().new_searcher(spec).search(game)
    assert game.steps == 0 and game.history == ()
    assert default_registry().new_searcher(spec).search(game, Limit(depth=10)).move == 0


@pytest.mark.slow
def test_the_textbook_searchers_agree_with_the_fast_cores_on_every_tictactoe_position() -> None:
    from gamesearch import AlphaBeta, Minimax
    from gamesearch.search.textbook import TextbookAlphaBeta, TextbookMinimax
    from gamesearch.testing import reachable_positions

    positions = [
        p for p in reachable_positions(default_registry().new_game("tictactoe")) if not p.is_over()
    ]
    for position in positions[::9]:
        fast, slow = (
            Minimax().search(position, move_values=True),
            TextbookMinimax().search(position, move_values=True),
        )
        assert (slow.value, slow.best_moves, slow.move_values, slow.stats.nodes) == (
            fast.value,
            fast.best_moves,
            fast.move_values,
            fast.stats.nodes,
        )
        pruned = TextbookAlphaBeta().search(position)
        assert (pruned.value, pruned.best_moves) == (
            AlphaBeta().search(position).value,
            fast.best_moves,
        )


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: default_registry().searcher_class("alphabeta").configured({"all_best": 5}),
            r"option 'all_best' must be true or false: 5",
        ),
        (
            lambda: default_registry().new_game("tictactoe", rows=3.7),
            r"option 'rows' must be an integer: 3.7",
        ),
        (
            lambda: default_registry().new_game("tictactoe", rows=True),
            r"option 'rows' must be an integer: True",
        ),
        (
            lambda: default_registry().new_searcher("alphabeta", table_entries=0),
            r"'table_entries' must be >= 1: 0",
        ),
        (
            lambda: (
                default_registry()
                .searcher_class("iterative")
                .configured({"table_entries": float("nan")})
            ),
            r"option 'table_entries' must be an integer: nan",
        ),
        (
            lambda: default_registry().searcher_class("alphabeta").configured({"depth": 2.5}),
            r"option 'depth' must be an integer or none: 2.5",
        ),
        (
            lambda: (
                default_registry()
                .searcher_class("iterative")
                .configured({"max_nodes": float("nan")})
            ),
            r"option 'max_nodes' must be an integer or none: nan",
        ),
        (lambda: Limit(seconds=float("inf")), r"'seconds' must be a finite number or none: inf"),
        (lambda: Limit(max_nodes=0), r"'max_nodes' must be >= 1: 0"),
    ],
)
def test_every_option_is_parsed_strictly_with_one_message_format(build: Any, message: str) -> None:
    from gamesearch.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError, match=message):
        build()
