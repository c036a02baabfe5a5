"""``python -m benchmarks strength``: bounded matches at equal CPU time, rated by Elo."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from benchmarks import cli, strength, strength_report
from benchmarks.peers import players, uci
from gamesearch.arena import play_game
from gamesearch.game import Game
from gamesearch.plugins import default_registry
from gamesearch.rules import Outcome
from gamesearch.search.base import RootAnswer, SearchContext, Searcher


def test_a_game_capped_at_max_plies_stops_there_and_is_scored_a_draw() -> None:
    registry = default_registry()
    game = registry.new_game("connect4")
    searcher = registry.new_searcher("alphabeta:depth=1")
    record = play_game(game, searcher, searcher, max_plies=5)
    assert len(record.moves) == 5
    assert record.outcome is Outcome.DRAW and record.winner is None
    final = registry.new_game("connect4", record.final)
    assert not final.is_over() and final.ply == 5


def _likelihood(elo: float, results: list[tuple[float, float, float]]) -> float:
    """The log likelihood of ``elo``, each opponent with one virtual draw more, written out."""
    total = 0.0
    for rating, games, score in results:
        p = 1 / (1 + 10 ** ((rating - elo) / 400))
        wins, losses = score + 0.5, games + 1 - score - 0.5
        total += wins * math.log(p) + losses * math.log(1 - p)
    return total


@pytest.mark.parametrize(
    ("results", "near_parabola"),
    [
        ([(1350.0, 20.0, 15.5), (1800.0, 20.0, 4.5)], True),
        ([(1500.0, 10.0, 10.0)], False),  # all wins: still finite, far from a parabola
        ([(1320.0, 8.0, 0.0), (1600.0, 6.0, 3.0), (2000.0, 4.0, 1.0)], True),
    ],
)
def test_the_ladder_rating_is_where_the_likelihood_peaks(
    results: list[tuple[float, float, float]], near_parabola: bool
) -> None:
    elo, interval = strength_report.anchored_rating(results)
    grid = [1000 + step * 0.5 for step in range(3000)]
    best = max(grid, key=lambda candidate: _likelihood(candidate, results))
    assert abs(elo - best) <= 0.5
    # the interval from the curvature: the likelihood falls by z^2/2 at its ends where it is
    # near a parabola
    drop = _likelihood(elo, results) - _likelihood(elo + interval, results)
    if near_parabola:
        assert drop == pytest.approx(1.959964**2 / 2, rel=0.15)
    else:
        assert drop > 0


def test_an_even_score_against_one_opponent_rates_the_player_at_its_rating() -> None:
    elo, _ = strength_report.anchored_rating([(1700.0, 10.0, 5.0)])
    assert elo == pytest.approx(1700.0)


def test_deepening_stops_before_a_depth_expected_to_overrun_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [0.0]
    monkeypatch.setattr(players, "process_seconds", lambda _clock: clock[0])
    searched = []

    def search(depth: int) -> str:
        searched.append(depth)
        clock[0] += 0.01 * 4 ** (depth - 1)  # 0.01, 0.04, 0.16, ...
        return f"move at depth {depth}"

    answer, depth = players.deepen_within(0.1, "cpu", search, 10)
    # depth 2 was expected to end at 0.01 + 0.01 * 4 = 0.05; depth 3 at 0.05 + 0.04 * 4 > 0.1
    assert (answer, depth, searched) == ("move at depth 2", 2, [1, 2])
    clock[0] = 0.0
    assert players.deepen_within(0.0001, "cpu", search, 10)[1] == 1  # depth 1 always
    assert players.deepen_within(100.0, "cpu", search, 3)[1] == 3  # never past the deepest


def test_the_tricks_suite_plays_every_trick_alone_and_turns_each_off_in_turn() -> None:
    game = default_registry().new_game("connect4")
    matches = strength.plan(game, ["tricks"])
    offered = strength.offered_tricks(game)
    names = [name for name, _ in offered]
    assert "null move" not in names  # Connect Four declares zugzwang decisive
    assert [m.note for m in matches] == [
        "all tricks",
        "all tricks",
        *(f"{name} alone" for name in names),
        *(f"all but {name}" for name in names),
    ]
    assert [m.opponent for m in matches[:2]] == [strength.PLAIN_ENGINE, "iterative"]
    assert {m.opponent for m in matches[2:]} == {strength.PLAIN_ENGINE}
    everything = matches[0].player
    assert matches[1].player == everything
    plain = set(strength.PLAIN_ENGINE.split(":")[1].split(","))
    alone, all_but = matches[2 : 2 + len(offered)], matches[2 + len(offered) :]
    for match, (_, option) in zip(alone, offered, strict=True):
        assert set(match.player.split(":")[1].split(",")) == plain | {option}
    for match, (_, option) in zip(all_but, offered, strict=True):
        assert option not in match.player.split(":")[1].split(",")
        assert set(match.player.split(",")) | {option} == set(everything.split(","))


def _tiny_timed_match(clock: str) -> strength.Outcome:
    """Two games of Connect Four, 6 plies each, ``iterative`` against the plain engine."""
    registry = default_registry()
    return strength.play(
        registry.new_game("connect4"),
        strength.Match("tricks", "iterative", strength.PLAIN_ENGINE, "table"),
        registry=registry,
        seconds=0.01,
        clock=clock,
        games=2,
        seed=1,
        opening_plies=2,
        max_plies=6,
        advance=lambda _: None,
    )


def test_a_timed_match_reports_each_sides_processor_time_a_move() -> None:
    outcome = _tiny_timed_match("cpu")
    assert outcome.games == 2 and outcome.player_cpu_ms and outcome.opponent_cpu_ms
    row = strength_report.rows({"clock": "cpu", "matches": [outcome.as_dict()]})[0]
    assert row[-1] == f"{outcome.player_cpu_ms:.0f} / {outcome.opponent_cpu_ms:.0f}"
    # a match on the wall clock has no processor time to report
    wall = _tiny_timed_match("wall")
    assert wall.player_cpu_ms is None and wall.opponent_cpu_ms is None


def test_a_budget_replaces_the_specs_own_limits() -> None:
    spec = "engine:iterative=true,seconds=3,max_nodes=100,table=true"
    assert strength.with_budget(spec, 0.2, "cpu") == (
        "engine:iterative=true,table=true,seconds=0.2,clock=cpu"
    )
    assert strength.with_budget("iterative", 0.1, "wall") == "iterative:seconds=0.1,clock=wall"


def test_the_benchmark_command_hands_strength_to_its_own_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["strength", "--help"])
    assert stopped.value.code == 0
    assert "equal time per move" in capsys.readouterr().out
    assert cli.main(["strength", "connect4", "--games", "3"]) == cli.EXIT_USAGE
    assert "even number" in capsys.readouterr().err


def test_an_opponent_that_is_not_installed_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(uci, "find_program", lambda name: None)
    assert cli.main(["strength", "chess", "--only", "sunfish", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == []
    (skipped,) = data["skipped"]
    assert skipped["match"]["opponent"] == "sunfish"
    assert "'sunfish-uci' is not installed" in skipped["reason"]


def _check_bounded(data: dict[str, Any], max_plies: int) -> None:
    """Every match played its two games within the cap, and its numbers add up."""
    assert data["matches"], data
    for item in data["matches"]:
        assert item["wins"] + item["draws"] + item["losses"] == item["games"] == 2
        assert item["score"] == item["wins"] + item["draws"] / 2
        assert item["plies"] <= max_plies
        # the Elo difference has the sign of the score's lead
        assert math.copysign(1, item["elo"]) == math.copysign(1, item["score"] - 1) or (
            item["score"] == 1 and abs(item["elo"]) < 1e-6
        )


@pytest.mark.slow
def test_the_tricks_table_has_a_row_for_every_trick_alone_and_all_against_iterative(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "kalah.json"
    argv = ["kalah", "--suite", "tricks", "--games", "2", "--max-plies", "6"]
    argv += ["--seconds", "0.01", "--sprt", "0,50", "--save", str(saved), "--markdown"]
    for only in ("alone", " iterative all tricks"):
        assert cli.main(["strength", *argv, "--only", only]) == 0
        first = json.loads(saved.read_text())
        _check_bounded(first, 6)
        saved.rename(tmp_path / f"{len(only)}.json")
    capsys.readouterr()
    loaded = [str(tmp_path / f"{len(only)}.json") for only in ("alone", " iterative all tricks")]
    assert cli.main(["strength", "kalah", "--load", *loaded, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [name for name, _ in strength.offered_tricks(default_registry().new_game("kalah"))]
    notes = [(item["match"]["note"], item["match"]["opponent"]) for item in data["matches"]]
    plain = strength.PLAIN_ENGINE
    assert notes == [*((f"{name} alone", plain) for name in names), ("all tricks", "iterative")]
    # every row of the table: both sides' processor time a move, on the processor clock
    assert all(item["player_cpu_ms"] and item["opponent_cpu_ms"] for item in data["matches"])
    table = strength_report.markdown(data).splitlines()
    rows = [line for line in table if line.startswith("| tricks |")]
    assert len(rows) == len(notes) and all(" - " not in row.split("|")[-2] for row in rows)


@pytest.mark.slow
def test_tiny_matches_against_every_connect_four_opponent(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("easyAI")
    saved = tmp_path / "connect4.json"
    argv = ["connect4", "--suite", "peers", "mcts", "--games", "2", "--max-plies", "6"]
    argv += ["--seconds", "0.02", "--simulations", "30", "--save", str(saved)]
    assert cli.main(["strength", *argv]) == 0
    data = json.loads(saved.read_text())
    _check_bounded(data, 6)
    opponents = {item["match"]["opponent"] for item in data["matches"]}
    assert {"openspiel-mcts", "openspiel-alphabeta", "easyai-negamax", "mcts"} <= opponents
    assert "openspiel-mcts:simulations=30" in opponents
    assert data["skipped"] == []


@pytest.mark.slow
def test_tiny_matches_against_the_chess_engines_or_a_reason_each(tmp_path: Path) -> None:
    pytest.importorskip("chess")
    saved = tmp_path / "chess.json"
    argv = ["chess", "--games", "2", "--max-plies", "4", "--seconds", "0.05", "--ladder", "1350"]
    assert cli.main(["strength", *argv, "--only", "fish", "--save", str(saved)]) == 0
    data = json.loads(saved.read_text())
    played = {item["match"]["opponent"] for item in data["matches"]}
    skipped = {item["match"]["opponent"] for item in data["skipped"]}
    assert played | skipped == {"sunfish", "stockfish:elo=1350"} and not played & skipped
    if played:
        _check_bounded(data, 4)
    assert (data["stockfish_scale"] is not None) == ("stockfish:elo=1350" in played)


def test_openspiels_checkers_has_the_same_moves_as_ours_along_random_games() -> None:
    pytest.importorskip("pyspiel")
    import random

    from benchmarks.peers import bots

    registry = default_registry()
    chooser = random.Random(3)
    for _ in range(2):
        game = registry.new_game("checkers")
        while not game.is_over():
            _, state = bots.spiel_state(game)
            ours = {bots._steps(move)[0] for move in game.legal_moves()}
            theirs = {state.action_to_string(action) for action in state.legal_actions()}
            assert ours == theirs, game.to_text()
            move = chooser.choice(list(game.legal_moves()))
            # the peer's choice, jump by jump, comes back as the same move of ours
            steps = iter(bots._steps(move))
            chosen = bots.spiel_move(
                game, state, lambda s, steps=steps: bots._spiel_action(s, next(steps))
            )
            assert chosen == move
            game.push(move)


def test_saved_results_print_again_as_markdown_without_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = strength.Match("tricks", "engine:iterative=true,killers=true", "engine", "all | one")
    data = {
        "game": "connect4",
        "seconds": 0.1,
        "clock": "cpu",
        "games": 4,
        "max_plies": None,
        "opening_plies": 2,
        "seed": 1,
        "matches": [
            {
                "match": {
                    "suite": "tricks",
                    "player": match.player,
                    "opponent": "engine",
                    "note": match.note,
                    "timed": True,
                },
                "player": match.player,
                "opponent": "engine",
                "wins": 2,
                "draws": 1,
                "losses": 1,
                "elo": 88.2,
                "interval": 301.4,
                "plies": 35.5,
                "player_ms": 120.0,
                "opponent_ms": 110.0,
                "player_cpu_ms": 101.0,
                "opponent_cpu_ms": None,
                "capped": 0,
                "games": 4,
                "score": 2.5,
            }
        ],
        "stockfish_scale": None,
        "skipped": [],
    }
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(data))
    assert cli.main(["strength", "connect4", "--load", str(saved), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "connect4: 4 games a match, 0.1 s of processor time a move, seed 1:"
    assert lines[-1] == (
        "| tricks | all \\| one | engine | 2.5/4 (2-1-1) | +88 ± 301 | 36 | 120 / 110 | 101 / - |"
    )
    assert cli.main(["strength", "connect4", "--load", str(tmp_path / "none.json")]) == 2
    assert "cannot read the results" in capsys.readouterr().err
    # the same match saved twice (two seeds): the games add up, the interval narrows
    assert cli.main(["strength", "connect4", "--load", str(saved), str(saved), "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    (item,) = both["matches"]
    assert (item["wins"], item["draws"], item["losses"], item["score"]) == (4, 2, 2, 5.0)
    assert item["games"] == both["games"] == 8
    assert item["elo"] > 0 and item["interval"] < 301.4


def _past_openspiels_end() -> Any:
    """Return a seeded random game of checkers played until OpenSpiel's checkers calls it
    over (a draw after 40 moves without a capture) while this framework's plays on."""
    import random

    from benchmarks.peers import bots

    chooser = random.Random(11)
    game = default_registry().new_game("checkers")
    while not game.is_over() and not bots.spiel_state(game)[1].is_terminal():
        game.push(chooser.choice(list(game.legal_moves())))
    assert not game.is_over()  # (the seed is chosen so: the two rules part here)
    return game


