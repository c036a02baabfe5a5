"""What a game may offer beyond its core: each capability a named protocol.

The core of a game (:class:`~gamesearch.game.Game`: the rules, whose turn, the legal
moves, making and unmaking a move, the result, the key, construction with options)
is all a searcher needs to play it. A game offers more by implementing one of the
protocols below; each is documented in the plugin guide and checked by the
conformance kit against brute force:

============================  =====================================================
:class:`Heuristic`            ``evaluate`` and its ``evaluation_bound``
:class:`MoveOrdering`         ``ordered_moves``, most promising first
:class:`EngineHints`          ``noisy_moves`` and ``is_forcing``
:class:`NullMove`             ``make_null_move`` / ``unmake_null_move`` (with
                              ``Rules.zugzwang_rare`` the engine prunes with it)
:class:`ThreatHints`          ``winning_moves``, ``non_losing_moves``
:class:`FastMoves`            ``advance``/``retract``, ``move_results``,
                              ``advance_results``
:class:`Chance`               ``chance_outcomes`` (required with ``Rules.chance``)
:class:`Presentation`         ``render``, ``board_view``, ``player_names``
:class:`ProblemFiles`         ``read_problems``, ``problem_suites`` (declared)
:class:`Repetition`           ``repetition_key``, ``repetitions``: a result that
                              depends on the moves played (repetition draws)
:class:`FutureKey`            ``future_key``: what positions with the same future
                              share (solution stores key by it)
============================  =====================================================

A game offers a capability by defining its members in its own class (the ones it
leaves out keep the defaults below) or by naming the protocol among its base classes.
The framework never looks for a member on the game itself: it asks this module once
per search for the callable to use (:func:`heuristic`, :func:`move_order`,
:func:`advancer` and the others): the game's own method when its class has one
(:class:`GameClass`, worked out once per class), else the default. :func:`offered`
says whether a game offers a capability. :class:`ProblemFiles` has no defaults: a game
declares it, and the framework finds its members through the declaration only.

A searcher names the capabilities it needs (:meth:`Searcher.unmet_needs
<gamesearch.search.base.Searcher.unmet_needs>`) and refuses a game that lacks one at
once, with the protocol's name in the message.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from gamesearch.boardview import BoardView

# (games are typed ``Any`` here: this module sits below gamesearch.game, which reads its
# defaults from it)


@runtime_checkable
class Heuristic(Protocol):
    """An estimate of an unfinished position, for searches stopped at a depth."""

    #: :meth:`evaluate` stays strictly inside ``±evaluation_bound``
    evaluation_bound: int

    def evaluate(self) -> Any:
        """Return the estimate, first player's point of view (an int), or one per player
        (a tuple) for a game with utilities; strictly inside ``±evaluation_bound``."""


@runtime_checkable
class MoveOrdering(Protocol):
    """The legal moves, most promising first: alpha-beta cuts off sooner."""

    def ordered_moves(self) -> Sequence[Hashable]:
        """Return every legal move once, in the order to try them."""


@runtime_checkable
class EngineHints(Protocol):
    """What the search engine asks: which moves are noisy, which force the reply."""

    def noisy_moves(self) -> Sequence[Hashable]:
        """Return the legal moves that change the position sharply (quiescence plays them)."""

    def is_forcing(self, move: Any) -> bool:
        """Return whether the legal ``move`` forces the reply (the engine extends it)."""


@runtime_checkable
class NullMove(Protocol):
    """Passing the turn in a search only: best-reply search lets one opponent reply with
    it, and the engine prunes with it when the rules declare ``zugzwang_rare``."""

    def make_null_move(self) -> None:
        """Pass the turn without moving (no history entry)."""

    def unmake_null_move(self) -> None:
        """Take back the null move just made."""


@runtime_checkable
class ThreatHints(Protocol):
    """The moves that win at once, and the moves that do not lose at once.

    Its precondition is a declaration the kit verifies: ``non_losing_moves`` only in a
    two-player game with alternating turns and results +1/0/-1.
    """

    def winning_moves(self) -> Sequence[Hashable]:
        """Return the moves that win the game at once for the player to move."""

    def non_losing_moves(self) -> Sequence[Hashable] | None:
        """Return the moves after which the opponent cannot win at once, or ``None``."""


@runtime_checkable
class FastMoves(Protocol):
    """A fused move pair and the results of every move at once, for speed only: each
    answers exactly what the core's moves and results would."""

    def advance(self, move: Any) -> Any:
        """Play the trusted ``move`` (into the history) and return the new result."""

    def retract(self, move: Any) -> None:
        """Take back ``move``, the last one played."""

    def move_results(self, ordered: bool = False) -> Sequence[tuple[Any, Any]]:
        """Return every legal move with the result of the position it leads to."""

    def advance_results(self, move: Any, ordered: bool = False) -> Sequence[tuple[Any, Any]]:
        """Play ``move`` and return :meth:`move_results` of the position it reaches."""


