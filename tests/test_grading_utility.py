"""The textbook's numbers: utility scoring (a finished game is worth its result), the default of
explicit trees, read the same by every searcher, the commands, the web API and the grader.

The oracle is a minimax over the parsed tree's nodes written here, in the textbook's own
terms (a leaf is worth its utility, a node at the horizon its evaluation, on one scale),
independent of every searcher.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli

from gamesearch.plugins import default_registry
from gamesearch.rules import Scoring
from gamesearch.search.base import Searcher
from gamesearch.testing.grading import Case, grade
from gamesearch_games.tree import AIMA_FIGURE_5_2, Tree, TreeGame

ROOT = Path(__file__).resolve().parent.parent

#: the searchers of one first-player value (games without chance)
SEARCHERS = sorted(
    name
    for name, cls in default_registry().searchers.items()
    if cls.needs_single_value and cls.needs_no_chance and not name.startswith("reference-uct")
)


def textbook_value(tree: Tree, node: int, depth: int | None) -> int:
    """Return AIMA's H-MINIMAX value of ``node``: its utility at a leaf, its evaluation at
    the horizon, else the largest (MAX) or smallest (MIN) value of its children."""
    here = tree.nodes[node]
    if here.is_leaf:
        assert isinstance(here.utility, int)
        return here.utility
    if depth == 0:
        assert isinstance(here.evaluation, int)
        return here.evaluation
    values = [
        textbook_value(tree, child, None if depth is None else depth - 1) for child in here.children
    ]
    return max(values) if here.agent == 0 else min(values)


def new_searcher(name: str, **options: Any) -> Searcher:
    return default_registry().new_searcher(name, **options)


def test_the_tree_game_scores_by_utility_and_the_others_by_distance() -> None:
    assert TreeGame().rules.scoring is Scoring.UTILITY
    assert default_registry().new_game("tictactoe", None).rules.scoring is Scoring.DISTANCE


@pytest.mark.parametrize("name", SEARCHERS)
def test_every_searcher_reads_figure_5_2_as_3(name: str) -> None:
    game = TreeGame.from_text(AIMA_FIGURE_5_2)
    assert textbook_value(game.tree, 0, None) == 3  # the oracle, as AIMA works it out
    result = new_searcher(name).search(game, move_values=True)
    assert (result.value, result.best_moves, result.margin) == (3, ("a1",), 3), result
    assert result.score.words() == "MAX wins by 3"
    if result.move_values is not None and result.move_values_exact:
        assert dict(result.move_values) == {"a1": 3, "a2": 2, "a3": 2}
    assert game.to_text() == TreeGame.from_text(AIMA_FIGURE_5_2).to_text()  # left as it was


@pytest.mark.parametrize("name", ["minimax", "alphabeta", "pvs", "engine", "textbook-minimax"])
def test_a_searcher_told_distance_uses_the_frameworks_scale_on_a_tree(name: str) -> None:
    result = new_searcher(name, scoring="distance").search(TreeGame.from_text(AIMA_FIGURE_5_2))
    # a win by 3 two plies deep: (3 - 1) * (2 + 1) + 1000 - 2
    assert (result.value, result.margin) == (1004, 3)


@pytest.mark.parametrize(
    "name", ["minimax", "alphabeta", "pvs", "mtdf", "solver", "engine", "iterative"]
)
def test_utility_scoring_reads_tictactoe_as_win_draw_or_loss(name: str) -> None:
    positions = {"X../.O./..X": 0, "XX./OO./...": 1, "XX./OO./..X": -1, "XOX/OXO/...": 1}
    for text, outcome in positions.items():
        game = default_registry().new_game("tictactoe", text)
        result = new_searcher(name, scoring="utility").search(game)
        distance = new_searcher(name).search(game)
        assert (result.value, result.margin) == (outcome, outcome), (name, text, result)
        # without the distance a slow and a fast loss tie: distance's best moves stay best
        assert set(distance.best_moves) <= set(result.best_moves) or not result.best_moves_complete


def random_tree(rng: random.Random, depth: int) -> str:
    """Return a random two-player tree with evaluations on every inner node."""
    lines, count = [], 0

    def node(level: int, kind: str) -> str:
        nonlocal count
        count += 1
        name = f"N{count}"
        moves = []
        for index in range(rng.randint(1, 3)):
            if level + 1 >= depth or rng.random() < 0.25:
                target = str(rng.randint(-9, 9))
            else:
                target = node(level + 1, "min" if kind == "max" else "max")
            moves.append(f"m{index} -> {target}")
        lines.append(f"{name} {kind} eval {rng.randint(-9, 9)}: {', '.join(moves)}")
        return name

    node(0, "max")
    return "\n".join(reversed(lines))  # the root first


@pytest.mark.parametrize(
    "name", ["minimax", "alphabeta", "iterative", "textbook-minimax", "textbook-alphabeta"]
)
def test_at_a_horizon_evaluations_and_utilities_share_one_scale(name: str) -> None:
    rng = random.Random(5)
    for _ in range(40):
        game = TreeGame.from_text(random_tree(rng, 4))
        for depth in (1, 2, 3):
            result = new_searcher(name, depth=depth).search(game)
            assert result.value == textbook_value(game.tree, 0, depth), (game.to_text(), depth)


def test_analyze_tree_and_the_web_read_figure_5_2_as_3(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "analyze", "tree", "--json")
    answer = json.loads(out)
    assert status == 0 and (answer["value"], answer["margin"], answer["best_moves"]) == (
        3,
        3,
        ["a1"],
    )
    status, out, _ = run_cli(capsys, "analyze", "tree")
    assert "Value 3: MAX wins by 3." in out
    status, out, _ = run_cli(capsys, "tree", "tree", "--searcher", "textbook-alphabeta")
    assert status == 0 and "value 3 (MAX wins by 3), best a1" in out
    starlette = pytest.importorskip("starlette.testclient")
    from gamesearch.web.app import create_app

    with starlette.TestClient(create_app(), base_url="http://127.0.0.1") as client:
        board = client.post("/api/analyze", json={"game": "tree"}).json()
        assert (board["value"], board["best_moves"]) == (3, ["a1"])
        drawn = client.post("/api/tree", json={"game": "tree", "searcher": "textbook-alphabeta"})
        assert drawn.json()["value"] == 3


def test_the_grader_reads_figure_5_2_as_3_and_takes_a_students_raw_results() -> None:
    class RawResults(Searcher):
        """A student's minimax that returns game.result() at a leaf, as the textbook does."""

        name = "raw"

        def root(self, game: Any, context: Any) -> Any:
            def value(depth: int) -> int:
                context.count_node(game)
                if game.result() is not None:
                    return int(game.result())
                found = []
                for move in game.legal_moves():
                    game.push(move)
                    found.append(value(depth + 1))
                    game.undo()
                return max(found) if game.to_move() == 0 else min(found)

            context.count_node(game)
            values = []
            for move in game.legal_moves():
                game.push(move)
                values.append((move, value(1)))
                game.undo()
            best = max(v for _, v in values)
            return context.answer(game, best, [m for m, v in values if v == best], values)

    case = Case("AIMA Figure 5.2", TreeGame.from_text(AIMA_FIGURE_5_2))
    report = grade(RawResults, [case], "textbook-minimax")
    assert report.results[0].passed, report.results[0].output
    assert report.results[0].output.startswith("value 3, move a1")
