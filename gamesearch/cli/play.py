"""``gamesearch play``: play a game in the terminal against a searcher (or watch two).

Everything goes through standard input and output, line by line, so a game can be
driven by a pipe as well as by a person: moves in the game's notation, or the
commands ``undo``, ``hint``, ``new``, ``quit`` and ``help``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from gamesearch.arena import searcher_label
from gamesearch.cli._common import add_game_arguments, load_game, load_searcher
from gamesearch.errors import GameSearchError, InvalidOptionError
from gamesearch.game import Game, Player, describe_value
from gamesearch.search.base import SearchResult, Searcher

HUMAN_SIDES = {
    "first": {Player.FIRST},
    "second": {Player.SECOND},
    "both": {Player.FIRST, Player.SECOND},
    "none": set(),
}
#: the searcher each engine side uses unless --opponent says otherwise
DEFAULT_OPPONENT = "iterative:seconds=2"
HELP = """\
commands:
  a move     play it, in the game's notation (legal now: {moves})
  undo       take back your last move and the engine's reply
  hint       the engine's best move for you and its value
  new        start again from the first position
  quit       leave (also: end of input)
  help       this list"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against a searcher, or watch two searchers play",
        description="Play GAME at the terminal. The board is drawn after every move; at the "
        "prompt type a move in the game's notation or undo, hint, new, quit, help. Standard "
        "input may be a pipe: one command a line.",
        epilog="examples:\n"
        "  gamesearch play tictactoe\n"
        "  gamesearch play tictactoe --human second --opponent minimax --seed 1\n"
        "  gamesearch play connect4 --opponent alphabeta:depth=6\n"
        "  gamesearch play tictactoe --human none --opponent alphabeta --opponent alphabeta:depth=1\n"
        "  printf '4\\n0\\n' | gamesearch play tictactoe",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--human", choices=list(HUMAN_SIDES), default="first",
        help="the side(s) you play; none watches the engines (default: first)",
    )  # fmt: skip
    parser.add_argument(
        "--opponent", action="append", metavar="NAME[:KEY=VALUE,...]",
        help="the engine's searcher; give it twice for different first and second players "
        f"(default: {DEFAULT_OPPONENT})",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, help="break ties among equally good moves at random from this seed")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    specs = args.opponent or [DEFAULT_OPPONENT]
    if len(specs) > 2:
        raise InvalidOptionError(f"--opponent is given at most twice (first, second player): {specs!r}")
    engines = [load_searcher(spec, seed=args.seed) for spec in specs]
    game = load_game(args)
    session = PlaySession(
        game,
        {Player.FIRST: engines[0], Player.SECOND: engines[-1]},
        HUMAN_SIDES[args.human],
        sys.stdin,
        sys.stdout,
    )
    session.run()
    return 0


