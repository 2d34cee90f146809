"""Simple things simple: a study, an α-sweep and a run's status from Python, and reprs that show the numbers."""

from pathlib import Path

import numpy as np
import pytest

import regcontact as rc
from regcontact.studies.config import ConfigError

TABLE1 = Path(__file__).parents[1] / "studies" / "table1.toml"

#: Table 1 as the study prints it (README): ∫λ_n, ∫λ_t at α = 1e3 and 1e8.
TABLE1_ENDS = {1e3: (0.363774, 0.448217), 1e8: (0.324866, 0.437527)}


@pytest.mark.slow
def test_run_study_gives_the_table_and_the_json_of_the_command_line(tmp_path):
    run = rc.run_study(TABLE1, overrides={"sweep.alpha": [1e3, 1e8]}, out=tmp_path, progress=lambda line: None)
    assert run.ok
    table = run.table
    for alpha, integrals in TABLE1_ENDS.items():
        row = table[table["alpha"] == alpha]
        np.testing.assert_allclose(row[["int_lambda_n", "int_lambda_t"]].to_numpy()[0], integrals, atol=5e-7)
    assert run.json["config"]["sweep"]["alpha"] == [1e3, 1e8]
    assert "convergence" in run.json
    assert sorted(path.name for path in run.written) == ["results.csv", "results.json", "results.nc"]


def test_run_study_takes_a_config_dict_and_refuses_bad_values_like_the_cli():
    import tomllib

    raw = tomllib.loads(TABLE1.read_text())
    with pytest.raises(ConfigError, match=r"^system.mass = -1: expected a positive number$"):
        rc.run_study(raw, overrides={"system.mass": -1})
    with pytest.raises(ConfigError, match=r"^solver.rtol = 2: expected a number in \[2.2e-14, 1\) \(100 float64"):
        rc.run_study(raw, overrides=["solver.rtol=2"])


def test_alpha_sweep_of_one_system_is_table1():
    runs, timings = rc.alpha_sweep(rc.PainleveRod(), rc.ContactModel(), list(TABLE1_ENDS), contact_times=1.0)
    np.testing.assert_allclose(runs.force_integrals, list(TABLE1_ENDS.values()), atol=5e-7)
    assert runs.ok.tolist() == [True, True]
    assert runs.status_name.tolist() == ["successful", "successful"]
    assert runs.check_name.tolist() == ["passed", "passed"]
    assert timings.compile_s > 0


def test_alpha_sweep_needs_one_end_time():
    with pytest.raises(ValueError, match="exactly one of contact_times"):
        rc.alpha_sweep(rc.PainleveRod(), rc.ContactModel(), [1e3])


@pytest.mark.slow
def test_one_run_names_its_status():
    rod, alpha = rc.PainleveRod(), 1e4
    run = rc.solve(rod, rc.ContactModel(), alpha, rc.Controls(t_max=rc.contact_time(rod, alpha)))
    assert (run.status_name, run.check_name, bool(run.ok)) == ("successful", "passed", True)


def test_reprs_show_the_numbers():
    assert repr(rc.SpringDamper()) == "SpringDamper(stiffness=1, damping=1)"
    assert repr(rc.PainleveRod(mu=2)).startswith("PainleveRod(mass=1, length=2, inertia=0.333333, ")
    assert "mu=2," in repr(rc.PainleveRod(mu=2))
    assert repr(rc.Controls(t_max=0.5)) == "Controls(rtol=1e-10, atol=1e-12, t_max=0.5)"
    assert "normal=SpringDamper(stiffness=1, damping=1)" in repr(rc.ContactModel())
