"""Every subcommand works on every registered game (plugins included)."""

from __future__ import annotations

import io
import json
import re

import pytest
from clirun import run_cli

from gamesearch import capabilities
from gamesearch.cli import analyze
from gamesearch.plugins import default_registry
from gamesearch_games.openspiel import is_bridged

#: every registered game but OpenSpiel's (tests/test_openspiel_games.py runs those)
GAMES = [name for name in default_registry().games if not is_bridged(name)]
#: the searchers with a depth limit that search a game of chance, and those that search the others
CHANCE_DEPTH = ("expectiminimax", "star1", "star2", "chance-iterative")
PLAIN_DEPTH = (
    "minimax",
    "alphabeta",
    "iterative",
    "pvs",
    "mtdf",
    "solver",
    "engine",
    "textbook-minimax",
    "textbook-alphabeta",
    "pns",
    "dfpn",
)
#: the games whose results are one utility per player (searched by max^n and its kin)
UTILITIES = {name for name in GAMES if default_registry().games[name].new().rules.utilities}


def has_chance(game: str) -> bool:
    return default_registry().games[game].new().rules.chance


def engine(game: str, depth: int) -> str:
    """Return a depth-limited searcher for ``game``: alpha-beta, Star2 in a game of chance
    (which alpha-beta refuses), max^n in a game with utilities."""
    name = "maxn" if game in UTILITIES else "star2" if has_chance(game) else "alphabeta"
    return f"{name}:depth={depth}"


#: games whose random playouts run hundreds of plies (chess): compared without MCTS,
#: whose thousand playouts would take most of a minute
LONG_PLAYOUTS = {"chess"}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_compare_with_a_depth_limit_agrees_with_minimax(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    searchers = []
    if game in LONG_PLAYOUTS:
        searchers = ["--searchers", ",".join(PLAIN_DEPTH)]
    status, out, err = run_cli(capsys, "compare", game, "--depth", "2", "--json", *searchers)
    assert status == 0, err
    rows = json.loads(out)["rows"]
    if game in UTILITIES:  # max^n is the reference; paranoid and BRS answer another question
        assert {row["searcher"].split(":")[0] for row in rows} == {
            "maxn",
            "paranoid",
            "brs",
            "mcts",
        }
        assert all(
            row["agrees"] is (True if row["searcher"].startswith("maxn") else None) for row in rows
        )
        return
    with_depth = CHANCE_DEPTH if has_chance(game) else PLAIN_DEPTH
    assert {row["searcher"].split(":")[0] for row in rows} >= set(with_depth[:3])
    depth_limited = [row for row in rows if row["searcher"].split(":")[0] in with_depth]
    assert all(row["agrees"] for row in depth_limited)
    # a searcher without a depth limit (MCTS) is not checked against a depth-limited reference
    assert all(
        row["agrees"] is None for row in rows if row not in depth_limited and not row["gave_up"]
    )


@pytest.mark.parametrize("game", GAMES)
def test_tree_counts_match_the_searcher_on_every_game(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    status, out, err = run_cli(capsys, "tree", game, "--depth", "2", "--format", "json")
    assert status == 0, err
    data = json.loads(out)
    assert data["nodes"] == data["stats"]["nodes"] == data["recorded"] > 1


@pytest.mark.parametrize("game", GAMES)
def test_match_plays_every_game_to_the_end(capsys: pytest.CaptureFixture[str], game: str) -> None:
    seats = default_registry().games[game].new().rules.players
    more = [arg for _ in range(seats - 2) for arg in ("--seat", engine(game, 1))]
    status, out, err = run_cli(
        capsys,
        "match",
        game,
        "--first",
        engine(game, 2),
        "--second",
        engine(game, 1),
        *more,
        "--games",
        "2",
        "--swap",
        "--seed",
        "1",
        "--json",
    )
    assert status == 0, err
    standings = json.loads(out)["standings"]
    assert [entry["games"] for entry in standings] == [2] * max(2, seats)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_play_lets_two_engines_finish_every_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status, out, err = run_cli(
        capsys, "play", game, "--human", "none", "--opponent", engine(game, 2), "--seed", "1"
    )
    assert status == 0, err
    assert "Game over: " in out


@pytest.mark.parametrize("game", GAMES)
def test_play_answers_unreadable_input_on_every_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("not a move at all\nquit\n"))
    status, out, err = run_cli(capsys, "play", game, "--opponent", engine(game, 1))
    assert status == 0, err
    assert "'not a move at all'" in out and out.count("to move:") == 2


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_plain_analyze_caps_the_default_searchers_time_on_every_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    # budgets small enough that no game's start but the smallest is finished in them
    monkeypatch.setattr(analyze, "EXACT_SECONDS", 0.05)
    monkeypatch.setattr(analyze, "FALLBACK_SECONDS", 0.05)
    own = capabilities.default_searcher(default_registry().games[game])
    if own is not None and default_registry().new_searcher(own).seconds is not None:
        pytest.skip(f"{game}'s default searcher names its own time: {own}")
    status, out, err = run_cli(capsys, "analyze", game)
    assert status == 0, err
    gave_up = re.search(r"(\S+) gave up after (.*?), so .* answered within 0.05 s", out)
    if gave_up is not None:  # the searcher that gives up names the time that ran out
        assert gave_up.group(2) == "0.05 s", out
    else:  # it finished, or answers in time itself: within both budgets
        searched = re.search(r"Searcher \S+: .*, (\d+\.\d+) s \(", out)
        assert searched is not None, out
        # 0.1 s of budget in all: a search capped by nodes alone takes seconds
        assert float(searched.group(1)) < 1.0, out
