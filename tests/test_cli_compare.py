"""``gamesearch compare``: searchers side by side, the openings table, plots."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from clirun import assert_usage_error, run_cli, run_script

from gamesearch.cli import _plot
from gamesearch.cli.compare import split_specs
from gamesearch.search.iterative import IterativeDeepening

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def compare_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    status, out, err = run_cli(capsys, "compare", *argv, "--json")
    assert status == 0, err
    return json.loads(out)


def test_every_searcher_agrees_with_the_minimax_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = compare_json(
        capsys,
        "tictactoe",
        "--position",
        "X...O....",
        "--repeat",
        "2",
        "--searchers",
        "minimax,alphabeta,alphabeta:table=on,ordering=natural,iterative,alphabeta:scoring=plain",
    )
    assert data["references"] == {"distance": "minimax", "plain": "minimax:scoring=plain"}
    rows = {row["searcher"]: row for row in data["rows"]}
    assert list(rows) == [
        "minimax",
        "alphabeta",
        "alphabeta:ordering=natural,table=true",
        "iterative",
        "alphabeta:scoring=plain",
    ]
    assert all(row["agrees"] is True for row in rows.values())
    assert rows["minimax"]["nodes_vs_reference"] == 1.0
    assert rows["alphabeta"]["stats"]["nodes"] < rows["minimax"]["stats"]["nodes"]
    assert rows["alphabeta"]["stats"]["cutoffs"] > 0 and rows["iterative"]["stats"]["tt_hits"] > 0
    assert len(rows["minimax"]["seconds"]) == 2


def test_a_depth_limit_is_given_to_each_searcher_and_to_the_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = compare_json(capsys, "tictactoe", "--depth", "2", "--searchers", "alphabeta,iterative")
    assert data["references"] == {"distance": "minimax:depth=2"}
    assert [row["searcher"] for row in data["rows"]] == ["alphabeta:depth=2", "iterative:depth=2"]
    assert all(row["agrees"] and not row["is_exact"] for row in data["rows"])


def test_a_search_too_big_is_given_up_and_the_deepest_exact_searcher_is_the_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = compare_json(
        capsys, "tictactoe", "--max-nodes", "20000", "--searchers", "minimax,alphabeta"
    )
    minimax, alphabeta = data["rows"]
    assert minimax == {"searcher": "minimax", "gave_up": True}
    assert data["references"] == {"distance": "alphabeta"} and alphabeta["agrees"] is True
    status, out, _ = run_cli(
        capsys, "compare", "tictactoe", "--max-nodes", "20000", "--searchers", "minimax,alphabeta"
    )
    assert (
        status == 0
        and "gave up after 20,000 nodes" in out
        and "checked against (distance scoring): alphabeta" in out
    )


def test_the_table_has_one_row_per_registered_searcher(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "compare", "tictactoe", "--position", "XO..X....")
    assert status == 0
    for column in (
        "value",
        "best moves",
        "agrees",
        "nodes",
        "leaves",
        "cut-offs",
        "tt hits",
        "median ms",
        "nodes/s",
        "vs ref",
    ):
        assert column in out
    for searcher in ("minimax", "alphabeta", "iterative"):
        assert f"│ {searcher} " in out
    assert "NO" not in out


@pytest.mark.slow
def test_openings_reproduce_seed_003_figures(capsys: pytest.CaptureFixture[str]) -> None:
    data = compare_json(capsys, "tictactoe", "--openings")
    assert data["searchers"] == {
        "minimax": "minimax:scoring=plain",
        "alphabeta": "alphabeta:scoring=plain,ordering=natural,all_best=false",
    }
    start, *openings = data["rows"]
    assert (start["opening"], start["minimax_nodes"], start["alphabeta_nodes"]) == (
        None,
        549_946,
        18_297,
    )
    assert [row["opening"] for row in openings] == [str(cell) for cell in range(9)]
    ratios = [row["ratio"] for row in openings]
    assert 12.5 < min(ratios) < 13.5 and 25 < max(ratios) < 26  # "13 to 26 times less work"
    assert all(
        row["minimax_nodes"] == pytest.approx(row["ratio"] * row["alphabeta_nodes"])
        for row in openings
    )


def test_split_specs_keeps_options_with_their_searcher() -> None:
    assert split_specs("minimax, alphabeta:depth=4,table=on ,iterative") == [
        "minimax",
        "alphabeta:depth=4,table=on",
        "iterative",
    ]


@pytest.mark.slow
def test_a_plot_is_a_png_naming_the_searchers_in_its_legend(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "compare.png"
    status, out, err = run_cli(
        capsys,
        "compare",
        "tictactoe",
        "-p",
        "X...O....",
        "--searchers",
        "minimax,alphabeta",
        "--plot",
        str(target),
    )
    assert status == 0, err
    assert target.read_bytes().startswith(PNG_SIGNATURE) and f"plot written to {target}" in out
    figure = _plot.comparison_figure(
        "t", {"minimax": 100, "alphabeta": 10}, {"minimax": 0.2, "alphabeta": 0.01}
    )
    for axes in figure.axes:
        legend = axes.get_legend()
        assert legend is not None
        assert [text.get_text() for text in legend.get_texts()] == ["minimax", "alphabeta"]


@pytest.mark.slow
def test_depths_measure_each_depth_capable_searcher_and_plot_against_depth(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "depths.png"
    data = compare_json(
        capsys,
        "tictactoe",
        "--depths",
        "1..4",
        "--searchers",
        "minimax,alphabeta",
        "--plot",
        str(target),
    )
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert set(data["searchers"]) == {"minimax", "alphabeta"}
    for series in data["searchers"].values():
        assert [point["depth"] for point in series] == [1, 2, 3, 4]
        nodes = [point["nodes"] for point in series]
        assert nodes == sorted(nodes) and nodes[0] == 10
    assert data["searchers"]["minimax"][3]["nodes"] > data["searchers"]["alphabeta"][3]["nodes"]
    figure = _plot.depth_figure("t", {"minimax": [(1, 10, 0.1), (2, 82, 0.2)]})
    assert [text.get_text() for text in figure.axes[0].get_legend().get_texts()] == ["minimax"]


def test_without_matplotlib_the_error_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    # one free cell: the searches end before compare would print its progress to stderr
    assert_usage_error(
        capsys,
        "pip install 'gamesearch[plot]'",
        "compare",
        "tictactoe",
        "-p",
        "XOX/XOO/OX.",
        "--plot",
        str(tmp_path / "x.png"),
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--searchers", "minimax,dfs"), "unknown searcher 'dfs'"),
        (
            ("--searchers", "depth=3,minimax"),
            "searcher option 'depth=3' comes before any searcher name",
        ),
        (("--searchers", ","), "no searcher named in ','"),
        (("--repeat", "0"), "--repeat must be >= 1: 0"),
        (("--depth", "0"), "--depth must be >= 1: 0"),
        (("--depths", "3..1"), "--depths must run from 1 or more upwards"),
        (("--depths", "a..b"), "--depths must be N or FROM..TO"),
        (
            ("--depths", "2", "--searchers", "minimax", "--plot", "/nonexistent/x.png"),
            "folder '/nonexistent' does not exist",
        ),
        (
            ("--plot", "x.nope", "-p", "XOX/O.O/.X."),
            "--plot must end in .png, .svg, .pdf: 'x.nope'",
        ),
        (
            ("--openings", "--plot", "x.png"),
            "--plot draws the searcher table or --depths, not --openings",
        ),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert_usage_error(capsys, message, "compare", "tictactoe", *argv)


def test_the_installed_script_prints_the_openings_help() -> None:
    done = run_script("compare", "--help")
    assert done.returncode == 0 and "gamesearch compare tictactoe --openings" in done.stdout


def test_a_narrow_terminal_gets_whole_numbers_not_shortened_ones(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    status, out, _ = run_cli(
        capsys, "compare", "tictactoe", "-p", "X...O....", "--searchers", "minimax,alphabeta"
    )
    assert status == 0
    assert "7,332" in out and "3,468" in out and "…" not in out


def test_compare_of_iterative_deepening_on_connect4_finishes_within_its_node_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The budget given for the guard run holds for the timed runs too (it used to hang)."""
    status, out, err = run_cli(
        capsys, "compare", "connect4", "--searchers", "iterative", "--max-nodes", "3000", "--json"
    )
    assert status == 0, err
    row = json.loads(out)["rows"][0]
    assert row["searcher"] == "iterative" and not row["gave_up"] and row["stats"]["nodes"] <= 3000


