"""Round-robin tournaments between searchers, played in parallel, rated by Elo.

In a two-player game every pair of players meets ``games`` times. Games come in pairs
from one random opening, each player taking the first move once, so neither the opening
nor the first move favours anyone. In a game of ``n`` players (``n`` above two) every
group of ``n`` players meets ``games`` times, in blocks of ``n`` games from one random
opening in which the seats turn by one each game, so that each player of the group
sits once in every seat; the next block seats the group in another cyclic order, until
every order has been played (``n!`` games), then the orders repeat (see
:func:`seatings`). Every game's opening and the players' seeds are drawn from the
tournament seed in a fixed schedule before anything is played, and each game builds
fresh searchers (no table or tree carried over from another game), so the results do
not depend on how many processes play them nor in which order they finish. Searchers
under a time budget are the exception: their moves depend on the machine's speed and
load.

A game's points are shared by rank: a player scores, against each other player of the
game, 1 when its result is better, 1/2 when they are equal and 0 when it is worse, and
its points are the mean of these over its opponents (1 for the best result alone, 0 for
the worst alone; in a two-player game a win, a draw and a loss score 1, 1/2 and 0). The
same comparisons of every pair of players inside every game are what the Elo ratings
are fitted to.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from gamesearch.arena import GameRecord, MoveRecord, Standing, play_game, tally
from gamesearch.batch.executors import (
    Executor,
    InlineExecutor,
    LocalExecutor,
    check_worker_count,
)
from gamesearch.errors import GameSearchError, InvalidOptionError, UnsupportedGameError
from gamesearch.game import Game
from gamesearch.plugins import Registry, default_registry
from gamesearch.rating import Rating, Result, fit_ratings
from gamesearch.rules import Outcome
from gamesearch.search.base import parse_searcher_spec

#: small counts as words, for the messages and titles
_COUNTS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _in_words(count: int) -> str:
    """Return ``count`` in words up to eight, in digits above."""
    return _COUNTS[count] if 0 <= count < len(_COUNTS) else str(count)


def seats_of(game: Game[Any]) -> int:
    """Return the number of seats (players) a game of ``game`` has: two, or more."""
    return max(2, game.rules.players)


@attrs.frozen
class ScheduledGame:
    """One game of the schedule: who plays which seat, from which opening and seeds."""

    number: int  #: place in the schedule, from 0
    seats: tuple[
        int, ...
    ]  #: index of the player in each seat: the first mover's, the second's, ...
    opening_seed: int  #: seed of the random opening (shared by the games of one block)
    searcher_seeds: tuple[int, ...]  #: seeds given to each seat's searcher, seat by seat

    @property
    def first(self) -> int:
        """Return the index of the player moving first."""
        return self.seats[0]

    @property
    def second(self) -> int:
        """Return the index of the player moving second."""
        return self.seats[1]

    def seat_of(self, player: int) -> int | None:
        """Return the seat ``player`` (an index) plays in this game, or ``None`` when it does not
        play."""
        return self.seats.index(player) if player in self.seats else None


@attrs.frozen
class PlayedGame:
    """A scheduled game and its record."""

    scheduled: ScheduledGame
    record: GameRecord

    def _rank_key(self, seat: int) -> int | bool:
        """Return what orders the seats' results: the utility, or (no utilities) whether the
        seat came top (both do after a draw)."""
        utilities = self.record.utilities
        return utilities[seat] if utilities is not None else seat in self.record.winners

    def versus(self, player: int, other: int) -> float:
        """Return the points ``player`` took from ``other`` (indices of two players of this
        game): 1 when its result is better, 1/2 when equal, 0 when worse.

        :raises ValueError: when either does not play in this game.
        """
        mine, theirs = self._rank_key(self._seat(player)), self._rank_key(self._seat(other))
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    def score(self, player: int) -> float:
        """Return the points ``player`` (an index) took from this game: the mean of
        :meth:`versus` over its opponents (two players: 1, 1/2 or 0).

        :raises ValueError: when ``player`` does not play in this game.
        """
        self._seat(player)
        others = [other for other in self.scheduled.seats if other != player]
        return sum(self.versus(player, other) for other in others) / len(others)

    def _seat(self, player: int) -> int:
        seat = self.scheduled.seat_of(player)
        if seat is None:
            raise ValueError(f"player {player!r} does not play in game {self.scheduled.number}")
        return seat


def seatings(group: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Return every way to seat the players ``group`` (first mover first), in blocks of
    ``len(group)``: each block turns one cyclic order by one seat a game, so within a
    block each player sits once in every seat. Two players: ``(a, b)``, ``(b, a)``."""
    head, *rest = group
    orders = [(head, *others) for others in itertools.permutations(rest)]
    return tuple(order[turn:] + order[:turn] for order in orders for turn in range(len(order)))


