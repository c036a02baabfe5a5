"""What a plugin brings beside its game: commands, data sets, position formats, a board look."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli

import gamesearch.cli._common
import gamesearch_games.connect4
import gamesearch_games.tictactoe
from gamesearch.datasets import DataSet, RemoteFile
from gamesearch.datasets.formats import Expect, PositionFormat, PositionLine, text_lines
from gamesearch.errors import DuplicateNameError
from gamesearch.looks import PLAIN, BoardLook
from gamesearch.plugins import Registry, build_registry, hookimpl, make_plugin_manager
from gamesearch.views import catalogue


def greet(args: argparse.Namespace) -> int:
    print(f"hello, {args.name}")
    return 0


def register_greet(subparsers: Any) -> None:
    parser = subparsers.add_parser("greet", help="say hello from a plugin")
    parser.add_argument("name")
    parser.set_defaults(handler=greet)


def read_pairs(path: Path, game: Any) -> list[PositionLine]:
    """``POSITION first-wins`` or ``POSITION first-loses``, one a line."""
    lines = []
    for number, text in text_lines(path):
        position, _, outcome = text.strip().rpartition(" ")
        lines.append(PositionLine(number, position, 1 if outcome == "first-wins" else -1))
    return lines


PAIRS = PositionFormat(
    name="pairs",
    game="tictactoe",
    description="a position and who wins",
    expect=Expect.OUTCOME,
    read=read_pairs,
)
EXAMPLES = DataSet(
    "ttt-examples",
    "a few tic-tac-toe positions (1 kB)",
    (
        RemoteFile(
            "examples.txt", "https://example.org/examples.txt", "0" * 64, 1024, format="pairs"
        ),
    ),
    game="tictactoe",
)


class Squares(gamesearch_games.tictactoe.TicTacToe):
    """Tic-tac-toe drawn as a checkered grid."""

    name = "squares"


class ExtrasPlugin:
    @hookimpl
    def gamesearch_register_games(self, registry: Registry) -> None:
        registry.add_game(Squares)

    @hookimpl
    def gamesearch_register_commands(self, registry: Registry) -> None:
        registry.add_command("greet", register_greet)

    @hookimpl
    def gamesearch_register_data_sets(self, registry: Registry) -> None:
        registry.add_data_set(EXAMPLES)

    @hookimpl
    def gamesearch_register_position_formats(self, registry: Registry) -> None:
        registry.add_position_format(PAIRS)

    @hookimpl
    def gamesearch_register_board_looks(self, registry: Registry) -> None:
        registry.add_board_look("squares", BoardLook(kind="grid", checkered=True))


def registry_of(*plugins: object) -> Registry:
    return build_registry(
        make_plugin_manager(plugins=[gamesearch_games.tictactoe, *plugins], entry_points=False)
    )


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The command line sees tic-tac-toe and the extras plugin, and nothing else."""
    registry = registry_of(ExtrasPlugin())
    monkeypatch.setattr(gamesearch.cli._common, "default_registry", lambda: registry)
    return registry


def test_a_plugins_command_is_listed_in_the_help_and_runs(
    capsys: pytest.CaptureFixture[str], installed: Registry
) -> None:
    status, out, _ = run_cli(capsys, "--plugin-commands")
    assert status == 0
    assert out.splitlines() == ["commands that plugins add:", "  greet  say hello from a plugin"]
    assert "greet" not in run_cli(capsys, "--help")[1]  # (--help loads no plugin)
    assert run_cli(capsys, "greet", "Ada") == (0, "hello, Ada\n", "")


def test_the_installed_help_lists_the_connect4_plugins_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "--plugin-commands")
    listed = [line.split()[0] for line in out.splitlines()[1:]]
    assert status == 0 and listed == ["solve-bench", "uci", "uci-check"]
    assert "load-check" not in out  # a developer's benchmark: python -m benchmarks.load_check


def test_a_plugin_command_with_a_built_in_name_fails_loudly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Shadow:
        @hookimpl
        def gamesearch_register_commands(self, registry: Registry) -> None:
            registry.add_command("analyze", register_greet)

    registry = registry_of(Shadow())
    monkeypatch.setattr(gamesearch.cli._common, "default_registry", lambda: registry)
    # (found whenever the plugins' commands are loaded: listed, or one not built in named)
    for argv in (["--plugin-commands"], ["greet", "Ada"]):
        with pytest.raises(DuplicateNameError, match=r"a plugin registers the command 'analyze'"):
            run_cli(capsys, *argv)


