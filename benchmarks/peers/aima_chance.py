"""aima-python (the ``aima`` package): ``expect_minmax`` (*AIMA* Figure 5.11) on Pig.

Pig is written here as aima's ``StochasticGame``, rule for rule as ``games/pig.py``
plays it (the tests check the values and node counts against the framework's): its
states are immutable named tuples, as aima's own games keep them. ``expect_minmax``
has no depth limit, so it searches to the end of the game, and it returns only the
move: its value is read in a second, untimed run (see :func:`value_and_move`).
``python -m benchmarks.chance`` runs it; it has no row in the main table, so it is
not one of :data:`benchmarks.peers.ADAPTERS`.

aima's search assumes backgammon's shape and has two slips; the game below works
around each, and aima's code runs as it ships:

- every move is followed by a chance node (the dice before the next move): a hold,
  after which no die is rolled, gets one sure outcome, ``None``, that changes nothing;
- the loop over a chance node's outcomes hands each outcome the state the previous
  outcome produced (``res_state`` is reused): :meth:`PigStochastic.outcome` therefore
  applies a face to the state the die was rolled in, which each outcome's state keeps;
- the probability-weighted sum is divided by the number of outcomes once more:
  :meth:`PigStochastic.probability` gives each face of the fair die (and the one sure
  outcome) the weight 1, so the mean comes out right.
"""

from __future__ import annotations

import builtins
import importlib
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

LIBRARY = "aima-python"
REQUIRES = "aima"
ROLL, HOLD = "roll", "hold"


class PigState(NamedTuple):
    """A position: the player to move (the one who rolled, while the die rolls), both
    scores, the turn total, the players' moves made, whether the die is rolling, the
    result once over, and (for a position the die's face made) the position it was rolled in."""

    to_move: int
    first: int
    second: int
    total: int
    made: int
    rolling: bool
    result: int | None
    rolled_in: PigState | None = None


def stochastic_game(goal: int, faces: int, horizon: int) -> Any:
    """Return Pig (first to ``goal``, a ``faces``-sided die, ``horizon`` players' moves)
    as an instance of a subclass of aima's ``StochasticGame``.

    :raises ImportError: when aima-python is not installed.
    """
    StochasticGame: Any = importlib.import_module("aima.games").StochasticGame  # (untyped)

    die = tuple(str(face) for face in range(1, faces + 1))
    sure = (None,)

    class PigStochastic(StochasticGame):  # type: ignore[misc]
        """Pig, as aima's games are written: a method per question, a new state per move."""

        def __init__(self) -> None:
            self.initial = PigState(0, 0, 0, 0, 0, False, None)
            self.generated = 0  #: positions made by moves and the die's faces

        def actions(self, state: PigState) -> list[str]:
            banked = state.second if state.to_move else state.first
            return [HOLD] if banked + state.total >= goal else [ROLL, HOLD]

        def result(self, state: PigState, move: str) -> PigState:
            self.generated += 1
            made = state.made + 1
            if move == ROLL:
                if made == horizon:  # the last move: a draw
                    return state._replace(total=0, made=made, result=0, rolled_in=None)
                return state._replace(made=made, rolling=True, rolled_in=None)
            first, second = state.first, state.second
            if state.to_move:
                second += state.total
                result = -1 if second >= goal else 0 if made == horizon else None
            else:
                first += state.total
                result = 1 if first >= goal else 0 if made == horizon else None
            return PigState(1 - state.to_move, first, second, 0, made, False, result)

        def terminal_test(self, state: PigState) -> bool:
            return state.result is not None

        def utility(self, state: PigState, player: int) -> int:
            assert state.result is not None
            return state.result if player == 0 else -state.result

        def chances(self, state: PigState) -> tuple[str | None, ...]:
            return die if state.rolling else sure

        def outcome(self, state: PigState, chance: str | None) -> PigState:
            rolled_in = state.rolled_in or state  # (aima hands on the previous outcome's state)
            if chance is None:
                return rolled_in._replace(rolled_in=rolled_in)
            self.generated += 1
            if chance == "1":  # the turn total is lost, the turn passes
                return PigState(
                    1 - rolled_in.to_move,
                    rolled_in.first,
                    rolled_in.second,
                    0,
                    rolled_in.made,
                    False,
                    None,
                    rolled_in,
                )
            return rolled_in._replace(
                total=rolled_in.total + int(chance), rolling=False, rolled_in=rolled_in
            )

        def probability(self, chance: str | None) -> int:
            return 1  # a fair die: aima divides by the number of outcomes itself

    return PigStochastic()


def search(goal: int, faces: int, horizon: int) -> Callable[[], Any]:
    """Return a run of ``expect_minmax`` from the start of this Pig (it returns the move).

    :raises ImportError: when aima-python is not installed.
    """
    expect_minmax = importlib.import_module("aima.games").expect_minmax
    game = stochastic_game(goal, faces, horizon)
    return lambda: expect_minmax(game.initial, game)


def value_and_move(goal: int, faces: int, horizon: int) -> tuple[float, Hashable, int]:
    """Return the value (first player's view), the move ``expect_minmax`` chooses from
    the start and the positions it generates (the start included), in one untimed run.

    The value is the largest of the root moves' values, which ``expect_minmax`` works
    out with ``max(..., key=...)`` and does not return: for this run the module's
    ``max`` is one that keeps it (every other call is the built-in's).

    :raises ImportError: when aima-python is not installed.
    """
    games: Any = importlib.import_module("aima.games")
    game = stochastic_game(goal, faces, horizon)
    found: list[float] = []

    def keeping_max(*arguments: Any, key: Callable[[Any], float] | None = None, **rest: Any) -> Any:
        if key is None:
            return builtins.max(*arguments, **rest)
        choices: Iterable[Any] = arguments[0]
        scored = [(key(choice), choice) for choice in choices]
        best = builtins.max(value for value, _ in scored)
        found.append(best)
        return next(choice for value, choice in scored if value == best)

    games.max = keeping_max  # found before the built-in by the module's code
    try:
        move = games.expect_minmax(game.initial, game)
    finally:
        del games.max
    return float(found[-1]), move, game.generated + 1
