"""Kalah: sow seeds round the board and gather more of them in your store than the other side.

Each player (South moves first, then North) owns a row of ``pits`` houses, each holding
``seeds`` seeds at the start, and a store to the right of the row. A move takes every seed
of one of the mover's houses and sows them one by one, counter-clockwise, into the
following houses and the mover's own store, skipping the opponent's store:

- when the last seed lands in the mover's own store, the mover moves again;
- when it lands in an empty house of the mover's own side and the opposite house holds
  seeds, that seed and the opposite house's seeds go into the mover's store (with the
  option ``empty_capture``, the *empty capture* rule, that seed goes into the store even
  when the opposite house is empty: the rule Irving, Donkers and Uiterwijk's "Solving
  Kalah", 2000, solves);
- when either side has no seed left in its houses, the game ends and the other side puts
  the seeds left in its houses into its own store.

The result is South's store minus North's: a positive result is South's win by that many
seeds.

Moves are the mover's house numbers, written ``1`` .. ``pits`` in the order the seeds
travel (house 1 is the farthest from the mover's store), the same text for either
player. A position is text: South's houses from house 1, South's store, North's houses
from house 1, North's store, separated by ``/``, then a space, the side to move (``S`` or
``N``), a space and the ply: ``"4,4,4,4,4,4/0/4,4,4,4,4,4/0 S 0"`` is the start with 6
pits of 4 seeds. The ply is part of the position: the same board often comes up after
different numbers of moves. What is left of the game does not depend on the ply (no rule
looks at it: the longest game is a bound that play never passes, not a cap), so the
future key, by which solution stores keep positions, is the board and the side to move
alone, one whole number.

The board is one tuple in the order the seeds travel: South's houses, South's store,
North's houses, North's store. A move builds the next tuple, so taking it back is
restoring the one before.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any, ClassVar

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidMoveError, InvalidPositionError
from gamesearch.game import Game, Option, resolve_options
from gamesearch.plugins import hookimpl
from gamesearch.rules import PLAYERS, Player, Rules

SIDE_LETTERS = ("S", "N")
#: heuristic points per seed of store difference and per seed of house difference
STORE_POINTS, HOUSE_POINTS = 4, 1


@functools.cache
def _rules(pits: int, seeds: int) -> Rules:
    total = 2 * pits * seeds
    # The longest game: each move either puts a seed into a store (at most ``total`` times)
    # or moves the mover's seeds towards their store within their own row, which lowers
    # the sum over seeds in houses of their distance to the owner's store (at most
    # ``pits`` a seed) by at least one. So with ``k`` seeds stored, at most
    # ``pits * (total - k)`` moves come before the next seed is stored.
    return Rules(
        max_plies=pits * total * (total + 1) // 2 + total,
        alternating=False,
        result_range=(-total, total),
    )


@functools.cache
def _future_weights(pits: int, seeds: int) -> tuple[int, ...]:
    """Return the weight of each slot of the board but North's store (which the seed total
    tells) in the future key: the board's digits in base ``total + 1``, above the side to
    move."""
    base = 2 * pits * seeds + 1
    return tuple(2 * base**slot for slot in range(2 * pits + 1))


@functools.cache
def _sowing_paths(pits: int, seeds: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Return, for each side to move and house, the slots its seeds are sown into, in
    order, for as many seeds as the board holds (a house of ``n`` seeds sows the first ``n``)."""
    slots, total = 2 * pits + 2, 2 * pits * seeds
    sides = []
    for turn in (0, 1):
        skipped = pits if turn else 2 * pits + 1  # the opponent's store
        houses = []
        for house in range(pits):
            index = pits + 1 + house if turn else house
            path: list[int] = []
            while len(path) < total:
                index = (index + 1) % slots
                if index != skipped:
                    path.append(index)
            houses.append(tuple(path))
        sides.append(tuple(houses))
    return tuple(sides)


