"""State checks of the conformance kit: what a position says of itself (its rules, whose
turn, its result or utilities, its heuristic) agrees with its declarations.

:func:`check_state` is one step of :func:`gamesearch.testing.protocol.check_position`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamesearch import capabilities
from gamesearch.game import Game
from gamesearch.rules import (
    CHANCE,
    PLAYERS,
    Outcome,
    Player,
    Rules,
    Scoring,
    final_utilities,
    proven_value,
)
from gamesearch.rules import outcome as outcome_of
from gamesearch.testing.capability_checks import check_chance_outcomes
from gamesearch.testing.snapshot import Snapshot, fail

#: what the framework works out from a game's rules, with where it reads it: a game
#: that still sets one itself (the old protocol's way) must agree with its rules, or one
#: searcher reads one figure and another the other
DERIVED_FROM_RULES: dict[str, tuple[Callable[[Rules], object], str]] = {
    "max_plies": (lambda rules: rules.max_plies, "rules.max_plies"),
    "value_scale": (lambda rules: rules.scale, "the value scale of the rules"),
    "win_score": (lambda rules: rules.scale.win, "the value scale of the rules"),
    "eval_bound": (lambda rules: rules.scale.heuristic_bound, "the value scale of the rules"),
}


def _check_derived(game: Game[Any], text: str, rules: Rules) -> None:
    """A figure the framework derives from the rules, when the game's class sets it too
    (a class attribute or a property of its own), must be the derived one."""
    for name, (derive, source) in DERIVED_FROM_RULES.items():
        owner = next((cls for cls in type(game).__mro__ if name in vars(cls)), None)
        if owner is None or owner.__module__ == Game.__module__:
            continue
        said, derived = getattr(game, name), derive(rules)
        if said != derived:
            kind = "property" if isinstance(vars(owner)[name], property) else "class attribute"
            raise fail(
                game,
                text,
                f"the {kind} {owner.__name__}.{name} says {said!r}, but the searchers read "
                f"{derived!r} from {source}; delete the {kind} (the rules declare it)",
            )


def check_state(game: Game[Any], before: Snapshot) -> None:
    """The position's rules, turn, result and values must agree with its declarations.

    :raises ConformanceError: naming the position and the broken promise.
    """
    text, result = before.text, before.result
    rules = game.rules
    if not isinstance(rules, Rules):
        raise fail(game, text, f"rules is {rules!r}, not a Rules declaration")
    _check_derived(game, text, rules)
    mover = before.to_move
    is_chance = rules.chance and mover == CHANCE and before.result is None
    if not is_chance and (
        not isinstance(mover, int) or isinstance(mover, bool) or not 0 <= mover < rules.players
    ):
        chance_too = f", or {CHANCE} (CHANCE) at a chance position" if rules.chance else ""
        raise fail(
            game,
            text,
            f"to_move() returned {mover!r}; the rules declare {rules.players} players (0 to "
            f"{rules.players - 1}{chance_too})",
        )
    if not is_chance and rules.players == 2 and not isinstance(mover, Player):
        raise fail(
            game,
            text,
            f"to_move() returned the bare {type(mover).__name__} {mover!r}; a game of two "
            f"players returns Player.FIRST or Player.SECOND (from gamesearch.rules; "
            f"PLAYERS[{mover!r}] is {PLAYERS[mover]!r}), so that game.to_move().sign and "
            ".opponent work",
        )
    if is_chance:
        check_chance_outcomes(game, before)
    if not 0 <= before.ply <= rules.max_plies:
        raise fail(
            game, text, f"ply {before.ply} is outside 0..max_plies ({rules.max_plies}) of the rules"
        )
    if rules.utilities:
        _check_utilities(game, before)
        return
    low, high = rules.result_range
    if result is not None and (
        not isinstance(result, int) or isinstance(result, bool) or not low <= result <= high
    ):
        raise fail(
            game,
            text,
            f"result() returned {result!r}; expected None or an integer in the declared "
            f"result_range {low}..{high}",
        )
    assert not isinstance(result, tuple)
    sign = None if result is None else (result > 0) - (result < 0)
    outcome = outcome_of(game)
    if outcome != (None if sign is None else Outcome(sign)) or game.is_over() != (sign is not None):
        raise fail(game, text, f"outcome() {outcome!r} disagrees with result() {result!r}")
    if result is None:
        _check_unfinished(game, before)
    else:
        _check_finished(game, before, result)


def _is_utility_tuple(
    value: object, players: int, low: float, high: float, *, strictly: bool = False
) -> bool:
    """Return whether ``value`` is a tuple of ``players`` integers inside ``low..high``
    (the open interval when ``strictly``)."""
    if not isinstance(value, tuple) or len(value) != players:
        return False
    for item in value:
        if not isinstance(item, int) or isinstance(item, bool):
            return False
        if not (low < item < high if strictly else low <= item <= high):
            return False
    return True


def _check_utilities(game: Game[Any], before: Snapshot) -> None:
    """A game whose rules declare utilities: one integer per player, inside the range,
    adding up to ``constant_sum`` when declared; ``evaluate()`` one integer per player."""
    text, result, rules = before.text, before.result, game.rules
    low, high = rules.result_range
    players = rules.players
    if result is not None:
        if not _is_utility_tuple(result, players, low, high):
            raise fail(
                game,
                text,
                f"result() returned {result!r}; the rules declare utilities: expected None or a "
                f"tuple of {players} integers in the declared result_range {low}..{high}",
            )
        assert isinstance(result, tuple)
        if rules.constant_sum is not None and sum(result) != rules.constant_sum:
            raise fail(
                game,
                text,
                f"result() returned {result!r}, which adds up to {sum(result)}, not the declared "
                f"constant_sum {rules.constant_sum}",
            )
        if before.legal_moves:
            raise fail(
                game, text, f"the game is over but legal_moves() returned {before.legal_moves!r}"
            )
        if final_utilities(game) != result:
            raise fail(
                game,
                text,
                f"final_utilities() {final_utilities(game)!r} is not result() {result!r}",
            )
        return
    if not before.legal_moves:
        raise fail(game, text, "the game is not over but legal_moves() is empty")
    estimate = capabilities.heuristic(game)()
    bound = capabilities.heuristic_bound(type(game))
    if not _is_utility_tuple(estimate, players, -bound, bound, strictly=True):
        raise fail(
            game,
            text,
            f"evaluate() returned {estimate!r}; the rules declare utilities: expected a tuple of "
            f"{players} integers, each inside the open interval ({-bound}, {bound}) the game "
            "declares (evaluation_bound)",
        )


def _check_unfinished(game: Game[Any], before: Snapshot) -> None:
    text = before.text
    if not before.legal_moves:
        raise fail(game, text, "the game is not over but legal_moves() is empty")
    value = capabilities.heuristic(game)()
    bound = capabilities.heuristic_bound(type(game))
    if not isinstance(value, int) or isinstance(value, bool):
        raise fail(game, text, f"evaluate() returned {value!r}, not an int")
    if not -bound < value < bound:
        raise fail(
            game,
            text,
            f"evaluate() returned {value}, outside the open interval ({-bound}, {bound}) the "
            "game declares (evaluation_bound)",
        )
    try:
        score = proven_value(game)
    except ValueError:
        return
    raise fail(game, text, f"proven_value() returned {score!r} although the game is not over")


def _check_finished(game: Game[Any], before: Snapshot, result: int) -> None:
    text = before.text
    if before.legal_moves:
        raise fail(
            game, text, f"the game is over but legal_moves() returned {before.legal_moves!r}"
        )
    scale = game.rules.scale
    for scoring in Scoring:
        score = proven_value(game, scoring)
        # a value scored by utility is the result itself
        stands = score if scale.resolve(scoring) is Scoring.UTILITY else scale.margin(score)
        if stands != result:
            raise fail(
                game,
                text,
                f"score({scoring.value}) returned {score!r}, which stands for the result "
                f"{stands!r}, not result() {result!r}",
            )
