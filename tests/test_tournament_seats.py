"""Tournaments of games with more than two players: the schedule, points by rank, the
pairwise results the ratings are fitted to, and the command line on three-player m,n,k."""

from __future__ import annotations

import itertools
import json
import math
import random
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from batchdata import timeless
from clirun import assert_usage_error, run_cli

from gamesearch import InvalidOptionError
from gamesearch.arena import GameRecord, MoveRecord
from gamesearch.batch import ResultStore
from gamesearch.batch.games import played_from_dict, played_to_dict, run_key
from gamesearch.errors import UnsupportedGameError
from gamesearch.plugins import default_registry
from gamesearch.rating import Result, fit_ratings
from gamesearch.rules import Outcome
from gamesearch.tournament import PlayedGame, ScheduledGame, Tournament, run_tournament, schedule

THREE = ["maxn:depth=2", "paranoid:depth=2", "brs:depth=2", "mcts:simulations=30"]
#: a 4x4 board with three in a row: games there are won and lost, not only drawn
BOARD = ("-o", "rows=4", "-o", "cols=4")
CLI = ("tournament", "mnk3", *BOARD, "--players", *THREE, "--seed", "3", "--json")


# ------------------------------------------------------------------ the schedule
@pytest.mark.parametrize(("players", "seats"), [(3, 3), (4, 3), (5, 3), (4, 4)])
def test_every_group_plays_every_seating_once_in_a_full_cycle(players: int, seats: int) -> None:
    orders = math.factorial(seats)
    planned = schedule(players, orders, seed=1, seats=seats)
    assert [game.number for game in planned] == list(range(len(planned)))
    by_group: dict[frozenset[int], list[tuple[int, ...]]] = {}
    for game in planned:
        by_group.setdefault(frozenset(game.seats), []).append(game.seats)
    # every set of `seats` players out of the field, and nothing else
    assert set(by_group) == {
        frozenset(group) for group in itertools.combinations(range(players), seats)
    }
    for group, seatings in by_group.items():
        assert sorted(seatings) == sorted(itertools.permutations(sorted(group)))  # each order once
    assert len(planned) == math.comb(players, seats) * orders


@pytest.mark.parametrize(
    ("players", "seats", "games"), [(3, 3, 3), (4, 3, 6), (4, 3, 9), (5, 4, 8)]
)
def test_a_multiple_of_the_seats_sits_every_player_equally_often_in_every_seat(
    players: int, seats: int, games: int
) -> None:
    planned = schedule(players, games, seed=2, seats=seats)
    sittings = Counter((player, seat) for game in planned for seat, player in enumerate(game.seats))
    per_group = games // seats  # each block of `seats` games puts each player once in each seat
    groups_of_a_player = math.comb(players - 1, seats - 1)
    assert set(sittings.values()) == {per_group * groups_of_a_player}
    assert len(sittings) == players * seats


def test_each_block_shares_its_opening_and_turns_the_seats_by_one() -> None:
    planned = schedule(3, 6, seed=5, seats=3)
    blocks = [planned[:3], planned[3:]]
    for block in blocks:
        assert len({game.opening_seed for game in block}) == 1
        first = block[0].seats
        assert [game.seats for game in block] == [first[turn:] + first[:turn] for turn in range(3)]
    assert blocks[0][0].opening_seed != blocks[1][0].opening_seed
    # the second block is the other cyclic order: who moves after whom is reversed
    assert blocks[0][0].seats == (0, 1, 2) and blocks[1][0].seats == (0, 2, 1)
    assert all(len(set(game.searcher_seeds)) == 3 for game in planned)
    assert schedule(3, 6, seed=5, seats=3) == planned != schedule(3, 6, seed=6, seats=3)


def two_player_schedule(
    players: int, games: int, seed: int
) -> list[tuple[int, int, int, int, int]]:
    """The two-player round robin as it has always been drawn: pairs a < b, in twos
    from one opening with the first move swapped, then two searcher seeds a game."""
    draw = random.Random(seed).randrange
    planned = []
    for a in range(players):
        for b in range(a + 1, players):
            for index in range(games):
                if index % 2 == 0:
                    opening = draw(1 << 32)
                first, second = (a, b) if index % 2 == 0 else (b, a)
                planned.append((first, second, opening, draw(1 << 32), draw(1 << 32)))
    return planned


@pytest.mark.parametrize(("players", "games", "seed"), [(2, 1, 0), (3, 4, 9), (5, 3, 12)])
def test_two_player_schedules_are_drawn_as_before(players: int, games: int, seed: int) -> None:
    planned = schedule(players, games, seed)
    assert [
        (game.first, game.second, game.opening_seed, *game.searcher_seeds) for game in planned
    ] == (two_player_schedule(players, games, seed))


