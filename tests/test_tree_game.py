"""Explicit game trees: the text format, the AIMA Figure 5.2 answer, and every searcher on random trees."""

from __future__ import annotations

from pathlib import Path
from typing import Union

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesearch import default_registry
from gamesearch.errors import InvalidPositionError
from gamesearch.search.textbook import TextbookAlphaBeta, TextbookMinimax
from gamesearch.testing import check_game
from gamesearch_games.tree import TreeGame
from tests.clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent
AIMA_FILE = ROOT / "docs" / "coursework" / "trees" / "aima-figure-5-2.txt"
EXACT_SEARCHERS = ["textbook-minimax", "textbook-alphabeta", "textbook-alphabeta:root_window=shared,prune_on_equality=false",
                   "minimax", "alphabeta", "alphabeta:root_window=fresh,ordering=natural", "pvs", "solver"]  # fmt: skip

#: a test tree: a leaf's utility, or the mover ("max"/"min") and its (move, subtree) pairs
Subtree = Union[int, tuple[str, tuple[tuple[str, "Subtree"], ...]]]


def write(tree: Subtree) -> str:
    """Return ``tree`` in the text format, nodes named N0, N1, ... in the order written."""
    lines: list[str] = []

    def node(subtree: Subtree) -> str:
        if isinstance(subtree, int):
            return str(subtree)
        name = f"N{len(lines)}"
        lines.append("")
        index = len(lines) - 1
        kind, children = subtree
        lines[index] = f"{name} {kind}: " + ", ".join(f"{move} -> {node(child)}" for move, child in children)
        return name

    node(tree)
    return "\n".join(lines)


def oracle(tree: Subtree) -> int:
    """Return the minimax value of ``tree`` in utilities: max takes the largest, min the smallest."""
    if isinstance(tree, int):
        return tree
    kind, children = tree
    values = [oracle(child) for _, child in children]
    return max(values) if kind == "max" else min(values)


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
    assert (rules.max_plies, rules.players, rules.alternating, rules.result_range) == (3, 2, True, (-2, 5))
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
        ("A max: a -> B, b -> C; B min: x -> 1; C min: y -> B", r"node 'B' is reached from both 'A' and 'C'"),
        ("A max: a -> 1; Z min: x -> 2", r"node 'Z' cannot be reached from the root 'A'"),
        ("A max: a -> 1, a -> 2", r"node 'A' has two moves named 'a'"),
        ("A max: a -> 1; A min: b -> 2", r"node 'A' is defined twice"),
        ("A maximum: a -> 1", r"cannot read 'A maximum: a -> 1'"),
        ("A max: a => 1", r"node 'A': cannot read 'a => 1'"),
        ("A max eval 900: a -> 1", r"the evaluation of 'A' must lie strictly between -900 and 900: 900"),
        ("A max: a -> 1; at Q", r"'at Q': the tree has no node 'Q'"),
        ("A max: a -> (1, 2)", r"the utility of 'A.a' is '\(1, 2\)': a two-agent tree takes one integer"),
        ("# nothing", r"no node in the tree"),
        ("A max: a 1/2 -> 1", r"only a chance node's moves have probabilities"),
    ],
)
def test_a_malformed_tree_is_refused_with_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        TreeGame.from_text(text)


# ------------------------------------------------------- random trees, every searcher
@settings(max_examples=40, deadline=None)
@given(tree=subtrees(3))
def test_every_exact_searcher_finds_the_oracle_value_and_best_moves_of_random_trees(tree: Subtree) -> None:
    game = TreeGame.from_text(write(tree))
    kind, children = tree  # type: ignore[misc]
    values = {move: oracle(child) for move, child in children}
    best = oracle(tree)
    for spec in EXACT_SEARCHERS:
        plain = default_registry().new_searcher(spec, scoring="plain").search(game)
        assert plain.margin == best, spec
        assert set(plain.best_moves) == {move for move, value in values.items() if value == best}, spec
        assert default_registry().new_searcher(spec).search(game).margin == best, spec


@settings(max_examples=25, deadline=None)
@given(tree=subtrees(3))
def test_random_trees_keep_the_protocol_and_read_back_their_own_text(tree: Subtree) -> None:
    game = TreeGame.from_text(write(tree))
    assert check_game(game).is_exhaustive
    twin = TreeGame.from_text(game.to_text())
    assert (twin.to_text(), twin.key()) == (game.to_text(), game.key())
