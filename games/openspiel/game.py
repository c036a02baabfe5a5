"""One OpenSpiel game as a gamesearch game: :class:`OpenSpielGame` and its moves.

Each registered OpenSpiel game gets a subclass of :class:`OpenSpielGame` (made by
:func:`game_class`) whose options are the game's parameters. A position holds one
``pyspiel.State`` and plays on it:

- **moves** are OpenSpiel's actions (:class:`~.moves.Action`, an ``int``) written in
  OpenSpiel's own notation (``action_to_string``, on first use); a move is read back from
  that text, or through the game's ``string_to_action`` (chess takes ``e2e4`` besides ``e4``);
- **undo** is the game's ``undo_action`` when it offers one that puts the state back,
  else the position keeps the state before each move (a clone) and returns to it;
- **positions** are written as OpenSpiel's action numbers, separated by spaces (its
  ``state.serialize()``, one number a line, reads back too, as does the text of
  ``pyspiel.serialize_game_and_state`` for the same game);
- **chance** outcomes get exact probabilities (:func:`exact_probabilities`);
- **results** are the returns (:func:`whole_returns`): the first player's return in a
  two-player zero-sum game, else one utility per player.

Needs the ``openspiel`` extra; :mod:`gamesearch_games.openspiel` imports this module
only when ``pyspiel`` imports.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import random
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs
import pyspiel

from gamesearch.errors import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    UnsupportedGameError,
)
from gamesearch.game import Game, Option, resolve_options
from gamesearch.rules import CHANCE, PLAYERS, Rules

from . import PREFIX
from .moves import Action, unwritten_actions

#: the largest denominator an OpenSpiel probability is read with
LARGEST_DENOMINATOR = 10**6
#: how many random games of how many plies the probe of ``undo_action`` plays
_UNDO_PROBE_GAMES, _UNDO_PROBE_PLIES = 4, 150
_GAME_TYPE = pyspiel.GameType
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_OPTION_TYPES = (bool, int, float, str)


@contextlib.contextmanager
def quiet_openspiel() -> Iterator[None]:
    """Hide what OpenSpiel's C++ code prints on standard error while the block runs
    (each refusal it raises as an exception is printed there too)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def exact_probabilities(
    probabilities: Sequence[float], where: Callable[[], str]
) -> tuple[Fraction, ...]:
    """Return OpenSpiel's chance probabilities as fractions (each the nearest one with a
    denominator up to :data:`LARGEST_DENOMINATOR`).

    :raises UnsupportedGameError: when the fractions do not sum to exactly 1 (``where()``
        names the position).
    """
    fractions = _fractions(tuple(probabilities))
    if sum(fractions) != 1:
        raise UnsupportedGameError(
            f"the chance probabilities of {where()} ({', '.join(map(str, probabilities))}) are "
            "no exact fractions that sum to 1"
        )
    return fractions


@functools.lru_cache(maxsize=4096)
def _fractions(probabilities: tuple[float, ...]) -> tuple[Fraction, ...]:
    return tuple(Fraction(p).limit_denominator(LARGEST_DENOMINATOR) for p in probabilities)


def whole_returns(returns: Sequence[float], unit: int, where: Callable[[], str]) -> tuple[int, ...]:
    """Return OpenSpiel's ``returns`` times ``unit``, as integers.

    :raises UnsupportedGameError: when one is not a whole number (``where()`` names
        the position).
    """
    scaled = []
    for value in returns:
        whole = round(value * unit)
        if not math.isclose(value * unit, whole, abs_tol=1e-9):
            raise UnsupportedGameError(
                f"the returns {list(returns)} of {where()} are not whole multiples of 1/{unit}"
            )
        scaled.append(whole)
    return tuple(scaled)


@attrs.frozen(eq=False)  # (one per game and parameters: told apart by identity)
class Bridge:
    """One OpenSpiel game loaded with one set of parameters, and what the bridge read of it."""

    game: Any  #: the ``pyspiel.Game``
    rules: Rules
    #: results are OpenSpiel's returns times this (1 unless more than two players share
    #: the stakes: then ``lcm(1, ..., players - 1)``, so a loss split among the others is whole)
    unit: int
    single: bool  #: true for a two-player zero-sum game: one first-player result


def _unit(players: int) -> int:
    return math.lcm(*range(1, players)) if players > 2 else 1


