"""Depth-first proof-number search, the readable version (Nagai, "Df-pn algorithm for
searching AND/OR trees and its applications", PhD thesis, University of Tokyo, 2002),
with the 1+epsilon trick (Pawlewicz and Lew, "Improving depth-first PN-search: 1+epsilon
trick", Computers and Games 2006, LNCS 4630).

Can the player to move at the root force a result of at least ``target`` (its own
view)? Numbers live in a dict by position key, every new position at 1/1.
The fast core is :func:`gamesearch.search.proof.depth_first_proof`.
"""

from __future__ import annotations

import math
from typing import Any

INFINITE = 1 << 62


def prove(game: Any, target: int = 1, epsilon: float = 0.0) -> bool:
    """Return whether the side to move in ``game`` can force a result >= ``target``."""
    attacker = game.to_move()
    table: dict[Any, tuple[int, int]] = {}

    def numbers() -> tuple[int, int]:
        """(proof, disproof) of the current position, from the table or as a leaf."""
        result = game.result()
        if result is not None:
            mine = result if attacker == 0 else -result
            return (0, INFINITE) if mine >= target else (INFINITE, 0)
        return table.get(game.key(), (1, 1))

    def mid(proof_limit: int, disproof_limit: int) -> None:
        """Search the current position until a number reaches its limit."""
        if game.result() is not None:
            return
        is_or = game.to_move() == attacker
        while True:
            children = []
            for move in game.legal_moves():
                game.push(move)
                children.append((numbers(), move))
                game.undo()
            # phi: the number the mover lowers (OR: proof, AND: disproof); delta: the other
            phis = [pair[0] if is_or else pair[1] for pair, _ in children]
            deltas = [pair[1] if is_or else pair[0] for pair, _ in children]
            phi, delta = min(phis), min(INFINITE, sum(deltas))
            table[game.key()] = (phi, delta) if is_or else (delta, phi)
            phi_limit, delta_limit = (
                (proof_limit, disproof_limit) if is_or else (disproof_limit, proof_limit)
            )
            if phi >= phi_limit or delta >= delta_limit:
                return
            best = phis.index(phi)
            second = min(phis[:best] + phis[best + 1 :], default=INFINITE)
            grown = max(second + 1, math.ceil(second * (1 + epsilon)))
            child_phi_limit = min(phi_limit, INFINITE if second >= INFINITE else grown)
            child_delta_limit = delta_limit - delta + deltas[best]
            game.push(children[best][1])
            if is_or:  # a child's proof limit is our phi's limit at an OR node
                mid(child_phi_limit, child_delta_limit)
            else:
                mid(child_delta_limit, child_phi_limit)
            game.undo()

    mid(INFINITE, INFINITE)
    return numbers()[0] == 0
