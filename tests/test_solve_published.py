"""Every row of docs/published-results.md: the published value is the one we find."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from gamesearch.cli._common import parse_key_values
from gamesearch.plugins import default_registry
from gamesearch.search.nullwindow import Solver

PAGE = Path(__file__).parent.parent / "docs" / "published-results.md"
#: an outcome in words: who wins, by how much and in how many plies when the source says
OUTCOME = re.compile(r"^(draw|(first|second) player wins(?: by (\d+))?(?: in (\d+) plies)?)$")
#: rows the solver takes longer than this to settle (their Seconds) are left to their command
LONGEST_SECONDS = 20.0


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


def outcome(words: str) -> tuple[int, int | None, int | None]:
    """Return the sign of the first player's result, its size and the plies to the end
    (``None``: not given)."""
    match = OUTCOME.match(words)
    assert match is not None, f"not an outcome: {words!r}"
    if match.group(1) == "draw":
        return 0, 0, None
    sign = 1 if match.group(2) == "first" else -1
    size, plies = (None if group is None else int(group) for group in match.group(3, 4))
    return sign, size, plies


def checked_rows() -> list[Any]:
    """Return the rows as test parameters, a row slower than :data:`LONGEST_SECONDS`
    skipped (its command reproduces it)."""
    found = []
    for row in rows():
        seconds = float(row[5])
        slow = f"the solver takes {seconds:g} s on it: run {row[6]} to check it"
        marks = [pytest.mark.skip(reason=slow)] if seconds >= LONGEST_SECONDS else []
        found.append(pytest.param(row, id=row[0], marks=marks))
    return found


def test_the_page_lists_at_least_twelve_rows_each_with_a_source_and_a_command() -> None:
    table = rows()
    assert len(table) >= 12
    assert len({row[0] for row in table}) == len(table)
    for game, published, source, ours, _, _, command in table:
        assert source.startswith("[") and command.startswith("`gamesearch analyze"), game
        assert outcome(published) and outcome(ours)  # both are outcomes in words


@pytest.mark.slow
@pytest.mark.parametrize("row", checked_rows())
def test_each_published_value_is_the_one_the_solver_finds(row: list[str]) -> None:
    _, published, _, ours, _, _, command = row
    words = shlex.split(command.strip("`"))
    name = words[2]
    options = parse_key_values([words[at + 1] for at, word in enumerate(words) if word == "-o"])
    game = default_registry().new_game(name, None, **options)
    found = Solver().search(game)
    margin = found.margin
    assert margin is not None
    end = game.rules.scale.end_ply(found.value)  # distance scoring: the ply the game ends
    sign, size, plies = outcome(published)
    assert (margin > 0) - (margin < 0) == sign
    assert size is None or abs(margin) == size
    assert plies is None or end == plies
    our_sign, our_size, our_plies = outcome(ours)
    assert our_sign == sign and our_size in (None, abs(margin)) and our_plies in (None, end)
