"""``python -m benchmarks strength GAME``: playing strength at equal CPU time per move.

The command (its parser and :func:`run`) is reached through :func:`benchmarks.cli.main`.

Each *match* is a two-player tournament of :func:`gamesearch.tournament.run_tournament`
(games in pairs from one random opening, each side moving first once; the Elo fit of
:mod:`gamesearch.rating`), bounded by a number of games and, if asked, a cap on a game's
plies (a game that reaches it is a draw). With ``--sprt ELO0,ELO1`` a match also stops
after the pair of games where the sequential test of
:func:`benchmarks.strength_report.sprt_verdict` decides; Ctrl-C (or SIGTERM) stops it after
the games already played, which are kept, saved and shown like a finished match's. Every player has
the same time per move on the same clock: processor time by default, so that the machine's
load does not decide; the outside programs (:mod:`benchmarks.peers.uci`,
:mod:`benchmarks.peers.bots`) are held to it as their modules say. A match whose opponent
is not installed is skipped with the reason.

The suites of matches, by game:

- ``peers``: chess against sunfish and Stockfish's ``UCI_Elo`` ladder (with the rating on
  that scale fitted to the ladder,
  :func:`benchmarks.strength_report.anchored_rating`); Connect Four against OpenSpiel's
  MCTSBot and alpha-beta and easyAI's Negamax; every game: the game's
  default searcher against this framework's other searchers that play under a time
  budget (iterative deepening, the engine with every trick the game offers, MCTS);
- ``tricks``: the engine with every trick the game offers against the plain iterative
  engine and against ``iterative`` (the default where a game plays under a time budget),
  then the plain engine with each trick alone against the plain engine, then the engine
  with each trick off in turn (an Elo per trick at equal time, two ways);
- ``mcts``: MCTS against OpenSpiel's MCTSBot at equal simulations (Connect Four).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from benchmarks.peers.players import SPENT, OutsidePlayer, strength_registry
from benchmarks.peers.uci import close_engines
from benchmarks.strength_report import (
    ladder_rating,
    markdown,
    merged,
    print_table,
    sprt_llr,
    sprt_verdict,
)
from gamesearch import capabilities
from gamesearch.cli._output import progress
from gamesearch.errors import InvalidOptionError
from gamesearch.game import Game, allows_null_move, offers
from gamesearch.plugins import Registry
from gamesearch.search.base import parse_searcher_spec
from gamesearch.tournament import PlayedGame, Tournament, run_tournament

PROG = "python -m benchmarks strength"
#: Stockfish's UCI_Elo ladder (its lowest is 1320 or 1350, by version)
LADDER = (1350, 1800)
#: the simulations of the equal-simulations match of MCTS against OpenSpiel's MCTSBot
MCTS_SIMULATIONS = 1000
#: the engine's tricks, each as the option that switches it on, and what the game must offer
TRICKS: tuple[tuple[str, str, Callable[[Game[Any]], bool]], ...] = (
    ("aspiration", "aspiration=50", lambda game: True),
    ("killers", "killers=true", lambda game: True),
    ("history", "history=true", lambda game: True),
    ("null move", "null_move=2", allows_null_move),
    ("lmr", "lmr=true", lambda game: True),
    ("quiescence", "quiescence=true", lambda game: offers(game, "noisy_moves")),
    ("extensions", "extensions=true", lambda game: offers(game, "is_forcing")),
    ("table", "table=true", lambda game: True),
)
#: the plain iterative engine, against which the tricks are measured
PLAIN_ENGINE = "engine:iterative=true"


@attrs.frozen
class Match:
    """One bounded match of the plan: ``player`` against ``opponent``, in ``suite``."""

    suite: str
    player: str  #: a searcher spec (its time budget is added when played)
    opponent: str
    note: str = ""  #: what the match measures, e.g. "all tricks" or "without killers"
    timed: bool = True  #: whether both get the time per move (else their own budgets)


def with_budget(spec: str, seconds: float, clock: str) -> str:
    """Return ``spec`` searching ``seconds`` a move on ``clock`` (its own time, node and
    depth limits dropped)."""
    name, options = parse_searcher_spec(spec)
    kept = {k: v for k, v in options.items() if k not in {"seconds", "clock", "max_nodes"}}
    kept |= {"seconds": f"{seconds:g}", "clock": clock}
    return f"{name}:" + ",".join(f"{key}={value}" for key, value in kept.items())


def default_spec(game: Game[Any], registry: Registry) -> str:
    """Return the spec of the game's default searcher when it answers within a time budget
    (it deepens), else ``iterative`` (Connect Four's exact solver gives up when the time
    runs out)."""
    spec = capabilities.default_searcher(type(game))
    if not isinstance(spec, str) or not spec.strip():
        return "iterative"
    chosen = registry.new_searcher(spec)
    deepens = chosen.answers_within_budget or getattr(chosen, "iterative", False)
    return spec if deepens else "iterative"


def offered_tricks(game: Game[Any]) -> list[tuple[str, str]]:
    """Return the engine's tricks ``game`` offers what they need, as (name, option)."""
    return [(name, option) for name, option, offered in TRICKS if offered(game)]