@functools.cache
def bridge(short_name: str, parameters: tuple[tuple[str, Any], ...]) -> Bridge:
    """Return the OpenSpiel game ``short_name`` loaded with ``parameters`` (name, value pairs).

    :raises InvalidOptionError: when OpenSpiel refuses the parameters.
    :raises UnsupportedGameError: when the loaded game is not sequential with perfect
        information, or its chance events are sampled, not listed.
    """
    try:
        with quiet_openspiel():
            game = pyspiel.load_game(short_name, dict(parameters))
    except pyspiel.SpielError as error:
        raise InvalidOptionError(f"game {PREFIX + short_name!r}: OpenSpiel says: {error}") from None
    kind = game.get_type()
    if (
        kind.dynamics != _GAME_TYPE.Dynamics.SEQUENTIAL
        or kind.information != _GAME_TYPE.Information.PERFECT_INFORMATION
    ):
        raise UnsupportedGameError(
            f"game {PREFIX + short_name!r} with these options is not a game of turns with "
            "perfect information"
        )
    if kind.chance_mode == _GAME_TYPE.ChanceMode.SAMPLED_STOCHASTIC:
        raise UnsupportedGameError(
            f"game {PREFIX + short_name!r} draws its chance events without listing them with "
            "their probabilities"
        )
    players = game.num_players()
    unit = _unit(players)
    single = players == 2 and kind.utility == _GAME_TYPE.Utility.ZERO_SUM
    low = math.floor(game.min_utility() * unit)
    high = math.ceil(game.max_utility() * unit)
    constant_sum = None
    if not single and kind.utility in (
        _GAME_TYPE.Utility.ZERO_SUM,
        _GAME_TYPE.Utility.CONSTANT_SUM,
    ):
        constant_sum = round(game.utility_sum() * unit)
    rules = Rules(
        max_plies=game.max_game_length() + game.max_chance_nodes_in_history(),
        players=players,
        chance=kind.chance_mode != _GAME_TYPE.ChanceMode.DETERMINISTIC,
        result_range=(low, high),
        utilities=not single,
        constant_sum=constant_sum,
    )
    return Bridge(game, rules, unit, single)


def _seen(state: Any) -> tuple[Any, ...]:
    """Return what a position shows of a state: its drawing, history, returns so far,
    player, moves and their texts."""
    if state.is_terminal():
        return (str(state), state.history(), state.returns())
    player = state.current_player()
    actions = state.legal_actions()
    texts = [state.action_to_string(player, action) for action in actions]
    # (the returns so far too: morpion solitaire's undo kept the points of undone moves)
    return (str(state), state.history(), state.returns(), player, actions, texts)


@functools.cache
def undo_works(loaded: Bridge) -> bool:
    """Return whether the game's ``undo_action`` takes back each move of a few random games
    exactly, used as a position uses it (the moves' texts read before each move).

    Some games' ``undo_action`` is missing, and some leave a trace (chess's, once the moves
    have been written): those positions keep a clone of the state before each move instead.
    """
    try:
        with quiet_openspiel():  # (chess prints a complaint as it undoes)
            return _undo_probe(loaded.game, random.Random(0))
    except pyspiel.SpielError:  # (checkers' state breaks after some undone moves)
        return False


def _undo_probe(game: Any, chooser: random.Random) -> bool:
    """Play random games forward, then take every move back: each state must be seen again
    as it was (some games' undo is right once, wrong after several)."""
    for _ in range(_UNDO_PROBE_GAMES):
        state = game.new_initial_state()
        line: list[tuple[tuple[Any, ...], int, int]] = []
        while not state.is_terminal() and len(line) < _UNDO_PROBE_PLIES:
            seen, player = _seen(state), state.current_player()
            if state.is_chance_node():
                action = chooser.choice([action for action, _ in state.chance_outcomes()])
            else:
                action = chooser.choice(state.legal_actions())
            line.append((seen, player, action))
            state.apply_action(action)
        _seen(state)
        for seen, player, action in reversed(line):
            state.undo_action(player, action)
            if _seen(state) != seen:
                return False
    return True


_UNKNOWN: Any = object()


