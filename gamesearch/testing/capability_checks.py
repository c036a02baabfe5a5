"""The conformance kit's checks of the optional capabilities a game offers.

Each check runs on one position, only when the game offers the capability, and tests
it against brute force (trying every move, every reply): chance outcomes, the board
view, the fast move pair (``advance``/``retract``), threat hints (``winning_moves``,
``non_losing_moves``), the results of the moves at once (``move_results``,
``advance_results``) and what a search engine asks (noisy and forcing moves, the
null move) and the presentation (``render``, ``player_names``);
:func:`gamesearch.testing.protocol.check_position` calls them all. A game that declares
:class:`~gamesearch.capabilities.ProblemFiles` gets its suites read and every problem's
position and moves checked, once per game (:func:`check_problem_files`). A game that
declares :class:`~gamesearch.capabilities.Repetition` has its repetition draws counted
from its history (:func:`check_repetition`).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from gamesearch import capabilities
from gamesearch.capabilities import ProblemFiles, declares
from gamesearch.errors import GameSearchError, InvalidMoveError
from gamesearch.game import Game, offers
from gamesearch.problems import Problem
from gamesearch.testing.snapshot import Snapshot, fail, require_unchanged


def check_chance_outcomes(game: Game[Any], before: Snapshot) -> None:
    """At a chance position: the outcomes are the legal moves, in order, each with an
    exact probability above 0, together summing to 1."""
    text = before.text
    if not offers(game, "chance_outcomes"):
        raise fail(
            game, text, "the rules declare chance, but the game does not offer chance_outcomes()"
        )
    outcomes = list(capabilities.chance_outcomes(game))
    moves = tuple(move for move, _ in outcomes)
    if moves != before.legal_moves:
        raise fail(
            game,
            text,
            f"chance_outcomes() lists the moves {moves!r}, "
            f"not legal_moves() {before.legal_moves!r}",
        )
    for move, probability in outcomes:
        if not isinstance(probability, Fraction) or probability <= 0:
            raise fail(
                game,
                text,
                f"chance_outcomes() gives {game.format_move(move)} the probability "
                f"{probability!r}; each must be a Fraction greater than 0",
            )
    total = sum(probability for _, probability in outcomes)
    if total != 1:
        raise fail(game, text, f"the probabilities of chance_outcomes() sum to {total}, not 1")


def check_board_view(game: Game[Any], before: Snapshot) -> None:
    view = capabilities.board_view(game)
    if view is None:
        return
    text = before.text
    cells = view.rows * view.cols
    if len(view.symbols) != cells or len(view.moves) != cells:
        raise fail(
            game,
            text,
            f"board_view() is {view.rows}x{view.cols} but has {len(view.symbols)} symbols "
            f"and {len(view.moves)} moves",
        )
    for index, move_text in enumerate(view.moves):
        if move_text is not None and _parsed(game, text, move_text) not in before.legal_moves:
            raise fail(
                game, text, f"board_view() cell {index} plays {move_text!r}, which is not legal"
            )
    for move_text, path in view.paths:
        if len(path) < 2 or not all(isinstance(cell, int) and 0 <= cell < cells for cell in path):
            raise fail(
                game,
                text,
                f"board_view() path of {move_text!r} is {path!r}, not two cells or more of the "
                f"{cells}",
            )
        if _parsed(game, text, move_text) not in before.legal_moves:
            raise fail(
                game, text, f"board_view() path {path!r} plays {move_text!r}, which is not legal"
            )


def _parsed(game: Game[Any], text: str, move_text: str) -> Hashable:
    """Return the move the board view's ``move_text`` names.

    :raises ConformanceError: when the game's parser refuses it.
    """
    try:
        move: Hashable = game.parse_move(move_text)
    except InvalidMoveError as error:
        raise fail(
            game, text, f"board_view() plays {move_text!r}, which parse_move() refuses: {error}"
        ) from error
    return move


def check_advance_and_retract(
    game: Game[Any], before: Snapshot, move: Hashable, pushed: Snapshot
) -> None:
    """advance() is push() and result() in one; retract() takes it back.

    The position after advance() must be push()'s in every respect, history included.
    """
    text, written = before.text, game.format_move(move)
    result = capabilities.advancer(game)(move)
    advanced = Snapshot.of(game)
    capabilities.retractor(game)(move)
    if advanced != pushed or result != pushed.result:
        changes = pushed.differences(advanced)
        if result != pushed.result:
            changes.append(
                f"advance() returned {result!r}, result() after push() {pushed.result!r}"
            )
        raise fail(
            game, text, f"advance({written}) and push({written}) differ: " + "; ".join(changes)
        )
    require_unchanged(game, before, f"advance({written}) then retract({written})")


def check_threat_hints(game: Game[Any], before: Snapshot) -> None:
    """winning_moves() and non_losing_moves() must agree with trying every move and reply."""
    text, mover = before.text, before.to_move
    if not before.legal_moves:
        return
    hints_winning, hints_safe = offers(game, "winning_moves"), offers(game, "non_losing_moves")
    if not hints_winning and not hints_safe:
        return
    rules = game.rules
    if hints_safe and not (rules.alternating and rules.players == 2 and rules.largest_margin <= 1):
        raise fail(
            game,
            text,
            "non_losing_moves() is offered, but only games whose rules declare two players, "
            "alternating turns and results +1/0/-1 may offer it",
        )

    def is_win(result: int | tuple[int, ...] | None, player: int) -> bool:
        if isinstance(result, tuple):  # utilities: the player alone on top
            return all(
                result[player] > utility for other, utility in enumerate(result) if other != player
            )
        return result is not None and (result > 0 if player == 0 else result < 0)

    def wins_at_once(player: int) -> set[Hashable]:
        found = set()
        for move in game.legal_moves():
            game.push(move)
            result = game.result()
            game.undo()
            if is_win(result, player):
                found.add(move)
        return found

    winning = wins_at_once(mover)
    claimed = list(capabilities.winning_moves(game)())
    if set(claimed) != winning or len(claimed) != len(set(claimed)):
        wrong = sorted(game.format_move(move) for move in set(claimed) ^ winning)
        raise fail(
            game,
            text,
            f"winning_moves() returned {[game.format_move(move) for move in claimed]}; trying "
            f"every move disagrees about {', '.join(wrong) or 'repeated moves'}",
        )
    if not hints_safe or winning:  # the exact searchers ask only where no win is at hand
        return
    claimed_safe = capabilities.non_losing_moves(game)()
    if claimed_safe is None:
        return
    safe = set()
    for move in before.legal_moves:
        game.push(move)
        if game.result() is not None or not wins_at_once(game.to_move()):
            safe.add(move)
        game.undo()
    listed = list(claimed_safe)
    if set(listed) != safe or len(listed) != len(set(listed)):
        for move in sorted(set(listed) ^ safe, key=game.format_move):
            problem = (
                "lets the opponent win at once" if move in set(listed) else "is safe but left out"
            )
            raise fail(
                game,
                text,
                f"non_losing_moves() is wrong about {game.format_move(move)}: it {problem}",
            )
        raise fail(
            game,
            text,
            f"non_losing_moves() lists a move twice: {[game.format_move(m) for m in listed]}",
        )


def check_move_results(game: Game[Any], before: Snapshot) -> None:
    """move_results() must list the legal moves (in both orders) each with the result that
    playing it gives, and leave the position as it was."""
    if not offers(game, "move_results"):
        return
    text, played = before.text, {}
    for move in before.legal_moves:
        game.push(move)
        played[move] = game.result()
        game.undo()
    for ordered, moves in (
        (False, before.legal_moves),
        (True, tuple(capabilities.move_order(game)())),
    ):
        answer = tuple(capabilities.move_results(game)(ordered))
        require_unchanged(game, before, f"move_results({ordered})")
        listed = tuple(pair[0] for pair in answer)
        if listed != moves:
            which = "ordered_moves()" if ordered else "legal_moves()"
            raise fail(
                game,
                text,
                f"move_results({ordered}) lists the moves {listed!r}, not {which} {moves!r}",
            )
        for move, result in answer:
            if result != played[move]:
                raise fail(
                    game,
                    text,
                    f"move_results({ordered}) says {game.format_move(move)} gives {result!r}; "
                    f"playing it gives {played[move]!r}",
                )


def check_advance_results(game: Game[Any], before: Snapshot) -> None:
    """advance_results(move) must reach exactly push(move)'s position and answer what
    move_results() answers there (in both orders; the kit checks that against play
    wherever it goes); retract(move) must restore the position before. Checked for every
    move after which the game goes on."""
    if not offers(game, "advance_results"):
        return
    text = before.text
    for move in before.legal_moves:
        game.push(move)
        pushed = Snapshot.of(game)
        expected = {
            ordered: tuple(capabilities.move_results(game)(ordered)) for ordered in (False, True)
        }
        game.undo()
        if pushed.result is not None:
            continue  # it ends the game: advance_results() is not for such a move
        written = game.format_move(move)
        for ordered in (False, True):
            answer = tuple(capabilities.advance_results(game)(move, ordered))
            advanced = Snapshot.of(game)
            capabilities.retractor(game)(move)
            if advanced != pushed:
                changes = "; ".join(pushed.differences(advanced))
                raise fail(
                    game, text, f"advance_results({written}) and push({written}) differ: {changes}"
                )
            if answer != expected[ordered]:
                shown = f"advance_results({written}, {ordered}) answers {answer!r}"
                wanted = (
                    f"push({written}) then move_results({ordered}) answers {expected[ordered]!r}"
                )
                raise fail(game, text, f"{shown}; {wanted}")
            require_unchanged(game, before, f"advance_results({written}) then retract({written})")


def check_engine_hints(game: Game[Any], before: Snapshot) -> None:
    """noisy_moves() must list legal moves, is_forcing() answer a bool for each legal move,
    and a null move pass the turn and come back, none of them changing the position."""
    text, legal = before.text, before.legal_moves
    if offers(game, "noisy_moves"):
        noisy = list(capabilities.noisy_moves(game)())
        require_unchanged(game, before, "noisy_moves()")
        outside = [move for move in noisy if move not in legal]
        if outside:
            raise fail(
                game,
                text,
                f"noisy_moves() lists {game._safe_format(outside[0])!r}, which is not a legal move",
            )
        if len(set(noisy)) != len(noisy):
            raise fail(
                game,
                text,
                f"noisy_moves() lists a move twice: {[game.format_move(m) for m in noisy]}",
            )
    if offers(game, "is_forcing"):
        for move in legal:
            answer = capabilities.forcing_test(game)(move)
            require_unchanged(game, before, f"is_forcing({game.format_move(move)})")
            if not isinstance(answer, bool):
                raise fail(
                    game,
                    text,
                    f"is_forcing({game.format_move(move)}) returned {answer!r}, not true or false",
                )
    makes, unmakes = offers(game, "make_null_move"), offers(game, "unmake_null_move")
    if makes != unmakes:
        offered, missing = (
            ("make_null_move", "unmake_null_move")
            if makes
            else ("unmake_null_move", "make_null_move")
        )
        raise fail(game, text, f"{offered}() is offered without {missing}()")
    if not makes or before.result is not None:
        return
    cast(Any, game).make_null_move()
    try:
        passed = (game.to_move(), game.key(), tuple(game.history))
    finally:
        cast(Any, game).unmake_null_move()
    require_unchanged(game, before, "make_null_move() then unmake_null_move()")
    if passed[0] == before.to_move:
        raise fail(
            game,
            text,
            f"make_null_move() left player {before.to_move} to move; a null move passes the turn",
        )
    if passed[1] == before.key:
        raise fail(game, text, f"make_null_move() left the key unchanged ({before.key!r})")
    if passed[2] != before.history:
        raise fail(
            game,
            text,
            "make_null_move() changed the move history; a null move is no move of the game",
        )


def check_presentation(game: Game[Any], before: Snapshot) -> None:
    """render() must give text and leave the position as it was; player_names must name
    each player of the rules once."""
    drawing = capabilities.render(game)
    require_unchanged(game, before, "render()")
    if not isinstance(drawing, str):
        raise fail(game, before.text, f"render() returned {drawing!r}, not text")
    names, players = tuple(capabilities.player_names(game)), game.rules.players
    if len(names) < players or len(set(names[:players])) != players:
        raise fail(
            game,
            before.text,
            f"player_names {names!r} does not name each of the {players} players once",
        )


def check_problem_files(game: Game[Any]) -> None:
    """A game that declares :class:`~gamesearch.capabilities.ProblemFiles` must define both
    class methods; every suite it ships must read into problems whose position is one of
    the game's texts and whose moves are legal there.

    :raises ConformanceError: naming the suite, the problem and what is wrong.
    """
    cls = type(game)
    if not declares(cls, ProblemFiles):
        return
    text = game.to_text()
    for member in ("read_problems", "problem_suites"):
        if getattr(cls, member).__func__ is vars(ProblemFiles)[member].__func__:
            raise fail(game, text, f"it declares ProblemFiles but defines no {member}()")
    files = cast(type[ProblemFiles], cls)  # (it declares the capability)
    for suite, path in sorted(files.problem_suites().items()):
        try:
            problems = list(files.read_problems(Path(path).read_text(encoding="utf-8")))
        except (OSError, GameSearchError) as error:
            raise fail(game, text, f"suite {suite!r} ({path}) cannot be read: {error}") from error
        if not problems:
            raise fail(game, text, f"suite {suite!r} ({path}) holds no problem")
        for problem in problems:
            _check_problem(game, suite, problem)


def _check_problem(game: Game[Any], suite: str, problem: Any) -> None:
    where = f"suite {suite!r}, problem {getattr(problem, 'name', problem)!r}"
    if not isinstance(problem, Problem):
        raise fail(game, game.to_text(), f"{where}: read_problems() gave {problem!r}, no Problem")
    try:
        position = type(game).from_text(problem.position, **game.settings)
    except GameSearchError as error:
        raise fail(game, problem.position, f"{where}: the position is refused: {error}") from error
    legal = set(position.legal_moves())
    for move_text in (*problem.best_moves, *problem.avoid_moves):
        try:
            move = position.parse_move(move_text)
        except InvalidMoveError as error:
            raise fail(
                game, problem.position, f"{where}: {move_text!r} is no move: {error}"
            ) from error
        if move not in legal:
            raise fail(game, problem.position, f"{where}: {move_text!r} is not legal there")


def check_repetition(game: Game[Any], before: Snapshot) -> None:
    """A game that declares :class:`~gamesearch.capabilities.Repetition`: a two-player game
    of single results with draws; its repetition key is steady and comes back with every
    move taken back; and its result is a draw exactly when its position occurred
    ``repetitions`` times in the history, counted by taking the history back one move at a
    time. Where the text of the position carries no history, the result with fewer
    occurrences is the result of the position read back from its text."""
    key_of = capabilities.repetition_key(game)
    if key_of is None:
        return
    text, rules, needed = before.text, game.rules, capabilities.repetitions(game)
    low, high = rules.result_range
    if rules.utilities or rules.players != 2 or not low <= 0 <= high:
        raise fail(
            game,
            text,
            "it declares repetition draws, which need two players, results of one number "
            f"and a draw (0) among them; its rules say {rules.players} players, utilities "
            f"{rules.utilities}, results {low}..{high}",
        )
    if needed < 2:
        raise fail(
            game, text, f"repetitions must be 2 or more (a position occurs once): {needed!r}"
        )
    here = key_of()
    if key_of() != here:
        raise fail(game, text, f"repetition_key() gave {here!r}, then {key_of()!r}")
    for move in before.legal_moves:
        game.push(move)
        game.undo()
        if key_of() != here:
            raise fail(
                game, text, f"push({game.format_move(move)}) then undo() changed repetition_key()"
            )
    occurrences, taken = 1, []
    try:
        while game.history:
            taken.append(game.undo())
            occurrences += key_of() == here
    finally:
        for move in reversed(taken):
            game.push(move)
    if occurrences >= needed:
        if before.result != 0:
            raise fail(
                game,
                text,
                f"its position occurred {occurrences} times in the game, which draws it "
                f"(repetitions {needed}), but result() is {before.result!r}",
            )
        return
    rebuilt = type(game).from_text(text, **game.settings)
    if len(rebuilt.history) < len(before.history) and rebuilt.result() != before.result:
        raise fail(
            game,
            text,
            f"its position occurred {occurrences} times (fewer than {needed}), yet result() is "
            f"{before.result!r} where the same position without its history gives "
            f"{rebuilt.result()!r}",
        )