@runtime_checkable
class Chance(Protocol):
    """The outcomes of a chance position with their exact probabilities (required of a
    game whose rules declare ``chance``)."""

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        """Return every outcome (the legal moves, in order) with its probability."""


@runtime_checkable
class Presentation(Protocol):
    """How people see and use a position: a terminal drawing, a clickable grid, player
    names, the searcher the command line uses by default, and whether positions are read
    from files."""

    #: how the players are called in text, one name per player
    player_names: tuple[str, ...]
    #: the searcher spec ``gamesearch analyze`` and ``tree`` use when none is given
    default_searcher: str | None
    #: true when positions are long texts kept in files (explicit trees): the command
    #: line's ``--position`` then also takes the name of a file holding the text
    position_files: bool
    #: what the game calls a forced win, if it names one ("mate"): a proven win is then
    #: said as "White wins: mate in 2", counting the winner's moves, not plies
    forced_win_name: str | None

    def render(self) -> str:
        """Return a drawing of the board for a terminal."""

    def board_view(self) -> BoardView | None:
        """Return the position as a clickable grid, or ``None``."""


@runtime_checkable
class ProblemFiles(Protocol):
    """Test suites in the game's own file format, and the suites the plugin ships.

    Declared by naming the protocol among the game's base classes
    (``class Chess(Game[chess.Move], ProblemFiles)``); both are class methods.
    """

    @classmethod
    def read_problems(cls, text: str) -> Sequence[Any]:
        """Return the :class:`~gamesearch.problems.Problem` list of a suite's text.

        :raises InvalidPositionError: naming the first line that is not a problem.
        """
        raise NotImplementedError  # (a declaring game defines it: the kit checks)

    @classmethod
    def problem_suites(cls) -> Mapping[str, Path]:
        """Return the suites the plugin ships: names to files."""
        raise NotImplementedError  # (a declaring game defines it: the kit checks)


@runtime_checkable
class Repetition(Protocol):
    """A result that depends on the moves played: a position occurring ``repetitions``
    times in a game ends it in a draw, which ``result()`` reports from the history
    (without it, a result depends on the key alone). Searchers score a position repeated
    on their line as a draw, kept out of tables (:mod:`gamesearch.search.repetition`)."""

    repetitions: int  #: occurrences of one position that end the game in a draw (>= 2)

    def repetition_key(self) -> Hashable:
        """Return what positions that count as the same share (chess: the key less counters)."""


@runtime_checkable
class FutureKey(Protocol):
    """What is left of the game, the key of solution stores (else ``key()``): equal future
    keys mean the same side to move, moves and results from here on, whatever led here."""

    def future_key(self) -> Hashable:
        """Return what positions with one future share (Kalah: board and side, no ply)."""


#: the members of each capability, as the kit and :func:`offered` look for them
MEMBERS: dict[type, tuple[str, ...]] = {
    Heuristic: ("evaluate", "evaluation_bound"),
    MoveOrdering: ("ordered_moves",),
    EngineHints: ("noisy_moves", "is_forcing"),
    NullMove: ("make_null_move", "unmake_null_move"),
    ThreatHints: ("winning_moves", "non_losing_moves"),
    FastMoves: ("advance", "retract", "move_results", "advance_results"),
    Chance: ("chance_outcomes",),
    Presentation: (
        "render",
        "board_view",
        "player_names",
        "default_searcher",
        "position_files",
        "forced_win_name",
    ),
    ProblemFiles: ("read_problems", "problem_suites"),
    Repetition: ("repetition_key", "repetitions"),
    FutureKey: ("future_key",),
}
#: every capability protocol, in the order of the guide
CAPABILITIES = tuple(MEMBERS)


