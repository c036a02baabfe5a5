"""Elo ratings fitted to game results (the Bradley-Terry model), with standard errors.

The model: a player rated ``R_a`` scores ``1 / (1 + 10 ** ((R_b - R_a) / 400))``
on average against one rated ``R_b``; a draw counts half a win. The ratings that
make the observed results most likely are found by Newton's method on the log
likelihood; the standard errors come from its curvature there (the inverse of the
observed information). Results that are all wins or all losses would push a rating
to infinity, so each player also gets one virtual draw against an anchor rated 0
(the prior BayesElo uses, in a simpler form). Ratings are reported relative to the
players' mean, so they sum to zero.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs

#: Elo points per natural-log unit of the odds: 400 / ln(10)
ELO_SCALE = 400 / math.log(10)
#: virtual games (each a draw) every player plays against the anchor rated 0
PRIOR_GAMES = 1.0
#: z value of a two-sided 95% interval
Z95 = 1.959964


@attrs.frozen
class Rating:
    """One player's fitted rating."""

    label: str
    elo: float  #: rating relative to the players' mean
    error: float  #: standard error of ``elo``

    @property
    def interval(self) -> float:
        """Return the half-width of the 95% interval around ``elo``."""
        return Z95 * self.error


@attrs.frozen
class Result:
    """The games two players (by index) played against each other."""

    a: int
    b: int
    games: float
    score: float  #: points of ``a`` (win 1, draw 1/2)


def score_interval(points: Sequence[float]) -> tuple[float, float, float]:
    """Return the mean of ``points`` (each game's: 1 a win, 1/2 a draw, 0 a loss) and the
    ends of its 95% interval (the normal approximation), clipped to [0, 1].

    :raises ValueError: when ``points`` is empty.
    """
    if not points:
        raise ValueError("no games, no score")
    count = len(points)
    mean = sum(points) / count
    spread = (
        math.sqrt(sum((point - mean) ** 2 for point in points) / (count - 1)) if count > 1 else 0.0
    )
    half = Z95 * spread / math.sqrt(count)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def expected_score(elo: float, opponent: float) -> float:
    """Return the mean score of a player rated ``elo`` against one rated ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - elo) / 400.0))


def fit_ratings(labels: Sequence[str], results: Iterable[Result]) -> tuple[Rating, ...]:
    """Return the maximum-likelihood ratings of ``labels`` given ``results``, in label order.

    :raises ValueError: when a result names a player index outside ``labels``.
    """
    count = len(labels)
    pairs = list(results)
    for result in pairs:
        if not (0 <= result.a < count and 0 <= result.b < count) or result.a == result.b:
            raise ValueError(f"a result must name two different players 0..{count - 1}: {result!r}")
    strengths = [0.0] * count  # natural-log units
    for _ in range(200):
        gradient, information = _derivatives(strengths, pairs)
        step = _solve(information, gradient)
        largest = max((abs(value) for value in step), default=0.0)
        if largest > 1.0:  # damped: a Newton step from far away may overshoot
            step = [value / largest for value in step]
        strengths = [value + change for value, change in zip(strengths, step, strict=True)]
        if largest < 1e-12:
            break
    _, information = _derivatives(strengths, pairs)
    covariance = [_solve(information, unit) for unit in _identity(count)]
    mean = sum(strengths) / count if count else 0.0
    ratings = []
    for index, label in enumerate(labels):
        # variance of (strength - mean strength), from the full covariance matrix
        row = covariance[index]
        variance = (
            row[index] - 2 * sum(row) / count + sum(sum(line) for line in covariance) / count**2
        )
        ratings.append(
            Rating(
                label,
                (strengths[index] - mean) * ELO_SCALE,
                math.sqrt(max(variance, 0.0)) * ELO_SCALE,
            )
        )
    return tuple(ratings)


def _derivatives(
    strengths: list[float], pairs: list[Result]
) -> tuple[list[float], list[list[float]]]:
    """Return the log likelihood's gradient and its negated Hessian (the information)."""
    count = len(strengths)
    gradient = [0.0] * count
    information = [[0.0] * count for _ in range(count)]
    for index, strength in enumerate(strengths):
        expected = 1.0 / (1.0 + math.exp(-strength))
        gradient[index] += PRIOR_GAMES * (0.5 - expected)
        information[index][index] += PRIOR_GAMES * expected * (1.0 - expected)
    for result in pairs:
        a, b = result.a, result.b
        expected = 1.0 / (1.0 + math.exp(strengths[b] - strengths[a]))
        gradient[a] += result.score - result.games * expected
        gradient[b] -= result.score - result.games * expected
        weight = result.games * expected * (1.0 - expected)
        information[a][a] += weight
        information[b][b] += weight
        information[a][b] -= weight
        information[b][a] -= weight
    return gradient, information


def _identity(count: int) -> list[list[float]]:
    return [[1.0 if row == col else 0.0 for col in range(count)] for row in range(count)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Return ``x`` with ``matrix @ x == vector`` (Gaussian elimination, partial pivoting).

    ``matrix`` is positive definite here (the prior makes it so).
    """
    size = len(vector)
    rows = [list(matrix[index]) + [vector[index]] for index in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda row: abs(rows[row][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for row in range(col + 1, size):
            factor = rows[row][col] / rows[col][col]
            for index in range(col, size + 1):
                rows[row][index] -= factor * rows[col][index]
    solution = [0.0] * size
    for row in range(size - 1, -1, -1):
        known = sum(rows[row][index] * solution[index] for index in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return solution
