"""What the conformance kit sees of a position, and how it reports a broken promise.

:class:`Snapshot` records everything observable about a position, to tell whether a
call changed it; :func:`fail` builds the error that names the game, the position and
the problem.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import attrs

from gamesearch.errors import ConformanceError
from gamesearch.game import Game


@attrs.frozen
class Snapshot:
    """Everything observable about a position, to tell whether something changed it."""

    text: str
    key: Hashable
    to_move: int
    ply: int
    history: tuple[Hashable, ...]
    legal_moves: tuple[Hashable, ...]
    result: int | tuple[int, ...] | None

    @classmethod
    def of(cls, game: Game[Any]) -> Snapshot:
        """Return the snapshot of ``game`` now."""
        return cls(
            game.to_text(),
            game.key(),
            game.to_move(),
            game.ply,
            tuple(game.history),
            tuple(game.legal_moves()),
            game.result(),
        )

    def differences(self, other: Snapshot) -> list[str]:
        """Return ``"field: mine -> other's"`` for each field that differs."""
        return [
            f"{field.name} {getattr(self, field.name)!r} became {getattr(other, field.name)!r}"
            for field in attrs.fields(Snapshot)
            if getattr(self, field.name) != getattr(other, field.name)
        ]


def fail(game: Game[Any], text: str, problem: str) -> ConformanceError:
    """Return the error for ``problem`` found in ``game`` at the position ``text``."""
    return ConformanceError(f"{game.name} at {text!r}: {problem}")


def require_unchanged(game: Game[Any], before: Snapshot, action: str) -> None:
    """Raise unless ``game`` looks exactly as in ``before``.

    :raises ConformanceError: naming ``action`` and every field that changed.
    """
    after = Snapshot.of(game)
    if after == before:  # (the common case: no field by field comparison)
        return
    changes = before.differences(after)
    if changes:
        raise fail(game, before.text, f"{action} changed the position: " + "; ".join(changes))
