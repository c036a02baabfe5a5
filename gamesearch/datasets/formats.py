"""Files of positions with expected values: the framework's own format and the ones plugins
declare.

Every game reads the framework's ``lines`` format: one position a line in the game's
notation, optionally followed by ``|`` and the expected final result::

    # tic-tac-toe positions and the first player's result
    X.O/.X./... | 1
    XX./OO./... | win
    ...../.../...

An integer after ``|`` is the final result from the first player's point of view (a
margin inside the game's declared result range); ``win``, ``draw`` and ``loss`` are the
first player's outcome. Nothing else on the line is read as a value: a position whose
own text ends in a number (a chess FEN's move counters) stays whole.

A plugin declares the formats of its own files (Pascal Pons' Connect Four sets, say)
as :class:`PositionFormat` objects with the ``gamesearch_register_position_formats``
hook; ``gamesearch batch GAME FILE --format NAME`` reads a file in one of them, and a
file of a registered data set is read in the format its data set declares.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from gamesearch.errors import InvalidDataError, InvalidPositionError

if TYPE_CHECKING:
    from gamesearch.game import Game

#: what separates a position from its expected value in the ``lines`` format
SEPARATOR = "|"
#: the name of the framework's own format, which every game reads
LINES = "lines"
#: words a file may use for the first player's win, draw or loss
OUTCOME_WORDS = {"win": 1, "draw": 0, "loss": -1}
_INTEGER = re.compile(r"[+-]?[0-9]+")


class Expect(enum.Enum):
    """What a file's expected value is, so a result can be compared with it."""

    SCORE = "score"  #: the format's own score of an exact value (its ``score`` function)
    SIGN = "sign"  #: +1 / 0 / -1: the side to move wins, draws or loses
    OUTCOME = "outcome"  #: +1 / 0 / -1: the first player wins, draws or loses
    MARGIN = "margin"  #: the final result, first player's view (see ``SearchResult.margin``)


@attrs.frozen
class PositionLine:
    """One position of a file: its line number, the position text, the expected value and
    how that value reads (``None``: as the file's format says)."""

    line: int
    position: str
    expected: int | None
    expect: Expect | None = None


#: ``read(path, game)``: every position line of the file; ``game`` is the start position
#: with the batch's options (for the board size, the result range)
Reader = Callable[[Path, "Game[Any]"], Sequence[PositionLine]]
#: ``score(game, value)``: the format's score of the exact ``value`` (for the side to move)
Scorer = Callable[["Game[Any]", int], int]


def _needs_scorer(instance: PositionFormat, attribute: Any, value: Scorer | None) -> None:
    if (instance.expect is Expect.SCORE) != (value is not None):
        raise ValueError(
            f"format {instance.name!r}: a 'score' function is needed exactly when its values "
            f"are scores (expect={instance.expect.value!r})"
        )


@attrs.frozen(kw_only=True)
class PositionFormat:
    """A file format of positions and expected values that a plugin declares for its game.

    ``read`` returns the lines of a file (raising :class:`InvalidPositionError` naming
    the first bad line, :class:`InvalidDataError` for a file that is not text);
    ``expect`` says what their values are; when they are scores of the format's own,
    ``score`` turns an exact value into one.
    """

    name: str
    game: str  #: the registry name of the game the format holds positions of
    description: str  #: one line, for the command line's help and messages
    expect: Expect
    read: Reader = attrs.field(eq=False)
    score: Scorer | None = attrs.field(default=None, eq=False, validator=_needs_scorer)


def text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(number, line)`` for each line of the ASCII text file ``path``.

    :raises InvalidDataError: when the file is not ASCII text, is a folder or cannot be read.
    """
    try:
        with path.open("rb") as stream:
            for number, raw in enumerate(stream, 1):
                try:
                    yield number, raw.decode("ascii")
                except UnicodeDecodeError as error:
                    raise InvalidDataError(
                        f"line {number} of {str(path)!r} is not ASCII text "
                        f"(byte {raw[error.start]:#04x}); is it the right file?"
                    ) from None
    except IsADirectoryError:
        raise InvalidDataError(f"{str(path)!r} is a folder; expected a data file") from None
    except OSError as error:
        raise InvalidDataError(f"cannot read {str(path)!r}: {error.strerror or error}") from None


def read_lines(path: Path, game: Game[Any]) -> list[PositionLine]:
    """Return the positions of a ``lines`` file (see the module's description).

    Blank lines and lines starting with ``#`` are skipped.

    :raises InvalidPositionError: naming the first line whose expected value cannot be
        one of ``game``'s final results.
    :raises InvalidDataError: when the file is not text.
    """
    positions = []
    for number, raw in text_lines(path):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        where = f"line {number} of {str(path)!r}"
        if SEPARATOR not in text:
            positions.append(PositionLine(number, text, None))
            continue
        position, _, value_text = text.rpartition(SEPARATOR)
        position = position.strip()
        if not position:
            raise InvalidPositionError(f"{where} has no position before {SEPARATOR!r}: {text!r}")
        expected, expect = _expected_value(value_text.strip(), game, where)
        positions.append(PositionLine(number, position, expected, expect))
    return positions


def _expected_value(text: str, game: Game[Any], where: str) -> tuple[int, Expect]:
    """Return the value written after the separator and how it reads.

    :raises InvalidPositionError: for a value that is neither a word nor a final result
        the game can end with.
    """
    rules = game.rules
    if rules.utilities:
        raise InvalidPositionError(
            f"{where} gives an expected value, but {game.name} ends with one result per "
            f"player, which a file's single value cannot be compared with: {text!r}"
        )
    if text.lower() in OUTCOME_WORDS:
        return OUTCOME_WORDS[text.lower()], Expect.OUTCOME
    low, high = rules.result_range
    if not _INTEGER.fullmatch(text):
        raise InvalidPositionError(
            f"{where}: the expected value after {SEPARATOR!r} is {text!r}; expected win, draw, "
            f"loss or a final result from {low} to {high}"
        )
    value = int(text)
    if not low <= value <= high:
        raise InvalidPositionError(
            f"{where}: {value} cannot be a final result of {game.name}, whose results lie "
            f"between {low} and {high}"
        )
    return value, Expect.MARGIN


#: the framework's own format (see the module's description)
LINES_FORMAT = PositionFormat(
    name=LINES,
    game="",
    description="one position a line, optionally followed by '|' and the first player's "
    "final result or win/draw/loss",
    expect=Expect.MARGIN,
    read=read_lines,
)
