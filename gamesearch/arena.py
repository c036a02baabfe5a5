"""Searchers playing each other: one game (:func:`play_game`) or a match (:func:`play_match`).

A game may start with a few random moves drawn from a seed (the *opening*), so that
games between deterministic searchers differ; every later move is chosen by the
searcher whose turn it is, and the record keeps each move's nodes and seconds. In a
game of chance, the outcome at a chance position is drawn from the same seed with its
probability (a random move of no player).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from gamesearch.game import Game, draw_outcome
from gamesearch.rules import CHANCE, SEAT_NAMES, Outcome, final_utilities
from gamesearch.rules import outcome as outcome_of
from gamesearch.search.base import Searcher, Value, json_value
from gamesearch.words import describe_outcome


def searcher_label(searcher: Searcher) -> str:
    """Return the searcher as a spec: its name and the options that differ from the
    defaults, e.g. ``"alphabeta:depth=4,table=true"`` (the seed is left out)."""
    changed = []
    for field in type(searcher).option_fields():
        name = field.name.lstrip("_")
        value = getattr(searcher, field.name)
        if name == "seed" or value == field.default:
            continue
        # (each value in its canonical text, which the spec reads back)
        changed.append(f"{name}={type(searcher).option_specs()[name].text(value)}")
    return searcher.name + (":" + ",".join(changed) if changed else "")


@attrs.frozen
class MoveRecord:
    """One move of a recorded game."""

    ply: int  #: plies played before this move, counted from the game's start
    player: int | None  #: who moved (a :class:`Player` in a two-player game; ``None``: chance
    #: drew the outcome)
    move: str  #: the move in the game's notation
    is_random: bool  #: true for a random opening move (no search, no statistics)
    nodes: int = 0  #: positions the searcher entered to choose the move
    seconds: float = 0.0  #: time the searcher took
    #: processor time the searcher took, for a searcher on the processor clock (``clock=cpu``;
    #: 0 on the wall clock)
    cpu_seconds: float = 0.0
    value: Value | None = None  #: the searcher's value of the position (first player's view;
    #: the mover's own utility in a game with utilities)


@attrs.frozen
class GameRecord:
    """A finished game between searchers, one a seat (two, or more in a game of more players)."""

    game: str  #: the game's registry name
    start: str  #: the starting position in the game's notation
    players: tuple[str, ...]  #: labels of the first, second, ... player's searchers
    moves: tuple[MoveRecord, ...]
    #: who won; in a game with utilities, whether the first player alone came top (see
    #: :meth:`gamesearch.game.Game.terminal_sign`), the utilities say the rest
    outcome: Outcome
    final: str  #: the final position in the game's notation
    utilities: tuple[int, ...] | None = None  #: each player's final utility (games with utilities)

    @property
    def winners(self) -> tuple[int, ...]:
        """Return the players who came top: the winner, every player after a draw (a game
        with utilities: every player with the highest utility)."""
        if self.utilities is not None:
            best = max(self.utilities)
            return tuple(player for player, utility in enumerate(self.utilities) if utility == best)
        winner = self.outcome.winner
        return (0, 1) if winner is None else (winner,)

    @property
    def winner(self) -> str | None:
        """Return the label of the winning searcher, or ``None`` for a draw (no single winner)."""
        winners = self.winners
        return self.players[winners[0]] if len(winners) == 1 else None

    def result_of(self, player: int) -> str:
        """Return ``"win"``, ``"draw"`` (top, shared) or ``"loss"`` for ``player``."""
        winners = self.winners
        if player not in winners:
            return "loss"
        return "win" if len(winners) == 1 else "draw"

    def _utilities_words(self) -> str:
        assert self.utilities is not None
        each = ", ".join(
            f"{SEAT_NAMES[seat]} {utility}" for seat, utility in enumerate(self.utilities)
        )
        winners = self.winners
        if len(winners) == len(self.utilities):
            return f"a draw ({each})"
        return f"{' and '.join(SEAT_NAMES[seat] for seat in winners)} player won ({each})"

    def searched_moves(self, player: int) -> list[MoveRecord]:
        """Return the moves ``player`` chose by searching (random opening moves left out)."""
        return [move for move in self.moves if move.player == player and not move.is_random]

    def as_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data."""
        return {
            "game": self.game,
            "start": self.start,
            **{SEAT_NAMES[seat]: label for seat, label in enumerate(self.players)},
            "outcome": self.outcome.name.lower(),
            "result": describe_outcome(self.outcome)
            if self.utilities is None
            else self._utilities_words(),
            "winner": self.winner,
            "final": self.final,
            "utilities": None if self.utilities is None else list(self.utilities),
            "moves": [
                {
                    **attrs.asdict(move),
                    "value": json_value(move.value),
                    "player": "chance" if move.player is None else SEAT_NAMES[move.player],
                }
                for move in self.moves
            ],
        }


