"""The results of ``python -m benchmarks strength``: the ladder rating, the sequential test
that stops a match once it has decided, merging saved runs, the table (on the terminal or in
Markdown).

The results are the JSON-ready data :func:`benchmarks.strength.as_data` returns and
``--save`` writes: the settings, one entry a match (its outcome) and the skipped matches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from gamesearch.cli._output import console, table
from gamesearch.errors import InvalidOptionError
from gamesearch.rating import PRIOR_GAMES, Z95, Result, expected_score, fit_ratings


def anchored_rating(results: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    """Return the maximum-likelihood rating, and its 95 % half-interval, of a player who
    scored ``score`` in ``games`` against opponents of known rating: ``(rating, games,
    score)`` each.

    Each opponent also counts one virtual draw (``PRIOR_GAMES``), as :mod:`gamesearch.rating`
    adds against its anchor, so that all wins or all losses still give a finite rating.

    :raises ValueError: for no results.
    """
    if not results:
        raise ValueError("a rating needs at least one result")
    games = [
        (rating, count + PRIOR_GAMES, score + PRIOR_GAMES / 2) for rating, count, score in results
    ]
    elo = sum(rating for rating, _, _ in games) / len(games)
    scale = math.log(10) / 400
    information = 0.0
    for _ in range(100):
        gradient = information = 0.0
        for rating, count, score in games:
            expected = expected_score(elo, rating)
            gradient += (score - count * expected) * scale
            information += count * expected * (1 - expected) * scale * scale
        step = gradient / information
        elo += max(-400.0, min(400.0, step))
        if abs(step) < 1e-9:
            break
    return elo, Z95 / math.sqrt(information)


#: the sequential test's error rates: of accepting H1 when H0 holds, and H0 when H1 holds
SPRT_ALPHA = SPRT_BETA = 0.05
#: the points a pair of games can score (0 to 2, in halves): the pentanomial's five outcomes
PAIR_OUTCOMES = (0.0, 0.5, 1.0, 1.5, 2.0)
#: the virtual pairs the sequential test adds, spread evenly over :data:`PAIR_OUTCOMES`
#: (additive smoothing: a symmetric Dirichlet prior of 1/5 on each outcome's frequency)
SPRT_PRIOR_PAIRS = 1.0


def sprt_llr(pairs: Sequence[float], elo0: float, elo1: float) -> float:
    """Return the log-likelihood ratio of H1 (the player is ``elo1`` stronger) against H0
    (``elo0`` stronger) after ``pairs``: the player's points in each pair of games from one
    opening (0 to 2, in halves).

    The generalized SPRT's normal approximation over pairs (the pentanomial model, which
    keeps the two games of an opening together, as engine testers do): with ``n`` pairs of
    mean score ``x`` a game and variance ``v`` of a pair's mean, ``n (s1 - s0) (2x - s0 - s1)
    / (2v)``, where ``s0`` and ``s1`` are the scores the two Elo differences expect.

    ``x`` and ``v`` are those of the pairs' frequencies regularised by
    :data:`SPRT_PRIOR_PAIRS` virtual pair spread evenly over the five outcomes (each
    outcome's count plus 1/5, then normalised): without it, pairs that all score the same
    have no variance and the test could never decide (or would divide by zero). Fishtest's
    ``LLRcalc.regularize`` does the same with a count of 0.001 for each outcome never seen;
    so small a count makes two won pairs a proof, where one virtual pair needs about five.
    It is 0 with no pairs.
    """
    count = len(pairs)
    if count == 0:
        return 0.0
    prior = SPRT_PRIOR_PAIRS / len(PAIR_OUTCOMES)
    weights = {outcome: prior for outcome in PAIR_OUTCOMES}
    for points in pairs:
        weights[points] = weights.get(points, prior) + 1.0
    total = sum(weights.values())
    mean = sum(weight * points / 2 for points, weight in weights.items()) / total
    variance = sum(weight * (points / 2 - mean) ** 2 for points, weight in weights.items()) / total
    s0, s1 = expected_score(elo0, 0.0), expected_score(elo1, 0.0)
    return count * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds(alpha: float = SPRT_ALPHA, beta: float = SPRT_BETA) -> tuple[float, float]:
    """Return Wald's bounds of the log-likelihood ratio: H0 is accepted at or below the
    first, H1 at or above the second (about -2.94 and +2.94 at 5 % each)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_verdict(pairs: Sequence[float], elo0: float, elo1: float) -> str | None:
    """Return ``"H1"`` or ``"H0"`` once :func:`sprt_llr` of ``pairs`` reaches a bound of
    :func:`sprt_bounds`, else ``None`` (play on)."""
    llr = sprt_llr(pairs, elo0, elo1)
    lower, upper = sprt_bounds()
    return "H1" if llr >= upper else "H0" if llr <= lower else None


def ladder_rating(matches: Sequence[dict[str, Any]]) -> dict[str, float] | None:
    """Return the rating on Stockfish's ``UCI_Elo`` scale fitted to the ``matches`` (as
    :func:`as_data` writes them) against Stockfish at a ``UCI_Elo`` (``None``: there are none)."""
    ladder = [
        (
            float(item["opponent"].split("elo=")[1].split(",")[0]),
            float(item["games"]),
            item["score"],
        )
        for item in matches
        if item["opponent"].startswith("stockfish:elo=")
    ]
    if not ladder:
        return None
    elo, interval = anchored_rating(ladder)
    return {"elo": elo, "interval95": interval}


def merged(saved: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Return the results ``saved`` (see :func:`as_data`) as one: a match played in several
    (same suite, player and opponent) counts all their games, its Elo and interval fitted
    again to the sum (:func:`gamesearch.rating.fit_ratings`, as a tournament does), its
    means weighted by games; the seeds are listed, the ladder rating fitted again."""
    first, *others = saved
    if not others:
        return first
    if any(data["game"] != first["game"] for data in others):
        raise InvalidOptionError("the results to merge are of different games")
    by_match: dict[tuple[str, str, str], dict[str, Any]] = {}
    for data in saved:
        for item in data["matches"]:
            key = (item["match"]["suite"], item["player"], item["opponent"])
            total = by_match.get(key)
            if total is None:
                by_match[key] = dict(item)
                continue
            games = total["games"] + item["games"]
            for mean in ("plies", "player_ms", "opponent_ms", "player_cpu_ms", "opponent_cpu_ms"):
                if total.get(mean) is None or item.get(mean) is None:
                    total[mean] = total.get(mean) if item.get(mean) is None else item[mean]
                    continue
                total[mean] = (total[mean] * total["games"] + item[mean] * item["games"]) / games
            for count in ("wins", "draws", "losses", "capped", "games", "score"):
                total[count] += item[count]
            # the sequential test's verdicts are of each run alone: listed, not combined
            ends = [end for end in (total.get("ended"), item.get("ended")) if end]
            total["ended"], total["llr"] = ", ".join(ends), None
    for total in by_match.values():
        rating = fit_ratings(["a", "b"], [Result(0, 1, total["games"], total["score"])])[0]
        total["elo"], total["interval"] = 2 * rating.elo, 2 * rating.interval
    matches = list(by_match.values())
    return first | {
        "seed": ", ".join(str(data["seed"]) for data in saved),
        "games": sum(data["games"] for data in saved),
        "matches": matches,
        "stockfish_scale": ladder_rating(matches),
        "skipped": [item for data in saved for item in data["skipped"]],
    }


COLUMNS = (
    "suite",
    "player",
    "opponent",
    "score (W-D-L)",
    "Elo ±95%",
    "plies",
    "elapsed ms/move",
    "CPU ms/move",
)


def rows(data: dict[str, Any]) -> list[tuple[str, ...]]:
    """Return the table's rows of ``data`` (see :func:`as_data`), as :data:`COLUMNS`."""
    found: list[tuple[str, ...]] = []
    for item in data["matches"]:
        match = item["match"]
        ended = item.get("ended") or ""  # "H1", "H0" (a sequential test's), "stopped"
        ended = ended if not ended or ended == "stopped" else f"SPRT: {ended}"
        found.append(
            (
                match["suite"],
                (match["note"] or item["player"]) + (f" ({ended})" if ended else ""),
                match["opponent"],
                f"{item['score']:g}/{item['games']} "
                f"({item['wins']}-{item['draws']}-{item['losses']})",
                f"{item['elo']:+.0f} ± {item['interval']:.0f}",
                f"{item['plies']:.0f}",
                f"{item['player_ms']:.0f} / {item['opponent_ms']:.0f}",
                " / ".join(
                    "-" if item.get(key) is None else f"{item[key]:.0f}"
                    for key in ("player_cpu_ms", "opponent_cpu_ms")
                ),
            )
        )
    return found


def title(data: dict[str, Any]) -> str:
    """Return the line that says how the matches of ``data`` were played."""
    clock = "processor" if data["clock"] == "cpu" else "elapsed"
    cap = "" if data["max_plies"] is None else f", games stopped at {data['max_plies']} plies"
    sprt = data.get("sprt")
    most = "" if sprt is None else "at most "
    test = (
        ""
        if sprt is None
        else f", stopped once the SPRT of {sprt[0]:+g} against {sprt[1]:+g} Elo decided"
    )
    return (
        f"{data['game']}: {most}{data['games']} games a match{test}, {data['seconds']:g} s of "
        f"{clock} time a move{cap}, seed {data['seed']}"
    )


def notes(data: dict[str, Any]) -> list[str]:
    """Return the lines under the table: the ladder rating and the skipped matches."""
    lines = []
    scale = data["stockfish_scale"]
    if scale is not None:
        lines.append(
            f"on Stockfish's UCI_Elo scale: {scale['elo']:.0f} ± {scale['interval95']:.0f} (95%)"
        )
    lines += [f"skipped {item['match']['opponent']}: {item['reason']}" for item in data["skipped"]]
    return lines


def markdown(data: dict[str, Any]) -> str:
    """Return the table of ``data`` as Markdown, its title and notes around it."""
    lines = [f"{title(data)}:", "", "| " + " | ".join(COLUMNS) + " |"]
    lines.append("|" + "---|" * 3 + "---:|" * (len(COLUMNS) - 3))
    lines += [
        "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows(data)
    ]
    extra = notes(data)
    return "\n".join(lines + ([""] + extra if extra else []))


def print_table(data: dict[str, Any]) -> None:
    """Print the matches of ``data`` (see :func:`as_data`) as a table, then the skipped ones."""
    out = console()
    grid = table(title(data), COLUMNS, numeric_from=3)
    for row in rows(data):
        grid.add_row(*row)
    out.print(grid)
    for line in notes(data):
        out.print(line)
