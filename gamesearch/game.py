"""The Game protocol: one mutable position that searchers walk by making and unmaking moves.

A game object is a position plus the history of moves that led to it, like a chess
board with a move stack. A plugin author writes a small core (see :class:`Game`):
the rules as data, whose turn it is, the legal moves, making and unmaking a move, the
result once the game is over and a key for the position. The base class keeps the
history and derives everything else; the rest (text notation, drawings, a heuristic,
move ordering, threat hints, a fused fast move pair) are optional capabilities a game
offers by overriding a method, each checked by the conformance kit.

A game of more than two players (or a two-player game that is not zero-sum)
declares ``utilities`` in its rules: its results are one integer utility per player
(:class:`UtilitiesGame`), and its searchers (:mod:`gamesearch.search.multiplayer`)
compare each player's own.

Otherwise results are integers from the **first player's** point of view: the sign says who
won and the magnitude by how much (disc difference, seed margin; +1/0/-1 for
win/draw/loss games). Turning results into search values is the framework's job
(:class:`ValueScale`): a larger margin beats a smaller one and, at equal margin,
the faster win and the slower loss are preferred; heuristic values of
:meth:`Game.evaluate` stay strictly inside the proven ones.

A game of chance (``Rules.chance``) also has chance positions, where
:meth:`Game.to_move` returns :data:`CHANCE` and :meth:`Game.chance_outcomes` lists
each outcome with its exact probability. Its values are expected final results
(:func:`chance_heuristic` maps a heuristic strictly inside the result range).
"""

from __future__ import annotations

import abc
import copy as copying
import random
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

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

MoveT = TypeVar("MoveT", bound=Hashable)