def all_tricks(game: Game[Any], without: str | None = None) -> str:
    """Return the engine with every trick ``game`` offers (but ``without``), deepening."""
    chosen = [option for name, option in offered_tricks(game) if name != without]
    return "engine:" + ",".join(["iterative=true", *chosen])


def plan(
    game: Game[Any],
    suites: Sequence[str],
    ladder: Sequence[int] = LADDER,
    simulations: int = MCTS_SIMULATIONS,
    player: str | None = None,
) -> list[Match]:
    """Return the matches of ``suites`` for ``game`` (see the module's list): Stockfish at the
    ``ladder``'s levels, MCTS against MCTSBot at ``simulations`` each, ``player`` (default:
    :func:`default_spec`) against the peers."""
    name = type(game).name
    ours = player if player is not None else default_spec(game, strength_registry())
    matches: list[Match] = []
    if "peers" in suites:
        if name == "chess":
            matches.append(Match("peers", ours, "sunfish"))
            matches += [Match("peers", ours, f"stockfish:elo={elo}") for elo in ladder]
        peers = {
            "connect4": ("openspiel-mcts", "openspiel-alphabeta", "easyai-negamax"),
            "checkers": ("openspiel-mcts", "openspiel-alphabeta"),
        }
        matches += [Match("peers", ours, peer) for peer in peers.get(name, ())]
        own = ["iterative", all_tricks(game), "mcts"]
        matches += [Match("peers", ours, other) for other in own if other != ours]
    if "tricks" in suites:
        matches.append(Match("tricks", all_tricks(game), PLAIN_ENGINE, "all tricks"))
        matches.append(Match("tricks", all_tricks(game), "iterative", "all tricks"))
        for trick, option in offered_tricks(game):
            matches.append(
                Match("tricks", f"{PLAIN_ENGINE},{option}", PLAIN_ENGINE, f"{trick} alone")
            )
        for trick, _ in offered_tricks(game):
            matches.append(
                Match("tricks", all_tricks(game, trick), PLAIN_ENGINE, f"all but {trick}")
            )
    if "mcts" in suites and name == "connect4":
        each = f"simulations={simulations}"
        matches.append(
            Match(
                "mcts",
                f"mcts:{each}",
                f"openspiel-mcts:{each}",
                "equal simulations",
                timed=False,
            )
        )
    return matches


@attrs.frozen
class Outcome:
    """A played match: the first player's wins, draws and losses, and the Elo fit."""

    match: Match
    player: str  #: the specs as played (with the time budget)
    opponent: str
    wins: int
    draws: int
    losses: int
    elo: float  #: the player's Elo minus the opponent's
    interval: float  #: half-width of its 95 % interval
    plies: float  #: mean plies a game
    player_ms: float  #: mean elapsed milliseconds a searched move, the player's
    opponent_ms: float
    capped: int  #: games stopped at the ply cap (scored draws)
    #: mean processor milliseconds a move of the opponent: measured by its search on the
    #: processor clock, or by the outside program's process (``None``: not measured)
    opponent_cpu_ms: float | None = None
    #: mean processor milliseconds a move of the player (``None``: on the wall clock)
    player_cpu_ms: float | None = None
    #: why it ended before its games: ``"H1"`` or ``"H0"`` (the sequential test accepted
    #: it), ``"stopped"`` (Ctrl-C or SIGTERM); ``""``: it played them all
    ended: str = ""
    sprt: tuple[float, float] | None = None  #: the test's Elo differences of H0 and H1
    llr: float | None = None  #: the test's log-likelihood ratio at the end

    @property
    def games(self) -> int:
        """Return the games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Return the player's points (a draw is half a point)."""
        return self.wins + self.draws / 2

    def as_dict(self) -> dict[str, Any]:
        """Return the outcome as JSON-ready data."""
        data = attrs.asdict(self, recurse=False)
        data["match"] = attrs.asdict(self.match)
        return data | {"games": self.games, "score": self.score}


