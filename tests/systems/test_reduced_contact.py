"""Champneys' contact-space form as a system: the rod reduced at its initial state behaves like the rod."""

from pathlib import Path

import equinox as eqx
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.cli import main
from regcontact.compliant import Controls, solve
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.stability import rod_reduced_dynamics
from regcontact.systems.reduced_contact import ReducedSingleContact
from regcontact.systems.rod import PainleveRod

pytestmark = pytest.mark.slow

STUDY = Path(__file__).parents[2] / "studies" / "reduced_single_contact.toml"


def test_the_reduced_rod_tends_to_the_rods_impulse_in_champneys_frame():
    """Same contact time (m_n = 1/C); integrals (λ_N, λ_T) = (λ_n, −λ_t) of the rod up to the frozen a, b:
    the difference falls like α^(-1/2), the share of the window spent after the impulse."""
    rod, model = PainleveRod(), ContactModel()
    r = rod_reduced_dynamics(rod, *rod.initial_state())
    reduced = ReducedSingleContact(r.a, r.b, r.A, r.B, r.C, rod.mu, r.u, r.v)
    differences = []
    for alpha in (1e4, 1e6, 1e8):
        stiffness = model.at_stiffness(alpha)[0].stiffness
        assert float(contact_time(reduced, stiffness)) == float(contact_time(rod, stiffness))
        controls = Controls(t_max=contact_time(rod, stiffness))
        run_rod = eqx.filter_jit(solve)(rod, model, jnp.asarray(alpha), controls)
        run_reduced = eqx.filter_jit(solve)(reduced, model, jnp.asarray(alpha), controls)
        assert bool(run_rod.ok) and bool(run_reduced.ok)
        mirrored = np.asarray(run_rod.force_integrals) * np.array([1.0, -1.0])
        differences.append(np.abs(np.asarray(run_reduced.force_integrals) - mirrored).max())
    ratios = np.array(differences[:-1]) / np.array(differences[1:])
    np.testing.assert_allclose(ratios, 10.0, rtol=0.15)  # α^(-1/2): a factor 10 per two decades
    assert differences[-1] < 1e-4


def test_a_lifting_contact_carries_nothing_and_a_singular_mass_is_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(STUDY), "--out", str(out), "--set", "system.b=0.5", "--set", "sweep.alpha=[1e6]"]) == 0
    printed = capsys.readouterr().out
    row = [line for line in printed.splitlines() if line.strip().startswith("1e+06")][0]
    assert "contact_open" in row
    assert float(row.split()[1]) < 1e-9  # ∫λ_N: the contact opens at once (b > 0)
    assert main(["run", str(STUDY), "--out", str(tmp_path / "bad"), "--set", "system.B=2.5"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("regcontact: config error: system.B = 2.5: expected B² < A C") and "\n" not in err
    assert not (tmp_path / "bad").exists()
