"""The connect4 plugin: Connect Four, its reference data and the commands that check the solver.

- :mod:`.game`: the game (:class:`ConnectFour`);
- :mod:`.data`: Pascal Pons' benchmark sets and the UCI table, where they are
  published, and the two position formats that read them (``pons``, ``uci``);
- :mod:`.solve_bench` and :mod:`.uci_check`: the ``gamesearch solve-bench`` and
  ``gamesearch uci-check`` commands (imported when the command line is built).

Its board is drawn as discs dropping into columns.
"""

from __future__ import annotations

from typing import Any

from gamesearch.looks import BoardLook
from gamesearch.plugins import hookimpl

from .data import CONNECT4, PONS_FORMAT, UCI_FORMAT
from .game import ConnectFour

__all__ = ["ConnectFour"]


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register Connect Four."""
    registry.add_game(ConnectFour)


@hookimpl
def gamesearch_register_commands(registry: Any) -> None:
    """Register ``solve-bench`` and ``uci-check``."""
    registry.add_command("solve-bench", _solve_bench)
    registry.add_command("uci-check", _uci_check)


@hookimpl
def gamesearch_register_data_sets(registry: Any) -> None:
    """Register Pons' sets and the UCI table (``gamesearch data fetch connect4``)."""
    registry.add_data_set(CONNECT4)


@hookimpl
def gamesearch_register_position_formats(registry: Any) -> None:
    """Register the formats of Pons' sets and of the UCI rows."""
    registry.add_position_format(PONS_FORMAT)
    registry.add_position_format(UCI_FORMAT)


@hookimpl
def gamesearch_register_board_looks(registry: Any) -> None:
    """Draw the board as discs that drop into columns, four in a row winning."""
    registry.add_board_look(ConnectFour.name, BoardLook(kind="drop", win_length=4))


def _solve_bench(subparsers: Any) -> None:
    from . import solve_bench

    solve_bench.register(subparsers)


def _uci_check(subparsers: Any) -> None:
    from . import uci_check

    uci_check.register(subparsers)
