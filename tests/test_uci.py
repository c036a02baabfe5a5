"""``gamesearch uci``: the chess plugin's UCI engine, in this process and driven by python-chess.

The oracle is python-chess: it checks that every ``bestmove`` is legal in the position
sent, parses every ``info`` line, and as the client (``SimpleEngine.popen_uci``) fails
on any answer that breaks the protocol.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
import threading
import time
from typing import Any

import pytest

chess = pytest.importorskip("chess")
chess_engine = pytest.importorskip("chess.engine")
uci = pytest.importorskip("gamesearch_chess.uci")

ENGINE_COMMAND = [sys.executable, "-m", "gamesearch", "uci"]
#: a position where White mates in one (Qh5xf7#)
SCHOLARS_MATE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
#: Black to move, checkmated (the game is over)
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
INFO = re.compile(
    r"^info depth (\d+) seldepth (\d+) score (cp -?\d+|mate -?\d+) nodes (\d+) nps (\d+) "
    r"time (\d+) pv( [a-h][1-8][a-h][1-8][qrbn]?)+$"
)


class Lines(io.StringIO):
    """Standard output for an engine in this process, whose lines a test can wait for."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = threading.Condition()

    def write(self, text: str) -> int:
        with self.changed:
            written = super().write(text)
            self.changed.notify_all()
        return written

    def lines(self) -> list[str]:
        return self.getvalue().splitlines()

    def wait_for(self, prefix: str, timeout: float = 60) -> str:
        with self.changed:
            assert self.changed.wait_for(
                lambda: any(line.startswith(prefix) for line in self.lines()), timeout
            ), f"no line starting {prefix!r} in {self.lines()}"
        return next(line for line in self.lines() if line.startswith(prefix))


def session(*commands: str, searcher: str = uci.DEFAULT_SEARCHER) -> list[str]:
    """Return what the engine writes for ``commands`` (searches run to their end)."""
    out = Lines()
    uci.UciEngine(out, searcher=searcher).run(commands)
    return out.lines()


def bestmove(lines: list[str]) -> str:
    [answer] = [line for line in lines if line.startswith("bestmove")]
    return answer.split()[1]


# ------------------------------------------------------------------- time management
def test_a_move_gets_its_share_of_the_clock_and_most_of_the_increment() -> None:
    budget = uci.move_budget(uci.Clock(60.0, 1.0))
    assert budget == pytest.approx(60 / uci.ASSUMED_MOVES_LEFT + 0.75 - uci.MARGIN_SECONDS)


def test_moves_to_go_divides_the_clock_and_no_move_takes_more_than_half_of_it() -> None:
    assert uci.move_budget(uci.Clock(10.0, 0.0, 5)) == pytest.approx(2.0 - uci.MARGIN_SECONDS)
    assert uci.move_budget(uci.Clock(10.0, 0.0, 1)) == pytest.approx(5.0 - uci.MARGIN_SECONDS)
    assert uci.move_budget(uci.Clock(0.0)) == pytest.approx(0.001)


def test_go_reads_each_form_and_the_clock_of_the_side_to_move() -> None:
    go = uci.read_go("wtime 30000 btime 1000 winc 500 binc 0 movestogo 10".split())
    assert go.clocks == (uci.Clock(30.0, 0.5, 10), uci.Clock(1.0, 0.0, 10))
    assert go.seconds(True) == pytest.approx(3.0 + 0.375 - uci.MARGIN_SECONDS)
    assert go.seconds(False) == pytest.approx(0.1 - uci.MARGIN_SECONDS)
    assert uci.read_go(["movetime", "500"]).seconds(True) == pytest.approx(0.48)
    assert uci.read_go(["depth", "3"]) == uci.Go(depth=3)
    assert uci.read_go(["nodes", "900"]) == uci.Go(nodes=900)
    assert uci.read_go(["mate", "2"]) == uci.Go(depth=3)
    assert uci.read_go(["infinite"]).infinite and uci.read_go([]).infinite
    assert uci.read_go(["infinite"]).seconds(True) is None


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("movetime", "go movetime needs a whole number, not ''"),
        ("depth two", "go depth needs a whole number, not 'two'"),
        ("depth 0", "go depth must be at least 1, not 0"),
        ("sideways 3", "go does not know 'sideways'"),
    ],
)
def test_a_malformed_go_is_refused_naming_the_word(words: str, message: str) -> None:
    with pytest.raises(uci.UciError, match=re.escape(message)):
        uci.read_go(words.split())


# ------------------------------------------------------------------ in this process
def test_the_handshake_names_the_engine_and_its_options_then_says_uciok() -> None:
    lines = session("uci", "isready")
    assert lines[0].startswith("id name gamesearch")
    assert lines[1].startswith("id author")
    assert "option name Threads type spin default 1 min 1 max 1" in lines
    assert any(line.startswith("option name Hash type spin default") for line in lines)
    assert "option name quiescence type check default true" in lines
    assert "option name null_move type spin default 0 min 0 max 2147483647" in lines
    assert (
        "option name scoring type combo default game var game var distance var plain var utility"
        in lines
    )
    assert not any(line.startswith("option name depth ") for line in lines)
    assert lines[-2:] == ["uciok", "readyok"]


