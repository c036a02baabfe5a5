"""The command line never answers bad input with a traceback, and answers instead of waiting.

Output files are checked before any work starts. The tests run as root, for whom a
read-only folder is still writable, so "cannot be written" is tested with a path under a
regular file (``somefile/out.png``), a path that is a folder and a missing folder; a
``chmod`` test runs only for other users.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli

from gamesearch.cli import _common, analyze, batch, build_parser, compare, tournament, tree
from gamesearch.errors import InvalidOptionError
from gamesearch.plugins import default_registry
from gamesearch.search.mcts import MonteCarlo
from gamesearch_games.connect4 import ConnectFour

SEED_004 = "XOX/O.O/.X."
#: positions of Pascal Pons' set Test_L2_R1 with his scores (side to move's view:
#: 22 minus the winner's stones, negative for a loss)
PONS_L2_R1 = [
    ("5554224333234511764415115", 4),
    ("52753311433677442422121", 8),
    ("1233722555341451114725221333", -1),
]


def no_work(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the command started its work before checking its output file")


# ------------------------------------------------------------ output files
def bad_paths(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Return, by kind, a path that cannot be written and the words its error names."""
    regular = tmp_path / "somefile"
    regular.write_text("not a folder\n")
    folder = tmp_path / "folder.png"
    folder.mkdir()
    return {
        "missing folder": (str(tmp_path / "missing" / "out.png"), "does not exist"),
        "under a file": (str(regular / "out.png"), "is a file, not a folder"),
        "a folder": (str(folder), "is a folder; give a file name"),
        # writable by its permission bits for root, refused by the system when opened
        "a system folder": (SYSTEM_FOLDER + "/gamesearch-out.png", "cannot be written"),
    }


#: a folder where no file can be created, whoever asks (sysfs, on Linux)
SYSTEM_FOLDER = "/sys"
needs_system_folder = pytest.mark.skipif(
    not Path(SYSTEM_FOLDER).is_dir(), reason=f"no {SYSTEM_FOLDER} folder here"
)


@pytest.mark.parametrize(
    "kind",
    [
        "missing folder",
        "under a file",
        "a folder",
        pytest.param("a system folder", marks=needs_system_folder),
    ],
)
@pytest.mark.parametrize(
    ("command", "option", "module", "work"),
    [
        (["tree", "tictactoe", "-p", SEED_004, "-f", "json"], "--output", tree, "trace_with_depth"),
        (["tree", "tictactoe", "-p", SEED_004], "--output", tree, "trace_with_depth"),
        (["compare", "tictactoe", "-p", SEED_004, "-s", "alphabeta"], "--plot", compare, "measure"),
        (
            ["tournament", "tictactoe", "--players", "alphabeta:depth=1", "alphabeta"],
            "--plot",
            tournament,
            "run_tournament",
        ),
    ],
)
def test_an_output_file_that_cannot_be_written_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: list[str],
    option: str,
    module: Any,
    work: str,
    kind: str,
) -> None:
    monkeypatch.setattr(module, work, no_work)
    path, words = bad_paths(tmp_path)[kind]
    assert_usage_error(capsys, f"{option} {path!r}", *command, option, path)
    status, _, err = run_cli(capsys, *command, option, path)
    assert status == 2 and words in err and "Traceback" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        target = str(locked / "tree.json")
        assert_usage_error(
            capsys,
            "cannot be written: Permission denied",
            "tree",
            "tictactoe",
            "-p",
            SEED_004,
            "-f",
            "json",
            "--output",
            target,
        )
    finally:
        locked.chmod(0o700)


