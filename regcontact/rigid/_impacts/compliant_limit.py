"""The impact law a compliant contact converges to as α → ∞, computed without α (one contact).

A compliant contact whose parameters scale as ``p α^e`` impacts on its own time scale ``T ∝ α^(−s)``: the fastest
of its normal processes, the spring's ``√(m_n/k) ∝ α^(−a/2)`` and the damper's ``m_n/γ_n ∝ α^(−b)``
(``a``, ``b`` the exponents of ``k_n``, ``γ_n``), so ``s = max(a/2, b)``. On that scale, with ``τ = α^s t``, the
penetration ``α^s g_n``, the forces ``α^(−s) λ`` and the velocities unchanged, a term of exponent ``e`` carries a
factor ``α^(e − s)`` (spring: ``α^(a − 2s)``): the terms with the largest exponents survive, the others vanish in
the limit. For the linear spring–damper laws (:class:`~regcontact.contact.AbstractLinearSpringDamper`):

- ``b > a/2`` (Preclik & Rüde's ``k_n, γ_n ∝ α``): the damper alone; ``e = 0``, the normal velocity decays;
- ``b = a/2`` (Champneys' ``k ∝ α``, ``q ∝ √α``): spring and damper at the damping ratio ``ζ = γ/(2√(k m_n))``,
  ``m_n = 1/C``; the law's own ``e(ζ)`` (:func:`spring_damper_restitution`, :func:`kelvin_voigt_restitution`);
- ``b < a/2``: the spring alone; ``e = 1``.

Hunt–Crossley's ``k δⁿ (1 − c ġ)`` with ``k ∝ α^a`` and a fixed ``c`` is its own limit on the scale
``s = a/(n + 1)`` (the damping factor is dimensionless in the velocity); a ``c`` that shrinks with α leaves
Hertz's elastic spring (``e = 1``); a growing one leaves its damping term alone (``e = 0``, the contact stays).

Viscous-limited Coulomb friction with damping exponent ``c``: ``c = s`` keeps the viscous branch on the impact
scale (``λ_T = −clip(γ_t u, ±μλ_N)``, a finite ratio ``γ_t/γ_n``: friction need not reach its cone while the normal
force decays, so the slip that remains depends on that ratio); ``c < s`` leaves no friction during the impact;
``c > s`` makes the tangential damper infinitely stiff on the impact scale: Coulomb's law during the impact, the
Darboux–Keller setting, with the normal impulses shared by the normal law.

:func:`compliant_limit` integrates that α-free problem (:func:`~regcontact.rigid.impact_process`)
for the closed contacts of a state, from touch-down to the end of the impact: the contacts open (a law with a
spring), or the velocities come to rest to round-off (the damper alone, where ``v → 0`` exponentially and the
contact stays closed on the impact scale). :func:`compliant_limit_map` is the same for one contact given by its
contact-space form.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact._argument_checks import (
    FINITE,
    NONNEGATIVE,
    POSITIVE,
    UNIT_INTERVAL,
    ArgumentError,
    check_argument,
)
from regcontact.contact import (
    AbstractNormalLaw,
    AbstractPeakNormalLaw,
    ContactModel,
    check_per_contact,
    select_contacts,
)
from regcontact.rigid._checks import scalar
from regcontact.rigid._impacts.impact_process import FrictionKind, PeakForce, ProcessOutcome, impact_process
from regcontact.rigid._impacts.without_collision import iwc_start, seeded_velocity
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.systems.system import AbstractSystem

__all__ = [
    "COULOMB_MU_LIMIT",
    "MAX_RATE_RTOL",
    "LimitImpact",
    "LimitLaw",
    "compliant_limit",
    "compliant_limit_map",
    "kelvin_voigt_restitution",
    "limit_law",
    "onset_time",
    "spring_damper_restitution",
    "touchdown_lead",
]


#: The largest friction coefficient a limit impact with Coulomb friction is followed at. The slip stops after a
#: normal impulse of about ``|u|/(μA)``, within ``1/μ`` of the impact's: beyond this the integrator no longer
#: resolves that phase. Measured on the chatter study's contact (``studies/chatter.toml``): its Zeno time is
#: 3.1247228, 3.12472228, 3.12472223 at μ = 1e8, 1e9, 1e10 (tending to 3.1247222 as 1/μ), then 3.1247271,
#: 3.12576, 3.07625 at μ = 1e12, 1e14, 1e16, and a negative time at 1e200.
COULOMB_MU_LIMIT = 1e10


#: The fastest normal rate an impact is followed at, times the process's ``rtol``: at most ``0.1/rtol`` (1e11 at
#: the default 1e-12). The process's absolute tolerance is ``1e-3 · rtol`` of the impact speed ``v`` in every
#: component, its gaps ``v/ω`` in size (``ω = √(k C_ii)`` for a spring): their relative tolerance is
#: ``1e-3 · rtol · ω``, 1e-4 at the bound. Measured on one frictionless bilinear contact (``C = 1.3``, ``r = 0.5``,
#: ``v⁻ = −2``, ``ω`` set by ``k``): ``v⁺`` off by 1e-11, 4.5e-12 at ω = 1e10, 1e11; 2.2e-9 at 3e11, 1.3e-8 at 1e12
#: to 1e14, 7.3e-4 from 1e15. A chain of equal balls of mass ``m`` has ``C = 2/m``: masses below 2e-22 (with
#: ``k = 1``) are past it (at 1e-30 the process did not end, at 1e-300 it ended 1e-4 off, silently).
MAX_RATE_RTOL = 0.1

_RATE_MEANING = (
    "(the process's absolute tolerance, 1e-3·rtol of the impact speed, must stay below 1e-4 of the impact's gaps, "
    "speed/rate: a contact's rate √(k C_ii) grows with its stiffness and with C = W M⁻¹ Wᵀ, as the masses shrink)"
)


@dataclass(frozen=True)
class LimitLaw:
    """The α-free contact law on the impact scale: the normal law with the terms that survive (the others set to
    zero), the friction during the impact (``"none"``, ``"viscous"`` with ``tangential_damping``, ``"coulomb"``),
    the impact-scale exponent ``s``, and whether a spring survives (the contact opens at the end of the impact).
    Per-contact parameters stay per contact (``tangential_damping`` then an array); :meth:`at_contacts` keeps
    those of some contacts."""

    normal: AbstractNormalLaw
    friction: FrictionKind
    tangential_damping: float | NDArray[np.float64]
    scale_exponent: float
    has_spring: bool

    def at_contacts(self, index: NDArray[np.intp] | NDArray[np.bool_]) -> LimitLaw:
        """The law at the contacts ``index`` (indices or a mask) only (a law of numbers comes back unchanged)."""
        damping = self.tangential_damping
        return dataclasses.replace(
            self,
            normal=select_contacts(self.normal, index),
            tangential_damping=damping if np.ndim(damping) == 0 else np.asarray(damping)[index],
        )

    def rates(self, normal_mass_inverse: NDArray[np.float64], speed: float) -> list[float]:
        """The inverse time scales of the normal law for contacts of inverse normal masses ``C_ii`` at impact
        speed ``speed``: how long a decaying contact is followed
        (:meth:`~regcontact.contact.AbstractNormalLaw.impact_rates`)."""
        return self.normal.impact_rates(np.asarray(normal_mass_inverse, dtype=float), speed)

    def force(self):
        """The normal law on arrays of contacts (a numpy-in, numpy-out callable), compiled once per law class:
        the law is an argument of the compiled function, so a new law of the same class does not trace again."""
        normal = self.normal
        if isinstance(normal, AbstractPeakNormalLaw):  # first loading: each contact at its deepest so far
            return lambda gaps, rates: np.asarray(_peak_forces(normal, *_arrays(gaps, rates, np.maximum(-gaps, 0.0))))
        return lambda gaps, rates: np.asarray(_contact_forces(normal, jnp.asarray(gaps), jnp.asarray(rates)))

    def peak_force(self) -> PeakForce | None:
        """For a law with a memory (:class:`~regcontact.contact.AbstractPeakNormalLaw`), its force on arrays of
        contacts given their deepest penetrations so far (as :meth:`force`); ``None`` for a memoryless law."""
        normal = self.normal
        if not isinstance(normal, AbstractPeakNormalLaw):
            return None
        return lambda gaps, rates, peaks: np.asarray(_peak_forces(normal, *_arrays(gaps, rates, peaks)))


def _arrays(*values: ArrayLike) -> tuple[jax.Array, ...]:
    return tuple(jnp.asarray(value, dtype=float) for value in values)


@jax.jit
def _contact_forces(law: AbstractNormalLaw, gaps: jax.Array, rates: jax.Array) -> jax.Array:
    """``law`` at every contact: its numbers shared, its per-contact arrays mapped with the contacts."""
    axes = jtu.tree_map(lambda leaf: 0 if jnp.ndim(leaf) > 0 else None, law)
    return jax.vmap(lambda law, gap, rate: law(gap, rate), in_axes=(axes, 0, 0))(law, gaps, rates)


@jax.jit
def _peak_forces(law: AbstractPeakNormalLaw, gaps: jax.Array, rates: jax.Array, peaks: jax.Array) -> jax.Array:
    """``law`` at every contact after its peak: its numbers shared, its per-contact arrays mapped with the contacts."""
    axes = jtu.tree_map(lambda leaf: 0 if jnp.ndim(leaf) > 0 else None, law)
    return jax.vmap(lambda law, gap, rate, peak: law.force(gap, rate, peak), in_axes=(axes, 0, 0, 0))(
        law, gaps, rates, peaks
    )


def _check_model(model: object) -> None:
    if not isinstance(model, ContactModel):
        raise TypeError(f"model = {model!r}: expected a ContactModel")


def _check_tolerances(tol: float, rtol: float) -> None:
    check_argument("tol", tol, UNIT_INTERVAL)
    check_argument("rtol", rtol, UNIT_INTERVAL)


def limit_law(model: ContactModel) -> LimitLaw:
    """The terms of ``model`` that act on its impact time scale (module docstring), as its normal law answers
    (:meth:`~regcontact.contact.AbstractNormalLaw.impact_scale`) and then its friction law
    (:meth:`~regcontact.contact.AbstractFrictionLaw.impact_friction`); ``ValueError`` for laws
    that do not derive their limit, ``TypeError`` for a ``model`` that is no
    :class:`~regcontact.contact.ContactModel`."""
    _check_model(model)
    scale = model.normal.impact_scale(model.normal_exponents)
    kind, tangential_damping = model.friction.impact_friction(model.friction_exponents, scale.exponent)
    return LimitLaw(scale.law, kind, tangential_damping, scale.exponent, scale.has_spring)


@dataclass(frozen=True)
class LimitImpact:
    """The velocities after the limit impact ``(u⁺, v⁺)``, the impulses ``(I_N, I_T)`` and how it ended:
    ``"opened"`` (the contact separates) or ``"rest"`` (the normal velocity decayed to round-off, contact closed)."""

    u: float
    v: float
    normal_impulse: float
    tangential_impulse: float
    ended: str


def onset_time(law: LimitLaw, normal_velocity: ArrayLike, rates: Sequence[float]) -> float:
    """How long before touch-down (on the impact scale) the contact forces set in: the smallest ``τ₀ ≥ 0`` with no
    force at the gaps ``g_i = −v_i τ₀`` of the ballistic approach. Zero for a law without force above the ground
    (:class:`~regcontact.contact.SpringDamper`, Hunt–Crossley); ``c/k`` for a clipped Kelvin–Voigt law,
    which brakes a fast approach before the gap closes. ``ValueError`` for a law that acts at any distance (a
    Kelvin–Voigt damper without its spring), and for velocities that are not finite or rates that are not
    positive."""
    v = np.asarray(normal_velocity, dtype=float)
    check_argument("normal_velocity", v, FINITE)
    check_argument("rates", np.asarray(rates, dtype=float), POSITIVE)
    if np.size(rates) == 0:
        raise ValueError("rates = []: expected at least one inverse time scale")
    force = law.force()
    scale = max(float(np.abs(v).max()) * max(rates), 1e-300)  # a force the impact's size: speed / time scale

    def quiet(tau: float) -> bool:
        return bool(np.all(force(-v * tau, v) <= 1e-12 * scale))

    step = 1e-12 / max(rates)
    if quiet(step):
        return 0.0
    low, high = step, 1.0 / min(rates)
    for _ in range(60):
        if quiet(high):
            break
        low, high = high, 2.0 * high
    else:
        raise ValueError(f"{type(law.normal).__name__} acts at any gap for an approaching contact: no onset")
    for _ in range(200):
        middle = 0.5 * (low + high)
        low, high = (low, middle) if quiet(middle) else (middle, high)
        if high - low <= 1e-15 * high:
            break
    return high


def _impact_rates(law: LimitLaw, G: NDArray, speed: float, rtol: float, growth: NDArray | None = None) -> list[float]:
    """The inverse time scales of an impact of the contacts with Delassus matrix ``G`` under ``law`` (both at the
    contacts taking part) at ``speed``: the normal law's (and, for the contacts ``growth`` seeds, those of their
    growth), ``ArgumentError`` where the fastest exceeds ``MAX_RATE_RTOL/rtol``, then the viscous friction's."""
    rates = law.rates(np.diag(G)[0::2], speed)
    if growth is not None:
        rates = rates + law.rates(growth, speed)
    fastest, most = max(rates, default=0.0), MAX_RATE_RTOL / rtol
    if not fastest <= most:  # NaN and inf too
        raise ArgumentError(
            "the impact's fastest normal rate",
            fastest,
            f"at most {most:.3g} = {MAX_RATE_RTOL:g}/rtol {_RATE_MEANING}",
            shown=f"{fastest:.3g}",
        )
    if law.friction == "viscous":
        rates = rates + [r for r in law.tangential_damping * np.diag(G)[1::2] if r > 0]
    return rates


