"""The Game protocol: one mutable position that searchers walk by making and unmaking moves.

A game object is a position plus the history of moves that led to it, like a chess
board with a move stack. A plugin author writes a small core (see :class:`Game`):
the rules as data, whose turn it is, the legal moves, making and unmaking a move, the
result once the game is over and a key for the position. The base class keeps the
history and the text notation; everything else a game may offer (a heuristic, move
ordering, engine and threat hints, fast moves, chance, its drawings, problem files)
is a capability protocol of :mod:`gamesearch.capabilities`, each checked by the
conformance kit.

A game of more than two players (or a two-player game that is not zero-sum)
declares ``utilities`` in its rules: its results are one integer utility per player
(:class:`UtilitiesGame`), and its searchers (:mod:`gamesearch.search.multiplayer`)
compare each player's own.

Otherwise results are integers from the **first player's** point of view: the sign says who
won and the magnitude by how much (disc difference, seed margin; +1/0/-1 for
win/draw/loss games). Turning results into search values is the framework's job
(:class:`~gamesearch.rules.ValueScale`, ``game.rules.scale``): a larger margin beats a
smaller one and, at equal margin, the faster win and the slower loss are preferred;
heuristic values stay strictly inside the proven ones. Reading a result
(:func:`~gamesearch.rules.outcome`, :func:`~gamesearch.rules.final_utilities`, ...) lives
in :mod:`gamesearch.rules`, its words in :mod:`gamesearch.words`.
"""

from __future__ import annotations

import abc
import copy as copying
import functools
import random
import warnings
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from gamesearch import capabilities, moved_members, rules, words

# the rules, the values and the board view live in modules of their own (import them
# from there); the names re-exported here keep their old import path for one release
from gamesearch.boardview import BoardView as BoardView
from gamesearch.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    NothingToUndoError,
)
from gamesearch.options import Option as Option
from gamesearch.options import convert_strictly_deprecated as _convert_strictly  # noqa: F401
from gamesearch.options import resolve_options as resolve_options
from gamesearch.rules import CHANCE as CHANCE
from gamesearch.rules import SEAT_NAMES as SEAT_NAMES
from gamesearch.rules import Outcome as Outcome
from gamesearch.rules import Player as Player
from gamesearch.rules import Rules as Rules
from gamesearch.rules import Scoring as Scoring
from gamesearch.rules import ValueScale as ValueScale
from gamesearch.rules import chance_heuristic as chance_heuristic
from gamesearch.rules import chance_heuristic_numerator as chance_heuristic_numerator
from gamesearch.rules import terminal_value as terminal_value
from gamesearch.words import describe_result

MoveT = TypeVar("MoveT", bound=Hashable)


