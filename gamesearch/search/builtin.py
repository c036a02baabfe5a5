"""The built-in searchers, registered as a plugin exactly like third-party ones."""

from __future__ import annotations

from typing import Any

import pluggy

from gamesearch.search.alphabeta import AlphaBeta
from gamesearch.search.engine import Engine
from gamesearch.search.expectimax import CHANCE_SEARCHERS
from gamesearch.search.iterative import IterativeDeepening
from gamesearch.search.mcts import MonteCarlo
from gamesearch.search.minimax import Minimax
from gamesearch.search.multiplayer import BestReply, MaxN, Paranoid
from gamesearch.search.negamax import PrincipalVariationSearch
from gamesearch.search.nullwindow import MTDf, Solver
from gamesearch.search.proof import PROOF_SEARCHERS
from gamesearch.search.textbook import TextbookAlphaBeta, TextbookMinimax

hookimpl = pluggy.HookimplMarker("gamesearch")

BUILTIN_SEARCHERS = (
    Minimax,
    AlphaBeta,
    IterativeDeepening,
    MonteCarlo,
    PrincipalVariationSearch,
    MTDf,
    Solver,
    Engine,
    MaxN,
    Paranoid,
    BestReply,
    TextbookMinimax,
    TextbookAlphaBeta,
    *CHANCE_SEARCHERS,
    *PROOF_SEARCHERS,
)


@hookimpl
def gamesearch_register_searchers(registry: Any) -> None:
    """Register minimax, alpha-beta, iterative deepening, MCTS, the exact and the textbook
    searchers, the searchers of games with several players (max^n, paranoid, best-reply),
    the searchers for games of chance and the proof-number searchers (pns, dfpn)."""
    for searcher_class in BUILTIN_SEARCHERS:
        registry.add_searcher(searcher_class)
