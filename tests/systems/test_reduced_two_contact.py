"""Champneys' two-contact contact-space form (Sec. 6) as a system: decoupled it is two one-contact forms, its
accelerations are ``a + Delassus · λ``, its compliant normal motion is the fast-scale field of Sec. 6.2, its
energy never grows, and bad configs stop with one line."""

import csv
import json
from pathlib import Path

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from regcontact.cli import main
from regcontact.compliant import Controls, SolveSettings, solve
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, initial_state, vector_field
from regcontact.compliant.run_checks import total_energy
from regcontact.contact import ChampneysFastScale, ContactModel, SpringDamper, ViscousCoulomb
from regcontact.figures._two_contact_orbits import FIG15_PANELS
from regcontact.stability import (
    TwoContactSystem,
    normal_force,
    two_contact_trajectories,
    two_contact_vector_field,
)
from regcontact.studies.system_config import REDUCED_TWO_CONTACT_FIELDS, system_from_config
from regcontact.systems.reduced_contact import ReducedSingleContact
from regcontact.systems.reduced_two_contact import ReducedTwoContact, contact_space_form, delassus_blocks_valid
from regcontact.systems.two_point_rod import TwoPointRod

STUDY = Path(__file__).parents[2] / "studies" / "reduced_two_contact.toml"
NO_EVENTS = SolveSettings(events=())

#: Two different one-contact forms: the Table 1 contact (an impulse, then lift-off) and a pressed, sticking one.
SINGLE = (
    dict(a=0.0, b=-1.0, A=3.25, B=1.299038105676658, C=1.75, mu=1.5, slip0=1.0, normal_velocity0=0.0),
    dict(a=0.3, b=-2.0, A=1.0, B=-0.4, C=2.0, mu=0.4, slip0=0.2, normal_velocity0=-0.5),
)


def _two_contact_from_singles(first, second) -> ReducedTwoContact:
    """The two contacts side by side with no coupling: every block diagonal."""
    pair = lambda key: [first[key], second[key]]  # noqa: E731
    diagonal = lambda key: np.diag(pair(key))  # noqa: E731
    return ReducedTwoContact(
        a=pair("a"),
        b=pair("b"),
        A=diagonal("A"),
        B=diagonal("B"),
        C=diagonal("C"),
        mu=pair("mu"),
        slip0=pair("slip0"),
        normal_velocity0=pair("normal_velocity0"),
    )


# -- (a) no coupling: two one-contact forms -------------------------------------------------------------------


@pytest.mark.slow
def test_identical_uncoupled_contacts_give_the_one_contact_numbers():
    """Two copies of the Table 1 contact, uncoupled: each carries exactly the one-contact integrals."""
    single = ReducedSingleContact(**SINGLE[0])
    double = _two_contact_from_singles(SINGLE[0], SINGLE[0])
    model, alpha = ContactModel(), jnp.asarray(1e6)
    controls = Controls(t_max=3e-3)
    run_one = eqx.filter_jit(solve)(single, model, alpha, controls, NO_EVENTS)
    run_two = eqx.filter_jit(solve)(double, model, alpha, controls, NO_EVENTS)
    assert bool(run_one.ok) and bool(run_two.ok)
    for contact in range(2):
        np.testing.assert_allclose(run_two.state_end.impulses[contact], run_one.state_end.impulses[0], rtol=1e-12)
    # the two copies agree to round-off (the 4×4 solves mix them at the last bit)
    np.testing.assert_allclose(run_two.state_end.impulses[0], run_two.state_end.impulses[1], rtol=1e-14)


@pytest.mark.parametrize("alpha", [1e4, 1e6])
@pytest.mark.slow
def test_different_uncoupled_contacts_each_give_their_one_contact_numbers(alpha):
    """Two different contacts: the solve is one (its steps serve both), so the agreement is that of the
    integration tolerance, not of round-off; each final state and integral agrees with its own one-contact run."""
    double = _two_contact_from_singles(*SINGLE)
    model, controls = ContactModel(), Controls(t_max=3e-3)
    run_two = eqx.filter_jit(solve)(double, model, jnp.asarray(alpha), controls, NO_EVENTS)
    assert bool(run_two.ok)
    for contact, parameters in enumerate(SINGLE):
        run_one = eqx.filter_jit(solve)(
            ReducedSingleContact(**parameters), model, jnp.asarray(alpha), controls, NO_EVENTS
        )
        assert bool(run_one.ok)
        np.testing.assert_allclose(
            run_two.state_end.impulses[contact], run_one.state_end.impulses[0], rtol=1e-8, atol=1e-12
        )
        np.testing.assert_allclose(run_two.state_end.v.reshape(2, 2)[contact], run_one.state_end.v, rtol=1e-8)
    assert float(run_two.state_end.impulses[1, 0]) > 0  # the second contact is pressed: it carries load


