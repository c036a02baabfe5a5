"""The explicit game tree of the coursework says who moves as tic-tac-toe does: a Player."""

from __future__ import annotations

from gamesearch.rules import CHANCE, Player
from gamesearch_games.tree import AIMA_FIGURE_5_2, TreeGame


def test_a_tree_of_two_agents_says_which_player_moves_with_a_sign() -> None:
    game = TreeGame.from_text(AIMA_FIGURE_5_2)
    assert game.to_move() is Player.FIRST and game.to_move().sign == 1  # type: ignore[attr-defined]
    game.push("a1")
    assert game.to_move() is Player.SECOND and game.to_move().sign == -1  # type: ignore[attr-defined]
    game.push("b1")  # a leaf: the player after the last who moved
    assert game.to_move() is Player.FIRST


def test_a_tree_of_three_agents_numbers_them_and_a_chance_node_is_chance() -> None:
    three = TreeGame.from_text("agents 3\nA agent 0: x -> B\nB agent 1: y -> C\nC agent 2: z -> 1")
    three.push("x")
    three.push("y")
    assert three.to_move() == 2 and not isinstance(three.to_move(), Player)
    gamble = TreeGame.from_text("A max: l -> C, r -> 1; C chance: h 1/2 -> 4, t 1/2 -> -2")
    gamble.push("l")
    assert gamble.to_move() == CHANCE