def _process(
    G: NDArray, mu: NDArray, velocity: NDArray, law: LimitLaw, rtol: float, growth: NDArray | None = None
) -> ProcessOutcome:
    """The limit impact of the contacts; ``growth``: the ``|p_ii|`` of the contacts seeded for an impact without
    collision, whose rates (those of an approach with ``C_ii = |p_ii|``) set how long their growth is followed."""
    rates = _impact_rates(law, G, float(np.abs(velocity).max()), rtol, growth)
    # start where the forces set in on the ballistic approach (every contact reaches g = 0 together at τ₀)
    gaps = -velocity[:, 0] * onset_time(law, velocity[:, 0], rates)
    return impact_process(
        G,
        mu,
        velocity,
        law.force(),
        law.friction,
        law.tangential_damping,
        rates,
        not law.has_spring,
        rtol,
        gaps,
        peak_force=law.peak_force(),
    )


def compliant_limit_map(
    A: float, B: float, C: float, mu: float, u: float, v: float, law: LimitLaw, rtol: float = 1e-12
) -> LimitImpact:
    """The limit impact of one contact in contact-space form (``A > 0``, ``AC > B²``) from touch-down with
    ``(u⁻, v⁻)``, ``v⁻ ≤ 0``, under ``law`` (:func:`limit_law`): ``u' = A λ_T + B λ_N``, ``v' = B λ_T + C λ_N``,
    ``g' = v`` on the impact scale, integrated to the end of the impact. ``v⁻ = 0`` is an impact without collision
    (:mod:`~regcontact.rigid._impacts.without_collision`): the contact must press itself in (``p = C − sμB < 0``
    in the mode its impulse gives it; ``ValueError`` in one line otherwise) and starts from a seed. ``μ ≥ 0`` and
    every argument finite (``ValueError`` naming the first that is not); with Coulomb friction during the impact
    ``μ ≤`` :data:`COULOMB_MU_LIMIT` (``ValueError`` above it: the slip phase is no longer resolved); the normal law's
    rates at most ``MAX_RATE_RTOL/rtol`` (:data:`MAX_RATE_RTOL`; ``ArgumentError`` above it, before the
    integration)."""
    A, B, C = (scalar(name, value, FINITE) for name, value in (("A", A), ("B", B), ("C", C)))
    if not (A > 0 and A * C > B * B):
        raise ValueError(f"A = {A}, B = {B}, C = {C}: the Delassus matrix [[A, B], [B, C]] must be positive definite")
    mu = scalar("mu", mu, NONNEGATIVE)
    u, v = scalar("u", u, FINITE), scalar("v", v, FINITE)
    rtol = scalar("rtol", rtol, UNIT_INTERVAL)
    if not isinstance(law, LimitLaw):
        raise TypeError(f"law = {law!r}: expected a LimitLaw (limit_law(model))")
    check_per_contact(law.normal, 1, "law.normal")
    if np.size(law.tangential_damping) != 1:
        raise ValueError(f"law.tangential_damping = {law.tangential_damping!r}: expected one value (one contact)")
    if v > 0:
        raise ValueError(f"v = {v}: the contact separates, no impact (expected v ≤ 0)")
    if law.friction == "coulomb" and mu > COULOMB_MU_LIMIT:
        raise ValueError(f"mu = {mu:g}: expected at most {COULOMB_MU_LIMIT:g} with Coulomb friction during the impact")
    G, mus, w, growth = np.array([[C, B], [B, A]]), np.array([mu]), np.array([[v, u]]), None
    if v == 0:
        w, growth = seeded_velocity(G, mus, w, None, "compliant_limit_map")
    outcome = _process(G, mus, w, law, rtol, growth)
    (v_end, u_end), (impulse_n, impulse_t) = outcome.velocity[0], outcome.impulses[0]
    if growth is not None:  # where the impulses take the unseeded velocities
        v_end, u_end = C * impulse_n + B * impulse_t, u + B * impulse_n + A * impulse_t
    return LimitImpact(float(u_end), float(v_end), float(impulse_n), float(impulse_t), outcome.ended)


