"""Pig: the dice game of pushing your luck, first to ``goal`` points, with a move limit.

Pig is a folk dice game, described in John Scarne's *Scarne on Dice* (1945) and
solved for its 100-point version by Neller and Presser ("Optimal Play of the Dice
Game Pig", *The UMAP Journal* 25(1), 2004). Two players, A (first) and B, take
turns. On a turn the player rolls one die with ``faces`` sides as often as they
like, adding each roll to a turn total, until they either

- roll a 1: the turn total is lost and the turn passes; or
- *hold*: the turn total is added to their score and the turn passes.

A player who holds with a score of ``goal`` or more wins at once. The rules here are
those of OpenSpiel's ``pig`` (so the two can be compared position for position):

- the game ends in a draw once the players have made ``horizon`` moves (rolls and
  holds; the die's outcomes do not count), even right after a roll, unless a hold
  has just won it;
- a player may hold with a turn total of 0 (a pass);
- once the score plus the turn total reaches ``goal``, the player must hold (rolling
  on could only throw a sure win away).

The result is +1 when A wins, -1 when B wins, 0 for a draw; a search's value is the
expected result: A's chance of winning minus B's.

Moves are ``roll`` and ``hold``; at a *chance position* (a roll was asked for) the
die decides: the outcomes are the faces ``1`` .. ``faces``, each with probability
``1/faces``. A position is text: the scores, the player to move with their turn total,
a ``*`` while the die is rolling, the players' moves made and the ply, e.g. ``"3-0
B+4* 3 5"`` (A has 3, B has 0 and a turn total of 4 and has just asked for a roll;
the players have made 3 moves, and 5 plies, outcomes included, were played since the
start). The start is ``"0-0 A+0 0 0"``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from gamesearch.errors import InvalidPositionError
from gamesearch.game import CHANCE, BoardView, Game, Option, Rules, resolve_options
from gamesearch.plugins import hookimpl

PLAYER_LETTERS = ("A", "B")
ROLL, HOLD = "roll", "hold"
_TEXT = re.compile(r"(\d+)-(\d+) ([AB])\+(\d+)(\*?) (\d+) (\d+)")


@functools.cache
def _rules(horizon: int) -> Rules:
    # each of the players' moves is followed by at most one outcome of the die
    return Rules(max_plies=2 * horizon, alternating=False, chance=True, result_range=(-1, 1))


@functools.cache
def _outcomes(faces: int) -> tuple[tuple[str, Fraction], ...]:
    return tuple((str(face), Fraction(1, faces)) for face in range(1, faces + 1))


class Pig(Game[str]):
    """Pig: roll a die to build a turn total, hold to bank it, a 1 loses it; first to the goal wins."""

    name = "pig"
    player_names = PLAYER_LETTERS
    options = (
        Option("goal", int, 10, "points that win", minimum=1, maximum=100),
        Option("faces", int, 6, "sides of the die", minimum=2, maximum=20),
        Option(
            "horizon", int, 12, "players' moves (rolls and holds) before the game ends in a draw",
            minimum=1, maximum=1000,
        ),
    )
    #: the full game is too big to search to the end: a few moves ahead, Star2 pruning
    default_searcher: ClassVar[str | None] = "star2:depth=4"

    def __init__(self, goal: int = 10, faces: int = 6, horizon: int = 12) -> None:
        settings = resolve_options(self.options, {"goal": goal, "faces": faces, "horizon": horizon})
        self.goal: int = settings["goal"]
        self.faces: int = settings["faces"]
        self.horizon: int = settings["horizon"]
        self._scores = (0, 0)
        self._total = 0  #: the turn total of the player to move
        self._turn = 0  #: 0: A's turn, 1: B's
        self._rolling = False  #: the die is about to decide
        self._moves_made = 0  #: the players' moves so far (rolls and holds)
        self._result: int | None = None
        #: the state before each move of the history
        self._before: list[tuple[tuple[int, int], int, int, bool, int, int | None]] = []
        self._origin_ply = 0

    # ----------------------------------------------------------------- creation
    @classmethod
    def from_text(cls, text: str, **options: Any) -> Pig:
        """Return the position ``"A-score-B-score P+total[*] moves ply"``.

        :raises InvalidPositionError: for text of another shape, a turn total or score
            no game reaches, or a finished game's text that does not add up.
        :raises InvalidOptionError: for a bad option.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position must be text, not {type(text).__name__}: {text!r}")
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidPositionError(
                f"position {text!r} must be the scores, the player to move and their turn total, "
                "'*' while the die rolls, the players' moves made and the ply, e.g. '3-0 B+4* 3 5'"
            )
        first, second, letter, total, star, played, ply = match.groups()
        game = cls(**resolve_options(cls.options, options))
        scores, turn = (int(first), int(second)), PLAYER_LETTERS.index(letter)
        game._scores, game._total, game._turn = scores, int(total), turn
        game._rolling, game._moves_made, game._origin_ply = bool(star), int(played), int(ply)
        winners = [player for player in (0, 1) if scores[player] >= game.goal]
        problem = None
        if len(winners) == 2:
            problem = "both players have reached the goal"
        elif winners and (game._total or game._rolling or winners[0] == turn):
            problem = f"{PLAYER_LETTERS[winners[0]]} has won, so the game is over with the other to move and no turn total"
        elif game._moves_made > game.horizon:
            problem = f"the players have made more moves than the {game.horizon} the game lasts"
        elif game._moves_made == game.horizon and (game._rolling or game._total):
            problem = "the game ended with the last move, so no die rolls and no turn total is left"
        elif game._moves_made + game._origin_ply == 0 and (game._total or game._rolling):
            problem = "no move has been made, so there is no turn total"
        elif game._rolling and scores[turn] + game._total >= game.goal:
            problem = "the player has reached the goal and must hold, not roll"
        elif scores[turn] + game._total >= game.goal + game.faces:
            problem = f"a turn total of {game._total} is more than a player can roll to"
        elif game._origin_ply > game.rules.max_plies:
            problem = f"no game lasts more than {game.rules.max_plies} plies"
        if problem is not None:
            raise InvalidPositionError(f"position {text!r}: {problem}")
        if winners:
            game._result = 1 if winners[0] == 0 else -1
        elif game._moves_made == game.horizon:
            game._result = 0
        return game

    @property
    def settings(self) -> dict[str, Any]:
        return {"goal": self.goal, "faces": self.faces, "horizon": self.horizon}

    # ------------------------------------------------------------ state queries
    @property
    def rules(self) -> Rules:
        return _rules(self.horizon)

    @property
    def ply(self) -> int:
        return self._origin_ply + len(self._history)

    def to_move(self) -> int:
        return CHANCE if self._rolling else self._turn

    def scores(self) -> tuple[int, int]:
        """Return A's and B's banked points."""
        return self._scores

    def turn_total(self) -> int:
        """Return the points the player to move has rolled this turn (not yet banked)."""
        return self._total

    # Hot path from here to unmake_move().
    def legal_moves(self) -> Sequence[str]:
        if self._result is not None:
            return ()
        if self._rolling:
            return [face for face, _ in _outcomes(self.faces)]
        if self._scores[self._turn] + self._total >= self.goal:
            return [HOLD]
        return [ROLL, HOLD]

    def chance_outcomes(self) -> Sequence[tuple[str, Fraction]]:
        """Return each face of the die with probability ``1/faces`` (at a roll).

        :raises ValueError: when the die is not rolling.
        """
        if not self._rolling or self._result is not None:
            raise ValueError(f"the die is not rolling in {self.to_text()!r}")
        return _outcomes(self.faces)

    def result(self) -> int | None:
        return self._result

    def key(self) -> tuple[int, int, int, int, bool, int, int]:
        scores = self._scores
        return (scores[0], scores[1], self._total, self._turn, self._rolling, self._moves_made, self.ply)

    def make_move(self, move: str) -> None:
        scores, turn = self._scores, self._turn
        self._before.append((scores, self._total, turn, self._rolling, self._moves_made, self._result))
        if move == ROLL:
            self._moves_made += 1
            if self._moves_made == self.horizon:  # the last move: a draw, the die stays still
                self._result = 0
                self._total = 0  # (nothing is banked)
            else:
                self._rolling = True
            return
        if move == HOLD:
            self._moves_made += 1
            banked = scores[turn] + self._total
            self._scores = (banked, scores[1]) if turn == 0 else (scores[0], banked)
            self._total = 0
            self._turn = 1 - turn
            if banked >= self.goal:
                self._result = 1 if turn == 0 else -1
            elif self._moves_made == self.horizon:
                self._result = 0
            return
        self._rolling = False  # the die has decided
        if move == "1":  # the turn total is lost and the turn passes
            self._total = 0
            self._turn = 1 - turn
        else:
            self._total += int(move)

    def advance(self, move: str) -> int | None:
        # push() and result() in one call for the searchers (the move goes into the history)
        self._history.append(move)
        self.make_move(move)
        return self._result

    def unmake_move(self, move: str) -> None:
        (self._scores, self._total, self._turn, self._rolling, self._moves_made,
         self._result) = self._before.pop()  # fmt: skip

    # ---------------------------------------------------------------- heuristic
    def evaluate(self) -> int:
        """Return A's lead (the mover's turn total counted as banked) in hundredths of the goal."""
        scores, total = self._scores, self._total
        lead = scores[0] - scores[1] + (total if self._turn == 0 else -total)
        bound = self.evaluation_bound - 1
        return max(-bound, min(bound, lead * bound // self.goal))

    # --------------------------------------------------------------------- text
    def to_text(self) -> str:
        scores = self._scores
        return (
            f"{scores[0]}-{scores[1]} {PLAYER_LETTERS[self._turn]}+{self._total}"
            f"{'*' if self._rolling else ''} {self._moves_made} {self.ply}"
        )

    def render(self) -> str:
        """Return the scores, the turn total and what happens next."""
        scores, turn = self._scores, self._turn
        lines = [
            f"A {scores[0]:>3}{'  +' + str(self._total) if turn == 0 and self._result is None else ''}",
            f"B {scores[1]:>3}{'  +' + str(self._total) if turn == 1 and self._result is None else ''}",
            f"goal {self.goal}, {self._moves_made} of {self.horizon} moves made",
        ]
        if self._result is not None:
            lines.append("Game over")
        elif self._rolling:
            lines.append(f"{PLAYER_LETTERS[turn]} rolls the die")
        else:
            lines.append(f"{PLAYER_LETTERS[turn]} to move")
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return a grid of three rows: each player's name, score and turn total, then the
        moves made of the horizon and whether the die is rolling; the moves are buttons (at a roll,
        one per face, to enter a real die's roll)."""
        scores, turn, going = self._scores, self._turn, self._result is None
        symbols = []
        for player in (0, 1):
            total = f"+{self._total}" if player == turn and going else ""
            symbols += [PLAYER_LETTERS[player], str(scores[player]), total]
        symbols += [f"{self._moves_made}/{self.horizon}", "die rolls" if self._rolling else "", ""]
        moves = self.legal_moves()
        if self._rolling:
            extra = tuple((f"rolled {face}", face) for face in moves)
        else:
            extra = tuple((move.capitalize(), move) for move in moves)
        return BoardView(3, 3, tuple(symbols), (None,) * 9, extra)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register Pig."""
    registry.add_game(Pig)
