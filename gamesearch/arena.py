"""Searchers playing each other: one game (:func:`play_game`) or a match (:func:`play_match`).

A game may start with a few random moves drawn from a seed (the *opening*), so that
games between deterministic searchers differ; every later move is chosen by the
searcher whose turn it is, and the record keeps each move's nodes and seconds. In a
game of chance, the outcome at a chance position is drawn from the same seed with its
probability (a random move of no player).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs

from gamesearch.game import CHANCE, Game, Outcome, Player, describe_outcome, draw_outcome
from gamesearch.search.base import Searcher, Value, json_value


def searcher_label(searcher: Searcher) -> str:
    """Return the searcher as a spec: its name and the options that differ from the
    defaults, e.g. ``"alphabeta:depth=4,table=True"`` (the seed is left out)."""
    changed = []
    for field in type(searcher).option_fields():
        name = field.name.lstrip("_")
        value = getattr(searcher, field.name)
        if name == "seed" or value == field.default:
            continue
        changed.append(f"{name}={getattr(value, 'value', value)}")
    return searcher.name + (":" + ",".join(changed) if changed else "")


@attrs.frozen
class MoveRecord:
    """One move of a recorded game."""

    ply: int  #: plies played before this move, counted from the game's start
    player: Player | None  #: who moved (``None``: chance drew the outcome)
    move: str  #: the move in the game's notation
    is_random: bool  #: true for a random opening move (no search, no statistics)
    nodes: int = 0  #: positions the searcher entered to choose the move
    seconds: float = 0.0  #: time the searcher took
    value: Value | None = None  #: the searcher's value of the position, first player's view


@attrs.frozen
class GameRecord:
    """A finished game between two searchers."""

    game: str  #: the game's registry name
    start: str  #: the starting position in the game's notation
    players: tuple[str, str]  #: labels of the first and second player's searchers
    moves: tuple[MoveRecord, ...]
    outcome: Outcome
    final: str  #: the final position in the game's notation

    @property
    def winner(self) -> str | None:
        """Return the label of the winning searcher, or ``None`` for a draw."""
        winner = self.outcome.winner
        return None if winner is None else self.players[winner]

    def searched_moves(self, player: Player) -> list[MoveRecord]:
        """Return the moves ``player`` chose by searching (random opening moves left out)."""
        return [move for move in self.moves if move.player is player and not move.is_random]

    def as_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data."""
        return {
            "game": self.game,
            "start": self.start,
            "first": self.players[0],
            "second": self.players[1],
            "outcome": self.outcome.name.lower(),
            "result": describe_outcome(self.outcome),
            "winner": self.winner,
            "final": self.final,
            "moves": [
                {
                    **attrs.asdict(move), "value": json_value(move.value),
                    "player": "chance" if move.player is None else move.player.name.lower(),
                }  # fmt: skip
                for move in self.moves
            ],
        }


def play_game(
    game: Game[Any],
    first: Searcher,
    second: Searcher,
    *,
    opening_plies: int = 0,
    seed: int | None = None,
    labels: tuple[str, str] | None = None,
    on_move: Callable[[MoveRecord], None] | None = None,
) -> GameRecord:
    """Play ``game`` (a copy; the argument is not changed) to the end and return the record.

    ``first`` moves for :attr:`Player.FIRST`, ``second`` for :attr:`Player.SECOND`. The first
    ``opening_plies`` moves are drawn at random from ``seed``. ``labels`` name the
    searchers in the record (default: :func:`searcher_label`); ``on_move`` is called
    after every move.
    """
    board = game.copy()
    searchers = (first, second)
    names = labels if labels is not None else (searcher_label(first), searcher_label(second))
    chooser = random.Random(seed)
    start = board.to_text()
    moves: list[MoveRecord] = []
    while not board.is_over():
        if board.to_move() == CHANCE:
            move = draw_outcome(board, chooser)
            record = MoveRecord(board.ply, None, board.format_move(move), is_random=True)
            board.apply(move)
            moves.append(record)
            if on_move is not None:
                on_move(record)
            continue
        player = Player(board.to_move())
        if len(moves) < opening_plies:
            move = chooser.choice(list(board.legal_moves()))
            record = MoveRecord(board.ply, player, board.format_move(move), is_random=True)
        else:
            result = searchers[player].search(board)
            move = result.move
            record = MoveRecord(
                board.ply, player, board.format_move(move), is_random=False,
                nodes=result.stats.nodes, seconds=result.stats.seconds, value=result.value,
            )  # fmt: skip
        board.apply(move)
        moves.append(record)
        if on_move is not None:
            on_move(record)
    outcome = board.outcome()
    assert outcome is not None  # the loop ends when the game is over
    return GameRecord(board.name, start, names, tuple(moves), outcome, board.to_text())


