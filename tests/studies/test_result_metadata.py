"""Results describe themselves: every column of the shipped study kinds has a unit and a description (in
results.json and as NetCDF attributes), and results.json names the package version and the git commit."""

import json
from pathlib import Path

import pytest
import xarray as xr

from regcontact.cli import main
from regcontact.studies.column_descriptions import NOT_DESCRIBED, describe_column
from regcontact.studies.study_result import git_commit

ROOT = Path(__file__).parents[2]

#: The columns the compliant and rigid study kinds write (Table 1, the two-point rod, the Painlevé map, a
#: sweep of a contact parameter, rigid_painleve, rigid_trajectories, dynamic_jam, spatial_crossing).
COLUMNS = [
    *("alpha mu phi0 int_lambda_n int_lambda_t impulse_velocity_n impulse_velocity_t paper_int_lambda_n").split(),
    *("paper_int_lambda_t distance_to_impulse_velocity t_end t_max termination n_steps n_accepted").split(),
    *("n_rejected n_restarts status check impulsive end_mode int_lambda_n_1 int_lambda_t_2").split(),
    *("impulse_velocity_n_2 contact.normal.stiffness contact.normal_exponents.damping solver.rtol").split(),
    *("setup formulation dt mode matches_paper reaction_n reaction_t paper_n paper_t").split(),
    *("run threshold distance_q distance_v modes modes_equal slip_onset lift_off landing stick").split(),
    *("event_error wall_s ok").split(),
    *("rod law outcome lag excess_impulse_n excess_impulse_t jump_impulse jump_impulse_error impulse_time").split(),
    *("slip_at_jam slip_end normal_velocity_at_jam normal_velocity_end velocity_error excess_impulse_t1").split(),
    *("excess_impulse_t2 impulse_error slip_speed_after normal_velocity_after bounce end_slip_x1").split(),
    *("end_slip_x2 end_closed").split(),
    *("chain balls distance_to_limit order_to_limit momentum_change energy_ratio finished_runs").split(),
]


def test_every_column_of_the_study_kinds_is_described():
    undescribed = [column for column in COLUMNS if describe_column(column)["description"] == NOT_DESCRIBED]
    assert undescribed == []
    assert describe_column("int_lambda_t_2") == {
        "unit": "force·time",
        "description": "∫λ_t dt over the run: the tangential force integral of the compliant contact, contact 2",
    }


@pytest.mark.slow
def test_results_carry_units_descriptions_version_and_commit(tmp_path):
    out = tmp_path / "out"
    config = ROOT / "studies" / "table1.toml"
    assert main(["run", str(config), "--out", str(out), "--set", "sweep.alpha=[1e3, 1e4]"]) == 0
    document = json.loads((out / "results.json").read_text())
    assert set(document["column_descriptions"]) == set(document["columns"])
    assert all(d["description"] != NOT_DESCRIBED for d in document["column_descriptions"].values())
    assert document["column_descriptions"]["int_lambda_n"]["unit"] == "force·time"
    assert document["versions"]["regcontact"]
    assert document["versions"].get("regcontact_git_commit") == git_commit()
    with xr.open_dataset(out / "results.nc") as dataset:
        assert dataset["int_lambda_n"].attrs["units"] == "force·time"
        assert dataset["alpha"].attrs["description"].startswith("stiffness multiplier α")
        assert all(dataset[name].attrs["description"] for name in [*dataset.data_vars, *dataset.coords])


def test_the_commit_is_named_in_a_checkout():
    commit = git_commit()
    if not (ROOT / ".git").exists():
        assert commit is None
    else:
        assert commit and len(commit.removesuffix("+dirty")) == 40
