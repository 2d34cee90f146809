"""The benchmark's SciPy baseline (``benchmarks/scipy_rod.py``, plain numpy) against the JAX field.

At a dozen random states, rods and α, covering every branch of the laws (contact open; closed and approaching or
separating; friction in the viscous band or at the Coulomb limit, either slip direction), the numpy field must
equal ``regcontact.compliant.dynamics.flat_vector_field`` to 1e-12 and its hand-derived Jacobian ``jax.jacfwd`` of it to
1e-10, relative to the largest entry (so that a near-cancelling entry is held to the same absolute accuracy as the
rest). The Table 1 start, which sits on the laws' kinks (``g_n = ġ_n = 0``, ``λ_n = 0``), is checked too: there the
numpy Jacobian follows JAX's convention for ties, so SciPy takes the same steps as with JAX callbacks.
"""

import jax
import numpy as np
import pytest

from benchmarks.scipy_rod import ScipyRod
from regcontact.compliant.dynamics import CompliantSystem, contact_forces, flat_vector_field, initial_state
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod

# (normal branch, friction branch): open; closed approaching / separating; viscous band or Coulomb limit ±
BRANCHES = [
    ("open", "any"),
    ("open", "any"),
    ("approaching", "viscous"),
    ("approaching", "coulomb+"),
    ("approaching", "coulomb-"),
    ("separating", "viscous"),
    ("separating", "coulomb+"),
    ("separating", "coulomb-"),
    ("approaching", "viscous"),
    ("separating", "viscous"),
    ("approaching", "coulomb-"),
    ("separating", "coulomb+"),
]

_field = jax.jit(flat_vector_field)
_jacobian = jax.jit(jax.jacfwd(flat_vector_field, argnums=1))


def both(rod: PainleveRod, alpha: float):
    normal, friction = ContactModel().at_stiffness(alpha)
    return CompliantSystem(system=rod, normal=normal, friction=friction), ScipyRod.from_laws(rod, normal, friction)


def random_case(index: int):
    """A random rod and state in branch ``BRANCHES[index]``, at α ≈ 10^((7 index) mod 13): 1 … 1e12 over the cases."""
    normal_branch, friction_branch = BRANCHES[index]
    rng = np.random.default_rng(1000 + index)
    rod = PainleveRod(
        mass=rng.uniform(0.5, 2.0),
        length=rng.uniform(0.5, 3.0),
        gravity=rng.uniform(0.5, 10.0),
        torque=rng.normal(),
        force_x=rng.normal(),
        mu=rng.uniform(0.2, 2.0),
    )
    alpha = 10.0 ** ((7 * index) % 13 + rng.uniform(-0.3, 0.3))
    args, numpy_rod = both(rod, alpha)
    h = 0.5 * float(rod.length)
    phi, omega = rng.uniform(0.1, 3.0), rng.normal(0.0, 2.0)
    s, c = np.sin(phi), np.cos(phi)
    # the gap and its rate are set well above round-off of the O(1) coordinates, so that λ_n ≈ k |g_n| is
    # computed to full relative precision even at k = 1e12
    gap = rng.uniform(1e-3, 1e-1) * (1.0 if normal_branch == "open" else -1.0)
    gap_rate = rng.uniform(0.1, 1.0) * (-1.0 if normal_branch == "approaching" else 1.0)
    if normal_branch == "open":
        gap_rate *= rng.choice([-1.0, 1.0])
    y = np.array([rng.normal(), gap + h * s, phi, 0.0, gap_rate + h * c * omega, omega, rng.normal(), rng.normal()])
    lam_n = float(contact_forces(args, y[:3], y[3:6])[0, 0])
    limit = float(rod.mu) * lam_n / float(args.friction.damping)  # the slip rate at the Coulomb limit
    slip_rate = {
        "any": rng.normal(),
        "viscous": rng.uniform(-0.9, 0.9) * limit,
        "coulomb+": rng.uniform(1.2, 10.0) * limit,
        "coulomb-": -rng.uniform(1.2, 10.0) * limit,
    }[friction_branch]
    y[3] = slip_rate - h * s * omega
    return args, numpy_rod, y


def branch_of(args: CompliantSystem, y: np.ndarray) -> tuple[str, str]:
    """The branch the state is in, from the JAX model's own kinematics and forces."""
    rod = args.system
    gap, gap_rate = np.asarray(rod.gap(y[:3])), np.asarray(rod.jacobian(y[:3]) @ y[3:6])
    lam_n, lam_t = np.asarray(contact_forces(args, y[:3], y[3:6])[0])
    if gap[0] > 0:
        assert lam_n == 0.0 and lam_t == 0.0
        return "open", "any"
    normal = "approaching" if gap_rate[0] < 0 else "separating"
    viscous = float(args.friction.damping) * gap_rate[1]
    limit = float(rod.mu) * lam_n
    assert lam_n > 0.0
    if abs(viscous) < limit:
        return normal, "viscous"
    return normal, "coulomb+" if viscous > limit else "coulomb-"


def assert_close(ours, theirs, relative):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    scale = np.max(np.abs(theirs))
    assert scale > 0.0
    np.testing.assert_allclose(ours, theirs, rtol=relative, atol=relative * scale)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(BRANCHES)))
def test_numpy_field_and_jacobian_equal_the_jax_ones(index):
    args, numpy_rod, y = random_case(index)
    assert branch_of(args, y) == BRANCHES[index]
    assert_close(numpy_rod.fun(0.0, y), _field(0.0, y, args), 1e-12)
    assert_close(numpy_rod.jac(0.0, y), _jacobian(0.0, y, args), 1e-10)


def test_every_branch_is_covered():
    assert set(BRANCHES) >= {
        ("open", "any"),
        *((n, f) for n in ("approaching", "separating") for f in ("viscous", "coulomb+", "coulomb-")),
    }


@pytest.mark.parametrize("alpha", [1e3, 1e8, 1e12])
def test_table1_start_on_the_kinks(alpha):
    """``g_n = ġ_n = 0`` and ``λ_n = 0`` at the start: ties of min/max, resolved as JAX resolves them."""
    rod = PainleveRod()
    args, numpy_rod = both(rod, alpha)
    y = np.asarray(initial_state(rod).flat)
    assert float(rod.gap(y[:3])[0]) == 0.0 and float((rod.jacobian(y[:3]) @ y[3:6])[0]) == 0.0
    np.testing.assert_array_equal(numpy_rod.fun(0.0, y), np.asarray(_field(0.0, y, args)))
    assert_close(numpy_rod.jac(0.0, y), _jacobian(0.0, y, args), 1e-10)


def test_jacobian_matches_finite_differences_inside_a_branch():
    """Independent of JAX: central differences of the numpy field itself (closed, approaching, viscous)."""
    _, numpy_rod, y = random_case(2)
    jac = numpy_rod.jac(0.0, y)
    step = 1e-7 * np.maximum(np.abs(y), 1e-3)
    fun = numpy_rod.fun
    columns = [(fun(0.0, y + e) - fun(0.0, y - e)) / (2 * e[i]) for i, e in enumerate(np.diag(step))]
    assert_close(jac, np.array(columns).T, 1e-5)
