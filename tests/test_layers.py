"""Layers point one way, and the distribution ships the framework and its games alone.

The import contracts are declared in pyproject.toml (``[tool.importlinter]``) and kept
by ``make lint`` (``lint-imports``); here a planted import shows that each contract
notices what it forbids. The wheel is built from a copy of the source tree and its
contents read back.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
#: every contract the project keeps (a contract removed from pyproject.toml fails a test)
CONTRACTS = (
    "no-games",
    "web-not-cli",
    "searchers-below",
    "game-at-the-bottom",
    "options-at-the-bottom",
    "matplotlib-in-cli",
    "batch-below-cli",
    "searcher-base-layers",
)
#: the installed name of the repository's games/ folder
GAMES_PACKAGE = "gamesearch_games"
TIMEOUT = 120


def lint_imports(*contracts: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Return the finished ``lint-imports`` run of ``contracts`` on the pyproject.toml in
    ``cwd``."""
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    options = [option for contract in contracts for option in ("--contract", contract)]
    return subprocess.run(
        [sys.executable, "-c", command, "--no-cache", "--no-logo", *options],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_pyproject_declares_every_contract() -> None:
    declared = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    assert sorted(contract["id"] for contract in declared) == sorted(CONTRACTS)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("contract", "path", "planted"),
    [
        ("no-games", "gamesearch/plugins.py", f"import {GAMES_PACKAGE}.tictactoe"),
        ("no-games", "gamesearch/arena.py", "from games.connect4 import ConnectFour"),
        ("no-games", "gamesearch/cli/analyze.py", "from benchmarks import floors"),
        (
            "searchers-below",
            "gamesearch/search/table.py",
            "from gamesearch.testing import check_game",
        ),
        (
            "searchers-below",
            "gamesearch/search/mcts.py",
            "from gamesearch.tournament import schedule",
        ),
        ("game-at-the-bottom", "gamesearch/game.py", "from gamesearch.search.base import INFINITY"),
        (
            "searcher-base-layers",
            "gamesearch/search/result.py",
            "from gamesearch.search.limits import Limit",
        ),
        ("options-at-the-bottom", "gamesearch/options.py", "from gamesearch.game import Rules"),
        (
            "batch-below-cli",
            "gamesearch/batch/runner.py",
            "from gamesearch.cli._output import console",
        ),
        (
            "matplotlib-in-cli",
            "gamesearch/tournament.py",
            "def draw() -> None:\n    import matplotlib.pyplot",
        ),
    ],
)
def test_each_contract_catches_an_import_it_forbids(
    tmp_path: Path, contract: str, path: str, planted: str
) -> None:
    shutil.copy(PYPROJECT, tmp_path / "pyproject.toml")
    shutil.copytree(
        ROOT / "gamesearch", tmp_path / "gamesearch", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert lint_imports(contract, cwd=tmp_path).returncode == 0  # the copy keeps it
    target = tmp_path / path
    target.write_text(f"{target.read_text()}\n{planted}\n")
    done = lint_imports(contract, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "0 kept, 1 broken" in done.stdout, done.stdout
    importer = path.removesuffix(".py").replace("/", ".")
    assert importer in done.stdout, done.stdout


def test_a_users_own_games_package_does_not_hide_the_in_tree_games(tmp_path: Path) -> None:
    # a project of the user's, run from its own folder: its games/ comes first on sys.path
    user_games = tmp_path / "games"
    user_games.mkdir()
    (user_games / "__init__.py").write_text('"""The user\'s own games."""\n')
    (user_games / "tictactoe.py").write_text(
        'raise ImportError("the user\'s own tictactoe module")\n'
    )
    (user_games / "connect4.py").write_text(
        'raise ImportError("the user\'s own connect4 module")\n'
    )
    script = (
        "import games, json\n"
        "from gamesearch import default_registry\n"
        "registry = default_registry()\n"
        "print(json.dumps({'user_games': games.__file__,"
        " 'modules': {name: registry.game_class(name).__module__ for name in ('tictactoe', "
        "'connect4')},"
        " 'moves': len(registry.new_game('connect4').legal_moves())}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["user_games"]) == user_games / "__init__.py"
    assert found["modules"] == {
        "tictactoe": f"{GAMES_PACKAGE}.tictactoe",
        "connect4": f"{GAMES_PACKAGE}.connect4.game",
    }
    assert found["moves"] == 7


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """Return the wheel built from a copy of the source tree (the tree itself stays clean)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for folder in ("gamesearch", "games", "benchmarks", "tests"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    out = tmp_path_factory.mktemp("wheel")
    build = (
        "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", build, str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return zipfile.ZipFile(out / done.stdout.split()[-1])


@pytest.mark.build
def test_the_wheel_adds_only_gamesearch_and_its_games_to_site_packages(
    wheel: zipfile.ZipFile,
) -> None:
    top_level = {
        name.split("/")[0]
        for name in wheel.namelist()
        if not name.split("/")[0].endswith(".dist-info")
    }
    assert top_level == {"gamesearch", GAMES_PACKAGE}


@pytest.mark.build
def test_the_wheel_holds_every_module_of_the_framework_and_the_games(
    wheel: zipfile.ZipFile,
) -> None:
    shipped = {name for name in wheel.namelist() if name.endswith(".py")}
    on_disk = {path.relative_to(ROOT).as_posix() for path in (ROOT / "gamesearch").rglob("*.py")}
    on_disk |= {
        f"{GAMES_PACKAGE}/{path.relative_to(ROOT / 'games').as_posix()}"
        for path in (ROOT / "games").rglob("*.py")
    }
    assert shipped == on_disk
    assert {"gamesearch/py.typed", "gamesearch/web/static/index.html"} <= set(wheel.namelist())


@pytest.mark.build
def test_the_entry_points_name_the_installed_games(wheel: zipfile.ZipFile) -> None:
    [entry_points] = [
        name for name in wheel.namelist() if name.endswith(".dist-info/entry_points.txt")
    ]
    text = wheel.read(entry_points).decode()
    assert f"tictactoe = {GAMES_PACKAGE}.tictactoe" in text
    assert f"connect4 = {GAMES_PACKAGE}.connect4" in text
    assert "gamesearch = gamesearch.cli:main" in text


def test_the_readme_names_every_runtime_dependency() -> None:
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    names = [re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0] for requirement in declared]
    readme = " ".join((ROOT / "README.md").read_text().split())
    runtime = re.search(r"installs the runtime \(([^)]*)\)", readme)
    assert runtime is not None
    assert [name for name in names if name not in runtime.group(1)] == []


#: the most lines a module of the framework or of the in-tree games may have
MOST_LINES = 600


def module_lengths(root: Path = ROOT) -> dict[str, int]:
    """Return the number of lines of every module of gamesearch/ and games/ under ``root``,
    by path."""
    return {
        path.relative_to(root).as_posix(): len(path.read_text().splitlines())
        for folder in ("gamesearch", "games")
        for path in sorted((root / folder).rglob("*.py"))
    }


def too_long(root: Path = ROOT) -> dict[str, int]:
    """Return the modules under ``root`` over :data:`MOST_LINES` lines, by path, with their
    lengths."""
    return {path: lines for path, lines in module_lengths(root).items() if lines > MOST_LINES}


def test_no_module_of_the_framework_or_the_games_is_over_600_lines() -> None:
    found = too_long()
    assert not found, "modules over 600 lines: " + ", ".join(
        f"{path} ({lines:,} lines)" for path, lines in sorted(found.items())
    )


def test_the_length_check_names_a_long_module_of_either_folder(tmp_path: Path) -> None:
    (tmp_path / "gamesearch" / "search").mkdir(parents=True)
    (tmp_path / "games").mkdir()
    (tmp_path / "gamesearch" / "search" / "long.py").write_text("x = 1\n" * (MOST_LINES + 1))
    (tmp_path / "games" / "long.py").write_text("x = 1\n" * (MOST_LINES + 5))
    (tmp_path / "games" / "short.py").write_text("x = 1\n" * MOST_LINES)
    (tmp_path / "long.py").write_text("x = 1\n" * (MOST_LINES + 1))  # neither folder
    assert too_long(tmp_path) == {
        "gamesearch/search/long.py": MOST_LINES + 1,
        "games/long.py": MOST_LINES + 5,
    }
