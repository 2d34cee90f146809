"""A compliant sweep under Stronge's bilinear spring (a peak law, ``restart_at = ["peak"]``): it writes its rows,
with an end mode only where it is known (a run that lifted off; the force at any other end depends on the peaks
the run held, which a run does not return), and a restitution the law refuses is one config-error line."""

from __future__ import annotations

import pandas as pd
import pytest

from regcontact.cli import main

STUDY = """
[study]
name = "bilinear"
kind = "compliant_sweep"
[system]
mu = 1.5
phi0 = 1.0471975511965976
vx0 = -1.0
[contact]
normal_law = "bilinear_spring"
[contact.normal]
stiffness = 1.0
restitution = 0.5
[solver]
restart_at = ["peak"]
[sweep]
alpha = [1e3, 1e4]
"""


@pytest.mark.slow
def test_a_bilinear_sweep_writes_its_rows_without_guessing_the_end_mode(tmp_path):
    config = tmp_path / "bilinear.toml"
    config.write_text(STUDY)
    assert main(["run", str(config), "--out", str(tmp_path / "out")]) == 0
    rows = pd.read_csv(tmp_path / "out" / "results.csv")
    assert len(rows) == 2 and (rows["check"] == "passed").all()
    assert (rows["int_lambda_n"] > 0).all()
    lifted = rows["termination"] == "contact_open"
    assert (rows.loc[lifted, "end_mode"] == "lifts_off").all()
    assert rows.loc[~lifted, "end_mode"].isna().all()


@pytest.mark.parametrize("restitution", ["1.5", "[0.5, 1.5]"])
def test_a_restitution_the_law_refuses_is_one_line(tmp_path, capsys, restitution):
    config = tmp_path / "bilinear.toml"
    config.write_text(STUDY)
    status = main(["check", str(config), "--set", f"contact.normal.restitution={restitution}"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("regcontact: config error: contact.normal.restitution = ") and err.count("\n") == 1
    assert err.endswith("expected a number in (0, 1]\n")


@pytest.mark.parametrize("restitution", ["1e-200", "[0.5, 1e-160]"])
def test_a_restitution_whose_square_underflows_is_one_config_line(tmp_path, capsys, restitution):
    """``r² `` below float64's smallest normal number (the unloading stiffness ``k/r²`` infinite) was accepted."""
    config = tmp_path / "bilinear.toml"
    config.write_text(STUDY)
    status = main(["check", str(config), "--set", f"contact.normal.restitution={restitution}"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith(f"regcontact: config error: contact.normal.restitution = {restitution}: expected at least")
    assert err.count("\n") == 1 and "k/r²" in err
    assert not (tmp_path / "out").exists()
