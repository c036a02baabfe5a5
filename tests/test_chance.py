"""Games of chance: the protocol's chance positions, expectiminimax, Star1 and Star2.

The oracle is Pig's value worked out here from the rules as the docs state them
(memoised recursion over the scores, turn total, player, die and moves made), not by the
framework's game or searchers.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch import Game, capabilities, default_registry
from gamesearch.errors import BudgetExceededError, ConformanceError, UnsupportedGameError
from gamesearch.rules import CHANCE, Player, Rules
from gamesearch.search.expectimax import ChanceIterative, Expectiminimax, Star1, Star2
from gamesearch.search.mcts import MonteCarlo
from gamesearch.testing import check_game, check_position, reachable_positions
from gamesearch.words import describe_value
from gamesearch_games.pig import Pig
from gamesearch_games.tictactoe import TicTacToe

#: the small Pig every position of which is checked: first to 4, a three-sided die, 6 moves
SMALL = {"goal": 4, "faces": 3, "horizon": 6}
TEXT = re.compile(r"(\d+)-(\d+) ([AB])\+(\d+)(\*?) (\d+) (\d+)")

State = tuple[int, int, int, int, bool, int]


def state_of(game: Game[Any]) -> State:
    """Return (A's score, B's score, turn total, player, die rolling, moves made) read
    off the documented text notation."""
    match = TEXT.fullmatch(game.to_text())
    assert match is not None
    first, second, letter, total, star, played, _ = match.groups()
    return int(first), int(second), int(total), "AB".index(letter), bool(star), int(played)


def pig_oracle(
    goal: int, faces: int, horizon: int, depth: int | None = None
) -> Callable[[State], Fraction]:
    """Return the exact expected result of a Pig state, from the rules alone.

    With ``depth``, players' moves are counted (the die is free) and a state reached
    with no depth left is worth A's lead (the mover's turn total counted) in hundredths
    of the goal, clipped to 99 hundredths, as a fraction of the result range.
    """

    def lead_value(state: State) -> Fraction:
        first, second, total, player, _, _ = state
        lead = first - second + (total if player == 0 else -total)
        return Fraction(max(-99, min(99, lead * 99 // goal)), 100)

    @functools.cache
    def value(state: State, left: float) -> Fraction:
        first, second, total, player, rolling, made = state
        if first >= goal:
            return Fraction(1)
        if second >= goal:
            return Fraction(-1)
        if made == horizon:  # the players' last move was made: a draw
            return Fraction(0)
        if left == 0:
            return lead_value(state)
        if rolling:
            lost = (first, second, 0, 1 - player, False, made)
            return sum(
                (
                    Fraction(1, faces)
                    * value(
                        lost if face == 1 else (first, second, total + face, player, False, made),
                        left,
                    )
                    for face in range(1, faces + 1)
                ),
                Fraction(0),
            )
        mine = (first, second)[player] + total
        held = (mine, second) if player == 0 else (first, mine)
        choices = [value((*held, 0, 1 - player, False, made + 1), left - 1)]
        if mine < goal:  # rolling on is allowed below the goal only
            choices.append(value((first, second, total, player, True, made + 1), left - 1))
        return max(choices) if player == 0 else min(choices)

    limit = float("inf") if depth is None else depth
    return lambda state: value(state, limit)


def oracle_best_moves(game: Game[Any], oracle: Callable[[State], Fraction]) -> set[Hashable]:
    """Return the moves whose oracle value is the mover's best (every outcome at a roll)."""
    if game.to_move() == CHANCE:
        return set(game.legal_moves())
    values = {}
    for move in game.legal_moves():
        game.push(move)
        values[move] = oracle(state_of(game))
        game.undo()
    best = max(values.values()) if game.to_move() == 0 else min(values.values())
    return {move for move, value in values.items() if value == best}


@pytest.fixture(scope="module")
def small_positions() -> list[Game[Any]]:
    return [game for game in reachable_positions(Pig.new(**SMALL)) if not game.is_over()]


def test_the_small_pig_has_hundreds_of_positions_and_keeps_the_protocol() -> None:
    report = check_game(Pig, options=SMALL, max_positions=5000, playouts=5)
    assert report.is_exhaustive and report.positions == 470 and report.terminal == 129


def test_expectiminimax_equals_the_oracle_on_every_reachable_position_of_a_small_pig(
    small_positions: list[Game[Any]],
) -> None:
    oracle = pig_oracle(**SMALL)
    assert len(small_positions) == 470 - 129
    for game in small_positions:
        result = Expectiminimax().search(game)
        assert result.value == oracle(state_of(game)), game.to_text()
        assert set(result.best_moves) == oracle_best_moves(game, oracle), game.to_text()
        assert result.is_exact and result.margin == result.value