#: the modules whose classes hold no game's own members (the base classes, the protocols)
_FRAMEWORK_MODULES = frozenset({"gamesearch.game", __name__, "typing", "abc", "builtins"})


def _class_of(game: Any) -> type:
    return game if isinstance(game, type) else type(game)


def declares(game: Any, capability: type) -> bool:
    """Return whether ``game``'s class (or ``game``, a class) has ``capability`` as a base."""
    return capability in _class_of(game).__mro__


def defines(game: Any, member: str) -> bool:
    """Return whether ``game``'s class (or ``game``, a class) defines ``member`` itself, or
    inherits it from a class other than the framework's base classes and protocols. A
    subclass withdraws a member it inherits by setting it to ``None`` (the default then
    serves it again), as ``__hash__ = None`` withdraws hashing."""
    return _defined_by(_class_of(game), member)


@functools.cache  # (once per class and member: searchers ask at every search)
def _defined_by(cls: type, member: str) -> bool:
    for base in cls.__mro__:
        found = vars(base)
        if member in found:
            return base.__module__ not in _FRAMEWORK_MODULES and found[member] is not None
    return False


def offered(game: Any, capability: type) -> bool:
    """Return whether ``game`` (or its class) offers ``capability``: it declares the
    protocol, or its class defines at least one member of it, the others keeping their
    defaults (the kit checks every member of an offered capability against brute force)."""
    return capability in game_class(game).offers


class GameClass:
    """What one game class offers, worked out once per class (:func:`game_class`) from the
    class alone: whether a member is the game's own is a fact of its class (:func:`defines`);
    the values of members (``player_names``, ...) are read from the game when asked for."""

    def __init__(self, cls: type) -> None:
        members = (member for names in MEMBERS.values() for member in names)
        #: the members of the capabilities that the class defines itself (:func:`defines`)
        self.own = frozenset(member for member in members if _defined_by(cls, member))
        #: the capabilities the class offers (:func:`offered`)
        self.offers = frozenset(
            capability
            for capability, members in MEMBERS.items()
            if capability in cls.__mro__
            or (capability is not ProblemFiles and not self.own.isdisjoint(members))
        )
        #: whether the class defines every member of :class:`FastMoves` itself (a search
        #: binds them as they are: :func:`fast_moves`)
        self.fast_moves = self.own.issuperset(MEMBERS[FastMoves])
        #: whether the class defines ``repetition_key`` (:class:`Repetition`): a search
        #: watches its line for repeated positions
        self.repeats = "repetition_key" in self.own


#: the record of every game class asked about, by class (:func:`game_class`)
_game_classes: dict[type, GameClass] = {}


def game_class(game: Any) -> GameClass:
    """Return what ``game``'s class (or ``game``, a class) offers, worked out on first use."""
    # (every search asks, twice: a look-up of the class itself, where a cached function
    # would build and hash a tuple of its arguments)
    cls = game if isinstance(game, type) else type(game)  # (_class_of inline)
    try:
        return _game_classes[cls]
    except KeyError:
        record = _game_classes[cls] = GameClass(cls)
        return record


def capability_words(capability: type) -> str:
    """Return ``capability`` in words, with its members:
    ``"the NullMove capability (make_null_move, unmake_null_move)"``."""
    return f"the {capability.__name__} capability ({', '.join(MEMBERS[capability])})"


# ---------------------------------------------------------------------------------------
# The members a searcher or a front end calls, each resolved once (per search, per page):
# the game's own when it has one, else the default. The defaults are written for
# reading; a game that wants speed defines its own.


def _own(game: Any, member: str) -> Any:
    """Return the game's own ``member``, or ``None`` when it keeps the default."""
    own = game_class(game).own
    return getattr(game, member) if member in own else None


def heuristic(game: Any) -> Callable[[], Any]:
    """Return the game's ``evaluate`` (:class:`Heuristic`), or the default that knows
    nothing: 0, or one 0 per player for a game with utilities."""
    own = _own(game, "evaluate")
    if own is not None:
        return own  # type: ignore[no-any-return]
    rules = game.rules
    nothing: Any = (0,) * rules.players if rules.utilities else 0
    return lambda: nothing


