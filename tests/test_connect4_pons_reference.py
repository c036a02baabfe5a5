"""Every row of Pons' reference figures is the one its cited page prints."""

from __future__ import annotations

from gamesearch_games.connect4.data import CONNECT4, PONS_PART12_PAGE, PONS_REFERENCE

#: the figures as each cited page prints them: set -> (positions, strong mean nodes, weak
#: mean nodes), copied from the page's benchmark table (Part 12 names the sets End-Easy,
#: Middle-Easy, Middle-Medium, Begin-Easy, Begin-Medium, Begin-Hard)
PRINTED = {
    PONS_PART12_PAGE: {
        "Test_L3_R1": (1000, "51.28", "29.36"),
        "Test_L2_R1": (1000, "449.6", "532.7"),
        "Test_L2_R2": (1000, "39,900", "20,210"),
        "Test_L1_R1": (1000, "3,298", "22,230"),
        "Test_L1_R2": (1000, "1,201,000", "538,700"),
        "Test_L1_R3": (1000, "65,920,000", "38,120,000"),
    },
}


def printed_number(text: str) -> float:
    return float(text.replace(",", ""))


def test_every_row_is_the_figures_its_cited_page_prints() -> None:
    for name, reference in PONS_REFERENCE.items():
        assert reference.source in PRINTED, name
        positions, strong, weak = PRINTED[reference.source][name]
        assert reference.positions == positions, name
        assert reference.strong_nodes == printed_number(strong), name
        assert reference.weak_nodes == printed_number(weak), name
        assert reference.mean_nodes(weak=True) == reference.weak_nodes


def test_every_set_a_page_prints_has_a_row_and_every_row_a_published_file() -> None:
    assert {name for table in PRINTED.values() for name in table} == set(PONS_REFERENCE)
    assert set(PONS_REFERENCE) <= {file.name for file in CONNECT4.files}


def test_begin_hard_is_the_final_solvers_whole_set_mean() -> None:
    reference = PONS_REFERENCE["Test_L1_R3"]
    assert (reference.positions, reference.strong_nodes, reference.weak_nodes) == (
        1000,
        65.92e6,
        38.12e6,
    )
