"""``uci``: another chess engine as a searcher, driven over the Universal Chess Interface.

``UciPlayer(command="sunfish-uci", seconds=0.2, clock="cpu")`` plays the moves sunfish
chooses, so ``python -m gamesearch_chess.versus --second uci:command=sunfish-uci`` pits
the plugin's own engine against it, and ``python -m benchmarks strength chess`` plays
sunfish and Stockfish through it. It is not a registered searcher (it plays chess
only, and searches nothing itself, so the checks every searcher passes do not apply).
The engine is a child process, started at its first search and kept
for the rest of the process (one per command line and strength), sent the game from
its start (``position fen ... moves ...``, so it sees the repetitions) and asked for one
move:

- with ``seconds`` on the ``cpu`` clock, it searches (``go infinite``) until its own
  processor time reaches the budget, read from the operating system every few
  milliseconds, then is told to ``stop``: the two sides of a match then think for equal
  processor time whatever else the machine runs (Linux only: the time is read from
  ``/proc``; elsewhere it is given ``go movetime``). An engine that reads ``stop`` only
  between its iterations (sunfish) runs on after it, so it is told to stop early by
  the mean time it ran on so far: its mean time a move is then the budget;
- with ``seconds`` on the ``wall`` clock, it is given ``go movetime``;
- with ``depth`` or ``max_nodes``, ``go depth`` or ``go nodes``.

``elo=N`` asks for that strength (``UCI_LimitStrength`` and ``UCI_Elo``: Stockfish
offers them). The value is the engine's last ``score`` (centipawns, or a mate as the
largest value). A command is found beside this Python (a console script of its
environment, such as ``sunfish-uci``), on the ``PATH`` or in ``/usr/games`` (where
Debian puts ``stockfish``).
"""

from __future__ import annotations

import atexit
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any, ClassVar

import attrs
import chess

from gamesearch.errors import GameSearchError
from gamesearch.game import Game
from gamesearch.options import option_field
from gamesearch.search.base import RootAnswer, SearchContext, Searcher
from gamesearch_chess import EVALUATION_BOUND

__all__ = [
    "CPU_SPENT",
    "EngineFailedError",
    "UciAnswer",
    "UciPlayer",
    "ask",
    "child_cpu_seconds",
    "close_engines",
    "find_program",
]

#: seconds between two readings of the engine's processor time
POLL_SECONDS = 0.002
#: seconds an engine may take to answer a command before it is taken to be stuck
ANSWER_SECONDS = 60.0
#: clock ticks per second of the times in /proc/PID/stat
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: by command: the processor time its moves took on the ``cpu`` clock (seconds) and their
#: number, in this process
CPU_SPENT: dict[str, list[float]] = {}
#: by command: the processor time its searches ran on after the stop was due, and their number
_LATE: dict[str, list[float]] = {}


class EngineFailedError(GameSearchError, RuntimeError):
    """The engine could not be started, or stopped answering, or played an illegal move."""


def find_program(name: str) -> str | None:
    """Return the path of the program ``name``: beside this Python, on the ``PATH`` or in
    ``/usr/games`` (a path: itself); ``None`` when it is nowhere."""
    if os.sep in name:
        return name if os.access(name, os.X_OK) else None
    beside = Path(sys.executable).with_name(name)
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name) or shutil.which(name, path="/usr/games")


