"""OpenSpiel's games as gamesearch games (the openspiel plugin): registration, rules, moves,
positions, chance, results, and the searchers against OpenSpiel's own minimax."""

from __future__ import annotations

import functools
import pickle
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli

import gamesearch.cli._common
import gamesearch_games.openspiel as plugin
from gamesearch import default_registry
from gamesearch.errors import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    UnsupportedGameError,
)
from gamesearch.plugins import build_registry, make_plugin_manager
from gamesearch.testing import check_game

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")
from gamesearch.interop.openspiel import PREFIX as EXPORTED  # noqa: E402
from gamesearch_games.openspiel.game import (  # noqa: E402
    OpenSpielGame,
    exact_probabilities,
    undo_works,
    whole_returns,
)

REGISTRY = default_registry()


def new(short_name: str, **options: Any) -> OpenSpielGame:
    game = REGISTRY.new_game(plugin.PREFIX + short_name, **options)
    assert isinstance(game, OpenSpielGame)
    return game


def sequential_perfect_information() -> set[str]:
    """Return the names of OpenSpiel's games of turns with perfect information, read here
    from its registry independently of the plugin (but for gamesearch's own games, which
    tests/test_openspiel_export.py hands to OpenSpiel in this process)."""
    kind = pyspiel.GameType
    return {
        found.short_name
        for found in pyspiel.registered_games()
        if found.dynamics == kind.Dynamics.SEQUENTIAL
        and found.information == kind.Information.PERFECT_INFORMATION
        and not found.short_name.startswith(EXPORTED)
    }


# ------------------------------------------------------------------------ registering
def test_every_sequential_perfect_information_game_is_registered_or_skipped_with_a_reason() -> None:
    found = plugin.catalogue()
    registered = {name.removeprefix(plugin.PREFIX) for name in found.games}
    assert registered | set(found.skipped) == sequential_perfect_information()
    assert not registered & set(found.skipped)
    assert {"tic_tac_toe", "hex", "breakthrough", "backgammon", "pig", "2048"} <= registered
    assert all(reason.strip() for reason in found.skipped.values())
    # a game read from a file cannot load without one
    assert "efg_game" in found.skipped
    assert set(found.games) <= set(REGISTRY.games)


def test_without_open_spiel_the_plugin_registers_nothing_and_games_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    missing = plugin.catalogue.__wrapped__()
    assert missing.games == {} and missing.missing is not None
    assert "gamesearch[openspiel]" in missing.missing
    monkeypatch.setattr(plugin, "catalogue", lambda: missing)
    registry = build_registry(make_plugin_manager(plugins=[plugin], entry_points=False))
    assert not any(plugin.is_bridged(name) for name in registry.games)
    monkeypatch.setattr(gamesearch.cli._common, "default_registry", lambda: registry)
    status, out, _ = run_cli(capsys, "games")
    assert status == 0
    assert "open_spiel does not import" in " ".join(out.split())


def test_parameters_are_options_with_their_types_and_defaults() -> None:
    hex_class = REGISTRY.game_class("openspiel.hex")
    options = {option.name: option for option in hex_class.options}
    assert (options["board_size"].type, options["board_size"].default) == (int, 11)
    assert (options["swap"].type, options["swap"].default) == (bool, False)
    komi = {option.name: option for option in REGISTRY.game_class("openspiel.go").options}["komi"]
    assert (komi.type, komi.default) == (float, 7.5)
    assert new("hex", board_size=5).rules.max_plies == 25
    assert new("hex", board_size=5).state.get_game().get_parameters()["board_size"] == 5
    with pytest.raises(InvalidOptionError, match="board_size"):
        new("hex", board_size="five")


# ------------------------------------------------------------------------------ rules
def test_rules_come_from_openspiel_game_info() -> None:
    tictactoe = new("tic_tac_toe").rules
    assert (tictactoe.players, tictactoe.chance, tictactoe.utilities) == (2, False, False)
    assert (tictactoe.result_range, tictactoe.max_plies) == ((-1, 1), 9)
    pig = new("pig").rules
    info = pyspiel.load_game("pig")
    assert (
        pig.chance and pig.max_plies == info.max_game_length() + info.max_chance_nodes_in_history()
    )
    game_2048 = new("2048").rules
    assert (game_2048.players, game_2048.utilities, game_2048.chance) == (1, True, True)
    assert game_2048.result_range == (0, int(pyspiel.load_game("2048").max_utility()))


def test_more_than_two_players_give_whole_utilities() -> None:
    game = new("pig", players=3, winscore=4, horizon=30)
    assert game.rules.utilities and game.rules.players == 3 and game.rules.constant_sum == 0
    # OpenSpiel gives the winner 1 and each loser -1/2: times 2, whole
    for move in ("stop", "roll", "Roll 5", "stop"):  # the second player wins with a 5
        game.play(move)
    assert game.result() == (-1, 2, -1)
    assert whole_returns([1.0, -0.5, -0.5], 2, lambda: "here") == (2, -1, -1)
    with pytest.raises(UnsupportedGameError, match="whole"):
        whole_returns([0.25, -0.25], 1, lambda: "here")


