"""Sweeps over any key (issue 11, point 1): grid and zipped axes, ranges, one row per case with every swept key as
a column, the same numbers as the cases run one by one, and one-line errors for bad swept values."""

import csv
import itertools
from pathlib import Path

import jax.tree_util as jtu
import numpy as np
import pytest
import xarray as xr

from regcontact.cli import main
from regcontact.studies import compliant_study
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.config import ConfigError, validate
from regcontact.studies.loading import load_study
from regcontact.studies.system_config import ELEMENTWISE_FROM, kind_fields, system_from_config, systems_from_config
from tests.compliant.batch_promise import assert_lanes_agree

BASE = """
[study]
name = "sweep"
kind = "compliant_sweep"

[system]
phi0 = 1.0471975511965976

[contact.normal]
stiffness = 1.0
damping = 1.0

[sweep]
alpha = [1e2, 1e3]
{sweep}

[solver]
name = "RadauIIA5"
rtol = 1e-8
atol = 1e-10

[termination]
time_limit = "contact_time"
contact_times = 1.0

[references]
impulse_velocity = true
"""


def _study(tmp_path: Path, sweep: str = "", overrides: list[str] | None = None):
    path = tmp_path / "study.toml"
    path.write_text(BASE.replace("{sweep}", sweep))
    return load_study(path, overrides or [])


def test_grid_over_contact_and_solver_keys_is_one_row_per_case_with_the_swept_keys_as_columns(tmp_path):
    loaded = _study(tmp_path, "contact.normal.stiffness = [1.0, 2.0]\nsolver.rtol = [1e-7, 1e-9]")
    plan = CompliantSweep.from_config(loaded.config).plan
    assert [axis.keys for axis in plan.axes] == [("contact.normal.stiffness",), ("solver.rtol",), ("alpha",)]
    labels, cases = compliant_study.build_cases(loaded.config)
    expected = list(itertools.product([1.0, 2.0], [1e-7, 1e-9], [1e2, 1e3]))  # C order, alpha fastest
    assert [(r["contact.normal.stiffness"], r["solver.rtol"], r["alpha"]) for r in labels] == expected
    np.testing.assert_array_equal(np.asarray(cases.contact.normal.stiffness), [k for k, _, _ in expected])
    np.testing.assert_array_equal(np.asarray(cases.controls.rtol), [r for _, r, _ in expected])
    # The contact-time window follows the swept stiffness: t_c = π √(m_n / (k α)).
    t_max = np.asarray(cases.controls.t_max)
    np.testing.assert_allclose(t_max[0] / t_max[4], np.sqrt(2.0), rtol=1e-14)


@pytest.mark.slow
def test_a_sweep_over_contact_and_solver_keys_equals_the_cases_run_one_by_one(tmp_path):
    swept = _study(tmp_path, "contact.normal.damping = [0.5, 2.0]\nsolver.atol = [1e-9, 1e-11]")
    rows = swept.kind.run(swept.config).rows
    assert len(rows) == 8
    for row in rows:
        single = _study(
            tmp_path,
            overrides=[
                f"sweep.alpha=[{row['alpha']!r}]",
                f"contact.normal.damping={row['contact.normal.damping']!r}",
                f"solver.atol={row['solver.atol']!r}",
            ],
        )
        (alone,) = single.kind.run(single.config).rows
        assert row["status"] == alone["status"] == "successful"
        assert_lanes_agree(
            [row["int_lambda_n"], row["int_lambda_t"], row["t_end"]],
            [alone["int_lambda_n"], alone["int_lambda_t"], alone["t_end"]],
            "RadauIIA5",
            1e-8,
            row["solver.atol"],
            steps=(row["n_steps"], alone["n_steps"]),
        )
        assert row["distance_to_impulse_velocity"] == pytest.approx(alone["distance_to_impulse_velocity"], rel=1e-8)


