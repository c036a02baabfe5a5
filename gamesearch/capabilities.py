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
============================  =====================================================

For one release :class:`~gamesearch.game.Game` still carries a default for each
member but those of :class:`ProblemFiles`, so ``isinstance`` cannot tell whether a
game offers a capability: :func:`offered` does, once per search (a game offers a
capability when its class defines every member itself, or declares the protocol as a
base class). :class:`ProblemFiles` has no defaults: a game declares it, and the
framework finds its members through the declaration, never by looking the names up.

A searcher names the capabilities it needs (:meth:`Searcher.unmet_needs
<gamesearch.search.base.Searcher.unmet_needs>`) and refuses a game that lacks one at
once, with the protocol's name in the message.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from gamesearch.boardview import BoardView
from gamesearch.game import Game, offers


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
    """How people see a position: a terminal drawing, a clickable grid, player names."""

    #: how the players are called in text, one name per player
    player_names: tuple[str, ...]

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


#: the members of each capability, as the kit and :func:`offered` look for them
MEMBERS: dict[type, tuple[str, ...]] = {
    Heuristic: ("evaluate", "evaluation_bound"),
    MoveOrdering: ("ordered_moves",),
    EngineHints: ("noisy_moves", "is_forcing"),
    NullMove: ("make_null_move", "unmake_null_move"),
    ThreatHints: ("winning_moves", "non_losing_moves"),
    FastMoves: ("advance", "retract", "move_results", "advance_results"),
    Chance: ("chance_outcomes",),
    Presentation: ("render", "board_view", "player_names"),
    ProblemFiles: ("read_problems", "problem_suites"),
}
#: every capability protocol, in the order of the guide
CAPABILITIES = tuple(MEMBERS)


def declares(game: Game[Any] | type[Game[Any]], capability: type) -> bool:
    """Return whether ``game``'s class names ``capability`` among its base classes."""
    cls = game if isinstance(game, type) else type(game)
    return capability in cls.__mro__


def offered(game: Game[Any] | type[Game[Any]], capability: type) -> bool:
    """Return whether ``game`` (or its class) offers ``capability``: it declares the
    protocol, or (the old way, for the capabilities :class:`Game` has defaults for) its
    class defines at least one member of its own, the others keeping their defaults.

    A capability of one member is offered when that member is the game's own; the kit
    checks every member of an offered capability against brute force.
    """
    if declares(game, capability):
        return True
    if capability is ProblemFiles:
        return False  # declared only: never found by its members' names
    return any(_defines(game, member) for member in MEMBERS[capability])


def _defines(game: Game[Any] | type[Game[Any]], member: str) -> bool:
    """Return whether ``game``'s class defines ``member`` instead of :class:`Game`'s default."""
    if member in ("evaluation_bound", "player_names"):  # plain class attributes
        cls = game if isinstance(game, type) else type(game)
        owner = next((base for base in cls.__mro__ if member in vars(base)), Game)
        return owner.__module__ != Game.__module__
    return offers(game, member)


def capability_words(capability: type) -> str:
    """Return ``capability`` in words, with its members:
    ``"the NullMove capability (make_null_move, unmake_null_move)"``."""
    return f"the {capability.__name__} capability ({', '.join(MEMBERS[capability])})"


def problem_files_member(cls: type[Game[Any]], member: str) -> Callable[..., Any] | None:
    """Return the class method ``member`` (``read_problems`` or ``problem_suites``) of a
    game class that declares :class:`ProblemFiles`, ``None`` when it does not.

    For one release a class that defines the method without the declaration (the old
    protocol's way) is still served, with a :class:`DeprecationWarning`.
    """
    if declares(cls, ProblemFiles):
        found: Callable[..., Any] = getattr(cls, member)
        return found
    undeclared: Callable[..., Any] | None = getattr(cls, member, None)  # the old way
    if not callable(undeclared):
        return None
    warnings.warn(
        f"{cls.__name__}.{member} is found by its name only; declare the capability "
        f"(class {cls.__name__}(Game[...], gamesearch.capabilities.ProblemFiles)): the next "
        "release reads problem files of declaring games only",
        DeprecationWarning,
        stacklevel=3,
    )
    return undeclared