def touchdown_lead(state: ContactState | AbstractSystem, model: ContactModel, tol: float = 1e-9) -> float:
    """How long before a touch-down ``state`` the compliant forces of ``model`` set in, on the impact scale
    (:func:`onset_time`; at stiffness α the time ``τ₀ α^(−s)``): a compliant run of the same landing starts that
    much earlier, at ``q − v τ₀ α^(−s)``, so that it meets the ground as the rigid state does."""
    _check_model(model)
    check_argument("tol", tol, UNIT_INTERVAL)
    state = as_contact_state(state)
    model.check_contacts(state.num_contacts)
    closed = np.flatnonzero(np.abs(state.gaps) <= tol * state.gap_scale)
    w = state.contact_velocity[closed]
    law = limit_law(model).at_contacts(closed)
    speed = float(np.abs(w).max(initial=0.0))
    if speed == 0.0:
        return 0.0
    return onset_time(law, w[:, 0], law.rates(np.diag(state.delassus)[0::2][closed], speed))


def compliant_limit(
    state: ContactState | AbstractSystem,
    model: ContactModel,
    tol: float = 1e-9,
    rtol: float = 1e-12,
    case: str | None = None,
) -> tuple[ProcessOutcome, NDArray[np.float64]]:
    """The limit impact of ``model`` (:func:`limit_law`) at the closed contacts of ``state`` (a system: at its
    initial state), ``|g_n| ≤ tol`` of its length: the process's outcome over all ``k`` contacts (open ones with
    zero impulse) and the generalised velocity after it, ``v⁺ = v + M⁻¹ Wᵀ P``. Per-contact parameters of
    ``model`` act at their own contacts (one value per contact of ``state``, checked).

    Where no closed contact approaches, an impact without collision at the closed contacts at rest normally
    (:mod:`~regcontact.rigid._impacts.without_collision`): ``case`` says which of them take the impulse (``"I"``)
    and which lift off (``"F"``), in order (``"IF"``, ``"FI"``, ``"II"``); ``None`` takes the one consistent case.
    ``ValueError`` in one line if there is no impact (nothing approaches or presses itself in), if several cases
    are possible and ``case`` is not given, for a tolerance outside ``(0, 1)``, or for an impact faster than the
    process resolves (a normal rate ``√(k C_ii)`` above ``MAX_RATE_RTOL/rtol``, :data:`MAX_RATE_RTOL`: tiny masses or a
    huge stiffness); ``TypeError`` for a ``model`` that is no :class:`~regcontact.contact.ContactModel`."""
    _check_model(model)
    _check_tolerances(tol, rtol)
    state = as_contact_state(state)
    model.check_contacts(state.num_contacts)
    closed = np.flatnonzero(np.abs(state.gaps) <= tol * state.gap_scale)
    w = state.contact_velocity
    if closed.size == 0:
        raise ValueError("compliant_limit: no closed contact approaches (v_n < 0): no impact")
    rows = np.column_stack([2 * closed, 2 * closed + 1]).reshape(-1)
    G_closed = state.delassus[np.ix_(rows, rows)]
    start, growth = iwc_start(
        G_closed, state.mu[closed], w[closed], tol * state.velocity_scale, case, "compliant_limit"
    )
    outcome = _process(G_closed, state.mu[closed], start, limit_law(model).at_contacts(closed), rtol, growth)
    impulses = np.zeros((state.num_contacts, 2))
    impulses[closed] = outcome.impulses
    velocity = w.copy()
    # an impact without collision ends where its impulses take the unseeded velocities
    velocity[closed] = (
        outcome.velocity if growth is None else w[closed] + (G_closed @ outcome.impulses.reshape(-1)).reshape(-1, 2)
    )
    full = ProcessOutcome(velocity, impulses, outcome.ended, outcome.segments)
    return full, state.velocity_after(impulses)