class Game(abc.ABC, Generic[MoveT]):
    """A mutable, perfect-information position with its move history.

    **The core a game must write** (eight members):

    - :attr:`rules`: the rules as data (:class:`Rules`), a property when they depend
      on the options;
    - ``__init__(**options)``: the starting position; keep each option in an
      attribute of the same name (read by :attr:`settings`) or override ``settings``;
    - :meth:`to_move`, :meth:`legal_moves`, :meth:`make_move`, :meth:`unmake_move`,
      :meth:`result` and :meth:`key`.

    The class also sets :attr:`name` (its registry name), :attr:`options` and
    :attr:`player_names`. The base class keeps the history: :meth:`push` records a
    move and makes it, :meth:`undo` takes the last one back.

    **Optional capabilities**, each offered by overriding the default and each
    checked by the conformance kit: text notation (:meth:`to_text`,
    :meth:`from_text`, :meth:`format_move`, :meth:`parse_move`), drawing
    (:meth:`render`, :meth:`board_view`), a heuristic (:meth:`evaluate` with
    :attr:`evaluation_bound`), move ordering (:meth:`ordered_moves`), threat hints
    (:meth:`winning_moves`, :meth:`non_losing_moves`), what a search engine asks
    (:meth:`noisy_moves`, :meth:`is_forcing`, a null move), a fast :meth:`copy`, a
    :attr:`ply` for positions set up without their history, a fused fast move
    pair (:meth:`advance`, :meth:`retract`) and the results of the moves at once
    (:meth:`move_results`, and :meth:`advance_results` to play a move and get them).

    Contract searchers rely on: two positions with equal :meth:`key` have the same
    side to move, the same :attr:`ply` and the same legal moves; the history is
    always whole, so everything a game reports is right at every node of a search.
    """

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    #: how the players are called in text (X and O, Black and White, ...)
    player_names: ClassVar[tuple[str, ...]] = ("first", "second")
    #: :meth:`evaluate` stays strictly inside ``±evaluation_bound``
    evaluation_bound: ClassVar[int] = 100
    #: the searcher spec ``gamesearch analyze`` and ``tree`` use when none is given
    default_searcher: ClassVar[str | None] = None
    #: what the game calls a forced win, if it names one ("mate"): a proven win is then
    #: said as "White wins: mate in 2", counting the winner's moves, not plies
    forced_win_name: ClassVar[str | None] = None
    #: true when positions are long texts kept in files (explicit trees): the command
    #: line's ``--position`` then also takes the name of a file holding the text
    position_files: ClassVar[bool] = False

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
        """Return the index of the player whose turn it is (``Player.FIRST`` is 0), or
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
    def max_plies(self) -> int:
        """Return the longest possible game (from :attr:`rules`)."""
        return self.rules.max_plies

    @property
    def history(self) -> tuple[MoveT, ...]:
        """Return the moves that can be undone, oldest first."""
        return tuple(self._history)

    def ordered_moves(self) -> Sequence[MoveT]:
        """Return the legal moves, most promising first (default: natural order)."""
        return self.legal_moves()

    def terminal_sign(self) -> int | None:
        """Return ``None`` while the game goes on, else the sign of :meth:`result` (+1, 0, -1).

        For a game with utilities it is the sign of the first player's utility less the
        best of the others' (:func:`winners` names the players on top).
        """
        result: int | tuple[int, ...] | None = self.result()
        if result is None:
            return None
        if isinstance(result, tuple):
            first, others = result[0], max(result[1:], default=result[0])
            return int(first > others) - int(first < others)
        return int(result > 0) - int(result < 0)

    def final_utilities(self) -> tuple[int, ...] | None:
        """Return one final utility per player, or ``None`` while the game goes on.

        That is :meth:`result` for a game whose rules declare utilities; a two-player
        game's first-player result ``r`` is ``(r, -r)`` (a one-player game's ``(r,)``).
        """
        result: Any = self.result()
        if result is None or isinstance(result, tuple):
            return result
        return (result, -result) if self.rules.players == 2 else (result,)

    def outcome(self) -> Outcome | None:
        """Return who won, or ``None`` while the game goes on."""
        sign = self.terminal_sign()
        return None if sign is None else Outcome(sign)

    def is_over(self) -> bool:
        """Return whether the game has ended."""
        return self.result() is not None

    @property
    def value_scale(self) -> ValueScale:
        """Return the framework's scale of values for this game's rules."""
        return self.rules.scale

    @property
    def win_score(self) -> int:
        """Return the value of a win by the smallest margin at ply 0 (plain scoring's win)."""
        return self.value_scale.win

    @property
    def eval_bound(self) -> int:
        """Return the bound that search values of heuristics stay strictly inside."""
        return self.value_scale.heuristic_bound

    def score(self, scoring: Scoring = Scoring.DISTANCE) -> int:
        """Return the search value of a finished game from the first player's point of view.

        :raises ValueError: when the game is not over.
        """
        result: Any = self.result()
        if result is None:
            raise ValueError(f"the game is not over: {self.to_text()!r}")
        if isinstance(result, tuple):
            raise ValueError(
                "a game with utilities has no single value (see final_utilities()): "
                f"{self.to_text()!r}"
            )
        return self.value_scale.proven(result, self.ply, scoring)

    # ------------------------------------------------------- optional: chance
    def chance_outcomes(self) -> Sequence[tuple[MoveT, Fraction]]:
        """Return every outcome of the chance position with its exact probability.

        Required of a game whose rules declare ``chance``: at a position where
        :meth:`to_move` returns :data:`CHANCE`, the outcomes are exactly
        :meth:`legal_moves` (in that order), each with a :class:`~fractions.Fraction`
        greater than 0, together summing to 1. An outcome is played with
        :meth:`push` like any move. The default has no chance positions.

        :raises ValueError: when the position is not a chance position.
        """
        raise ValueError(f"{self.to_text()!r} is not a chance position")

    # -------------------------------------------- optional: heuristic, threats
    def evaluate(self) -> int:
        """Return a heuristic value of an unfinished position (first player's view).

        It must lie strictly inside ``±evaluation_bound``. The default knows nothing: 0.
        """
        return 0

    def winning_moves(self) -> Sequence[MoveT]:
        """Return the moves that win the game at once for the player to move.

        In a game with utilities a win leaves the mover's utility above everyone
        else's. The default plays each legal move and looks; a game can answer faster.
        """
        mover = self.to_move()
        wins = []
        for move in self.legal_moves():
            self.push(move)
            result: int | tuple[int, ...] | None = self.result()
            if isinstance(result, tuple):  # utilities: a win leaves the mover alone on top
                if result[mover] > max(result[:mover] + result[mover + 1 :]):
                    wins.append(move)
            elif result is not None and (result > 0 if mover == 0 else result < 0):
                wins.append(move)
            self.undo()
        return wins

    def non_losing_moves(self) -> Sequence[MoveT] | None:
        """Return the moves after which the opponent cannot win at once, best first,
        or ``None`` when the game does not offer this (the default).

        Only a two-player game whose turns alternate and whose results are +1/0/-1,
        where a player wins solely by their own move and a game ends only with a win
        or with no legal move left, may offer it; the exact searchers then also assume
        the player to move cannot win at once (they check :meth:`winning_moves`
        first) and prune by move parity. The conformance kit checks the hint
        against brute force.
        """
        return None

    # ------------------------------------- optional: what a search engine asks
    def noisy_moves(self) -> Sequence[MoveT]:
        """Return the legal moves that change the position sharply (captures, promotions,
        immediate threats), a subset of :meth:`legal_moves`; the engine's quiescence
        search plays only these past its horizon. The default: none.
        """
        return ()

    def is_forcing(self, move: MoveT) -> bool:
        """Return whether the legal ``move`` forces the reply (chess: it gives check);
        the engine's extensions search such a move one ply deeper. The default: false.
        """
        return False

    def make_null_move(self) -> None:
        """Pass the turn to the other player without moving, in a search only (a null move
        is never a legal move and goes into no history); :meth:`unmake_null_move` takes it
        back. Offer both to let the engine prune by null moves, and only with rules that
        declare ``zugzwang_rare``.

        :raises NotImplementedError: by default: the game offers no null move.
        """
        raise NotImplementedError(f"{type(self).__name__} offers no null move")

    def unmake_null_move(self) -> None:
        """Take back the null move just made (see :meth:`make_null_move`).

        :raises NotImplementedError: by default: the game offers no null move.
        """
        raise NotImplementedError(f"{type(self).__name__} offers no null move")

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

    def advance(self, move: MoveT) -> int | None:
        """Play a trusted move and return :meth:`result` of the new position.

        The searchers' hot path, always paired with :meth:`retract`. The default is
        :meth:`push` then :meth:`result`; a game may fuse them for speed, but the
        move must go into the history as with :meth:`push`.
        """
        self.push(move)
        return self.result()

    def retract(self, move: MoveT) -> None:
        """Take back ``move``, the last move played (trusted); the default is :meth:`undo`."""
        self.unmake_move(move)
        self._history.pop()

    def move_results(self, ordered: bool = False) -> Sequence[tuple[MoveT, int | None]]:
        """Return every legal move with the :meth:`result` of the position it leads to
        (``None``: the game goes on there), in :meth:`legal_moves` order, or in
        :meth:`ordered_moves` order when ``ordered`` is true.

        An optional capability, for games where the answer costs less than playing each
        move (a table look-up): minimax and alpha-beta then score a child that ends
        the game without playing it. The default plays each move and looks.
        """
        found = []
        for move in self.ordered_moves() if ordered else self.legal_moves():
            self.push(move)
            found.append((move, self.result()))
            self.undo()
        return found

    def advance_results(
        self, move: MoveT, ordered: bool = False
    ) -> Sequence[tuple[MoveT, int | None]]:
        """Play the trusted ``move``, after which the game goes on, and return
        :meth:`move_results` (``ordered`` likewise) of the position it reaches; the move
        goes into the history as with :meth:`push`, and :meth:`retract` takes it back.

        An optional capability next to :meth:`move_results`: alpha-beta plays each child
        it expands with it, one call where it would make two. The default is
        :meth:`advance` then :meth:`move_results`.
        """
        self.advance(move)
        return self.move_results(ordered)

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


class UtilitiesGame(Game[MoveT]):
    """A game whose results are one utility per player: subclass it instead of :class:`Game`.

    Its :attr:`rules` declare ``utilities=True`` (and ``players``, ``result_range``,
    ``constant_sum`` when the utilities always add up to the same total).
    :meth:`result` returns a tuple of one integer per player, each inside
    ``rules.result_range``, and :meth:`evaluate` a tuple of one integer per player,
    each strictly inside ``±evaluation_bound`` (the default: 0 each). Everything
    else is the same protocol as :class:`Game`'s. :class:`Game` types both methods for
    single-value games, so mypy wants ``# type: ignore[override]`` on a subclass's
    ``result`` and ``evaluate``.
    """

    @abc.abstractmethod
    def result(self) -> tuple[int, ...] | None:  # type: ignore[override]
        """Return ``None`` while the game goes on, else one final utility per player."""

    def evaluate(self) -> tuple[int, ...]:  # type: ignore[override]
        """Return a heuristic utility per player for an unfinished position (default: 0 each).

        Each must lie strictly inside ``±evaluation_bound``; the searchers map them
        strictly inside the result range.
        """
        return (0,) * self.rules.players


def draw_outcome(game: Game[MoveT], chooser: random.Random) -> MoveT:
    """Return an outcome of the chance position ``game`` drawn with its probability.

    :raises ValueError: when ``game`` is not at a chance position.
    """
    outcomes = game.chance_outcomes()
    point = Fraction(chooser.random())
    for move, probability in outcomes:
        point -= probability
        if point < 0:
            return move
    return outcomes[-1][0]  # (the probabilities sum to 1)


def offers(game: Game[Any] | type[Game[Any]], method: str) -> bool:
    """Return whether ``game`` (or its class) overrides the optional ``method`` of :class:`Game`."""
    cls = game if isinstance(game, type) else type(game)
    return getattr(cls, method) is not getattr(Game, method)


def allows_null_move(game: Game[Any]) -> bool:
    """Return whether a search may pass the turn in ``game``: it offers a null move and its
    two-player rules declare zugzwang rare."""
    rules = game.rules
    return (
        rules.zugzwang_rare
        and rules.players == 2
        and offers(game, "make_null_move")
        and offers(game, "unmake_null_move")
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


def _plies(count: int) -> str:
    return f"{count} {'ply' if count == 1 else 'plies'}"


def margin_words(game: Game[Any], margin: int) -> str:
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


def describe_value(game: Game[Any], value: int | Fraction, *, is_exact: bool = True) -> str:
    """Return ``value`` (a search result for ``game``) in words.

    For example ``"X wins in 3 plies"``, ``"White wins by 8 in 12 plies"``,
    ``"draw"`` or ``"heuristic +12"``; for a game of chance ``"expected result
    +7/27 (+0.259)"`` or ``"estimate +0.259"``; for a game that names its forced wins
    (:attr:`Game.forced_win_name`) ``"White wins: mate in 2"``.
    """
    if game.rules.chance:
        decimal = f"{float(value):+.3f}"
        if not is_exact:
            return f"estimate {decimal}"
        if Fraction(value).denominator == 1:
            return f"expected result {signed_fraction(value)}"
        return f"expected result {signed_fraction(value)} ({decimal})"
    assert isinstance(value, int)
    scale = game.value_scale
    margin = scale.margin(value) if is_exact or scale.is_proven(value) else None
    if margin is None:
        return f"{value:+d}" if is_exact else f"heuristic {value:+d}"
    if margin == 0:
        return "draw" if value == 0 else f"{value:+d}"
    winner = game.player_names[0 if margin > 0 else 1]
    words = f"{winner} wins{margin_words(game, margin)}"
    end = scale.end_ply(value)
    if end is None or end < game.ply:
        return words
    plies, named = end - game.ply, type(game).forced_win_name
    if named and plies > 0:  # the winner's moves: the last ply is the winner's
        return f"{words}: {named} in {(plies + 1) // 2}"
    return f"{words} in {_plies(plies)}"


def winners(game: Game[Any]) -> tuple[int, ...]:
    """Return the players with the highest final utility (empty while the game goes on)."""
    utilities = game.final_utilities()
    if utilities is None:
        return ()
    best = max(utilities)
    return tuple(player for player, utility in enumerate(utilities) if utility == best)


def number_text(value: int | Fraction) -> str:
    """Return a utility as text: whole numbers as they are, others with three decimals."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    return f"{float(value):.3f}"


def describe_utilities(
    game: Game[Any], utilities: Sequence[int | Fraction], *, is_exact: bool = True
) -> str:
    """Return one utility per player in words: ``"A 3, B 0, C 0"``.

    A value that is not exact (a heuristic's, mapped inside the result range) is said
    so: ``"estimate A 1.420, B 0.790, C 0.790"``.
    """
    words = ", ".join(
        f"{game.player_names[player]} {number_text(value)}"
        for player, value in enumerate(utilities)
    )
    return words if is_exact else f"estimate {words}"


def describe_result(game: Game[Any], result: int | tuple[int, ...]) -> str:
    """Return a finished game's result in words: ``"X won"``, ``"a draw"``, ``"Black won by 4"``.

    A game with utilities names its winners and every utility: ``"A won: A 3, B 0, C 0"``.
    """
    if isinstance(result, tuple):
        best = max(result)
        top = [
            game.player_names[player] for player, utility in enumerate(result) if utility == best
        ]
        head = "a draw" if len(top) == len(result) else f"{' and '.join(top)} won"
        return f"{head}: {describe_utilities(game, result)}"
    if result == 0:
        return "a draw"
    winner = game.player_names[0 if result > 0 else 1]
    return f"{winner} won{margin_words(game, result)}"


def describe_outcome(outcome: Outcome) -> str:
    """Return a short English description of an outcome."""
    if outcome is Outcome.DRAW:
        return "a draw"
    return "first player won" if outcome is Outcome.FIRST_WINS else "second player won"