@pytest.mark.parametrize(
    ("players", "games", "seats", "message"),
    [
        (2, 3, 3, r"a tournament needs at least three players: 2"),
        (3, 4, 4, r"a tournament needs at least four players: 3"),
        (4, 0, 3, r"the number of games per group must be >= 1: 0"),
        (4, 1, 1, r"a game of a tournament needs at least two seats: 1"),
    ],
)
def test_a_schedule_with_too_few_players_or_games_is_refused(
    players: int, games: int, seats: int, message: str
) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        schedule(players, games, seed=0, seats=seats)


# ------------------------------------------------------------------ points, standings, pairs
def record(
    labels: tuple[str, ...], utilities: tuple[int, ...], nodes: tuple[int, ...]
) -> GameRecord:
    """A finished game with one searched move a seat (``nodes[seat]`` nodes, 0.5 s each)."""
    moves = tuple(
        MoveRecord(ply, ply, str(ply), False, nodes[ply], 0.5) for ply in range(len(labels))
    )
    best = max(utilities)
    outcome = (
        Outcome.FIRST_WINS if utilities.count(best) == 1 and utilities[0] == best else Outcome.DRAW
    )
    return GameRecord("made", "start", labels, moves, outcome, "end", utilities)


LABELS = ("w", "x", "y", "z")
#: (seats, utilities): the hand-made games of a four-player field, three seats a game
MADE = [
    ((0, 1, 2), (3, 0, 0)),  # w wins alone
    ((1, 2, 0), (1, 1, 1)),  # a three-way draw
    ((3, 0, 1), (2, 1, 2)),  # z and x share the top, w last
    ((2, 3, 1), (0, 3, 1)),  # z first, x second, y last
]


def made_tournament() -> Tournament:
    played = []
    for number, (seats, utilities) in enumerate(MADE):
        labels = tuple(LABELS[player] for player in seats)
        nodes = tuple(10 * (player + 1) for player in seats)
        scheduled = ScheduledGame(number, seats, 0, (0, 0, 0))
        played.append(PlayedGame(scheduled, record(labels, utilities, nodes)))
    return Tournament("made", "start", LABELS, 1, 0, 0, tuple(played), seats=3)


def test_points_are_shared_by_rank_and_ties_share() -> None:
    tournament = made_tournament()
    # rank points worked out by hand: best alone 1, worst alone 0, middle 1/2; ties
    # share the points of the ranks they hold
    assert [tournament.played[0].score(player) for player in (0, 1, 2)] == [1, 0.25, 0.25]
    assert [tournament.played[1].score(player) for player in (1, 2, 0)] == [0.5, 0.5, 0.5]
    assert [tournament.played[2].score(player) for player in (3, 0, 1)] == [0.75, 0, 0.75]
    assert [tournament.played[3].score(player) for player in (2, 3, 1)] == [0, 1, 0.5]
    with pytest.raises(ValueError, match=r"player 3 does not play in game 0"):
        tournament.played[0].score(3)


def test_standings_add_up_points_utilities_moves_nodes_and_seconds() -> None:
    w, x, y, z = made_tournament().standings()
    assert [standing.games for standing in (w, x, y, z)] == [3, 4, 3, 2]
    assert [standing.points for standing in (w, x, y, z)] == [1.5, 2.0, 0.75, 1.75]
    assert [standing.mean_utility for standing in (w, x, y, z)] == [5 / 3, 1, 1 / 3, 5 / 2]
    # wins: alone at the top; draws: the top shared
    assert [(s.wins, s.draws, s.losses) for s in (w, x, y, z)] == [
        (1, 1, 1),
        (0, 2, 2),
        (0, 1, 2),
        (1, 1, 0),
    ]
    assert [(s.moves, s.nodes, s.seconds) for s in (w, x, y, z)] == [
        (3, 30, 1.5),
        (4, 80, 2.0),
        (3, 90, 1.5),
        (2, 80, 1.0),
    ]
    data = w.as_dict()
    assert (
        data["points"] == 1.5
        and data["mean_utility"] == pytest.approx(5 / 3)
        and "utility" not in data
    )