def heuristic_bound(game: Any) -> int:
    """Return the bound ``evaluate`` stays strictly inside (:class:`Heuristic`; default 100)."""
    own = _own(game, "evaluation_bound")
    return 100 if own is None else int(own)


def move_order(game: Any) -> Callable[[], Sequence[Any]]:
    """Return the game's ``ordered_moves`` (:class:`MoveOrdering`), else ``legal_moves``."""
    own = _own(game, "ordered_moves")
    return own if own is not None else game.legal_moves  # type: ignore[no-any-return]


def noisy_moves(game: Any) -> Callable[[], Sequence[Any]]:
    """Return the game's ``noisy_moves`` (:class:`EngineHints`), else one that gives none."""
    own = _own(game, "noisy_moves")
    return own if own is not None else tuple


def _never(move: Any) -> bool:
    return False


def forcing_test(game: Any) -> Callable[[Any], bool]:
    """Return the game's ``is_forcing`` (:class:`EngineHints`), else one that says false."""
    own = _own(game, "is_forcing")
    return own if own is not None else _never


def null_move(game: Any) -> tuple[Callable[[], None], Callable[[], None]] | None:
    """Return the game's ``make_null_move`` and ``unmake_null_move`` (:class:`NullMove`),
    or ``None`` when it does not offer both."""
    make, unmake = _own(game, "make_null_move"), _own(game, "unmake_null_move")
    return None if make is None or unmake is None else (make, unmake)


def repetition_key(game: Any) -> Callable[[], Hashable] | None:
    """Return the game's ``repetition_key`` (:class:`Repetition`), ``None`` without one."""
    return _own(game, "repetition_key")  # type: ignore[no-any-return]


def future_key(game: Any) -> Callable[[], Hashable]:
    """Return the game's ``future_key`` (:class:`FutureKey`), or its ``key`` without one."""
    return _own(game, "future_key") or game.key  # type: ignore[no-any-return]


def repetitions(game: Any) -> int:
    """Return the occurrences that draw ``game`` (:class:`Repetition`; 0: no such rule)."""
    return int(_own(game, "repetitions") or 0) if defines(game, "repetition_key") else 0


def winning_moves(game: Any) -> Callable[[], Sequence[Any]]:
    """Return the game's ``winning_moves`` (:class:`ThreatHints`), else the default that
    plays each legal move and looks (in a game with utilities a win leaves the mover's
    utility above everyone else's)."""
    own = _own(game, "winning_moves")
    if own is not None:
        return own  # type: ignore[no-any-return]

    def by_play() -> list[Any]:
        mover = game.to_move()
        wins = []
        for move in game.legal_moves():
            game.push(move)
            result: int | tuple[int, ...] | None = game.result()
            if isinstance(result, tuple):  # utilities: a win leaves the mover alone on top
                if result[mover] > max(result[:mover] + result[mover + 1 :]):
                    wins.append(move)
            elif result is not None and (result > 0 if mover == 0 else result < 0):
                wins.append(move)
            game.undo()
        return wins

    return by_play


def non_losing_moves(game: Any) -> Callable[[], Sequence[Any] | None]:
    """Return the game's ``non_losing_moves`` (:class:`ThreatHints`), else one that answers
    ``None`` (not offered)."""
    own = _own(game, "non_losing_moves")
    return own if own is not None else _nothing


def _nothing() -> None:
    return None


def advancer(game: Any) -> Callable[[Any], int | None]:
    """Return the game's ``advance`` (:class:`FastMoves`), else the default: ``push`` the
    trusted move, then return ``result()`` of the new position."""
    own = _own(game, "advance")
    if own is not None:
        return own  # type: ignore[no-any-return]
    push, result = game.push, game.result

    def advance(move: Any) -> int | None:
        push(move)
        found: int | None = result()
        return found

    return advance


def retractor(game: Any) -> Callable[[Any], None]:
    """Return the game's ``retract`` (:class:`FastMoves`), else the default: take back the
    trusted ``move``, the last one played, like ``undo()`` without its check."""
    own = _own(game, "retract")
    if own is not None:
        return own  # type: ignore[no-any-return]
    unmake = game.unmake_move

    def retract(move: Any) -> None:
        unmake(move)
        game._history.pop()

    return retract


