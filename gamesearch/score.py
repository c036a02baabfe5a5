"""The typed score of a search, at the API boundary: what a value means, not how it is coded.

Search cores work with plain integers (and exact fractions in games of chance);
:class:`~gamesearch.search.base.SearchResult` turns its value into one of four
scores when :attr:`~gamesearch.search.base.SearchResult.score` is first read, once
per search:

- :class:`Proven`: the game's end is known: the final margin and the plies to it
  (``None`` when plain scoring does not count them). A depth-limited search that
  found a forced win still proves it.
- :class:`Heuristic`: an estimate from a horizon, with the depth it came from.
- :class:`Expected`: the exact expected final result of a game of chance (or an
  estimate of it, when not exact).
- :class:`Utilities`: one utility per player (more than two players).

Each is seen from a player's point of view (the first player's unless
:meth:`Score.pov` says otherwise), reads in plain words (:meth:`Score.words`), has a
JSON form under a ``kind`` (:meth:`Score.as_dict`) and compares: a better score for
its point of view is larger (a larger win, then a faster one; a slower loss).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from gamesearch.rules import ValueScale

#: what the players are called when a score is made without a game's names
DEFAULT_NAMES = ("first player", "second player")


def json_number(value: int | Fraction | None) -> int | str | None:
    """Return a value as JSON-ready data: an integer as it is, a fraction as exact text
    (``"7/27"``; a whole one as an integer)."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


