"""The Python API refuses what the config refuses, at construction, with one line naming the argument; traced
and batched construction keeps working."""

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact as rc
from regcontact.contact import HuntCrossley, law_exponents
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study

TABLE1 = Path(__file__).parents[1] / "studies" / "table1.toml"
ROD = rc.PainleveRod()
CONTACT = rc.ContactModel()

#: Every bad value of the config tests (and the issue's own) that has a Python counterpart: the ``--set`` the
#: CLI refuses, and the same value given to the API.
BAD_VALUES = [
    ("system.mass=-1", lambda: rc.PainleveRod(mass=-1)),
    ("system.length=0", lambda: rc.PainleveRod(length=0)),
    ("system.mu=-0.5", lambda: rc.PainleveRod(mu=-0.5)),
    ("system.inertia=-2", lambda: rc.PainleveRod(inertia=-2)),
    ("system.phi0=4", lambda: rc.PainleveRod(phi0=4)),
    ("system.phi0=abc", lambda: rc.PainleveRod(phi0="abc")),
    ("system.mass=true", lambda: rc.PainleveRod(mass=True)),
    ("system.mass=nan", lambda: rc.PainleveRod(mass=float("nan"))),
    ("contact.normal.stiffness=-3", lambda: rc.SpringDamper(stiffness=-3)),
    ("contact.normal.damping=-1", lambda: rc.SpringDamper(damping=-1)),
    ("contact.friction.damping=-1", lambda: rc.ViscousCoulomb(damping=-1)),
    ("sweep.alpha=[1e3, -1]", lambda: rc.Case(ROD, CONTACT, np.array([1e3, -1.0]), rc.Controls(t_max=1.0))),
    ("sweep.alpha=[nan]", lambda: rc.solve(ROD, CONTACT, float("nan"), rc.Controls(t_max=1.0))),
    ("sweep.alpha=[-1e3]", lambda: rc.solve(ROD, CONTACT, -1e3, rc.Controls(t_max=1.0))),
    ("solver.rtol=2", lambda: rc.Controls(rtol=2.0, t_max=1.0)),
    ("solver.rtol=0", lambda: rc.Controls(rtol=0.0, t_max=1.0)),
    ("solver.atol=-1e-12", lambda: rc.Controls(atol=-1e-12, t_max=1.0)),
    ("termination.time_limit=-1", lambda: rc.Controls(t_max=-1.0)),
    ("termination.time_limit=nan", lambda: rc.Controls(t_max=float("nan"))),
    ("system.initial_penetration=-1e-3", lambda: rc.Case(ROD, CONTACT, 1e3, rc.Controls(t_max=1.0), -1e-3)),
    ("contact.normal_exponents.stiffness=nan", lambda: law_exponents(rc.SpringDamper, stiffness=float("nan"))),
]


#: Where the API's argument is named other than the config key's last part.
API_NAMES = {"termination.time_limit": "t_max", "system.initial_penetration": "penetration"}


@pytest.mark.parametrize("override, build", BAD_VALUES, ids=[override for override, _ in BAD_VALUES])
def test_the_api_refuses_what_the_cli_refuses(override, build):
    key, _, value = override.partition("=")
    with pytest.raises(ConfigError) as cli:
        load_study(TABLE1, [override])
    with pytest.raises(ValueError) as api:
        build()
    message = str(api.value)
    name, _, rest = message.partition(" = ")
    assert API_NAMES.get(key, key.rpartition(".")[2]) == name, message
    assert "\n" not in message
    # the same rule in the same words: the API's expectation is the config's (which may offer more, e.g.
    # "a positive number or 'contact_time'")
    expected = rest.partition(": expected ")[2]
    assert expected and expected in cli.value.expected, (expected, cli.value.expected)


def test_exponents_are_any_finite_number_not_parameters():
    exponents = law_exponents(HuntCrossley, exponent=0.0, damping=-0.5)
    assert float(exponents.exponent) == 0.0 and float(exponents.damping) == -0.5
    assert float(exponents.stiffness) == HuntCrossley.EXPONENTS["stiffness"]
    with pytest.raises(ValueError, match="exponent = 0.0: expected a positive number"):
        HuntCrossley(exponent=0.0)


def test_traced_and_device_values_are_not_read():
    """Under jit and vmap the arguments are tracers: construction works and checks nothing it cannot see."""
    masses = jax.vmap(lambda m: rc.PainleveRod(mass=m).mass)(jnp.array([1.0, 2.0]))
    np.testing.assert_array_equal(masses, [1.0, 2.0])
    rtol = jax.jit(lambda r: rc.Controls(rtol=r, t_max=1.0).rtol)(0.5)
    assert float(rtol) == 0.5


def test_a_batch_of_good_values_is_built_and_a_bad_element_named():
    alphas = np.logspace(3, 8, 6)
    cases = rc.Case(ROD, CONTACT, alphas, rc.Controls(t_max=np.full(6, 0.1)))
    assert cases.alpha.shape == (6,)
    with pytest.raises(ValueError, match=r"^t_max = -1: expected a positive number$"):
        rc.Controls(t_max=np.array([0.1, -1.0]))