def test_star1_and_star2_equal_expectiminimax_with_fewer_nodes_on_every_position(
    small_positions: list[Game[Any]],
) -> None:
    totals = {"expectiminimax": 0, "star1": 0, "star2": 0}
    for game in small_positions:
        reference = Expectiminimax().search(game)
        totals["expectiminimax"] += reference.stats.nodes
        for searcher in (Star1(), Star2()):
            result = searcher.search(game)
            assert (result.value, result.best_moves) == (reference.value, reference.best_moves), (
                game.to_text()
            )
            assert result.stats.nodes <= reference.stats.nodes, (searcher.name, game.to_text())
            totals[searcher.name] += result.stats.nodes
    print(f"nodes on the {len(small_positions)} unfinished positions of Pig {SMALL}: {totals}")
    assert totals == {"expectiminimax": 11_425, "star1": 7_835, "star2": 7_987}


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_depth_limited_searchers_equal_the_depth_limited_oracle_on_every_position(
    small_positions: list[Game[Any]], depth: int
) -> None:
    oracle = pig_oracle(**SMALL, depth=depth)
    for game in small_positions[::3]:
        expected = oracle(state_of(game))
        for searcher in (Expectiminimax(depth=depth), Star1(depth=depth), Star2(depth=depth)):
            result = searcher.search(game)
            assert result.value == expected, (searcher.name, game.to_text())


def test_depth_limited_star_searchers_agree_on_the_full_game_with_fewer_nodes() -> None:
    oracle = pig_oracle(10, 6, 12, depth=4)
    expected = oracle(state_of(Pig()))
    nodes = {}
    for searcher in (Expectiminimax(depth=4), Star1(depth=4), Star2(depth=4)):
        result = searcher.search(Pig())
        assert (result.value, result.is_exact) == (expected, False)
        nodes[searcher.name] = result.stats.nodes
    assert nodes["star1"] < nodes["expectiminimax"] and nodes["star2"] < nodes["expectiminimax"]


def test_a_chance_position_is_worth_the_mean_of_its_outcomes_and_every_outcome_is_listed() -> None:
    game = Pig.from_text("2-0 A+0* 4 6", **SMALL)
    oracle = pig_oracle(**SMALL)
    result = Expectiminimax().search(game, move_values=True)
    outcomes = dict(result.move_values or ())
    assert result.best_moves == ("1", "2", "3") and result.move == "1"
    assert result.value == sum(outcomes.values()) / 3 == oracle(state_of(game))
    assert result.pv == ("1",)  # past a roll the line is chance's


def test_the_line_of_best_play_stops_at_the_next_roll() -> None:
    game = Pig.new(**SMALL)
    result = Star2().search(game)
    assert result.pv == ("roll",)
    game = Pig.from_text("3-0 A+2 4 7", **SMALL)  # A must hold to win: the line is one move
    assert Star1().search(game).pv == ("hold",)


def test_values_are_fractions_described_as_expected_results_and_written_exactly_in_json() -> None:
    game = Pig.new(**SMALL)
    result = Star2().search(game)
    assert result.value == Fraction(8, 27)
    assert describe_value(game, result.value) == "expected result +8/27 (+0.296)"
    assert describe_value(game, Fraction(1, 4), is_exact=False) == "estimate +0.250"
    data = json.loads(json.dumps(result.as_dict(game)))
    assert (data["value"], data["margin"]) == ("8/27", "8/27")


def test_a_finished_game_of_chance_is_worth_its_result() -> None:
    game = Pig.from_text("4-2 B+0 6 9", **SMALL)
    result = Star1().search(game)
    assert (result.value, result.move, result.is_game_over) == (Fraction(1), None, True)


def test_the_chance_searchers_refuse_a_game_without_chance_up_front() -> None:
    game = TicTacToe.from_text("XX.OO....")
    for searcher in (Expectiminimax(), Star1(), Star2(), ChanceIterative()):
        with pytest.raises(UnsupportedGameError, match=r"searches games of chance only"):
            searcher.search(game)
        assert game.to_text() == "XX./OO./..."