@needs_system_folder
def test_a_batch_output_the_system_refuses_is_refused_before_any_position_is_searched(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(batch, "run_with_progress", no_work)
    positions = tmp_path / "positions.txt"
    positions.write_text("XX./OO./... | 1\n")
    target = SYSTEM_FOLDER + "/gamesearch-out.jsonl"
    assert_usage_error(
        capsys,
        f"--output {target!r} cannot be written: ",
        "batch",
        "tictactoe",
        str(positions),
        "--output",
        target,
    )
    assert not Path(target).exists()


def test_checking_an_output_file_leaves_no_file_behind_and_an_old_one_unchanged(
    tmp_path: Path,
) -> None:
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text("kept\n")
    assert _common.check_output_file(new) == new and not new.exists()
    assert _common.check_output_file(old) == old and old.read_text() == "kept\n"


def test_a_plot_with_an_unknown_extension_is_refused_before_the_search(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(compare, "measure", no_work)
    target = str(tmp_path / "chart.gif")
    assert_usage_error(
        capsys,
        f"--plot must end in .png, .svg, .pdf: {target!r}",
        "compare",
        "tictactoe",
        "--plot",
        target,
    )


def test_a_write_that_fails_late_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def refuse(self: Path, *args: Any, **kwargs: Any) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    target = str(tmp_path / "tree.json")
    assert_usage_error(
        capsys,
        f"cannot write --output {target!r}: Permission denied",
        "tree",
        "tictactoe",
        "-p",
        SEED_004,
        "-f",
        "json",
        "--output",
        target,
    )


def test_tree_writes_its_text_drawing_to_the_output_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "tree.txt"
    status, out, err = run_cli(capsys, "tree", "tictactoe", "-p", SEED_004, "--output", str(target))
    assert (status, out, err) == (0, "", "")
    text = target.read_text()
    assert "10 nodes traced, the searcher counted 10" in text and text.count("pruned: ") == 2


def test_check_output_file_accepts_a_new_file_in_an_existing_folder(tmp_path: Path) -> None:
    assert _common.check_output_file(tmp_path / "new.json") == tmp_path / "new.json"
    assert not (tmp_path / "new.json").exists()  # checking creates nothing
    with pytest.raises(
        InvalidOptionError, match=r"--plot '.*missing.*': the folder '.*missing' does not exist"
    ):
        _common.check_output_file(tmp_path / "missing" / "x.png", "--plot")


# ------------------------------------------------------------ MCTS budgets
BAD_MCTS = [
    ("mcts:exploration=nan", "option 'exploration' must be a finite number: 'nan'"),
    ("mcts:exploration=inf", "option 'exploration' must be a finite number: 'inf'"),
    ("mcts:seconds=nan", "option 'seconds' must be a finite number or none: 'nan'"),
    ("mcts:seconds=inf", "option 'seconds' must be a finite number or none: 'inf'"),
    ("mcts:simulations=0", "option 'simulations' must be >= 1: 0"),
]


@pytest.mark.parametrize(("spec", "message"), BAD_MCTS)
@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "tictactoe", "--searcher", "{spec}"],
        ["match", "tictactoe", "--first", "{spec}", "--second", "alphabeta", "-n", "1"],
        ["tournament", "tictactoe", "--players", "{spec}", "alphabeta", "-n", "2"],
        [
            "tournament",
            "tictactoe",
            "--players",
            "{spec}",
            "alphabeta",
            "-n",
            "2",
            "--workers",
            "2",
        ],
        ["play", "tictactoe", "--human", "none", "--opponent", "{spec}"],
    ],
)
def test_a_nan_or_infinite_mcts_setting_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], command: list[str], spec: str, message: str
) -> None:
    argv = [part.format(spec=spec) for part in command]
    assert_usage_error(capsys, f"searcher 'mcts': {message}", *argv)


@pytest.mark.parametrize(
    "options", [{"seconds": math.nan}, {"seconds": math.inf}, {"exploration": math.nan}]
)
def test_the_library_refuses_a_budget_that_never_runs_out(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=r"must be a finite number( or none)?: (nan|inf)"):
        MonteCarlo(**options)  # type: ignore[arg-type]


# ------------------------------------------------------------ words users read
def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "--version")
    assert status == 0 and out == f"gamesearch {importlib.metadata.version('gamesearch')}\n"


