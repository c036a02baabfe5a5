"""The rules of a game as data, and the framework's scale of search values.

A game declares its :class:`Rules` (players, the longest game, the result range,
chance, utilities ...); searchers read them to refuse a game they cannot handle, and
:class:`ValueScale` turns final results and heuristic estimates into search values.
:class:`Player`, :class:`Outcome` and :class:`Scoring` name the players, who won and
how a finished game is scored. This module imports nothing of the framework: the game
protocol (:mod:`gamesearch.game`) and every searcher build on it.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

import attrs

#: what :meth:`Game.to_move` returns at a chance position: no player chooses, an
#: outcome of :meth:`Game.chance_outcomes` is drawn
CHANCE = -1


class Player(enum.IntEnum):
    """The two players of a two-player game; the first player moves first and maximises."""

    FIRST = 0
    SECOND = 1

    @property
    def sign(self) -> int:
        """Return +1 for the first player and -1 for the second."""
        return 1 if self is Player.FIRST else -1

    @property
    def opponent(self) -> Player:
        """Return the other player."""
        return Player.SECOND if self is Player.FIRST else Player.FIRST


#: the two players by their index (``PLAYERS[0]`` is :attr:`Player.FIRST`): a game that
#: keeps its turn as 0 or 1 answers ``to_move()`` with ``PLAYERS[turn]``, one tuple read
#: (reading a member off the enum class is slower, and ``to_move`` is asked at every node)
PLAYERS = (Player.FIRST, Player.SECOND)

#: how the players are called by their place in the turn order (records, JSON)
SEAT_NAMES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


class Outcome(enum.Enum):
    """Who won a finished game; the value is the sign of the result."""

    FIRST_WINS = 1
    SECOND_WINS = -1
    DRAW = 0

    @property
    def winner(self) -> Player | None:
        """Return the winning player, or ``None`` for a draw."""
        if self is Outcome.FIRST_WINS:
            return Player.FIRST
        if self is Outcome.SECOND_WINS:
            return Player.SECOND
        return None


class Scoring(enum.Enum):
    """How a finished game is scored.

    ``GAME`` (every searcher's default) is the game's own scoring, what its rules
    declare (:attr:`Rules.scoring`): ``UTILITY`` for an explicit game tree, ``DISTANCE``
    for the others. ``DISTANCE`` prefers, at equal margin, the fastest forced win and
    the slowest forced loss. ``PLAIN`` ignores the distance, as textbook minimax does
    (it reproduces the textbook node counts). ``UTILITY`` is the textbook's numbers: a
    finished game is worth its result as the game gives it (AIMA Figure 5.2 is worth
    3), and a position at a horizon its evaluation, on the same scale.
    """

    GAME = "game"
    DISTANCE = "distance"
    PLAIN = "plain"
    UTILITY = "utility"

    # Each scoring is one object, equal only to itself: hashed by identity, in C (an
    # Enum hashes its name in Python, and searches look tables up by their scoring).
    __hash__ = object.__hash__


@attrs.frozen
class Rules:
    """A game's rules, declared as data; the conformance kit checks each against play.

    Rules may depend on a game's options (a game returns them from its
    :attr:`Game.rules` property). Searchers read them to refuse, up front, a game
    they cannot handle.
    """

    #: the longest possible game in plies (a pass is a ply: a move that changes nothing
    #: but the turn)
    max_plies: int
    #: how many players take part
    players: int = 2
    #: true when every move passes the turn to the other player
    alternating: bool = False
    #: true when some positions are decided by chance (see :meth:`Game.chance_outcomes`)
    chance: bool = False
    #: the lowest and highest final result, first player's point of view
    result_range: tuple[int, int] = (-1, 1)
    #: true when :meth:`Game.result` gives one utility per player (a tuple, each inside
    #: ``result_range``) instead of the first player's margin; required for more than
    #: two players, allowed for two-player games that are not zero-sum
    utilities: bool = False
    #: what every final utility tuple adds up to, when that is the same for all of them
    #: (``None``: not declared); max^n prunes with it
    constant_sum: int | None = None
    #: true when passing is almost never better than moving (no zugzwang to speak of):
    #: with :meth:`Game.make_null_move`, the engine's null-move pruning may then pass
    zugzwang_rare: bool = False
    #: how a finished game is scored when a searcher is not told otherwise (its
    #: ``scoring`` option left at ``game``): an explicit tree says ``UTILITY``
    scoring: Scoring = Scoring.DISTANCE
    #: the framework's scale of values for these rules (worked out once)
    scale: ValueScale = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        low, high = self.result_range
        if self.max_plies < 0:
            raise ValueError(f"'max_plies' must be >= 0: {self.max_plies!r}")
        if self.players < 1:
            raise ValueError(f"'players' must be >= 1: {self.players!r}")
        if low > high:
            raise ValueError(f"'result_range' must be (lowest, highest): {self.result_range!r}")
        if self.players > 2 and not self.utilities:
            raise ValueError(
                f"a game of {self.players!r} players must declare utilities=True (one result per "
                "player)"
            )
        if self.constant_sum is not None:
            if not self.utilities:
                raise ValueError(f"'constant_sum' needs utilities=True: {self.constant_sum!r}")
            if not self.players * low <= self.constant_sum <= self.players * high:
                raise ValueError(
                    f"'constant_sum' must lie between {self.players * low} and "
                    f"{self.players * high} "
                    f"({self.players} utilities in {low}..{high}): {self.constant_sum!r}"
                )
        if self.scoring is Scoring.GAME:
            raise ValueError("a game's 'scoring' must name one: distance, plain or utility")
        scale = ValueScale(self.max_plies, max(1, self.largest_margin), self.scoring)
        object.__setattr__(self, "scale", scale)

    @property
    def largest_margin(self) -> int:
        """Return the largest magnitude a final result can have."""
        return max(abs(self.result_range[0]), abs(self.result_range[1]))

    def as_dict(self) -> dict[str, Any]:
        """Return the rules as JSON-ready data."""
        return {
            "players": self.players,
            "alternating": self.alternating,
            "chance": self.chance,
            "max_plies": self.max_plies,
            "result_range": list(self.result_range),
            "utilities": self.utilities,
            "constant_sum": self.constant_sum,
            "zugzwang_rare": self.zugzwang_rare,
        }


@attrs.frozen
class ValueScale:
    """How the framework turns final results and heuristics into search values.

    A game finished at ply ``p`` with result ``r`` (not 0) is worth
    ``sign(r) * ((|r| - 1) * stride + win - p)`` with distance scoring, where
    ``stride = max_plies + 1``: a larger margin beats a smaller one whatever the
    plies, and at equal margin the faster win is worth more. Plain scoring drops the
    ``- p``. A draw is 0. Every proven non-draw value lies beyond
    :attr:`heuristic_bound`, every heuristic value strictly inside it. Utility scoring
    is the result itself, on the heuristics' scale (:meth:`proven` says which).
    """

    max_plies: int
    largest_margin: int
    #: the game's own scoring, what :attr:`Scoring.GAME` stands for
    scoring: Scoring = Scoring.DISTANCE
    win: int = attrs.field(init=False)

    @win.default
    def _win(self) -> int:
        win = 1000
        while win - self.max_plies < win // 2:
            win *= 10
        return win

    @classmethod
    def of(cls, rules: Rules) -> ValueScale:
        """Return the scale for games with these rules."""
        return rules.scale

    @property
    def stride(self) -> int:
        """Return the value distance between two successive margins."""
        return self.max_plies + 1

    @property
    def heuristic_bound(self) -> int:
        """Return the bound heuristic values stay strictly inside."""
        return self.win - self.max_plies

    @property
    def largest(self) -> int:
        """Return the largest value a finished game can have."""
        return (self.largest_margin - 1) * self.stride + self.win

    def resolve(self, scoring: Scoring) -> Scoring:
        """Return ``scoring``, the game's own scoring in place of :attr:`Scoring.GAME`."""
        return self.scoring if scoring is Scoring.GAME else scoring

    def proven(self, result: int, ply: int, scoring: Scoring = Scoring.GAME) -> int:
        """Return the value of a game finished at ``ply`` with ``result`` (with utility
        scoring: ``result`` itself)."""
        if scoring is Scoring.GAME:
            scoring = self.scoring
        if result == 0 or scoring is Scoring.UTILITY:
            return result
        magnitude = (abs(result) - 1) * self.stride + self.win
        if scoring is Scoring.DISTANCE:
            magnitude -= ply
        return magnitude if result > 0 else -magnitude

    def is_proven(self, value: int) -> bool:
        """Return whether ``value`` (other than 0) can only be a finished game's."""
        return abs(value) >= self.heuristic_bound

    def margin(self, value: int) -> int | None:
        """Return the final result a proven ``value`` stands for, ``None`` for a heuristic one.

        A value of 0 counts as a draw (margin 0).
        """
        if value == 0:
            return 0
        if not self.is_proven(value):
            return None
        steps = (abs(value) - self.heuristic_bound) // self.stride
        return (steps + 1) if value > 0 else -(steps + 1)

    def end_ply(self, value: int) -> int | None:
        """Return the ply at which a proven, distance-scored ``value`` ends the game.

        ``None`` for a heuristic value, a draw, or a plain-scored value (whose
        distance is unknown).
        """
        margin = self.margin(value)
        if not margin:
            return None
        ply = (abs(margin) - 1) * self.stride + self.win - abs(value)
        return ply if ply > 0 else None

    def heuristic(self, estimate: float, bound: float) -> int:
        """Return a game's heuristic ``estimate`` (strictly inside ``±bound``) as a value."""
        limit = self.heuristic_bound - 1
        if bound <= limit:
            return int(estimate)
        return int(estimate * limit / bound)