def test_iterative_deepening_with_chance_answers_with_the_last_depth_that_fits_the_budget() -> None:
    game, budget = Pig(), 3_000
    result = ChanceIterative(max_nodes=budget).search(game)
    assert not result.is_exact and result.stats.nodes <= budget + 1
    spent, completed = 0, 0
    while True:  # the depths whose searches, one after the other, fit the budget
        spent += Star2(depth=completed + 1).search(game).stats.nodes
        if spent > budget:
            break
        completed += 1
    assert completed >= 3
    assert result.value == Star2(depth=completed).search(game).value
    small = ChanceIterative().search(Pig.new(**SMALL))
    assert small.is_exact and small.value == Fraction(8, 27)


def test_a_spent_node_budget_raises_and_leaves_the_position_as_it_was() -> None:
    game = Pig()
    before = game.to_text()
    with pytest.raises(BudgetExceededError, match="node budget of 100 exhausted"):
        Star2(max_nodes=100).search(game)
    assert game.to_text() == before and game.history == ()


CHANCE_SEARCHERS = {"expectiminimax", "star1", "star2", "chance-iterative", "mcts"}
REFUSING = sorted(set(default_registry().searchers) - CHANCE_SEARCHERS)


@pytest.mark.parametrize("name", REFUSING)
def test_every_other_built_in_searcher_refuses_a_game_of_chance_up_front(name: str) -> None:
    searcher = default_registry().searcher_class(name)()
    game = Pig()
    with pytest.raises(
        UnsupportedGameError,
        match=rf"searcher {name!r} cannot search 'pig': it cannot search games of chance",
    ):
        searcher.search(game)
    assert game.history == ()


def test_the_searchers_of_chance_are_registered() -> None:
    found = default_registry().searchers
    assert CHANCE_SEARCHERS <= set(found)
    assert all(not found[name].needs_no_chance for name in CHANCE_SEARCHERS)


# ------------------------------------------------------------ the kit's checks
class _Broken(Pig):
    """Pig whose chance positions break one promise (set per test)."""

    name = "broken-pig"
    outcomes: Any = None

    def chance_outcomes(self) -> Any:
        return self.outcomes


def _broken(outcomes: Any) -> Game[Any]:
    game = _Broken.from_text("0-0 A+0* 1 1", **SMALL)
    game.outcomes = outcomes
    return game


