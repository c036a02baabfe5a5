"""Round-robin tournaments: the schedule, results independent of workers, standings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import pytest

import gamesearch_games.tictactoe as tictactoe_plugin
from gamesearch import Game, InvalidOptionError, Searcher, UnknownSearcherError
from gamesearch.arena import MoveRecord
from gamesearch.plugins import build_registry, make_plugin_manager
from gamesearch.rules import Outcome
from gamesearch.search.base import RootAnswer, SearchContext
from gamesearch.tournament import PlayedGame, Tournament, run_tournament, schedule
from gamesearch_games.tictactoe import TicTacToe

PLAYERS = ["alphabeta:depth=1", "alphabeta", "mcts:simulations=60"]


def test_every_pair_meets_n_times_with_the_first_move_alternating() -> None:
    planned = schedule(players=3, games=3, seed=4)
    assert [game.number for game in planned] == list(range(9))
    meetings = Counter(frozenset((game.first, game.second)) for game in planned)
    assert sorted(meetings.values()) == [3, 3, 3]
    firsts = Counter((game.first, game.second) for game in planned)
    assert firsts[(0, 1)] == 2 and firsts[(1, 0)] == 1
    # the two games of a pairing share their opening, not their searcher seeds
    assert planned[0].opening_seed == planned[1].opening_seed != planned[2].opening_seed
    assert planned[0].searcher_seeds != planned[1].searcher_seeds
    assert schedule(players=3, games=3, seed=4) == planned
    assert schedule(players=3, games=3, seed=5) != planned


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        (1, 2, r"a tournament needs at least two players: 1"),
        (2, 0, r"games per pair must be >= 1: 0"),
    ],
)
def test_a_schedule_needs_two_players_and_one_game(players: int, games: int, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        schedule(players, games, seed=0)


def comparable(tournament: Tournament) -> list[Any]:
    """Return everything about the games except the times (which vary from run to run)."""
    return [
        (
            played.scheduled,
            played.record.outcome,
            [(move.move, move.nodes, move.value) for move in played.record.moves],
        )
        for played in tournament.played
    ]


def test_the_results_do_not_depend_on_the_number_of_workers() -> None:
    alone = run_tournament(TicTacToe(), PLAYERS, games=2, seed=7, workers=1)
    seen: list[PlayedGame] = []
    parallel = run_tournament(TicTacToe(), PLAYERS, games=2, seed=7, workers=2, on_game=seen.append)
    assert comparable(parallel) == comparable(alone)
    assert sorted(played.scheduled.number for played in seen) == list(range(6))
    tallies = [
        [
            (standing.wins, standing.draws, standing.losses, standing.nodes)
            for standing in run.standings()
        ]
        for run in (alone, parallel)
    ]
    assert tallies[0] == tallies[1]
    assert parallel.ratings() == alone.ratings()


def test_a_different_seed_plays_different_openings() -> None:
    one = run_tournament(TicTacToe(), PLAYERS[:2], games=4, seed=1)
    other = run_tournament(TicTacToe(), PLAYERS[:2], games=4, seed=2)
    assert comparable(one) != comparable(other)


def test_the_perfect_player_never_loses_from_the_empty_board() -> None:
    tournament = run_tournament(TicTacToe(), PLAYERS, games=2, seed=3, opening_plies=0)
    depth_one, perfect, mcts = tournament.standings()
    assert perfect.losses == 0 and perfect.games == 4
    assert depth_one.games == mcts.games == 4
    assert sum(standing.wins for standing in tournament.standings()) == sum(
        standing.losses for standing in tournament.standings()
    )
    assert all(len(played.record.moves) >= 5 for played in tournament.played)
    assert not any(move.is_random for played in tournament.played for move in played.record.moves)


def test_standings_count_searched_moves_nodes_and_time() -> None:
    tournament = run_tournament(TicTacToe(), PLAYERS[1:], games=2, seed=5, opening_plies=2)
    for standing in tournament.standings():
        assert standing.games == 2
        assert standing.moves > 0 and standing.nodes > 0 and standing.seconds > 0
    searched = sum(
        not move.is_random for played in tournament.played for move in played.record.moves
    )
    assert sum(standing.moves for standing in tournament.standings()) == searched


def _draw_after_three_moves(moves: Sequence[MoveRecord]) -> Outcome | None:
    """An adjudicator: every game is a draw once three moves are played."""
    return Outcome.DRAW if len(moves) >= 3 else None


@pytest.mark.parametrize("workers", [1, 2])
def test_an_adjudicator_ends_every_game_it_is_given(workers: int) -> None:
    tournament = run_tournament(
        TicTacToe(),
        PLAYERS[1:],
        games=2,
        seed=5,
        opening_plies=0,
        workers=workers,
        adjudicate=_draw_after_three_moves,
    )
    assert [len(played.record.moves) for played in tournament.played] == [3, 3]
    assert {played.record.outcome for played in tournament.played} == {Outcome.DRAW}


def test_equal_players_get_equal_ratings() -> None:
    tournament = run_tournament(TicTacToe(), ["alphabeta", "minimax"], games=4, seed=9)
    first, second = tournament.ratings()
    # both play perfectly: each pairing of games (same opening, colours swapped) is even
    assert first.elo == pytest.approx(0) and second.elo == pytest.approx(0)
    assert tournament.standings()[0].wins == tournament.standings()[0].losses


def test_a_searcher_seed_written_in_the_spec_is_kept() -> None:
    # Both players seeded in their specs and no random opening: the tournament seed,
    # which would otherwise seed the players, changes nothing.
    players = ["mcts:simulations=30,seed=4", "alphabeta:seed=8"]
    one = run_tournament(TicTacToe(), players, games=2, seed=1, opening_plies=0)
    other = run_tournament(TicTacToe(), players, games=2, seed=2, opening_plies=0)
    assert [entry[1:] for entry in comparable(one)] == [entry[1:] for entry in comparable(other)]
    unseeded = run_tournament(
        TicTacToe(), ["mcts:simulations=30", "alphabeta"], games=2, seed=1, opening_plies=0
    )
    assert comparable(unseeded) != comparable(one)


def test_the_json_data_lists_players_pairs_and_games() -> None:
    data = run_tournament(TicTacToe(), PLAYERS, games=2, seed=2).as_dict()
    assert data["game"] == "tictactoe" and data["seed"] == 2 and data["games_per_pair"] == 2
    assert [player["label"] for player in data["players"]] == PLAYERS
    assert sum(player["elo"] for player in data["players"]) == pytest.approx(0)
    assert all(player["elo_interval95"] > player["elo_error"] > 0 for player in data["players"])
    assert len(data["pairs"]) == 3 and all(pair["games"] == 2 for pair in data["pairs"])
    assert [game["number"] for game in data["games"]] == list(range(6))


@pytest.mark.parametrize(
    ("players", "options", "error", "message"),
    [
        (
            ["alphabeta", "alphabeta"],
            {},
            InvalidOptionError,
            r"each player must differ; repeated: 'alphabeta'",
        ),
        (["alphabeta", "nosuch"], {}, UnknownSearcherError, r"unknown searcher 'nosuch'"),
        (
            ["alphabeta", "mcts:simulations=0"],
            {},
            InvalidOptionError,
            r"'simulations' must be >= 1: 0",
        ),
        (
            ["alphabeta", "minimax"],
            {"workers": 0},
            InvalidOptionError,
            r"number of workers must be >= 1: 0",
        ),
        (
            ["alphabeta", "minimax"],
            {"opening_plies": -1},
            InvalidOptionError,
            r"opening plies must be >= 0: -1",
        ),
        (["alphabeta"], {}, InvalidOptionError, r"a tournament needs at least two players: 1"),
    ],
)
def test_bad_tournaments_are_refused_before_any_game(
    players: list[str], options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        run_tournament(TicTacToe(), players, **options)


@attrs.frozen(kw_only=True)
class FirstMoveSearcher(Searcher):
    """Plays the first legal move (a searcher no plugin registers)."""

    name: ClassVar[str] = "first-move"

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.count_node(game)
        move = game.legal_moves()[0]
        return context.answer(game, 0, [move], [(move, 0)])


def test_worker_processes_use_the_registry_they_are_given() -> None:
    registry = build_registry(make_plugin_manager(plugins=[tictactoe_plugin], entry_points=False))
    registry.add_searcher(FirstMoveSearcher)
    game = registry.new_game("tictactoe")
    local = run_tournament(game, ["first-move", "alphabeta"], games=2, registry=registry)
    pooled = run_tournament(
        game, ["first-move", "alphabeta"], games=2, registry=registry, workers=2
    )
    assert [played.record.as_dict() | {"moves": None} for played in pooled.played] == [
        played.record.as_dict() | {"moves": None} for played in local.played
    ]