# -- (b) accelerations are a + Delassus · λ ---------------------------------------------------------------------


def _rod_contact_accelerations(rod, q, v, forces):
    """``g̈`` of the rod's two contacts under contact forces ``forces`` (``k × 2``), as the second time derivative
    of its gaps along the motion ``q + v t + ½ v̇ t²`` (independent of ``W``, ``Ẇv``)."""
    jacobians = rod.jacobians(q)
    generalised = rod.forces(q, v, 0.0) + jnp.einsum("kcn,kc->n", jacobians, forces)
    acceleration = rod.mass_solve(q, generalised)
    path = lambda t: rod.gaps(q + v * t + 0.5 * acceleration * t**2)  # noqa: E731
    return jax.jacfwd(jax.jacfwd(path))(0.0)


def _champneys_accelerations(form, forces):
    """``(v̇, u̇)`` per contact from Champneys' form: ``u̇ = a + Aλ_T + Bᵀλ_N``, ``v̇ = b + Bλ_T + Cλ_N``."""
    normal, tangential = forces[:, 0], forces[:, 1]
    u_dot = form.a + form.A @ tangential + form.B.T @ normal
    v_dot = form.b + form.B @ tangential + form.C @ normal
    return jnp.stack([v_dot, u_dot], axis=-1)


@pytest.mark.slow
def test_the_contact_space_form_of_the_two_point_rod_gives_its_contact_accelerations():
    """For the rod at a rotating state and random forces, Champneys' ``a + Delassus · λ`` is the rod's ``g̈``."""
    rod = TwoPointRod(mass=1.3, length=2.0, gravity=9.81, torque=0.4, force_x=-0.2, phi0=0.35, vx0=0.5, omega0=1.7)
    q, v = rod.initial_state()
    form = contact_space_form(rod, q, v)
    for key in jax.random.split(jax.random.PRNGKey(0), 8):
        forces = jax.random.normal(key, (2, 2))
        np.testing.assert_allclose(
            _champneys_accelerations(form, forces),
            _rod_contact_accelerations(rod, q, v, forces),
            rtol=1e-12,
            atol=1e-12,
        )


def test_a_rigid_rods_delassus_matrix_is_singular_so_the_form_needs_a_body_with_more_freedom():
    """Three degrees of freedom, four contact coordinates: rank 3, the null vector is the pair of equal and
    opposite forces along the rod (it moves nothing). The system refuses it (no mass matrix)."""
    rod = TwoPointRod(phi0=0.35, omega0=1.7)
    q, v = rod.initial_state()
    form = contact_space_form(rod, q, v)
    delassus = np.block([[form.A, form.B.T], [form.B, form.C]])  # order (x₁, x₂, y₁, y₂)
    values = np.linalg.eigvalsh(delassus)
    assert abs(values[0]) < 1e-14 * values[-1] and values[1] > 0.1
    axis = np.array([np.cos(0.35), np.sin(0.35)])
    axial_pair = np.array([-axis[0], axis[0], -axis[1], axis[1]])  # −axis at end 1, +axis at end 2
    np.testing.assert_allclose(delassus @ axial_pair, 0.0, atol=1e-14)
    assert not bool(delassus_blocks_valid(form.A, form.B, form.C))


@pytest.mark.slow
def test_the_system_accelerates_its_contacts_by_a_plus_delassus_times_lambda():
    """Through the system's own gaps, Jacobians, forces and mass solve: ``g̈ = a + Delassus · λ`` for any λ, and
    reducing the system again returns its own ``(a, b, A, B, C)``."""
    keys = jax.random.split(jax.random.PRNGKey(1), 6)
    root = jax.random.normal(keys[0], (4, 4))
    delassus = root @ root.T + 0.5 * jnp.eye(4)  # order (x₁, x₂, y₁, y₂)
    system = ReducedTwoContact(
        a=jax.random.normal(keys[1], (2,)),
        b=jax.random.normal(keys[2], (2,)),
        A=delassus[:2, :2],
        B=delassus[2:, :2],
        C=delassus[2:, 2:],
        mu=(0.3, 0.8),
    )
    q, v = system.initial_state()
    form = contact_space_form(system, q, v)
    for name in ("a", "b", "A", "B", "C"):
        np.testing.assert_allclose(getattr(form, name), getattr(system, name), rtol=1e-12, atol=1e-13)
    for key in jax.random.split(keys[3], 4):
        forces = jax.random.normal(key, (2, 2))
        generalised = system.forces(q, v) + jnp.einsum("kcn,kc->n", system.jacobians(q), forces)
        accelerations = jnp.einsum("kcn,n->kc", system.jacobians(q), system.mass_solve(q, generalised))
        np.testing.assert_allclose(accelerations, _champneys_accelerations(system, forces), rtol=1e-11, atol=1e-12)


