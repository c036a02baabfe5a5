"""Chess for gamesearch, played by python-chess: the position searched is a ``chess.Board``.

python-chess (GPL-3.0) knows the rules; this plugin adapts it to the gamesearch
protocol, and is itself GPL-3.0-or-later for that reason.

- **The position** is a :class:`chess.Board`, available as :attr:`Chess.board`; moves
  are :class:`chess.Move` values, made with ``board.push`` and taken back with
  ``board.pop``. :meth:`Chess.from_board` wraps a board a python-chess user already
  has (the board itself, not a copy).
- **Text**: a position is a FEN (``to_text`` writes one, ``from_text`` reads one), or
  the moves played from the start, separated by spaces. Moves are read in UCI
  (``e2e4``, ``e7e8q``) or SAN (``e4``, ``Nf3``, ``O-O``, ``exd8=Q+``) and written in
  UCI, which does not depend on the position (SAN does: ``Nd2`` needs to know which
  knight), as the protocol asks of a move's text.
- **The end** (White's point of view: +1 White won, -1 Black won, 0 a draw):
  checkmate, stalemate, insufficient material (python-chess's definition), the
  75-move rule (150 plies without a capture or a pawn move) and threefold repetition:
  the third time one position occurs in the game's history (the same pieces, side to
  move, castling rights and capturable en passant square, as python-chess compares
  them), the game is drawn at once, as online play does (over the board a player may
  claim it). The game declares that rule (:class:`~gamesearch.capabilities.Repetition`):
  its result depends on the moves played, not on the FEN alone, and searchers score a
  position repeated on their line as a draw. The fifty-move rule is a claim this
  plugin does not make; the 75-move rule ends the game.
- **The longest game**: the 75-move rule allows at most 150 plies between two
  captures or pawn moves; there are at most 30 captures (every piece but the kings)
  and 96 pawn steps (16 pawns, 6 steps each), so no game lasts more than
  ``150 * (30 + 96 + 1) = 19,050`` plies. A FEN whose move number leaves less room
  than its pieces and pawns could still use is refused.
- **The heuristic** is PeSTO's tapered piece-square evaluation in centipawns
  (:mod:`gamesearch_chess.evaluation`); captures are ordered most valuable victim,
  least valuable attacker first (MVV-LVA); the noisy moves are the captures and
  promotions but for captures a defender punishes at once, the forcing moves the
  checks; the null move passes the turn in search (``board.push(chess.Move.null())``),
  and the rules declare zugzwang rare.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import chess

from gamesearch.boardview import BoardView
from gamesearch.capabilities import ProblemFiles, Repetition
from gamesearch.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from gamesearch.game import Game, resolve_options
from gamesearch.plugins import Registry, hookimpl
from gamesearch.problems import Problem
from gamesearch.rules import PLAYERS, Player, Rules
from gamesearch_chess.evaluation import PIECE_VALUES, capture_order, evaluate
from gamesearch_chess.look import LOOK

__all__ = ["MAX_PLIES", "Chess", "plies_left_at_most"]

#: plies of the 75-move rule: a game ends once this many pass without a capture or pawn move
SEVENTY_FIVE_MOVES = 150
#: the occurrences of one position that draw the game (threefold repetition)
THREEFOLD = 3
#: every piece but the two kings may be captured once, every pawn may step six times
MOST_EVENTS = 30 + 16 * 6
#: no game lasts longer (see the module's notes)
MAX_PLIES = SEVENTY_FIVE_MOVES * (MOST_EVENTS + 1)
#: heuristic values stay strictly inside this (centipawns; the evaluation stays near ±11,000)
EVALUATION_BOUND = 20_000
#: centipawns a capture may give (the piece's value less the victim's) and still be
#: searched by quiescence when the victim is defended (a bishop may take a knight)
LOSING_MARGIN = 50
#: the test suites shipped with the plugin (EPD files)
SUITES = Path(__file__).with_name("suites")


class _Pending(enum.Enum):
    """The mark of a result not worked out yet.

    An enum member, not a bare ``object()``: pickling a member refers to it by name, so
    a position sent to a worker process still finds its mark there (a copied
    ``object()`` would be read as the result).
    """

    RESULT = "not worked out"


_UNKNOWN: Any = _Pending.RESULT
#: squares a pawn promotes from (White's seventh rank, Black's second) and to
_PROMOTING_FROM = (chess.BB_RANK_2, chess.BB_RANK_7)  # by turn: False (Black), True (White)
_PROMOTING_TO = (chess.BB_RANK_1, chess.BB_RANK_8)


#: alternating turns, +1/0/-1 results, the 75-move rule's bound, and passing almost never
#: better than moving (zugzwang is rare outside endgames of few pieces)
RULES = Rules(max_plies=MAX_PLIES, alternating=True, result_range=(-1, 1), zugzwang_rare=True)


def plies_left_at_most(board: chess.Board) -> int:
    """Return an upper bound on the plies a game can still last from ``board``.

    Each capture or pawn step restarts the 75-move count, and at most every piece
    but the kings can still be captured and every pawn can still step to the last
    rank; after the last of them the count runs out.
    """
    captures = chess.popcount(board.occupied) - 2
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    steps = sum(7 - chess.square_rank(square) for square in chess.scan_forward(white_pawns))
    steps += sum(chess.square_rank(square) for square in chess.scan_forward(black_pawns))
    waiting = max(0, SEVENTY_FIVE_MOVES - board.halfmove_clock)
    return waiting + SEVENTY_FIVE_MOVES * max(0, captures + steps)


def _status_words(status: chess.Status) -> str:
    return ", ".join(
        flag.name.lower().replace("_", " ")
        for flag in chess.Status
        if flag and flag in status and flag.name
    )


class Chess(Game[chess.Move], ProblemFiles, Repetition):
    """Chess by python-chess: FEN positions, UCI and SAN moves, a piece-square heuristic."""

    name = "chess"
    player_names = ("White", "Black")
    evaluation_bound = EVALUATION_BOUND
    default_searcher = (
        "engine:iterative=true,killers=true,history=true,quiescence=true,table=true,seconds=3"
    )
    forced_win_name = "mate"
    repetitions = THREEFOLD

    def __init__(self) -> None:
        self._board = chess.Board()
        # What is worked out of the position once and kept until it changes: python-chess's
        # legal moves, the result and the FEN; a move saves them (in _saved) and its
        # take-back restores them.
        self._moves: tuple[chess.Move, ...] | None = None
        self._result: int | None = _UNKNOWN
        self._fen: str | None = None
        self._saved: list[tuple[tuple[chess.Move, ...] | None, int | None, str | None, Any]] = []
        # Threefold repetition: how often each position (its repetition key) occurred in
        # the game, and the key of the position now (None after a null move: never counted).
        self._seen: dict[Hashable, int] = {}
        self._here: Hashable = None
        self._count_positions()

    def _count_positions(self) -> None:
        """Count the position of the board as its first occurrence (the game has no history)."""
        self._here = self._board._transposition_key()
        self._seen = {self._here: 1}

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_board(cls, board: chess.Board) -> Chess:
        """Return a game whose position is ``board`` itself (not a copy).

        The game's moves are pushed onto ``board`` and taken back from it; while the
        game is in use, change the board only through the game. The moves already on
        the board's stack stay there but are not the game's history (the game cannot
        undo them).

        :raises InvalidPositionError: for a board of another variant, an invalid
            position or a move number the 75-move rule cannot reach.
        """
        if type(board) is not chess.Board or board.chess960:
            raise InvalidPositionError(
                f"only standard chess boards can be played, not {type(board).__name__}"
                f"{' (Chess960)' if board.chess960 else ''}: {board.fen()!r}"
            )
        _check_position(board, board.fen())
        game = cls()
        game._board = board
        game._count_positions()
        return game

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Chess:
        """Return the position of a FEN (``"rnbqkbnr/pppppppp/8/... w KQkq - 0 1"``) or
        of the moves played from the start (``"e4 e5 Nf3"``, ``"e2e4 e7e5"``).

        A FEN may leave out its two move counters (they are then 0 and 1).

        :raises InvalidPositionError: naming what is wrong with the text.
        :raises InvalidOptionError: for any option (chess has none).
        """
        if not isinstance(text, str) or "/" not in text:
            game = super().from_text(text, **options)
            assert isinstance(game, Chess)
            return game
        resolve_options(cls.options, options)  # chess has none: refuses any
        game = cls()
        fen = text.strip()
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise InvalidPositionError(f"position {text!r} is not a FEN: {error}") from None
        _check_position(board, text)
        game._board = board
        game._count_positions()
        return game

    def copy(self) -> Chess:
        twin = object.__new__(type(self))
        twin._board = self._board.copy()
        twin._moves, twin._result, twin._fen = self._moves, self._result, self._fen
        twin._saved = self._saved.copy()
        twin._seen, twin._here = self._seen.copy(), self._here
        twin._history = self._history.copy()
        return twin

    # ------------------------------------------------------------ state queries
    @property
    def board(self) -> chess.Board:
        """Return the python-chess board this game plays on (the live object)."""
        return self._board

    @property
    def rules(self) -> Rules:
        """Alternating turns, +1/0/-1 results and the 75-move rule's bound on the game."""
        return RULES

    @property
    def ply(self) -> int:
        """Return the plies played since the start, by the position's move number."""
        return self._board.ply()

    def to_move(self) -> Player:
        return PLAYERS[not self._board.turn]  # python-chess: turn is True for White

    def _all_moves(self) -> tuple[chess.Move, ...]:
        moves = self._moves
        if moves is None:
            moves = self._moves = tuple(self._board.generate_legal_moves())
        return moves

    def legal_moves(self) -> Sequence[chess.Move]:
        if self.result() is not None:
            return ()
        return self._all_moves()

    def result(self) -> int | None:
        """Return +1 (White won), -1 (Black won), 0 (a draw) or ``None`` (the game goes on).

        Hot path: the answer is kept until the position changes; whether any move is
        legal is asked of a generator that stops at the first one.
        """
        result = self._result
        if result is not _UNKNOWN:
            return result
        board = self._board
        has_moves = (
            bool(self._moves) if self._moves is not None else any(board.generate_legal_moves())
        )
        if not has_moves:
            result = (-1 if board.turn else 1) if board.is_check() else 0
        elif (
            board.halfmove_clock >= SEVENTY_FIVE_MOVES
            or self._seen.get(self._here, 0) >= THREEFOLD
            or board.is_insufficient_material()
        ):
            result = 0
        else:
            result = None
        self._result = result
        return result

    def key(self) -> Hashable:
        """Return python-chess's identity of the position (pieces, side to move, castling
        rights, a capturable en passant square) with the two move counters.

        python-chess's own repetition check uses the same identity; it costs well
        under a microsecond where a Zobrist hash computed afresh costs about ten. Two
        positions with equal keys may still differ in their result: threefold
        repetition looks at the history (:meth:`repetition_key`).
        """
        board = self._board
        here = self._here  # (the repetition key, kept from the move that reached the position)
        if here is None:
            here = board._transposition_key()
        return (here, board.halfmove_clock, board.fullmove_number)

    def repetition_key(self) -> Hashable:
        """Return python-chess's identity of the position without the move counters: what
        threefold repetition compares (kept from the move that reached the position)."""
        here = self._here
        return self._board._transposition_key() if here is None else here

    # ------------------------------------------------------------------ changes
    def make_move(self, move: chess.Move) -> None:
        self._saved.append((self._moves, self._result, self._fen, self._here))
        self._moves, self._result, self._fen = None, _UNKNOWN, None
        board = self._board
        board.push(move)
        here = self._here = board._transposition_key()
        seen = self._seen
        seen[here] = seen.get(here, 0) + 1

    def unmake_move(self, move: chess.Move) -> None:
        self._leave()
        self._board.pop()
        self._moves, self._result, self._fen, self._here = self._saved.pop()

    def _leave(self) -> None:
        """Forget one occurrence of the position now (before its move is taken back)."""
        seen, here = self._seen, self._here
        left = seen[here] - 1
        if left:
            seen[here] = left
        else:
            del seen[here]

    def advance(self, move: chess.Move) -> int | None:
        self._history.append(move)
        self.make_move(move)
        return self.result()

    def retract(self, move: chess.Move) -> None:
        self.unmake_move(move)
        self._history.pop()

    def make_null_move(self) -> None:
        """Pass the turn (in a search only; never a legal move, kept in no history).

        Passing while in check loses at once: the position reached counts as won by
        the other side, so a search never prunes on it.
        """
        board = self._board
        in_check = board.is_check()
        passer = board.turn
        self._saved.append((self._moves, self._result, self._fen, self._here))
        board.push(chess.Move.null())
        self._moves, self._fen, self._here = None, None, None  # (a pass repeats nothing)
        self._result = (-1 if passer else 1) if in_check else _UNKNOWN

    def unmake_null_move(self) -> None:
        """Take back the null move just made."""
        self._board.pop()
        self._moves, self._result, self._fen, self._here = self._saved.pop()

    # ------------------------------------------------------- heuristic, ordering
    def evaluate(self) -> int:
        """Return PeSTO's tapered piece-square evaluation in centipawns, White's point of view."""
        value = evaluate(self._board)
        return max(-EVALUATION_BOUND + 1, min(EVALUATION_BOUND - 1, value))

    def ordered_moves(self) -> Sequence[chess.Move]:
        """Return captures and promotions first (most valuable victim, least valuable
        attacker), then the quiet moves in python-chess's order."""
        moves = self.legal_moves()
        board = self._board
        targets = board.occupied_co[not board.turn]
        if board.ep_square is not None:
            targets |= chess.BB_SQUARES[board.ep_square]
        squares = chess.BB_SQUARES
        sharp = [move for move in moves if squares[move.to_square] & targets or move.promotion]
        if not sharp:
            return moves
        sharp.sort(key=lambda move: capture_order(board, move), reverse=True)
        chosen = set(sharp)
        return (*sharp, *(move for move in moves if move not in chosen))

    def noisy_moves(self) -> Sequence[chess.Move]:
        """Return the legal captures and promotions, most valuable victim first, but for
        the captures that lose material at once: a piece taking one worth more than
        :data:`LOSING_MARGIN` less that the other side defends (a queen taking a
        defended pawn), which quiescence would search only to find them bad."""
        if self.result() is not None:
            return ()
        board = self._board
        if self._moves is not None:
            noisy = [move for move in self._moves if move.promotion or board.is_capture(move)]
        else:
            noisy = list(board.generate_legal_captures())
            pawns = board.pawns & board.occupied_co[board.turn] & _PROMOTING_FROM[board.turn]
            if pawns:
                empty_last = _PROMOTING_TO[board.turn] & ~board.occupied
                noisy += board.generate_legal_moves(pawns, empty_last)
        kind_at, defends, other = board.piece_type_at, board.is_attacked_by, not board.turn
        noisy = [
            move
            for move in noisy
            if move.promotion
            or PIECE_VALUES[kind_at(move.from_square) or chess.PAWN]
            - PIECE_VALUES[kind_at(move.to_square) or chess.PAWN]
            <= LOSING_MARGIN
            or not defends(other, move.to_square)
        ]
        noisy.sort(key=lambda move: capture_order(board, move), reverse=True)
        return noisy

    def is_forcing(self, move: chess.Move) -> bool:
        """Return whether the legal ``move`` gives check."""
        return self._board.gives_check(move)

    # --------------------------------------------------------------------- text
    def to_text(self) -> str:
        """Return the position as a FEN."""
        fen = self._fen
        if fen is None:
            fen = self._fen = self._board.fen()
        return fen

    def parse_move(self, text: str) -> chess.Move:
        """Return the move written in UCI (``g1f3``) or SAN (``Nf3``).

        A UCI move that is not legal here is returned as it is (``apply`` refuses it).

        :raises InvalidMoveError: for text that is no move, an ambiguous SAN move or
            the null move.
        :raises IllegalMoveError: for a SAN move that is not legal here.
        """
        written = str(text).strip()
        board = self._board
        try:
            move = chess.Move.from_uci(written)
        except chess.InvalidMoveError:
            move = None
        if move is not None:
            if not move:
                raise InvalidMoveError(f"{text!r} is the null move; a chess move moves a piece")
            try:
                return board.parse_uci(written)  # castling written as king takes rook
            except chess.IllegalMoveError:
                return move
        try:
            return board.parse_san(written)
        except chess.AmbiguousMoveError:
            raise InvalidMoveError(
                f"move {text!r} is ambiguous in {board.fen()!r}: name the piece's file or rank"
            ) from None
        except chess.IllegalMoveError:
            legal = ", ".join(board.san(move) for move in self.legal_moves()) or "none"
            raise IllegalMoveError(
                f"illegal move {text!r} in {board.fen()!r}; legal moves: {legal}"
            ) from None
        except chess.InvalidMoveError:
            raise InvalidMoveError(
                f"{text!r} is not a chess move: write it in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O)"
            ) from None

    def format_move(self, move: chess.Move) -> str:
        """Return ``move`` in UCI (``e2e4``, ``e7e8q``, castling ``e1g1``)."""
        return move.uci()

    def san(self, move: chess.Move) -> str:
        """Return the legal ``move`` in SAN for this position (``Nf3``, ``O-O``, ``Qxf7#``)."""
        return self._board.san(move)

    def render(self) -> str:
        """Return the board with ranks and files, White at the bottom (upper case: White)."""
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = self._board.piece_at(chess.square(file, rank))
                cells.append(piece.symbol() if piece else ".")
            rows.append(f"{rank + 1} {' '.join(cells)}")
        rows.append("  a b c d e f g h")
        return "\n".join(rows)

    def board_view(self) -> BoardView:
        """Return the board for the browser: eight rows from rank 8 down, each square's
        piece as its FEN letter (upper case: White; empty: ``""``), and every legal move
        as two clicks, its piece's square then the square it goes to (a promotion's four
        choices share them).

        The caption says what the squares do not show: castling rights, an en passant
        capture and the count toward the 75-move rule.
        """
        board = self._board
        symbols = []
        for rank in range(7, -1, -1):
            for file in range(8):
                piece = board.piece_at(chess.square(file, rank))
                symbols.append(piece.symbol() if piece else "")
        paths = tuple(
            (move.uci(), (_cell(move.from_square), _cell(move.to_square)))
            for move in self.legal_moves()
        )
        return BoardView(8, 8, tuple(symbols), (None,) * 64, paths=paths, caption=self._caption())

    def _caption(self) -> str:
        board = self._board
        castling = board.castling_xfen()
        words = ["no castling" if castling == "-" else f"castling {castling}"]
        if board.ep_square is not None and board.has_legal_en_passant():
            words.append(f"en passant on {chess.square_name(board.ep_square)}")
        words.append(
            f"{board.halfmove_clock} of {SEVENTY_FIVE_MOVES} plies toward the 75-move rule"
        )
        return ", ".join(words)

    # ------------------------------------------------------------ test suites
    @classmethod
    def read_problems(cls, text: str) -> list[Problem]:
        """Return the problems of an EPD suite: one position a line with its best moves
        (``bm``), moves to avoid (``am``) and a name (``id``); ``#`` starts a comment line.

        :raises InvalidPositionError: naming the first line that is not such a problem.
        """
        problems = []
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            board = chess.Board()
            try:
                operations = board.set_epd(line)
            except ValueError as error:
                raise InvalidPositionError(f"line {number}: {line!r} is not EPD: {error}") from None
            best, avoid = operations.get("bm", []), operations.get("am", [])
            if not isinstance(best, list) or not isinstance(avoid, list) or not (best or avoid):
                raise InvalidPositionError(
                    f"line {number}: {line!r} names no best move (bm) and no move to avoid (am)"
                )
            name = operations.get("id")
            problems.append(
                Problem(
                    name=name if isinstance(name, str) else f"line {number}",
                    position=board.fen(),
                    best_moves=tuple(move.uci() for move in best if isinstance(move, chess.Move)),
                    avoid_moves=tuple(move.uci() for move in avoid if isinstance(move, chess.Move)),
                )
            )
        return problems

    @classmethod
    def problem_suites(cls) -> dict[str, Path]:
        """Return the suites this plugin ships, by name: ``bratko-kopec`` (24 positions of
        the Bratko-Kopec test) and ``mates`` (mates in one and in two)."""
        return {path.stem: path for path in sorted(SUITES.glob("*.epd"))}


