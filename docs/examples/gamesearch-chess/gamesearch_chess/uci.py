"""``gamesearch uci``: a chess engine that chess GUIs and tournament managers can drive.

The engine speaks the Universal Chess Interface over standard input and output, one
command a line. The search runs in a worker thread, so ``isready``, ``stop`` and
``quit`` are answered while it thinks; every ``go`` ends in one ``bestmove``.

The engine deepens one ply at a time itself (the searcher is asked for depth 1, 2,
3, ... with one transposition table kept across the searches of a game), so that it
can print an ``info depth ... pv ...`` line after each depth. One watcher, handed to
every search as its tracer, holds the three limits of a ``go``: the deadline, the node
count and the ``stop`` command; when one of them runs out, the unfinished depth is
thrown away and the last finished one answers.
"""

from __future__ import annotations

import argparse
import enum
import importlib.metadata
import sys
import threading
import time
from collections.abc import Hashable, Iterable, Sequence
from typing import IO, Any, cast

import attrs
import chess

from gamesearch.errors import BudgetExceededError, GameSearchError
from gamesearch.options import Option
from gamesearch.plugins import Registry, default_registry
from gamesearch.score import Heuristic, Proven
from gamesearch.search.base import SHORTEST_SECONDS, Limit, Searcher, SearchResult
from gamesearch.search.table import SearchMemory
from gamesearch_chess import Chess

__all__ = ["DEFAULT_SEARCHER", "Clock", "Go", "UciEngine", "move_budget", "read_go", "register"]

#: the searcher the engine plays with unless ``--searcher`` names another (it deepens
#: itself, so the searcher is asked for one depth at a time)
DEFAULT_SEARCHER = "engine:killers=true,history=true,quiescence=true,table=true"
#: the deepest search a ``go`` without a depth asks for
DEEPEST = 64
#: moves the rest of the game is taken to last when ``go`` gives no ``movestogo``
ASSUMED_MOVES_LEFT = 30
#: share of the increment spent on this move (the rest builds a reserve)
INCREMENT_SHARE = 0.75
#: seconds kept back from every move's time for writing the answer and its trip to the GUI
MARGIN_SECONDS = 0.02
#: positions the watcher counts between two looks at the clock and at ``stop``
LOOK_EVERY = 16
#: what one transposition-table entry costs in memory, about (for the ``Hash`` option)
BYTES_PER_ENTRY = 256
#: searcher options ``go`` sets, never ``setoption``
LIMIT_OPTIONS = frozenset({"depth", "max_nodes", "seconds", "simulations"})
#: the largest number a ``spin`` option offers when the searcher's option has no maximum
SPIN_MAX = 2**31 - 1
#: the commands of the protocol (anything before the first of them on a line is skipped)
COMMANDS = frozenset(
    {"uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go"}
    | {"stop", "ponderhit", "quit"}
)


class UciError(GameSearchError, ValueError):
    """A command the engine cannot follow (answered with an ``info string`` line)."""


# ---------------------------------------------------------------- time management
@attrs.frozen
class Clock:
    """The mover's clock as ``go`` gives it: seconds left, the increment per move and the
    moves until the next time control (``None``: the rest of the game)."""

    seconds_left: float
    increment: float = 0.0
    moves_to_go: int | None = None


def move_budget(clock: Clock) -> float:
    """Return the seconds to think about this move, given the mover's clock.

    The time left is shared evenly among the moves still to play before the clock is
    topped up (``movestogo``, else :data:`ASSUMED_MOVES_LEFT`), and most of the
    increment is added. The move never takes more than half of what is left, and a
    small margin is kept back for the answer to reach the GUI. The result is at least
    :data:`~gamesearch.search.base.SHORTEST_SECONDS`.
    """
    moves_left = clock.moves_to_go if clock.moves_to_go else ASSUMED_MOVES_LEFT
    share = clock.seconds_left / moves_left + INCREMENT_SHARE * clock.increment
    budget = min(share, clock.seconds_left / 2) - MARGIN_SECONDS
    return max(SHORTEST_SECONDS, budget)


