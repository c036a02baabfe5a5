"""The Game protocol: one mutable position that searchers walk with push and undo.

A game object is a position plus the history of moves that led to it, like a chess
board with a move stack. Searchers explore by :meth:`Game.push` (trusted, fast),
recurse, then :meth:`Game.undo`; everything a user types goes through the checked
:meth:`Game.apply` or :meth:`Game.play`.

Values are integers seen from the **first player's** point of view: a win is
positive, a loss negative, a draw zero. A finished game is worth
``±(win_score - ply)`` with distance-aware scoring (the faster win is worth more)
or ``±win_score`` with plain scoring, and :meth:`Game.evaluate` must stay strictly
inside ``±eval_bound`` so a heuristic guess never looks like a proven result.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import attrs

from gamesearch.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
)

MoveT = TypeVar("MoveT", bound=Hashable)


class Player(enum.IntEnum):
    """The two players; the first player moves first and maximises."""

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


class Outcome(enum.Enum):
    """How a finished game ended; the value is the sign of the score."""

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

    ``DISTANCE`` (the default everywhere) scores a win ``win_score - ply``, so the
    fastest forced win and the slowest forced loss are preferred. ``PLAIN`` scores
    every win ``win_score``, as textbook win/draw/loss minimax does.
    """

    DISTANCE = "distance"
    PLAIN = "plain"


@attrs.frozen
class Option:
    """One option a game accepts (board size, k in a row, ...)."""

    name: str
    type: type
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None

    def convert(self, value: Any) -> Any:
        """Return ``value`` (text or already typed) converted and range-checked.

        :raises InvalidOptionError: when the value has the wrong type or range.
        """
        try:
            converted = self.type(value)
        except (TypeError, ValueError):
            raise InvalidOptionError(
                f"option {self.name!r} must be {self.type.__name__}: {value!r}"
            ) from None
        if self.minimum is not None and converted < self.minimum:
            raise InvalidOptionError(
                f"option {self.name!r} must be >= {self.minimum}: {value!r}"
            )
        if self.maximum is not None and converted > self.maximum:
            raise InvalidOptionError(
                f"option {self.name!r} must be <= {self.maximum}: {value!r}"
            )
        return converted