def terminal_value(sign: int, ply: int, win_score: int, scoring: Scoring) -> int:
    """Return the value of a win/draw/loss game ending at ``ply`` with result ``sign``.

    Kept for the textbook pages; a game with margins uses :meth:`ValueScale.proven`.
    """
    if scoring is Scoring.UTILITY:
        return sign
    if scoring is Scoring.PLAIN:
        return sign * win_score
    return sign * (win_score - ply)


def chance_heuristic(rules: Rules, estimate: int, bound: int) -> Fraction:
    """Return a game of chance's heuristic ``estimate`` (strictly inside ``±bound``) as a value.

    The estimate is mapped linearly onto the open result range: ``-bound`` would be
    the lowest result, ``+bound`` the highest, so the value is never a final result's.
    """
    return Fraction(chance_heuristic_numerator(rules, estimate, bound), 2 * bound)


def chance_heuristic_numerator(rules: Rules, estimate: int, bound: int) -> int:
    """Return :func:`chance_heuristic` times ``2 * bound`` (an integer: searchers that
    work in whole multiples of a unit use it)."""
    low, high = rules.result_range
    return low * 2 * bound + (estimate + bound) * (high - low)


# --------------------------------------------------------------------------------------
# Reading a finished game's result. Each takes a game (typed ``Any``: this module sits
# below gamesearch.game) and asks only its ``result()``, ``rules`` and ``ply``.


