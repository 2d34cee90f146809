"""No silent answer from the rigid analyses: a value that is not finite, or out of its range, is refused in one line
that names it (``name = value: expected …``) — as a Python number, a numpy value and an eager JAX value — before
anything is computed; traced values the compiled run flags with an outcome of its own."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.contact import ContactModel
from regcontact.rigid import (
    SLIP_OUTCOMES,
    CompliantLimitImpact,
    ContactState,
    NewtonImpact,
    chatter_directions,
    chatter_sequence,
    compliant_limit,
    compliant_limit_map,
    darboux_keller,
    darboux_keller_map,
    event_driven,
    g_spot_linearisation,
    g_spot_panel,
    impact_process,
    jam_case,
    limit_law,
    linear_g_spot_flow,
    reaches_g_spot,
    reverse_chatter_possible,
    rigid_slip,
)
from regcontact.rigid._impacts.chatter import bounce
from regcontact.stability import FastScaleSystem, consistent_modes, painleve_parameters, two_contact_modes
from regcontact.systems import PainleveRod, SpatialRod

NAN, INF = math.nan, math.inf

#: The three forms a concrete value takes: a Python number, a numpy scalar, an eager JAX array.
FORMS = [float, np.float64, jnp.asarray]
FORM_IDS = ["python", "numpy", "jax"]
#: And an array: numpy or eager JAX.
ARRAY_FORMS = [np.asarray, jnp.asarray]
ARRAY_FORM_IDS = ["numpy", "jax"]


def refused(name, call):
    """``call()`` raises ``ValueError`` whose one line starts with ``name = ``."""
    with pytest.raises(ValueError, match=rf"^{name} = ") as raised:
        call()
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_the_g_spot_classifiers_refuse_nan(form):
    """``g_spot_panel(nan, 1, 1)`` was panel "f", ``jam_case`` ``None``, ``reaches_g_spot`` ``False``."""
    refused("alpha1", lambda: g_spot_panel(form(NAN), 1.0, 1.0))
    refused("alpha2", lambda: jam_case(-2.0, form(NAN), -1.0))
    refused("alpha3", lambda: jam_case(-2.0, 1.0, form(INF)))
    refused("alpha1", lambda: reaches_g_spot(form(NAN), -1.0, -1.0, 1.0, -1.0))
    refused("b", lambda: reaches_g_spot(-2.0, 1.0, -1.0, 1.0, form(-INF)))
    refused("s", lambda: linear_g_spot_flow(-2.0, 1.0, -1.0, 1.0, -1.0, form(NAN)))


def test_reaches_g_spot_checks_every_element_of_an_array():
    refused("p", lambda: reaches_g_spot(-2.0, 1.0, -1.0, np.array([1.0, NAN]), -1.0))
    assert reaches_g_spot(-2.0, 1.0, -1.0, np.array([1.0, 2.0]), -1.0).shape == (2,)


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_darboux_keller_refuses_what_it_used_to_read_as_something_else(form):
    """v⁻ = NaN read as 0, u⁻ = NaN or ±inf as "no_impact", μ = inf gave "unbounded" (never the case for one
    contact), a negative ``tol`` a finite wrong answer."""
    form_args = (1.0, 0.5, 1.0)
    refused("v", lambda: darboux_keller_map(*form_args, 0.5, 1.0, form(NAN)))
    refused("v", lambda: darboux_keller_map(*form_args, 3.0, 1.0, form(NAN)))
    for u in (NAN, INF, -INF):
        refused("u", lambda u=u: darboux_keller_map(*form_args, 0.5, form(u), -1.0))
    refused("mu", lambda: darboux_keller_map(*form_args, form(INF), 1.0, -1.0, 0.5, "energetic"))
    refused("mu", lambda: darboux_keller_map(*form_args, form(-0.1), 1.0, -1.0))
    refused("tol", lambda: darboux_keller_map(*form_args, 0.5, 1.0, -1.0, tol=form(-1.0)))
    refused("restitution", lambda: darboux_keller_map(*form_args, 0.5, 1.0, -1.0, form(NAN)))
    refused("C", lambda: darboux_keller_map(1.0, 0.5, form(NAN), 0.5, 1.0, -1.0))
    refused("law", lambda: darboux_keller_map(*form_args, 0.5, 1.0, -1.0, 0.5, "plastic"))


def test_a_huge_finite_friction_coefficient_is_the_sticking_limit():
    """μ = 1e300 (what stands for "no slip") is taken, and gives the limit μ → ∞: the slip stops after an impulse
    ``u⁻/(μA − B) → 0`` that moves the normal velocity by ``(C − μB)/(μA − B)·u⁻ → −(B/A) u⁻``; then the stuck
    contact compresses on ``dv/dI = C − B²/A`` from ``v⁻ − (B/A)u⁻`` and Poisson gives ``v⁺ = −r(v⁻ − (B/A)u⁻)``."""
    A, B, C, r, u, v = 1.0, 0.5, 1.0, 0.5, 1.0, -1.0
    outcome = darboux_keller_map(A, B, C, 1e300, u, v, r, "poisson")
    assert outcome.status == "ended" and outcome.modes[-1] == "T"
    assert outcome.u == pytest.approx(0.0, abs=1e-12)
    assert outcome.v == pytest.approx(-r * (v - B / A * u), rel=1e-12)


def test_darboux_keller_of_a_state_checks_its_arguments():
    state = ContactState.from_system(PainleveRod(phi0=1.0), v=np.array([0.0, -1.0, 0.0]))
    refused("tol", lambda: darboux_keller(state, tol=-1e-9))
    refused("restitution", lambda: darboux_keller(state, restitution=1.5))


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_chatter_refuses_a_free_acceleration_that_is_not_finite(form):
    """``chatter_directions`` with a = NaN returned an empty list."""
    refused("a", lambda: chatter_directions(form(NAN), -1.0, 1.0, 0.5, 1.0, 0.5, 0.7))
    refused("b", lambda: chatter_directions(1.0, form(-INF), 1.0, 0.5, 1.0, 0.5, 0.7))
    refused("mu", lambda: reverse_chatter_possible(1.0, -1.0, 1.0, 0.5, 1.0, form(NAN), 0.7))
    refused("a", lambda: bounce(form(NAN), -1.0, 1.0, 0.5, 1.0, 0.5, 0.0, -1.0, 0.5, "poisson"))
    impact = lambda u, v: (u, -0.5 * v)  # noqa: E731
    refused("u", lambda: chatter_sequence(0.3, -1.0, impact, form(NAN), -1.0))
    refused("max_impacts", lambda: chatter_sequence(0.3, -1.0, impact, 0.0, -1.0, max_impacts=-1))
    refused("samples", lambda: chatter_directions(1.0, -1.0, 1.0, 0.5, 1.0, 0.5, 0.7, samples=1))


@pytest.mark.parametrize("mu", [-0.5, NAN, INF])
def test_the_limit_impact_of_one_contact_refuses_a_friction_coefficient_out_of_range(mu):
    """μ = −0.5 was taken (friction then sped the slip up); μ = NaN hung."""
    law = limit_law(ContactModel())
    for form in FORMS:
        refused("mu", lambda form=form: compliant_limit_map(1.0, 0.5, 1.0, form(mu), 1.0, -1.0, law))


def test_compliant_limit_names_the_argument_it_refuses():
    """``compliant_limit(state, "x")`` was a traceback; ``rtol = -1`` was refused as "`atol` must be positive"."""
    state = ContactState.from_system(PainleveRod(phi0=1.0), v=np.array([0.0, -1.0, 0.0]))
    with pytest.raises(TypeError, match=r"^model = 'x': expected a ContactModel$"):
        compliant_limit(state, "x")  # type: ignore[arg-type]
    refused("rtol", lambda: compliant_limit(state, ContactModel(), rtol=-1))
    refused("tol", lambda: compliant_limit(state, ContactModel(), tol=NAN))
    with pytest.raises(TypeError, match=r"^model = 'x'"):
        limit_law("x")  # type: ignore[arg-type]
    refused("rtol", lambda: compliant_limit_map(1.0, 0.5, 1.0, 0.5, 1.0, -1.0, limit_law(ContactModel()), -1.0))


def test_the_impact_process_refuses_values_that_are_not_finite():
    G = np.eye(2)
    force = lambda gaps, rates: -np.minimum(rates, 0.0)  # noqa: E731
    refused("mu", lambda: impact_process(G, [NAN], [[-1.0, 0.0]], force, "coulomb", rates=[1.0]))
    refused("velocity", lambda: impact_process(G, [0.5], [[-1.0, INF]], force, "coulomb", rates=[1.0]))
    refused("rtol", lambda: impact_process(G, [0.5], [[-1.0, 0.0]], force, "coulomb", rates=[1.0], rtol=2.0))


def test_event_driven_refuses_a_negative_event_budget_before_it_runs():
    """``event_driven(max_events=-5)`` was a traceback (a ``RuntimeError`` from inside the run)."""
    rod = PainleveRod(phi0=1.0)
    refused("max_events", lambda: event_driven(rod, 1.0, max_events=-5))
    refused("max_events", lambda: event_driven(rod, 1.0, max_events=2.5))
    refused("restitution", lambda: NewtonImpact(NAN))
    refused("q0", lambda: event_driven(rod, 1.0, q0=[0.5, NAN, 1.0]))
    refused("rtol", lambda: event_driven(rod, 1.0, rtol=2.0))
    with pytest.raises(TypeError, match=r"^contact_model = "):
        CompliantLimitImpact("x")  # type: ignore[arg-type]


def test_a_contact_state_refuses_values_that_are_not_finite():
    state = ContactState.from_system(PainleveRod(phi0=1.0))
    fields = {name: getattr(state, name) for name in ("mass_matrix", "jacobians", "jacobian_rates", "applied_force")}
    fields |= {"velocity": state.velocity, "mu": state.mu, "gaps": state.gaps}
    bad = dict(fields, velocity=np.array([0.0, NAN, 0.0]))
    refused("velocity", lambda: ContactState(**bad))
    refused("mu", lambda: ContactState(**dict(fields, mu=np.array([-1.0]))))
    refused("length_scale", lambda: ContactState(**fields, length_scale=NAN))
    refused("tol", lambda: state.index_sets(-1.0))
    refused("impulses", lambda: state.velocity_after([[NAN, 0.0]]))
    refused("v", lambda: ContactState.from_system(PainleveRod(), v=[INF, 0.0, 0.0]))


@pytest.mark.parametrize("form", ARRAY_FORMS, ids=ARRAY_FORM_IDS)
def test_the_rigid_slips_refuse_a_start_that_is_not_finite(form):
    """A concrete start with NaN is refused in one line (a rod with ``θ₀ = NaN`` was said to be "slipping")."""
    rod = PainleveRod(mu=2.0, phi0=0.6, omega0=1.0)
    q, v = (np.asarray(x) for x in rod.initial_state())
    bad_q = q.copy()
    bad_q[2] = NAN
    refused("q0", lambda: rigid_slip(rod, form(bad_q), v))
    refused("t0", lambda: rigid_slip(rod, q, v, form(INF)))
    refused("jam_tolerance", lambda: rigid_slip(rod, q, v, jam_tolerance=0.0))
    refused("sign", lambda: g_spot_linearisation(rod, q, v, 0.0, form(0.0)))
    refused("q0", lambda: rigid_slip(SpatialRod(), q0=form(np.full(5, NAN)), v0=np.ones(5)))


def test_a_spatial_rod_whose_eager_angle_is_nan_is_refused():
    """``rigid_slip`` of a rod built with ``θ₀ = jnp.asarray(nan)`` said "slipping"."""
    with pytest.raises(ValueError, match="^(theta0|q0) = "):
        rigid_slip(SpatialRod(theta0=jnp.asarray(NAN)))


@pytest.mark.slow
def test_traced_starts_that_are_not_finite_get_an_outcome_of_their_own():
    """Under ``jit`` nothing can be read: the compiled run says "not finite" instead of "slipping"."""
    spatial = jax.jit(lambda theta: rigid_slip(SpatialRod(theta0=theta)).outcome)(NAN)
    assert SLIP_OUTCOMES[int(spatial)] == "not finite"

    def planar(phi):
        rod = PainleveRod(mu=2.0, phi0=phi, omega0=1.0)
        return rigid_slip(rod, *rod.initial_state(), saves=2).outcome

    assert SLIP_OUTCOMES[int(jax.jit(planar)(NAN))] == "not finite"
    assert SLIP_OUTCOMES[int(jax.jit(planar)(0.6))] != "not finite"


@pytest.mark.parametrize("form", ARRAY_FORMS, ids=ARRAY_FORM_IDS)
def test_the_stability_analyses_refuse_values_that_are_not_finite(form):
    refused("mu", lambda: painleve_parameters(1.0, 0.5, 1.0, form(NAN)))
    refused("mu", lambda: painleve_parameters(1.0, 0.5, 1.0, form(-1.0)))
    refused("b", lambda: consistent_modes(0.0, form(NAN), 1.0, 0.5, 1.0, 0.5, 1.0))
    refused("slip_sign", lambda: consistent_modes(0.0, -1.0, 1.0, 0.5, 1.0, 0.5, form(0.5)))
    refused("k", lambda: FastScaleSystem(0.0, -1.0, 1.0, 0.5, 1.0, 0.5, 1.0, k=form(INF)))
    refused("b", lambda: two_contact_modes(np.eye(2), form(np.array([NAN, -1.0]))))