@attrs.frozen
class Standing:
    """One searcher's results in a match."""

    label: str
    wins: int
    draws: int
    losses: int
    moves: int  #: moves it chose by searching
    nodes: int  #: nodes over those moves
    seconds: float  #: seconds over those moves

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return self.wins + self.draws + self.losses

    @property
    def mean_nodes(self) -> float:
        """Return the mean nodes per searched move (0 when it searched none)."""
        return self.nodes / self.moves if self.moves else 0.0

    @property
    def mean_seconds(self) -> float:
        """Return the mean seconds per searched move (0 when it searched none)."""
        return self.seconds / self.moves if self.moves else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the standing as JSON-ready data."""
        return {
            **attrs.asdict(self),
            "games": self.games,
            "mean_nodes": self.mean_nodes,
            "mean_seconds": self.mean_seconds,
        }


@attrs.frozen
class MatchRecord:
    """Every game of a match between two searchers, ``a`` and ``b``."""

    labels: tuple[str, str]  #: labels of searcher ``a`` and searcher ``b``
    games: tuple[GameRecord, ...]
    a_first: tuple[bool, ...]  #: for each game, whether ``a`` was the first player

    def standings(self) -> tuple[Standing, Standing]:
        """Return the results of ``a`` and of ``b``."""
        return (self._standing(0), self._standing(1))

    def _standing(self, index: int) -> Standing:
        wins = draws = losses = moves = nodes = 0
        seconds = 0.0
        for record, a_first in zip(self.games, self.a_first, strict=True):
            player = Player.FIRST if a_first == (index == 0) else Player.SECOND
            if record.outcome is Outcome.DRAW:
                draws += 1
            elif record.outcome.winner is player:
                wins += 1
            else:
                losses += 1
            searched = record.searched_moves(player)
            moves += len(searched)
            nodes += sum(move.nodes for move in searched)
            seconds += sum(move.seconds for move in searched)
        return Standing(self.labels[index], wins, draws, losses, moves, nodes, seconds)

    def as_dict(self) -> dict[str, Any]:
        """Return the match as JSON-ready data."""
        return {
            "standings": [standing.as_dict() for standing in self.standings()],
            "games": [record.as_dict() for record in self.games],
        }


def play_match(
    game: Game[Any],
    a: Searcher,
    b: Searcher,
    *,
    games: int = 2,
    swap: bool = False,
    opening_plies: int = 1,
    seed: int | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchRecord:
    """Play ``games`` games of ``a`` against ``b`` from ``game``'s position and return them.

    ``a`` plays first, or every other game with ``swap``. Each game's random opening
    and the searchers' tie-breaking (unless a searcher has its own ``seed``) are drawn
    from ``seed``, so games differ yet the whole match repeats with the same seed.
    ``on_game`` is called after every game.

    :raises ValueError: when ``games`` or ``opening_plies`` is negative.
    """
    if games < 0:
        raise ValueError(f"the number of games must be >= 0: {games!r}")
    if opening_plies < 0:
        raise ValueError(f"the number of opening plies must be >= 0: {opening_plies!r}")
    labels = (searcher_label(a), searcher_label(b))
    seeds = random.Random(seed)
    records: list[GameRecord] = []
    a_first: list[bool] = []
    for number in range(games):
        game_seed = seeds.randrange(1 << 32)
        pair = [_seeded(a, game_seed), _seeded(b, game_seed + 1)]
        is_a_first = not (swap and number % 2 == 1)
        order = (0, 1) if is_a_first else (1, 0)
        record = play_game(
            game, pair[order[0]], pair[order[1]],
            opening_plies=opening_plies, seed=game_seed,
            labels=(labels[order[0]], labels[order[1]]),
        )  # fmt: skip
        records.append(record)
        a_first.append(is_a_first)
        if on_game is not None:
            on_game(record)
    return MatchRecord(labels, tuple(records), tuple(a_first))


def _seeded(searcher: Searcher, seed: int) -> Searcher:
    """Return ``searcher`` breaking ties at random from ``seed``, unless it has a seed."""
    return searcher if searcher.seed is not None else attrs.evolve(searcher, seed=seed)
