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

import copy as copying
import functools
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from gamesearch.boardview import BoardView
from gamesearch.errors import InvalidPositionError
from gamesearch.game import Game, Option, resolve_options
from gamesearch.plugins import hookimpl
from gamesearch.rules import CHANCE, PLAYERS, Rules

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


@functools.cache
def _faces(faces: int) -> tuple[str, ...]:
    return tuple(face for face, _ in _outcomes(faces))


#: each face's number, by its move
_FACE_VALUES = {str(face): face for face in range(1, 21)}
#: the players' moves below the goal, and once the goal is reached
_ROLL_OR_HOLD, _HOLD_ONLY = (ROLL, HOLD), (HOLD,)

#: a position: A's score, B's score, the turn total, the player (0 or 1), whether the die
#: is rolling, the players' moves made and the result (``None`` while the game goes on)
State = tuple[int, int, int, int, bool, int, "int | None"]
START: State = (0, 0, 0, 0, False, 0, None)


class Pig(Game[str]):
    """Pig: roll a die to build a turn total, hold to bank it, a 1 loses it; first to the goal
    wins."""

    name = "pig"
    player_names = PLAYER_LETTERS
    options = (
        Option("goal", int, 10, "points that win", minimum=1, maximum=100),
        Option("faces", int, 6, "sides of the die", minimum=2, maximum=20),
        Option(
            "horizon",
            int,
            12,
            "players' moves (rolls and holds) before the game ends in a draw",
            minimum=1,
            maximum=1000,
        ),
    )
    #: the full game is too big to search to the end: a few moves ahead, Star2 pruning
    default_searcher: ClassVar[str | None] = "star2:depth=4"

    def __init__(self, goal: int = 10, faces: int = 6, horizon: int = 12) -> None:
        settings = resolve_options(self.options, {"goal": goal, "faces": faces, "horizon": horizon})
        self.goal: int = settings["goal"]
        self.faces: int = settings["faces"]
        self.horizon: int = settings["horizon"]
        #: the whole position in one immutable tuple: a move replaces it, taking the move
        #: back puts the one before it back (the searchers' fast path)
        self._state: State = START
        #: the state before each move of the history
        self._before: list[State] = []
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
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidPositionError(
                f"position {text!r} must be the scores, the player to move and their turn total, "
                "'*' while the die rolls, the players' moves made and the ply, e.g. '3-0 B+4* 3 5'"
            )
        first, second, letter, total_text, star, played, ply = match.groups()
        game = cls(**resolve_options(cls.options, options))
        scores, turn = (int(first), int(second)), PLAYER_LETTERS.index(letter)
        total, rolling, made, origin = int(total_text), bool(star), int(played), int(ply)
        game._origin_ply = origin
        winners = [player for player in (0, 1) if scores[player] >= game.goal]
        problem = None
        if len(winners) == 2:
            problem = "both players have reached the goal"
        elif winners and (total or rolling or winners[0] == turn):
            problem = (
                f"{PLAYER_LETTERS[winners[0]]} has won, so the game is over with the other "
                "to move and no turn total"
            )
        elif made > game.horizon:
            problem = f"the players have made more moves than the {game.horizon} the game lasts"
        elif made == game.horizon and (rolling or total):
            problem = "the game ended with the last move, so no die rolls and no turn total is left"
        elif made + origin == 0 and (total or rolling):
            problem = "no move has been made, so there is no turn total"
        elif rolling and scores[turn] + total >= game.goal:
            problem = "the player has reached the goal and must hold, not roll"
        elif scores[turn] + total >= game.goal + game.faces:
            problem = f"a turn total of {total} is more than a player can roll to"
        elif origin > game.rules.max_plies:
            problem = f"no game lasts more than {game.rules.max_plies} plies"
        if problem is not None:
            raise InvalidPositionError(f"position {text!r}: {problem}")
        result = None
        if winners:
            result = 1 if winners[0] == 0 else -1
        elif made == game.horizon:
            result = 0
        game._state = (scores[0], scores[1], total, turn, rolling, made, result)
        return game

    @property
    def settings(self) -> dict[str, Any]:
        return {"goal": self.goal, "faces": self.faces, "horizon": self.horizon}

    def copy(self) -> Pig:
        """Return an independent position with the same state and history (states are immutable)."""
        twin = copying.copy(self)  # shares the options and the current state
        twin._history = self._history.copy()
        twin._before = self._before.copy()
        return twin

    # ------------------------------------------------------------ state queries
    @property
    def rules(self) -> Rules:
        return _rules(self.horizon)

    @property
    def ply(self) -> int:
        return self._origin_ply + len(self._history)

    def scores(self) -> tuple[int, int]:
        """Return A's and B's banked points."""
        state = self._state
        return state[0], state[1]

    def turn_total(self) -> int:
        """Return the points the player to move has rolled this turn (not yet banked)."""
        return self._state[2]

    # Hot path from here to retract(): one tuple read, one tuple built per move.
    def to_move(self) -> int:
        """Return the player to move (a :class:`Player`), or ``CHANCE`` while the die rolls."""
        state = self._state
        return CHANCE if state[4] else PLAYERS[state[3]]

    def legal_moves(self) -> Sequence[str]:
        first, second, total, turn, rolling, _, result = self._state
        if result is not None:
            return ()
        if rolling:
            return _faces(self.faces)
        if (second if turn else first) + total >= self.goal:
            return _HOLD_ONLY
        return _ROLL_OR_HOLD

    def chance_outcomes(self) -> Sequence[tuple[str, Fraction]]:
        """Return each face of the die with probability ``1/faces`` (at a roll).

        :raises ValueError: when the die is not rolling.
        """
        state = self._state
        if not state[4] or state[6] is not None:
            raise ValueError(f"the die is not rolling in {self.to_text()!r}")
        return _outcomes(self.faces)

    def result(self) -> int | None:
        return self._state[6]

    def key(self) -> tuple[State, int]:
        return self._state, self._origin_ply + len(self._history)

    def make_move(self, move: str) -> None:
        # Pig's advance() is the one place a move is made (called as Pig's: a subclass that
        # wraps advance() sees push() as one move); the history is push()'s to keep
        Pig.advance(self, move)
        self._history.pop()

    def advance(self, move: str) -> int | None:
        # push() and result() in one call for the searchers (the move goes into the history)
        self._history.append(move)
        state = self._state
        self._before.append(state)
        first, second, total, turn, _, made, _ = state
        if move == ROLL:
            made += 1
            if (
                made == self.horizon
            ):  # the last move: a draw, the die stays still, nothing is banked
                self._state = (first, second, 0, turn, False, made, 0)
                return 0
            self._state = (first, second, total, turn, True, made, None)
            return None
        if move == HOLD:
            made += 1
            if turn:
                second += total
                result = -1 if second >= self.goal else 0 if made == self.horizon else None
            else:
                first += total
                result = 1 if first >= self.goal else 0 if made == self.horizon else None
            self._state = (first, second, 0, 1 - turn, False, made, result)
            return result
        face = _FACE_VALUES[move]  # the die has decided
        if face == 1:  # the turn total is lost and the turn passes
            self._state = (first, second, 0, 1 - turn, False, made, None)
        else:
            self._state = (first, second, total + face, turn, False, made, None)
        return None

    def unmake_move(self, move: str) -> None:
        self._state = self._before.pop()

    def retract(self, move: str) -> None:
        self._history.pop()
        self._state = self._before.pop()

    # ---------------------------------------------------------------- heuristic
    #: the Heuristic capability's bound (the framework's default, declared with evaluate)
    evaluation_bound = 100

    def evaluate(self) -> int:
        """Return A's lead (the mover's turn total counted as banked) in hundredths of the goal."""
        first, second, total, turn, _, _, _ = self._state
        lead = first - second + (-total if turn else total)
        bound = self.evaluation_bound - 1
        return max(-bound, min(bound, lead * bound // self.goal))

    # --------------------------------------------------------------------- text
    def to_text(self) -> str:
        first, second, total, turn, rolling, made, _ = self._state
        rolled = "*" if rolling else ""
        return f"{first}-{second} {PLAYER_LETTERS[turn]}+{total}{rolled} {made} {self.ply}"

    def render(self) -> str:
        """Return the scores, the turn total and what happens next."""
        first, second, total, turn, rolling, made, result = self._state
        lines = [
            f"A {first:>3}{'  +' + str(total) if turn == 0 and result is None else ''}",
            f"B {second:>3}{'  +' + str(total) if turn == 1 and result is None else ''}",
            f"goal {self.goal}, {made} of {self.horizon} moves made",
        ]
        if result is not None:
            lines.append("Game over")
        elif rolling:
            lines.append(f"{PLAYER_LETTERS[turn]} rolls the die")
        else:
            lines.append(f"{PLAYER_LETTERS[turn]} to move")
        return "\n".join(lines)

    def board_view(self) -> BoardView:
        """Return a grid of three rows: each player's name, score and turn total, then the
        moves made of the horizon and whether the die is rolling; the moves are buttons (at a roll,
        one per face, to enter a real die's roll)."""
        first, second, total, turn, rolling, made, result = self._state
        symbols = []
        for player, score in enumerate((first, second)):
            shown = f"+{total}" if player == turn and result is None else ""
            symbols += [PLAYER_LETTERS[player], str(score), shown]
        symbols += [f"{made}/{self.horizon}", "die rolls" if rolling else "", ""]
        moves = self.legal_moves()
        if rolling:
            extra = tuple((f"rolled {face}", face) for face in moves)
        else:
            extra = tuple((move.capitalize(), move) for move in moves)
        return BoardView(3, 3, tuple(symbols), (None,) * 9, extra)


@hookimpl
def gamesearch_register_games(registry: Any) -> None:
    """Register Pig."""
    registry.add_game(Pig)
