"""Proof-number search, the readable version (Allis, van der Meulen and van den Herik,
"Proof-number search", Artificial Intelligence 66, 1994; Allis' thesis, 1994, ch. 2).

Can the player to move at the root force a result of at least ``target`` (its own
view)? A plain tree of nodes with parent links, every new leaf at 1/1, no table.
The fast core is :func:`gamesearch.search.proof.best_first_proof`.
"""

from __future__ import annotations

from typing import Any

INFINITE = float("inf")


class Node:
    """One position of the tree: its numbers, its children once expanded, its parent."""

    def __init__(self, parent: Node | None, move: Any, is_or: bool) -> None:
        self.parent, self.move, self.is_or = parent, move, is_or
        self.proof, self.disproof = 1.0, 1.0
        self.children: list[Node] = []


def prove(game: Any, target: int = 1) -> bool:
    """Return whether the side to move in ``game`` can force a result >= ``target``."""
    attacker = game.to_move()

    def set_numbers(node: Node) -> None:
        result = game.result()
        if result is not None:  # a leaf: proven or disproven
            mine = result if attacker == 0 else -result
            node.proof, node.disproof = (0, INFINITE) if mine >= target else (INFINITE, 0)
        elif node.children and node.is_or:
            node.proof = min(child.proof for child in node.children)
            node.disproof = sum(child.disproof for child in node.children)
        elif node.children:
            node.proof = sum(child.proof for child in node.children)
            node.disproof = min(child.disproof for child in node.children)

    root = Node(None, None, True)
    set_numbers(root)
    node = root
    while root.proof and root.disproof:
        while node.children:  # down to a most-proving node
            if node.is_or:  # the child that is cheapest to prove, or to disprove
                node = min(node.children, key=lambda child: child.proof)
            else:
                node = min(node.children, key=lambda child: child.disproof)
            game.push(node.move)
        for move in game.legal_moves():  # expand it
            game.push(move)
            child = Node(node, move, game.to_move() == attacker)
            set_numbers(child)
            node.children.append(child)
            game.undo()
        while True:  # update the ancestors; stop where nothing changes
            before = (node.proof, node.disproof)
            set_numbers(node)
            if node.parent is None or (node.proof, node.disproof) == before:
                break
            game.undo()
            node = node.parent
        while node.parent is not None:  # back to the root (the next descent starts there)
            game.undo()
            node = node.parent
    return root.proof == 0