def test_the_ratings_are_fitted_to_every_pair_inside_every_game() -> None:
    tournament = made_tournament()
    # (a, b): games together, a's points against b, counted by hand from MADE
    expected = {
        (0, 1): (3, 1 + 0.5 + 0),
        (0, 2): (2, 1 + 0.5),
        (0, 3): (1, 0),
        (1, 2): (3, 0.5 + 0.5 + 1),
        (1, 3): (2, 0.5 + 0),
        (2, 3): (1, 0),
    }
    results = tournament.pair_results()
    assert {(r.a, r.b): (r.games, r.score) for r in results} == expected
    assert tournament.ratings() == fit_ratings(
        LABELS, [Result(a, b, *v) for (a, b), v in expected.items()]
    )
    elo = {rating.label: rating.elo for rating in tournament.ratings()}
    assert elo["z"] > elo["w"] > elo["y"] and sum(elo.values()) == pytest.approx(0)


def test_the_json_names_every_seat_its_utilities_and_the_group_size() -> None:
    data = made_tournament().as_dict()
    assert data["seats"] == 3 and data["games_per_group"] == 1 and "games_per_pair" not in data
    assert [player["points"] for player in data["players"]] == [1.5, 2.0, 0.75, 1.75]
    third = data["games"][2]
    assert (third["first"], third["second"], third["third"], third["utilities"]) == (
        "z",
        "w",
        "x",
        [2, 1, 2],
    )
    assert len(data["pairs"]) == 6


# ------------------------------------------------------------------ playing them
def test_a_three_player_tournament_plays_every_group_in_every_seat() -> None:
    game = default_registry().new_game("mnk3")
    tournament = run_tournament(game, THREE, seed=4)
    assert (
        tournament.games_per_pair == 3 and len(tournament.played) == 4 * 3
    )  # 4 groups of three, 3 games each
    for played in tournament.played:
        assert played.record.players == tuple(THREE[player] for player in played.scheduled.seats)
        assert played.record.utilities is not None and sum(played.record.utilities) == 3
        assert [move.is_random for move in played.record.moves[:3]] == [
            True,
            True,
            False,
        ]  # 2 opening plies
    assert [standing.games for standing in tournament.standings()] == [9, 9, 9, 9]
    # each game hands out 1 + 1/2 + 0 (the three ranks' points, shared on a tie): 3/2
    assert sum(standing.points for standing in tournament.standings()) == pytest.approx(12 * 1.5)


def test_too_few_players_for_the_seats_or_one_who_cannot_play_are_refused_before_any_game() -> None:
    game = default_registry().new_game("mnk3")
    with pytest.raises(
        InvalidOptionError,
        match=r"'mnk3' is a game of 3 players, so a tournament of it needs "
        r"at least 3 different searchers, one a seat: \['maxn', 'brs'\]",
    ):
        run_tournament(game, ["maxn", "brs"])
    with pytest.raises(
        UnsupportedGameError,
        match=r"searcher 'alphabeta' cannot search 'mnk3': it needs two players",
    ):
        run_tournament(game, ["maxn", "brs", "alphabeta"])


def test_the_command_line_tournament_reports_every_seat_and_rates_the_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, *CLI)
    assert status == 0, err
    data = json.loads(out)
    assert data["seats"] == 3 and data["games_per_group"] == 3 and len(data["games"]) == 12
    points = dict.fromkeys(THREE, 0.0)
    for game in data["games"]:  # the points worked out again from each game's utilities
        seated = [game[seat] for seat in ("first", "second", "third")]
        for me, mine in zip(seated, game["utilities"], strict=True):
            others = [
                theirs for who, theirs in zip(seated, game["utilities"], strict=True) if who != me
            ]
            points[me] += (
                sum(1 if mine > theirs else 0.5 if mine == theirs else 0 for theirs in others) / 2
            )
    assert {player["label"]: player["points"] for player in data["players"]} == points
    assert len({player["points"] for player in data["players"]}) > 1  # the 4x4 board decides games
    assert all(player["games"] == 9 and player["elo_interval95"] > 0 for player in data["players"])
    assert sum(player["elo"] for player in data["players"]) == pytest.approx(0)


def test_the_tables_show_points_and_mean_utility(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, *CLI[:-1])
    assert status == 0
    assert (
        "mnk3 round robin of 3-player games: 4 players, 3 games a group of three (12 games), seed 3"
        in out
    )
    assert (
        "mean utility" in out
        and "against the column player, in the games they played together" in out
    )
    assert "replay with: --seed 3 --games 3" in out


def test_two_workers_play_the_same_games_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    alone = json.loads(run_cli(capsys, *CLI)[1])
    parallel = json.loads(run_cli(capsys, *CLI, "--workers", "2")[1])
    assert timeless(parallel) == timeless(alone)