class Kalah(Game[int]):
    """Kalah: each side a row of houses (option ``pits``, 6) of seeds (``seeds``, 4 a house)."""

    name = "kalah"
    player_names = ("South", "North")
    options = (
        Option("pits", int, 6, "houses on each side", minimum=1, maximum=12),
        Option("seeds", int, 4, "seeds in each house at the start", minimum=1, maximum=12),
        Option(
            "empty_capture",
            bool,
            False,
            "a last seed in an empty house of one's own row is stored even when the house "
            "opposite is empty",
        ),
    )
    #: the searcher the web board offers first: the full boards are far too big to search
    #: to the end, and iterative deepening answers within a time limit
    default_searcher: ClassVar[str | None] = "iterative"
    #: :meth:`evaluate` stays strictly inside plus or minus this
    evaluation_bound: ClassVar[int] = 10_000

    def __init__(self, pits: int = 6, seeds: int = 4, empty_capture: bool = False) -> None:
        settings = resolve_options(
            self.options, {"pits": pits, "seeds": seeds, "empty_capture": empty_capture}
        )
        self.pits: int = settings["pits"]
        self.seeds: int = settings["seeds"]
        self.empty_capture: bool = settings["empty_capture"]
        pits, seeds = self.pits, self.seeds
        row = (seeds,) * pits
        self._board: tuple[int, ...] = row + (0,) + row + (0,)
        self._turn = 0  # 0: South to move, 1: North
        self._is_over = False
        #: the board and the side to move before each move of the history
        self._before: list[tuple[tuple[int, ...], int]] = []
        #: the ply of the position the history starts from
        self._origin_ply = 0
        self._paths = _sowing_paths(pits, seeds)
        self._weights = _future_weights(pits, seeds)

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, **options: Any) -> Kalah:
        """Return the starting position for these options.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        return cls(**resolve_options(cls.options, options))

    @classmethod
    def from_text(cls, text: str, **options: Any) -> Kalah:
        """Return the position ``"houses/store/houses/store side ply"`` (South's first).

        Houses are comma-separated seed counts from house 1; the side to move is ``S`` or
        ``N``; the ply (the moves played since the start) may be left out for 0.
        Without options the number of houses gives ``pits`` and the seed count gives
        ``seeds`` (the board always holds ``2 * pits * seeds`` seeds).

        :raises InvalidPositionError: for a bad shape, a count that is not a whole
            number of seeds, a seed total no start could have, one side's houses empty
            while the other's are not (the game would have ended), or a ply beyond the
            longest game.
        :raises InvalidOptionError: for a bad option.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        shape = (
            "South's houses/store/North's houses/store, the side to move ('S' or 'N') and the ply"
        )
        parts = text.split()
        fields = parts[0].split("/") if len(parts) in (2, 3) else []
        if len(fields) != 4 or parts[1].upper() not in SIDE_LETTERS:
            raise InvalidPositionError(f"position {text!r} must be {shape}")
        try:
            south, north = ([int(count) for count in field.split(",")] for field in fields[::2])
            stores = [int(fields[1]), int(fields[3])]
            ply = int(parts[2]) if len(parts) == 3 else 0
        except ValueError:
            raise InvalidPositionError(
                f"position {text!r} has a count that is not a whole number"
            ) from None
        if len(south) != len(north):
            raise InvalidPositionError(
                f"position {text!r} gives South {len(south)} houses and North {len(north)}"
            )
        counts = south + north + stores
        if any(count < 0 for count in counts + [ply]):
            raise InvalidPositionError(f"position {text!r} has a negative count")
        pits, total = len(south), sum(counts)
        if "pits" not in options:
            options = {**options, "pits": pits}
        if "seeds" not in options and total and total % (2 * pits) == 0:
            options = {**options, "seeds": total // (2 * pits)}
        game = cls.new(**options)
        if game.pits != pits:
            raise InvalidPositionError(
                f"position {text!r} has {pits} houses a side, not {game.pits}"
            )
        if total != 2 * game.pits * game.seeds:
            raise InvalidPositionError(
                f"position {text!r} holds {total} seeds; a game of {game.pits} pits starts with "
                f"{2 * game.pits} times the seeds of a house"
            )
        if (sum(south) == 0) != (sum(north) == 0):
            raise InvalidPositionError(
                f"position {text!r} has one side's houses empty; the game would be over "
                "and the other side's seeds in its store"
            )
        if ply > game.rules.max_plies:
            raise InvalidPositionError(
                f"position {text!r} has ply {ply}; no game lasts more than {game.rules.max_plies}"
            )
        game._board = tuple(south + stores[:1] + north + stores[1:])
        game._turn = SIDE_LETTERS.index(parts[1].upper())
        game._is_over = sum(south) == 0
        game._origin_ply = ply
        return game

    def copy(self) -> Kalah:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._before = self._before.copy()
        return twin

    @property
    def settings(self) -> dict[str, Any]:
        return {"pits": self.pits, "seeds": self.seeds, "empty_capture": self.empty_capture}

    # ------------------------------------------------------------ state queries
    @property
    def rules(self) -> Rules:
        return _rules(self.pits, self.seeds)

    @property
    def ply(self) -> int:
        return self._origin_ply + len(self._history)

    def to_move(self) -> Player:
        return PLAYERS[self._turn]

    def board(self) -> tuple[int, ...]:
        """Return the seed counts in sowing order: South's houses, South's store,
        North's houses, North's store."""
        return self._board

    def stores(self) -> tuple[int, int]:
        """Return the seeds in South's and North's stores."""
        pits = self.pits
        return self._board[pits], self._board[2 * pits + 1]

    # Hot path from here to unmake_move(): small tuples and lists.
    def legal_moves(self) -> Sequence[int]:
        if self._is_over:
            return ()
        pits = self.pits
        offset = pits + 1 if self._turn else 0
        board = self._board
        return [house for house in range(pits) if board[offset + house]]

    def ordered_moves(self) -> Sequence[int]:
        """Return the legal moves, those that end in the mover's store (another move)
        first, then the rest, each group from the house nearest the store."""
        if self._is_over:
            return ()
        pits, board = self.pits, self._board
        offset = pits + 1 if self._turn else 0
        lap = 2 * pits + 1
        again: list[int] = []
        rest: list[int] = []
        for house in range(pits - 1, -1, -1):
            seeds = board[offset + house]
            if seeds:
                (again if seeds % lap == pits - house else rest).append(house)
        return again + rest if again else rest

    def result(self) -> int | None:
        if not self._is_over:
            return None
        pits = self.pits
        return self._board[pits] - self._board[2 * pits + 1]

    def key(self) -> tuple[tuple[int, ...], int, int]:
        return (self._board, self._turn, self._origin_ply + len(self._history))

    def future_key(self) -> int:
        """Return the board and the side to move as one whole number (no ply: the game
        never looks at it), the key solution stores keep."""
        packed: int = sum(map(operator.mul, self._board, self._weights))
        return packed + self._turn

    def make_move(self, move: int) -> None:
        pits, turn, board = self.pits, self._turn, self._board
        self._before.append((board, turn))
        start = pits + 1 + move if turn else move
        seeds, path = board[start], self._paths[turn][move]
        cells = list(board)
        cells[start] = 0
        for index in path[:seeds]:
            cells[index] += 1
        last = path[seeds - 1]
        store = 2 * pits + 1 if turn else pits
        if last != store:
            # a capture: the last seed in an empty house of one's own row, seeds opposite
            # (or none, with the empty capture)
            opposite = 2 * pits - last
            if (
                cells[last] == 1
                and store - pits <= last < store
                and (cells[opposite] or self.empty_capture)
            ):
                cells[store] += cells[opposite] + 1
                cells[last] = cells[opposite] = 0
            turn ^= 1
        south = sum(cells[:pits])
        if not south or south + cells[pits] + cells[2 * pits + 1] == 2 * pits * self.seeds:
            # a side's houses are empty: the game ends, each side stores its own seeds
            cells[pits] += south
            cells[2 * pits + 1] += sum(cells[pits + 1 : 2 * pits + 1])
            cells[:pits] = cells[pits + 1 : 2 * pits + 1] = [0] * pits
            self._is_over = True
        self._board = tuple(cells)
        self._turn = turn

    def advance(self, move: int) -> int | None:
        # push() and result() in one call for the searchers; the move goes into the
        # history as push() puts it.
        self._history.append(move)
        self.make_move(move)
        if not self._is_over:
            return None
        pits = self.pits
        return self._board[pits] - self._board[2 * pits + 1]

    def unmake_move(self, move: int) -> None:
        self._board, self._turn = self._before.pop()
        self._is_over = False  # a move was played from it

    def retract(self, move: int) -> None:
        # undo() without its checks, in one call
        self._history.pop()
        self._board, self._turn = self._before.pop()
        self._is_over = False

    # ---------------------------------------------------------------- heuristic
    def evaluate(self) -> int:
        """Return a heuristic value for South: stored seeds and seeds on each side."""
        pits, board = self.pits, self._board
        south_store, north_store = board[pits], board[2 * pits + 1]
        south = sum(board[:pits])  # North's houses hold the seeds left over
        houses = 2 * south - (2 * pits * self.seeds - south_store - north_store)
        # at most 5 points a seed, and at most 2 * 12 * 12 seeds: always inside the bound
        return STORE_POINTS * (south_store - north_store) + HOUSE_POINTS * houses

    # --------------------------------------------------------------------- text
    def to_text(self) -> str:
        pits, board = self.pits, self._board
        south = ",".join(map(str, board[:pits]))
        north = ",".join(map(str, board[pits + 1 : 2 * pits + 1]))
        stores = f"{board[pits]}", f"{board[2 * pits + 1]}"
        return f"{south}/{stores[0]}/{north}/{stores[1]} {SIDE_LETTERS[self._turn]} {self.ply}"

    def render(self) -> str:
        """Return the board as seen from South: North's row on top, right to left."""
        pits, board = self.pits, self._board
        width = max(2, len(str(max(board))))
        north = " ".join(f"{board[2 * pits - house]:>{width}}" for house in range(pits))
        south = " ".join(f"{board[house]:>{width}}" for house in range(pits))
        pad = " " * (width + 2)
        lines = [
            f"{pad}{north}",
            f"{board[2 * pits + 1]:>{width}}  {' ' * len(north)}  {board[pits]:>{width}}",
            f"{pad}{south}",
        ]
        if self._is_over:
            lines.append("Game over")
        else:
            lines.append(f"{self.player_names[self._turn]} to move")
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return a grid of two rows as seen from South (North's store on the left, South's
        on the right); a click on a house of the mover with seeds plays it."""
        pits, board, turn = self.pits, self._board, self._turn
        playable = set(self.legal_moves())
        top = (
            [str(board[2 * pits + 1])]
            + [str(board[2 * pits - house]) for house in range(pits)]
            + [""]
        )
        bottom = [""] + [str(board[house]) for house in range(pits)] + [str(board[pits])]
        top_moves: list[str | None] = [None] * (pits + 2)
        bottom_moves: list[str | None] = [None] * (pits + 2)
        for house in playable:
            if turn:
                top_moves[pits - house] = self.format_move(house)
            else:
                bottom_moves[1 + house] = self.format_move(house)
        return BoardView(2, pits + 2, tuple(top + bottom), tuple(top_moves + bottom_moves))

    def parse_move(self, text: str) -> int:
        pits = self.pits
        try:
            house = int(str(text).strip())
        except ValueError:
            raise InvalidMoveError(
                f"move {text!r} is not a house number; use 1 to {pits}"
            ) from None
        if not 1 <= house <= pits:
            raise InvalidMoveError(f"house {text!r} is not on the board; use 1 to {pits}")
        return house - 1

    def format_move(self, move: int) -> str:
        return str(move + 1)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register Kalah."""
    registry.add_game(Kalah)
