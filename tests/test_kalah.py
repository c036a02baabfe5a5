"""Kalah: sowing, extra moves, captures, the end, the text, bad input, and exact values
against an independent oracle.

The oracle below is this file's own: a plain re-implementation of the rules that sows
round an explicit list of the slots a player's seeds pass through, solved by the memoised
minimax of ``exhaustive.py`` (which knows no game). It reads positions from their text and
shares no code with ``games/kalah.py`` or with the framework's searchers.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import cast

import pytest
from exhaustive import EVERY_POSITION, EXACT_SEARCHERS, Oracle, search_answer, searcher_id
from hypothesis import given, settings
from hypothesis import strategies as st

import gamesearch_games.kalah
from gamesearch import AlphaBeta, Minimax, Scoring, Searcher
from gamesearch.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from gamesearch.plugins import build_registry, make_plugin_manager
from gamesearch.search.mcts import MonteCarlo
from gamesearch.search.negamax import PrincipalVariationSearch
from gamesearch.search.nullwindow import Solver
from gamesearch.solutions import Solution, SolutionStore, solve_game, stored_solution
from gamesearch.testing import check_game
from gamesearch_games.kalah import Kalah

#: the size enumerated whole, its reachable positions (the start and the finished ones
#: included), and its value: South wins by 4 seeds in 8 plies
SMALL = {"pits": 3, "seeds": 2}
SMALL_POSITIONS = 3_426
#: the same with the empty capture
SMALL_EMPTY_CAPTURE_POSITIONS = 2_442

Board = tuple[int, ...]  # South's houses, South's store, North's houses, North's store
State = tuple[Board, int]  # the board, the side to move (0 South, 1 North)


class KalahOracle(Oracle[State]):
    """The rules of Kalah, written plainly (solved by the shared minimax)."""

    def __init__(self, pits: int, seeds: int, empty_capture: bool = False) -> None:
        super().__init__()
        self.pits, self.seeds, self.empty_capture = pits, seeds, empty_capture

    def start(self) -> State:
        row = (self.seeds,) * self.pits
        return row + (0,) + row + (0,), 0

    def final_result(self, state: State) -> int:
        return state[0][self.store(0)] - state[0][self.store(1)]

    def first_to_move(self, state: State) -> bool:
        return state[1] == 0

    def houses(self, side: int) -> range:
        return range(0, self.pits) if side == 0 else range(self.pits + 1, 2 * self.pits + 1)

    def store(self, side: int) -> int:
        return self.pits if side == 0 else 2 * self.pits + 1

    def parse(self, text: str) -> State:
        fields, side, *_ = text.split()  # the ply, if given, is no part of the oracle's state
        south, south_store, north, north_store = fields.split("/")
        board = [
            *map(int, south.split(",")),
            int(south_store),
            *map(int, north.split(",")),
            int(north_store),
        ]
        return tuple(board), "SN".index(side)

    def text(self, state: State) -> str:
        board, side = state
        south = ",".join(str(board[slot]) for slot in self.houses(0))
        north = ",".join(str(board[slot]) for slot in self.houses(1))
        return f"{south}/{board[self.store(0)]}/{north}/{board[self.store(1)]} {'SN'[side]}"

    def is_over(self, board: Board) -> bool:
        return not any(board[slot] for slot in self.houses(0))

    def sow(self, state: State, house: int) -> State:
        """Return the state after the player to move sows their house ``house`` (0 = house 1)."""
        board, side = list(state[0]), state[1]
        ring = [slot for slot in range(len(board)) if slot != self.store(1 - side)]
        at = ring.index(self.houses(side)[house])
        seeds, board[ring[at]] = board[ring[at]], 0
        for _ in range(seeds):
            at = (at + 1) % len(ring)
            board[ring[at]] += 1
        last, after = ring[at], 1 - side
        if last == self.store(side):
            after = side
        elif last in self.houses(side) and board[last] == 1:
            opposite = 2 * self.pits - last
            if board[opposite] or self.empty_capture:
                board[self.store(side)] += board[opposite] + 1
                board[opposite] = board[last] = 0
        if not all(any(board[slot] for slot in self.houses(player)) for player in (0, 1)):
            for player in (0, 1):
                for slot in self.houses(player):
                    board[self.store(player)] += board[slot]
                    board[slot] = 0
        return tuple(board), after

    def _children(self, state: State) -> list[tuple[str, State]]:
        """Return (move text, next state) for every legal move; [] once the game is over."""
        if self.is_over(state[0]):
            return []
        board, side = state
        return [
            (str(house + 1), self.sow(state, house))
            for house, slot in enumerate(self.houses(side))
            if board[slot]
        ]


@functools.cache
def oracle(pits: int, seeds: int, empty_capture: bool = False) -> KalahOracle:
    return KalahOracle(pits, seeds, empty_capture)


def random_game(pits: int, seeds: int, plies: int, rng: random.Random) -> Kalah:
    game = Kalah.new(pits=pits, seeds=seeds)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(list(moves)))
    return game


def board_and_side(game: Kalah) -> str:
    """Return the position's text without its ply (the oracle's states have none)."""
    return game.to_text().rsplit(" ", 1)[0]


def after(text: str, move: str, **options: object) -> Kalah:
    game = Kalah.from_text(text, **options)
    game.play(move)
    return game


# --------------------------------------------------------------------- the start
def test_the_start_fills_every_house_and_south_moves_first() -> None:
    game = Kalah.new()
    assert game.to_text() == "4,4,4,4,4,4/0/4,4,4,4,4,4/0 S 0"
    assert game.to_move() == 0
    assert [game.format_move(move) for move in game.legal_moves()] == ["1", "2", "3", "4", "5", "6"]
    assert game.result() is None
    assert game.stores() == (0, 0)


def test_the_rules_are_declared_from_the_options() -> None:
    rules = Kalah.new(pits=3, seeds=2).rules
    assert rules.alternating is False
    assert rules.result_range == (-12, 12)
    assert rules.max_plies == 3 * 12 * 13 // 2 + 12
    assert (rules.players, rules.chance) == (2, False)
    assert Kalah.new().rules.result_range == (-48, 48)


# --------------------------------------------------------------------- the rules
def test_sowing_wraps_round_and_skips_the_opponents_store() -> None:
    # South's house 1 holds 9 seeds: houses 2, 3, the store, North's three houses, then
    # (North's store skipped) South's houses 1, 2, 3 again.
    game = after("9,1,1/0/2,2,3/0 S", "1")
    assert game.to_text() == "1,3,3/1/3,3,4/0 N 1"


def test_north_sows_past_souths_store_and_captures_on_its_own_side() -> None:
    # North's house 3 holds 5 seeds: North's store, South's three houses, (South's store
    # skipped) North's empty house 1, which captures South's house 3 opposite.
    game = after("2,2,2/0/0,3,5/4 N", "3")
    assert game.to_text() == "3,3,0/0/0,3,0/9 S 1"


def test_the_last_seed_in_ones_own_store_gives_another_move() -> None:
    game = after("4,4,4,4,4,4/0/4,4,4,4,4,4/0 S", "3")
    assert game.to_text() == "4,4,0,5,5,5/1/4,4,4,4,4,4/0 S 1"
    assert game.to_move() == 0
    game.play("6")
    assert game.to_text() == "4,4,0,5,5,0/2/5,5,5,5,4,4/0 N 2"
    game.undo()
    game.undo()
    assert game.to_text() == Kalah.new().to_text()


def test_the_last_seed_in_an_empty_house_captures_the_seeds_opposite() -> None:
    game = after("1,0,3/2/3,2,1/0 S", "1")
    assert game.to_text() == "0,0,3/5/3,0,1/0 N 1"


def test_the_last_seed_in_an_empty_house_opposite_an_empty_one_stays() -> None:
    game = after("1,0,3/2/4,0,1/1 S", "1")
    assert game.to_text() == "0,1,3/2/4,0,1/1 N 1"


def test_with_the_empty_capture_that_seed_goes_to_the_store_alone() -> None:
    # South's house 1 sows its seed into house 2, empty, opposite North's house 2, empty.
    game = after("1,0,3/2/4,0,1/1 S", "1", empty_capture=True)
    assert game.to_text() == "0,0,3/3/4,0,1/1 N 1"
    assert game.settings["empty_capture"] is True
    # a capture that empties South's row ends the game: North stores its own seeds
    assert after("1,0,0/3/3,0,3/2 S", "1").to_text() == "0,1,0/3/3,0,3/2 N 1"
    game = after("1,0,0/3/3,0,3/2 S", "1", empty_capture=True)
    assert game.to_text() == "0,0,0/4/0,0,0/8 N 1" and game.result() == -4
    # seeds opposite are taken as without the option
    game = after("1,0,3/2/3,2,1/0 S", "1", empty_capture=True)
    assert game.to_text() == "0,0,3/5/3,0,1/0 N 1"


def test_a_full_lap_ending_in_the_emptied_house_captures() -> None:
    # 7 seeds from South's house 1 come back to it, empty since the seeds were taken.
    game = after("7,1,1/0/1,1,2/5 S", "1")
    assert game.to_text() == "0,2,2/5/2,2,0/5 N 1"


def test_the_game_ends_when_the_mover_empties_their_side_and_the_other_side_stores_its_seeds() -> (
    None
):
    game = after("0,0,1/4/1,2,4/0 S", "3")
    assert game.to_text() == "0,0,0/5/0,0,0/7 S 1"
    assert tuple(game.legal_moves()) == ()
    assert game.result() == -2
    game.undo()
    assert game.to_text() == "0,0,1/4/1,2,4/0 S 0"
    assert game.result() is None


def test_the_game_ends_when_a_capture_empties_the_other_side_and_the_mover_stores_theirs() -> None:
    game = after("1,0,2/3/0,2,0/4 S", "1")
    assert game.to_text() == "0,0,0/8/0,0,0/4 N 1"
    assert game.result() == 4


@pytest.mark.parametrize(
    ("empty_capture", "positions"),
    [(False, SMALL_POSITIONS), (True, SMALL_EMPTY_CAPTURE_POSITIONS)],
    ids=["capture", "empty-capture"],
)
def test_every_reachable_position_of_the_small_size_has_the_oracles_moves_and_children(
    empty_capture: bool, positions: int
) -> None:
    rules, count = oracle(**SMALL, empty_capture=empty_capture), 0
    for state in rules.reachable():
        text = rules.text(state)
        game = Kalah.from_text(text, empty_capture=empty_capture)
        children = dict(rules.children(state))
        moves = game.legal_moves()
        assert [game.format_move(move) for move in moves] == list(children), text
        board = state[0]
        assert game.result() == (None if children else board[3] - board[7]), text
        for move in moves:
            game.push(move)
            assert board_and_side(game) == rules.text(children[game.format_move(move)]), text
            assert game.ply == 1
            game.undo()
        assert game.to_text() == text + " 0"
        count += 1
    assert count == positions


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 7), st.integers(1, 6), st.randoms(use_true_random=False))
def test_random_games_of_other_sizes_follow_the_oracles_rules(
    pits: int, seeds: int, rng: random.Random
) -> None:
    rules, game = oracle(pits, seeds), Kalah.new(pits=pits, seeds=seeds)
    state = rules.parse(game.to_text())
    while True:
        children = dict(rules.children(state))
        moves = list(game.legal_moves())
        assert [game.format_move(move) for move in moves] == list(children)
        if not moves:
            break
        assert game.ply < game.rules.max_plies
        move = rng.choice(moves)
        game.push(move)
        state = children[game.format_move(move)]
        assert board_and_side(game) == rules.text(state)
    board = state[0]
    assert game.result() == board[pits] - board[-1]
    assert sum(board) == 2 * pits * seeds
    while game.history:
        game.undo()
    assert game.to_text() == Kalah.new(pits=pits, seeds=seeds).to_text()


# ------------------------------------------------------------------------ text
@settings(max_examples=30, deadline=None)
@given(st.integers(1, 8), st.integers(1, 6), st.integers(0, 60), st.randoms(use_true_random=False))
def test_text_round_trips_keep_the_position_and_its_moves(
    pits: int, seeds: int, plies: int, rng: random.Random
) -> None:
    game = random_game(pits, seeds, plies, rng)
    again = Kalah.from_text(game.to_text())
    assert again.to_text() == game.to_text()
    assert again.settings == {"pits": pits, "seeds": seeds, "empty_capture": False}
    assert again.key() == game.key()
    assert list(again.legal_moves()) == list(game.legal_moves())
    assert again.result() == game.result()


def test_every_house_round_trips_through_move_text() -> None:
    game = Kalah.new(pits=6)
    assert [game.format_move(house) for house in range(6)] == ["1", "2", "3", "4", "5", "6"]
    assert [game.parse_move(text) for text in ("1", " 2 ", "6")] == [0, 1, 5]


def test_render_shows_norths_row_on_top_and_the_stores_at_the_ends() -> None:
    game = Kalah.from_text("1,2,3/4/5,6,7/8 N", pits=3, seeds=6)
    assert game.render() == "     7  6  5\n 8             4\n     1  2  3\nNorth to move"


def test_the_board_view_offers_the_movers_houses() -> None:
    game = Kalah.from_text("1,0,3/2/4,0,1/1 N")
    view = game.board_view()
    assert (view.rows, view.cols) == (2, 5)
    assert view.symbols == ("1", "1", "0", "4", "", "", "1", "0", "3", "2")
    assert view.moves == (None, "3", None, "1", None, None, None, None, None, None)
    south = Kalah.from_text("1,0,3/2/4,0,1/1 S").board_view()
    assert south.moves == (None, None, None, None, None, None, "1", None, "3", None)


def test_copies_are_independent_and_keep_the_history() -> None:
    game = Kalah.new(pits=3, seeds=2)
    game.play("1")
    twin = game.copy()
    twin.play(twin.format_move(twin.legal_moves()[0]))
    assert game.history == (0,) and len(twin.history) == 2
    twin.undo()
    twin.undo()
    assert twin.to_text() == Kalah.new(pits=3, seeds=2).to_text()


def test_moves_that_earn_another_move_come_first() -> None:
    game = Kalah.new()
    assert [game.format_move(move) for move in game.ordered_moves()] == [
        "3",
        "6",
        "5",
        "4",
        "2",
        "1",
    ]


def test_the_heuristic_favours_the_side_with_more_seeds_stored() -> None:
    assert Kalah.new().evaluate() == 0
    assert 0 < after("4,4,4,4,4,4/0/4,4,4,4,4,4/0 S", "3").evaluate() < Kalah.evaluation_bound


# ------------------------------------------------------------ the plugin and the kit
def test_the_plugin_hook_registers_the_game() -> None:
    registry = build_registry(
        make_plugin_manager(plugins=[gamesearch_games.kalah], entry_points=False)
    )
    assert registry.games["kalah"] is Kalah


@pytest.mark.parametrize(
    ("options", "positions"),
    [
        ({"pits": 3, "seeds": 2}, 2000),
        ({"pits": 3, "seeds": 2, "empty_capture": True}, 2000),
        ({"pits": 1, "seeds": 3}, 2000),
        ({}, 300),
    ],
)
def test_the_game_keeps_every_promise_of_the_protocol(
    options: dict[str, object], positions: int
) -> None:
    report = check_game(Kalah, options=options, max_positions=positions, playouts=10)
    assert report.is_exhaustive or report.positions >= positions


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4,4,4/0/4,4,4/0", r"must be South's houses/store/North's houses/store, the side to move"),
        ("4,4,4/0/4,4,4/0 X", r"the side to move \('S' or 'N'\) and the ply"),
        ("4,4,4/0/4,4,4/0 S 1 2", r"must be South's houses"),
        ("4,4,4/0/4,4,4/0 S x", r"has a count that is not a whole number"),
        ("4,4,4/0/4,4,4/0 S -1", r"has a negative count"),
        ("4,4,4/0/4,4,4/0 S 2000", r"has ply 2000; no game lasts more than 924"),
        ("4,4,4/0/4,4,4 S", r"must be South's houses"),
        ("4,4,x/0/4,4,4/0 S", r"has a count that is not a whole number"),
        ("4,4/0/4,4,4/0 S", r"gives South 2 houses and North 3"),
        ("4,4,-1/1/4,4,4/0 S", r"has a negative count"),
        (
            "4,4,4/0/4,4,4/1 S",
            r"holds 25 seeds; a game of 3 pits starts with 6 times the seeds of a house",
        ),
        ("0,0,0/0/0,0,0/0 S", r"holds 0 seeds"),
        ("0,0,0/6/3,2,1/0 N", r"has one side's houses empty; the game would be over"),
    ],
)
def test_bad_positions_are_refused_with_the_problem_named(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Kalah.from_text(text)


def test_a_position_that_disagrees_with_the_options_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match=r"has 3 houses a side, not 4"):
        Kalah.from_text("2,2,2/0/2,2,2/0 S", pits=4)
    with pytest.raises(
        InvalidPositionError, match=r"holds 12 seeds; a game of 3 pits starts with 6 times"
    ):
        Kalah.from_text("2,2,2/0/2,2,2/0 S", seeds=3)


def test_a_position_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match=r"must be text, not list: \[\]"):
        Kalah.from_text([])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", r"move 'x' is not a house number; use 1 to 6"),
        ("", r"move '' is not a house number"),
        ("0", r"house '0' is not on the board; use 1 to 6"),
        ("7", r"house '7' is not on the board"),
    ],
)
def test_bad_move_text_is_refused_with_the_text_named(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Kalah.new().parse_move(text)


@pytest.mark.parametrize(
    ("options", "name"),
    [({"pits": 0}, "pits"), ({"seeds": 0}, "seeds"), ({"seeds": "many"}, "seeds")],
)
def test_bad_options_are_refused(options: dict[str, object], name: str) -> None:
    value = repr(next(iter(options.values())))
    with pytest.raises(InvalidOptionError, match=f"option '{name}' must be .*: {value}"):
        Kalah.new(**options)
    with pytest.raises(InvalidOptionError, match=f"option '{name}' must be .*: {value}"):
        Kalah(**options)  # type: ignore[arg-type]


# ------------------------------------------------------------ the exact values
def test_kalah_with_3_pits_of_2_seeds_is_a_south_win_by_4_seeds() -> None:
    """South, the first player, wins Kalah with 3 houses of 2 seeds a side by 4 seeds,
    in 8 plies with best play."""
    start = oracle(**SMALL).parse(Kalah.new(**SMALL).to_text())
    assert oracle(**SMALL).solve(start) == (4, 8)


def test_the_future_key_is_one_per_board_and_side_to_move_whatever_the_ply() -> None:
    """The oracle's states are a board and a side to move, no ply: each has one future key,
    the same at any ply, and no two states share one."""
    rules, owners = oracle(**SMALL), {}
    for state in rules.reachable():
        text = rules.text(state)
        key = Kalah.from_text(text).future_key()
        assert Kalah.from_text(f"{text} 17").future_key() == key, text
        assert owners.setdefault(key, text) == text
    assert len(owners) == SMALL_POSITIONS


@pytest.mark.parametrize(
    ("empty_capture", "positions"),
    [(False, SMALL_POSITIONS), (True, SMALL_EMPTY_CAPTURE_POSITIONS)],
    ids=["capture", "empty-capture"],
)
def test_a_store_holds_the_oracles_result_and_distance_for_every_board_at_any_ply(
    tmp_path: Path, empty_capture: bool, positions: int
) -> None:
    game = Kalah.new(**SMALL, empty_capture=empty_capture)
    rules = oracle(**SMALL, empty_capture=empty_capture)
    with SolutionStore(tmp_path / "kalah.sqlite", game) as store:
        assert solve_game(game, store).positions == positions
        for state in rules.reachable():
            for ply in (0, 9):
                position = Kalah.from_text(
                    f"{rules.text(state)} {ply}", empty_capture=empty_capture
                )
                assert stored_solution(position, store) == Solution(*rules.solve(state))


# ------------------------------------------------- the searchers against the oracle
def oracle_answer(rules: KalahOracle, game: Kalah, scoring: Scoring) -> tuple[int, int, set[str]]:
    """Return the oracle's value of ``game`` (on the framework's documented scale), the
    seed margin, and the best moves."""
    return rules.answer(rules.parse(game.to_text()), game, scoring)


@functools.cache
def small_positions() -> list[str]:
    """Return the text of every unfinished reachable position of the small size."""
    rules = oracle(**SMALL)
    return sorted(rules.text(state) for state in rules.reachable() if rules.children(state))


#: the searchers outside ``EVERY_POSITION`` check one small position in this many (852 of
#: 3,406), each searched from an empty memory as every one is
SPARSER_STEP = 4


def test_the_searchers_that_check_every_position_are_exact_searchers_of_each_family() -> None:
    assert all(searcher in EXACT_SEARCHERS for searcher in EVERY_POSITION)
    assert {type(searcher) for searcher in EVERY_POSITION} == {
        AlphaBeta,
        PrincipalVariationSearch,
        Solver,
    }


@pytest.mark.slow
@pytest.mark.parametrize("searcher", EXACT_SEARCHERS, ids=searcher_id)
def test_every_exact_searcher_finds_the_oracles_value_margin_and_best_moves_everywhere(
    searcher: Searcher,
) -> None:
    """Every small position for the searchers of ``EVERY_POSITION``, one in
    ``SPARSER_STEP`` for the others."""
    rules = oracle(**SMALL)
    step = 1 if searcher in EVERY_POSITION else SPARSER_STEP
    for text in small_positions()[::step]:
        game = Kalah.from_text(text)
        assert search_answer(searcher, game) == oracle_answer(rules, game, Scoring.DISTANCE), (
            searcher_id(searcher),
            text,
        )


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
    rules = oracle(**SMALL)
    for text in small_positions()[::7]:
        game = Kalah.from_text(text)
        assert search_answer(searcher, game) == oracle_answer(rules, game, Scoring.PLAIN), text


@st.composite
def late_positions(draw: st.DrawFn) -> Kalah:
    """Return an unfinished position of a larger size, played until few seeds are left
    in the houses (so that the oracle can solve it)."""
    pits, seeds = draw(st.sampled_from([(3, 3), (4, 2), (4, 3), (6, 4)]))
    game = Kalah.new(pits=pits, seeds=seeds)
    left = draw(st.integers(4, 9))
    while game.legal_moves() and sum(game.board()) - sum(game.stores()) > left:
        game.push(draw(st.sampled_from(list(game.legal_moves()))))
    return game


@settings(max_examples=40, deadline=None)
@given(late_positions(), st.sampled_from(EXACT_SEARCHERS))
def test_every_exact_searcher_finds_the_oracles_value_on_late_positions_of_larger_sizes(
    game: Kalah, searcher: Searcher
) -> None:
    if game.legal_moves():
        rules = oracle(game.pits, game.seeds)
        assert search_answer(searcher, game) == oracle_answer(rules, game, Scoring.DISTANCE), (
            game.to_text()
        )


@settings(max_examples=15, deadline=None)
@given(late_positions())
def test_mcts_solver_proves_the_oracles_value_on_late_positions(game: Kalah) -> None:
    if game.legal_moves():
        value, margin, best = oracle_answer(oracle(game.pits, game.seeds), game, Scoring.DISTANCE)
        answer = MonteCarlo(simulations=20_000, seed=1).search(game)
        assert answer.is_exact
        assert (answer.value, answer.margin) == (value, margin)
        assert answer.move is not None and game.format_move(cast(int, answer.move)) in best


def test_mcts_solver_proves_the_value_of_the_small_size_from_the_start() -> None:
    game = Kalah.new(**SMALL)
    answer = MonteCarlo(simulations=5000, seed=1).search(game)
    assert answer.is_exact
    assert oracle_answer(oracle(**SMALL), game, Scoring.DISTANCE)[:2] == (answer.value, 4)