def test_go_depth_prints_one_info_line_per_depth_and_a_legal_best_move() -> None:
    lines = session("position startpos moves e2e4 e7e5", "go depth 2")
    infos = [INFO.match(line) for line in lines if line.startswith("info")]
    assert all(infos), lines
    assert [int(info.group(1)) for info in infos if info] == [1, 2]
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(bestmove(lines)) in board.legal_moves
    for info in infos:
        assert info is not None
        line_board = board.copy()
        for move in info.string.split(" pv ")[1].split():
            assert chess.Move.from_uci(move) in line_board.legal_moves
            line_board.push_uci(move)


def test_a_mate_in_one_is_found_and_scored_as_mate_1() -> None:
    lines = session(f"position fen {SCHOLARS_MATE}", "go depth 2")
    assert bestmove(lines) == "h5f7"
    assert "score mate 1" in [line for line in lines if line.startswith("info")][-1]


def test_go_nodes_stops_near_the_node_count_with_a_legal_move() -> None:
    lines = session("position startpos", "go nodes 300")
    nodes = [int(line.split(" nodes ")[1].split()[0]) for line in lines if " nodes " in line]
    assert all(count <= 300 for count in nodes)
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board().legal_moves


def test_a_finished_game_answers_bestmove_none() -> None:
    lines = session(f"position fen {MATED}", "go depth 2")
    assert lines[-1] == "bestmove (none)"
    assert "info depth 0 score mate 0" in lines


def test_go_infinite_answers_only_after_stop() -> None:
    out = Lines()
    engine = uci.UciEngine(out)
    engine.handle("position startpos")
    engine.handle("go infinite")
    out.wait_for("info depth 2")
    assert not any(line.startswith("bestmove") for line in out.lines())
    engine.handle("isready")
    out.wait_for("readyok")  # answered while the search runs
    engine.handle("stop")
    assert chess.Move.from_uci(out.wait_for("bestmove").split()[1]) in chess.Board().legal_moves
    engine.handle("quit")


@pytest.mark.parametrize(
    ("command", "answer"),
    [
        ("flip the board", "info string unknown command 'flip the board'"),
        ("position", "info string position needs 'startpos' or 'fen FEN'"),
        ("position fen 8/8/8 w", "info string position '8/8/8 w' is not a FEN"),
        ("position startpos moves e2e5", "info string position: the move 'e2e5' is not legal"),
        ("position startpos moves e9e4", "info string position: 'e9e4' is not a move"),
        ("setoption name Threads value 4", "info string Threads can only be 1"),
        ("setoption name Colour value red", "info string no option 'Colour'"),
        ("setoption name quiescence value maybe", "info string "),
        ("setoption name Hash value lots", "info string "),
        ("setoption Hash", "info string setoption needs 'name NAME [value VALUE]'"),
    ],
)
def test_a_bad_command_is_answered_with_an_info_string_and_the_engine_goes_on(
    command: str, answer: str
) -> None:
    lines = session("position startpos moves e2e4", command, "isready", "go depth 1")
    assert lines[0].startswith(answer), lines
    assert lines[1] == "readyok"
    board = chess.Board()
    board.push_uci("e2e4")  # a refused position leaves the one before
    assert chess.Move.from_uci(bestmove(lines)) in board.legal_moves


def test_a_malformed_go_still_answers_a_legal_move() -> None:
    lines = session("position startpos", "go depth deep")
    assert lines[0] == (
        "info string go depth needs a whole number, not 'deep'; searching one ply instead"
    )
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board().legal_moves


def test_setoption_changes_the_searcher_and_unknown_words_before_a_command_are_skipped() -> None:
    out = Lines()
    engine = uci.UciEngine(out)
    engine.handle("setoption name Quiescence value false")
    engine.handle("setoption name Hash value 1")
    engine.handle("setoption name Threads value 1")
    assert engine._searcher.quiescence is False
    assert engine._searcher.table_entries == (1 << 20) // uci.BYTES_PER_ENTRY
    engine.handle("joho isready")
    assert out.lines() == ["readyok"]


def test_ucinewgame_starts_again_from_the_initial_position() -> None:
    lines = session(f"position fen {MATED}", "ucinewgame", "go depth 1")
    assert chess.Move.from_uci(bestmove(lines)) in chess.Board().legal_moves


def test_the_command_line_offers_uci_with_its_help() -> None:
    from gamesearch.cli import build_parser

    parser = build_parser()
    help_text = parser.format_help()
    assert "uci" in help_text
    with pytest.raises(SystemExit):
        parser.parse_args(["uci", "--help"])