def all_help_texts() -> dict[str, str]:
    """Return every subcommand's --help text (and the top level's), by command name."""
    parser = build_parser()
    texts = {"gamesearch": parser.format_help()}
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for name, subparser in action.choices.items():  # type: ignore[union-attr]
            texts[name] = subparser.format_help()
    return texts


INTERNAL = re.compile(r"seed \d{3}|issue|%%|NoneType|``|make bench", re.IGNORECASE)


@pytest.mark.parametrize(
    "command", ["gamesearch", "analyze", "compare", "games", "match", "tournament", "tree"]
)
def test_help_texts_speak_plainly(command: str) -> None:
    text = all_help_texts()[command]
    assert INTERNAL.search(text) is None, INTERNAL.search(text)


def test_tournament_help_prints_a_single_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "tournament", "--help")
    assert status == 0 and "95% interval" in out and "%%" not in out


def test_an_integer_argument_is_asked_for_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(
        capsys,
        "argument --max-nodes: must be an integer: 'many'",
        "tree",
        "tictactoe",
        "--max-nodes",
        "many",
    )


def test_a_searcher_option_of_the_wrong_type_is_named_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_usage_error(
        capsys,
        "option 'depth' must be an integer or none: 'x'",
        "analyze",
        "tictactoe",
        "--searcher",
        "alphabeta:depth=x",
    )


def test_games_reads_as_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "games")
    assert status == 0
    assert "``" not in out and ":class:" not in out
    assert re.search(r"\b(None|True|False)\b", out) is None
    assert "Tic-tac-toe on a rows x cols board" in out
    data = json.loads(run_cli(capsys, "games", "--json")[1])
    for entry in data["searchers"].values():
        for option in entry["options"]:  # JSON keeps its types; the table shows what one types
            default = option["default"]
            shown = (
                "none"
                if default is None
                else {True: "on", False: "off"}[default]
                if isinstance(default, bool)
                else str(default)
            )
            row = rf"│\s+│ {option['name']}\s+│ {re.escape(shown)}\s+│"
            assert re.search(row, out), option


# ------------------------------------------------------------ tree agrees with its counts
def count(node: dict[str, Any]) -> int:
    return 1 + sum(count(child) for child in node["children"])


def searcher_specs() -> list[str]:
    """Return every registered searcher that searches tic-tac-toe, alone and (when it takes
    one) with a depth of 2."""
    specs = []
    found = default_registry()
    for name, cls in found.searchers.items():
        if cls().unmet_needs(
            found.new_game("tictactoe")
        ):  # chance, several players: their own tests
            continue
        specs.append(name)
        option = _common.depth_option(cls)
        if option is not None:
            specs.append(f"{name}:{option}=2")
    return specs


@pytest.mark.slow
@pytest.mark.parametrize("spec", searcher_specs())
@pytest.mark.parametrize("position", [SEED_004, "X.O/.X./...", "XO./.../..."])
def test_tree_refuses_a_searcher_or_draws_exactly_the_nodes_it_counted(
    capsys: pytest.CaptureFixture[str], spec: str, position: str
) -> None:
    status, out, err = run_cli(
        capsys,
        "tree",
        "tictactoe",
        "-p",
        position,
        "-s",
        spec,
        "-f",
        "json",
        "--max-nodes",
        "100000",
    )
    if status == 2:
        assert (
            out == ""
            and err.startswith("gamesearch: error: tree cannot draw ")
            and err.count("\n") == 1
        )
        return
    assert status == 0, err
    data = json.loads(out)
    assert data["nodes"] == data["stats"]["nodes"] == sum(count(root) for root in data["trees"])


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts", "it grows its tree by random playouts"),
        ("pvs", "searching to the end: it does not report every position"),
        ("mtdf", "searching to the end: it does not report every position"),
        ("solver", "searching to the end: it does not report every position"),
    ],
)
def test_tree_refuses_at_once_a_searcher_it_cannot_draw(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spec: str, words: str
) -> None:
    monkeypatch.setattr(tree, "trace_with_depth", no_work)
    assert_usage_error(
        capsys, f"tree cannot draw {spec!r}", "tree", "tictactoe", "-p", SEED_004, "-s", spec
    )
    status, _, err = run_cli(capsys, "tree", "tictactoe", "-p", SEED_004, "-s", spec)
    assert words in err and "alphabeta, minimax or iterative" in err