class OpenSpielGame(Game[Action]):
    """A game of OpenSpiel's (the base of one class per game; see :func:`game_class`)."""

    #: OpenSpiel's name of the game (``hex``)
    short_name: ClassVar[str]

    def __init__(self, **options: Any) -> None:
        self._settings = resolve_options(self.options, options, owner=f"game {self.name!r}")
        # OpenSpiel is handed the options that differ from their defaults only: a game may
        # read one parameter only when another is left out (hex: board_size sets
        # num_rows and num_cols when they are not given)
        given = tuple(
            (option.name, self._settings[option.name])
            for option in self.options
            if self._settings[option.name] != option.default
        )
        self._bridge = bridge(self.short_name, given)
        self._state: Any = self._bridge.game.new_initial_state()
        #: who made each move of the history (``undo_action`` asks)
        self._movers: list[int] = []
        #: the state before each move of the history (when the game cannot undo)
        self._before: list[Any] = []
        #: whether the game's undo_action is used (probed at the first move or moves listed)
        self._undoes: bool | None = None
        #: the legal moves and result worked out before each move of the history, if any
        self._known: list[tuple[Any, Any]] = []
        self._moves: tuple[Action, ...] | None = None
        #: the legal moves by their stripped text, with the moves they were read from
        self._by_text: tuple[Sequence[Action], dict[str, Action]] | None = None
        self._result: Any = _UNKNOWN
        #: what to_text() returns, kept up as moves are made and taken back (written again
        #: at each call, a game of thousands of plies spent its time joining numbers)
        self._text = ""

    @property
    def rules(self) -> Rules:
        return self._bridge.rules

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self._settings)

    @property
    def state(self) -> Any:
        """Return the position as OpenSpiel's ``pyspiel.State`` (a clone: changing it
        changes nothing here)."""
        return self._state.clone()

    def serialize(self) -> str:
        """Return the position as ``pyspiel.serialize_game_and_state`` writes it (read back
        by :meth:`from_text` and by ``pyspiel.deserialize_game_and_state``)."""
        return str(pyspiel.serialize_game_and_state(self._bridge.game, self._state))

    # ------------------------------------------------------------------ core
    def _is_over(self) -> bool:
        """Return whether the game has ended: OpenSpiel says so, or it has run as long as
        OpenSpiel's ``max_game_length`` says any game runs (some run on past it: maedn)."""
        return self._state.is_terminal() or len(self._history) >= self._bridge.rules.max_plies

    def to_move(self) -> int:
        """Return the player to move: a :class:`~gamesearch.rules.Player` in a game of two,
        the player's number in a game of more, ``CHANCE`` at a chance node."""
        player = int(self._state.current_player())
        if player == _TERMINAL or self._is_over():
            player = 0
        elif player < 0:
            return player  # OpenSpiel's chance player is CHANCE (-1)
        return PLAYERS[player] if self._bridge.rules.players == 2 else player

    def legal_moves(self) -> Sequence[Action]:
        moves = self._moves
        if moves is None:
            state = self._state
            if self._is_over():
                moves = ()
            else:  # (at a chance node the player is CHANCE, its actions the outcomes)
                moves = self._actions(state.current_player(), state.legal_actions())
            self._moves = moves
        return moves

    def _actions(self, player: int, numbers: Sequence[int]) -> tuple[Action, ...]:
        """Return the actions ``numbers`` of ``player`` here, each written on first use by
        a state that never changes: this one where moves replace it by a clone, else (where
        ``undo_action`` changes it in place) a clone of it. (A search reads no text.)"""
        state = self._state
        return unwritten_actions(state.clone() if self._uses_undo() else state, player, numbers)

    def _uses_undo(self) -> bool:
        """Return whether moves are taken back by ``undo_action`` (probed once per game)."""
        undoes = self._undoes
        if undoes is None:
            undoes = self._undoes = undo_works(self._bridge)
        return undoes

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        """Return each outcome of the chance position with its exact probability.

        :raises ValueError: when the position is no chance position.
        :raises UnsupportedGameError: when OpenSpiel's probabilities are no exact fractions
            summing to 1.
        """
        state = self._state
        if self._is_over() or not state.is_chance_node():
            raise ValueError(f"no chance event is due in {self.to_text()!r}")
        outcomes = state.chance_outcomes()
        fractions = exact_probabilities([p for _, p in outcomes], self._where)
        moves = self._actions(CHANCE, [action for action, _ in outcomes])
        return tuple(zip(moves, fractions, strict=True))

    def make_move(self, move: Action) -> None:
        state = self._state
        self._movers.append(int(state.current_player()))
        undoes = self._undoes
        if undoes is None:
            undoes = self._uses_undo()
        if not undoes:
            self._before.append(state)
            state = self._state = state.clone()
        state.apply_action(int(move))
        self._known.append((self._moves, self._result))
        self._moves, self._result = None, _UNKNOWN
        self._text = f"{self._text} {int(move)}" if self._text else str(int(move))

    def unmake_move(self, move: Action) -> None:
        mover = self._movers.pop()
        if self._undoes:
            self._state.undo_action(mover, int(move))
        else:
            self._state = self._before.pop()
        self._moves, self._result = self._known.pop()
        self._text = self._text.rpartition(" ")[0]

    def result(self) -> Any:  # an int, or one utility per player (a tuple), or None
        result = self._result
        if result is _UNKNOWN:
            result = None
            if self._is_over():  # (the returns so far, where a game runs too long)
                returns = whole_returns(self._state.returns(), self._bridge.unit, self._where)
                result = returns[0] if self._bridge.single else returns
            self._result = result
        return result

    def key(self) -> Hashable:
        # (the moves from the start: OpenSpiel's drawing of a state may leave out what
        # decides its future, a move counter or a repetition)
        return tuple(self._history)

    def copy(self) -> OpenSpielGame:
        """Return an independent position with the same state and history."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._movers = self._movers.copy()
        twin._before = self._before.copy()  # (kept states are never changed)
        twin._known = self._known.copy()
        twin._state = self._state.clone()
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.short_name, self._settings, [int(m) for m in self._history]))

    # ------------------------------------------------------------------ text
    @classmethod
    def new(cls, **options: Any) -> OpenSpielGame:
        """Return the start with these options.

        :raises InvalidOptionError: for an unknown option or a bad value, or parameters
            OpenSpiel refuses.
        """
        game = super().new(**options)
        assert isinstance(game, OpenSpielGame)
        return game

    @classmethod
    def from_text(cls, text: str, **options: Any) -> OpenSpielGame:
        """Return the position after the moves of ``text`` from the start.

        ``text`` is OpenSpiel's action numbers separated by spaces or lines (what
        :meth:`to_text` and ``state.serialize()`` write; a move in OpenSpiel's notation
        may stand for a number when it has no space), or the text of
        ``pyspiel.serialize_game_and_state`` of this game with these options.

        :raises InvalidPositionError: naming the move that cannot be played.
        :raises InvalidOptionError: for a bad option.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                f"a position must be text, not {type(text).__name__}: {text!r}"
            )
        game = cls.new(**options)
        words = game._serialized_moves(text) if "[State]" in text else text.split()
        for index, word in enumerate(words):
            try:
                move = game._legal_action(int(word)) if _is_number(word) else game.parse_move(word)
                game.push(move)
            except (InvalidMoveError, pyspiel.SpielError, ValueError) as error:
                raise InvalidPositionError(
                    f"position {text!r}: move {index + 1} ({word!r}) cannot be played: {error}"
                ) from None
        return game

    def _serialized_moves(self, text: str) -> list[str]:
        head, _, moves = text.partition("[State]")
        named = head.partition("[Game]")[2].strip()
        expected = str(self._bridge.game)
        if named != expected:
            raise InvalidPositionError(
                f"the serialized position is of the game {named!r}, not {expected!r}"
            )
        return moves.split()

    def _where(self) -> str:
        return f"position {self.to_text()!r}"

    def _legal_action(self, number: int) -> Action:
        """Return the legal action ``number`` (with its text).

        :raises InvalidMoveError: when it is not legal here.
        """
        state = self._state
        if state.is_terminal():
            raise InvalidMoveError(f"the game is over: action {number} is not legal")
        if number not in state.legal_actions():  # (the outcomes, at a chance node)
            raise InvalidMoveError(f"action {number} is not legal here")
        return Action(number, state.action_to_string(state.current_player(), number))

    def to_text(self) -> str:
        """Return the moves from the start as OpenSpiel's action numbers, separated by spaces."""
        return self._text

    def format_move(self, move: Action) -> str:
        text = getattr(move, "text", None)
        if text is None:  # a plain number: its text where it is legal now
            text = next((m.text for m in self.legal_moves() if m == move), str(move))
        return str(text)

    def parse_move(self, text: str) -> Action:
        """Return the legal move written ``text`` in OpenSpiel's notation (or in another
        the game's ``string_to_action`` reads).

        :raises InvalidMoveError: naming the text and the legal moves.
        """
        wanted = str(text).strip()
        moves = self.legal_moves()
        found = self._moves_by_text(moves).get(wanted)
        if found is not None:
            return found
        if moves and not self._state.is_chance_node():
            try:
                with quiet_openspiel():
                    action = self._state.string_to_action(wanted)
            except (pyspiel.SpielError, ValueError, TypeError):
                action = None
            for move in moves:
                if move == action:
                    return move
        valid = ", ".join(move.text for move in moves) or "none"
        raise InvalidMoveError(f"{text!r} is not a legal move here; legal moves: {valid}")

    def _moves_by_text(self, moves: Sequence[Action]) -> dict[str, Action]:
        """Return the moves ``moves`` by their stripped text (the first of each), built once."""
        known = self._by_text
        if known is None or known[0] is not moves:
            table: dict[str, Action] = {}
            for move in moves:
                table.setdefault(move.text.strip(), move)
            known = self._by_text = (moves, table)
        return known[1]

    def render(self) -> str:
        """Return OpenSpiel's drawing of the state."""
        return str(self._state)


