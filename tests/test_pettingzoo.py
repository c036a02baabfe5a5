"""gamesearch's games as PettingZoo AEC environments (gamesearch.interop.pettingzoo).

The oracles: PettingZoo's own ``api_test``; the game itself, played apart from the
environment with the same moves (legal moves, results); and tic-tac-toe's known value
(a draw), so an exact searcher as a policy never loses.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from gamesearch.errors import IllegalMoveError, InvalidOptionError, UnsupportedGameError  # noqa: E402
from gamesearch.interop.actions import EXTRA_ACTIONS  # noqa: E402
from gamesearch.interop.pettingzoo import (  # noqa: E402
    RandomPolicy,
    SearcherPolicy,
    env,
)
from gamesearch.plugins import default_registry  # noqa: E402
from gamesearch.rules import final_utilities  # noqa: E402

GAMES = ["tictactoe", "connect4", "othello", "kalah"]


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(name), num_cycles=60)


@pytest.mark.slow
@pytest.mark.parametrize("name", [*GAMES, "checkers"])
def test_pettingzoo_api_test_passes_over_a_thousand_cycles(name: str) -> None:
    api_test(env(name), num_cycles=1000)


def play_at_random(name: str, seed: int, **options: Any) -> None:
    """Play one random game in the environment and, beside it, in the game itself,
    checking the mask against the legal moves and the rewards against the result."""
    environment = env(name, **options)
    environment.reset(seed=seed)
    chooser = random.Random(seed)
    twin = default_registry().new_game(name, **options)
    for agent in environment.agent_iter():
        observation, _, termination, truncation, info = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        assert agent == f"player_{twin.to_move()}"
        legal = {twin.format_move(move) for move in twin.legal_moves()}
        allowed = np.flatnonzero(observation["action_mask"])
        assert {twin.format_move(environment.move_of(int(a))) for a in allowed} == legal
        assert len(allowed) == len(legal)  # one action per move
        action = int(chooser.choice(list(allowed)))
        twin.apply(environment.move_of(action))
        assert info["moves"] == tuple(twin.format_move(m) for m in twin.history[:-1])
        environment.step(action)
    utilities = final_utilities(twin)
    assert utilities is not None
    assert not environment.agents


@pytest.mark.parametrize("name", [*GAMES, "checkers"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_mask_allows_exactly_the_legal_moves_and_the_game_ends(name: str, seed: int) -> None:
    play_at_random(name, seed)


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_the_final_utilities_at_the_end_only(name: str) -> None:
    environment = env(name)
    environment.reset(seed=3)
    chooser = random.Random(3)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    while environment.game.result() is None:
        agent = environment.agent_selection
        mask = environment.observe(agent)["action_mask"]
        environment.step(int(chooser.choice(list(np.flatnonzero(mask)))))
        for other, reward in environment.rewards.items():
            totals[other] += reward
        if environment.game.result() is None:
            assert set(environment.rewards.values()) == {0.0}
    utilities = final_utilities(environment.game)
    assert utilities is not None
    assert [totals[agent] for agent in environment.possible_agents] == [float(u) for u in utilities]


def test_the_observation_shows_each_players_pieces_from_the_observer_first() -> None:
    environment = env("tictactoe")
    environment.reset()
    environment.step(4)  # X in the centre
    environment.step(0)  # O in the corner
    for_x = environment.observe("player_0")["observation"]
    for_o = environment.observe("player_1")["observation"]
    assert for_x.shape == (3, 3, 3)
    assert for_x[1, 1, 0] == 1 and for_x[0, 0, 1] == 1 and for_x.sum() == 2
    assert for_o[1, 1, 1] == 1 and for_o[0, 0, 0] == 1 and for_o.sum() == 2
    assert environment.observe("player_1")["action_mask"].sum() == 0  # not its turn
    assert environment.observe("player_0")["action_mask"].sum() == 7


def test_kalah_seeds_are_counts_in_the_last_plane() -> None:
    environment = env("kalah")
    environment.reset()
    planes = environment.observe("player_0")["observation"]
    game = environment.game
    assert planes[:, :, 2].sum() == sum(game._board)


def test_game_options_are_constructor_arguments() -> None:
    environment = env("tictactoe", rows=3, cols=4, k=3)
    environment.reset()
    assert environment.action_space("player_0").n == 12 + EXTRA_ACTIONS
    with pytest.raises(InvalidOptionError):
        env("tictactoe", colour="red")


def test_connect_four_has_one_action_per_column_on_the_top_row() -> None:
    environment = env("connect4")
    environment.reset()
    mask = environment.observe("player_0")["action_mask"]
    assert list(np.flatnonzero(mask)) == list(range(7))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    environment = env("tictactoe")
    environment.reset()
    environment.step(4)
    with pytest.raises(IllegalMoveError, match="action 4 is not legal"):
        environment.step(4)
    assert environment.game.history == (4,)


def test_a_game_without_a_grid_is_refused_with_the_reason() -> None:
    with pytest.raises(UnsupportedGameError, match="draws no board grid"):
        env("tree")


def test_checkers_moves_are_numbered_by_their_first_and_last_cells() -> None:
    environment = env("checkers")
    environment.reset()
    assert environment.action_space("player_0").n == 64 * 64 + EXTRA_ACTIONS
    view = environment.game.board_view()
    assert view is not None
    expected = {cells[0] * 64 + cells[-1] for _, cells in view.paths}
    assert set(np.flatnonzero(environment.observe("player_0")["action_mask"])) == expected


def test_alpha_beta_as_a_policy_never_loses_tic_tac_toe_to_a_random_agent() -> None:
    for seed in range(6):
        environment = env("tictactoe")
        environment.reset(seed=seed)
        engine = SearcherPolicy(environment, "alphabeta")
        randomly = RandomPolicy(seed)
        engine_agent = environment.possible_agents[seed % 2]
        policies = {engine_agent: engine}
        for agent in environment.agent_iter():
            observation, _, termination, truncation, info = environment.last()
            policy = policies.get(agent, randomly)
            environment.step(None if termination or truncation else policy.act(observation, info))
        final = final_utilities(environment.game)
        assert final is not None
        assert final[environment.possible_agents.index(engine_agent)] >= 0


@pytest.mark.docs
def test_the_docs_example_runs_and_alpha_beta_beats_the_random_agent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = (Path(__file__).parents[1] / "docs" / "pettingzoo.md").read_text(encoding="utf-8")
    [example] = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    exec(compile(example, "docs/pettingzoo.md", "exec"), {})
    assert capsys.readouterr().out.rstrip().endswith("(-1, 1)")
