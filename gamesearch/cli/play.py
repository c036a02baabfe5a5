"""``gamesearch play``: play a game in the terminal against a searcher (or watch two).

Everything goes through standard input and output, line by line, so a game can be
driven by a pipe as well as by a person: moves in the game's notation, or the
commands ``undo``, ``hint``, ``go``, ``new``, ``quit`` and ``help``. At a terminal the
prompt has line editing, history and completion (readline, where Python has it), and
Ctrl-C while an engine thinks cancels that move; Ctrl-C at the prompt quits.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

import attrs

from gamesearch import capabilities
from gamesearch.arena import searcher_label
from gamesearch.boardview import BoardView
from gamesearch.cli._common import add_clock_argument, add_game_arguments, load_game, load_searcher
from gamesearch.errors import GameSearchError, InvalidOptionError
from gamesearch.game import Game, draw_outcome
from gamesearch.rules import CHANCE, Player
from gamesearch.rules import outcome as outcome_of
from gamesearch.search.base import Searcher, SearchResult
from gamesearch.words import describe_result

HUMAN_SIDES: dict[str, set[int]] = {
    "first": {Player.FIRST},
    "second": {Player.SECOND},
    "both": {Player.FIRST, Player.SECOND},
    "none": set(),
}
#: the searcher each engine side uses unless --opponent says otherwise
DEFAULT_OPPONENT = "iterative:seconds=2"
#: the exit status after Ctrl-C at the prompt (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130
COMMANDS = ("undo", "hint", "go", "new", "quit", "help")
HELP = """\
commands:
  a move     play it, in the game's notation (legal now: {moves})
  undo       take back your last move and the engine's reply
  hint       the engine's best move for you and its value
  go         let the engine play the side to move (after a cancelled move)
  new        start again from the first position
  quit       leave (also: end of input; Ctrl-C at the prompt)
  help       this list
Ctrl-C while the engine thinks cancels its move."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against a searcher, or watch two searchers play",
        description="Play GAME at the terminal. The board is drawn after every move, with the "
        "move that plays each free cell (or column) beside or under it; at the prompt type a "
        "move in the game's notation or undo, hint, go, new, quit, help. At a terminal the "
        "prompt keeps a history (up and down arrows) and completes commands and moves (Tab); "
        "Ctrl-C while the engine thinks cancels its move, Ctrl-C at the prompt quits. "
        "Standard input may be a pipe: one command a line.",
        epilog="examples:\n"
        "  gamesearch play tictactoe\n"
        "  gamesearch play tictactoe --human second --opponent minimax --seed 1\n"
        "  gamesearch play connect4 --opponent alphabeta:depth=6\n"
        "  gamesearch play tictactoe --human none --opponent alphabeta --opponent "
        "alphabeta:depth=1\n"
        "  printf '4\\n0\\n' | gamesearch play tictactoe",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--human",
        choices=list(HUMAN_SIDES),
        default="first",
        help="the side(s) you play; none watches the engines (default: first)",
    )
    parser.add_argument(
        "--opponent",
        action="append",
        metavar="NAME[:KEY=VALUE,...]",
        help="the engine's searcher; give it twice for different first and second players "
        f"(default: {DEFAULT_OPPONENT})",
    )
    parser.add_argument(
        "--seed", type=int, help="break ties among equally good moves at random from this seed"
    )
    add_clock_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    specs = args.opponent or [DEFAULT_OPPONENT]
    game = load_game(args)
    players = game.rules.players
    if len(specs) > max(2, players):
        seats = "first, second player" if players <= 2 else f"once per player, {players} here"
        times = "twice" if players <= 2 else f"{players} times"
        raise InvalidOptionError(f"--opponent is given at most {times} ({seats}): {specs!r}")
    engines = [load_searcher(spec, seed=args.seed, clock=args.clock) for spec in specs]
    session = PlaySession(
        game,
        {player: engines[min(player, len(engines) - 1)] for player in range(max(2, players))},
        HUMAN_SIDES[args.human],
        sys.stdin,
        sys.stdout,
        seed=args.seed,
    )
    return session.run()


def board_key(view: BoardView | None, drawing: str) -> tuple[str, ...] | None:
    """Return the lines of a key to the moves that play each cell, or ``None`` if none is needed.

    In a game where every free cell is its own move (tic-tac-toe), the key is a grid
    of the move texts, ``.`` where no move plays; in a game whose moves are columns
    (Connect Four), it is one line of the column moves, left out when the last line of
    ``drawing`` already lists them.
    """
    if view is None or not any(view.moves):
        return None
    rows = [view.moves[row * view.cols : (row + 1) * view.cols] for row in range(view.rows)]
    labels = [label for label in view.moves if label is not None]
    if len(set(labels)) == len(labels):  # one move per cell
        width = max(len(label) for label in labels)
        return tuple(" ".join(f"{label or '.':>{width}}" for label in row) for row in rows)
    columns = [
        next((row[col] for row in rows if row[col] is not None), None) for col in range(view.cols)
    ]
    drawn = drawing.splitlines()[-1].split() if drawing.strip() else []
    if all(label is None or label in drawn for label in columns):
        return None
    width = max(len(label) for label in labels)
    return (" ".join(f"{label or '.':>{width}}" for label in columns),)


