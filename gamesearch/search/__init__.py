"""Searchers: one module each, and what they share (results, statistics, tables)."""

from gamesearch.search.alphabeta import AlphaBeta
from gamesearch.search.base import Searcher, SearchResult, SearchStats, Tracer
from gamesearch.search.iterative import IterativeDeepening
from gamesearch.search.minimax import Minimax
from gamesearch.search.table import TranspositionTable

__all__ = [
    "AlphaBeta",
    "IterativeDeepening",
    "Minimax",
    "SearchResult",
    "SearchStats",
    "Searcher",
    "Tracer",
    "TranspositionTable",
]