def test_the_exact_searchers_are_drawn_when_given_a_depth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(
        capsys, "tree", "tictactoe", "-p", SEED_004, "-s", "solver", "--depth", "3"
    )
    assert status == 0 and "10 nodes traced, the searcher counted 10" in out


# ------------------------------------------------------------ tree picks a depth
@pytest.mark.parametrize("spec", ["alphabeta", "minimax", "iterative"])
def test_tree_connect4_draws_the_deepest_depth_that_fits_and_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spec: str
) -> None:
    monkeypatch.setattr(tree, "END_OF_GAME_LIMIT", 20_000)  # the search to the end needs far more
    status, out, err = run_cli(capsys, "tree", "connect4", "-s", spec, "-f", "json")
    assert status == 0, err
    data = json.loads(out)
    registry = default_registry()
    option = _common.depth_option(registry.searcher_class(spec))
    found = re.search(r"drawn to depth (\d+)", data["depth_note"])
    assert found is not None
    depth = int(found.group(1))

    def nodes_at(limit: int) -> int:  # the searcher's own count at a depth, untraced
        return registry.new_searcher(f"{spec}:{option}={limit}").search(ConnectFour()).stats.nodes

    assert nodes_at(depth) <= 200 < nodes_at(depth + 1)
    assert data["nodes"] == data["stats"]["nodes"] == data["recorded"] == nodes_at(depth)
    assert not data["is_truncated"]
    assert data["depth_note"] == (
        "a search to the end enters more than 20,000 positions, so the tree is drawn to depth "
        f"{depth}, "
        "the deepest whose tree fits in --max-nodes 200 (give --depth N for another depth)"
    )
    assert err == f"gamesearch tree: {data['depth_note']}\n"


def test_tree_says_when_even_depth_1_does_not_fit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tree, "END_OF_GAME_LIMIT", 20_000)
    status, out, _ = run_cli(capsys, "tree", "connect4", "--max-nodes", "3")
    assert status == 0
    assert "drawn to depth 1, though even that tree has more than --max-nodes 3 nodes" in out
    assert "... 5 more nodes not drawn (--max-nodes 3)" in out  # depth 1: the root and 7 moves


def test_tree_connect4_answers_in_seconds_with_the_depth_in_its_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.process_time()
    status, out, _ = run_cli(capsys, "tree", "connect4")
    assert status == 0 and time.process_time() - started < 10
    assert re.search(
        r"so the tree is drawn to depth \d+, the deepest whose tree fits in --max-nodes 200", out
    )
    assert "more nodes not drawn" not in out


def test_tree_keeps_searching_to_the_end_when_that_fits(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "tree", "tictactoe", "-f", "json")
    data = json.loads(out)
    assert (
        status == 0 and data["depth_note"] is None and data["stats"]["nodes"] == 15_362
    )  # the whole game


# ------------------------------------------------------------ analyze answers
def analyze_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run_cli(capsys, "analyze", *argv, "--json")
    assert status == 0, err
    return json.loads(out)