def outcome_of(match: Match, tournament: Tournament, max_plies: int | None) -> Outcome:
    """Return the outcome of ``match`` from its two-player ``tournament``."""
    first, second = tournament.standings()
    rating = tournament.ratings()[0]  # two players: their ratings sum to zero
    played = tournament.played
    plies = [len(game.record.moves) for game in played]
    capped = sum(
        1
        for game, count in zip(played, plies, strict=True)
        if max_plies is not None and count >= max_plies
    )
    return Outcome(
        match,
        tournament.players[0],
        tournament.players[1],
        first.wins,
        first.draws,
        first.losses,
        2 * rating.elo,
        2 * rating.interval,
        sum(plies) / len(plies) if plies else 0.0,
        first.mean_seconds * 1000,
        second.mean_seconds * 1000,
        capped,
        opponent_cpu_ms=second.mean_cpu_seconds * 1000 if second.cpu_seconds else None,
        player_cpu_ms=first.mean_cpu_seconds * 1000 if first.cpu_seconds else None,
    )


class _Decided(Exception):
    """Raised after a game when the sequential test has decided the match."""


def pair_points(played: Sequence[PlayedGame]) -> list[float]:
    """Return the first player's points in each whole pair of ``played`` (in schedule order:
    games ``2k`` and ``2k + 1`` share an opening)."""
    ordered = sorted(played, key=lambda each: each.scheduled.number)
    return [
        ordered[index].score(0) + ordered[index + 1].score(0)
        for index in range(0, len(ordered) - 1, 2)
    ]


def play(
    game: Game[Any],
    match: Match,
    *,
    registry: Registry,
    seconds: float,
    clock: str,
    games: int,
    seed: int,
    opening_plies: int,
    max_plies: int | None,
    advance: Callable[[str], None],
    sprt: tuple[float, float] | None = None,
) -> Outcome:
    """Play ``match`` and return its outcome: ``games`` games, fewer when the sequential test
    at ``sprt`` (the Elo differences of H0 and H1) decides after a pair, or when Ctrl-C
    stops it (the outcome of the games played then, ``ended="stopped"``; the caller plays no
    further match)."""
    players = [match.player, match.opponent]
    if match.timed:
        players = [with_budget(spec, seconds, clock) for spec in players]
    outside = parse_searcher_spec(match.opponent)[0]
    before = list(SPENT.get(outside, (0.0, 0)))
    ends = [registry.new_searcher(spec) for spec in (match.player, match.opponent)]
    adjudicators = [p.adjudicator(game) for p in ends if isinstance(p, OutsidePlayer)]
    adjudicate = next((each for each in adjudicators if each is not None), None)
    played: list[PlayedGame] = []

    def finished(done: PlayedGame) -> None:
        played.append(done)
        advance(f"{match.opponent}: {done.record.winner or 'draw'}")
        if sprt is not None and len(played) % 2 == 0 and sprt_verdict(pair_points(played), *sprt):
            raise _Decided

    ended = ""
    try:
        tournament = run_tournament(
            game,
            players,
            games=games,
            seed=seed,
            opening_plies=opening_plies,
            registry=registry,
            on_game=finished,
            max_plies=max_plies,
            adjudicate=adjudicate,
        )
    except (_Decided, KeyboardInterrupt) as stop:
        if not played:
            raise
        if isinstance(stop, KeyboardInterrupt) or sprt is None:
            ended = "stopped"
        else:
            ended = sprt_verdict(pair_points(played), *sprt) or ""
        tournament = Tournament(
            game=game.name,
            start=game.to_text(),
            players=tuple(spec.strip() for spec in players),
            games_per_pair=len(played),
            opening_plies=opening_plies,
            seed=seed,
            played=tuple(sorted(played, key=lambda each: each.scheduled.number)),
        )
    outcome = outcome_of(match, tournament, max_plies)
    if sprt is not None:
        llr = sprt_llr(pair_points(played), *sprt)
        outcome = attrs.evolve(outcome, sprt=sprt, llr=llr)
    if ended:
        outcome = attrs.evolve(outcome, ended=ended)
    after = SPENT.get(outside, (0.0, 0))
    if after[1] > before[1]:
        cpu = (after[0] - before[0]) / (after[1] - before[1]) * 1000
        outcome = attrs.evolve(outcome, opponent_cpu_ms=cpu)
    return outcome