def schedule(players: int, games: int, seed: int, *, seats: int = 2) -> tuple[ScheduledGame, ...]:
    """Return every game of a round robin of ``players`` in games of ``seats`` players:
    every group of ``seats`` players meets ``games`` times, seated by :func:`seatings` in
    turn, one random opening a block of ``seats`` games.

    :raises InvalidOptionError: for fewer players than seats, fewer than two seats or
        fewer than one game.
    """
    if seats < 2:
        raise InvalidOptionError(f"a game of a tournament needs at least two seats: {seats!r}")
    if players < seats:
        raise InvalidOptionError(
            f"a tournament needs at least {_in_words(seats)} players: {players!r}"
        )
    if games < 1:
        unit = "pair" if seats == 2 else "group"
        raise InvalidOptionError(f"the number of games per {unit} must be >= 1: {games!r}")
    draw = random.Random(seed).randrange
    planned: list[ScheduledGame] = []
    for group in itertools.combinations(range(players), seats):
        orders = seatings(group)
        for index in range(games):
            if index % seats == 0:
                opening_seed = draw(1 << 32)
            seeds = tuple(draw(1 << 32) for _ in range(seats))
            planned.append(
                ScheduledGame(len(planned), orders[index % len(orders)], opening_seed, seeds)
            )
    return tuple(planned)


@attrs.frozen
class TournamentStanding(Standing):
    """One player's results in a tournament: a match's standing, with points by rank."""

    points: float = 0.0  #: points by rank over its games (see :meth:`PlayedGame.score`)
    utility: float | None = None  #: the sum of its final utilities (games with utilities)

    @property
    def mean_utility(self) -> float | None:
        """Return the mean final utility a game (``None``: the game has no utilities, or none was
        played)."""
        return None if self.utility is None or not self.games else self.utility / self.games

    def as_dict(self) -> dict[str, Any]:
        """Return the standing as JSON-ready data; in a game with utilities, with its
        ``points`` and ``mean_utility`` too."""
        data = super().as_dict()
        del data["points"], data["utility"]
        if self.utility is not None:
            data |= {"points": self.points, "mean_utility": self.mean_utility}
        return data