def child_cpu_seconds(pid: int) -> float | None:
    """Return the processor time (user plus system) process ``pid`` has used so far, or
    ``None`` when the operating system cannot tell (no ``/proc``, or the process is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / TICKS


class _Engine:
    """One engine process: its pipes, and a thread that queues its output lines."""

    def __init__(self, command: str, elo: int | None) -> None:
        words = shlex.split(command)
        found = find_program(words[0]) if words else None
        if found is not None:
            words[0] = found
        try:
            self.process = subprocess.Popen(
                words,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineFailedError(f"cannot start the engine {command!r}: {error}") from None
        self.command = command
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name=f"uci {command}").start()
        self.send("uci")
        self.wait_for("uciok")
        if elo is not None:
            self.send("setoption name UCI_LimitStrength value true")
            self.send(f"setoption name UCI_Elo value {elo}")
        self.send("isready")
        self.wait_for("readyok")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)  # the engine is gone

    def send(self, line: str) -> None:
        """Write one command to the engine.

        :raises EngineFailedError: when the engine has closed its input.
        """
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError:
            raise EngineFailedError(f"the engine {self.command!r} has quit") from None

    def next_line(self, timeout: float) -> str:
        """Return the engine's next line, or ``""`` when none came within ``timeout``.

        :raises EngineFailedError: when the engine has quit.
        """
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return ""
        if line is None:
            raise EngineFailedError(f"the engine {self.command!r} has quit")
        return line

    def wait_for(self, word: str) -> list[str]:
        """Return the lines up to the first that starts with ``word`` (that one last).

        :raises EngineFailedError: when the engine quits or stays silent too long.
        """
        seen: list[str] = []
        deadline = time.monotonic() + ANSWER_SECONDS
        while time.monotonic() < deadline:
            line = self.next_line(timeout=ANSWER_SECONDS)
            if line:
                seen.append(line)
                if line.split()[0] == word:
                    return seen
        raise EngineFailedError(f"the engine {self.command!r} did not answer {word!r}")

    def cpu_seconds(self) -> float | None:
        """Return the processor time the engine's process has used (``None``: unknown)."""
        return child_cpu_seconds(self.process.pid)

    def close(self) -> None:
        """Ask the engine to quit, and end it if it does not."""
        try:
            self.send("quit")
            self.process.wait(timeout=2)
        except (EngineFailedError, subprocess.TimeoutExpired):
            self.process.kill()


#: the engines started so far, by command line and strength (kept for the rest of the process)
_ENGINES: dict[tuple[str, int | None], _Engine] = {}


def _engine(command: str, elo: int | None) -> _Engine:
    engine = _ENGINES.get((command, elo))
    if engine is None or engine.process.poll() is not None:
        engine = _ENGINES[command, elo] = _Engine(command, elo)
    return engine


@atexit.register
def close_engines() -> None:
    """Stop every engine process started so far."""
    for engine in _ENGINES.values():
        engine.close()
    _ENGINES.clear()


@attrs.frozen
class UciAnswer:
    """An engine's answer for one position."""

    move: chess.Move  #: its move (legal in the position)
    score: int  #: its last score in centipawns for the side to move (a mate: ±largest)
    nodes: int  #: the nodes it last reported (0: none)
    cpu_seconds: float | None  #: the processor time its process used (``None``: unknown)


def ask(
    command: str,
    board: chess.Board,
    *,
    seconds: float | None = None,
    clock: str = "cpu",
    depth: int | None = None,
    nodes: int | None = None,
    elo: int | None = None,
) -> UciAnswer:
    """Return the answer of the engine ``command`` (at ``UCI_Elo`` ``elo``) in ``board``,
    searching by ``seconds`` on ``clock``, else to ``depth``, else for ``nodes`` (see the
    module's list); the engine is sent ``board`` from its first position on.

    :raises EngineFailedError: when the engine cannot be started, stops answering or
        answers an illegal move, or no budget is given.
    """
    engine = _engine(command, elo)
    start = board.root().fen()
    moves = " ".join(move.uci() for move in board.move_stack)
    engine.send(f"position fen {start}" + (f" moves {moves}" if moves else ""))
    began = engine.cpu_seconds()
    if seconds is not None and clock == "cpu" and began is not None:
        lines = _go_for_cpu(engine, seconds, began)
    else:
        if seconds is not None:
            engine.send(f"go movetime {max(1, round(seconds * 1000))}")
        elif depth is not None:
            engine.send(f"go depth {depth}")
        elif nodes is not None:
            engine.send(f"go nodes {nodes}")
        else:
            raise EngineFailedError("give a UCI engine seconds, depth or nodes to search by")
        lines = engine.wait_for("bestmove")
    ended = engine.cpu_seconds()
    used = None if began is None or ended is None else ended - began
    words = lines[-1].split()
    try:
        move = chess.Move.from_uci(words[1])
    except (IndexError, chess.InvalidMoveError):
        move = chess.Move.null()
    if move not in board.legal_moves:
        raise EngineFailedError(f"the engine {command!r} answered {lines[-1]!r} in {board.fen()!r}")
    return UciAnswer(move, _score(lines, EVALUATION_BOUND - 1), _nodes(lines), used)


