"""Every row of docs/published-results.md: the published value is the one we find."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from gamesearch.cli._common import parse_key_values
from gamesearch.plugins import default_registry
from gamesearch.search.nullwindow import Solver

PAGE = Path(__file__).parent.parent / "docs" / "published-results.md"
#: an outcome in words: who wins, and by how much when the source says
OUTCOME = re.compile(r"^(draw|(first|second) player wins(?: by (\d+))?)$")


def rows() -> list[list[str]]:
    """Return the cells of every row of the page's table (the header and rule left out),
    each with the row's command (from the list under the table) as a seventh cell."""
    text = PAGE.read_text()
    commands = dict(re.findall(r"^- (.+?): (`gamesearch [^`]+`)$", text, flags=re.MULTILINE))
    found = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 6 and cells[0] not in ("Game", "---"):
            found.append([*cells, commands.get(cells[0], "")])
    return found


def outcome(words: str) -> tuple[int, int | None]:
    """Return the sign of the first player's result and its size (``None``: not given)."""
    match = OUTCOME.match(words)
    assert match is not None, f"not an outcome: {words!r}"
    if match.group(1) == "draw":
        return 0, 0
    sign = 1 if match.group(2) == "first" else -1
    return sign, None if match.group(3) is None else int(match.group(3))


def test_the_page_lists_at_least_nine_rows_each_with_a_source_and_a_command() -> None:
    table = rows()
    assert len(table) >= 9
    for game, published, source, ours, _, _, command in table:
        assert source.startswith("[") and command.startswith("`gamesearch analyze"), game
        assert outcome(published) and outcome(ours)  # both are outcomes in words


@pytest.mark.slow
@pytest.mark.parametrize("row", rows(), ids=[row[0] for row in rows()])
def test_each_published_value_is_the_one_the_solver_finds(row: list[str]) -> None:
    _, published, _, ours, _, _, command = row
    words = shlex.split(command.strip("`"))
    name = words[2]
    options = parse_key_values([words[at + 1] for at, word in enumerate(words) if word == "-o"])
    game = default_registry().new_game(name, None, **options)
    margin = Solver().search(game).margin
    assert margin is not None
    sign, size = outcome(published)
    assert (margin > 0) - (margin < 0) == sign
    assert size is None or abs(margin) == size
    our_sign, our_size = outcome(ours)
    assert our_sign == sign and our_size in (None, abs(margin))