def test_the_painleve_parametrisation_realises_p_plus_with_a_positive_definite_delassus_matrix():
    for panel in FIG15_PANELS:
        system = ReducedTwoContact.from_painleve(panel.painleve, panel.b, mu=(0.7, 1.3))
        np.testing.assert_allclose(system.painleve_matrix(), panel.painleve, rtol=1e-14, atol=1e-15)
        assert bool(delassus_blocks_valid(system.A, system.B, system.C))
        schur = system.A - system.B.T @ jnp.linalg.solve(system.C, system.B)
        np.testing.assert_allclose(schur, np.eye(2), atol=1e-13)  # the default tangential complement


# -- (c) the fast scale of Sec. 6.2 ---------------------------------------------------------------------------


def _fast_state_to_compliant(z, slip, alpha) -> CompliantState:
    """``(ỹ, ṽ)`` to ``q = (x₁, y₁, x₂, y₂)``, ``v``: ``y = ỹ/α``, ``v = ṽ/√α`` (ε = 1/α)."""
    y, v_normal = z[:2] / alpha, z[2:] / jnp.sqrt(alpha)
    q = jnp.stack([jnp.zeros(2), y], axis=-1).reshape(4)
    v = jnp.stack([slip, v_normal], axis=-1).reshape(4)
    return CompliantState(q=q, v=v, impulses=jnp.zeros((2, 2)))


