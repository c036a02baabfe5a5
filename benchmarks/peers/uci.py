"""Chess engines spoken to over UCI (sunfish, Stockfish) as players of ``benchmarks strength``.

The engine runs in a process of its own, started once per engine and kept for every
game this process plays (``ucinewgame`` between games) until :func:`close_engines`.
With ``clock=cpu`` it searches with ``go infinite`` and is told ``stop`` as soon as its
process has used ``seconds`` of processor time, read from ``/proc/PID/stat`` (user plus
system time, in the kernel's clock ticks: 10 ms on Linux), so it gets the same
processor time a move as this framework's searcher does, whatever the machine's load;
with ``clock=wall``, or where ``/proc`` is missing, it is given ``go movetime``. The
engines are found by name: ``sunfish-uci`` beside this Python (PyPI's ``sunfish``,
which ``make bench`` installs) or on the ``PATH``, ``stockfish`` on the ``PATH`` or in
``/usr/games`` (Debian's package).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import time
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from benchmarks.peers.players import OutsidePlayer, spent
from gamesearch.game import Game
from gamesearch.options import option_field

#: how often the engine's processor time is read while it searches (seconds)
POLL_SECONDS = 0.002
#: the kernel's clock ticks a second (``/proc/PID/stat`` counts processor time in ticks)
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: the engine processes started so far, by command and strength
_ENGINES: dict[tuple[str, int | None], Any] = {}
#: by program: the processor time its searches ran on after the stop was due, and their number
_LATE: dict[str, list[float]] = {}


def find_program(name: str) -> str | None:
    """Return the path of the program ``name``: beside this Python, on the ``PATH`` or in
    ``/usr/games``; ``None`` when it is nowhere."""
    beside = Path(sys.executable).with_name(name)
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name) or shutil.which(name, path="/usr/games")
    return found


def process_cpu_seconds(pid: int) -> float | None:
    """Return the processor time (user + system) the process ``pid`` has used, or ``None``
    when ``/proc`` cannot tell."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the command's name
    return (int(fields[11]) + int(fields[12])) / TICKS


def close_engines() -> None:
    """Stop every engine process started so far (python-chess's thread would otherwise keep
    this process from ending)."""
    for engine in _ENGINES.values():
        try:
            engine.quit()
        except Exception:  # noqa: BLE001 (an engine that died already)
            engine.close()
    _ENGINES.clear()


atexit.register(close_engines)


@attrs.frozen(kw_only=True)
class UciEngine(OutsidePlayer):
    """A chess engine over UCI, stopped once it has used the time per move."""

    name: ClassVar[str] = "uci"
    plays: ClassVar[tuple[str, ...]] = ("chess",)
    in_process: ClassVar[bool] = False  # the engine's own process: counted from /proc
    #: the program to run and how to install it
    program: ClassVar[str] = ""
    install: ClassVar[str] = ""
    elo: int | None = option_field(
        None, "play at this UCI_Elo (UCI_LimitStrength), where the engine offers it"
    )

    def unmet_needs(self, game: Game[Any]) -> list[str]:
        """Return what keeps the engine from playing ``game``: also, the engine missing."""
        unmet = super().unmet_needs(game)
        if find_program(self.program) is None:
            unmet.append(f"the program {self.program!r} is not installed ({self.install})")
        return unmet

    def engine(self) -> Any:
        """Return the running engine of this command and strength (started on first use)."""
        import chess.engine

        key = (self.program, self.elo)
        engine = _ENGINES.get(key)
        if engine is None:
            path = find_program(self.program)
            assert path is not None  # unmet_needs refused the search otherwise
            engine = chess.engine.SimpleEngine.popen_uci(path, timeout=60)
            if self.elo is not None:
                engine.configure({"UCI_LimitStrength": True, "UCI_Elo": self.elo})
            _ENGINES[key] = engine
        return engine

    def choose(self, game: Game[Any]) -> tuple[Hashable, int]:
        """Return the engine's move in ``game`` and the nodes it reported."""
        import chess.engine

        board = _board_of(game)
        engine = self.engine()
        seconds = self.budget_seconds
        pid = engine.transport.get_pid()
        start = process_cpu_seconds(pid) if self.clock == "cpu" else None
        if start is None:
            played = engine.play(board, chess.engine.Limit(time=seconds), game=id(self))
            move, nodes = played.move, int(played.info.get("nodes", 0))
        else:
            # an engine that reads "stop" only between its iterations (sunfish) runs on after
            # it: it is stopped early by the mean time it ran on so far, so that its mean time
            # a move is the budget
            late = _LATE.setdefault(self.program, [0.0, 0])
            stop_at = seconds - (late[0] / late[1] if late[1] else 0.0)
            with engine.analysis(board, game=id(self)) as analysis:
                while not _ended(analysis):
                    used = process_cpu_seconds(pid)
                    if used is None or used - start >= stop_at:
                        break
                    time.sleep(POLL_SECONDS)
                stopped = process_cpu_seconds(pid)
                analysis.stop()
                best = analysis.wait()
                move, nodes = best.move, int(analysis.info.get("nodes", 0))
            ended = process_cpu_seconds(pid)
            if stopped is not None and ended is not None:
                late[0] += ended - stopped
                late[1] += 1
                spent(self.name, ended - start)
        if move is None:
            raise RuntimeError(f"{self.program} gave no move in {board.fen()}")
        return _legal(game, move.uci()), nodes


def _ended(analysis: Any) -> bool:
    """Return whether the engine answered ``bestmove`` of its own accord (a mate found, one
    legal move), reading the ``info`` lines that came meanwhile."""
    import chess.engine

    while not analysis.would_block():
        try:
            analysis.get()
        except chess.engine.AnalysisComplete:
            return True
    return False


def _board_of(game: Game[Any]) -> Any:
    """Return python-chess's board of ``game``: its starting position and every move since, so
    the engine sees repetitions."""
    import chess

    start = game.copy()
    moves = start.history
    for _ in moves:
        start.undo()
    board = chess.Board(start.to_text())
    for move in moves:
        board.push(move)
    return board


def _legal(game: Game[Any], text: str) -> Hashable:
    """Return the legal move of ``game`` written ``text`` in UCI notation.

    :raises RuntimeError: when no legal move is written so (the engine played an illegal
        move).
    """
    moves: Sequence[Any] = game.legal_moves()
    for move in moves:
        if move.uci() == text:
            return move  # type: ignore[no-any-return]
    raise RuntimeError(f"the engine played {text!r}, not a legal move in {game.to_text()}")


@attrs.frozen(kw_only=True)
class Sunfish(UciEngine):
    """sunfish, the pure-Python chess engine (PyPI's sunfish), over UCI."""

    name: ClassVar[str] = "sunfish"
    program: ClassVar[str] = "sunfish-uci"
    install: ClassVar[str] = "make bench installs it"


@attrs.frozen(kw_only=True)
class Stockfish(UciEngine):
    """Stockfish over UCI, at a UCI_Elo given by its ``elo`` option."""

    name: ClassVar[str] = "stockfish"
    program: ClassVar[str] = "stockfish"
    install: ClassVar[str] = "Debian's package: apt-get install stockfish"


UCI_ENGINES = (Sunfish, Stockfish)