class _Replay(Searcher):
    """Plays the moves of :attr:`line` in turn (the position's ply picks the move)."""

    name: ClassVar[str] = "replay"
    line: ClassVar[Sequence[Any]] = ()

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        context.count_node(game)
        move = self.line[len(game.history)]
        return context.answer(game, 0, [move], [(move, 0)])


def test_a_game_openspiels_checkers_calls_a_draw_is_adjudicated_a_draw_against_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("pyspiel")
    from benchmarks.peers import bots

    game = _past_openspiels_end()
    assert bots.spiel_end(game) is Outcome.DRAW
    # one move on, OpenSpiel has no state to search: said so, not as a missing move
    game.push(next(iter(game.legal_moves())))
    with pytest.raises(RuntimeError, match=r"OpenSpiel's checkers ended the game after \d+ plies"):
        bots.spiel_state(game)
    # a match against OpenSpiel ends the game there, a draw, by the player's adjudicator
    game.undo()
    monkeypatch.setattr(_Replay, "line", tuple(game.history))
    adjudicate = bots.SpielAlphaBeta().adjudicator(default_registry().new_game("checkers"))
    assert adjudicate is not None
    record = play_game(
        default_registry().new_game("checkers"),
        _Replay(),
        _Replay(),
        adjudicate=adjudicate,
    )
    assert record.outcome is Outcome.DRAW and len(record.moves) == len(game.history)
    assert bots.SpielAlphaBeta().adjudicator(default_registry().new_game("connect4")) is None
