"""A match of two chess searchers from a fixed list of openings, each opening played twice.

Each opening of :data:`OPENINGS` (twenty: a few moves of a well-known line, both sides) is
played once with each searcher as White, so neither gains from an opening that suits
one colour; the match is the plugin's engine against another UCI engine when the
second searcher is ``uci:...`` (:mod:`gamesearch_chess.opponent`). Usage::

    python -m gamesearch_chess.versus --seconds 0.2 \\
        --first engine:iterative=true,killers=true,history=true,quiescence=true,table=true \\
        --second uci:command=sunfish-uci

Both searchers get ``seconds`` of processor time a move (``clock=cpu``). The score of
the first searcher is printed with its wins, draws and losses and its 95 % interval (the
normal approximation over the games' points: 1 a win, 1/2 a draw).

Games are adjudicated as engine testers do (:func:`adjudicate`): a game is won by the
side both engines give at least :data:`RESIGN_CENTIPAWNS` ahead for
:data:`RESIGN_MOVES` moves each in a row, and drawn at ``--max-plies`` (160 by default,
the opening's moves included).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from gamesearch.arena import GameRecord, MoveRecord, play_game
from gamesearch.plugins import Registry, default_registry
from gamesearch.rating import score_interval
from gamesearch.rules import Outcome
from gamesearch.search.base import Searcher, parse_searcher_spec
from gamesearch_chess import Chess
from gamesearch_chess.opponent import UciPlayer

__all__ = ["OPENINGS", "RESIGN_CENTIPAWNS", "RESIGN_MOVES", "adjudicate", "main", "searcher_of"]

#: the score (centipawns, either engine's) beyond which a game is given up ...
RESIGN_CENTIPAWNS = 600
#: ... once both engines have scored it so for this many moves each in a row
RESIGN_MOVES = 4
#: the plies after which a game not yet over is scored a draw
MAX_PLIES = 160

#: short lines of well-known openings (SAN from the start), twenty of them: open,
#: semi-open, closed and flank games
OPENINGS: tuple[tuple[str, str], ...] = (
    ("Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5 a6"),
    ("Italian Game", "e4 e5 Nf3 Nc6 Bc4 Bc5"),
    ("Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("French, Winawer", "e4 e6 d4 d5 Nc3 Bb4"),
    ("Caro-Kann", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6"),
    ("Slav", "d4 d5 c4 c6 Nf3 Nf6"),
    ("King's Indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6"),
    ("Nimzo-Indian", "d4 Nf6 c4 e6 Nc3 Bb4"),
    ("English", "c4 e5 Nc3 Nf6 g3 d5"),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4"),
    ("Petrov", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    ("Sicilian, Dragon", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6"),
    ("Pirc", "e4 d6 d4 Nf6 Nc3 g6"),
    ("Scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5"),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6"),
    ("Grünfeld", "d4 Nf6 c4 g6 Nc3 d5"),
    ("Dutch", "d4 f5 g3 Nf6 Bg2 e6"),
    ("Queen's Indian", "d4 Nf6 c4 e6 Nf3 b6"),
    ("Réti", "Nf3 d5 c4 e6 g3 Nf6"),
)


def searcher_of(spec: str, registry: Registry) -> Searcher:
    """Return the searcher of ``spec``: ``uci:...`` another engine
    (:class:`~gamesearch_chess.opponent.UciPlayer`, which is not registered: it plays
    chess only, and is no search), else a registered searcher.

    :raises UnknownSearcherError: for an unregistered name.
    :raises InvalidOptionError: for a malformed spec or a bad option.
    """
    name, options = parse_searcher_spec(spec)
    if name == UciPlayer.name:
        return UciPlayer.configured(options)
    return registry.new_searcher(spec)


def adjudicate(moves: Sequence[MoveRecord]) -> Outcome | None:
    """Return the outcome of a game given up: the side that each of the last
    ``2 * RESIGN_MOVES`` searched moves (both engines, :data:`RESIGN_MOVES` each) valued at
    least :data:`RESIGN_CENTIPAWNS` ahead wins; ``None`` while the game goes on.

    The values are the first player's (White's), as the searchers report them.
    """
    last = moves[-2 * RESIGN_MOVES :]
    if len(last) < 2 * RESIGN_MOVES or any(move.is_random or move.value is None for move in last):
        return None
    values = [int(move.value) for move in last]  # type: ignore[arg-type]
    if all(value >= RESIGN_CENTIPAWNS for value in values):
        return Outcome.FIRST_WINS
    if all(value <= -RESIGN_CENTIPAWNS for value in values):
        return Outcome.SECOND_WINS
    return None


def _points(record: GameRecord, player: int) -> float:
    return {"win": 1.0, "draw": 0.5, "loss": 0.0}[record.result_of(player)]


def _ending(record: GameRecord, max_plies: int) -> str:
    """Return how a game ended: over on the board, given up (:func:`adjudicate`) or
    stopped at the cap of ``max_plies``."""
    if Chess.from_text(record.final).is_over():
        return "over"
    if adjudicate(record.moves) is not None:
        return "given up"
    return "ply cap" if len(record.moves) >= max_plies else "over"


def main(argv: Sequence[str] | None = None) -> int:
    """Play the match the command line asks for and print the games and the score.

    Returns the exit status (0).
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", required=True, help="the searcher scored (a spec)")
    parser.add_argument("--second", default="uci:command=sunfish-uci", help="its opponent")
    parser.add_argument("--seconds", type=float, default=0.2, help="CPU seconds a move each")
    parser.add_argument(
        "--openings", type=int, default=len(OPENINGS), help="how many of the openings to play"
    )
    parser.add_argument(
        "--max-plies", type=int, default=MAX_PLIES, help="plies after which a game is drawn"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write the games to this file (after every game)"
    )
    args = parser.parse_args(argv)
    registry = default_registry()
    budget = f"seconds={args.seconds},clock=cpu"
    first, second = (
        searcher_of(f"{spec}{',' if ':' in spec else ':'}{budget}", registry)
        for spec in (args.first, args.second)
    )
    points: list[float] = []
    games: list[dict[str, object]] = []
    for name, line in OPENINGS[: args.openings]:
        for ours in (0, 1):
            seated = (first, second) if ours == 0 else (second, first)
            played = play_game(
                Chess.from_text(line), *seated, max_plies=args.max_plies, adjudicate=adjudicate
            )
            points.append(_points(played, ours))
            colour = "White" if ours == 0 else "Black"
            print(
                f"{name:<24} first as {colour}: {played.result_of(ours):<4} "
                f"in {len(played.moves)} plies ({_ending(played, args.max_plies)})",
                flush=True,
            )
            games.append({"opening": name, "first_as": colour, **played.as_dict()})
            if args.json:
                with open(args.json, "w", encoding="utf-8") as out:
                    json.dump({"points": points, "games": games}, out, indent=1)
    mean, low, high = score_interval(points)
    wins, draws = points.count(1.0), points.count(0.5)
    print(
        f"score of {args.first} against {args.second} at {args.seconds} CPU-s a move: "
        f"{sum(points):g}/{len(points)} = {100 * mean:.1f} % "
        f"({wins}-{draws}-{len(points) - wins - draws}, 95 % interval "
        f"{100 * low:.1f}-{100 * high:.1f} %)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
