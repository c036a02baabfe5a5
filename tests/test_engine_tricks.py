"""The engine's tricks: exact without a depth whatever the switches, each a no-op where
the game lacks what it needs, and doing what it says with a depth.

The oracle is this file's own memoised minimax over the game's moves, results and turns
(it shares nothing with the framework's searchers).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest
from clirun import run_cli

from gamesearch import AlphaBeta, Game, IterativeDeepening, Player, Rules, Scoring, default_registry
from gamesearch.errors import BudgetExceededError, InvalidOptionError
from gamesearch.rules import PLAYERS
from gamesearch.search.engine import Engine
from gamesearch.testing import check_search, reachable_positions
from gamesearch_games.connect4 import ConnectFour
from gamesearch_games.othello import Othello
from gamesearch_games.tictactoe import TicTacToe

#: each trick alone, then every one at once (with the table)
TRICKS: list[dict[str, Any]] = [
    {"iterative": True},
    {"aspiration": 50},
    {"killers": True},
    {"history": True},
    {"null_move": 2},
    {"lmr": True},
    {"quiescence": True},
    {"extensions": True},
    {"iterative": True, "follow": "root", "table": True},
    {"iterative": True, "follow": "root", "history": True, "table": True},
    {
        "iterative": True,
        "aspiration": 50,
        "killers": True,
        "history": True,
        "null_move": 2,
        "lmr": True,
        "quiescence": True,
        "extensions": True,
        "table": True,
    },
]
TRICK_IDS = [",".join(f"{name}={value}" for name, value in options.items()) for options in TRICKS]
#: the tricks that only reorder moves: with a depth they keep plain alpha-beta's value
ORDERING_TRICKS: list[dict[str, Any]] = [
    {"iterative": True},
    {"aspiration": 1},
    {"aspiration": 50},
    {"killers": True},
    {"history": True},
    {"iterative": True, "aspiration": 3, "killers": True, "history": True},
    # only the last best move first: plain alpha-beta's loops, then the engine's core
    {"iterative": True, "follow": "root", "table": True},
    {"iterative": True, "follow": "root", "killers": True, "table": True},
]


# ------------------------------------------------------------------ the oracle
def minimax_values(game: Game[Any], scoring: Scoring = Scoring.DISTANCE) -> dict[Hashable, int]:
    """Return the exact value (first player's view; with distance scoring, fastest win
    first) of every position reachable from ``game``, by key: plain memoised minimax."""
    scale = game.rules.scale
    values: dict[Hashable, int] = {}

    def value() -> int:
        key = game.key()
        if key not in values:
            result = game.result()
            if result is not None:
                values[key] = scale.proven(result, game.ply, scoring)
            else:
                children = []
                for move in game.legal_moves():
                    game.push(move)
                    children.append(value())
                    game.undo()
                values[key] = max(children) if game.to_move() == 0 else min(children)
        return values[key]

    value()
    return values


def minimax_best(game: Game[Any], values: dict[Hashable, int]) -> set[Hashable]:
    """Return every move of ``game`` that keeps its minimax value."""
    best = set()
    for move in game.legal_moves():
        game.push(move)
        if values[game.key()] == values_of_parent(values, game):
            best.add(move)
        game.undo()
    return best


def values_of_parent(values: dict[Hashable, int], game: Game[Any]) -> int:
    move = game.undo()
    value = values[game.key()]
    game.push(move)
    return value


def assert_exact(engine: Engine, game: Game[Any], values: dict[Hashable, int]) -> None:
    before = (game.key(), game.history)
    result = engine.search(game)
    assert (game.key(), game.history) == before
    text = game.to_text()
    assert result.is_exact, text
    assert result.value == values[game.key()], text
    assert set(result.best_moves) == minimax_best(game, values), text


# ------------------------------------------------- exact: minimax's answers
@pytest.fixture(scope="module")
def tictactoe_unfinished() -> list[Game[Any]]:
    return [position for position in reachable_positions(TicTacToe()) if not position.is_over()]


@pytest.fixture(scope="module")
def tictactoe_values() -> dict[Hashable, int]:
    return minimax_values(TicTacToe())


@pytest.mark.slow
@pytest.mark.parametrize("options", TRICKS, ids=TRICK_IDS)
def test_without_a_depth_every_trick_gives_minimax_on_tictactoe_positions(
    options: dict[str, Any],
    tictactoe_unfinished: list[Game[Any]],
    tictactoe_values: dict[Hashable, int],
) -> None:
    engine = Engine(**options)
    assert len(tictactoe_unfinished) == 4_520
    # every trick at once on every position, each other on a seeded quarter of them
    positions = tictactoe_unfinished
    if options is not TRICKS[-1]:
        positions = random.Random(23).sample(positions, len(positions) // 4)
    for position in positions:
        assert_exact(engine, position, tictactoe_values)


@functools.cache
def connect4_endgames() -> list[ConnectFour]:
    """Three unfinished 7x6 positions 12 to 14 stones from a full board, by random play."""
    rng, found = random.Random(13), []
    while len(found) < 3:
        game = ConnectFour()
        while game.ply < 28 + len(found) and not game.is_over():
            game.push(rng.choice(list(game.legal_moves())))
        if not game.is_over():
            found.append(game)
    return found


@pytest.mark.parametrize("options", TRICKS, ids=TRICK_IDS)
def test_without_a_depth_every_trick_gives_minimax_on_connect4_endgames(
    options: dict[str, Any],
) -> None:
    engine = Engine(**options)
    for game in connect4_endgames():
        assert_exact(engine, game, minimax_values(game))


@pytest.fixture(scope="module")
def othello_4x4() -> tuple[list[Game[Any]], dict[Hashable, int]]:
    start = Othello.new(size=4)
    return distinct([start, *sample_positions(start, 40, seed=4)]), minimax_values(start)


@pytest.mark.slow
@pytest.mark.parametrize("options", TRICKS, ids=TRICK_IDS)
def test_without_a_depth_every_trick_gives_minimax_on_4x4_othello(
    options: dict[str, Any], othello_4x4: tuple[list[Game[Any]], dict[Hashable, int]]
) -> None:
    positions, values = othello_4x4
    engine = Engine(**options)
    for position in positions:
        assert_exact(engine, position, values)


@functools.cache
def values_from_the_start(name: str, settings: tuple[tuple[str, Any], ...]) -> dict[Hashable, int]:
    """Return :func:`minimax_values` from the start of a game, worked out once per game."""
    return minimax_values(default_registry().new_game(name, **dict(settings)))


@pytest.mark.parametrize("options", [{}, TRICKS[-1]], ids=["plain", "all"])
@pytest.mark.parametrize(
    ("name", "settings"),
    [("othello", {"size": 4, "passes": "auto"}), ("kalah", {"pits": 3, "seeds": 2})],
    ids=["othello-auto-passes", "kalah"],
)
def test_without_a_depth_the_engine_gives_minimax_where_a_player_moves_twice_and_margins_count(
    options: dict[str, Any], name: str, settings: dict[str, Any]
) -> None:
    start = default_registry().new_game(name, **settings)
    assert not start.rules.alternating and start.rules.largest_margin > 1
    values = values_from_the_start(name, tuple(settings.items()))
    for position in distinct([start, *sample_positions(start, 15, seed=1)]):
        assert_exact(Engine(**options), position, values)


def test_plain_scoring_gives_the_win_draw_loss_of_minimax(
    tictactoe_unfinished: list[Game[Any]],
) -> None:
    values = minimax_values(TicTacToe(), Scoring.PLAIN)
    for position in tictactoe_unfinished[::10]:
        assert_exact(Engine(scoring=Scoring.PLAIN, **TRICKS[-1]), position, values)


def test_4x4_othello_is_a_white_win_by_8_for_the_engine_with_every_trick() -> None:
    result = Engine(**TRICKS[-1]).search(Othello.new(size=4))
    assert (result.margin, result.is_exact) == (-8, True)


@pytest.mark.parametrize("options", [{}, TRICKS[-1]], ids=["plain", "all"])
def test_every_root_move_gets_minimax_value_when_asked(
    options: dict[str, Any], tictactoe_values: dict[Hashable, int]
) -> None:
    game = TicTacToe.from_text("X../.O./...")
    result = Engine(**options).search(game, move_values=True)
    assert result.move_values is not None
    for move, value in result.move_values:
        game.push(move)
        assert value == tictactoe_values[game.key()], move
        game.undo()


# ---------------------------------------------- a game that lets a search pass
class PassingTicTacToe(Game[int]):
    """Tic-tac-toe that lets a search pass: a mark more never hurts, so no zugzwang."""

    name = "passing-tictactoe"
    LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    zugzwang_rare = True

    def __init__(self) -> None:
        self.cells = ["."] * 9
        self.mover = 0
        self.passes = 0

    @property
    def rules(self) -> Rules:
        return Rules(max_plies=9, alternating=True, zugzwang_rare=self.zugzwang_rare)

    def to_move(self) -> Player:
        return PLAYERS[self.mover]

    def legal_moves(self) -> Sequence[int]:
        return (
            ()
            if self.result() is not None
            else [cell for cell in range(9) if self.cells[cell] == "."]
        )

    def make_move(self, move: int) -> None:
        self.cells[move] = "XO"[self.mover]
        self.mover ^= 1

    def unmake_move(self, move: int) -> None:
        self.cells[move] = "."
        self.mover ^= 1

    def result(self) -> int | None:
        for a, b, c in self.LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return 1 if self.cells[a] == "X" else -1
        return 0 if "." not in self.cells else None

    def key(self) -> Hashable:
        return ("".join(self.cells), self.mover, self.passes)

    def evaluate(self) -> int:
        return sum(
            (1 if "O" not in line else 0) - (1 if "X" not in line else 0)
            for line in (("".join(self.cells[cell] for cell in cells)) for cells in self.LINES)
            if line.strip(".")
        )

    def make_null_move(self) -> None:
        self.mover ^= 1
        self.passes += 1

    def unmake_null_move(self) -> None:
        self.mover ^= 1
        self.passes -= 1


# ------------------------------------------------------------- with a depth
def sample_positions(game: Game[Any], count: int, seed: int) -> list[Game[Any]]:
    rng, found = random.Random(seed), []
    while len(found) < count:
        position = game.copy()
        for _ in range(rng.randrange(position.rules.max_plies // 2)):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(list(moves)))
        if not position.is_over():
            found.append(position)
    return found


def distinct(positions: Sequence[Game[Any]]) -> list[Game[Any]]:
    """Return ``positions`` without repeats (the first of each key): random play on a small
    board draws the same positions again (4x4 Othello's seed 4 draws the start 5 times in
    40: 33 positions with the start), and a search proves nothing more the second time."""
    first: dict[Hashable, Game[Any]] = {}
    for position in positions:
        first.setdefault(position.key(), position)
    return list(first.values())


@pytest.mark.parametrize("options", ORDERING_TRICKS, ids=repr)
@pytest.mark.parametrize("name", ["connect4", "othello", "kalah"])
def test_with_a_depth_the_ordering_tricks_keep_plain_alphabeta_value_and_best_moves(
    options: dict[str, Any], name: str
) -> None:
    """Deepening, aspiration windows (re-searched when they fail), killers and history only
    reorder the moves: the value and the best moves at a depth are alpha-beta's."""
    start = default_registry().new_game(name, **({"size": 6} if name == "othello" else {}))
    for position in sample_positions(start, 6, seed=len(name)):
        plain = AlphaBeta(depth=3).search(position)
        tricked = Engine(depth=3, **options).search(position)
        assert (tricked.value, set(tricked.best_moves)) == (plain.value, set(plain.best_moves)), (
            position.to_text()
        )


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "othello", "kalah", "passing"])
def test_with_a_depth_every_trick_at_once_answers_legally_and_leaves_the_position_as_it_was(
    name: str,
) -> None:
    start: Game[Any] = (
        PassingTicTacToe() if name == "passing" else default_registry().new_game(name)
    )
    engine = Engine(depth=4, **TRICKS[-1])
    for position in [start, *sample_positions(start, 8, seed=9)]:
        result = check_search(
            engine, position, exact=False
        )  # a legal move, a legal line, no change
        assert not result.is_exact or result.margin is not None  # exact means a proven value