def _go_for_cpu(engine: _Engine, seconds: float, began: float) -> list[str]:
    """Return the engine's lines for one move searched for ``seconds`` of its processor
    time from ``began`` (stopped early by its mean overrun so far), ``bestmove`` last."""
    late = _LATE.setdefault(engine.command, [0.0, 0])
    stop_at = began + seconds - (late[0] / late[1] if late[1] else 0.0)
    engine.send("go infinite")
    lines: list[str] = []
    while (now := engine.cpu_seconds()) is not None and now < stop_at:
        line = engine.next_line(timeout=POLL_SECONDS)
        if line:
            lines.append(line)
            if line.startswith("bestmove"):
                break  # (an engine may answer at once: a mate found, one legal move)
    else:
        stopped = engine.cpu_seconds()
        engine.send("stop")
        lines += engine.wait_for("bestmove")
        ended = engine.cpu_seconds()
        if stopped is not None and ended is not None:
            late[0] += ended - stopped
            late[1] += 1
    ended = engine.cpu_seconds()
    if ended is not None:
        spent = CPU_SPENT.setdefault(engine.command, [0.0, 0])
        spent[0] += ended - began
        spent[1] += 1
    return lines


@attrs.frozen(kw_only=True)
class UciPlayer(Searcher):
    """Another chess engine (a UCI program) asked for its move: no search of its own."""

    name: ClassVar[str] = "uci"
    line_on_demand: ClassVar[bool] = False

    command: str = attrs.field(
        default="sunfish-uci",
        metadata={"help": "the engine's command line (default: sunfish-uci, from PyPI's sunfish)"},
    )
    elo: int | None = option_field(
        None, "play at this UCI_Elo (UCI_LimitStrength), where the engine offers it"
    )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        board = getattr(game, "board", None)
        if not isinstance(board, chess.Board):
            raise EngineFailedError(f"a UCI engine plays chess, not {type(game).name!r}")
        answer = ask(
            self.command,
            board,
            seconds=self.seconds,
            clock=self.clock,
            depth=self.depth,
            nodes=self.max_nodes,
            elo=self.elo,
        )
        context.counters.nodes += 1
        context.horizon_reached = True
        value = answer.score if board.turn else -answer.score
        return context.answer(game, value, [answer.move])

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: Any
    ) -> tuple[Hashable, ...]:
        """Return the move alone: asking the engine about the positions after it would
        cost it a search each."""
        return (move,)


def _score(lines: list[str], largest: int) -> int:
    """Return the last score of the engine's ``info`` lines in centipawns for the side to
    move (a mate: ``±largest``; none: 0)."""
    for line in reversed(lines):
        words = line.split()
        if words[0] != "info" or "score" not in words:
            continue
        at = words.index("score")
        kind, number = words[at + 1], int(words[at + 2])
        if kind == "mate":
            return largest if number > 0 else -largest
        return max(-largest, min(largest, number))
    return 0


def _nodes(lines: list[str]) -> int:
    """Return the last node count of the engine's ``info`` lines (0: none)."""
    for line in reversed(lines):
        words = line.split()
        if words[0] == "info" and "nodes" in words[:-1]:
            return int(words[words.index("nodes") + 1])
    return 0
