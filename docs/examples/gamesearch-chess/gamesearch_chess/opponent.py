"""``uci``: another chess engine as a searcher, driven over the Universal Chess Interface.

``UciPlayer(command="sunfish-uci", seconds=0.2, clock="cpu")`` plays the moves sunfish
chooses, so ``python -m gamesearch_chess.versus --second uci:command=sunfish-uci`` pits
the plugin's own engine against it. It is not a registered searcher (it plays chess
only, and searches nothing itself, so the checks every searcher passes do not apply).
The engine is a child process, started at its first search and kept
for the rest of the process (one per command line), sent the game from its start
(``position fen ... moves ...``, so it sees the repetitions) and asked for one move:

- with ``seconds`` on the ``cpu`` clock, it searches (``go infinite``) until its own
  processor time reaches the budget, read from the operating system every few
  milliseconds, then is told to ``stop``: the two sides of a match then think for equal
  processor time whatever else the machine runs (Linux only: the time is read from
  ``/proc``);
- with ``seconds`` on the ``wall`` clock, it is given ``go movetime``;
- with ``depth`` or ``max_nodes``, ``go depth`` or ``go nodes``.

The value is the engine's last ``score`` (centipawns, or a mate as the largest value).
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
from gamesearch.search.base import RootAnswer, SearchContext, Searcher
from gamesearch_chess import EVALUATION_BOUND

__all__ = ["UciPlayer", "child_cpu_seconds"]

#: seconds between two readings of the engine's processor time
POLL_SECONDS = 0.002
#: seconds an engine may take to answer a command before it is taken to be stuck
ANSWER_SECONDS = 60.0
#: clock ticks per second of the times in /proc/PID/stat
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class EngineFailedError(GameSearchError, RuntimeError):
    """The engine could not be started, or stopped answering."""


def child_cpu_seconds(pid: int) -> float:
    """Return the processor time (user plus system) process ``pid`` has used so far.

    :raises OSError: when the process is gone or ``/proc`` is not there.
    """
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / _TICKS


class _Engine:
    """One engine process: its pipes, and a thread that queues its output lines."""

    def __init__(self, command: str) -> None:
        words = shlex.split(command)
        if words and shutil.which(words[0]) is None:
            # a console script of this Python's environment (its bin directory may not be
            # on the PATH, as in a virtual environment not activated)
            beside = shutil.which(words[0], path=os.path.dirname(sys.executable))
            if beside is not None:
                words[0] = beside
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

    def next_line(self, timeout: float) -> str | None:
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

    def close(self) -> None:
        """Ask the engine to quit, and end it if it does not."""
        try:
            self.send("quit")
            self.process.wait(timeout=2)
        except (EngineFailedError, subprocess.TimeoutExpired):
            self.process.kill()


#: the engines started so far, by command line (kept for the rest of the process)
_ENGINES: dict[str, _Engine] = {}


def _engine(command: str) -> _Engine:
    engine = _ENGINES.get(command)
    if engine is None or engine.process.poll() is not None:
        engine = _ENGINES[command] = _Engine(command)
    return engine


@atexit.register
def _close_engines() -> None:
    for engine in _ENGINES.values():
        engine.close()
    _ENGINES.clear()


@attrs.frozen(kw_only=True)
class UciPlayer(Searcher):
    """Another chess engine (a UCI program) asked for its move: no search of its own."""

    name: ClassVar[str] = "uci"
    line_on_demand: ClassVar[bool] = False

    command: str = attrs.field(
        default="sunfish-uci",
        metadata={"help": "the engine's command line (default: sunfish-uci, from PyPI's sunfish)"},
    )

    def root(self, game: Game[Any], context: SearchContext) -> RootAnswer:
        board = getattr(game, "board", None)
        if not isinstance(board, chess.Board):
            raise EngineFailedError(f"a UCI engine plays chess, not {type(game).name!r}")
        engine = _engine(self.command)
        start = board.root().fen()
        moves = " ".join(move.uci() for move in board.move_stack)
        engine.send(f"position fen {start}" + (f" moves {moves}" if moves else ""))
        lines = self._go(engine)
        words = lines[-1].split()
        try:
            move = chess.Move.from_uci(words[1])
        except (IndexError, chess.InvalidMoveError):
            move = chess.Move.null()
        if move not in board.legal_moves:
            raise EngineFailedError(
                f"the engine {self.command!r} answered {lines[-1]!r} in {board.fen()!r}"
            )
        context.counters.nodes += 1
        context.horizon_reached = True
        value = _score(lines, EVALUATION_BOUND - 1)
        return context.answer(game, value if board.turn else -value, [move])

    def _principal_variation(
        self, game: Game[Any], move: Hashable, answer: RootAnswer, memory: Any
    ) -> tuple[Hashable, ...]:
        """Return the move alone: asking the engine about the positions after it would
        cost it a search each."""
        return (move,)

    def _go(self, engine: _Engine) -> list[str]:
        """Return the engine's lines for one move, ``bestmove`` last."""
        if self.seconds is not None and self.clock == "cpu":
            pid = engine.process.pid
            budget = child_cpu_seconds(pid) + self.seconds
            engine.send("go infinite")
            lines: list[str] = []
            while child_cpu_seconds(pid) < budget:
                line = engine.next_line(timeout=POLL_SECONDS)
                if line:
                    lines.append(line)
                    if line.startswith("bestmove"):
                        return lines  # (an engine may answer at once: one legal move)
            engine.send("stop")
            return lines + engine.wait_for("bestmove")
        if self.seconds is not None:
            engine.send(f"go movetime {max(1, round(self.seconds * 1000))}")
        elif self.depth is not None:
            engine.send(f"go depth {self.depth}")
        elif self.max_nodes is not None:
            engine.send(f"go nodes {self.max_nodes}")
        else:
            raise EngineFailedError("give a UCI engine seconds, depth or max_nodes to search by")
        return engine.wait_for("bestmove")


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