@attrs.frozen(kw_only=True)
class Go:
    """What one ``go`` command asks: times in seconds, ``None`` where it says nothing."""

    movetime: float | None = None
    clocks: tuple[Clock | None, Clock | None] = (None, None)  #: White's and Black's
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False  #: search until ``stop`` (and answer only then)

    def seconds(self, white_to_move: bool) -> float | None:
        """Return the time budget of the search (``None``: no time limit)."""
        if self.infinite:
            return None
        if self.movetime is not None:
            return max(SHORTEST_SECONDS, self.movetime - MARGIN_SECONDS)
        clock = self.clocks[0 if white_to_move else 1]
        return None if clock is None else move_budget(clock)


#: ``go`` parameters followed by a number, and what the number is
_GO_NUMBERS = frozenset(
    {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime"}
)


def read_go(tokens: Sequence[str]) -> Go:
    """Return the ``go`` command whose words after ``go`` are ``tokens``.

    A bare ``go`` searches until ``stop``, as ``go infinite`` does; ``mate N`` searches
    ``2N - 1`` plies deep; ``ponder`` and ``searchmoves`` are not supported (see the
    docs) and read as ``infinite`` and as every move.

    :raises UciError: for a parameter without its number or an unknown word.
    """
    numbers: dict[str, int] = {}
    infinite = not tokens
    index = 0
    while index < len(tokens):
        word = tokens[index]
        if word in _GO_NUMBERS:
            text = tokens[index + 1] if index + 1 < len(tokens) else ""
            try:
                numbers[word] = int(text)
            except ValueError:
                raise UciError(f"go {word} needs a whole number, not {text!r}") from None
            index += 2
        elif word in ("infinite", "ponder"):
            infinite = True
            index += 1
        elif word == "searchmoves":
            # the moves listed run to the next parameter
            index += 1
            while index < len(tokens) and tokens[index] not in _GO_NUMBERS | {"infinite"}:
                index += 1
        else:
            raise UciError(f"go does not know {word!r}")
    for name in ("depth", "nodes", "mate", "movestogo", "movetime"):
        if name in numbers and numbers[name] < (0 if name == "movetime" else 1):
            raise UciError(f"go {name} must be at least 1, not {numbers[name]}")
    if "mate" in numbers and "depth" not in numbers:
        numbers["depth"] = 2 * numbers["mate"] - 1

    def clock(time_word: str, increment_word: str) -> Clock | None:
        if time_word not in numbers:
            return None
        return Clock(
            max(0, numbers[time_word]) / 1000,
            max(0, numbers.get(increment_word, 0)) / 1000,
            numbers.get("movestogo"),
        )

    return Go(
        movetime=numbers["movetime"] / 1000 if "movetime" in numbers else None,
        clocks=(clock("wtime", "winc"), clock("btime", "binc")),
        depth=numbers.get("depth"),
        nodes=numbers.get("nodes"),
        infinite=infinite,
    )


# ------------------------------------------------------------------------ watcher
class _Watch:
    """The limits of one ``go``, watched from the searches' tracer calls: it counts the
    positions entered and raises :class:`BudgetExceededError` once the node count, the
    deadline or ``stop`` says the search is over (the searcher then puts the position
    back)."""

    def __init__(self, stop: threading.Event, deadline: float, max_nodes: float) -> None:
        self.stop, self.deadline, self.max_nodes = stop, deadline, max_nodes
        self.nodes = 0
        self.is_over = False

    def enter(self, move: Hashable | None, depth: int, alpha: Any, beta: Any) -> None:
        """Count a position; raise once a limit is reached (every few positions, the clock)."""
        self.nodes += 1
        if self.nodes >= self.max_nodes or (
            self.nodes % LOOK_EVERY == 0
            and (self.stop.is_set() or time.perf_counter() > self.deadline)
        ):
            self.is_over = True
            raise BudgetExceededError("the move's budget is spent")

    def leave(self, value: Any) -> None:
        """Nothing to do when a position is left."""

    def prune(self, moves: Sequence[Hashable]) -> None:
        """Nothing to do when moves are cut off."""


# ------------------------------------------------------------------------- engine
def _spin_or_string(option: Option, value: Any) -> str:
    """Return the UCI declaration of a searcher option after its name."""
    if option.type is bool and not option.optional:
        return f"type check default {option.text(value)}"
    if option.type is int and not option.optional:
        low = 0 if option.minimum is None else int(option.minimum)
        high = SPIN_MAX if option.maximum is None else int(option.maximum)
        return f"type spin default {value} min {low} max {high}"
    choices_of = option.choices
    if choices_of is None and isinstance(option.type, type) and issubclass(option.type, enum.Enum):
        choices_of = tuple(option.type)
    if choices_of and not option.optional:
        choices = " ".join(f"var {option.text(choice)}" for choice in choices_of)
        return f"type combo default {option.text(value)} {choices}"
    return f"type string default {option.text(value)}"


class UciEngine:
    """One UCI session: reads commands with :meth:`run` and writes the answers to ``out``.

    ``searcher`` is a searcher spec (``engine:quiescence=true``); its options other than
    the limits are offered as UCI options.
    """

    def __init__(
        self,
        out: IO[str],
        *,
        searcher: str = DEFAULT_SEARCHER,
        registry: Registry | None = None,
    ) -> None:
        self._out = out
        self._registry = registry if registry is not None else default_registry()
        self._searcher = self._registry.new_searcher(searcher)
        self._game = Chess()
        self._memory = SearchMemory()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._infinite = False

    # ------------------------------------------------------------- talking
    def say(self, line: str) -> None:
        """Write one line to the GUI at once (from either thread)."""
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()

    def run(self, lines: Iterable[str]) -> None:
        """Answer each command of ``lines`` until ``quit`` or their end (where a search
        still running is let finish, unless it is infinite)."""
        for line in lines:
            if not self.handle(line):
                self._finish_search()
                return
        self.wait()
        self._finish_search()

    def wait(self) -> None:
        """Wait until the running search, if any, has answered (an infinite one waits
        for ``stop``, so this returns at once for it)."""
        worker = self._worker
        if worker is not None and not self._infinite:
            worker.join()

    def handle(self, line: str) -> bool:
        """Answer one command line; return false after ``quit``.

        A line the engine cannot follow is answered with an ``info string`` saying why;
        nothing a GUI sends makes it stop answering.
        """
        tokens = line.split()
        while tokens and tokens[0] not in COMMANDS:
            tokens = tokens[1:]  # the protocol skips words it does not know
        if not tokens:
            if line.strip():
                self.say(f"info string unknown command {line.strip()!r}")
            return True
        command, rest = tokens[0], tokens[1:]
        try:
            return self._dispatch(command, rest)
        except GameSearchError as error:
            self.say(f"info string {error}")
            return True

    def _dispatch(self, command: str, rest: list[str]) -> bool:
        if command == "quit":
            return False
        if command == "isready":
            self.say("readyok")
        elif command == "uci":
            self._introduce()
        elif command == "stop":
            self._finish_search()
        elif command == "ponderhit":
            self._finish_search()
        elif command in ("debug", "register"):
            pass  # nothing to switch: the engine has no debug output and needs no registration
        elif command == "ucinewgame":
            self._finish_search()
            self._memory.clear()
            self._game = Chess()
        elif command == "setoption":
            self._finish_search()
            self._set_option(rest)
        elif command == "position":
            self._finish_search()
            self._game = _read_position(rest)
        elif command == "go":
            self._finish_search()
            try:
                go = read_go(rest)
            except UciError as error:
                # a move is still owed: answer with the shallowest search
                self.say(f"info string {error}; searching one ply instead")
                go = Go(depth=1)
            self._start_search(go)
        return True

    def _introduce(self) -> None:
        try:
            version = importlib.metadata.version("gamesearch-chess")
        except importlib.metadata.PackageNotFoundError:  # run from a checkout
            version = "(not installed)"
        self.say(f"id name gamesearch {version} ({self._searcher.name})")
        self.say("id author the gamesearch authors")
        self.say(f"option name Hash type spin default {self._hash_megabytes()} min 1 max 65536")
        self.say("option name Threads type spin default 1 min 1 max 1")
        for name, option in self._searcher_options().items():
            self.say(f"option name {name} {_spin_or_string(option, getattr(self._searcher, name))}")
        self.say("uciok")

    # ------------------------------------------------------------- options
    def _searcher_options(self) -> dict[str, Option]:
        specs = type(self._searcher).option_specs()
        return {name: spec for name, spec in specs.items() if name not in LIMIT_OPTIONS}

    def _hash_megabytes(self) -> int:
        entries = getattr(self._searcher, "table_entries", None)
        return 16 if entries is None else max(1, entries * BYTES_PER_ENTRY >> 20)

    def _set_option(self, tokens: list[str]) -> None:
        """Follow ``setoption name NAME [value VALUE]``.

        :raises UciError: for a malformed command, an unknown name or a bad value.
        """
        if not tokens or tokens[0] != "name":
            raise UciError("setoption needs 'name NAME [value VALUE]'")
        words = tokens[1:]
        cut = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[:cut]), " ".join(words[cut + 1 :])
        options = {key.lower(): key for key in self._searcher_options()}
        if name.lower() == "threads":
            if value != "1":
                raise UciError(
                    f"Threads can only be 1 (the engine searches in one thread): {value!r}"
                )
        elif name.lower() == "hash":
            megabytes = Option("Hash", int, 16, "megabytes", minimum=1).read(value)
            if hasattr(self._searcher, "table_entries"):
                entries = max(1, (megabytes << 20) // BYTES_PER_ENTRY)
                self._searcher = attrs.evolve(cast(Any, self._searcher), table_entries=entries)
                self._memory.clear()
        elif name.lower() in options:
            key = options[name.lower()]
            current = {field: getattr(self._searcher, field) for field in self._searcher_options()}
            self._searcher = type(self._searcher).configured({**current, key: value})
            self._memory.clear()
        else:
            known = ", ".join(["Hash", "Threads", *self._searcher_options()])
            raise UciError(f"no option {name!r}; the options are {known}")

    # -------------------------------------------------------------- search
    def _start_search(self, go: Go) -> None:
        self._stop.clear()
        self._infinite = go.infinite
        game = self._game.copy()  # the worker's own: a later `position` cannot touch it
        self._worker = threading.Thread(
            target=self._think, args=(game, go, time.perf_counter()), name="uci search"
        )
        self._worker.start()

    def _finish_search(self) -> None:
        """Stop the search, if one runs, and wait for its ``bestmove``."""
        worker = self._worker
        if worker is not None:
            self._stop.set()
            worker.join()
            self._worker = None

    def _think(self, game: Chess, go: Go, started: float) -> None:
        """Deepen until a limit is reached, saying each depth; then answer ``bestmove``."""
        best: chess.Move | None = None
        try:
            best = self._deepen(game, go, started)
        except GameSearchError as error:
            self.say(f"info string the search failed: {error}")
        finally:
            if go.infinite:
                self._stop.wait()  # an infinite search answers only when stopped
            if best is None and game.result() is None:
                best = game.ordered_moves()[0]  # no depth finished: the first move in order
            self.say(f"bestmove {best.uci() if best is not None else '(none)'}")

    def _deepen(self, game: Chess, go: Go, started: float) -> chess.Move | None:
        seconds = go.seconds(game.board.turn)
        watch = _Watch(
            self._stop,
            float("inf") if seconds is None else started + seconds,
            float("inf") if go.nodes is None else go.nodes,
        )
        if game.result() is not None:
            self.say("info depth 0 score " + ("mate 0" if game.board.is_checkmate() else "cp 0"))
            return None
        searcher, best = self._searcher, None
        limits = range(1, (go.depth or DEEPEST) + 1) if type(searcher).honours_depth else [None]
        for depth in limits:
            try:
                result = searcher.search(
                    game, Limit(depth=depth), tracer=watch, memory=self._memory
                )
            except BudgetExceededError:
                if not watch.is_over:
                    raise  # the searcher's own budget, not the engine's
                break
            assert isinstance(result.move, chess.Move)  # (the game goes on)
            best = result.move
            line = self._line(searcher, game, result, depth, watch)
            self.say(self._info(game, result, depth, line, watch.nodes, started))
            if result.is_exact or watch.is_over:
                break
        return best

    def _line(
        self,
        searcher: Searcher,
        game: Chess,
        result: SearchResult,
        depth: int | None,
        watch: _Watch,
    ) -> list[chess.Move]:
        """Return the principal variation of a finished depth, as far as the budget allows
        (the table the depth filled answers most of these searches at once)."""
        assert isinstance(result.move, chess.Move)
        line: list[chess.Move] = [result.move]
        remaining = depth or 0
        game.push(result.move)
        pushed = 1
        try:
            for below in range(remaining - 1, 0, -1):
                if game.result() is not None:
                    break
                follow = searcher.search(
                    game, Limit(depth=below), tracer=watch, memory=self._memory
                ).move
                assert isinstance(follow, chess.Move)
                line.append(follow)
                game.push(follow)
                pushed += 1
        except BudgetExceededError:
            pass  # the line is cut short; the depth itself stands
        finally:
            for _ in range(pushed):
                game.undo()
        return line

    def _info(
        self,
        game: Chess,
        result: SearchResult,
        depth: int | None,
        line: list[chess.Move],
        nodes: int,
        started: float,
    ) -> str:
        """Return the ``info`` line of a finished depth (``seldepth``: the deepest ply the
        search reached, quiescence included)."""
        elapsed = max(time.perf_counter() - started, 1e-6)
        nominal = depth if depth is not None else result.stats.depth
        return (
            f"info depth {nominal} seldepth {max(nominal, result.stats.depth)} "
            f"score {uci_score(result, game.to_move())} nodes {nodes} "
            f"nps {int(nodes / elapsed)} time {int(elapsed * 1000)} "
            f"pv {' '.join(move.uci() for move in line)}"
        )


def uci_score(result: SearchResult, mover: int) -> str:
    """Return the score of ``result`` for the side to move (``mover``) as UCI writes it:
    ``mate N`` (N moves to mate, negative when mated), or ``cp N`` (centipawns)."""
    score = result.score.pov(mover)
    if isinstance(score, Proven):
        if score.margin == 0:
            return "cp 0"
        if score.plies is not None:
            moves = (score.plies + 1) // 2
            return f"mate {moves if score.margin > 0 else -moves}"
        return f"cp {30_000 if score.margin > 0 else -30_000}"
    if isinstance(score, Heuristic):
        return f"cp {score.estimate}"
    return "cp 0"  # (chess has neither chance nor more than two players)


def _read_position(tokens: list[str]) -> Chess:
    """Return the position of ``position startpos|fen FEN [moves M1 M2 ...]``.

    :raises UciError: for a malformed command, a bad FEN or an illegal move (the
        engine keeps the position it had).
    """
    if not tokens or tokens[0] not in ("startpos", "fen"):
        raise UciError("position needs 'startpos' or 'fen FEN', then 'moves ...' if any")
    cut = tokens.index("moves") if "moves" in tokens else len(tokens)
    if tokens[0] == "startpos":
        if cut != 1:
            raise UciError(f"position startpos takes no more words before 'moves': {tokens[1:cut]}")
        game = Chess()
    else:
        fen = " ".join(tokens[1:cut])
        if not fen:
            raise UciError("position fen needs a FEN")
        game = Chess.from_text(fen)
    for text in tokens[cut + 1 :]:
        try:
            move = chess.Move.from_uci(text)
        except chess.InvalidMoveError:
            raise UciError(
                f"position: {text!r} is not a move in UCI notation (e2e4, e7e8q)"
            ) from None
        if move not in game.legal_moves():
            raise UciError(f"position: the move {text!r} is not legal in {game.to_text()!r}")
        game.push(move)
    return game


# -------------------------------------------------------------------- command line
def register(subparsers: Any) -> None:
    """Add ``gamesearch uci`` to the command line."""
    parser = subparsers.add_parser(
        "uci",
        help="play chess as a UCI engine over standard input and output (for chess GUIs)",
        description=(
            "Play chess as a UCI engine: a chess GUI or tournament manager starts "
            "`gamesearch uci` and sends it commands (uci, isready, position, go, stop, "
            "quit) on standard input; the engine answers on standard output, printing a "
            "line of search information after each depth and a bestmove for every go."
        ),
    )
    parser.add_argument(
        "--searcher",
        default=DEFAULT_SEARCHER,
        metavar="SPEC",
        help=f"the searcher that plays, with its options (default: {DEFAULT_SEARCHER}); "
        "its options other than the limits are also UCI options",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    engine = UciEngine(sys.stdout, searcher=args.searcher)
    engine.run(sys.stdin)
    return 0