def missing(game: Game[Any], match: Match, registry: Registry) -> str | None:
    """Return why ``match`` cannot be played here (an opponent not installed), or ``None``."""
    for spec in (match.player, match.opponent):
        unmet = registry.new_searcher(spec).unmet_needs(game)
        if unmet:
            return f"{spec}: {'; '.join(unmet)}"
    return None


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m benchmarks strength``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play bounded matches at equal time per move (processor time by default) "
        "through gamesearch's tournament code and print, for each, the player's score and its "
        "Elo difference with a 95% interval. Suites: peers (chess: sunfish and Stockfish's "
        "UCI_Elo ladder; Connect Four: OpenSpiel's MCTSBot and alpha-beta, easyAI's Negamax; "
        "every game: the default searcher against the framework's other searchers), tricks "
        "(the engine with every trick against the plain iterative engine and against iterative, "
        "each trick alone against the plain engine, then each trick off in turn) and mcts "
        "(MCTS against OpenSpiel's MCTSBot at equal simulations). "
        "An opponent that is not installed is skipped with a message.",
        epilog="examples:\n"
        "  python -m benchmarks strength connect4 --suite tricks --games 20\n"
        "  python -m benchmarks strength connect4 --suite tricks --games 100 --sprt 0,50\n"
        "  python -m benchmarks strength chess --seconds 0.2 --games 10 --save chess.json\n"
        "  python -m benchmarks strength checkers --only mcts --games 2 --max-plies 20",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="the game, e.g. chess, checkers, connect4")
    parser.add_argument(
        "--suite",
        nargs="+",
        choices=("peers", "tricks", "mcts"),
        default=["peers"],
        help="the suites of matches to play (default: peers)",
    )
    parser.add_argument(
        "--seconds", type=float, default=0.1, help="time per move of every player (default: 0.1)"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu: processor time of each player's own process (the default); wall: elapsed",
    )
    parser.add_argument(
        "-n", "--games", type=int, default=10, help="games a match, an even number (default: 10)"
    )
    parser.add_argument(
        "--max-plies", type=int, metavar="N", help="stop a game after N plies, scored a draw"
    )
    parser.add_argument(
        "--sprt",
        type=_elo_pair,
        metavar="ELO0,ELO1",
        help="stop a match early, after a pair of games, once the sequential probability "
        "ratio test decides between 'the player is ELO0 Elo stronger' and 'ELO1 stronger' "
        "(5%% error each way; --games is then the most a match plays), e.g. 0,50",
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=2,
        metavar="N",
        help="random opening plies (default: 2)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default: 1)")
    parser.add_argument(
        "--ladder",
        type=lambda text: tuple(int(part) for part in text.split(",")),
        default=LADDER,
        metavar="ELO,ELO,...",
        help=f"Stockfish's UCI_Elo levels for chess (default: {','.join(map(str, LADDER))})",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=MCTS_SIMULATIONS,
        help=f"simulations a move of both sides in the mcts suite (default: {MCTS_SIMULATIONS})",
    )
    parser.add_argument(
        "--player",
        metavar="SPEC",
        help="the searcher that meets the peers (default: the game's default searcher when it "
        "answers within a time budget, else iterative)",
    )
    parser.add_argument(
        "--only",
        metavar="TEXT",
        help='only the matches whose players or note (e.g. "all tricks") contain TEXT',
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as Markdown (for the docs)"
    )
    parser.add_argument("--save", type=Path, metavar="FILE.json", help="also write the JSON here")
    parser.add_argument(
        "--load",
        type=Path,
        nargs="+",
        metavar="FILE.json",
        help="play nothing: print the results --save wrote (as a table, --json or --markdown); "
        "the same match in several files (other seeds) counts all their games, its Elo refitted",
    )
    return parser