def test_zipped_keys_vary_together_along_one_axis(tmp_path):
    loaded = _study(
        tmp_path,
        "system.phi0 = [0.9, 1.0, 1.1]\nsystem.vx0 = [-1.0, -2.0, -3.0]\nmu = [1.5, 2.0]\n"
        'zip = [["phi0", "system.vx0"]]',
    )
    plan = CompliantSweep.from_config(loaded.config).plan
    assert [axis.keys for axis in plan.axes] == [("system.mu",), ("system.phi0", "system.vx0"), ("alpha",)]
    labels, cases = compliant_study.build_cases(loaded.config)
    assert len(labels) == 2 * 3 * 2
    assert {(r["phi0"], r["vx0"]) for r in labels} == {(0.9, -1.0), (1.0, -2.0), (1.1, -3.0)}
    np.testing.assert_array_equal(np.asarray(cases.system.phi0), [r["phi0"] for r in labels])
    np.testing.assert_array_equal(np.asarray(cases.system.vx0), [r["vx0"] for r in labels])
    np.testing.assert_array_equal(np.asarray(cases.system.mu), [r["mu"] for r in labels])


def test_zip_with_alpha_makes_one_alpha_series_per_remaining_point(tmp_path):
    loaded = _study(tmp_path, 'contact.friction.damping = [1.0, 10.0]\nzip = [["alpha", "contact.friction.damping"]]')
    labels, _ = compliant_study.build_cases(loaded.config)
    assert [(r["alpha"], r["contact.friction.damping"]) for r in labels] == [(1e2, 1.0), (1e3, 10.0)]


def test_ranges_in_any_swept_key(tmp_path):
    loaded = _study(
        tmp_path, "contact.normal_exponents.damping = {linspace = [0.5, 1.0, 3]}", ["sweep.alpha={logspace=[2, 3, 2]}"]
    )
    labels, cases = compliant_study.build_cases(loaded.config)
    assert [r["contact.normal_exponents.damping"] for r in labels] == [0.5, 0.5, 0.75, 0.75, 1.0, 1.0]
    assert [r["alpha"] for r in labels] == [1e2, 1e3] * 3
    np.testing.assert_array_equal(np.asarray(cases.contact.normal_exponents.damping), [0.5, 0.5, 0.75, 0.75, 1, 1])


def test_the_initial_penetration_and_the_window_can_be_swept(tmp_path):
    loaded = _study(tmp_path, "system.initial_penetration = [0.0, 1e-3]\ntermination.contact_times = [1.0, 2.0]")
    labels, cases = compliant_study.build_cases(loaded.config)
    np.testing.assert_array_equal(np.asarray(cases.penetration), [r["initial_penetration"] for r in labels])
    t_max = np.asarray(cases.controls.t_max)
    np.testing.assert_allclose(t_max[2:4], 2 * t_max[0:2], rtol=1e-15)  # contact_times 2 vs 1, same α


@pytest.mark.parametrize(
    ("sweep", "key", "expected"),
    [
        ("solver.rtol = [1e-8, 2.0]", "sweep.solver.rtol", "each a number in [2.2e-14, 1)"),
        ("solver.rtol = {linspace = [1e-9, 1e-8]}", "sweep.solver.rtol", "{linspace = [a, b, n]}"),
        ("contact.normal.stiffness = [1.0, 'stiff']", "sweep.contact.normal.stiffness", "a positive number"),
        ("contact.normal.stiffness = 2.0", "sweep.contact.normal.stiffness", "a non-empty list of values"),
        ("solver.name = ['RadauIIA5', 'Kvaerno5']", "sweep.solver.name", "a known key (this table has: atol, rtol)"),
        ("system.mu = [1.0]\nmu = [2.0]", "sweep.mu", "no value: sweep.system.mu is also given"),
        ("system.mu = [1.0, 2.0]\nzip = [['mu', 'phi0']]", "sweep.zip", "'phi0' is not swept"),
        ("mu = [1.0, 2.0]\nphi0 = [1.0]\nzip = [['mu', 'phi0']]", "sweep.zip", "equal numbers of values"),
        ("zip = [['mu']]", "sweep.zip", "a list of ≥ 2 key names"),
        ("system.mu = [-1.0]", "sweep.system.mu", "a number ≥ 0"),
    ],
)
def test_a_bad_swept_value_is_one_config_error_naming_the_key(tmp_path, sweep, key, expected):
    with pytest.raises(ConfigError) as error:
        _study(tmp_path, sweep)
    assert error.value.key == key
    assert expected in str(error.value)