@attrs.frozen
class Tournament:
    """A finished round robin: the players, the schedule's games and what follows from them."""

    game: str  #: the game's registry name
    start: str  #: the starting position
    players: tuple[str, ...]  #: the players' searcher specs, as given
    games_per_pair: (
        int  #: games each group of ``seats`` players plays (a pair in a two-player game)
    )
    opening_plies: int
    seed: int
    played: tuple[PlayedGame, ...]  #: in schedule order
    seats: int = 2  #: players in each game

    @property
    def has_utilities(self) -> bool:
        """Return whether the games end with one utility a player."""
        return any(played.record.utilities is not None for played in self.played)

    def describe(self) -> str:
        """Return how the players meet, e.g. ``"2 games a pair"``, ``"3 games a group of
        three"``."""
        if self.seats == 2:
            return f"{self.games_per_pair} games a pair"
        return f"{self.games_per_pair} games a group of {_in_words(self.seats)}"

    def standings(self) -> tuple[TournamentStanding, ...]:
        """Return each player's wins, draws, losses, points, utilities, moves, nodes and
        seconds, in player order. A win is a game where it alone came top, a draw one
        where it shared the top (see :meth:`GameRecord.result_of`)."""
        return tuple(self._standing(index) for index in range(len(self.players)))

    def _standing(self, player: int) -> TournamentStanding:
        games = [played for played in self.played if player in played.scheduled.seats]
        seated = [(played.record, played.scheduled.seats.index(player)) for played in games]
        base = tally(self.players[player], seated)
        utilities = [
            record.utilities[seat] for record, seat in seated if record.utilities is not None
        ]
        return TournamentStanding(
            **attrs.asdict(base, recurse=False),
            points=sum(played.score(player) for played in games),
            utility=float(sum(utilities)) if self.has_utilities else None,
        )

    def pair_results(self) -> tuple[Result, ...]:
        """Return, for each pair of players, the games they played together and the first
        one's points against the second in them (see :meth:`PlayedGame.versus`)."""
        totals: dict[tuple[int, int], list[float]] = {}
        for played in self.played:
            for a, b in itertools.combinations(sorted(played.scheduled.seats), 2):
                entry = totals.setdefault((a, b), [0.0, 0.0])
                entry[0] += 1
                entry[1] += played.versus(a, b)
        return tuple(
            Result(a, b, games, score) for (a, b), (games, score) in sorted(totals.items())
        )

    def ratings(self) -> tuple[Rating, ...]:
        """Return the Elo ratings fitted to the results of every pair, in player order."""
        return fit_ratings(self.players, self.pair_results())

    def as_dict(self) -> dict[str, Any]:
        """Return the tournament as JSON-ready data: settings, players, pairs and games
        (a game of more than two players: with ``seats`` and ``games_per_group``)."""
        players = []
        for standing, rating in zip(self.standings(), self.ratings(), strict=True):
            players.append(
                {
                    **standing.as_dict(),
                    "elo": rating.elo,
                    "elo_error": rating.error,
                    "elo_interval95": rating.interval,
                }
            )
        meetings = (
            {"games_per_pair": self.games_per_pair}
            if self.seats == 2
            else {"seats": self.seats, "games_per_group": self.games_per_pair}
        )
        return {
            "game": self.game,
            "start": self.start,
            "seed": self.seed,
            **meetings,
            "opening_plies": self.opening_plies,
            "players": players,
            "pairs": [
                {
                    "a": self.players[result.a],
                    "b": self.players[result.b],
                    "games": result.games,
                    "a_score": result.score,
                }
                for result in self.pair_results()
            ],
            "games": [
                {"number": played.scheduled.number, **played.record.as_dict()}
                for played in self.played
            ],
        }