def _elo_pair(text: str) -> tuple[float, float]:
    """Return the two Elo differences ``"ELO0,ELO1"`` names (the first below the second).

    :raises argparse.ArgumentTypeError: for anything else.
    """
    parts = text.split(",")
    try:
        low, high = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected two Elo differences such as 0,50: {text!r}"
        ) from None
    if not low < high:
        raise argparse.ArgumentTypeError(f"the first must be below the second: {text!r}")
    return low, high


def run(args: argparse.Namespace) -> int:
    """Play the matches ``args`` select, print the table (or JSON) and return 0.

    :raises InvalidOptionError: for a bad count or time, or an ``--only`` matching nothing.
    """
    if args.games < 2 or args.games % 2:
        raise InvalidOptionError(f"--games must be an even number >= 2: {args.games}")
    if not args.seconds > 0:
        raise InvalidOptionError(f"--seconds must be above 0: {args.seconds}")
    if args.max_plies is not None and args.max_plies < 1:
        raise InvalidOptionError(f"--max-plies must be >= 1: {args.max_plies}")
    if args.load is not None:
        saved = []
        for path in args.load:
            try:
                saved.append(json.loads(path.read_text()))
            except (OSError, ValueError) as error:
                raise InvalidOptionError(
                    f"cannot read the results {str(path)!r}: {error}"
                ) from None
        return show(args, merged(saved))
    registry = strength_registry()
    game = registry.new_game(args.game)
    matches = plan(game, args.suite, args.ladder, args.simulations, args.player)
    if args.only:
        matches = [m for m in matches if args.only in f"{m.player} {m.opponent} {m.note}"]
    if not matches:
        raise InvalidOptionError(f"no match of {args.game!r} is selected")
    skipped, todo = [], []
    for match in matches:
        reason = missing(game, match, registry)
        (todo.append(match) if reason is None else skipped.append((match, reason)))
    outcomes: list[Outcome] = []
    with progress("strength", len(todo) * args.games) as advance, _engines_closed():
        for match in todo:
            if outcomes and outcomes[-1].ended == "stopped":
                break  # Ctrl-C: no further match
            try:
                outcome = play(
                    game,
                    match,
                    registry=registry,
                    seconds=args.seconds,
                    clock=args.clock,
                    games=args.games,
                    seed=args.seed,
                    opening_plies=args.opening_plies,
                    max_plies=args.max_plies,
                    advance=advance,
                    sprt=args.sprt,
                )
            except KeyboardInterrupt:
                break  # (stopped before its first game ended: nothing of it to keep)
            outcomes.append(outcome)
    data = as_data(args, outcomes, skipped)
    if args.save is not None:
        args.save.write_text(json.dumps(data, indent=2) + "\n")
    return show(args, data)


def show(args: argparse.Namespace, data: dict[str, Any]) -> int:
    """Print ``data`` (see :func:`as_data`) as ``args`` ask: JSON, Markdown or a table; return 0."""
    if args.json:
        print(json.dumps(data, indent=2))
    elif args.markdown:
        print(markdown(data))
    else:
        print_table(data)
    return 0


@contextlib.contextmanager
def _engines_closed() -> Iterator[None]:
    """Stop the outside engines' processes when the body ends, however it ends; in the body,
    SIGTERM stops the matches as Ctrl-C does (the games played are kept)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
        close_engines()


def as_data(
    args: argparse.Namespace, outcomes: Sequence[Outcome], skipped: Sequence[tuple[Match, str]]
) -> dict[str, Any]:
    """Return the settings, each match's outcome, the ladder rating and the skipped matches."""
    matches = [outcome.as_dict() for outcome in outcomes]
    return {
        "game": args.game,
        "seconds": args.seconds,
        "clock": args.clock,
        "games": args.games,
        "max_plies": args.max_plies,
        "opening_plies": args.opening_plies,
        "seed": args.seed,
        "sprt": getattr(args, "sprt", None),
        "matches": matches,
        "stockfish_scale": ladder_rating(matches),
        "skipped": [{"match": attrs.asdict(m), "reason": reason} for m, reason in skipped],
    }
