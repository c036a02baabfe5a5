"""Protocol checks: does a game keep every promise of :class:`gamesearch.game.Game`?

:func:`check_position` checks one position; :func:`check_game` walks the positions
of a game (all of them when there are few, a depth-first slice plus random playouts
otherwise) and checks each, and checks keys across positions: two different
positions must not share a key, and one position reached by two move orders must
not get two keys.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import attrs

from gamesearch import capabilities
from gamesearch.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    NothingToUndoError,
)
from gamesearch.game import Game, offers
from gamesearch.plugins import Registry
from gamesearch.testing.capability_checks import (
    check_advance_and_retract,
    check_advance_results,
    check_board_view,
    check_engine_hints,
    check_move_results,
    check_presentation,
    check_problem_files,
    check_repetition,
    check_threat_hints,
)
from gamesearch.testing.pickling import check_pickling
from gamesearch.testing.positions import GameLike, start_position
from gamesearch.testing.snapshot import Snapshot as Snapshot
from gamesearch.testing.snapshot import fail, require_unchanged
from gamesearch.testing.state_checks import check_state

#: move text no game should accept
NONSENSE_MOVE = "not a move!"
#: how many moves of other positions are tried as illegal moves in each position
ILLEGAL_TRIES = 3
#: the most games that seek repetitions check_game plays for a game with repetition draws
REPEATING_GAMES = 2
#: the longest of those games, in plies
REPEATING_PLIES = 60


class _NotAMove:
    """A value that is a move of no game: ``apply`` must refuse it."""

    def __repr__(self) -> str:
        return "<not a move>"


NOT_A_MOVE = _NotAMove()
_NO_MOVE: Any = object()  # the end of a list of moves in the kit's walk


@attrs.frozen
class GameReport:
    """What :func:`check_game` checked."""

    game: str  #: the game's registered name
    positions: int  #: distinct positions checked
    terminal: int  #: of which finished games
    is_exhaustive: bool  #: true when every position reachable from the start was checked
    longest: int  #: the highest ply seen


def check_position(game: Game[Any], *, other_moves: Iterable[Hashable] = ()) -> None:
    """Check every promise of the protocol on the position ``game``; leave it as it was.

    ``other_moves`` are moves seen in other positions: those not legal here are
    tried and must be refused.

    :raises ConformanceError: naming the position and the broken promise.
    """
    before = Snapshot.of(game)
    check_state(game, before)
    _check_moves(game, before)
    _check_text(game, before)
    for move in before.legal_moves:
        _check_apply_and_undo(game, before, move)
    _check_illegal_moves(game, before, other_moves)
    _check_copy(game, before)
    check_board_view(game, before)
    check_threat_hints(game, before)
    check_engine_hints(game, before)
    check_move_results(game, before)
    check_advance_results(game, before)
    check_presentation(game, before)
    check_repetition(game, before)
    require_unchanged(game, before, "checking it")


def _check_moves(game: Game[Any], before: Snapshot) -> None:
    text, moves = before.text, before.legal_moves
    if len(set(moves)) != len(moves):
        repeated = sorted({game.format_move(move) for move in moves if moves.count(move) > 1})
        raise fail(game, text, f"legal_moves() lists {', '.join(repeated)} more than once")
    ordered = tuple(capabilities.move_order(game)())
    if len(ordered) != len(moves) or set(ordered) != set(moves):
        raise fail(
            game,
            text,
            f"ordered_moves() {ordered!r} is not a reordering of legal_moves() {moves!r}",
        )
    written: dict[str, Hashable] = {}
    for move in moves:
        move_text = game.format_move(move)
        if not isinstance(move_text, str) or not move_text.strip():
            raise fail(game, text, f"format_move({move!r}) returned {move_text!r}, not move text")
        if move_text in written:
            raise fail(
                game,
                text,
                f"moves {written[move_text]!r} and {move!r} are both written {move_text!r}",
            )
        written[move_text] = move
        try:
            parsed = game.parse_move(move_text)
        except InvalidMoveError as error:
            raise fail(
                game, text, f"parse_move({move_text!r}) refused the legal move {move!r}: {error}"
            ) from error
        if parsed != move:
            raise fail(
                game, text, f"parse_move({move_text!r}) returned {parsed!r}, not the move {move!r}"
            )
    try:
        parsed = game.parse_move(NONSENSE_MOVE)
    except InvalidMoveError:
        return
    except Exception as error:
        raise fail(
            game,
            text,
            f"parse_move({NONSENSE_MOVE!r}) raised {type(error).__name__}, not InvalidMoveError",
        ) from error
    raise fail(game, text, f"parse_move({NONSENSE_MOVE!r}) accepted the nonsense as {parsed!r}")


def _check_text(game: Game[Any], before: Snapshot) -> None:
    text = before.text
    if not isinstance(text, str):
        raise fail(game, repr(text), f"to_text() returned a {type(text).__name__}, not text")
    try:
        twin = type(game).from_text(text, **game.settings)
    except (InvalidPositionError, InvalidMoveError) as error:
        raise fail(
            game, text, f"from_text(to_text()) refused the game's own text: {error}"
        ) from error
    # text carries no history; nor, in a game with repetition draws, the draw that the
    # history makes (check_repetition counts it)
    ignored: tuple[str, ...] = ("history ",)
    if before.result == 0 and capabilities.repetition_key(game) is not None:
        ignored = ("history ", "legal_moves ", "result ")
    changes = [
        change for change in before.differences(Snapshot.of(twin)) if not change.startswith(ignored)
    ]
    if changes:
        raise fail(game, text, "from_text(to_text()) gives another position: " + "; ".join(changes))
    if twin.settings != game.settings:
        raise fail(
            game,
            text,
            f"from_text(to_text()) has settings {twin.settings!r}, not {game.settings!r}",
        )


def _check_copy(game: Game[Any], before: Snapshot) -> None:
    """copy() (the base class's deep copy, or the game's own for speed) must be the same
    position with the same history, and move on independently of the original."""
    text = before.text
    twin = game.copy()
    if type(twin) is not type(game):
        raise fail(
            game, text, f"copy() returned a {type(twin).__name__}, not a {type(game).__name__}"
        )
    changes = before.differences(Snapshot.of(twin))
    if changes:
        raise fail(game, text, "copy() differs from the original: " + "; ".join(changes))
    if before.legal_moves:
        move = before.legal_moves[0]
        written = game.format_move(move)
        twin.push(move)
        require_unchanged(game, before, f"push({written}) on its copy()")
        twin.undo()
        game.push(move)
        try:
            require_unchanged(
                twin, before, f"push({written}) on the original, seen from its copy(),"
            )
        finally:
            game.undo()
    elif before.history:
        twin.undo()
        require_unchanged(game, before, "undo() on its copy()")


def _check_apply_and_undo(game: Game[Any], before: Snapshot, move: Hashable) -> None:
    text = before.text
    written = game.format_move(move)
    game.apply(move)
    after = Snapshot.of(game)
    if after.ply != before.ply + 1 or after.history != before.history + (move,):
        game.undo()
        raise fail(
            game,
            text,
            f"apply({written}) gave ply {after.ply} and history {after.history!r}; expected "
            f"ply {before.ply + 1} and the move added to the history",
        )
    if after.key == before.key:
        game.undo()
        raise fail(game, text, f"apply({written}) left the key unchanged ({after.key!r})")
    if game.rules.alternating and after.to_move == before.to_move:
        game.undo()
        raise fail(
            game,
            text,
            f"apply({written}) left player {before.to_move} to move, but the rules declare "
            "alternating turns",
        )
    returned = game.undo()
    if returned != move:
        raise fail(game, text, f"undo() after apply({written}) returned {returned!r}, not {move!r}")
    require_unchanged(game, before, f"apply({written}) then undo()")
    game.push(move)
    pushed = Snapshot.of(game)
    game.undo()
    if pushed != after:
        raise fail(
            game,
            text,
            f"push({written}) and apply({written}) give different positions: "
            + "; ".join(after.differences(pushed)),
        )
    require_unchanged(game, before, f"push({written}) then undo()")
    if offers(game, "advance") or offers(game, "retract"):
        check_advance_and_retract(game, before, move, pushed)


def _check_illegal_moves(
    game: Game[Any], before: Snapshot, other_moves: Iterable[Hashable]
) -> None:
    legal = set(before.legal_moves)
    candidates = [move for move in other_moves if move not in legal][:ILLEGAL_TRIES]
    for move in [*candidates, NOT_A_MOVE]:
        try:
            game.apply(move)
        except IllegalMoveError:
            require_unchanged(game, before, f"the refused illegal move {move!r}")
            continue
        except Exception as error:
            require_unchanged(game, before, f"the refused illegal move {move!r}")
            raise fail(
                game,
                before.text,
                f"apply({move!r}) of an illegal move raised {type(error).__name__}, not "
                "IllegalMoveError",
            ) from error
        game.undo()
        raise fail(
            game, before.text, f"apply({move!r}) accepted a move that is not in legal_moves()"
        )


def check_game(
    game: GameLike,
    *,
    options: Mapping[str, Any] | None = None,
    max_positions: int = 6000,
    playouts: int = 20,
    seed: int = 0,
    registry: Registry | None = None,
) -> GameReport:
    """Check the protocol on the positions of ``game`` (a class, a registered name or a position).

    A name is looked up in ``registry`` (default: the installed plugins' games).

    Positions are visited depth first from the start (``game.new(**options)`` or
    the position given) until ``max_positions`` distinct ones are checked; then
    ``playouts`` random games from the start are checked move by move. Across all
    positions, equal keys must mean equal positions and equal positions equal keys.
    A game that declares repetition draws also plays games that seek repetitions (each
    move goes back to a position met before when one does, else one that lets the reply
    do so; as many as ``playouts``, at most :data:`REPEATING_GAMES`), so that its draws
    are counted against its history. Last, positions of one
    more random game must survive a pickle round trip
    (:func:`gamesearch.testing.pickling.check_pickling`: searches in worker processes
    receive their position pickled).

    :returns: what was checked.
    :raises ConformanceError: naming the first broken promise.
    """
    start = start_position(game, options, registry)
    walker = _Walker(start, is_new=not isinstance(game, Game))
    if not start.history:
        try:
            start.copy().undo()
        except NothingToUndoError:
            pass
        except Exception as error:
            raise fail(
                start,
                start.to_text(),
                f"undo() with no move history raised {type(error).__name__}, "
                "not NothingToUndoError",
            ) from error
        else:
            raise fail(
                start,
                start.to_text(),
                "undo() with no move history did not raise NothingToUndoError",
            )
    check_problem_files(start)
    is_exhaustive = walker.walk_depth_first(start, max_positions)
    chooser = random.Random(seed)
    for _ in range(playouts):
        walker.walk_random_game(start.copy(), chooser)
    if capabilities.repetition_key(start) is not None:
        for _ in range(min(playouts, REPEATING_GAMES)):
            walker.walk_repeating_game(start.copy(), chooser)
    check_pickling(start, chooser)
    return GameReport(
        game=start.name,
        positions=len(walker.seen_by_key),
        terminal=walker.terminal,
        is_exhaustive=is_exhaustive,
        longest=walker.longest,
    )


def identity(game: Game[Any]) -> Hashable:
    """Return what tells positions apart without trusting the key.

    That is the board drawing of :meth:`Game.board_view` (its cells and caption) with
    the side to move and the ply when the game has one (text may carry the move order,
    as Connect Four's move sequences do), else the text.

    A game with neither a board view nor a notation of its own (its text is the move
    order) is told apart by what can be observed of it: side to move, ply, result,
    legal moves and heuristic value (the result and the moves left out where
    repetitions of its history may end it).
    """
    view = capabilities.board_view(game)
    if view is not None:
        return (view.rows, view.cols, view.symbols, view.caption, game.to_move(), game.ply)
    if offers(game, "to_text"):
        return game.to_text()
    if capabilities.repetition_key(game) is not None:  # (its history may end it: not observed)
        return (game.to_move(), game.ply, capabilities.heuristic(game)())
    moves = frozenset(game.format_move(move) for move in game.legal_moves())
    return (game.to_move(), game.ply, game.result(), moves, capabilities.heuristic(game)())


class _Walker:
    """Visits positions once each, checks them and cross-checks their keys."""

    def __init__(self, start: Game[Any], *, is_new: bool = False) -> None:
        self.start = start
        self.seen_by_key: dict[Hashable, tuple[Hashable, str]] = {}  # key -> (identity, text)
        # repetition key -> (side to move, legal moves, text) of the first unfinished visit
        self.seen_by_repetition: dict[Hashable, tuple[int, frozenset[Hashable], str]] = {}
        # future key -> (result, side to move, each move's next future key), text
        self.seen_by_future: dict[Hashable, tuple[tuple[Any, ...], str]] = {}
        # identity -> (key, text) of the first visit
        self.keys_by_identity: dict[Hashable, tuple[Hashable, str]] = {}
        self.moves_seen: dict[Hashable, None] = {}  # insertion-ordered set
        self.terminal = 0
        self.longest = start.ply
        #: where the base class's ply counts from: 0 for a start made by new(), else the
        #: given position's ply less its history
        self.origin = 0 if is_new else start.ply - len(start.history)

    def visit(self, game: Game[Any]) -> bool:
        """Check ``game`` unless seen before; return whether it was new."""
        key, text, position = game.key(), game.to_text(), identity(game)
        known = self.seen_by_key.get(key)
        if known is not None and known[0] != position:
            raise fail(
                game, text, f"it shares the key {key!r} with the different position {known[1]!r}"
            )
        # an observed identity (no board view, no notation) cannot prove two keys wrong
        is_drawn = capabilities.board_view(game) is not None or offers(game, "to_text")
        known_key, known_text = self.keys_by_identity.get(position, (key, text))
        if is_drawn and known_key != key:
            reached = "" if known_text == text else f" (as {known_text!r}, and as {text!r})"
            raise fail(
                game,
                text,
                f"the same position has two keys, {known_key!r} and {key!r}, by two move "
                f"orders{reached}",
            )
        self.check_repetition_key(game, text)
        self.check_future_key(game, text)
        if known is not None:
            return False
        self.seen_by_key[key] = (position, text)
        self.keys_by_identity[position] = (key, text)
        self.check_ply(game)
        check_position(game, other_moves=reversed(self.moves_seen))
        moves = game.legal_moves()
        self.moves_seen.update(dict.fromkeys(moves))
        self.terminal += not moves
        self.longest = max(self.longest, game.ply)
        return True

    def check_repetition_key(self, game: Game[Any], text: str) -> None:
        """Positions with equal repetition keys count as one: while their game goes on,
        they have the same side to move and the same legal moves."""
        key_of = capabilities.repetition_key(game)
        if key_of is None or game.result() is not None:
            return
        repeated = key_of()
        seen = (game.to_move(), frozenset(game.legal_moves()), text)
        first = self.seen_by_repetition.setdefault(repeated, seen)
        if first[:2] != seen[:2]:
            raise fail(
                game,
                text,
                f"it shares the repetition key {repeated!r} with {first[2]!r}, whose side to "
                "move or legal moves differ",
            )

    def check_future_key(self, game: Game[Any], text: str) -> None:
        """Positions with equal future keys have one future: the same result, side to move
        and legal moves, and each move leads to equal future keys again (so, move after
        move, the same game from there on)."""
        if not capabilities.offered(game, capabilities.FutureKey):
            return
        key_of, result = capabilities.future_key(game), game.result()
        shared, nexts = key_of(), []
        for move in game.legal_moves():
            game.push(move)
            nexts.append((move, key_of()))
            game.undo()
        future = (result, None if result is not None else game.to_move(), tuple(nexts))
        first = self.seen_by_future.setdefault(shared, (future, text))
        if first[0] != future:
            raise fail(
                game,
                text,
                f"it shares the future key {shared!r} with {first[1]!r}, whose result, side "
                "to move, legal moves or next future keys differ",
            )

    def walk_repeating_game(self, game: Game[Any], chooser: random.Random) -> None:
        """Visit every position of one game from ``game`` that seeks repetitions: each move
        goes back to a position met before in it when one does, else one after which a
        reply does, else a random one (at most :data:`REPEATING_PLIES` plies)."""
        key_of = capabilities.repetition_key(game)
        assert key_of is not None
        met = {key_of()}
        self.visit(game)
        for _ in range(REPEATING_PLIES):
            moves = list(game.legal_moves())
            if not moves:
                return
            chooser.shuffle(moves)
            game.apply(_returning(game, moves, met, key_of))
            met.add(key_of())
            self.visit(game)

    def check_ply(self, game: Game[Any]) -> None:
        """A game's own ``ply`` (an override for speed, or for positions set up without
        their history) must count like the base class's: one more per move played."""
        if not offers(game, "ply"):
            return
        base = self.origin + len(game.history)
        if game.ply != base:
            raise fail(
                game,
                game.to_text(),
                f"the game's own ply says {game.ply}, but the base class counts {base} "
                f"({self.origin} at the start and one more per move of the history)",
            )

    def walk_depth_first(self, game: Game[Any], max_positions: int) -> bool:
        """Visit positions below ``game`` until ``max_positions``; return whether all were.

        The walk keeps its own stack of move lists rather than recursing, so a game
        whose lines run deeper than Python's recursion limit (chess) is walked too.
        """
        if not self.visit(game):
            return True
        pending = [iter(tuple(game.legal_moves()))]  # the moves left to try, one list per ply
        pushed = 0
        try:
            while pending:
                move = next(pending[-1], _NO_MOVE)
                if move is _NO_MOVE:
                    pending.pop()
                    if pending:
                        game.undo()
                        pushed -= 1
                    continue
                if len(self.seen_by_key) >= max_positions:
                    return False
                game.push(move)
                pushed += 1
                if self.visit(game):
                    pending.append(iter(tuple(game.legal_moves())))
                else:
                    game.undo()
                    pushed -= 1
        finally:
            for _ in range(pushed):
                game.undo()
        return True

    def walk_random_game(self, game: Game[Any], chooser: random.Random) -> None:
        """Visit every position of one random game from ``game``."""
        self.visit(game)
        while moves := game.legal_moves():
            game.apply(chooser.choice(list(moves)))
            self.visit(game)


def _returning(game: Game[Any], moves: list[Hashable], met: set[Hashable], key_of: Any) -> Hashable:
    """Return the first of ``moves`` that reaches a position of ``met``, else the first
    after which a reply does, else the first move."""
    for move in moves:
        game.push(move)
        back = key_of() in met
        game.undo()
        if back:
            return move
    for move in moves:
        game.push(move)
        try:
            for reply in game.legal_moves():
                game.push(reply)
                back = key_of() in met
                game.undo()
                if back:
                    return move
        finally:
            game.undo()
    return moves[0]