def test_a_bad_swept_value_stops_the_cli_with_one_line_and_nothing_written(tmp_path, capsys):
    path = tmp_path / "study.toml"
    path.write_text(BASE.replace("{sweep}", "contact.normal.damping = {logspace = [0, 1, 0]}"))
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out)]) == 2
    printed = capsys.readouterr()
    (line,) = printed.err.splitlines()
    assert line.startswith("regcontact: config error: sweep.contact.normal.damping = {'logspace': [0, 1, 0]}: expected")
    assert not out.exists()


@pytest.mark.slow
def test_a_grid_sweep_is_also_a_netcdf_dataset_with_the_swept_keys_as_dimensions(tmp_path, capsys):
    path = tmp_path / "study.toml"
    sweep = 'mu = [1.5, 2.0]\nsystem.phi0 = [0.9, 1.0, 1.1]\nsystem.vx0 = [-1.0, -2.0, -3.0]\nzip = [["phi0", "vx0"]]'
    path.write_text(BASE.replace("{sweep}", sweep))
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.json", "results.nc"]
    assert f"wrote {out / 'results.csv'}, {out / 'results.json'} and {out / 'results.nc'}" in capsys.readouterr().out
    with open(out / "results.csv") as handle:
        rows = list(csv.DictReader(handle))
    with xr.open_dataset(out / "results.nc", engine="scipy") as grid:
        assert dict(grid.sizes) == {"mu": 2, "phi0": 3, "alpha": 2}
        np.testing.assert_array_equal(grid["vx0"].values, [-1.0, -2.0, -3.0])  # zipped: a coordinate along phi0
        for row in rows:
            point = grid.sel(mu=float(row["mu"]), phi0=float(row["phi0"]), alpha=float(row["alpha"]))
            assert float(point["int_lambda_n"]) == float(row["int_lambda_n"])
            assert int(point["n_steps"]) == int(row["n_steps"])
            assert str(point["end_mode"].values) == row["end_mode"]
            assert bool(point["impulsive"]) == (row["impulsive"] == "True")
        assert grid.attrs["study"] == "sweep"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "key", "values"),
    [
        ("painleve_rod", "phi0", np.linspace(0.3, 1.4, 40)),
        ("two_point_rod", "phi0", np.linspace(-0.4, 0.4, 40)),
        ("reduced_single_contact", "b", np.linspace(-2.0, 1.0, 40)),
    ],
)
def test_many_systems_built_as_one_elementwise_batch_equal_those_built_one_by_one(kind, key, values):
    table = validate({"kind": kind}, kind_fields(kind))
    tables = [{**table, key: float(value), "mu": 0.1 + 0.01 * i} for i, value in enumerate(values)]
    assert len(tables) >= ELEMENTWISE_FROM  # the batch path, not the loop
    batch = systems_from_config(tables)
    for i, one in enumerate(tables):
        single = system_from_config(one)
        for leaf, alone in zip(jtu.tree_leaves(batch), jtu.tree_leaves(single)):
            np.testing.assert_array_equal(np.asarray(leaf)[i], np.asarray(alone))


def test_a_bad_system_in_a_batch_is_named_by_its_values():
    table = validate({"kind": "reduced_single_contact"}, kind_fields("reduced_single_contact"))
    tables = [{**table, "A": 1.0, "C": 1.0, "B": b} for b in np.linspace(0.0, 1.5, 40).tolist()]
    with pytest.raises(ConfigError) as error:
        systems_from_config(tables)
    # the first with B² ≥ A C (a singular inverse mass), refused by the system's own rule, naming B
    assert error.value.key == "system.B" and error.value.expected.startswith("B² < A C = 1: ")
    assert str(error.value).endswith("at B=1.0")