# ----------------------------------------------------------------- through python-chess
@pytest.fixture(scope="module")
def engine() -> object:
    """Our engine as python-chess drives it: one process for the tests of this module (a
    start costs half a second of CPU; each test ends with the engine ready for the next)."""
    with chess_engine.SimpleEngine.popen_uci(ENGINE_COMMAND, timeout=60) as client:
        yield client


@pytest.mark.slow
def test_python_chess_drives_every_go_form(engine: object) -> None:
    board = chess.Board()
    board.push_san("e4")
    limits = [
        # (the clocks of a blitz game's end: each form answers in a tenth of a second or so)
        chess_engine.Limit(time=0.1),
        chess_engine.Limit(depth=2),
        chess_engine.Limit(nodes=500),
        chess_engine.Limit(white_clock=2, black_clock=2, white_inc=0.1, black_inc=0.1),
        chess_engine.Limit(white_clock=2, black_clock=2, remaining_moves=20),
    ]
    for limit in limits:
        played = engine.play(board, limit, info=chess_engine.INFO_ALL)  # type: ignore[attr-defined]
        assert played.move in board.legal_moves, limit
    info = engine.analyse(board, chess_engine.Limit(depth=3))  # type: ignore[attr-defined]
    assert info["depth"] == 3
    assert info["pv"][0] in board.legal_moves
    with engine.analysis(board) as analysis:  # type: ignore[attr-defined]  # go infinite
        for step in analysis:
            if step.get("depth", 0) >= 2:
                break
    assert engine.ping() is None  # type: ignore[attr-defined]


@pytest.mark.slow
def test_python_chess_reads_a_mate_score(engine: object) -> None:
    board = chess.Board(SCHOLARS_MATE)
    info = engine.analyse(board, chess_engine.Limit(depth=2))  # type: ignore[attr-defined]
    assert info["score"].white() == chess_engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("h5f7")


@pytest.mark.slow
# ten percent of a short move is the narrowest window (the margin and the overhead are
# fixed); a longer move's only adds waiting
@pytest.mark.parametrize("seconds", [0.5, 1.0])
def test_movetime_is_respected_within_ten_percent(engine: object, seconds: float) -> None:
    board = chess.Board()
    engine.play(board, chess_engine.Limit(depth=1))  # type: ignore[attr-defined]  # warmed up
    started = time.perf_counter()
    engine.play(board, chess_engine.Limit(time=seconds))  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - started
    assert 0.9 * seconds <= elapsed <= 1.1 * seconds


@pytest.mark.slow
def test_a_four_game_match_against_itself_ends_with_no_protocol_error(engine: object) -> None:
    # each engine plays each colour twice, a new game each time, at 100 to 250 nodes a move
    white: Any = engine
    with chess_engine.SimpleEngine.popen_uci(ENGINE_COMMAND, timeout=60) as black:
        for game in range(4):
            board = chess.Board()
            players = (white, black) if game % 2 == 0 else (black, white)
            # bounded: 20 plies a game, a few hundred nodes a move at most
            while not board.is_game_over() and board.ply() < 20:
                mover = players[0 if board.turn else 1]
                played = mover.play(board, chess_engine.Limit(nodes=100 + 50 * game))
                assert played.move in board.legal_moves
                board.push(played.move)
            white.ping()
            black.ping()


#: where Debian's stockfish package puts the engine (``/usr/games``, often not on the PATH)
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")


@pytest.mark.slow
@pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish is not installed")
def test_a_short_match_against_stockfish_at_its_lowest_elo_runs_to_the_end(
    engine: object,
) -> None:
    # two games, one with each colour, of at most 30 plies at 0.05 s a move: python-chess
    # (the client of both engines) raises on any answer that breaks the protocol, and
    # every answer of ours comes in time (the movetime and a margin for a loaded machine)
    assert STOCKFISH is not None
    seconds, cap = 0.05, 30
    ours: Any = engine
    with chess_engine.SimpleEngine.popen_uci(STOCKFISH, timeout=60) as stockfish:
        lowest = stockfish.options["UCI_Elo"].min
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": lowest})
        ours.play(chess.Board(), chess_engine.Limit(depth=1))  # warmed up
        took: list[float] = []
        scored: list[bool] = []  # whether each of our answers came after an info line
        for game in range(2):
            board = chess.Board()
            players = (ours, stockfish) if game == 0 else (stockfish, ours)
            while not board.is_game_over() and board.ply() < cap:
                mover = players[0 if board.turn else 1]
                started = time.perf_counter()
                played = mover.play(
                    board, chess_engine.Limit(time=seconds), info=chess_engine.INFO_ALL, game=game
                )
                if mover is ours:
                    took.append(time.perf_counter() - started)
                    scored.append("score" in played.info)
                assert played.move in board.legal_moves
                board.push(played.move)
            assert board.is_game_over() or board.ply() == cap
            ours.ping()
            stockfish.ping()
    # (a move answered before a depth was finished has no info line: a loaded machine)
    assert took and any(scored)
    assert max(took) <= 1.1 * seconds + 0.4, sorted(took)[-3:]