def terminal_sign(game: Any) -> int | None:
    """Return ``None`` while ``game`` goes on, else the sign of its result (+1, 0, -1).

    For a game with utilities it is the sign of the first player's utility less the
    best of the others' (:func:`winners` names the players on top).
    """
    result: int | tuple[int, ...] | None = game.result()
    if result is None:
        return None
    if isinstance(result, tuple):
        first, others = result[0], max(result[1:], default=result[0])
        return int(first > others) - int(first < others)
    return int(result > 0) - int(result < 0)


def final_utilities(game: Any) -> tuple[int, ...] | None:
    """Return one final utility per player of ``game``, or ``None`` while it goes on.

    That is ``result()`` for a game whose rules declare utilities; a two-player game's
    first-player result ``r`` is ``(r, -r)`` (a one-player game's ``(r,)``).
    """
    result: Any = game.result()
    if result is None or isinstance(result, tuple):
        return result
    return (result, -result) if game.rules.players == 2 else (result,)


def outcome(game: Any) -> Outcome | None:
    """Return who won ``game``, or ``None`` while it goes on."""
    sign = terminal_sign(game)
    return None if sign is None else Outcome(sign)


def winners(game: Any) -> tuple[int, ...]:
    """Return the players with the highest final utility (empty while the game goes on)."""
    utilities = final_utilities(game)
    if utilities is None:
        return ()
    best = max(utilities)
    return tuple(player for player, utility in enumerate(utilities) if utility == best)


def proven_value(game: Any, scoring: Scoring = Scoring.GAME) -> int:
    """Return the search value of the finished ``game``, first player's point of view
    (scored as ``scoring`` says; by default as the game's rules say).

    :raises ValueError: when the game is not over, or gives one utility per player.
    """
    result: Any = game.result()
    if result is None:
        raise ValueError(f"the game is not over: {game.to_text()!r}")
    if isinstance(result, tuple):
        raise ValueError(
            f"a game with utilities has no single value (see final_utilities()): {game.to_text()!r}"
        )
    value: int = game.rules.scale.proven(result, game.ply, scoring)
    return value
