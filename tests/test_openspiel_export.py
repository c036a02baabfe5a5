"""gamesearch's games as OpenSpiel games (gamesearch.interop.openspiel).

The oracles: OpenSpiel's own random-simulation check (``pyspiel.random_sim_test``),
OpenSpiel's own minimax (``pyspiel.alpha_beta_search``) against tic-tac-toe's known
value (a draw), and the game itself played beside the OpenSpiel state.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import minimax  # noqa: E402

from gamesearch.errors import UnsupportedGameError  # noqa: E402
from gamesearch.interop.actions import EXTRA_ACTIONS  # noqa: E402
from gamesearch.interop.openspiel import load_game, register  # noqa: E402
from gamesearch.plugins import default_registry  # noqa: E402
from gamesearch.rules import final_utilities  # noqa: E402

GAMES = ["tictactoe", "connect4", "othello", "kalah", "checkers"]


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_openspiels_random_simulation_check_passes(name: str) -> None:
    pyspiel.random_sim_test(load_game(name), num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_the_state_follows_the_game_move_for_move(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state()
    twin = default_registry().new_game(name)
    chooser = random.Random(5)
    while not state.is_terminal():
        assert state.current_player() == twin.to_move()
        actions = state.legal_actions()
        assert actions == sorted(actions)
        assert sorted(state.action_to_string(a) for a in actions) == sorted(
            twin.format_move(move) for move in twin.legal_moves()
        )
        action = chooser.choice(actions)
        twin.apply(twin.parse_move(state.action_to_string(action)))
        state.apply_action(action)
    assert final_utilities(twin) == tuple(int(value) for value in state.returns())


def test_pyspiel_load_game_finds_a_registered_game_by_name() -> None:
    name = register("tictactoe")
    assert name == "gamesearch_tictactoe"
    game = pyspiel.load_game(name)
    assert game.num_distinct_actions() == 9 + EXTRA_ACTIONS
    assert game.max_game_length() == 9


@pytest.mark.parametrize("opening", ["0 4 8", "4 1 0 8", "4 0 2 6"])
def test_openspiels_alpha_beta_agrees_with_the_solver_on_tic_tac_toe(opening: str) -> None:
    game = load_game("tictactoe")
    state = game.new_initial_state()
    position = default_registry().new_game("tictactoe")
    for text in opening.split():
        [action] = [a for a in state.legal_actions() if state.action_to_string(a) == text]
        state.apply_action(action)
        position.play(text)
    value, _ = minimax.alpha_beta_search(game, state=state)
    solved = default_registry().new_searcher("solver").search(position)
    assert value == solved.margin


def test_game_options_are_openspiel_parameters() -> None:
    game = load_game("tictactoe", rows=3, cols=4, k=3)
    assert game.num_distinct_actions() == 12 + EXTRA_ACTIONS


@pytest.mark.parametrize(
    ("name", "reason"), [("pig", "has chance"), ("tree", "draws no board grid")]
)
def test_a_game_the_bridge_cannot_express_is_refused_with_the_reason(
    name: str, reason: str
) -> None:
    with pytest.raises(UnsupportedGameError, match=reason):
        load_game(name)


@pytest.mark.docs
def test_the_docs_example_runs_and_prints_what_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).parents[1] / "docs" / "openspiel.md").read_text(encoding="utf-8")
    [example] = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    exec(compile(example, "docs/openspiel.md", "exec"), {})
    assert capsys.readouterr().out.split() == ["0.0", "38"]