@pytest.mark.parametrize(
    ("outcomes", "message"),
    [
        (
            [("1", 0.5), ("2", 0.25), ("3", 0.25)],
            r"gives 1 the probability 0\.5; each must be a Fraction greater than 0",
        ),
        (
            [("1", Fraction(1, 2)), ("2", Fraction(1, 2)), ("3", Fraction(0))],
            r"gives 3 the probability Fraction\(0, 1\)",
        ),
        (
            [("1", Fraction(1, 3)), ("2", Fraction(1, 3)), ("3", Fraction(1, 2))],
            r"sum to 7/6, not 1",
        ),
        (
            [("1", Fraction(1, 2)), ("2", Fraction(1, 2))],
            r"lists the moves \('1', '2'\), not legal_moves\(\) \('1', '2', '3'\)",
        ),
    ],
)
def test_the_kit_catches_bad_chance_outcomes(outcomes: Any, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_position(_broken(outcomes))


class _Silent(Pig):
    """A game of chance that does not say what its outcomes are."""

    name = "silent-pig"
    chance_outcomes = None


def test_the_kit_requires_chance_outcomes_of_a_game_of_chance() -> None:
    with pytest.raises(
        ConformanceError, match=r"declare chance, but the game does not offer chance_outcomes\(\)"
    ):
        check_position(_Silent.from_text("0-0 A+0* 1 1", **SMALL))


class _Undeclared(Pig):
    """Pig whose rules do not declare chance."""

    name = "undeclared-pig"

    @property
    def rules(self) -> Rules:
        return Rules(max_plies=Pig.new(**SMALL).rules.max_plies)


def test_the_kit_refuses_a_chance_position_in_a_game_that_declares_no_chance() -> None:
    with pytest.raises(
        ConformanceError, match=r"to_move\(\) returned -1; the rules declare 2 players \(0 to 1\)"
    ):
        check_position(_Undeclared.from_text("0-0 A+0* 1 1", **SMALL))


def test_a_position_without_chance_has_no_outcomes() -> None:
    with pytest.raises(ValueError, match=r"the die is not rolling in '0-0 A\+0 0 0'"):
        Pig.new(**SMALL).chance_outcomes()
    with pytest.raises(ValueError, match=r"'\.\.\./\.\.\./\.\.\.' is not a chance position"):
        capabilities.chance_outcomes(TicTacToe())


# ------------------------------------------------------------------ Monte Carlo
@pytest.mark.parametrize("text", ["0-0 A+0 0 0", "0-2 A+2 4 6", "2-0 A+0* 4 6"])
def test_mcts_converges_to_the_exact_expected_result_on_small_positions(text: str) -> None:
    # 20,000 simulations from a fixed seed: the mean of results +1/0/-1 has a standard
    # error below 0.007, and 0.02 is about three of them
    game = Pig.from_text(text, **SMALL)
    exact = pig_oracle(**SMALL)(state_of(game))
    result = MonteCarlo(simulations=20_000, seed=1).search(game)
    assert isinstance(result.value, Fraction) and not result.is_exact
    assert abs(result.value - exact) < Fraction(2, 100), (float(result.value), float(exact))
    assert set(result.best_moves) <= oracle_best_moves(game, pig_oracle(**SMALL))


def test_mcts_draws_outcomes_by_their_probability_in_its_tree() -> None:
    game = Pig.from_text("2-0 A+0* 4 6", **SMALL)
    result = MonteCarlo(simulations=3_000, seed=2).search(game)
    visits = {entry.move: entry.visits for entry in result.visits or ()}
    assert result.best_moves == ("1", "2", "3") and result.pv == ("1",)
    assert all(abs(count - 1_000) < 100 for count in visits.values()), visits


def test_mcts_proves_a_won_position_of_a_game_of_chance_exactly() -> None:
    game = Pig.from_text("3-0 A+2 4 7", **SMALL)  # A holds and wins
    result = MonteCarlo(simulations=100, seed=0).search(game)
    assert (result.value, result.is_exact, result.best_moves) == (Fraction(1), True, ("hold",))


def test_mcts_refuses_a_game_of_chance_with_margins() -> None:
    class Margins(Pig):
        name = "pig-by-margins"

        @property
        def rules(self) -> Rules:
            return Rules(max_plies=Pig().rules.max_plies, chance=True, result_range=(-3, 3))

    with pytest.raises(
        UnsupportedGameError, match=r"in a game of chance it needs results \+1/0/-1"
    ):
        MonteCarlo().search(Margins())


# ------------------------------------------------- random trees with any odds
# A tree is a leaf result (an int in -2..2) or (kind, children) with kind "max" (the first
# player moves), "min" (the second) or "chance", whose children are (probability, tree).
Tree = Any


def _probabilities(count: int, draw: Callable[[Any], Any]) -> list[Fraction]:
    weights = [draw(st.integers(1, 6)) for _ in range(count)]
    denominators = [draw(st.sampled_from([1, 2, 3, 5, 7])) for _ in range(count)]
    raw = [
        Fraction(weight, denominator)
        for weight, denominator in zip(weights, denominators, strict=True)
    ]
    return [share / sum(raw) for share in raw]


@st.composite
def trees(draw: Callable[[Any], Any], depth: int = 4) -> Tree:
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        return draw(st.integers(-2, 2))
    kind = draw(st.sampled_from(["max", "min", "chance"]))
    count = draw(st.integers(1, 3))
    children = [draw(trees(depth=depth - 1)) for _ in range(count)]
    if kind == "chance":
        return (kind, list(zip(_probabilities(count, draw), children, strict=True)))
    return (kind, children)


def tree_value(tree: Tree) -> Fraction:
    """The oracle: the expected result of ``tree``, straight from its definition."""
    if isinstance(tree, int):
        return Fraction(tree)
    kind, children = tree
    if kind == "chance":
        return sum(
            (probability * tree_value(child) for probability, child in children), Fraction(0)
        )
    values = [tree_value(child) for child in children]
    return max(values) if kind == "max" else min(values)


class TreeGame(Game[int]):
    """A game whose positions are the nodes of a fixed tree; moves are child numbers."""

    name = "random-tree"
    tree: Tree = 0

    def __init__(self) -> None:
        self._path: list[Tree] = [self.tree]

    @property
    def rules(self) -> Rules:
        return Rules(max_plies=4, chance=True, result_range=(-2, 2))

    def _node(self) -> Tree:
        return self._path[-1]

    def to_move(self) -> int:
        node = self._node()
        if isinstance(node, int):
            return Player.FIRST
        return {"max": Player.FIRST, "min": Player.SECOND, "chance": CHANCE}[node[0]]

    def legal_moves(self) -> list[int]:
        node = self._node()
        return [] if isinstance(node, int) else list(range(len(node[1])))

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return [(index, probability) for index, (probability, _) in enumerate(self._node()[1])]

    def make_move(self, move: int) -> None:
        kind, children = self._node()
        self._path.append(children[move][1] if kind == "chance" else children[move])

    def unmake_move(self, move: int) -> None:
        self._path.pop()

    def result(self) -> int | None:
        node = self._node()
        return node if isinstance(node, int) else None

    def key(self) -> tuple[int, ...]:
        return tuple(self.history)


def tree_game(tree: Tree) -> Game[Any]:
    return type("OneTree", (TreeGame,), {"tree": tree})()


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(tree=trees())
def test_the_searchers_of_chance_equal_the_definition_on_random_trees_with_any_odds(
    tree: Tree,
) -> None:
    game = tree_game(tree)
    if game.is_over():
        return
    check_position(game)
    expected = tree_value(tree)
    full = Expectiminimax().search(game)
    assert full.value == expected
    for searcher in (Star1(), Star2(), Star1(table=True), Star2(table=True), ChanceIterative()):
        result = searcher.search(game)
        assert (result.value, result.best_moves) == (expected, full.best_moves), searcher.name
    assert Star1().search(game).stats.nodes <= full.stats.nodes


# ------------------------------------- probabilities with different denominators
#: an explicit tree whose chance layers deal in halves, thirds, fifths and sevenths; the
#: first line (a1, h, d1) meets only halves: node -> (kind, [(move, probability, child)])
MIXED_ODDS: dict[str, tuple[str, list[tuple[str, Fraction | None, str | int]]]] = {
    "A": ("max", [("a1", None, "B"), ("a2", None, "C"), ("a3", None, 0)]),
    "B": ("chance", [("h", Fraction(1, 2), "D"), ("t", Fraction(1, 2), -1)]),
    "D": ("min", [("d1", None, 2), ("d2", None, "E")]),
    "E": ("chance", [("x", Fraction(1, 3), 3), ("y", Fraction(2, 3), -2)]),
    "C": ("chance", [("p", Fraction(1, 5), "F"), ("q", Fraction(4, 5), 0)]),
    "F": ("max", [("f1", None, "G"), ("f2", None, -2)]),
    "G": ("chance", [("u", Fraction(1, 7), 3), ("v", Fraction(6, 7), 1)]),
}


def mixed_odds_text() -> str:
    """Return :data:`MIXED_ODDS` in the tree game's notation."""
    lines = []
    for name, (kind, children) in MIXED_ODDS.items():
        moves = ", ".join(
            f"{move} {'' if odds is None else odds} -> {child}".replace("  ", " ")
            for move, odds, child in children
        )
        lines.append(f"{name} {kind}: {moves}")
    return "\n".join(lines)


def mixed_odds_walk(
    node: str | int = "A", path: tuple[str, ...] = ()
) -> tuple[Fraction, list[tuple[str, ...]]]:
    """The oracle: the node's expected result and every position below it, depth first
    in the order the moves are written (each as its moves from the root)."""
    if isinstance(node, int):
        return Fraction(node), []
    kind, children = MIXED_ODDS[node]
    values, order = [], []
    for move, odds, child in children:
        value, below = mixed_odds_walk(child, (*path, move))
        values.append(value if odds is None else odds * value)
        order += [(*path, move), *below]
    if kind == "chance":
        return sum(values, Fraction(0)), order
    return (max(values) if kind == "max" else min(values)), order


def test_one_search_generates_each_position_once_in_order_whatever_the_denominators() -> None:
    from gamesearch.testing.grading import recording
    from gamesearch_games.tree import TreeGame

    game = TreeGame.from_text(mixed_odds_text())
    value, order = mixed_odds_walk()
    assert value == Fraction(9, 35) and len(order) == 15
    position, generated = recording(game)  # every position pushed, as it is pushed
    result = Expectiminimax().search(position)
    assert (result.value, result.move) == (value, "a2")
    assert generated == order  # no position twice, none left out, the written order
    assert result.stats.nodes == len(order) + 1  # and the root
    for searcher in (Star1(), Star2(), Expectiminimax(table=True), Star2(table=True)):
        assert searcher.search(game).value == value, searcher.name


def test_a_recorded_search_of_pig_generates_every_position_of_its_tree_once() -> None:
    from gamesearch.testing.grading import recording

    position, generated = recording(Pig.new(**SMALL))
    result = Expectiminimax().search(position)
    assert (
        len(generated) == len(set(generated)) == result.stats.nodes - 1 == 1_785
    )  # the root is not generated
    assert generated[:3] == [("roll",), ("roll", "1"), ("roll", "1", "roll")]
