"""The Fig. 12 panels lie in the cases their caption states, with the equilibria the text describes."""

import pytest

from regcontact.figures._fast_scale_portraits import PANELS, panel_equilibria

pytestmark = pytest.mark.slow

EXPECTED_EQUILIBRIA = {  # (mode, type, consistent) per panel, from Sec. 4.4's description of Fig. 12
    "A": set(),
    "B": {("S+", "saddle", True)},
    "C": {("S+", "stable focus", True)},
    "D": set(),
    "E": {("T", "stable focus", False), ("S+", "saddle", False)},
    "F": {("T", "stable focus", True), ("S+", "saddle", True)},
}


@pytest.mark.parametrize("panel", PANELS, ids=lambda panel: panel.letter)
def test_panel_case_and_equilibria(panel):
    cell = panel.check_case()  # raises if the parameters leave the stated cell or modes
    assert cell in panel.cases
    assert {(e.name, e.kind, e.real) for e in panel_equilibria(panel)} == EXPECTED_EQUILIBRIA[panel.letter]