def play_game(
    game: Game[Any],
    first: Searcher,
    second: Searcher,
    *,
    others: Sequence[Searcher] = (),
    opening_plies: int = 0,
    seed: int | None = None,
    labels: tuple[str, ...] | None = None,
    on_move: Callable[[MoveRecord], None] | None = None,
    max_plies: int | None = None,
    adjudicate: Callable[[Sequence[MoveRecord]], Outcome | None] | None = None,
) -> GameRecord:
    """Play ``game`` (a copy; the argument is not changed) to the end and return the record.

    ``first`` moves for :attr:`Player.FIRST`, ``second`` for :attr:`Player.SECOND`, and
    ``others`` for the third player on in a game of more. The first
    ``opening_plies`` moves are drawn at random from ``seed``. ``labels`` name the
    searchers in the record (default: :func:`searcher_label`); ``on_move`` is called
    after every move. ``max_plies`` bounds the game: after that many moves in all
    (the opening's included) a game not yet over stops and is scored a draw, as match
    testers adjudicate a game at a move cap. ``adjudicate``, called with the moves so far
    after every move, may end a game not yet over with the outcome it returns (a
    resignation both engines' scores agree on, say); the game's utilities are then
    not known.

    :raises ValueError: when the searchers are not one a player.
    """
    board = game.copy()
    searchers = (first, second, *others)
    seats = max(2, board.rules.players)
    if len(searchers) != seats:
        raise ValueError(
            f"{board.name!r} needs {seats} searchers, one a player, not {len(searchers)}"
        )
    names = (
        labels if labels is not None else tuple(searcher_label(searcher) for searcher in searchers)
    )
    chooser = random.Random(seed)
    start = board.to_text()
    moves: list[MoveRecord] = []
    capped = False
    adjudged: Outcome | None = None
    while adjudged is None and not board.is_over():
        if max_plies is not None and len(moves) >= max_plies:
            capped = True
            break
        if board.to_move() == CHANCE:
            move = draw_outcome(board, chooser)
            record = MoveRecord(board.ply, None, board.format_move(move), is_random=True)
            board.apply(move)
            moves.append(record)
            if on_move is not None:
                on_move(record)
            continue
        player = board.to_move()
        if len(moves) < opening_plies:
            move = chooser.choice(list(board.legal_moves()))
            record = MoveRecord(board.ply, player, board.format_move(move), is_random=True)
        else:
            result = searchers[player].search(board)
            move = result.move
            record = MoveRecord(
                board.ply,
                player,
                board.format_move(move),
                is_random=False,
                nodes=result.stats.nodes,
                seconds=result.stats.seconds,
                cpu_seconds=result.stats.cpu_seconds,
                value=result.value,
            )
        board.apply(move)
        moves.append(record)
        if on_move is not None:
            on_move(record)
        if adjudicate is not None and not board.is_over():
            adjudged = adjudicate(moves)
    # a capped game is adjudicated a draw, every player's utility equal
    outcome = adjudged if adjudged is not None else (Outcome.DRAW if capped else outcome_of(board))
    assert outcome is not None  # the loop ends when the game is over (or at the cap)
    utilities = None
    if board.rules.utilities and adjudged is None:
        utilities = (0,) * seats if capped else final_utilities(board)
    return GameRecord(board.name, start, names, tuple(moves), outcome, board.to_text(), utilities)


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
    #: processor seconds over those moves (0 for a searcher on the wall clock)
    cpu_seconds: float = 0.0

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

    @property
    def mean_cpu_seconds(self) -> float:
        """Return the mean processor seconds per searched move (0 when it searched none, or
        searched on the wall clock)."""
        return self.cpu_seconds / self.moves if self.moves else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the standing as JSON-ready data."""
        return {
            **attrs.asdict(self),
            "games": self.games,
            "mean_nodes": self.mean_nodes,
            "mean_seconds": self.mean_seconds,
            "mean_cpu_seconds": self.mean_cpu_seconds,
        }


def tally(label: str, seated: Iterable[tuple[GameRecord, int]]) -> Standing:
    """Return the standing of the searcher ``label`` over ``seated``: each game it played,
    with the seat (player) it played in that game. Wins, draws and losses are counted as
    :meth:`GameRecord.result_of` says; moves, nodes, seconds and processor seconds over its
    searched moves."""
    results = {"win": 0, "draw": 0, "loss": 0}
    moves = nodes = 0
    seconds = cpu_seconds = 0.0
    for record, player in seated:
        results[record.result_of(player)] += 1
        searched = record.searched_moves(player)
        moves += len(searched)
        nodes += sum(move.nodes for move in searched)
        seconds += sum(move.seconds for move in searched)
        cpu_seconds += sum(move.cpu_seconds for move in searched)
    wins, draws, losses = results["win"], results["draw"], results["loss"]
    return Standing(label, wins, draws, losses, moves, nodes, seconds, cpu_seconds)


@attrs.frozen
class MatchRecord:
    """Every game of a match between searchers ``a``, ``b`` (and more in a game of more players)."""

    labels: tuple[str, ...]  #: labels of searcher ``a``, searcher ``b``, ...
    games: tuple[GameRecord, ...]
    #: for each game, how far the seats turned: searcher ``i`` played seat ``(i - turn) % n``
    #: (0: ``a`` first, ``b`` second, ...)
    turns: tuple[int, ...]

    @property
    def a_first(self) -> tuple[bool, ...]:
        """Return, for each game, whether ``a`` was the first player."""
        return tuple(turn == 0 for turn in self.turns)

    def seat_of(self, index: int, game: int) -> int:
        """Return the seat (player) searcher ``index`` played in game number ``game``."""
        return (index - self.turns[game]) % len(self.labels)

    def standings(self) -> tuple[Standing, ...]:
        """Return the results of ``a``, of ``b``, ..."""
        return tuple(self._standing(index) for index in range(len(self.labels)))

    def _standing(self, index: int) -> Standing:
        seated = ((record, self.seat_of(index, number)) for number, record in enumerate(self.games))
        return tally(self.labels[index], seated)

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
    others: Sequence[Searcher] = (),
    games: int = 2,
    swap: bool = False,
    opening_plies: int = 1,
    seed: int | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchRecord:
    """Play ``games`` games of ``a`` against ``b`` (and ``others``, one a seat after the
    second, in a game of more players) from ``game``'s position and return them.

    ``a`` plays first, or with ``swap`` the seats turn by one every game (two players:
    they alternate who plays first). Each game's random opening
    and the searchers' tie-breaking (unless a searcher has its own ``seed``) are drawn
    from ``seed``, so games differ yet the whole match repeats with the same seed.
    ``on_game`` is called after every game.

    :raises ValueError: when ``games`` or ``opening_plies`` is negative, or the searchers
        are not one a player.
    """
    if games < 0:
        raise ValueError(f"the number of games must be >= 0: {games!r}")
    if opening_plies < 0:
        raise ValueError(f"the number of opening plies must be >= 0: {opening_plies!r}")
    searchers = (a, b, *others)
    seats = max(2, game.rules.players)
    if len(searchers) != seats:
        raise ValueError(
            f"{game.name!r} needs {seats} searchers, one a player, not {len(searchers)}"
        )
    plan = match_games(searchers, games=games, swap=swap, seed=seed)
    records: list[GameRecord] = []
    for planned in plan:
        record = play_planned(game, planned, opening_plies)
        records.append(record)
        if on_game is not None:
            on_game(record)
    labels = tuple(searcher_label(searcher) for searcher in searchers)
    return MatchRecord(labels, tuple(records), tuple(planned.turn for planned in plan))


@attrs.frozen
class MatchGame:
    """One game of a match as planned: its searchers seat by seat (seeded), and its seed."""

    number: int  #: place in the match, from 0
    searchers: tuple[Searcher, ...]  #: the first player's searcher, the second's, ...
    labels: tuple[str, ...]  #: their labels, seat by seat
    seed: int  #: seed of the game's random opening
    turn: int  #: how far the seats turned (see :attr:`MatchRecord.turns`)


def match_games(
    searchers: Sequence[Searcher], *, games: int, swap: bool = False, seed: int | None = None
) -> tuple[MatchGame, ...]:
    """Return the games of a match between ``searchers`` (``a``, ``b``, ...) as
    :func:`play_match` plays them: each game's seed drawn from ``seed``, ``a`` first, or
    with ``swap`` the seats turning by one every game."""
    seats = len(searchers)
    labels = tuple(searcher_label(searcher) for searcher in searchers)
    seeds = random.Random(seed)
    planned = []
    for number in range(games):
        game_seed = seeds.randrange(1 << 32)
        seeded = [_seeded(searcher, game_seed + index) for index, searcher in enumerate(searchers)]
        turn = number % seats if swap else 0
        # seat s is played by searcher (s + turn) % seats
        order = [(seat + turn) % seats for seat in range(seats)]
        planned.append(
            MatchGame(
                number,
                tuple(seeded[index] for index in order),
                tuple(labels[index] for index in order),
                game_seed,
                turn,
            )
        )
    return tuple(planned)


def play_planned(game: Game[Any], planned: MatchGame, opening_plies: int) -> GameRecord:
    """Play the match game ``planned`` from ``game``'s position and return its record."""
    first, second, *others = planned.searchers
    return play_game(
        game,
        first,
        second,
        others=others,
        opening_plies=opening_plies,
        seed=planned.seed,
        labels=planned.labels,
    )


def _seeded(searcher: Searcher, seed: int) -> Searcher:
    """Return ``searcher`` breaking ties at random from ``seed``, unless it has a seed."""
    return searcher if searcher.seed is not None else attrs.evolve(searcher, seed=seed)