class PlaySession:
    """One sitting at the board: the position, who is human, the move history by side."""

    def __init__(
        self,
        start: Game[Any],
        engines: dict[Player, Searcher],
        humans: set[Player],
        reader: TextIO,
        writer: TextIO,
    ) -> None:
        self.start = start.copy()
        self.game = start.copy()
        self.engines = engines
        self.humans = humans
        self.reader = reader
        self.writer = writer
        self.echo = not reader.isatty()  # a piped transcript shows what was typed
        self.by_human: list[bool] = []  # for each move played in this sitting

    # ------------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        """Write a line."""
        print(text, file=self.writer, flush=True)

    def name(self, player: Player) -> str:
        """Return the player's name in this game (X, O, ...)."""
        return self.game.player_names[player]

    def show(self) -> None:
        """Draw the board and say who is to move or how the game ended."""
        self.say()
        self.say(self.game.render())
        outcome = self.game.outcome()
        if outcome is None:
            return
        winner = outcome.winner
        if winner is None:
            self.say("Game over: a draw.")
        else:
            who = "you" if winner in self.humans and len(self.humans) == 1 else f"the {self.label(winner)}"
            self.say(f"Game over: {self.name(winner)} wins ({who}).")

    def label(self, player: Player) -> str:
        """Return "human" or the engine's searcher label for ``player``."""
        return "human" if player in self.humans else f"engine {searcher_label(self.engines[player])}"

    # ------------------------------------------------------------------- input
    def ask(self, prompt: str) -> str | None:
        """Return the next stripped input line, or ``None`` at the end of input."""
        print(prompt, end="", file=self.writer, flush=True)
        line = self.reader.readline()
        if not line:
            self.say()
            return None
        if self.echo:
            self.say(line.rstrip("\n"))
        return line.strip()

    # -------------------------------------------------------------------- loop
    def run(self) -> None:
        """Play until ``quit`` or the end of input (or, with no human, the end of the game)."""
        self.say(f"{self.game.name}: {self.describe_sides()}. Type help for the commands.")
        self.show()
        while True:
            if not self.game.is_over() and self.game.to_move() not in self.humans:
                self.engine_move()
                continue
            if not self.humans:
                return
            over = self.game.is_over()
            prompt = "game over; new, undo or quit: " if over else f"{self.name(Player(self.game.to_move()))} to move: "
            line = self.ask(prompt)
            if line is None or line.lower() in ("quit", "exit", "q"):
                return
            self.command(line)

    def describe_sides(self) -> str:
        """Return who plays which side, e.g. ``"X: human, O: engine alphabeta"``."""
        return ", ".join(f"{self.name(player)}: {self.label(player)}" for player in Player)

    def command(self, line: str) -> None:
        """Carry out one line of input that is not ``quit``."""
        word = line.lower()
        if not word:
            return
        if word in ("help", "?"):
            moves = ", ".join(self.game.format_move(move) for move in self.game.legal_moves()) or "none"
            self.say(HELP.format(moves=moves))
        elif word == "undo":
            self.undo()
        elif word == "hint":
            self.hint()
        elif word == "new":
            self.game = self.start.copy()
            self.by_human.clear()
            self.say("New game.")
            self.show()
        else:
            self.human_move(line)

    def human_move(self, text: str) -> None:
        """Play ``text`` as a move, or say why it cannot be played."""
        try:
            self.game.play(text)
        except GameSearchError as error:
            self.say(f"{error}. Type help for the commands.")
            return
        self.by_human.append(True)
        self.show()

    def engine_move(self) -> None:
        """Let the side to move's searcher choose and play a move."""
        player = Player(self.game.to_move())
        result = self.engines[player].search(self.game)
        assert result.move is not None  # the game is not over
        report = (f"{self.name(player)} ({searcher_label(self.engines[player])}) plays "
                  f"{self.game.format_move(result.move)}: {self.summary(result)}")  # fmt: skip
        self.game.apply(result.move)
        self.by_human.append(False)
        self.say(report)
        self.show()

    def summary(self, result: SearchResult) -> str:
        """Return a search result's value in words (seen from the searched position) and its effort."""
        stats = result.stats
        value = describe_value(self.game, result.value, is_exact=result.is_exact)
        return f"value {result.value} ({value}), {stats.nodes:,} nodes, {stats.seconds * 1000:.0f} ms"

    def undo(self) -> None:
        """Take back moves up to and including the last human move of this sitting."""
        if True not in self.by_human:
            self.say("Nothing to undo: you have not moved yet.")
            return
        taken = []
        while True:
            by_human = self.by_human.pop()
            taken.append(self.game.format_move(self.game.undo()))
            if by_human:
                break
        self.say(f"Took back {', '.join(reversed(taken))}.")
        self.show()

    def hint(self) -> None:
        """Say the engine's best move for the side to move, and its value."""
        if self.game.is_over():
            self.say("The game is over: no hint. Type new or undo.")
            return
        player = Player(self.game.to_move())
        result = self.engines[player].search(self.game)
        assert result.move is not None
        moves = ", ".join(self.game.format_move(move) for move in result.best_moves)
        self.say(f"Hint: {self.game.format_move(result.move)} (best: {moves}); {self.summary(result)}")
