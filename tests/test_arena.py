"""Searchers playing each other: single games and matches."""

from __future__ import annotations

import pytest

from gamesearch import AlphaBeta, Minimax, Outcome, Player, Scoring
from gamesearch.arena import play_game, play_match, searcher_label
from gamesearch_games.tictactoe import TicTacToe


def test_a_game_between_perfect_searchers_is_a_draw_and_the_record_replays() -> None:
    game = TicTacToe()
    record = play_game(game, Minimax(), AlphaBeta())
    assert record.outcome is Outcome.DRAW and record.winner is None
    assert record.players == ("minimax", "alphabeta")
    assert game.history == ()  # the caller's position is untouched
    replay = TicTacToe()
    for move in record.moves:
        assert replay.to_move() is move.player
        replay.play(move.move)
    assert replay.to_text() == record.final
    assert all(move.nodes > 0 and not move.is_random for move in record.moves)


def test_opening_moves_are_random_from_the_seed_and_repeat_with_it() -> None:
    openings = set()
    for seed in range(6):
        record = play_game(TicTacToe(), AlphaBeta(), AlphaBeta(), opening_plies=2, seed=seed)
        again = play_game(TicTacToe(), AlphaBeta(), AlphaBeta(), opening_plies=2, seed=seed)
        assert [move.move for move in record.moves] == [move.move for move in again.moves]
        assert [move.is_random for move in record.moves[:3]] == [True, True, False]
        assert record.moves[0].nodes == 0
        openings.add(tuple(move.move for move in record.moves[:2]))
    assert len(openings) > 1


def test_the_side_with_a_forced_win_wins_and_on_move_sees_every_move() -> None:
    seen = []
    record = play_game(
        TicTacToe.from_text("XX./OO./..."), AlphaBeta(), Minimax(), on_move=seen.append
    )
    assert record.outcome is Outcome.FIRST_WINS
    assert record.winner == "alphabeta"
    assert [move.move for move in record.moves] == ["2"]
    assert seen == list(record.moves)
    assert record.as_dict()["moves"][0]["player"] == "first"


def test_a_match_between_minimax_and_alphabeta_is_all_draws_with_colours_swapped() -> None:
    match = play_match(TicTacToe(), Minimax(), AlphaBeta(), games=4, swap=True, seed=3)
    assert match.a_first == (True, False, True, False)
    assert [record.players[0] for record in match.games] == ["minimax", "alphabeta"] * 2
    minimax, alphabeta = match.standings()
    assert (minimax.draws, minimax.wins, minimax.losses) == (4, 0, 0)
    assert (alphabeta.draws, alphabeta.games) == (4, 4)
    assert minimax.mean_nodes > alphabeta.mean_nodes > 0
    assert match.as_dict()["standings"][0]["label"] == "minimax"


def test_a_match_repeats_with_its_seed_and_its_games_differ() -> None:
    def lines(seed: int) -> list[tuple[str, ...]]:
        match = play_match(TicTacToe(), AlphaBeta(), AlphaBeta(), games=5, seed=seed)
        return [tuple(move.move for move in record.moves) for record in match.games]

    assert lines(7) == lines(7)
    assert len(set(lines(7))) > 1


def test_match_standings_count_wins_for_the_right_searcher() -> None:
    start = TicTacToe.from_text("XX./OO./...")
    match = play_match(start, AlphaBeta(), AlphaBeta(depth=1), games=2, swap=True, opening_plies=0)
    strong, weak = match.standings()
    # the first player (X) wins at once whoever it is
    assert (strong.wins, strong.losses, weak.wins, weak.losses) == (1, 1, 1, 1)
    assert match.games[1].winner == "alphabeta:depth=1"
    assert match.games[0].outcome.winner is Player.FIRST


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"games": -1}, "number of games must be >= 0: -1"),
        ({"opening_plies": -2}, "number of opening plies must be >= 0: -2"),
    ],
)
def test_a_match_rejects_negative_counts(arguments: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        play_match(TicTacToe(), AlphaBeta(), AlphaBeta(), **arguments)


def test_searcher_labels_name_the_options_that_differ_from_the_defaults() -> None:
    assert searcher_label(AlphaBeta()) == "alphabeta"
    assert searcher_label(AlphaBeta(seed=4)) == "alphabeta"
    label = searcher_label(AlphaBeta(scoring=Scoring.PLAIN, depth=3, table=True))
    assert label == "alphabeta:scoring=plain,depth=3,table=true"