@pytest.mark.parametrize(
    "hook",
    [
        "gamesearch_register_commands",
        "gamesearch_register_data_sets",
        "gamesearch_register_position_formats",
        "gamesearch_register_board_looks",
    ],
)
def test_two_plugins_registering_one_name_fail_loudly(hook: str) -> None:
    class Other:
        pass

    def register_again(self: Any, registry: Registry) -> None:
        adding = {
            "gamesearch_register_commands": lambda: registry.add_command("greet", greet),
            "gamesearch_register_data_sets": lambda: registry.add_data_set(
                DataSet(EXAMPLES.name, "another", ())
            ),
            "gamesearch_register_position_formats": lambda: registry.add_position_format(
                PositionFormat(
                    name="pairs",
                    game="tictactoe",
                    description="",
                    expect=Expect.SIGN,
                    read=read_pairs,
                )
            ),
            "gamesearch_register_board_looks": lambda: registry.add_board_look(
                "squares", BoardLook(kind="marks")
            ),
        }
        adding[hook]()

    setattr(Other, hook, hookimpl(register_again))
    with pytest.raises(DuplicateNameError, match=r"two .* are registered as"):
        registry_of(ExtrasPlugin(), Other())


def test_the_connect4_plugin_brings_its_commands_data_formats_and_look() -> None:
    registry = registry_of(gamesearch_games.connect4)
    assert list(registry.commands) == ["solve-bench", "uci-check"]
    assert list(registry.data_sets) == ["connect4"]
    assert registry.data_sets["connect4"].environment_variable == "GAMESEARCH_CONNECT4_DATA"
    assert list(registry.position_formats("connect4")) == ["lines", "pons", "uci"]
    assert registry.board_look("connect4") == BoardLook(kind="drop", win_length=4)


def test_without_the_connect4_plugin_none_of_its_extras_are_there(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = registry_of()
    assert (registry.commands, registry.data_sets) == ({}, {})
    assert list(registry.position_formats("connect4")) == ["lines"]
    assert registry.board_look("connect4") is PLAIN
    monkeypatch.setattr(gamesearch.cli._common, "default_registry", lambda: registry)
    status, out, _ = run_cli(capsys, "--plugin-commands")
    assert status == 0 and out == "the installed plugins add no commands\n"
    status, _, err = run_cli(capsys, "solve-bench", "Test_L3_R1")
    assert status == 2 and "invalid choice: 'solve-bench'" in err


def test_gamesearch_data_lists_a_plugins_data_set(
    capsys: pytest.CaptureFixture[str], installed: Registry, tmp_path: Path
) -> None:
    status, out, _ = run_cli(
        capsys, "data", "list", "ttt-examples", "--data", str(tmp_path), "--json"
    )
    listed = json.loads(out)
    assert status == 0 and listed["description"] == "a few tic-tac-toe positions (1 kB)"
    assert [(entry["name"], entry["present"]) for entry in listed["files"]] == [
        ("examples.txt", False)
    ]
    status, _, err = run_cli(capsys, "data", "list", "connect4")
    assert status == 2 and "no data set 'connect4'; expected one of ttt-examples" in err


def test_batch_reads_a_file_of_a_data_set_in_the_format_it_declares(
    capsys: pytest.CaptureFixture[str], installed: Registry, tmp_path: Path
) -> None:
    # X wins the first; O, to move, wins the second, which the file gets wrong
    (tmp_path / "examples.txt").write_text("XX./OO./... first-wins\nXX./OO./..X first-wins\n")
    store = str(tmp_path / "s.sqlite")
    argv = ("batch", "tictactoe", "examples.txt", "--data", str(tmp_path), "-w", "1")
    status, out, _ = run_cli(capsys, *argv, "--store", store, "--json")
    summary = json.loads(out)
    assert status == 1 and (summary["done"], summary["agreed"]) == (2, 1)
    status, out, _ = run_cli(capsys, *argv, "--store", store)
    assert "disagreement on line 2: XX./OO./..X (solver) expected 1, found -1" in out


def test_the_catalogue_carries_each_games_look() -> None:
    registry = registry_of(gamesearch_games.connect4, ExtrasPlugin())
    games = catalogue(registry)["games"]
    assert games["connect4"]["look"]["kind"] == "drop"
    assert games["connect4"]["look"]["win_length"] == 4
    assert games["squares"]["look"]["checkered"] is True
    assert games["tictactoe"]["look"]["kind"] == "marks"
    assert set(games["squares"]["look"]) == set(PLAIN.as_dict())


def test_a_look_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'kind' must be in"):
        BoardLook(kind="spirals")  # type: ignore[arg-type]