def resolve_options(specs: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return every option of ``specs`` with its default or its converted given value.

    :raises InvalidOptionError: for an unknown name or a bad value.
    """
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        valid = ", ".join(sorted(known)) or "none"
        raise InvalidOptionError(f"unknown option {unknown[0]!r}; valid options: {valid}")
    return {
        spec.name: spec.convert(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


@attrs.frozen
class BoardView:
    """A grid drawing of a position for boards that are not text: the web board uses it.

    ``symbols`` and ``moves`` list the cells row by row from the top left. A click on
    cell ``i`` plays ``moves[i]`` (move text), or nothing where it is ``None``.
    """

    rows: int
    cols: int
    symbols: tuple[str, ...]  #: what each cell shows ("X", "O", "" for empty, ...)
    moves: tuple[str | None, ...]  #: the move a click on each cell plays, if any


class Game(abc.ABC, Generic[MoveT]):
    """A mutable two-player, zero-sum, perfect-information position.

    Subclasses implement the abstract methods; the rest is derived. A game class
    also sets :attr:`name` (its registry name) and :attr:`options` (what
    :meth:`new` and :meth:`from_text` accept).

    Contract searchers rely on: two positions with equal :meth:`key` have the same
    side to move, the same :attr:`ply` and the same legal moves.
    """

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    #: a win is worth ``win_score - ply`` (distance scoring) or ``win_score`` (plain)
    win_score: ClassVar[int] = 1000
    #: how the first and second player are called in text (X and O, ...)
    player_names: ClassVar[tuple[str, str]] = ("first", "second")
    #: true when every move passes the turn to the other player; searchers then ask
    #: :meth:`to_move` only at the root (the conformance kit checks the claim)
    turns_alternate: ClassVar[bool] = False

    # ----------------------------------------------------------------- creation
    @classmethod
    @abc.abstractmethod
    def new(cls, **options: Any) -> Game[MoveT]:
        """Return the starting position for these options.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """

    @classmethod
    @abc.abstractmethod
    def from_text(cls, text: str, **options: Any) -> Game[MoveT]:
        """Return the position described by ``text`` in the game's notation.

        :raises InvalidPositionError: naming what is wrong with the text.
        :raises InvalidOptionError: for an unknown option or a bad value.
        """

    @abc.abstractmethod
    def copy(self) -> Game[MoveT]:
        """Return an independent position with the same board and history."""

    @property
    @abc.abstractmethod
    def settings(self) -> dict[str, Any]:
        """Return the options this position was created with (to recreate it)."""

    # ------------------------------------------------------------ state queries
    @property
    @abc.abstractmethod
    def ply(self) -> int:
        """Return how many moves have been played since the empty starting position."""

    @property
    @abc.abstractmethod
    def max_plies(self) -> int:
        """Return an upper bound on the length of any game of these options."""

    @abc.abstractmethod
    def to_move(self) -> Player:
        """Return the player whose turn it is."""

    @abc.abstractmethod
    def legal_moves(self) -> Sequence[MoveT]:
        """Return every legal move in natural order; empty once the game is over."""

    def ordered_moves(self) -> Sequence[MoveT]:
        """Return the legal moves, most promising first (default: natural order)."""
        return self.legal_moves()

    # -------------------------------------------- optional help for exact solvers
    def winning_moves(self) -> Sequence[MoveT]:
        """Return the moves that win the game at once for the player to move.

        The default plays each legal move and looks; a game can answer faster.
        """
        winner = 1 if self.to_move() is Player.FIRST else -1
        wins = []
        for move in self.legal_moves():
            self.push(move)
            if self.terminal_sign() == winner:
                wins.append(move)
            self.undo()
        return wins

    def non_losing_moves(self) -> Sequence[MoveT] | None:
        """Return the moves after which the opponent cannot win at once, best first,
        or ``None`` when the game does not offer this (the default).

        Only a game where a player wins solely by their own move, turns alternate,
        and a game ends only with a win or with no legal move left may offer it; the
        exact searchers then also assume the player to move cannot win at once (they
        check :meth:`winning_moves` first) and prune by move parity. The order is
        the game's best guess, e.g. moves that create the most threats first.
        """
        return None

    @abc.abstractmethod
    def terminal_sign(self) -> int | None:
        """Return ``None`` while the game goes on, else +1/-1/0 (first player wins/loses/draw).

        This is the searchers' hot-path test; keep it cheap.
        """

    @abc.abstractmethod
    def key(self) -> Hashable:
        """Return a hashable identity of the position (side to move included)."""

    def evaluate(self) -> int:
        """Return a heuristic value of an unfinished position (first player's view).

        It must lie strictly inside ``±eval_bound``. The default knows nothing: 0.
        """
        return 0

    @property
    def eval_bound(self) -> int:
        """Return the bound that :meth:`evaluate` must stay strictly inside."""
        return self.win_score - self.max_plies

    def outcome(self) -> Outcome | None:
        """Return how the game ended, or ``None`` while it goes on."""
        sign = self.terminal_sign()
        return None if sign is None else Outcome(sign)

    def is_over(self) -> bool:
        """Return whether the game has ended."""
        return self.terminal_sign() is not None

    def score(self, scoring: Scoring = Scoring.DISTANCE) -> int:
        """Return the value of a finished game from the first player's point of view.

        :raises ValueError: when the game is not over.
        """
        sign = self.terminal_sign()
        if sign is None:
            raise ValueError(f"the game is not over: {self.to_text()!r}")
        return terminal_value(sign, self.ply, self.win_score, scoring)

    # ------------------------------------------------------------------ changes
    @abc.abstractmethod
    def push(self, move: MoveT) -> None:
        """Play a move the caller guarantees is legal (the searchers' fast path)."""

    def advance(self, move: MoveT) -> int | None:
        """Play a trusted move and return :meth:`terminal_sign` of the new position.

        The searchers' hot path, always paired with :meth:`retract`: one call where
        ``push`` then ``terminal_sign`` would make two. The default does exactly
        that. A game may fuse them for speed and may also leave the move out of its
        history (the searchers take it back with ``retract(move)``, never ``undo()``);
        a game that overrides one of the pair overrides both.
        """
        self.push(move)
        return self.terminal_sign()

    def retract(self, move: MoveT) -> None:
        """Take back ``move``, the last move played by :meth:`advance` (trusted).

        The default is :meth:`undo`.
        """
        self.undo()

    @abc.abstractmethod
    def undo(self) -> MoveT:
        """Take back the last move and return it.

        :raises NothingToUndoError: when no move is left in the history.
        """

    def apply(self, move: MoveT) -> None:
        """Play ``move`` after checking it; on error nothing changes.

        :raises GameOverError: when the game is already over.
        :raises IllegalMoveError: when ``move`` is not legal here.
        """
        outcome = self.outcome()
        if outcome is not None:
            raise GameOverError(
                f"the game is over ({describe_outcome(outcome)}); "
                f"no move is legal in {self.to_text()!r}"
            )
        moves = self.legal_moves()
        if move not in moves:
            valid = ", ".join(self.format_move(legal) for legal in moves)
            raise IllegalMoveError(
                f"illegal move {self._safe_format(move)!r} in {self.to_text()!r}; "
                f"legal moves: {valid}"
            )
        self.push(move)

    def play(self, text: str) -> MoveT:
        """Parse ``text`` as a move, play it after checking it, and return the move.

        :raises InvalidMoveError: when the text is not a move of this game.
        :raises IllegalMoveError: when the move is not legal here.
        """
        move = self.parse_move(text)
        self.apply(move)
        return move

    @property
    @abc.abstractmethod
    def history(self) -> tuple[MoveT, ...]:
        """Return the moves that can be undone, oldest first."""

    # --------------------------------------------------------------------- text
    @abc.abstractmethod
    def to_text(self) -> str:
        """Return the position in the game's notation (accepted by :meth:`from_text`)."""

    @abc.abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Return the move written as ``text``.

        :raises InvalidMoveError: naming the text and what would be valid.
        """

    @abc.abstractmethod
    def format_move(self, move: MoveT) -> str:
        """Return ``move`` in the game's notation."""

    def render(self) -> str:
        """Return a drawing of the board for a terminal (default: :meth:`to_text`)."""
        return self.to_text()

    def board_view(self) -> BoardView | None:
        """Return the position as a clickable grid, or ``None`` for games that have none."""
        return None

    def _safe_format(self, move: Any) -> str:
        try:
            return self.format_move(move)
        except Exception:  # a move of the wrong type cannot be formatted
            return repr(move)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"


def terminal_value(sign: int, ply: int, win_score: int, scoring: Scoring) -> int:
    """Return the value of a finished game ending at ``ply`` with result ``sign``."""
    if scoring is Scoring.PLAIN:
        return sign * win_score
    return sign * (win_score - ply)


def check_alternating_counts(
    described: str,
    first: int,
    second: int,
    first_won: bool,
    second_won: bool,
    *,
    won: str = "winning",
    pieces: str = "marks",
) -> None:
    """Check that a board of a game where X (first) and O alternate could have been played.

    ``described`` names the board in messages (``"position 'XXX......'"``); ``first`` and
    ``second`` count each side's pieces; ``won`` says how a side has won.

    :raises InvalidPositionError: for impossible counts, two winners, or a winner who
        did not make the last move.
    """
    if first not in (second, second + 1):
        raise InvalidPositionError(
            f"{described} has {first} X and {second} O; X moves first, so X must have as "
            f"many {pieces} as O or one more"
        )
    if first_won and second_won:
        raise InvalidPositionError(f"{described} has both X and O {won}")
    if first_won and first != second + 1:
        raise InvalidPositionError(
            f"{described} has X {won} but O has moved since (X must have one more than O)"
        )
    if second_won and first != second:
        raise InvalidPositionError(
            f"{described} has O {won} but X has moved since (X and O must have as many {pieces})"
        )


def describe_value(game: Game[Any], value: int, *, is_exact: bool = True) -> str:
    """Return ``value`` (a search result for ``game``) in words, e.g. ``"X wins in 3 plies"``.

    A value beyond ``eval_bound`` is a proven win or loss; ``win_score`` itself is a
    plain-scored one (no distance known).
    """
    if abs(value) < game.eval_bound:
        if value == 0 and is_exact:
            return "draw"
        return f"heuristic {value:+d}" if not is_exact else f"{value:+d}"
    winner = game.player_names[0 if value > 0 else 1]
    if abs(value) == game.win_score:
        return f"{winner} wins"
    plies = game.win_score - abs(value) - game.ply
    return f"{winner} wins in {plies} {'ply' if plies == 1 else 'plies'}"


def describe_outcome(outcome: Outcome) -> str:
    """Return a short English description of an outcome."""
    if outcome is Outcome.DRAW:
        return "a draw"
    return "first player won" if outcome is Outcome.FIRST_WINS else "second player won"
