"""Explicit game trees: the text format, the AIMA Figure 5.2 answer, and every searcher on random
trees."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch import default_registry
from gamesearch.errors import InvalidPositionError, UnsupportedGameError
from gamesearch.rules import CHANCE
from gamesearch.search.textbook import TextbookAlphaBeta, TextbookMinimax
from gamesearch.testing import check_game
from gamesearch_games.tree import TreeGame
from tests.clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent
AIMA_FILE = ROOT / "docs" / "coursework" / "trees" / "aima-figure-5-2.txt"
EXACT_SEARCHERS = [
    "textbook-minimax",
    "textbook-alphabeta",
    "textbook-alphabeta:root_window=shared,prune_on_equality=false",
    "minimax",
    "alphabeta",
    "alphabeta:root_window=fresh,ordering=natural",
    "pvs",
    "solver",
]

#: a test tree: a leaf's utility (or utilities, one per agent), or the mover ("max", "min",
#: "chance", "agent 2") and its (move, subtree) pairs; a chance node's moves are written
#: "move probability" ("m0 1/3")
Subtree = int | tuple[int, ...] | tuple[str, tuple[tuple[str, "Subtree"], ...]]


def is_leaf(tree: Subtree) -> bool:
    """Return whether ``tree`` is a leaf: one utility, or a tuple of one per agent."""
    return isinstance(tree, int) or isinstance(tree[0], int)


def write(tree: Subtree, agents: int = 2) -> str:
    """Return ``tree`` in the text format, nodes named N0, N1, ... in the order written."""
    lines: list[str] = [] if agents == 2 else [f"agents {agents}"]

    def node(subtree: Subtree) -> str:
        if is_leaf(subtree):
            return (
                str(subtree)
                if isinstance(subtree, int)
                else "(" + ", ".join(map(str, subtree)) + ")"
            )
        name = f"N{len(lines)}"
        lines.append("")
        index = len(lines) - 1
        kind, children = subtree
        lines[index] = f"{name} {kind}: " + ", ".join(
            f"{move} -> {node(child)}" for move, child in children
        )
        return name

    node(tree)
    return "\n".join(lines)


def oracle(tree: Subtree) -> Fraction:
    """Return the expectiminimax value of ``tree`` in utilities: max takes the largest, min the
    smallest, chance the mean weighted by the probabilities."""
    if isinstance(tree, int):
        return Fraction(tree)
    kind, children = tree
    if kind == "chance":
        return sum(
            (Fraction(move.split()[1]) * oracle(child) for move, child in children), Fraction(0)
        )
    values = [oracle(child) for _, child in children]
    return max(values) if kind == "max" else min(values)


def chance_moves(children: list[Subtree], weights: list[int]) -> tuple[tuple[str, Subtree], ...]:
    total = sum(weights)
    return tuple(
        (f"m{index} {Fraction(weight, total)}", child)
        for index, (child, weight) in enumerate(zip(children, weights, strict=True))
    )


def subtrees(depth: int) -> st.SearchStrategy[Subtree]:
    leaf = st.integers(-9, 9)
    if depth == 0:
        return leaf
    inner = st.tuples(
        st.sampled_from(["max", "min"]),
        st.lists(subtrees(depth - 1), min_size=1, max_size=3).map(
            lambda children: tuple((f"m{index}", child) for index, child in enumerate(children))
        ),
    )
    return st.one_of(leaf, inner) if depth < 3 else inner


def chance_subtrees(depth: int) -> st.SearchStrategy[Subtree]:
    """Trees of max, min and chance nodes (probabilities from random weights)."""
    leaf = st.integers(-9, 9)
    if depth == 0:
        return leaf
    children = st.lists(chance_subtrees(depth - 1), min_size=1, max_size=3)
    decisions = st.tuples(
        st.sampled_from(["max", "min"]),
        children.map(
            lambda found: tuple((f"m{index}", child) for index, child in enumerate(found))
        ),
    )
    chances = children.flatmap(
        lambda found: st.lists(st.integers(1, 4), min_size=len(found), max_size=len(found)).map(
            lambda weights: ("chance", chance_moves(found, weights))
        )
    )
    inner = st.one_of(decisions, chances)
    return st.one_of(leaf, inner) if depth < 3 else inner


# ----------------------------------------------------------------- AIMA Figure 5.2
@pytest.mark.parametrize("spec", EXACT_SEARCHERS)
def test_every_exact_searcher_finds_value_3_and_move_a1_on_aima_figure_5_2(spec: str) -> None:
    game = default_registry().new_game("tree", AIMA_FILE.read_text())
    result = default_registry().new_searcher(spec).search(game)
    assert (result.margin, result.move, result.best_moves) == (3, "a1", ("a1",))


def test_the_shipped_file_is_the_starting_position() -> None:
    assert TreeGame.from_text(AIMA_FILE.read_text()).key() == TreeGame().key()


def test_shared_window_alphabeta_prunes_the_two_leaves_of_aima_figure_5_5() -> None:
    # AIMA Figure 5.5: once C's first leaf (2) is seen, C's other two leaves cannot matter
    result = TextbookAlphaBeta(root_window="shared").search(TreeGame())
    assert (result.stats.nodes, result.stats.cutoffs) == (13 - 2, 2)
    assert TextbookMinimax().search(TreeGame()).stats.nodes == 13


def test_pruning_on_equality_is_a_switch_of_the_textbook_alphabeta() -> None:
    # after y (3) in C, alpha = beta = 3: pruning on equality skips z, the strict rule does not
    game = TreeGame.from_text("A max: a -> B, b -> C; B min: x -> 3; C min: y -> 3, z -> 1")
    on = TextbookAlphaBeta(root_window="shared").search(game)
    off = TextbookAlphaBeta(root_window="shared", prune_on_equality=False).search(game)
    assert (on.stats.nodes, off.stats.nodes) == (5, 6)
    # b looks as good as a when z is skipped (C's 3 is only a bound): only the first best is told
    assert on.best_moves == off.best_moves == ("a",)


def test_the_command_line_analyses_a_tree_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "analyze", "tree", "--position", str(AIMA_FILE))
    assert status == 0, err
    assert "Best move: a1" in out and "MAX wins by 3" in out


def test_the_command_line_names_a_missing_tree_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "analyze", "tree", "--position", "no-such-tree.txt")
    assert status == 2
    assert "no file 'no-such-tree.txt'" in err


# ---------------------------------------------------------------- the protocol
@pytest.mark.parametrize(
    "text",
    [
        AIMA_FILE.read_text(),
        "A max: l -> 1, r -> B; B min: x -> 5, y -> C; C max: p -> -2, q -> 0",
        "A min: only -> B; B min: x -> 1, y -> -1",  # the same player twice: not alternating
        "R max eval 3: a -> L, b -> 2; L leaf: -4",
    ],
)
def test_trees_keep_the_game_protocol(text: str) -> None:
    report = check_game(TreeGame.from_text(text))
    assert report.is_exhaustive and report.terminal > 0


def test_the_rules_follow_from_the_tree() -> None:
    rules = TreeGame.from_text("A max: l -> 1, r -> B; B min: x -> 5, y -> C; C max: p -> -2").rules
    assert (rules.max_plies, rules.players, rules.alternating, rules.result_range) == (
        3,
        2,
        True,
        (-2, 5),
    )
    assert not TreeGame.from_text("A min: only -> B; B min: x -> 1").rules.alternating


def test_a_position_inside_the_tree_is_written_with_at_and_read_back() -> None:
    game = TreeGame()
    game.play("a2")
    assert game.to_text().endswith("; at C") and game.ply == 1
    twin = TreeGame.from_text(game.to_text())
    assert (twin.key(), twin.ply, twin.legal_moves()) == (game.key(), 1, ("c1", "c2", "c3"))
    assert default_registry().new_searcher("minimax").search(twin).margin == 2


def test_evaluations_stand_in_below_a_depth_limit() -> None:
    game = TreeGame.from_text("A max: l -> B, r -> C; B min eval 7: x -> 1; C min eval -4: z -> 3")
    result = TextbookMinimax(depth=1).search(game)
    assert (result.value, result.move, result.is_exact) == (7, "l", False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A max: a -> B", r"node 'A': move 'a' leads to 'B', which is not defined"),
        (
            "A max: a -> B, b -> C; B min: x -> 1; C min: y -> B",
            r"node 'B' is reached from both 'A' and 'C'",
        ),
        ("A max: a -> 1; Z min: x -> 2", r"node 'Z' cannot be reached from the root 'A'"),
        ("A max: a -> 1, a -> 2", r"node 'A' has two moves named 'a'"),
        ("A max: a -> 1; A min: b -> 2", r"node 'A' is defined twice"),
        ("A maximum: a -> 1", r"cannot read 'A maximum: a -> 1'"),
        ("A max: a => 1", r"node 'A': cannot read 'a => 1'"),
        (
            "A max eval 900: a -> 1",
            r"the evaluation of 'A' must lie strictly between -900 and 900: 900",
        ),
        ("A max: a -> 1; at Q", r"'at Q': the tree has no node 'Q'"),
        ("# nothing", r"no node in the tree"),
        ("A max: a 1/2 -> 1", r"only a chance node's moves have probabilities"),
        (
            "A chance: h 1/2 -> 1, t 1/3 -> 2",
            r"the probabilities of chance node 'A' add up to 5/6, not 1",
        ),
        ("A chance: h -> 1", r"chance node 'A': move 'h' needs its probability \(h 1/2 -> ...\)"),
        ("A chance: h 0 -> 1, t 1 -> 2", r"chance node 'A': a probability must be > 0: 'h 0 -> 1'"),
        (
            "agents 3; A max: a -> 1",
            r"node 'A' is max; in a tree of 3 agents name the mover \(agent 0 to agent 2\)",
        ),
        (
            "A agent 0: a -> (1, 2, 3), b -> (1, 2)",
            r"the utility of 'A.b' is '\(1, 2\)': the tree has 3 agents",
        ),
        ("agents 17; A max: a -> 1", r"'agents' takes a whole number from 2 to 16: 'agents 17'"),
    ],
)
def test_a_malformed_tree_is_refused_with_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        TreeGame.from_text(text)


# ------------------------------------------------------- random trees, every searcher
@settings(max_examples=40, deadline=None)
@given(tree=subtrees(3))
def test_every_exact_searcher_finds_the_oracle_value_and_best_moves_of_random_trees(
    tree: Subtree,
) -> None:
    game = TreeGame.from_text(write(tree))
    kind, children = tree  # type: ignore[misc]
    values = {move: oracle(child) for move, child in children}
    best = oracle(tree)
    for spec in EXACT_SEARCHERS:
        plain = default_registry().new_searcher(spec, scoring="plain").search(game)
        assert plain.margin == best, spec
        assert set(plain.best_moves) == {move for move, value in values.items() if value == best}, (
            spec
        )
        assert default_registry().new_searcher(spec).search(game).margin == best, spec


@settings(max_examples=25, deadline=None)
@given(tree=subtrees(3))
def test_random_trees_keep_the_protocol_and_read_back_their_own_text(tree: Subtree) -> None:
    game = TreeGame.from_text(write(tree))
    assert check_game(game).is_exhaustive
    twin = TreeGame.from_text(game.to_text())
    assert (twin.to_text(), twin.key()) == (game.to_text(), game.key())


# ---------------------------------------------------------------- chance nodes
CHANCE_TREE = (
    "A max: l -> C, r -> 1; C chance: h 1/2 -> 4, t 1/4 -> -2, x 0.25 -> D; D min: a -> 3, b -> 0"
)


def test_a_chance_node_offers_its_outcomes_with_exact_probabilities() -> None:
    game = TreeGame.from_text(CHANCE_TREE)
    game.play("l")
    assert game.to_move() == CHANCE
    assert game.chance_outcomes() == (
        ("h", Fraction(1, 2)),
        ("t", Fraction(1, 4)),
        ("x", Fraction(1, 4)),
    )
    assert game.rules.chance and not game.rules.alternating
    assert check_game(TreeGame.from_text(CHANCE_TREE)).is_exhaustive
    with pytest.raises(ValueError, match=r"node 'A' is not a chance node"):
        TreeGame.from_text(CHANCE_TREE).chance_outcomes()


@pytest.mark.parametrize("spec", ["expectiminimax", "star1", "star2", "chance-iterative"])
def test_the_chance_searchers_find_the_expected_value_of_a_chance_tree(spec: str) -> None:
    # 1/2 * 4 + 1/4 * -2 + 1/4 * min(3, 0) = 3/2, better than r's 1
    result = default_registry().new_searcher(spec).search(TreeGame.from_text(CHANCE_TREE))
    assert (result.value, result.move) == (Fraction(3, 2), "l")


def test_a_searcher_without_chance_refuses_a_chance_tree() -> None:
    with pytest.raises(
        UnsupportedGameError,
        match=r"searcher 'textbook-alphabeta' cannot search 'tree': it cannot search games of "
        r"chance",
    ):
        TextbookAlphaBeta().search(TreeGame.from_text(CHANCE_TREE))


@settings(max_examples=30, deadline=None)
@given(tree=chance_subtrees(3))
def test_the_chance_searchers_find_the_oracle_value_of_random_chance_trees(tree: Subtree) -> None:
    game = TreeGame.from_text(write(tree))
    if not game.rules.chance:
        return
    assert check_game(game).is_exhaustive
    for spec in ("expectiminimax", "star1", "star2"):
        assert default_registry().new_searcher(spec).search(game).value == oracle(tree), spec


# ------------------------------------------------------------ several agents
THREE = (
    "A agent 0: l -> B, r -> C; B agent 1: x -> (3, 1, 0), y -> (0, 3, 1); "
    "C agent 1: z -> D; D agent 2: p -> (1, 1, 2), q -> (2, 0, 2)"
)


def test_a_tree_of_three_agents_has_one_utility_per_agent() -> None:
    game = TreeGame.from_text(THREE)
    rules = game.rules
    assert (rules.players, rules.utilities, rules.constant_sum, rules.result_range) == (
        3,
        True,
        4,
        (0, 3),
    )
    assert check_game(game).is_exhaustive
    for move in ("r", "z", "q"):
        game.play(move)
    assert game.result() == (2, 0, 2) and game.player_names[2] == "agent 2"


def test_a_single_number_in_a_tree_of_several_agents_is_the_first_agents_against_the_rest() -> None:
    game = TreeGame.from_text("agents 3; A agent 0: l -> 5, r -> B; B agent 1: x -> -2")
    game.play("l")
    assert game.result() == (5, -5, -5)


def test_a_two_agent_tree_with_one_utility_each_is_not_zero_sum() -> None:
    game = TreeGame.from_text("A max: l -> (1, 1), r -> B; B min: x -> (3, 0), y -> (0, 2)")
    assert (game.rules.players, game.rules.utilities, game.rules.constant_sum) == (2, True, None)
    assert check_game(game).is_exhaustive


def maxn_oracle(tree: Subtree) -> tuple[int, ...]:
    """Return max^n's utilities: each agent picks the first move best for itself."""
    if is_leaf(tree):
        return tree  # type: ignore[return-value]
    kind, children = tree  # type: ignore[misc]
    agent = int(str(kind).split()[1])
    found = [maxn_oracle(child) for _, child in children]
    return max(found, key=lambda utilities: utilities[agent])


