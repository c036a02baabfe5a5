"""``python -m benchmarks strength --sprt``: a match stops once the sequential test decides,
and Ctrl-C keeps the games played."""

from __future__ import annotations

import math
import statistics
from statistics import NormalDist

import pytest

from benchmarks import strength, strength_report
from gamesearch.plugins import default_registry


def _normal_llr(pairs: list[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of two normal models of a pair's mean score, written out over
    the regularised sample: each pair five times and each of the five outcomes once more
    (one virtual pair, a fifth on each outcome), its log-likelihoods scaled back to the
    pairs played; means the scores the two Elo differences expect, the sample's spread."""
    sample = [points / 2 for points in pairs for _ in range(5)] + [0, 0.25, 0.5, 0.75, 1]
    spread = statistics.pstdev(sample)
    h0 = NormalDist(1 / (1 + 10 ** (-elo0 / 400)), spread)
    h1 = NormalDist(1 / (1 + 10 ** (-elo1 / 400)), spread)
    ratio = sum(math.log(h1.pdf(value) / h0.pdf(value)) for value in sample)
    return ratio * len(pairs) / len(sample)


@pytest.mark.parametrize(
    "pairs",
    [
        [2.0, 1.5, 1.0, 0.5, 2.0, 1.0, 1.5],
        [0.0, 1.0, 0.5, 1.0, 1.0, 0.0],
        [1.0, 1.0, 2.0, 1.0],
        [1.0] * 7,
        [2.0, 2.0, 2.0],
        [0.5],
    ],
)
@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 50.0), (-20.0, 20.0)])
def test_the_log_likelihood_ratio_is_that_of_two_normal_models_of_the_regularised_pairs(
    pairs: list[float], elo0: float, elo1: float
) -> None:
    assert strength_report.sprt_llr(pairs, elo0, elo1) == pytest.approx(
        _normal_llr(pairs, elo0, elo1)
    )


def test_the_regularisation_fades_as_the_pairs_grow() -> None:
    pairs = [2.0, 1.5, 1.0, 0.5, 2.0, 1.0, 1.5] * 300
    means = [points / 2 for points in pairs]
    centre, variance = statistics.fmean(means), statistics.pvariance(means)
    plain = len(pairs) * (0.5715 - 0.5) * (2 * centre - 0.5 - 0.5715) / (2 * variance)
    assert strength_report.sprt_llr(pairs, 0, 50) == pytest.approx(plain, rel=0.01)


def test_the_test_accepts_h1_for_a_winner_h0_for_a_loser_and_waits_when_even() -> None:
    lower, upper = strength_report.sprt_bounds()
    assert (lower, upper) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    winning = [2.0, 1.5, 1.0, 2.0, 1.5, 2.0] * 4
    assert strength_report.sprt_verdict(winning, 0, 50) == "H1"
    assert strength_report.sprt_verdict([2 - points for points in winning], 0, 50) == "H0"
    assert strength_report.sprt_verdict([1.0, 1.5, 0.5, 1.0] * 3, -50, 50) is None
    assert strength_report.sprt_llr([], 0, 50) == 0


def _first_verdict(pair: float, elo0: float, elo1: float) -> tuple[int, str | None]:
    """Return after how many pairs that all score ``pair`` the test decides, and how."""
    for count in range(1, 200):
        verdict = strength_report.sprt_verdict([pair] * count, elo0, elo1)
        if verdict is not None:
            return count, verdict
    return 0, None


def test_pairs_that_all_score_the_same_decide_after_a_few_pairs_not_never() -> None:
    # every pair won both ways, or lost both ways: a clear verdict, yet not from two pairs
    wins, losses, even = (_first_verdict(pair, 0, 50) for pair in (2.0, 0.0, 1.0))
    assert wins[1] == "H1" and 3 <= wins[0] <= 10
    assert losses[1] == "H0" and losses[0] <= wins[0]
    # every pair split: even engines, so not 50 Elo stronger (H0), after more pairs
    assert even[1] == "H0" and wins[0] < even[0] <= 40
    # and symmetric bounds around 0 stay undecided by even pairs longer still
    assert _first_verdict(1.0, -50, 50)[1] is None


def _depth_match() -> strength.Match:
    """Depth 4 against depth 1 in Connect Four, on their own budgets: the first is far
    stronger, and the games are quick."""
    return strength.Match("peers", "alphabeta:depth=4", "alphabeta:depth=1", "deep", False)


def _play(match: strength.Match, games: int, **extra: object) -> strength.Outcome:
    registry = default_registry()
    return strength.play(
        registry.new_game("connect4"),
        match,
        registry=registry,
        seconds=0.01,
        clock="cpu",
        games=games,
        seed=3,
        opening_plies=2,
        max_plies=None,
        **extra,  # type: ignore[arg-type]
    )


def test_a_match_stops_at_the_pair_where_the_sequential_test_decides() -> None:
    seen: list[str] = []
    outcome = _play(_depth_match(), 60, advance=seen.append, sprt=(0.0, 50.0))
    assert outcome.ended == "H1" and outcome.games == len(seen) < 60
    assert outcome.games % 2 == 0 and outcome.sprt == (0.0, 50.0)
    assert outcome.llr is not None and outcome.llr >= strength_report.sprt_bounds()[1]
    # the same schedule played to the pair before did not decide: it stopped at the first
    shorter = _play(_depth_match(), outcome.games - 2, advance=lambda _: None, sprt=(0, 50))
    assert shorter.ended == "" and shorter.games == outcome.games - 2
    assert shorter.llr is not None and shorter.llr < strength_report.sprt_bounds()[1]
    assert shorter.wins <= outcome.wins and shorter.losses <= outcome.losses


def test_ctrl_c_keeps_the_games_played_and_says_the_match_was_stopped() -> None:
    seen: list[str] = []

    def advance(text: str) -> None:
        seen.append(text)
        if len(seen) == 3:
            raise KeyboardInterrupt

    outcome = _play(_depth_match(), 20, advance=advance)
    assert outcome.ended == "stopped" and outcome.games == 3
    assert outcome.wins + outcome.draws + outcome.losses == 3 and outcome.llr is None
    (row,) = strength_report.rows({"matches": [outcome.as_dict()]})
    assert row[1] == "deep (stopped)" and row[3] == f"{outcome.score:g}/3 ({outcome.wins}-" + (
        f"{outcome.draws}-{outcome.losses})"
    )


def test_the_table_names_the_test_and_each_verdict() -> None:
    item = {
        "match": {"suite": "tricks", "note": "all tricks", "opponent": "engine:iterative=true"},
        "opponent": "engine:iterative=true",
        "wins": 20,
        "draws": 4,
        "losses": 6,
        "games": 30,
        "score": 22.0,
        "elo": 180.0,
        "interval": 140.0,
        "plies": 33.0,
        "player_ms": 60.0,
        "opponent_ms": 55.0,
        "ended": "H1",
    }
    data = {
        "game": "connect4",
        "seconds": 0.02,
        "clock": "cpu",
        "games": 200,
        "max_plies": None,
        "seed": 5,
        "sprt": [0, 50],
        "matches": [item],
        "stockfish_scale": None,
        "skipped": [],
    }
    lines = strength_report.markdown(data).splitlines()
    assert lines[0] == (
        "connect4: at most 200 games a match, stopped once the SPRT of +0 against +50 Elo "
        "decided, 0.02 s of processor time a move, seed 5:"
    )
    assert lines[-1].startswith("| tricks | all tricks (SPRT: H1) | engine:iterative=true | 22/30")
