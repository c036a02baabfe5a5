"""Round-robin tournaments between searchers, played in parallel, rated by Elo.

Every pair of players meets ``games`` times. Games come in pairs from one random
opening, each player taking the first move once, so neither the opening nor the
first move favours anyone. Every game's opening and the players' seeds are drawn
from the tournament seed in a fixed schedule before anything is played, and each
game builds fresh searchers (no table or tree carried over from another game), so
the results do not depend on how many processes play them nor in which order they
finish. Searchers under a time budget are the exception: their moves depend on the
machine's speed and load.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from gamesearch.arena import GameRecord, Standing, play_game
from gamesearch.batch.executors import Executor, InlineExecutor, LocalExecutor
from gamesearch.errors import GameSearchError, InvalidOptionError
from gamesearch.game import Game, Outcome, Player
from gamesearch.plugins import Registry, default_registry
from gamesearch.rating import Rating, Result, fit_ratings
from gamesearch.search.base import parse_searcher_spec


@attrs.frozen
class ScheduledGame:
    """One game of the schedule: who plays which side, from which opening and seeds."""

    number: int  #: place in the schedule, from 0
    first: int  #: index of the player moving first
    second: int  #: index of the player moving second
    opening_seed: int  #: seed of the random opening (shared by the two games of a pairing)
    searcher_seeds: tuple[int, int]  #: seeds given to the first and second player's searcher


@attrs.frozen
class PlayedGame:
    """A scheduled game and its record."""

    scheduled: ScheduledGame
    record: GameRecord

    def score(self, player: int) -> float:
        """Return the points ``player`` (an index) took from this game: 1, 1/2 or 0."""
        outcome = self.record.outcome
        if outcome is Outcome.DRAW:
            return 0.5
        side = Player.FIRST if player == self.scheduled.first else Player.SECOND
        return 1.0 if outcome.winner is side else 0.0


def schedule(players: int, games: int, seed: int) -> tuple[ScheduledGame, ...]:
    """Return every game of a round robin of ``players`` meeting ``games`` times a pair.

    :raises InvalidOptionError: for fewer than two players or fewer than one game.
    """
    if players < 2:
        raise InvalidOptionError(f"a tournament needs at least two players: {players!r}")
    if games < 1:
        raise InvalidOptionError(f"the number of games per pair must be >= 1: {games!r}")
    draw = random.Random(seed).randrange
    planned: list[ScheduledGame] = []
    for a in range(players):
        for b in range(a + 1, players):
            for index in range(games):
                if index % 2 == 0:
                    opening_seed = draw(1 << 32)
                first, second = (a, b) if index % 2 == 0 else (b, a)
                seeds = (draw(1 << 32), draw(1 << 32))
                planned.append(ScheduledGame(len(planned), first, second, opening_seed, seeds))
    return tuple(planned)


@attrs.frozen
class Tournament:
    """A finished round robin: the players, the schedule's games and what follows from them."""

    game: str  #: the game's registry name
    start: str  #: the starting position
    players: tuple[str, ...]  #: the players' searcher specs, as given
    games_per_pair: int
    opening_plies: int
    seed: int
    played: tuple[PlayedGame, ...]  #: in schedule order

    def standings(self) -> tuple[Standing, ...]:
        """Return each player's wins, draws, losses, moves, nodes and seconds, in player order."""
        return tuple(self._standing(index) for index in range(len(self.players)))

    def _standing(self, player: int) -> Standing:
        wins = draws = losses = moves = nodes = 0
        seconds = 0.0
        for played in self.played:
            if player not in (played.scheduled.first, played.scheduled.second):
                continue
            score = played.score(player)
            wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
            side = Player.FIRST if player == played.scheduled.first else Player.SECOND
            searched = played.record.searched_moves(side)
            moves += len(searched)
            nodes += sum(move.nodes for move in searched)
            seconds += sum(move.seconds for move in searched)
        return Standing(self.players[player], wins, draws, losses, moves, nodes, seconds)

    def pair_results(self) -> tuple[Result, ...]:
        """Return, for each pair of players, their games and the first one's points."""
        totals: dict[tuple[int, int], list[float]] = {}
        for played in self.played:
            a, b = sorted((played.scheduled.first, played.scheduled.second))
            entry = totals.setdefault((a, b), [0.0, 0.0])
            entry[0] += 1
            entry[1] += played.score(a)
        return tuple(Result(a, b, games, score) for (a, b), (games, score) in sorted(totals.items()))

    def ratings(self) -> tuple[Rating, ...]:
        """Return the Elo ratings fitted to the results, in player order."""
        return fit_ratings(self.players, self.pair_results())

    def as_dict(self) -> dict[str, Any]:
        """Return the tournament as JSON-ready data: settings, players, pairs and games."""
        players = []
        for standing, rating in zip(self.standings(), self.ratings(), strict=True):
            players.append(
                {**standing.as_dict(), "elo": rating.elo, "elo_error": rating.error,
                 "elo_interval95": rating.interval}
            )  # fmt: skip
        return {
            "game": self.game,
            "start": self.start,
            "seed": self.seed,
            "games_per_pair": self.games_per_pair,
            "opening_plies": self.opening_plies,
            "players": players,
            "pairs": [
                {"a": self.players[result.a], "b": self.players[result.b],
                 "games": result.games, "a_score": result.score}
                for result in self.pair_results()
            ],  # fmt: skip
            "games": [
                {"number": played.scheduled.number, **played.record.as_dict()} for played in self.played
            ],
        }