def test_margins_are_kept_where_the_returns_are_whole() -> None:
    game = new("dots_and_boxes", utility_margin=True)
    assert game.rules.result_range == (-4, 4)
    while game.result() is None:
        game.push(game.legal_moves()[-1])
    state = game.state
    assert game.result() == int(state.returns()[0]) and isinstance(game.result(), int)


# ------------------------------------------------------------------ moves and positions
def test_moves_are_written_in_openspiel_action_notation() -> None:
    game = new("tic_tac_toe")
    assert [game.format_move(move) for move in game.legal_moves()][:3] == [
        "x(0,0)",
        "x(0,1)",
        "x(0,2)",
    ]
    assert game.play("x(1,1)") == 4 and game.legal_moves()[0].text == "o(0,0)"
    with pytest.raises(InvalidMoveError, match="legal moves: o"):
        game.parse_move("x(1,1)")
    chess = new("chess")
    assert chess.play("e4").text == "e4" and chess.legal_moves()[0].text == "a6"
    with pytest.raises(InvalidMoveError, match="legal moves: a6"):
        chess.parse_move("e9")


def test_moves_keep_the_text_of_the_position_they_were_listed_in() -> None:
    # texts are written on first use: by the state the moves were listed in (chess's), or
    # by a clone of it (tic-tac-toe's, which undoes in place); once the game has moved on, a
    # move is still written as OpenSpiel writes it where it was listed (chess's pawn move
    # 'a3' is 'xa3' after 1.a3 a6)
    for short_name in ("chess", "tic_tac_toe"):
        game = new(short_name)
        moves = game.legal_moves()
        start = pyspiel.load_game(short_name).new_initial_state()
        expected = [start.action_to_string(start.current_player(), move) for move in moves]
        game.push(moves[0])
        game.push(game.legal_moves()[0])
        assert [move.text for move in moves] == expected
        assert pickle.loads(pickle.dumps(moves[0])).text == expected[0]


def test_positions_are_action_lists_and_openspiel_serialisations() -> None:
    game = new("connect_four")
    for text in ("x3", "o3", "x4"):
        game.play(text)
    assert game.to_text() == "3 3 4"
    assert new("connect_four").from_text("3 3 4").state.history() == [3, 3, 4]
    state = game.state
    assert type(game).from_text(state.serialize()).to_text() == "3 3 4"
    assert type(game).from_text(game.serialize()).to_text() == "3 3 4"
    _, twin = pyspiel.deserialize_game_and_state(game.serialize())
    assert twin.history() == [3, 3, 4]
    assert type(game).from_text("x3 o3").to_text() == "3 3"
    with pytest.raises(InvalidPositionError, match="move 2"):
        type(game).from_text("3 99")


def test_a_serialisation_of_another_game_is_refused() -> None:
    tictactoe = pyspiel.load_game("tic_tac_toe")
    text = pyspiel.serialize_game_and_state(tictactoe, tictactoe.new_initial_state())
    with pytest.raises(InvalidPositionError, match="tic_tac_toe"):
        REGISTRY.game_class("openspiel.connect_four").from_text(text)


def test_undo_uses_openspiel_undo_where_offered_and_a_clone_otherwise() -> None:
    with_undo, without = new("tic_tac_toe"), new("connect_four")
    assert undo_works(with_undo._bridge) and not undo_works(without._bridge)
    assert not undo_works(new("chess")._bridge)  # its undo leaves a trace once moves are written
    for game in (with_undo, without):
        before = str(game.state)
        game.push(game.legal_moves()[0])
        assert str(game.state) != before
        game.undo()
        assert str(game.state) == before and game.to_text() == ""


def test_copies_and_pickles_are_independent_positions() -> None:
    game = new("breakthrough", rows=5, columns=5)
    game.push(game.legal_moves()[2])
    twin, unpickled = game.copy(), pickle.loads(pickle.dumps(game))
    twin.push(twin.legal_moves()[0])
    assert game.to_text() == unpickled.to_text() != twin.to_text()
    assert pickle.loads(pickle.dumps(type(game))) is type(game)


# ----------------------------------------------------------------------------- chance
def test_chance_outcomes_are_exact_fractions_summing_to_one() -> None:
    game = new("pig")
    game.play("roll")
    outcomes = game.chance_outcomes()
    assert [probability for _, probability in outcomes] == [Fraction(1, 6)] * 6
    assert [move for move, _ in outcomes] == list(game.legal_moves())
    assert exact_probabilities([0.9, 0.1], lambda: "here") == (Fraction(9, 10), Fraction(1, 10))
    with pytest.raises(UnsupportedGameError, match="sum to 1"):
        exact_probabilities([0.5, 0.4], lambda: "here")