@pytest.mark.slow
@pytest.mark.parametrize("panel", FIG15_PANELS, ids=lambda p: p.letter)
def test_compliant_normal_accelerations_are_the_fast_scale_field(panel):
    """Eq. 31 as the compliant law (stiffness ``−k_i α``, damping ``−q_i √α``, per contact), both contacts slipping
    forward fast enough for friction to sit on the Coulomb limit: at ``y = ỹ/α, v = ṽ/√α`` the compliant normal
    accelerations equal ``dṽ/dt̃`` of :func:`two_contact_vector_field` at any penetration, including where one
    contact has lifted off."""
    system = ReducedTwoContact.from_painleve(panel.painleve, panel.b, mu=(0.6, 1.1))
    fast = TwoContactSystem(panel.b, panel.painleve, panel.k, panel.q)
    model = ContactModel(normal=ChampneysFastScale(stiffness=-np.array(panel.k), damping=-np.array(panel.q)))
    for alpha in (1e4, 1e8):
        normal, friction = model.at_stiffness(alpha)
        args = CompliantSystem(system, normal, friction)
        states = 3.0 * jax.random.normal(jax.random.PRNGKey(int(alpha)), (64, 4))
        for z in states:
            derivative = vector_field(0.0, _fast_state_to_compliant(z, jnp.array([2.0, 5.0]), alpha), args)
            expected = two_contact_vector_field(0.0, z, fast)[2:]
            np.testing.assert_allclose(derivative.v.reshape(2, 2)[:, 1], expected, rtol=1e-9, atol=1e-9)
            forces = normal_force(z[:2], z[2:], fast.k, fast.q)
            np.testing.assert_allclose(derivative.impulses[:, 0], forces, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(derivative.impulses[:, 1], -system.mu * forces, rtol=1e-12, atol=1e-12)


@pytest.mark.slow
def test_compliant_trajectory_of_fig15_b_follows_the_fast_scale_orbit():
    """Fig. 15 B (unequal laws ``k = (−1, −3)``, ``q = −1.2``) from rest: the compliant run at α = 1e6 over
    ``t̃ = 25``, scaled back, is the fast-scale orbit (the slip, 10 at the start, changes by ``O(α^-1/2)``)."""
    panel = FIG15_PANELS[1]
    system = ReducedTwoContact.from_painleve(panel.painleve, panel.b, mu=(1.0, 1.0), slip0=(10.0, 10.0))
    model = ContactModel(normal=ChampneysFastScale(stiffness=-np.array(panel.k), damping=-np.array(panel.q)))
    fast = jtu.tree_map(lambda x: x[None], panel.system())
    window = 25.0
    _, orbit = two_contact_trajectories(fast, jnp.zeros((1, 4)), jnp.array([[window, window]]), jnp.asarray(1e6), 2)
    alpha = 1e6
    run = eqx.filter_jit(solve)(system, model, jnp.asarray(alpha), Controls(t_max=window / np.sqrt(alpha)), NO_EVENTS)
    assert bool(run.ok)
    end = run.state_end
    z = np.concatenate([np.asarray(end.q)[[1, 3]] * alpha, np.asarray(end.v)[[1, 3]] * np.sqrt(alpha)])
    np.testing.assert_allclose(z, orbit[0, -1], rtol=1e-4, atol=1e-4)  # both integrations to ~1e-9 rel., unstable focus
    assert np.all(np.asarray(end.v)[[0, 2]] > 9.0)  # still slipping forward


def _fast_scale_integrals(panel, window: float) -> np.ndarray:
    """``∫λ dt̃`` of each contact along the fast-scale orbit from rest (SciPy, independent of the solve)."""
    fast = panel.system()

    def rhs(t, w):
        z = jnp.asarray(w[:4])
        return np.concatenate(
            [np.asarray(two_contact_vector_field(t, z, fast)), np.asarray(normal_force(z[:2], z[2:], fast.k, fast.q))]
        )

    solution = solve_ivp(rhs, (0.0, window), np.zeros(6), method="DOP853", rtol=1e-11, atol=1e-12)
    return solution.y[4:, -1]


@pytest.mark.slow
def test_the_shipped_study_is_the_fast_scale_dynamics_of_fig15_a(tmp_path, capsys):
    """The study's window is 5 contact times, ``t̃ = 5π`` at every α, so ``√α ∫λ_N`` is the fast-scale integral
    for every α (contact 2 driven in, contact 1 lifting off: the onset of ``FI``), and ``∫λ_T = −μ ∫λ_N``."""
    out = tmp_path / "out"
    assert main(["run", str(STUDY), "--out", str(out)]) == 0
    capsys.readouterr()
    document = json.loads((out / "results.json").read_text())
    with open(out / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    expected = _fast_scale_integrals(FIG15_PANELS[0], 5.0 * np.pi)
    assert expected[1] > 3.0 * expected[0]
    assert [float(row["alpha"]) for row in rows] == [1e4, 1e6, 1e8]
    for row in rows:
        assert row["status"] == "successful" and row["check"] == "passed"
        normal = np.array([float(row["int_lambda_n_1"]), float(row["int_lambda_n_2"])])
        tangential = np.array([float(row["int_lambda_t_1"]), float(row["int_lambda_t_2"])])
        np.testing.assert_allclose(np.sqrt(float(row["alpha"])) * normal, expected, rtol=1e-6)
        np.testing.assert_array_equal(tangential, -normal)  # μ = 1, slipping forward throughout
    # the k-contact force-acceleration problem at the start: S+S+ with λ = −(p⁺)⁻¹ b, the unstable equilibrium
    solutions = document["references"]["force_acceleration_solutions"]
    assert [s["modes"] for s in solutions] == [["S+", "S+"]]
    forces = -np.linalg.solve(np.array(FIG15_PANELS[0].painleve), np.array(FIG15_PANELS[0].b))
    np.testing.assert_allclose([r[0] for r in solutions[0]["reactions"]], forces, rtol=1e-10)


# -- (d) energy ------------------------------------------------------------------------------------------------


def _energies(system, model, alpha, t_max) -> np.ndarray:
    """Total energy (kinetic, potential of ``h``, elastic) after every step of one solve."""
    normal, friction = model.at_stiffness(alpha)
    args = CompliantSystem(system, normal, friction)
    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(vector_field),
        diffrax.Kvaerno5(),
        t0=0.0,
        t1=t_max,
        dt0=t_max * 1e-4,
        y0=initial_state(system),
        args=args,
        saveat=diffrax.SaveAt(steps=True),  # the steps' own states: an interpolant across a kink of the law is worse
        stepsize_controller=diffrax.PIDController(rtol=1e-10, atol=1e-12),
        max_steps=200_000,
    )
    assert solution.result == diffrax.RESULTS.successful
    taken = np.isfinite(np.asarray(solution.ts))
    states = jtu.tree_map(lambda leaf: leaf[taken], solution.ys)
    return np.asarray(jax.vmap(lambda state: total_energy(args, state))(states))


ENERGY_CASES = {
    "fig15A_eq31": (
        ReducedTwoContact.from_painleve(FIG15_PANELS[0].painleve, FIG15_PANELS[0].b, mu=(1.0, 1.0), slip0=(10.0, 10.0)),
        ContactModel(normal=ChampneysFastScale()),
        1e4,
        0.15,
    ),
    "coupled_impact_then_stick": (
        ReducedTwoContact(
            a=(0.2, -0.1),
            b=(-1.0, -0.5),
            B=((0.4, -0.3), (0.2, 0.5)),
            C=((2.0, 0.3), (0.3, 1.0)),
            mu=(0.6, 0.3),
            slip0=(0.05, -0.1),
            normal_velocity0=(-0.3, -0.1),
        ),
        ContactModel(),
        1e4,
        0.2,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", ENERGY_CASES, ids=str)
def test_energy_never_grows_with_dissipation(case):
    system, model, alpha, t_max = ENERGY_CASES[case]
    energy = _energies(system, model, alpha, t_max)
    scale = np.abs(energy).max()
    assert np.all(np.diff(energy) <= 1e-9 * scale)
    assert energy[-1] < energy[0] - 1e-3 * scale  # and it does dissipate


@pytest.mark.slow
def test_energy_is_conserved_without_dissipation():
    """No damping, no friction: kinetic + ``−h·q`` + spring energy is constant (the potential's sign is right)."""
    system = ENERGY_CASES["coupled_impact_then_stick"][0]
    system = eqx.tree_at(lambda s: s.mu, system, jnp.zeros(2))
    model = ContactModel(normal=SpringDamper(damping=0.0), friction=ViscousCoulomb(damping=0.0))
    energy = _energies(system, model, 1e4, 0.2)
    # measured: 6.4e-9 of the scale, from the steps across the kinks of the law at g_n = 0 (rtol 1e-10)
    np.testing.assert_allclose(energy, energy[0], rtol=1e-8, atol=1e-8 * np.abs(energy).max())


# -- (e) configs ----------------------------------------------------------------------------------------------


def test_the_config_builds_what_the_constructor_builds():
    table = {"kind": "reduced_two_contact", **{key: field.default for key, field in REDUCED_TWO_CONTACT_FIELDS.items()}}
    table.update(p_plus=[[-0.055, 0.088], [0.055, -0.036]], mu=[1.0, 2.0], b=[-1.0, -0.5])
    built = system_from_config(table)
    direct = ReducedTwoContact.from_painleve(table["p_plus"], table["b"], mu=table["mu"])
    for name in ("a", "b", "A", "B", "C", "mu", "slip0", "normal_velocity0"):
        np.testing.assert_allclose(getattr(built, name), getattr(direct, name), rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize(
    "overrides, expected",
    [
        (
            ["system.phi0=0.3"],
            "system.phi0 = 0.3: expected a known key (this table has: A, B, C, a, b, initial_penetration, kind, mu,",
        ),
        (["system.B=[[1, 0]]"], "system.B = [[1, 0]]: expected a 2×2 matrix"),
        (
            ["system.p_plus='none'", "system.B=[[5, 0], [0, 5]]", "system.A=[[1, 0], [0, 1]]"],
            "system.A = [[1.0, 0.0], [0.0, 1.0]]: expected a symmetric positive definite Delassus matrix",
        ),
        (
            ["system.p_plus='none'", "system.A=[[1, 0.5], [0, 1]]"],
            "system.A = [[1.0, 0.5], [0.0, 1.0]]: expected a symmetric positive definite Delassus matrix",
        ),
        (["system.C=[[1, 2], [2, 1]]"], "system.C = [[1.0, 2.0], [2.0, 1.0]]: expected a symmetric positive definite"),
        (["system.mu=[-0.1, 0.5]"], "system.mu = [-0.1, 0.5]: expected a list of numbers, each a number ≥ 0"),
        (["system.mu=[0, 0.5]"], "system.mu = [0.0, 0.5]: expected μ > 0 at both contacts when p_plus is given"),
        (["system.B=[[0, 0], [0, 0]]"], "system.p_plus = [[-0.055, 0.088], [0.055, -0.036]]: expected 'none' when"),
        (["system.b=[-1]"], "system.b = [-1]: expected a list of 2 numbers"),
    ],
)
def test_each_config_error_is_one_line_exit_2_and_nothing_written(tmp_path, capsys, overrides, expected):
    out = tmp_path / "out"
    arguments = ["run", str(STUDY), "--out", str(out)]
    for override in overrides:
        arguments += ["--set", override]
    assert main(arguments) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"regcontact: config error: {expected}"), err
    assert "\n" not in err
    assert not out.exists()
