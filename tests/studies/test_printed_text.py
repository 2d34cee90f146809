"""What ``regcontact run`` prints reads right: no convergence block for one α, no empty ``P =:``, no ``0 = 10``, a
narrow table by default (``--wide`` for every column), the fixed-time note before the numbers it explains, and
warnings that say what to do. Built from documents, not solves: each check takes milliseconds."""

import numpy as np

from regcontact.convergence import analyse
from regcontact.studies._compliant_text import convergence_lines
from regcontact.studies.loading import STUDY_KINDS
from regcontact.studies.study_result import StudyResult

TAIL = "last 3 decades of α (at least 3 points)"


def test_one_alpha_prints_one_line_and_no_warnings():
    """The Painlevé map (α = 1e6 over 1,600 systems) has no α-series: nothing to fit, nothing to warn about."""
    warning = "only 1 distinct α with a distance above round-off: no order (an order needs 3 or more: sweep more)"
    systems = [
        {"system": {"mu": 1.0, "phi0": 0.1 * i}, "impulse_velocity": {"reference": [0, 0], "warnings": [warning]}}
        for i in range(1_600)
    ]
    lines = convergence_lines({"tail_rule": TAIL, "systems": systems}, alphas=[1e6])
    assert len(lines) == 1
    assert "not analysed, one α (1e6)" in lines[0] and "sweep.alpha" in lines[0]
    assert "warning" not in lines[0] and "no order" not in lines[0]


def test_an_absent_reference_says_why_without_an_empty_equation():
    entry = {
        "system": {},
        "impulse_velocity": {"reference": None, "warnings": ["no reference: an impact with a continuum"]},
        "compliant_limit": {
            "reference": None,
            "warnings": ["no reference: compliant_limit: no closed contact approaches (v_n < 0): no impact"],
        },
    }
    lines = convergence_lines({"tail_rule": TAIL, "systems": [entry]}, alphas=[1e4, 1e6])
    assert "  impulse_velocity: no reference (an impact with a continuum)" in lines
    assert "  compliant_limit: no reference (no closed contact approaches (v_n < 0): no impact)" in lines
    assert not any("=:" in line for line in lines)


def test_exact_zeros_are_not_printed_as_a_zero_floor_equal_to_ten():
    """Sec. 5.2's time-stepping trend: δt·λ̃ and Λ are exactly 0, so the round-off floor is 0."""
    result = analyse(np.logspace(-5, -2, 4), np.zeros((4, 2)), np.zeros(2), rtol=1e-10)
    assert result.warnings == (
        "round-off: 4 tail distance(s) exactly 0: equal to the reference, not fitted",
        "only 0 distinct α with a distance above round-off: no order (the integrals equal the reference already)",
    )
    nonzero = analyse(np.logspace(3, 8, 6), np.full((6, 2), 0.5), np.full(2, 0.5), rtol=1e-10)
    assert any("(= 10·(rtol·size + atol))" in warning for warning in nonzero.warnings), nonzero.warnings
    assert not any("= 10 (" in warning for warning in nonzero.warnings)


def test_warnings_say_what_to_do():
    alpha = np.array([1e3, 1e4])
    two = analyse(alpha, np.stack([0.3 + 1 / np.sqrt(alpha)] * 2, axis=1), np.full(2, 0.3), rtol=1e-10)
    assert two.order is None and two.limit is None
    assert two.warnings == (
        "only 2 distinct α with a distance above round-off: no order (an order needs 3 or more: sweep more values)",
        "no limit extrapolated (the order of the successive differences needs 4 distinct α: sweep more values)",
    )
    one = analyse(alpha[:1], np.full((1, 2), 0.4), np.full(2, 0.3), rtol=1e-10)
    assert one.warnings == (
        "only 1 distinct α with a distance above round-off: no order (an order needs 3 or more: sweep more values)",
    )


def test_the_fixed_time_note_comes_before_the_distances_it_explains():
    """The two-point rod runs to t = 1: its integrals carry the weight, 5.0 from Λ = 0, and that is no failure."""
    note = "the runs end at a fixed time (1), not after the impulsive phase: … not a failed run"
    impulse = {
        "reference": [0.0] * 4,
        "order": -0.0,
        "fit_alpha_range": [1e4, 1e8],
        "fit_residual": 1.8e-6,
        "limit": [4.97, -0.42, 5.03, -0.08],
        "distance_of_limit": 5.03,
        "warnings": ["the distances do not fall (order -0.000 < 0.1): the integrals approach another limit; …"],
    }
    document = {"tail_rule": TAIL, "systems": [{"system": {}, "impulse_velocity": impulse}], "note": note}
    lines = convergence_lines(document, alphas=[1e4, 1e6, 1e8])
    assert lines[1] == f"note: {note}"
    assert lines[2].startswith("  impulse_velocity Λ = (0, 0, 0, 0): order")


def _table1_like() -> StudyResult:
    """Rows shaped like Table 1's (README's numbers): constant references, termination, status and check."""
    rows = [
        {
            "alpha": alpha,
            "int_lambda_n": n,
            "int_lambda_t": t,
            "paper_int_lambda_n": pn,
            "paper_int_lambda_t": pt,
            "impulse_velocity_n": 0.32476,
            "impulse_velocity_t": 0.4375,
            "distance_to_impulse_velocity": d,
            "termination": "time_limit",
            "n_steps": steps,
            "status": "successful",
            "check": "passed",
        }
        for alpha, n, t, pn, pt, d, steps in (
            (1e3, 0.363774, 0.448217, 0.3688, 0.4551, 0.0390143, 159),
            (1e8, 0.324866, 0.437527, 0.3249, 0.4376, 1.064e-04, 269),
        )
    ]
    return StudyResult(name="table1", kind="compliant_sweep", rows=rows)


def test_the_table_is_narrow_unless_wide():
    kind = STUDY_KINDS["compliant_sweep"]()
    config = {"study": {"name": "table1", "description": "Table 1"}}
    narrow = kind.text(_table1_like(), config)
    wide = kind.text(_table1_like(), config, wide=True)
    header, wide_header = narrow[1].splitlines()[0], wide[1].splitlines()[0]
    for column in ("impulse_velocity_n", "termination", "status", "check"):
        assert column not in header.split() and column in wide_header.split()
    assert "distance_to_impulse_velocity" in header.split() and "n_steps" in header.split()
    assert max(map(len, narrow[1].splitlines())) < 120 < 150 < max(map(len, wide[1].splitlines()))
    said = (
        "in every row: impulse_velocity_n = 0.32476, impulse_velocity_t = 0.4375, termination = time_limit, "
        "status = successful, check = passed (--wide: as columns)"
    )
    assert narrow[2] == said
    assert not any(line.startswith("in every row") for line in wide)


def test_run_takes_wide():
    from regcontact import cli

    assert cli._parser().parse_args(["run", "study.toml", "--wide"]).wide is True
    assert cli._parser().parse_args(["run", "study.toml"]).wide is False