def _is_number(word: str) -> bool:
    return word.isdigit() or (word.startswith("-") and word[1:].isdigit())


def _rebuild(short_name: str, settings: dict[str, Any], actions: list[int]) -> OpenSpielGame:
    """Return the position of ``short_name`` after ``actions`` (how a position unpickles)."""
    game = game_class(short_name).new(**settings)
    for action in actions:
        game.push(game._legal_action(action))
    return game


def _identifier(short_name: str) -> str:
    return "OpenSpiel_" + "".join(c if c.isalnum() else "_" for c in short_name)


def _option(name: str, default: Any) -> Option:
    words = name.replace("_", " ")
    return Option(name, type(default), default, f"{words} (OpenSpiel's parameter {name!r})")


def _default_searcher(rules: Rules) -> str | None:
    """Return the searcher the command line uses by default on a game with ``rules``:
    ``None`` (the framework's alpha-beta) for two players without chance, Monte Carlo
    within two seconds where it takes the game, Star2 a few plies deep for chance with
    margins. A game of chance with utilities (2048, pig of three) has no searcher: the
    command line says why."""
    if rules.utilities:
        return None if rules.chance else "mcts:seconds=2"
    if not rules.chance:
        return None
    return "mcts:seconds=2" if rules.result_range == (-1, 1) else "star2:depth=2"