def test_a_row_that_disagrees_with_the_reference_makes_the_exit_status_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import attrs

    from gamesearch.cli import _common
    from gamesearch.plugins import build_registry
    from gamesearch.search import AlphaBeta

    @attrs.frozen(kw_only=True)
    class OffByOne(AlphaBeta):
        """Alpha-beta with its value off by one: a searcher with a bug."""

        name = "off-by-one"

        def root(self, game, context):  # type: ignore[no-untyped-def]
            answer = super().root(game, context)
            return attrs.evolve(answer, value=answer.value + 1)

    registry = build_registry()
    registry.add_searcher(OffByOne)
    monkeypatch.setattr(_common, "registry", lambda: registry)
    monkeypatch.setattr("gamesearch.cli.compare.registry", lambda: registry)
    status, out, _ = run_cli(
        capsys,
        "compare",
        "tictactoe",
        "--position",
        "XX.OO....",
        "--searchers",
        "alphabeta,off-by-one",
        "--json",
    )
    rows = {row["searcher"]: row["agrees"] for row in json.loads(out)["rows"]}
    assert (status, rows) == (1, {"alphabeta": True, "off-by-one": False})
    status, _, _ = run_cli(
        capsys, "compare", "tictactoe", "--position", "XX.OO....", "--searchers", "alphabeta"
    )
    assert status == 0


def test_ctrl_c_prints_the_rows_measured_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamesearch.cli.compare as compare

    real, calls = compare.measure, []

    def interrupt_on_the_third(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compare, "measure", interrupt_on_the_third)
    status, out, err = run_cli(
        capsys,
        "compare",
        "tictactoe",
        "--position",
        "XX.OO....",
        "--searchers",
        "minimax,alphabeta,pvs,mtdf",
    )
    assert status == 130
    assert "minimax" in out and "alphabeta" in out and "mtdf" not in out
    assert err.endswith(
        "gamesearch: interrupted after 2 of 4 searchers; the figures above are for those 2\n"
    )


def test_a_searcher_that_answers_within_its_budget_is_run_once_for_one_timed_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # iterative deepening spends its whole budget on a big board: its guarded run is its
    # timed run, or the command takes twice as long as the help says
    searched: list[int | None] = []
    search = IterativeDeepening.search

    def counted(self: IterativeDeepening, *args: Any, **kwargs: Any) -> Any:
        if self.max_nodes is not None:  # (a search given a limit runs again with it set)
            searched.append(self.max_nodes)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(IterativeDeepening, "search", counted)
    status, out, _ = run_cli(
        capsys, "compare", "connect4", "--searchers", "iterative", "--max-nodes", "3000", "--json"
    )
    assert status in (0, 1) and json.loads(out)["rows"][0]["stats"]["nodes"] <= 3000
    assert len(searched) == 1
    run_cli(capsys, "compare", "connect4", "-s", "iterative", "--max-nodes", "3000", "-r", "3")
    assert len(searched) == 1 + 3