def run_tournament(
    game: Game[Any],
    players: Sequence[str],
    *,
    games: int = 2,
    seed: int = 0,
    opening_plies: int = 2,
    workers: int = 1,
    registry: Registry | None = None,
    on_game: Callable[[PlayedGame], None] | None = None,
    executor: Executor | None = None,
    done: Mapping[int, PlayedGame] | None = None,
) -> Tournament:
    """Play a round robin between the searcher specs ``players`` from ``game``'s position.

    ``workers`` above 1 plays games in that many processes, each given ``registry``
    (its classes must be importable by name, as a plugin's are); ``executor`` (a Dask
    cluster, see :mod:`gamesearch.batch`) plays them there instead. ``on_game`` is called as each game ends,
    in the order they finish; the result lists them in schedule order. ``done`` holds
    games of this same schedule already played (by number, e.g. read back from a
    results store): they are not played again, and ``on_game`` is not called for them.

    :raises InvalidOptionError: for a bad spec, a repeated player, a bad count, or a game
        of more than two players.
    :raises UnknownSearcherError: for a searcher no plugin registered.
    :raises GameSearchError: when a game was lost with every worker that tried it.
    """
    registry = registry if registry is not None else default_registry()
    if game.rules.players > 2:
        raise InvalidOptionError(
            f"a tournament pairs two searchers a game, and {game.name!r} has {game.rules.players} "
            "players; play them with match (one --seat a player after the second)"
        )
    labels = tuple(spec.strip() for spec in players)
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise InvalidOptionError(f"each player must differ; repeated: {', '.join(map(repr, repeated))}")
    for label in labels:
        registry.new_searcher(label)  # fail early, before any game is played
    if workers < 1:
        raise InvalidOptionError(f"the number of workers must be >= 1: {workers!r}")
    if opening_plies < 0:
        raise InvalidOptionError(f"the number of opening plies must be >= 0: {opening_plies!r}")
    planned = schedule(len(labels), games, seed)
    start = game.copy()
    played: dict[int, PlayedGame] = dict(done or {})
    jobs = [(start, labels, opening_plies, scheduled) for scheduled in planned if scheduled.number not in played]

    def finished(result: PlayedGame) -> None:
        played[result.scheduled.number] = result
        if on_game is not None:
            on_game(result)

    own = executor is None  # an executor of the caller's stays open for its next use
    running = (InlineExecutor() if workers == 1 else LocalExecutor(workers)) if executor is None else executor
    # the workers get the caller's registry (searchers of its own included); on an
    # error or Ctrl-C, games not yet started are dropped, not waited for
    with running if own else contextlib.nullcontext(running):
        for job in running.map_unordered(functools.partial(_play_job, registry=registry), jobs):
            if job.result is None:
                raise GameSearchError(f"game {job.item[3].number} of the schedule was lost: {job.error}")
            finished(job.result)
    return Tournament(
        game=game.name,
        start=game.to_text(),
        players=labels,
        games_per_pair=games,
        opening_plies=opening_plies,
        seed=seed,
        played=tuple(played[number] for number in range(len(planned))),
    )


def _play_job(
    job: tuple[Game[Any], tuple[str, ...], int, ScheduledGame], registry: Registry | None = None
) -> PlayedGame:
    """Play the scheduled game ``job`` describes (see :func:`_play`)."""
    return _play(*job, registry=registry)


def _play(
    game: Game[Any],
    labels: tuple[str, ...],
    opening_plies: int,
    scheduled: ScheduledGame,
    registry: Registry | None = None,
) -> PlayedGame:
    """Play one scheduled game with fresh searchers from ``registry`` (in a worker process)."""
    assert registry is not None  # run_tournament always passes its registry
    searchers = []
    for player, searcher_seed in zip((scheduled.first, scheduled.second), scheduled.searcher_seeds, strict=True):
        spec = labels[player]
        _, options = parse_searcher_spec(spec)
        searchers.append(
            registry.new_searcher(spec) if "seed" in options else registry.new_searcher(spec, seed=searcher_seed)
        )
    record = play_game(
        game, searchers[0], searchers[1], opening_plies=opening_plies, seed=scheduled.opening_seed,
        labels=(labels[scheduled.first], labels[scheduled.second]),
    )  # fmt: skip
    return PlayedGame(scheduled, record)