def test_plain_engine_with_a_depth_is_alphabeta_node_for_node() -> None:
    game = ConnectFour.from_text("4433")
    plain, engine = AlphaBeta(depth=5).search(game), Engine(depth=5).search(game)
    assert (engine.value, engine.best_moves, engine.is_exact) == (
        plain.value,
        plain.best_moves,
        False,
    )
    assert engine.stats.nodes == plain.stats.nodes


@pytest.mark.parametrize(
    "options",
    [
        {"killers": True},
        {"history": True},
        {"killers": True, "history": True, "iterative": True, "follow": "root"},
        {"lmr": True},
        {"lmr": True, "killers": True, "history": True},
        {"extensions": True},
        {"extensions": True, "lmr": True, "killers": True, "iterative": True, "follow": "root"},
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", ["tictactoe", "connect4", "kalah", "checkers"])
def test_the_tricks_on_alphabetas_loops_search_the_engine_cores_very_tree(
    options: dict[str, Any], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine whose only tricks are killers, history, late move reductions and
    extensions runs on alpha-beta's loops (faster); the engine's own core, forced here,
    enters the very same positions and answers the same (a game whose turns do not
    alternate, two with noisy and forcing moves, which are neither killers nor reduced
    and are extended, and one searched to the end among them)."""
    start = default_registry().new_game(name)
    engine = Engine(depth=None if name == "tictactoe" else 4, **options)
    for position in sample_positions(start, 3, seed=3):
        assert engine.on_alphabeta(position)
        fast = engine.search(position)
        with monkeypatch.context() as patched:
            patched.setattr(Engine, "on_alphabeta", lambda self, game: False)
            core = engine.search(position)
        assert (fast.value, fast.best_moves, fast.is_exact) == (
            core.value,
            core.best_moves,
            core.is_exact,
        )
        counts = ("nodes", "leaves", "cutoffs", "tt_hits", "depth")
        assert [getattr(fast.stats, count) for count in counts] == [
            getattr(core.stats, count) for count in counts
        ]


def test_quiescence_sees_the_win_past_the_horizon() -> None:
    """O threatens two lines: whatever X plays, O wins. At depth 1 plain search only
    evaluates; quiescence plays O's winning move past the horizon and proves the loss."""
    game = TicTacToe.from_text("O.O/X../XXO")
    values = minimax_values(game)
    assert values[game.key()] < -900  # the oracle: O wins
    plain = Engine(depth=1).search(game)
    quiescent = Engine(depth=1, quiescence=True).search(game)
    assert abs(plain.value) < game.rules.scale.heuristic_bound
    assert quiescent.value == values[game.key()] and not plain.is_exact


def test_quiescence_does_not_stand_pat_after_a_forcing_move(
    tictactoe_unfinished: list[Game[Any]], tictactoe_values: dict[Hashable, int]
) -> None:
    """Where X wins by a fork (two threats, three plies), a depth-1 search with quiescence
    sees it: the fork is forcing, so O may not stand pat but must reply, and X's win is noisy."""
    forks = []
    for position in tictactoe_unfinished:
        value = tictactoe_values[position.key()]
        win_in_three = position.rules.scale.proven(
            1 if position.to_move() == 0 else -1, position.ply + 3
        )
        if value == win_in_three:
            forks.append(position)
    assert len(forks) > 100
    for position in forks:
        result = Engine(depth=1, quiescence=True).search(position)
        assert result.value == tictactoe_values[position.key()], position.to_text()


@pytest.mark.parametrize("depth", [3, 4])
def test_extensions_search_forcing_moves_deeper_but_at_most_half_the_depth_more(depth: int) -> None:
    game = ConnectFour.from_text("4444")
    plain = Engine(depth=depth).search(game)
    extended = Engine(depth=depth, extensions=True).search(game)
    assert plain.stats.depth == depth
    assert depth < extended.stats.depth <= depth + max(1, depth // 2)


def test_a_spent_budget_gives_the_last_completed_depth_when_deepening() -> None:
    game = ConnectFour()
    result = Engine(iterative=True, max_nodes=2_000).search(game)
    assert result.move in game.legal_moves() and not result.is_exact
    assert 1 <= result.stats.depth
    with pytest.raises(BudgetExceededError, match="node budget of 100 exhausted"):
        Engine(max_nodes=100).search(game)
    assert game.history == () and game.key() == ConnectFour().key()


def test_deepening_stops_once_the_answer_is_exact() -> None:
    result = Engine(iterative=True, depth=9).search(TicTacToe.from_text("XO./OX./..."))
    assert result.is_exact and result.stats.depth < 9


@pytest.mark.parametrize("depth", [None, 5])
def test_iterative_is_the_engine_deepening_with_the_last_best_move_first(
    depth: int | None,
) -> None:
    # the preset searches the same tree as the engine with those switches, and the value
    # and best moves at the depth are plain alpha-beta's
    game = TicTacToe.from_text("XO.......") if depth is None else ConnectFour.from_text("4433")
    preset = IterativeDeepening(depth=depth).search(game)
    engine = Engine(depth=depth, iterative=True, follow="root", table=True).search(game)
    plain = AlphaBeta(depth=depth).search(game)
    assert (preset.value, preset.best_moves, preset.stats.nodes, preset.is_exact) == (
        engine.value,
        engine.best_moves,
        engine.stats.nodes,
        engine.is_exact,
    )
    assert (preset.value, set(preset.best_moves)) == (plain.value, set(plain.best_moves))
    assert preset.pv == engine.pv and len(preset.pv) >= 1


def test_iterative_keeps_its_own_options_and_defaults() -> None:
    options = IterativeDeepening.option_specs()
    assert {"depth", "max_nodes", "seconds", "table", "table_entries"} <= set(options)
    assert not {"killers", "follow", "iterative"} & set(options)
    assert IterativeDeepening().table and IterativeDeepening().engine.table_entries == 1 << 20
    assert default_registry().new_searcher("iterative:table=false,depth=3") == IterativeDeepening(
        table=False, depth=3
    )


def test_following_only_the_root_changes_the_order_not_the_answer_at_a_depth() -> None:
    # follow=root with a trick on is searched by the engine's core: another tree than the
    # best line's, the same value
    game = ConnectFour.from_text("4433")
    line = Engine(depth=6, iterative=True, killers=True, table=True).search(game)
    root = Engine(depth=6, iterative=True, killers=True, table=True, follow="root").search(game)
    plain = AlphaBeta(depth=6).search(game)
    assert line.value == root.value == plain.value
    assert line.stats.nodes != root.stats.nodes


# ------------------------------------------------------------------ options
def test_the_spec_names_every_trick() -> None:
    spec = (
        "engine:depth=6,iterative=true,aspiration=50,killers=true,history=true,null_move=2,"
        "lmr=true,quiescence=true,extensions=true,table=true,max_nodes=100000,seconds=5"
    )
    engine = default_registry().new_searcher(spec)
    assert engine == Engine(
        depth=6,
        iterative=True,
        aspiration=50,
        killers=True,
        history=True,
        null_move=2,
        lmr=True,
        quiescence=True,
        extensions=True,
        table=True,
        max_nodes=100_000,
        seconds=5.0,
    )
    assert default_registry().new_searcher("engine:depth=6") == Engine(depth=6)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("engine:aspiration=-1", "option 'aspiration' must be >= 0: -1"),
        ("engine:null_move=-2", "option 'null_move' must be >= 0: -2"),
        ("engine:null_move=1.5", "option 'null_move' must be an integer: '1.5'"),
        ("engine:killers=maybe", "option 'killers' must be true or false: 'maybe'"),
        ("engine:quiescense=true", "searcher 'engine': unknown option 'quiescense'"),
    ],
)
def test_bad_engine_options_are_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message.replace("(", "\\(").replace(")", "\\)")):
        default_registry().new_searcher(spec)


# --------------------------------------------------------- compare --tricks
def test_compare_tricks_measures_each_trick_against_plain_alphabeta_at_the_depth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(
        capsys, "compare", "connect4", "--position", "4433", "--depth", "4", "--tricks", "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    rows = {row["searcher"]: row for row in data["rows"]}
    assert data["references"] == {"distance": "alphabeta:depth=4"}
    assert list(rows)[:3] == [
        "alphabeta:depth=4",
        "engine:depth=4",
        "engine:depth=4,iterative=true",
    ]
    assert len(rows) == 12 and "engine:depth=4,quiescence=true" in rows
    plain = rows["alphabeta:depth=4"]
    assert (
        plain["nodes_vs_reference"] == 1.0
        and rows["engine:depth=4"]["stats"]["nodes"] == plain["stats"]["nodes"]
    )
    for ordering_only in ("iterative=true", "aspiration=50", "killers=true", "history=true"):
        row = rows[f"engine:depth=4,{ordering_only}"]
        assert row["agrees"] is True and row["value"] == plain["value"], ordering_only
        assert row["nodes_vs_reference"] == row["stats"]["nodes"] / plain["stats"]["nodes"]
    status, out, _ = run_cli(capsys, "compare", "connect4", "--depth", "2", "--tricks")
    assert (
        status == 0
        and "vs alpha-beta" in out
        and "checked against (distance scoring): alphabeta:depth=2" in out
    )


@pytest.mark.parametrize(
    "extra", [[], ["--depth", "3", "--searchers", "alphabeta"]], ids=["no-depth", "searchers"]
)
def test_compare_tricks_needs_a_depth_and_its_own_searchers(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    status, out, err = run_cli(capsys, "compare", "tictactoe", "--tricks", *extra)
    assert (
        status == 2
        and "--tricks compares its own searchers at one depth: give --depth, not --searchers" in err
    )


def test_the_line_of_a_search_stopped_by_its_budget_stops_at_the_depth_that_answered() -> None:
    game = TicTacToe.new()
    result = Engine(iterative=True, max_nodes=60).search(game)
    assert not result.is_exact
    # the line is read to the horizon of the last completed depth, not searched to the end
    # of the game (on Connect Four that end is out of reach)
    assert 1 <= len(result.pv) <= result.stats.depth < 9