class _Moved:
    """A name that moved off :class:`Game`: on a game that does not define it, it answers
    what the old default answered, with a :class:`DeprecationWarning` naming the new place
    (for one release). A descriptor, not ``__getattr__``: a class with ``__getattr__``
    makes every attribute read of its instances slower, the searchers' included."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, game: Any, owner: type | None = None) -> Any:
        if game is None:
            return self
        if self.name in _MOVED_TO_RULES:
            place, value = _MOVED_TO_RULES[self.name]
            warnings.warn(
                f"Game.{self.name} has moved: use {place}; Game.{self.name} goes in the next "
                "release",
                DeprecationWarning,
                stacklevel=2,
            )
            return value(game)
        return moved_members.moved_member(game, self.name)


if TYPE_CHECKING:
    _ProtocolType = abc.ABCMeta
else:  # (the metaclass of typing.Protocol, a subclass of ABCMeta)
    _ProtocolType = type(Protocol)


class _GameType(_ProtocolType):
    """The metaclass of games: ABCMeta's (as the capability protocols have it, so that a
    game may name one among its base classes), leaving the moved names out of ``dir()``."""

    def __dir__(cls) -> list[str]:
        return [name for name in super().__dir__() if not isinstance(_lookup(cls, name), _Moved)]


def _lookup(cls: type, name: str) -> Any:
    return next((vars(base)[name] for base in cls.__mro__ if name in vars(base)), None)


class Game(abc.ABC, Generic[MoveT], metaclass=_GameType):
    """A mutable, perfect-information position with its move history.

    **The core a game must write** (eight members):

    - :attr:`rules`: the rules as data (:class:`Rules`), a property when they depend
      on the options;
    - ``__init__(**options)``: the starting position; keep each option in an
      attribute of the same name (read by :attr:`settings`) or override ``settings``;
    - :meth:`to_move`, :meth:`legal_moves`, :meth:`make_move`, :meth:`unmake_move`,
      :meth:`result` and :meth:`key`.

    The class also sets :attr:`name` (its registry name) and :attr:`options`. The base
    class keeps the history: :meth:`push` records a move and makes it, :meth:`undo`
    takes the last one back; :attr:`ply` and :meth:`copy` are right for every game (a
    game overrides them only for speed, and the kit checks the override); the text
    notation (:meth:`to_text`, :meth:`from_text`, :meth:`format_move`,
    :meth:`parse_move`) defaults to the moves from the start.

    Everything else a game may offer is a capability protocol of
    :mod:`gamesearch.capabilities` (a heuristic, move ordering, engine and threat hints,
    fast moves, chance, its drawings and player names, problem files): a game offers one
    by defining its members, and the framework finds them through that module, never
    through defaults on this class.

    Contract searchers rely on: two positions with equal :meth:`key` have the same
    side to move, the same :attr:`ply` and the same legal moves; the history is
    always whole, so everything a game reports is right at every node of a search.
    """

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    _history: list[MoveT]

    def __new__(cls, *args: Any, **kwargs: Any) -> Game[MoveT]:
        """Return a new, empty instance whose move history is empty."""
        game = super().__new__(cls)
        game._history = []
        return game

    # ------------------------------------------------------------- the core
    @property
    @abc.abstractmethod
    def rules(self) -> Rules:
        """Return this game's rules (they may depend on its options)."""

    @abc.abstractmethod
    def to_move(self) -> int:
        """Return the player whose turn it is: a :class:`Player` in a game of two players
        (``Player.FIRST`` is 0; the conformance kit refuses a bare 0 or 1, so that
        ``game.to_move().sign`` works), the player's index in a game of more, or
        :data:`CHANCE` at a chance position of a game of chance."""

    @abc.abstractmethod
    def legal_moves(self) -> Sequence[MoveT]:
        """Return every legal move in natural order; empty once the game is over."""

    @abc.abstractmethod
    def make_move(self, move: MoveT) -> None:
        """Change the board for ``move``, which the caller guarantees is legal.

        Called by :meth:`push`, which records the move in the history first (it is
        the history's last entry while this runs).
        """

    @abc.abstractmethod
    def unmake_move(self, move: MoveT) -> None:
        """Take back ``move``, the last move made (called by :meth:`undo`; the move is
        still the history's last entry while this runs)."""

    @abc.abstractmethod
    def result(self) -> int | None:
        """Return ``None`` while the game goes on, else its final result.

        The result is seen from the first player's point of view: its sign says who
        won (0: a draw), its magnitude by how much, inside ``rules.result_range``.
        Searchers call it at every node: keep it cheap.
        """

    @abc.abstractmethod
    def key(self) -> Hashable:
        """Return a hashable identity of the position (side to move included)."""

    # ------------------------------------------------------------- creation
    @classmethod
    def new(cls, **options: Any) -> Game[MoveT]:
        """Return the starting position for these options.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        return cls(**resolve_options(cls.options, options, owner=f"game {cls.name!r}"))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Game[MoveT]:
        """Return the position described by ``text`` in the game's notation.

        The default notation is the moves from the start, separated by spaces.

        :raises InvalidPositionError: naming what is wrong with the text.
        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        game = cls.new(**options)
        for index, word in enumerate(text.split()):
            try:
                game.play(word)
            except (InvalidMoveError, IllegalMoveError) as error:
                raise InvalidPositionError(
                    f"position {text!r}: move {index + 1} ({word!r}) cannot be played: {error}"
                ) from None
        return game

    def copy(self) -> Game[MoveT]:
        """Return an independent position with the same board and history."""
        return copying.deepcopy(self)

    @property
    def settings(self) -> dict[str, Any]:
        """Return the options this position was created with (to recreate it)."""
        return {option.name: getattr(self, option.name) for option in self.options}

    # ------------------------------------------------------------ state queries
    @property
    def ply(self) -> int:
        """Return how many moves were played since the starting position (default: the history's
        length)."""
        return len(self._history)

    @property
    def history(self) -> tuple[MoveT, ...]:
        """Return the moves that can be undone, oldest first."""
        return tuple(self._history)

    def is_over(self) -> bool:
        """Return whether the game has ended."""
        return self.result() is not None

    # ------------------------------------------------------------------ changes
    def push(self, move: MoveT) -> None:
        """Record ``move`` in the history and make it; the caller guarantees it is legal."""
        self._history.append(move)
        self.make_move(move)

    def undo(self) -> MoveT:
        """Take back the last move and return it.

        :raises NothingToUndoError: when no move is left in the history.
        """
        if not self._history:
            raise NothingToUndoError(f"no move to undo in {self.to_text()!r}")
        move = self._history[-1]
        self.unmake_move(move)
        self._history.pop()
        return move

    def apply(self, move: MoveT) -> None:
        """Play ``move`` after checking it; on error nothing changes.

        :raises GameOverError: when the game is already over.
        :raises IllegalMoveError: when ``move`` is not legal here.
        """
        result = self.result()
        if result is not None:
            raise GameOverError(
                f"the game is over ({describe_result(self, result)}); "
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

    # ----------------------------------------------------------- optional: text
    def to_text(self) -> str:
        """Return the position in the game's notation (accepted by :meth:`from_text`).

        The default writes the moves from the start, separated by spaces.
        """
        return " ".join(self.format_move(move) for move in self._history)

    def parse_move(self, text: str) -> MoveT:
        """Return the move written as ``text``.

        The default looks ``text`` up among the legal moves' texts.

        :raises InvalidMoveError: naming the text and what would be valid.
        """
        wanted = str(text).strip()
        for move in self.legal_moves():
            if self.format_move(move) == wanted:
                return move
        valid = ", ".join(self.format_move(move) for move in self.legal_moves()) or "none"
        raise InvalidMoveError(f"{text!r} is not a legal move here; legal moves: {valid}")

    def format_move(self, move: MoveT) -> str:
        """Return ``move`` in the game's notation (default: ``str(move)``).

        A move's text must not depend on the position.
        """
        return str(move)

    def _safe_format(self, move: Any) -> str:
        try:
            return self.format_move(move)
        except Exception:  # a move of the wrong type cannot be formatted
            return repr(move)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"


class UtilitiesGame(Game[MoveT]):
    """A game whose results are one utility per player: subclass it instead of :class:`Game`.

    Its :attr:`rules` declare ``utilities=True`` (and ``players``, ``result_range``,
    ``constant_sum`` when the utilities always add up to the same total).
    :meth:`result` returns a tuple of one integer per player, each inside
    ``rules.result_range``, and a heuristic (``evaluate``, see
    :class:`~gamesearch.capabilities.Heuristic`) a tuple of one integer per player, each
    strictly inside ``±evaluation_bound``. Everything else is the same protocol as
    :class:`Game`'s. :class:`Game` types :meth:`result` for single-value games, so mypy
    wants ``# type: ignore[override]`` on a subclass's ``result``.
    """

    @abc.abstractmethod
    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        """Return ``None`` while the game goes on, else one final utility per player."""


def draw_outcome(game: Game[MoveT], chooser: random.Random) -> MoveT:
    """Return an outcome of the chance position ``game`` drawn with its probability.

    :raises ValueError: when ``game`` is not at a chance position.
    """
    outcomes: Sequence[tuple[MoveT, Fraction]] = capabilities.chance_outcomes(game)
    point = Fraction(chooser.random())
    for move, probability in outcomes:
        point -= probability
        if point < 0:
            return move
    return outcomes[-1][0]  # (the probabilities sum to 1)


def offers(game: Game[Any] | type[Game[Any]], method: str) -> bool:
    """Return whether ``game`` (or its class) has its own ``method`` (a capability member,
    or a member of :class:`Game` it overrides)."""
    return capabilities.defines(game, method)


def allows_null_move(game: Game[Any]) -> bool:
    """Return whether a search may pass the turn in ``game``: it offers a null move and its
    two-player rules declare zugzwang rare."""
    game_rules = game.rules
    return (
        game_rules.zugzwang_rare
        and game_rules.players == 2
        and capabilities.null_move(game) is not None
    )


def restore(game: Game[Any], snapshot: Game[Any]) -> None:
    """Make ``game`` the position ``snapshot`` holds (a copy of ``game`` taken earlier).

    Used after an interrupt that may have stopped a move half-way: every attribute of
    ``game`` (``__dict__`` and slots) is replaced by a fresh copy's.
    """
    fresh = snapshot.copy()
    for cls in type(fresh).__mro__:
        for slot in cls.__dict__.get("__slots__", ()):
            if slot in ("__dict__", "__weakref__"):
                continue
            try:
                object.__setattr__(game, slot, object.__getattribute__(fresh, slot))
            except AttributeError:
                pass
    if hasattr(fresh, "__dict__"):
        vars(game).clear()
        vars(game).update(vars(fresh))


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


#: the members that moved off :class:`Game` to the rules and result functions: the new
#: place in words, and how to answer the old name
_MOVED_TO_RULES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "max_plies": ("game.rules.max_plies", lambda game: game.rules.max_plies),
    "value_scale": ("game.rules.scale", lambda game: game.rules.scale),
    "win_score": ("game.rules.scale.win", lambda game: game.rules.scale.win),
    "eval_bound": (
        "game.rules.scale.heuristic_bound",
        lambda game: game.rules.scale.heuristic_bound,
    ),
    "terminal_sign": (
        "gamesearch.rules.terminal_sign(game)",
        lambda game: functools.partial(rules.terminal_sign, game),
    ),
    "final_utilities": (
        "gamesearch.rules.final_utilities(game)",
        lambda game: functools.partial(rules.final_utilities, game),
    ),
    "outcome": (
        "gamesearch.rules.outcome(game)",
        lambda game: functools.partial(rules.outcome, game),
    ),
    "score": (
        "gamesearch.rules.proven_value(game, scoring)",
        lambda game: functools.partial(rules.proven_value, game),
    ),
}

#: the functions that moved out of this module, and their new module
_MOVED_FUNCTIONS = {
    "describe_value": words,
    "describe_utilities": words,
    "describe_outcome": words,
    "margin_words": words,
    "signed_fraction": words,
    "number_text": words,
    "winners": rules,
}


def __getattr__(name: str) -> Any:
    """Serve a function that moved out of this module (``describe_value`` and the other
    words, ``winners``), with a :class:`DeprecationWarning` naming its new module.

    :raises AttributeError: for any other name.
    """
    if name not in _MOVED_FUNCTIONS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _MOVED_FUNCTIONS[name]
    warnings.warn(
        f"gamesearch.game.{name} has moved to {module.__name__}.{name}; the old name goes "
        "in the next release",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(module, name)


# the names that moved off Game, set after the class (the type checker knows the members
# above and no others)
for _name in (*moved_members.REPLACEMENTS, *_MOVED_TO_RULES):
    setattr(Game, _name, _Moved(_name))
del _name