def spring_damper_restitution(zeta: float) -> float:
    """Restitution of :class:`~regcontact.contact.SpringDamper` (damper on approach only), frictionless,
    ``ζ < 1``: the damped quarter-cycle to the deepest point, ``t* = arctan(√(1−ζ²)/ζ)/ω_d``, then an undamped
    spring: ``e = exp(−ζ ω t*) = exp(−ζ/√(1−ζ²) · arctan(√(1−ζ²)/ζ))``."""
    root = math.sqrt(1.0 - _underdamped(zeta) ** 2)
    return math.exp(-zeta / root * math.atan2(root, zeta))


def kelvin_voigt_restitution(zeta: float) -> float:
    """Restitution of a clipped Kelvin–Voigt law (:class:`~regcontact.contact.ClippedKelvinVoigt`,
    :class:`~regcontact.contact.ChampneysFastScale`), frictionless, ``ζ < 1``, arriving from free
    flight. The law brakes before the gap closes, from ``k δ + c δ̇ = 0`` (``δ = −g``); the force
    ``F = k δ + c δ̇`` obeys the oscillator's own equation with ``F(0) = 0``, ``Ḟ(0) = k v₀``, so
    ``F = (k v₀/ω_d) e^(−ζωt) sin ω_d t`` and the contact releases after exactly half a damped period, where
    ``δ̇ = −v₀ e^(−πζ/√(1−ζ²))``: ``e = exp(−πζ/√(1−ζ²))``."""
    zeta = _underdamped(zeta)
    return math.exp(-math.pi * zeta / math.sqrt(1.0 - zeta * zeta))


def _underdamped(zeta: float) -> float:
    """``ζ`` if in ``(0, 1)``; ``ValueError`` otherwise (the closed forms above are the underdamped ones)."""
    if not 0.0 < zeta < 1.0:
        raise ValueError(f"zeta = {zeta}: the closed form holds for an underdamped contact, 0 < ζ < 1")
    return zeta