def draw_with_key(game: Game[Any]) -> str:
    """Return the game's drawing with the key to its moves beside it (or under it, when the
    drawing has not one line per row)."""
    drawing = capabilities.render(game)
    view = capabilities.board_view(game)
    key = board_key(view, drawing)
    if key is None or view is None:
        return drawing
    lines = drawing.splitlines()
    if len(key) == view.rows == len(lines):
        width = max(len(line) for line in lines)
        return "\n".join(f"{line:<{width}}    {row}" for line, row in zip(lines, key, strict=True))
    return "\n".join([*lines, *key])


def enable_line_editing(words: Callable[[], list[str]]) -> bool:
    """Turn on readline's line editing, history and Tab completion of ``words()`` for
    :func:`input`; return whether readline is available."""
    try:
        import readline
    except ImportError:  # not every Python is built with it (Windows)
        return False

    def complete(text: str, state: int) -> str | None:
        matches = [word for word in words() if word.startswith(text)]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")
    readline.parse_and_bind(
        "bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete"
    )
    return True


class PlaySession:
    """One sitting at the board: the position, who is human, the move history by side."""

    def __init__(
        self,
        start: Game[Any],
        engines: dict[int, Searcher],
        humans: set[int],
        reader: TextIO,
        writer: TextIO,
        *,
        seed: int | None = None,
    ) -> None:
        self.start = start.copy()
        self.game = start.copy()
        self.engines = dict(engines)
        self.humans = humans
        self.reader = reader
        self.writer = writer
        self.interactive = reader.isatty()
        self.echo = not self.interactive  # a piped transcript shows what was typed
        #: the prompt reads with input() and readline: the terminal's own standard streams
        self.line_editing = (
            self.interactive
            and reader is sys.stdin
            and writer is sys.stdout
            and enable_line_editing(self.completions)
        )
        self.by_human: list[bool] = []  # for each move played in this sitting
        #: an engine's move was cancelled: wait at the prompt (``go`` lets it move)
        self.paused = False
        #: draws the outcomes of a game of chance (from the seed, when one is given)
        self.dice = random.Random(seed)

    # ------------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        """Write a line."""
        print(text, file=self.writer, flush=True)

    def name(self, player: int) -> str:
        """Return the player's name in this game (X, O, ...)."""
        return capabilities.player_names(self.game)[player]

    def show(self) -> None:
        """Draw the board and say who is to move or how the game ended."""
        self.say()
        self.say(draw_with_key(self.game))
        if self.game.rules.utilities:
            final: Any = self.game.result()
            if final is not None:
                self.say(f"Game over: {describe_result(self.game, final)}.")
            return
        outcome = outcome_of(self.game)
        if outcome is None:
            return
        winner = outcome.winner
        if winner is None:
            self.say("Game over: a draw.")
        else:
            who = (
                "you"
                if winner in self.humans and len(self.humans) == 1
                else f"the {self.label(winner)}"
            )
            self.say(f"Game over: {self.name(winner)} wins ({who}).")

    def label(self, player: int) -> str:
        """Return "human" or the engine's searcher label for ``player``."""
        return (
            "human" if player in self.humans else f"engine {searcher_label(self.engines[player])}"
        )

    # ------------------------------------------------------------------- input
    def ask(self, prompt: str) -> str | None:
        """Return the next stripped input line, or ``None`` at the end of input.

        :raises KeyboardInterrupt: on Ctrl-C at the prompt.
        """
        if self.line_editing:
            try:
                return input(prompt).strip()
            except EOFError:
                self.say()
                return None
        print(prompt, end="", file=self.writer, flush=True)
        line = self.reader.readline()
        if not line:
            self.say()
            return None
        if self.echo:
            self.say(line.rstrip("\n"))
        return line.strip()

    def completions(self) -> list[str]:
        """Return what Tab completes at the prompt: the commands and the legal moves."""
        return [*COMMANDS, *(self.game.format_move(move) for move in self.game.legal_moves())]

    # -------------------------------------------------------------------- loop
    def run(self) -> int:
        """Play until ``quit`` or the end of input (or, with no human, the end of the game).

        Return the exit status: 0, or 130 after Ctrl-C at the prompt (or a second Ctrl-C
        before the prompt is back), having said goodbye.
        """
        try:
            self.play()
        except KeyboardInterrupt:
            self.say()
            self.say("Interrupted: goodbye.")
            return EXIT_INTERRUPTED
        return 0

    def play(self) -> None:
        """The loop of :meth:`run`: engine moves, then the prompt and its commands."""
        self.say(f"{self.game.name}: {self.describe_sides()}. Type help for the commands.")
        self.show()
        while True:
            if not self.game.is_over() and self.game.to_move() == CHANCE:
                self.chance_move()
                continue
            engine_turn = not self.game.is_over() and self.game.to_move() not in self.humans
            if engine_turn and not self.paused:
                self.engine_move()
                continue
            if not self.humans and not self.paused:
                return
            line = self.ask(self.prompt(engine_turn))
            if line is None or line.lower() in ("quit", "exit", "q"):
                return
            self.command(line)

    def prompt(self, engine_turn: bool) -> str:
        """Return the prompt for the position (over, the engine's paused turn, or a human's)."""
        if self.game.is_over():
            return "game over; new, undo or quit: "
        who = self.name(self.game.to_move())
        return f"{who} to move (go lets the engine play): " if engine_turn else f"{who} to move: "

    def describe_sides(self) -> str:
        """Return who plays which side, e.g. ``"X: human, O: engine alphabeta"``."""
        return ", ".join(
            f"{self.name(player)}: {self.label(player)}" for player in range(len(self.engines))
        )

    def command(self, line: str) -> None:
        """Carry out one line of input that is not ``quit``."""
        word = line.lower()
        if not word:
            return
        if word not in ("help", "?", "hint"):
            self.paused = False  # the engine moves again once the position changes, or on go
        if word == "go":
            if self.game.is_over():
                self.say("The game is over. Type new or undo.")
        elif word in ("help", "?"):
            moves = (
                ", ".join(self.game.format_move(move) for move in self.game.legal_moves()) or "none"
            )
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

    def think(self) -> SearchResult | None:
        """Return the side to move's engine's search of the position, or ``None`` when Ctrl-C
        cancelled it.

        The engine searches a copy, so a cancelled search can never disturb the game; a
        fresh engine of the same settings takes over, so nothing the cancelled search
        left behind (a half-filled table) carries over.
        """
        player = self.game.to_move()
        engine = self.engines[player]
        if self.interactive:
            self.say(f"{self.name(player)} ({searcher_label(engine)}) is thinking; Ctrl-C cancels.")
        try:
            return engine.search(self.game.copy())
        except KeyboardInterrupt:
            if attrs.has(type(engine)):  # every built-in searcher; a plugin's may be a plain class
                fresh = attrs.evolve(engine)
                engines = self.engines.items()
                self.engines = {
                    side: fresh if other is engine else other for side, other in engines
                }
            return None

    def engine_move(self) -> None:
        """Let the side to move's searcher choose and play a move (or stop at the prompt
        when Ctrl-C cancels its search)."""
        player = self.game.to_move()
        result = self.think()
        if result is None:
            self.paused = True
            self.say()
            name = self.name(player)
            self.say(
                f"{name}'s move cancelled: type go to let the engine move; Ctrl-C again quits."
            )
            return
        assert result.move is not None  # the game is not over
        report = (
            f"{self.name(player)} ({searcher_label(self.engines[player])}) plays "
            f"{self.game.format_move(result.move)}: {self.summary(result)}"
        )
        self.game.apply(result.move)
        self.by_human.append(False)
        self.say(report)
        self.show()

    def chance_move(self) -> None:
        """Draw the outcome of the chance position with its probability and play it."""
        move = draw_outcome(self.game, self.dice)
        self.game.apply(move)
        self.by_human.append(False)
        self.say(f"Chance: {self.game.format_move(move)}")
        self.show()

    def summary(self, result: SearchResult) -> str:
        """Return a search result's value in words (seen from the searched position), whether
        it is exact, the depth the search reached and its effort, e.g. ``"value 0 (draw),
        exact, depth 8, 2,338 nodes, 12 ms"``."""
        stats = result.stats
        value = result.describe(self.game)
        exact = "exact" if result.is_exact else "not exact"
        return (
            f"value {result.value_text} ({value}), {exact}, depth {stats.depth}, "
            f"{stats.nodes:,} nodes, {stats.seconds * 1000:.0f} ms"
        )

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
        result = self.think()
        if result is None:
            self.say()
            self.say("Hint cancelled.")
            return
        assert result.move is not None
        moves = ", ".join(self.game.format_move(move) for move in result.best_moves)
        self.say(
            f"Hint: {self.game.format_move(result.move)} (best: {moves}); {self.summary(result)}"
        )