def run_tournament(
    game: Game[Any],
    players: Sequence[str],
    *,
    games: int | None = None,
    seed: int = 0,
    opening_plies: int = 2,
    workers: int = 1,
    registry: Registry | None = None,
    on_game: Callable[[PlayedGame], None] | None = None,
    executor: Executor | None = None,
    done: Mapping[int, PlayedGame] | None = None,
    max_plies: int | None = None,
    adjudicate: Callable[[Sequence[MoveRecord]], Outcome | None] | None = None,
) -> Tournament:
    """Play a round robin between the searcher specs ``players`` from ``game``'s position
    and return it.

    Every group of as many players as ``game`` seats (a pair in a two-player game) plays
    ``games`` games (default: one in each seat, so 2 in a two-player game), scheduled by
    :func:`schedule`. ``workers`` above 1 plays games in that many processes, each given
    ``registry`` (its classes must be importable by name, as a plugin's are); ``executor``
    (a Dask cluster, see :mod:`gamesearch.batch`) plays them there instead. ``on_game`` is
    called as each game ends, in the order they finish; the result lists them in schedule
    order. ``done`` holds games of this same schedule already played (by number, e.g. read
    back from a results store): they are not played again, and ``on_game`` is not called
    for them. ``max_plies`` caps every game and ``adjudicate`` may end one early (see
    :func:`~gamesearch.arena.play_game`; with workers, it must pickle).

    :raises InvalidOptionError: for a bad spec, a repeated player, a bad count, or fewer
        players than the game has seats.
    :raises UnknownSearcherError: for a searcher no plugin registered.
    :raises UnsupportedGameError: for a searcher that cannot search ``game``.
    :raises GameSearchError: when a game was lost with every worker that tried it.
    """
    registry = registry if registry is not None else default_registry()
    seats = seats_of(game)
    games = seats if games is None else games
    labels = tuple(spec.strip() for spec in players)
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise InvalidOptionError(
            f"each player must differ; repeated: {', '.join(map(repr, repeated))}"
        )
    if seats > 2 and len(labels) < seats:
        raise InvalidOptionError(
            f"{game.name!r} is a game of {seats} players, so a tournament of it needs at least "
            f"{seats} "
            f"different searchers, one a seat: {list(labels)!r}"
        )
    for label in labels:  # fail early, before any game is played
        unmet = registry.new_searcher(label).unmet_needs(game)
        if unmet:
            raise UnsupportedGameError(
                f"searcher {label!r} cannot search {game.name!r}: {'; '.join(unmet)}"
            )
    check_worker_count(workers)
    if opening_plies < 0:
        raise InvalidOptionError(f"the number of opening plies must be >= 0: {opening_plies!r}")
    planned = schedule(len(labels), games, seed, seats=seats)
    start = game.copy()
    played: dict[int, PlayedGame] = dict(done or {})
    jobs = [
        (start, labels, opening_plies, scheduled)
        for scheduled in planned
        if scheduled.number not in played
    ]

    def finished(result: PlayedGame) -> None:
        played[result.scheduled.number] = result
        if on_game is not None:
            on_game(result)

    own = executor is None  # an executor of the caller's stays open for its next use
    running = (
        (InlineExecutor() if workers == 1 else LocalExecutor(workers))
        if executor is None
        else executor
    )
    # the workers get the caller's registry (searchers of its own included); on an
    # error or Ctrl-C, games not yet started are dropped, not waited for
    with running if own else contextlib.nullcontext(running):
        play = functools.partial(
            _play_job, registry=registry, max_plies=max_plies, adjudicate=adjudicate
        )
        for job in running.map_unordered(play, jobs):
            if job.result is None:
                raise GameSearchError(
                    f"game {job.item[3].number} of the schedule was lost: {job.error}"
                )
            finished(job.result)
    return Tournament(
        game=game.name,
        start=game.to_text(),
        players=labels,
        games_per_pair=games,
        opening_plies=opening_plies,
        seed=seed,
        played=tuple(played[number] for number in range(len(planned))),
        seats=seats,
    )


def _play_job(
    job: tuple[Game[Any], tuple[str, ...], int, ScheduledGame],
    registry: Registry | None = None,
    max_plies: int | None = None,
    adjudicate: Callable[[Sequence[MoveRecord]], Outcome | None] | None = None,
) -> PlayedGame:
    """Play the scheduled game ``job`` describes (see :func:`_play`)."""
    return _play(*job, registry=registry, max_plies=max_plies, adjudicate=adjudicate)


def _play(
    game: Game[Any],
    labels: tuple[str, ...],
    opening_plies: int,
    scheduled: ScheduledGame,
    registry: Registry | None = None,
    max_plies: int | None = None,
    adjudicate: Callable[[Sequence[MoveRecord]], Outcome | None] | None = None,
) -> PlayedGame:
    """Play one scheduled game with fresh searchers from ``registry`` (in a worker process)."""
    assert registry is not None  # run_tournament always passes its registry
    searchers = []
    for player, searcher_seed in zip(scheduled.seats, scheduled.searcher_seeds, strict=True):
        spec = labels[player]
        _, options = parse_searcher_spec(spec)
        searchers.append(
            registry.new_searcher(spec)
            if "seed" in options
            else registry.new_searcher(spec, seed=searcher_seed)
        )
    first, second, *others = searchers
    record = play_game(
        game,
        first,
        second,
        others=others,
        opening_plies=opening_plies,
        seed=scheduled.opening_seed,
        labels=tuple(labels[player] for player in scheduled.seats),
        max_plies=max_plies,
        adjudicate=adjudicate,
    )
    return PlayedGame(scheduled, record)