def _cell(square: int) -> int:
    """Return the board view's cell of ``square``: row by row from a8, file by file."""
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


def _check_position(board: chess.Board, text: str) -> None:
    """Refuse an invalid position, or a move number the 75-move rule cannot reach.

    :raises InvalidPositionError: naming the position and the problem.
    """
    status = board.status()
    if status != chess.STATUS_VALID:
        raise InvalidPositionError(
            f"position {text!r} is not a legal chess position: {_status_words(status)}"
        )
    if board.ply() < 0:
        raise InvalidPositionError(
            f"position {text!r} has move number {board.fullmove_number}; it starts at 1"
        )
    if board.ply() + plies_left_at_most(board) > MAX_PLIES:
        raise InvalidPositionError(
            f"position {text!r}: move {board.fullmove_number} is too late for the pieces and "
            f"pawns left (under the 75-move rule no game lasts more than {MAX_PLIES:,} plies)"
        )


@hookimpl
def gamesearch_register_games(registry: Registry) -> None:
    """Register chess."""
    registry.add_game(Chess)


@hookimpl
def gamesearch_register_commands(registry: Registry) -> None:
    """Register ``gamesearch uci``, the chess engine for GUIs (:mod:`gamesearch_chess.uci`)."""
    registry.add_command("uci", _register_uci)


def _register_uci(subparsers: Any) -> None:
    from gamesearch_chess import uci  # (imported when the command line is built)

    uci.register(subparsers)


@hookimpl
def gamesearch_register_board_looks(registry: Registry) -> None:
    """Draw the pieces as glyphs on a checkered board with its a-h and 1-8 coordinates."""
    registry.add_board_look(Chess.name, LOOK)
