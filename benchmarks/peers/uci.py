"""Chess engines spoken to over UCI (sunfish, Stockfish) as players of ``benchmarks strength``.

The chess plugin's adapter (:mod:`gamesearch_chess.opponent`, the one
``python -m gamesearch_chess.versus`` plays through) speaks to the engine: it runs in a
process of its own, started once per engine and strength and kept for every game this
process plays, until :func:`close_engines`. With ``clock=cpu`` it searches with ``go
infinite`` and is told ``stop`` as soon as its process has used ``seconds`` of processor
time, read from ``/proc/PID/stat`` (user plus system time, in the kernel's clock ticks:
10 ms on Linux), so it gets the same processor time a move as this framework's searcher
does, whatever the machine's load; an engine that reads ``stop`` only between its
iterations (sunfish) is stopped early by its mean overrun so far. With ``clock=wall``,
or where ``/proc`` is missing, it is given ``go movetime``. The engines are found by
name: ``sunfish-uci`` beside this Python (PyPI's ``sunfish``, which ``make bench``
installs) or on the ``PATH``, ``stockfish`` on the ``PATH`` or in ``/usr/games``
(Debian's package).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import attrs

from benchmarks.peers.players import OutsidePlayer, spent
from gamesearch.game import Game
from gamesearch.options import option_field

__all__ = ["UCI_ENGINES", "Stockfish", "Sunfish", "UciEngine", "close_engines", "find_program"]


def find_program(name: str) -> str | None:
    """Return the path of the program ``name`` (see the module's list; ``None``: nowhere).

    :raises ImportError: when the chess plugin is not installed.
    """
    from gamesearch_chess.opponent import find_program as find

    return find(name)


def close_engines() -> None:
    """Stop every engine process started so far (also done when this process ends)."""
    try:
        from gamesearch_chess.opponent import close_engines as close
    except ImportError:  # no chess plugin: no engine was started
        return
    close()


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
        if not unmet and find_program(self.program) is None:
            unmet.append(f"the program {self.program!r} is not installed ({self.install})")
        return unmet

    def choose(self, game: Game[Any]) -> tuple[Hashable, int]:
        """Return the engine's move in ``game`` and the nodes it reported.

        :raises EngineFailedError: when the engine fails or plays an illegal move.
        """
        from gamesearch_chess.opponent import ask

        board = game.board  # type: ignore[attr-defined]  # a chess game (unmet_needs)
        answer = ask(
            self.program, board, seconds=self.budget_seconds, clock=self.clock, elo=self.elo
        )
        if answer.cpu_seconds is not None:
            spent(self.name, answer.cpu_seconds)
        return answer.move, answer.nodes


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