@pytest.mark.slow
def test_analyze_connect4_hands_over_to_a_time_budget_and_says_it_is_not_exact(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyze, "DEFAULT_EXACT_NODES", 20_000)
    monkeypatch.setattr(analyze, "FALLBACK_SECONDS", 0.3)
    data = analyze_json(capsys, "connect4")
    assert data["gave_up"] == {"searcher": "solver", "max_nodes": 20_000}
    assert data["searcher"] == "iterative:seconds=0.3" and data["is_exact"] is False
    assert data["move"] in [str(column) for column in range(1, 8)] and data["stats"]["depth"] >= 1
    status, out, _ = run_cli(capsys, "analyze", "connect4")
    assert status == 0 and re.search(
        r"solver gave up after 20,000 nodes, so iterative deepening answered within 0.3 s: "
        r"not exact \(a heuristic estimate at depth \d+\)\.",
        out,
    )


@pytest.mark.slow
def test_analyze_connect4_on_the_empty_board_answers_within_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.process_time()
    status, out, _ = run_cli(capsys, "analyze", "connect4")
    assert status == 0 and time.process_time() - started < 8
    assert "Best move" in out and "not exact" in out


@pytest.mark.parametrize(("moves", "score"), PONS_L2_R1)
def test_analyze_connect4_solves_a_benchmark_position_exactly(
    capsys: pytest.CaptureFixture[str], moves: str, score: int
) -> None:
    # on processor time, a loaded machine cannot push the solver past its first try's
    # budget into iterative deepening
    data = analyze_json(capsys, "connect4", "--position", moves, "--clock", "cpu")
    assert data["searcher"] == "solver:clock=cpu" and data["gave_up"] is None
    assert data["is_exact"] is True
    game = ConnectFour.from_text(moves)
    value = data["value"]  # the first player's view, distance to the end included
    if score == 0:
        assert value == 0
        return
    side_to_move_wins = score > 0
    first_player_wins = value > 0
    assert first_player_wins == (side_to_move_wins == (game.ply % 2 == 0))
    end_ply = game.rules.scale.win - abs(value)
    winners_stones = (end_ply + 1) // 2 if first_player_wins else end_ply // 2
    assert 22 - winners_stones == abs(score)
    status, out, _ = run_cli(capsys, "analyze", "connect4", "--position", moves, "--clock", "cpu")
    assert status == 0 and "Answered by exact solver, the game's default searcher: exact." in out


def test_a_searcher_named_on_the_command_line_still_gives_up_clearly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_usage_error(
        capsys,
        "solver gave up after 2,000 nodes on the starting position",
        "analyze",
        "connect4",
        "--searcher",
        "solver",
        "--max-nodes",
        "2000",
    )


def test_a_game_without_a_default_searcher_is_analysed_by_alphabeta(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = analyze_json(capsys, "tictactoe")
    assert "searcher" not in data and data["is_exact"] is True and data["value"] == 0
    status, out, _ = run_cli(capsys, "analyze", "tictactoe")
    assert status == 0 and "Answered by" not in out and "Searcher alphabeta: " in out
    assert _common.game_default_searcher(ConnectFour()) == "solver"


@pytest.mark.parametrize(
    ("named", "depth", "expected"),
    [
        ("solver", None, ("solver", {})),
        ("solver", 3, ("solver", {"depth": 3})),
        ("iterative", 3, ("iterative", {"depth": 3})),
        ("mcts", None, ("mcts", {})),
        ("mcts", 3, ("alphabeta", {"depth": 3})),
        (None, 3, ("alphabeta", {"depth": 3})),
    ],
)
def test_the_default_searcher_takes_the_depth_under_its_own_option_name(
    monkeypatch: pytest.MonkeyPatch,
    named: str | None,
    depth: int | None,
    expected: tuple[str, dict[str, int]],
) -> None:
    monkeypatch.setattr(ConnectFour, "default_searcher", named, raising=False)
    assert _common.default_searcher_spec(ConnectFour(), "alphabeta", depth) == expected


def test_analyze_with_a_depth_uses_the_games_searcher_to_that_depth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "analyze", "connect4", "--depth", "2")
    assert status == 0
    assert (
        "Answered by exact solver (to depth 2), the game's default searcher: not exact (a "
        "heuristic estimate at depth 2)." in out
    )