def paranoid_oracle(tree: Subtree, root_agent: int) -> int:
    """Return the root agent's utility when every other agent minimises it."""
    if is_leaf(tree):
        return tree[root_agent]  # type: ignore[index,return-value]
    kind, children = tree  # type: ignore[misc]
    values = [paranoid_oracle(child, root_agent) for _, child in children]
    return max(values) if int(str(kind).split()[1]) == root_agent else min(values)


def agent_subtrees(depth: int, agent: int = 0) -> st.SearchStrategy[Subtree]:
    leaf = st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4))
    if depth == 0:
        return leaf  # type: ignore[return-value]
    inner = st.lists(agent_subtrees(depth - 1, (agent + 1) % 3), min_size=1, max_size=3).map(
        lambda found: (
            f"agent {agent}",
            tuple((f"m{index}", child) for index, child in enumerate(found)),
        )
    )
    return st.one_of(leaf, inner) if depth < 3 else inner  # type: ignore[return-value]


@settings(max_examples=30, deadline=None)
@given(tree=agent_subtrees(3))
def test_maxn_and_paranoid_equal_their_definitions_on_random_three_agent_trees(
    tree: Subtree,
) -> None:
    game = TreeGame.from_text(write(tree, agents=3))
    assert check_game(game).is_exhaustive
    maxn = default_registry().new_searcher("maxn").search(game)
    assert maxn.utilities == maxn_oracle(tree)
    assert default_registry().new_searcher("paranoid").search(game).value == paranoid_oracle(
        tree, 0
    )