def move_results(game: Any) -> Callable[..., Sequence[tuple[Any, Any]]]:
    """Return the game's ``move_results`` (:class:`FastMoves`), else the default: every
    legal move (in ``ordered_moves`` order when called with ``ordered`` true) with the
    result of the position it leads to, found by playing each move."""
    own = _own(game, "move_results")
    if own is not None:
        return own  # type: ignore[no-any-return]
    ordered_moves, push, result, undo = move_order(game), game.push, game.result, game.undo

    def by_play(ordered: bool = False) -> list[tuple[Any, Any]]:
        found = []
        for move in ordered_moves() if ordered else game.legal_moves():
            push(move)
            found.append((move, result()))
            undo()
        return found

    return by_play


def advance_results(game: Any) -> Callable[..., Sequence[tuple[Any, Any]]]:
    """Return the game's ``advance_results`` (:class:`FastMoves`), else the default: the
    move resolved by :func:`advancer`, then :func:`move_results` of the new position."""
    own = _own(game, "advance_results")
    if own is not None:
        return own  # type: ignore[no-any-return]
    advance, results = advancer(game), move_results(game)

    def in_two(move: Any, ordered: bool = False) -> Sequence[tuple[Any, Any]]:
        advance(move)
        return results(ordered)

    return in_two


def fast_moves(game: Any) -> tuple[Any, Any, Any, Any, bool]:
    """Return :func:`advancer`, :func:`retractor`, :func:`move_results` and
    :func:`advance_results` of ``game`` (:class:`FastMoves`) in one call, and whether its
    ``move_results`` is its own (a search may then score finished children unplayed)."""
    offers = game_class(game)
    if offers.fast_moves:  # (all the game's own: bound as they are)
        return game.advance, game.retract, game.move_results, game.advance_results, True
    pair = advancer(game), retractor(game), move_results(game), advance_results(game)
    return (*pair, "move_results" in offers.own)


def chance_outcomes(game: Any) -> Sequence[tuple[Any, Fraction]]:
    """Return the outcomes of the chance position ``game`` with their probabilities
    (:class:`Chance`).

    :raises ValueError: when ``game`` offers no chance or is not at a chance position.
    """
    own = _own(game, "chance_outcomes")
    if own is None:
        raise ValueError(f"{game.to_text()!r} is not a chance position")
    outcomes: Sequence[tuple[Any, Fraction]] = own()
    return outcomes


def outcomes_of(game: Any) -> Callable[[], Sequence[tuple[Any, Fraction]]]:
    """Return the game's ``chance_outcomes`` (:class:`Chance`), else one that raises
    :class:`ValueError` (no position of the game is a chance position)."""
    own = _own(game, "chance_outcomes")
    return own if own is not None else lambda: chance_outcomes(game)


def render(game: Any) -> str:
    """Return the game's drawing for a terminal (:class:`Presentation`; default: its text)."""
    own = _own(game, "render")
    return str(game.to_text() if own is None else own())


def board_view(game: Any) -> BoardView | None:
    """Return the position as a clickable grid (:class:`Presentation`), ``None`` without."""
    own = _own(game, "board_view")
    return None if own is None else own()


def player_names(game: Any) -> tuple[str, ...]:
    """Return how the players are called (:class:`Presentation`; default first, second)."""
    own = _own(game, "player_names")
    return ("first", "second") if own is None else tuple(own)


def default_searcher(game: Any) -> str | None:
    """Return the searcher spec the command line uses for the game when none is given
    (:class:`Presentation`), ``None`` for the command line's own default."""
    own = _own(game, "default_searcher")
    return None if own is None else str(own)


def position_files(game: Any) -> bool:
    """Return whether the game's positions may be given as the name of a file holding the
    text (:class:`Presentation`; default false)."""
    return bool(_own(game, "position_files"))


def forced_win_name(game: Any) -> str | None:
    """Return what the game calls a forced win ("mate"), or ``None`` when it names none
    (:class:`Presentation`)."""
    own = _own(game, "forced_win_name")
    return None if own is None else str(own)