def number_words(value: int | Fraction) -> str:
    """Return a value as text: whole numbers as they are, others with three decimals."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    return f"{float(value):.3f}"


def _plies(count: int) -> str:
    return f"{count} {'ply' if count == 1 else 'plies'}"


def _signed(value: int | Fraction) -> str:
    text = str(value)
    return text if value <= 0 else "+" + text


@functools.total_ordering
class Score:
    """What every kind of score offers (see the module's docstring)."""

    kind: ClassVar[str]

    def pov(self, player: int) -> Score:
        """Return this score seen from ``player``'s point of view (0: the first player)."""
        raise NotImplementedError

    def words(self) -> str:
        """Return the score in plain words (``"X wins in 3 plies"``, ``"draw"``, ...)."""
        raise NotImplementedError

    def fields(self) -> dict[str, Any]:
        """Return this kind's fields as JSON-ready data."""
        raise NotImplementedError

    def rank(self) -> tuple[Any, ...]:
        """Return what orders scores: larger is better for the point of view."""
        raise NotImplementedError

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form: ``{"kind": ..., <the kind's fields>, "words": ...}``."""
        return {"kind": self.kind, **self.fields(), "words": self.words()}

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self.rank() < other.rank()

    def __str__(self) -> str:
        return self.words()


@attrs.frozen(eq=True, order=False)
class Proven(Score):
    """A known end: ``margin`` is the final result from ``player``'s point of view (sign:
    who wins; size: by how much; 0: a draw), reached in ``plies`` (``None``: not counted)."""

    kind: ClassVar[str] = "proven"
    margin: int
    plies: int | None
    player: int = 0
    names: tuple[str, ...] = attrs.field(default=DEFAULT_NAMES, eq=False, repr=False)
    #: whether results have sizes (a win/draw/loss game's margin is always 1)
    has_margins: bool = attrs.field(default=False, eq=False, repr=False)
    #: the game's word for a forced win (chess: ``"mate"``), said with the winner's moves
    forced_win: str | None = attrs.field(default=None, eq=False, repr=False)

    def pov(self, player: int) -> Proven:
        """Return the same end from ``player``'s point of view."""
        if player == self.player:
            return self
        return attrs.evolve(self, margin=-self.margin, player=player)

    def words(self) -> str:
        """Return ``"X wins in 3 plies"``, ``"White wins by 8 in 12 plies"`` or ``"draw"``;
        with the game's word for a forced win ``"White wins: mate in 2"`` (the winner's
        moves, the last ply being the winner's)."""
        if self.margin == 0:
            return "draw"
        first_view = self.margin if self.player == 0 else -self.margin
        winner = self.names[0 if first_view > 0 else 1]
        by = f" by {abs(self.margin)}" if self.has_margins else ""
        if self.forced_win and self.plies:
            return f"{winner} wins{by}: {self.forced_win} in {(self.plies + 1) // 2}"
        within = "" if not self.plies else f" in {_plies(self.plies)}"
        return f"{winner} wins{by}{within}"

    def fields(self) -> dict[str, Any]:
        """Return ``margin``, ``plies`` and ``player`` (the point of view)."""
        return {"margin": self.margin, "plies": self.plies, "player": self.player}

    def rank(self) -> tuple[Any, ...]:
        """Return wins above everything, larger then faster first; losses below, slower
        ones higher."""
        plies = 0 if self.plies is None else self.plies
        if self.margin > 0:
            return (1, self.margin, -plies)
        if self.margin < 0:
            return (-1, self.margin, plies)
        return (0, 0, 0)


@attrs.frozen(eq=True, order=False)
class Heuristic(Score):
    """An estimate from a search's horizon ``depth`` plies below the position."""

    kind: ClassVar[str] = "heuristic"
    estimate: int
    depth: int
    player: int = 0

    def pov(self, player: int) -> Heuristic:
        """Return the estimate from ``player``'s point of view (two players: negated)."""
        if player == self.player:
            return self
        return attrs.evolve(self, estimate=-self.estimate, player=player)

    def words(self) -> str:
        """Return ``"estimate +12 at depth 4"``."""
        return f"estimate {self.estimate:+d} at depth {self.depth}"

    def fields(self) -> dict[str, Any]:
        """Return ``estimate``, ``depth`` and ``player`` (the point of view)."""
        return {"estimate": self.estimate, "depth": self.depth, "player": self.player}

    def rank(self) -> tuple[Any, ...]:
        """Return the estimate between the proven losses and wins."""
        return (0, self.estimate, 0)


@attrs.frozen(eq=True, order=False)
class Expected(Score):
    """The expected final result of a game of chance (exact), or an estimate of it."""

    kind: ClassVar[str] = "expected"
    value: Fraction
    is_exact: bool = True
    player: int = 0

    def pov(self, player: int) -> Expected:
        """Return the expectation from ``player``'s point of view (two players: negated)."""
        if player == self.player:
            return self
        return attrs.evolve(self, value=-self.value, player=player)

    def words(self) -> str:
        """Return ``"expected result +0.468 (3367/7200)"`` (a whole one without the fraction),
        or ``"estimate +0.259"``."""
        decimal = f"{float(self.value):+.3f}"
        if not self.is_exact:
            return f"estimate {decimal}"
        if self.value.denominator == 1:
            return f"expected result {_signed(self.value)}"
        return f"expected result {decimal} ({_signed(self.value)})"

    def fields(self) -> dict[str, Any]:
        """Return ``value`` (exact text), ``decimal``, ``is_exact`` and ``player``."""
        return {
            "value": json_number(self.value),
            "decimal": float(self.value),
            "is_exact": self.is_exact,
            "player": self.player,
        }

    def rank(self) -> tuple[Any, ...]:
        """Return the expectation."""
        return (0, self.value, 0)


@attrs.frozen(eq=True, order=False)
class Utilities(Score):
    """One utility per player (whole numbers when exact, estimates otherwise)."""

    kind: ClassVar[str] = "utilities"
    values: tuple[int | Fraction, ...]
    is_exact: bool = True
    player: int = 0
    names: tuple[str, ...] = attrs.field(default=(), eq=False, repr=False)

    def pov(self, player: int) -> Utilities:
        """Return the same utilities, compared by ``player``'s own."""
        return self if player == self.player else attrs.evolve(self, player=player)

    def words(self) -> str:
        """Return ``"A 3, B 0, C 0"`` (``"estimate A 1.420, ..."`` when not exact)."""
        names = self.names or tuple(f"player {seat + 1}" for seat in range(len(self.values)))
        words = ", ".join(
            f"{names[seat]} {number_words(value)}" for seat, value in enumerate(self.values)
        )
        return words if self.is_exact else f"estimate {words}"

    def fields(self) -> dict[str, Any]:
        """Return ``values``, ``is_exact`` and ``player`` (whose utility compares)."""
        return {
            "values": [json_number(value) for value in self.values],
            "is_exact": self.is_exact,
            "player": self.player,
        }

    def rank(self) -> tuple[Any, ...]:
        """Return the point of view's own utility."""
        return (0, self.values[self.player], 0)


def score_of(
    value: int | Fraction,
    *,
    is_exact: bool,
    scale: ValueScale | None,
    depth: int,
    ply: int,
    names: tuple[str, ...],
    utilities: tuple[int | Fraction, ...] | None = None,
    forced_win: str | None = None,
    results: bool = False,
) -> Score:
    """Return the score a search value stands for, first player's point of view.

    ``scale`` is the game's value scale (``None`` for a game with utilities), ``depth``
    the plies searched, ``ply`` the searched position's ply (plies to the end count
    from it), ``names`` the players' names, ``forced_win`` the game's word for a
    forced win (``"mate"``), if it has one, and ``results`` says the value is scored by
    utility (an exact value is the final result itself).
    """
    if utilities is not None:
        return Utilities(tuple(utilities), is_exact, names=tuple(names))
    if isinstance(value, Fraction):
        return Expected(value, is_exact)
    assert scale is not None
    has_margins = scale.largest_margin > 1
    if results:
        if not is_exact:
            return Heuristic(value, depth)
        return Proven(value, None, names=tuple(names), has_margins=has_margins)
    # a value beyond every heuristic one is proven, even when the search had a horizon
    if value != 0 and scale.is_proven(value) or value == 0 and is_exact:
        margin = scale.margin(value)
        assert margin is not None
        end = scale.end_ply(value)
        plies = None if end is None or end < ply else end - ply
        return Proven(
            margin, plies, names=tuple(names), has_margins=has_margins, forced_win=forced_win
        )
    if is_exact:  # an exact value a scale of plain scoring gives (no distance)
        return Proven(0 if value == 0 else (1 if value > 0 else -1), None, names=tuple(names))
    return Heuristic(value, depth)