# ------------------------------------------------------------------ the conformance kit
SMALL_GAMES = {
    "tic_tac_toe": {},
    "nim": {"pile_sizes": "1;2"},
    "pig": {"winscore": 3, "horizon": 4, "diceoutcomes": 2},
    "hex": {"board_size": 2},
}


@pytest.mark.parametrize("short_name", sorted(SMALL_GAMES))
def test_the_kit_passes_on_small_openspiel_games(short_name: str) -> None:
    report = check_game(
        plugin.PREFIX + short_name, options=SMALL_GAMES[short_name], max_positions=120, playouts=2
    )
    assert report.positions > 0 and report.terminal > 0


# --------------------------------------------------- the searchers against OpenSpiel's own
def openspiel_value(game: OpenSpielGame) -> float:
    """Return OpenSpiel's own minimax value of ``game`` for the first player."""
    state = game.state
    if game.rules.chance:
        value, _ = minimax.expectiminimax(state, 1000, None, 0)
    else:
        value, _ = minimax.alpha_beta_search(
            state.get_game(), state, maximum_depth=1000, maximizing_player_id=0
        )
    return float(value)


# ------------------------------------------------------------------------ the docs page
PAGE = Path(__file__).resolve().parent.parent / "docs" / "openspiel-games.md"
#: the searches of the cross-check table: (game, options, position, searcher)
CROSS_CHECKS = [
    ("tic_tac_toe", {}, "", "solver"),
    ("tic_tac_toe", {}, "4 0 2", "solver"),
    ("tic_tac_toe", {}, "4 1", "alphabeta"),
    ("nim", {"pile_sizes": "1;2;3"}, "", "alphabeta"),
    ("nim", {"pile_sizes": "1;2;3", "is_misere": False}, "", "solver"),
    ("hex", {"board_size": 2}, "", "solver"),
    ("connect_four", {"rows": 4, "columns": 4}, "0 1 2 3 0 1 2 3", "solver"),
    ("pig", {"winscore": 4, "horizon": 4, "diceoutcomes": 3}, "", "expectiminimax"),
    ("pig", {"winscore": 3, "horizon": 6, "diceoutcomes": 2}, "", "star2"),
]


@functools.cache
def cross_check(index: int) -> tuple[str, str]:
    """Return the value gamesearch's searcher finds in the search ``CROSS_CHECKS[index]`` and
    OpenSpiel's own minimax's, as text."""
    short_name, options, moves, searcher = CROSS_CHECKS[index]
    game = REGISTRY.game_class(plugin.PREFIX + short_name).from_text(moves, **options)
    result = REGISTRY.new_searcher(searcher).search(game)
    expected = openspiel_value(game)
    if game.rules.chance:
        return f"{float(result.value):.6f}", f"{expected:.6f}"
    return str(game.rules.scale.margin(result.value)), str(round(expected))


def cross_check_table() -> str:
    rows = [
        "| game | options | position | searcher | gamesearch | OpenSpiel | agree |",
        "|---" * 7 + "|",
    ]
    for index, (short_name, options, moves, searcher) in enumerate(CROSS_CHECKS):
        ours, theirs = cross_check(index)
        written = ", ".join(f"{key}={value!s}".lower() for key, value in options.items())
        rows.append(
            f"| `{plugin.PREFIX + short_name}` | {written or 'defaults'} | {moves or 'start'} "
            f"| {searcher} | {ours} | {theirs} | {'yes' if ours == theirs else '**no**'} |"
        )
    return "\n".join(rows) + "\n"


def kind_words(rules: Any) -> str:
    low, high = rules.result_range
    if rules.players == 1:
        return f"one player, score {low}..{high}"
    if not rules.utilities:
        return f"first player's result {low}..{high}"
    total = "" if rules.constant_sum is None else f", sum {rules.constant_sum}"
    return f"one utility per player, {low}..{high}{total}"


def games_table() -> str:
    found = plugin.catalogue()
    rows = [
        "| game | players | chance | results | longest game (plies) | options (defaults) |",
        "|---" * 6 + "|",
    ]
    for name, cls in found.games.items():
        rules = cls.new().rules
        options = ", ".join(
            f"{option.name}={option.text(option.default)!s}" for option in cls.options
        )
        options = options.replace("|", "\\|").replace("\n", " ")
        rows.append(
            f"| `{name}` | {rules.players} | {'yes' if rules.chance else 'no'} | "
            f"{kind_words(rules)} | {rules.max_plies} | {options or 'none'} |"
        )
    rows += ["", "| OpenSpiel's game | why it is left out |", "|---|---|"]
    rows += [f"| `{name}` | {reason} |" for name, reason in found.skipped.items()]
    return "\n".join(rows) + "\n"


