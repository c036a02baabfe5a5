"""The reference: one short, readable searcher per idea, the twin of the fast ones.

Each module here is the textbook version of one search idea, written over the public
``Game`` API (``push``/``undo``) and the public :class:`~gamesearch.search.base.SearchContext`
as a searcher of your own would be, citing where the idea comes from. Each fast
searcher in :mod:`gamesearch.search` opens by naming its twin here and saying how it
differs; ``tests/test_twins.py`` checks that the two agree. Nothing else in the
framework is called "the reference".

:data:`TWINS` maps the name of every searcher the framework registers to the module
of its twin (:data:`PROOF_TWINS` for the proof-number searchers); :func:`twin` returns
the twin's searcher class.
"""

from __future__ import annotations

from types import ModuleType

from gamesearch.search.base import Searcher
from gamesearch.search.reference import (
    alphabeta,
    brs,
    dfpn,
    expectiminimax,
    maxn,
    minimax,
    mtdf,
    negamax,
    paranoid,
    pns,
    star1,
    star2,
    uct,
)

#: the reference twin of every searcher the framework registers, by searcher name
TWINS: dict[str, ModuleType] = {
    "minimax": minimax,
    "textbook-minimax": minimax,
    "alphabeta": alphabeta,
    "textbook-alphabeta": alphabeta,
    "iterative": alphabeta,
    "engine": alphabeta,
    "pvs": negamax,
    "mtdf": mtdf,
    "solver": mtdf,
    "mcts": uct,
    "expectiminimax": expectiminimax,
    "star1": star1,
    "star2": star2,
    "chance-iterative": star2,
    "maxn": maxn,
    "paranoid": paranoid,
    "brs": brs,
}

#: the proof-number searchers' twins: each a proof function (``prove``: can the side to
#: move force a result?) rather than a searcher; ``tests/test_proof_reference.py`` pairs
#: each with the fast core's answer to the same proof questions
PROOF_TWINS: dict[str, ModuleType] = {"pns": pns, "dfpn": dfpn}


def twin(name: str) -> type[Searcher]:
    """Return the reference searcher class twinned with the searcher called ``name``.

    :raises KeyError: when no twin is known for ``name``.
    """
    if name not in TWINS:
        raise KeyError(f"no reference twin for searcher {name!r}; known: {', '.join(TWINS)}")
    found: type[Searcher] = TWINS[name].REFERENCE
    return found