def test_a_stored_tournament_run_again_plays_nothing_new(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamesearch.tournament as tournament

    store = tmp_path / "seats.sqlite"
    first = json.loads(run_cli(capsys, *CLI, "--store", str(store))[1])
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT number, stored FROM games ORDER BY number").fetchall()
    assert [number for number, _ in rows] == list(range(12))

    def no_game(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a stored game was played again")

    monkeypatch.setattr(tournament, "_play_job", no_game)
    status, out, err = run_cli(capsys, *CLI, "--store", str(store))
    assert status == 0, err
    assert timeless(json.loads(out)) == timeless(first)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT number, stored FROM games ORDER BY number").fetchall() == rows


def test_a_store_written_before_seats_were_listed_is_read_back(tmp_path: Path) -> None:
    game = default_registry().new_game("tictactoe")
    players = ["alphabeta:depth=1", "alphabeta"]
    tournament = run_tournament(game, players, games=2, seed=8)
    run = run_key(
        "tournament",
        game="tictactoe",
        start=game.to_text(),
        players=players,
        games=2,
        seed=8,
        opening_plies=2,
    )
    with ResultStore(tmp_path / "old.sqlite") as store:
        for played in tournament.played:
            data = played_to_dict(played)
            seats = data["scheduled"].pop("seats")  # the two-player layout: first and second
            data["scheduled"] |= {"first": seats[0], "second": seats[1]}
            store.add_game(run, played.scheduled.number, data)
        back = {number: played_from_dict(data) for number, data in store.games(run).items()}
    assert [back[number] for number in range(2)] == list(tournament.played)
    again = run_tournament(
        game, players, games=2, seed=8, done=back, on_game=lambda played: pytest.fail("replayed")
    )
    assert again.played == tournament.played


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("--players", "maxn", "paranoid"),
            "'mnk3' is a game of 3 players: --players needs at least 3 searchers, one a seat: "
            "['maxn', 'paranoid']",
        ),
        (
            ("--players", "maxn", "paranoid", "alphabeta"),
            "searcher 'alphabeta' cannot search 'mnk3'",
        ),
        (("--players", *THREE, "--games", "0"), "--games must be >= 1: 0"),
    ],
)
def test_usage_errors_of_a_three_player_tournament_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "tournament", "mnk3", *argv)


def test_ctrl_c_prints_the_tables_of_the_games_played_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamesearch.tournament as tournament

    real, calls = tournament._play_job, []

    def interrupt_on_the_third(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "_play_job", interrupt_on_the_third)
    status, out, err = run_cli(capsys, *CLI[:-1])
    assert status == 130
    assert (
        "mnk3 round robin of 3-player games: 4 players, 3 games a group of three (2 games)" in out
    )
    assert "0/0" in out  # the last player has not met the others yet
    assert err.endswith(
        "gamesearch: interrupted after 2 of 12 games; the figures above are for those 2\n"
    )


@pytest.mark.slow  # matplotlib's import: tests/test_tournament_cli.py draws in the fast tier
def test_plot_draws_the_ratings_of_a_three_player_tournament(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "seats.png"
    status, out, err = run_cli(capsys, *CLI[:-1], "--games", "1", "--plot", str(chart))
    assert status == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG") and f"ratings chart saved to {chart}" in out


def test_the_help_says_how_groups_of_more_players_meet(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "tournament", "--help")
    assert status == 0
    assert "every group of N players meets GAMES times" in " ".join(out.split())
    assert "gamesearch tournament mnk3" in out


def test_on_a_tree_where_the_first_mover_takes_all_every_player_wins_its_first_seats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = tmp_path / "first.tree"
    tree.write_text("agents 3\nR agent 0: take -> (3, 0, 0), give -> (0, 3, 0)\n")
    players = ["maxn", "paranoid", "mcts:simulations=10", "maxn:pruning=false"]
    status, out, err = run_cli(
        capsys,
        "tournament",
        "tree",
        "--position",
        str(tree),
        "--players",
        *players,
        "--opening-plies",
        "0",
        "--seed",
        "2",
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    assert all(
        game["winner"] == game["first"] and game["utilities"] == [3, 0, 0] for game in data["games"]
    )
    # each player is in 3 groups of three, first once in each: 3 wins, 6 losses
    for player in data["players"]:
        assert (player["games"], player["wins"], player["losses"], player["points"]) == (
            9,
            3,
            6,
            3 + 6 * 0.25,
        )
        assert player["mean_utility"] == 1 and player["elo"] == pytest.approx(0, abs=1e-6)