def generated(section: str) -> str:
    """Return the part of the page between the markers of ``section``."""
    text = PAGE.read_text()
    start = f"<!-- {section}: written by tests/test_openspiel_games.py -->\n"
    return text.split(start, 1)[1].split("<!-- end -->", 1)[0] if start in text else ""


def test_the_docs_list_the_registered_and_the_skipped_games() -> None:
    assert generated("games") == games_table(), "run python tests/test_openspiel_games.py"


#: the rows searched in the slow tier only (the solver from tic-tac-toe's start: 2 s)
SLOW_CROSS_CHECKS = {0}


@pytest.mark.parametrize(
    "index",
    [
        pytest.param(index, marks=[pytest.mark.slow] if index in SLOW_CROSS_CHECKS else [])
        for index in range(len(CROSS_CHECKS))
    ],
)
def test_exact_searchers_agree_with_openspiel_minimax(index: int) -> None:
    ours, theirs = cross_check(index)
    assert ours == theirs, CROSS_CHECKS[index]


@pytest.mark.slow
def test_the_docs_cross_check_table_shows_no_disagreement() -> None:
    table = cross_check_table()
    assert "**no**" not in table
    assert generated("cross-checks") == table, "run python tests/test_openspiel_games.py"


def rewrite_page() -> None:
    """Write the page's generated tables as the plugin and the searchers find them now."""
    text = PAGE.read_text()
    for section, table in (("games", games_table()), ("cross-checks", cross_check_table())):
        start = f"<!-- {section}: written by tests/test_openspiel_games.py -->\n"
        head, rest = text.split(start, 1)
        text = head + start + table + "<!-- end -->" + rest.split("<!-- end -->", 1)[1]
    PAGE.write_text(text)


if __name__ == "__main__":
    rewrite_page()


# ---------------------------------------------------------- the kit on every registered game
@functools.lru_cache(maxsize=1)  # (a game's test asks for its end and the plies before it)
def random_game(name: str, seed: int = 0) -> OpenSpielGame:
    """Return the end of a seeded random game (callers take copies)."""
    game = new(name.removeprefix(plugin.PREFIX))
    chooser = random.Random(seed)
    while moves := game.legal_moves():
        game.push(chooser.choice(list(moves)))
    return game


def late_position(name: str, plies_left: int = 6, seed: int = 0) -> OpenSpielGame:
    """Return the position ``plies_left`` plies before the end of a seeded random game."""
    game = random_game(name, seed).copy()
    for _ in range(min(plies_left, game.ply)):
        game.undo()
    return game


#: the games whose test took over 10 s in the suite's durations, most of it in the opening
#: check (the kit's pickle check replays a whole random game four times over, position by
#: position: hundreds of plies, or chance nodes of many outcomes; yacht's opening took
#: 69 s of CPU, its ending 17 s). Each run checks the openings of a sample of them, drawn
#: with a fixed seed, and the endings of them all. (Shogi's test is as long, but in its
#: ending: its opening takes under a second.)
LONG_GAMES = frozenset(
    plugin.PREFIX + short_name
    for short_name in (
        "chess",
        "chinese_checkers",
        "crazyhouse",
        "go",
        "gomoku",
        "hive",
        "mnk",
        "pentago",
        "xiangqi",
        "y",
        "yacht",
    )
)
OPENINGS_OF_LONG_GAMES = 2
OPENINGS_CHECKED = {name for name in plugin.catalogue().games if name not in LONG_GAMES} | set(
    random.Random(23).sample(sorted(LONG_GAMES), OPENINGS_OF_LONG_GAMES)
)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(plugin.catalogue().games))
def test_every_registered_openspiel_game_keeps_the_protocol(name: str) -> None:
    # the end of a random game (its finished position, and a walk of the positions six
    # plies before it), then the opening (but for the long games outside the sample): a
    # whole random game checked position by position takes minutes on chess or
    # backgammon, each position costing milliseconds, and so does a second random game
    # played on from six plies before the end (hundreds of plies of shogi)
    assert check_game(late_position(name, plies_left=0), max_positions=1, playouts=0).terminal
    assert check_game(late_position(name), max_positions=20, playouts=0).positions > 1
    if name in OPENINGS_CHECKED:
        assert check_game(name, max_positions=20, playouts=0).positions > 1


def test_the_long_games_are_registered_and_their_sample_is_drawn_from_them() -> None:
    assert LONG_GAMES <= set(plugin.catalogue().games)
    assert len(LONG_GAMES - OPENINGS_CHECKED) == len(LONG_GAMES) - OPENINGS_OF_LONG_GAMES
