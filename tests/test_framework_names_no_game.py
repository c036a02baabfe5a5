"""The framework names no game in its code: games come from plugins, with what they bring.

Every registered game's name is looked for in the code of ``gamesearch/`` (names and
string literals of every module, read with :mod:`ast`) and in the board page's
scripts. Docstrings and the help texts of the command line (``help=``,
``description=``, ``epilog=``) may name a game as an example; anything else must be
listed in :data:`ALLOWED` with the reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamesearch.plugins import default_registry

FRAMEWORK = Path(__file__).resolve().parent.parent / "gamesearch"
#: keyword arguments whose text is a help example
HELP_KEYWORDS = frozenset({"help", "description", "epilog"})
#: game names that are also the framework's own words ("the search tree")
COMMON_WORDS = frozenset({"tree"})
#: (module, the literal or name) pairs that may name a game, each with its reason
ALLOWED: dict[tuple[str, str], str] = {}


def game_names() -> list[str]:
    return sorted(set(default_registry().games) - COMMON_WORDS)


def docstring_nodes(tree: ast.AST) -> set[int]:
    """Return the ids of the string nodes that are docstrings of a module, class or function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def help_nodes(tree: ast.AST) -> set[int]:
    """Return the ids of every node inside a ``help=``, ``description=`` or ``epilog=``
    argument."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in HELP_KEYWORDS:
            found |= {id(inner) for inner in ast.walk(node.value)}
    return found


def words_of(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Yield ``(line, text)`` for every name and string literal outside docstrings and help."""
    skipped = docstring_nodes(tree) | help_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.alias):
            yield getattr(node, "lineno", 0), node.name


def named_games(text: str, names: list[str]) -> list[str]:
    """Return the game names ``text`` holds as words (``connect4``, ``_connect4_report``)."""
    return [name for name in names if re.search(rf"(?<![A-Za-z0-9]){name}(?![A-Za-z0-9])", text)]


def python_findings(names: list[str]) -> list[str]:
    findings = []
    for path in sorted(FRAMEWORK.rglob("*.py")):
        module = path.relative_to(FRAMEWORK.parent).as_posix()
        for line, text in words_of(ast.parse(path.read_text())):
            if named_games(text, names) and (module, text) not in ALLOWED:
                findings.append(f"{module}:{line}: {text!r}")
    return findings


#: JavaScript comments: // to the end of the line, /* ... */
JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def script_findings(names: list[str]) -> list[str]:
    findings = []
    static = FRAMEWORK / "web" / "static"
    for path in sorted([*static.glob("*.js"), *static.glob("*.html"), *static.glob("*.css")]):
        code = JS_COMMENT.sub("", path.read_text())
        for number, line in enumerate(code.splitlines(), 1):
            if named_games(line, names):
                findings.append(f"{path.name}:{number}: {line.strip()}")
    return findings


def test_the_registered_games_are_looked_for() -> None:
    assert {"tictactoe", "connect4", "othello", "checkers", "kalah"} <= set(game_names())


@pytest.mark.slow
def test_no_framework_module_names_a_game_in_its_code() -> None:
    findings = python_findings(game_names())
    assert not findings, "game names in framework code:\n" + "\n".join(findings)


def test_the_board_page_names_no_game() -> None:
    findings = script_findings(game_names())
    assert not findings, "game names in the board page:\n" + "\n".join(findings)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('if game == "connect4":\n    pass\n', ["connect4"]),
        ("from x import _connect4_report\n", ["connect4"]),
        ('def f():\n    """Play connect4."""\n', []),
        ('parser.add_argument("x", help="e.g. connect4")\n', []),
        ('name = "tictactoes"\n', []),
    ],
)
def test_the_check_sees_names_and_literals_and_skips_docstrings_and_help(
    source: str, found: list[str]
) -> None:
    seen = [
        game for _, text in words_of(ast.parse(source)) for game in named_games(text, ["connect4"])
    ]
    assert seen == found


def test_no_shipped_code_refers_to_a_folder_of_the_checkout() -> None:
    shipped = [*FRAMEWORK.rglob("*.py"), *(FRAMEWORK.parent / "games").rglob("*.py")]
    findings = [
        f"{path.relative_to(FRAMEWORK.parent)}: {match.group(0)!r}"
        for path in shipped
        for match in re.finditer(r"\.\./shared|shared/data|/work/", path.read_text())
    ]
    assert not findings, findings
