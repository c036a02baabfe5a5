"""Plain words for results and search values, as the command line, the web board and
notebooks print them.

A search value says who wins, by how much and how soon; :func:`describe_value` puts it
in words through the typed score of :mod:`gamesearch.score` (the one place a proven end
is worded), and :func:`describe_result` and :func:`describe_utilities` word a finished
game. Players are called by the game's :func:`~gamesearch.capabilities.player_names`.
Games are typed ``Any`` here: this module sits below :mod:`gamesearch.game`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gamesearch.capabilities import forced_win_name, player_names
from gamesearch.rules import Outcome, Scoring
from gamesearch.score import Expected, Proven, number_words

#: a value as text: whole numbers as they are, others with three decimals
number_text = number_words


def margin_words(game: Any, margin: int) -> str:
    """Return a final result in words without the winner: ``""`` or ``" by 8"``.

    Win/draw/loss games (results +1/0/-1) say nothing of a margin.
    """
    if game.rules.largest_margin <= 1 or margin == 0:
        return ""
    return f" by {abs(margin)}"


def signed_fraction(value: Fraction | int) -> str:
    """Return an exact value as text: ``"+1/3"``, ``"-2"``, ``"0"``."""
    text = str(value)
    return text if value <= 0 else "+" + text


def describe_value(game: Any, value: int | Fraction, *, is_exact: bool = True) -> str:
    """Return ``value`` (a search result for ``game``) in words.

    For example ``"X wins in 3 plies"``, ``"White wins by 8 in 12 plies"``,
    ``"draw"`` or ``"heuristic +12"``; for a game of chance ``"expected result
    +7/27 (+0.259)"`` or ``"estimate +0.259"``; for a game that names its forced wins
    (``forced_win_name``, see :class:`~gamesearch.capabilities.Presentation`) ``"White
    wins: mate in 2"``.
    """
    rules = game.rules
    if rules.chance:
        exact = Fraction(value)
        if not is_exact or exact.denominator == 1:
            return Expected(exact, is_exact).words()
        return f"expected result {signed_fraction(value)} ({float(value):+.3f})"
    assert isinstance(value, int)
    if is_exact and rules.scoring is Scoring.UTILITY and abs(value) <= rules.largest_margin:
        # a game scored by utility (a tree): the value is the result itself
        has_margins = rules.largest_margin > 1
        return Proven(value, None, names=player_names(game), has_margins=has_margins).words()
    scale = rules.scale
    margin = scale.margin(value) if is_exact or scale.is_proven(value) else None
    if margin is None:
        return f"{value:+d}" if is_exact else f"heuristic {value:+d}"
    if margin == 0:
        return "draw" if value == 0 else f"{value:+d}"
    end = scale.end_ply(value)
    plies = None if end is None or end < game.ply else end - game.ply
    proven = Proven(
        margin,
        plies,
        names=player_names(game),
        has_margins=rules.largest_margin > 1,
        forced_win=forced_win_name(game),
    )
    words = proven.words()
    return words if plies != 0 else f"{words} in 0 plies"


def describe_utilities(
    game: Any, utilities: Sequence[int | Fraction], *, is_exact: bool = True
) -> str:
    """Return one utility per player in words: ``"A 3, B 0, C 0"``.

    A value that is not exact (a heuristic's, mapped inside the result range) is said
    so: ``"estimate A 1.420, B 0.790, C 0.790"``.
    """
    names = player_names(game)
    words = ", ".join(
        f"{names[player]} {number_text(value)}" for player, value in enumerate(utilities)
    )
    return words if is_exact else f"estimate {words}"


def describe_result(game: Any, result: int | tuple[int, ...]) -> str:
    """Return a finished game's result in words: ``"X won"``, ``"a draw"``, ``"Black won by 4"``.

    A game with utilities names its winners and every utility: ``"A won: A 3, B 0, C 0"``.
    """
    names = player_names(game)
    if isinstance(result, tuple):
        best = max(result)
        top = [names[player] for player, utility in enumerate(result) if utility == best]
        head = "a draw" if len(top) == len(result) else f"{' and '.join(top)} won"
        return f"{head}: {describe_utilities(game, result)}"
    if result == 0:
        return "a draw"
    winner = names[0 if result > 0 else 1]
    return f"{winner} won{margin_words(game, result)}"


def describe_outcome(outcome: Outcome) -> str:
    """Return a short English description of an outcome."""
    if outcome is Outcome.DRAW:
        return "a draw"
    return "first player won" if outcome is Outcome.FIRST_WINS else "second player won"