@functools.cache
def game_class(short_name: str) -> type[OpenSpielGame]:
    """Return the gamesearch game class of the OpenSpiel game ``short_name`` (made once).

    :raises UnsupportedGameError: when OpenSpiel has no such game, or one of its
        parameters is of a type options cannot carry.
    """
    kinds = {kind.short_name: kind for kind in pyspiel.registered_games()}
    if short_name not in kinds:
        raise UnsupportedGameError(f"OpenSpiel has no game {short_name!r}")
    kind = kinds[short_name]
    parameters = dict(kind.parameter_specification)
    odd = [name for name, value in parameters.items() if not isinstance(value, _OPTION_TYPES)]
    if odd:
        raise UnsupportedGameError(
            f"OpenSpiel's {short_name!r} has parameters that are no number, switch or text: "
            + ", ".join(odd)
        )
    identifier = _identifier(short_name)
    try:
        searcher = _default_searcher(bridge(short_name, ()).rules)
    except (InvalidOptionError, UnsupportedGameError):  # (refused again when played)
        searcher = None
    cls = type(
        identifier,
        (OpenSpielGame,),
        {
            "__doc__": f"{kind.long_name}, as OpenSpiel plays it (its game {short_name!r}).",
            "__module__": __name__,
            "name": PREFIX + short_name,
            "short_name": short_name,
            "options": tuple(_option(name, value) for name, value in sorted(parameters.items())),
            "default_searcher": searcher,
        },
    )
    cls.__qualname__ = identifier
    globals()[identifier] = cls  # (pickle finds the class by its name)
    return cls


def __getattr__(name: str) -> Any:
    """Return the game class named ``name`` (``OpenSpiel_hex``), made on first use: a
    process that unpickles a class made in another finds it here.

    :raises AttributeError: for any other name.
    """
    for kind in pyspiel.registered_games():
        if _identifier(kind.short_name) == name:
            return game_class(kind.short_name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
