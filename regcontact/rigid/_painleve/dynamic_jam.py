"""Dynamic jam: a slipping single-contact body reaching the G-spot ``b = p = 0`` (Champneys & Várkonyi Sec. 5.1).

While one contact slips with sign ``s = sign ġ_t`` (the system's own frame), Coulomb friction is
``λ_t = −s μ λ_n`` and the normal acceleration is ``g̈_n = b + p λ_n`` with the free normal acceleration ``b``
and the Painlevé parameter of that slip direction ``p = C − s μ B`` (contact-space form,
:func:`~regcontact.systems.contact_space_form`). Sustained slip needs ``λ_n = −b/p``, so the rigid slip flow of
the state ``X = (q, v, t)`` is

    dX/dt = F(X) + λ_n N(X),   F = (v, M⁻¹h, 1),   N = (0, M⁻¹(W_nᵀ − s μ W_tᵀ), 0),

singular where ``p = 0``. In the time ``s`` of Génot and Brogliato, ``dt = p ds`` (Eq. 32), it is the smooth
field ``dX/ds = p F − b N``, for which every point with ``p = b = 0`` is an equilibrium. Along it, exactly,

    dp/ds = p (∇p·F) − b (∇p·N),      db/ds = p (∇b·F) − b (∇b·N),

and ``∇p·N = 0`` because ``p`` depends on ``q`` and ``t`` only. Frozen at a G-spot these are Eqs. 33–34 with
``α₁ = ∇p·F`` (the rate of ``p``), ``α₂ = ∇b·F`` (the rate of ``b`` in free flight) and ``α₃ = −∇b·N``; the
``p``-equation has no ``b`` term, so the ``b``-axis ``p = 0`` is invariant. :func:`g_spot_linearisation`
computes the three by ``jax.jvp`` along ``F`` and ``N`` for any one-contact system.

The linear system's phase portraits (Fig. 13) are classified by :func:`g_spot_panel`; initial conditions in slip
(``p > 0``, ``b < 0``) reach the G-spot in finite time only in a stable node (``α₁, α₃ < 0``): tangent to the
``b``-axis with ``λ_n → ∞`` when ``α₁ < α₃ < 0`` (case G1, below the ``α₁``-eigenvector line), tangent to that
eigenvector with ``λ_n → α₂/(α₃ − α₁)`` when ``α₃ < α₁ < 0`` and ``α₂ < 0`` (case G2; the paper prints
``0 < α₁ < α₃``, see ``docs/dynamic_jam.md``). :func:`rigid_slip` integrates the rigid slip of a system in ``s``
until it jams, lifts off or stops slipping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, Rule, check_argument
from regcontact.rigid._painleve.slip import RigidSlip, SlipState, one_contact
from regcontact.systems.reduced_two_contact import contact_space_form
from regcontact.systems.system import AbstractSystem

__all__ = [
    "G_SPOT_PANELS",
    "ROUNDOFF_ULPS",
    "GSpotLinearisation",
    "GSpotPanel",
    "g_spot_linearisation",
    "g_spot_panel",
    "jam_case",
    "linear_g_spot_flow",
    "reaches_g_spot",
    "extrapolate_to_jam",
    "painleve_roundoff",
    "rescaled_slip_field",
    "slip_field",
    "slip_normal_dynamics",
    "slip_sign",
]


#: A slip direction: ``−1`` or ``1``.
SLIP_DIRECTION = Rule("-1 or 1", lambda x: np.abs(x) == 1.0)


def _check_state(state: tuple[ArrayLike, ...], sign: ArrayLike | None = None) -> None:
    """``ValueError`` naming the first of ``q, v, t`` that is not finite, or a ``sign`` that is not ``±1``
    (concrete values only: traced ones pass)."""
    for name, value in zip(("q", "v", "t"), state):
        check_argument(name, value, FINITE)
    check_argument("sign", sign, SLIP_DIRECTION)


def slip_sign(system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, ""]:
    """``s = sign ġ_t``: the direction the contact slips in, in the system's own frame."""
    one_contact(system)
    _check_state((q, v))
    return jnp.sign(system.jacobians(q)[0, 1] @ v)


def slip_normal_dynamics(
    system: AbstractSystem, state: SlipState, sign: ArrayLike
) -> tuple[Float[Array, ""], Float[Array, ""]]:
    """``(p, b)`` at ``state``: the Painlevé parameter of slip with sign ``sign`` and the free normal acceleration,
    so that ``g̈_n = b + p λ_n`` while slipping (Eqs. 13–15, from the contact-space form)."""
    one_contact(system)
    _check_state(state, sign)
    q, v, t = state
    form = contact_space_form(system, q, v, t)
    mu = system.friction_coefficients[0]
    return form.C[0, 0] - sign * mu * form.B[0, 0], form.b[0]


def _free_direction(system: AbstractSystem, state: SlipState) -> SlipState:
    """``F = (v, M⁻¹h, 1)``: the motion without contact forces."""
    q, v, t = state
    return v, system.mass_solve(q, system.forces(q, v, t)), jnp.ones_like(t)


def _normal_force_direction(system: AbstractSystem, state: SlipState, sign: ArrayLike) -> SlipState:
    """``N = (0, M⁻¹(W_nᵀ − s μ W_tᵀ), 0)``: what a unit normal force does to the slipping body."""
    q, v, t = state
    jacobian = system.jacobians(q)[0]
    mu = system.friction_coefficients[0]
    return jnp.zeros_like(q), system.mass_solve(q, jacobian[0] - sign * mu * jacobian[1]), jnp.zeros_like(t)


def _combine(x: ArrayLike, first: SlipState, y: ArrayLike, second: SlipState) -> SlipState:
    return jax.tree_util.tree_map(lambda f, n: x * f + y * n, first, second)


def slip_field(system: AbstractSystem, state: SlipState, sign: ArrayLike) -> SlipState:
    """``dX/dt`` of rigid slip, ``F + λ_n N`` with ``λ_n = −b/p`` (singular at ``p = 0``)."""
    _check_state(state, sign)
    p, b = slip_normal_dynamics(system, state, sign)
    return _combine(1.0, _free_direction(system, state), -b / p, _normal_force_direction(system, state, sign))


def rescaled_slip_field(system: AbstractSystem, state: SlipState, sign: ArrayLike) -> SlipState:
    """``dX/ds = p F − b N``: rigid slip in the time ``s`` of ``dt = p ds`` (Eq. 32), smooth through ``p = 0``."""
    _check_state(state, sign)
    p, b = slip_normal_dynamics(system, state, sign)
    return _combine(p, _free_direction(system, state), -b, _normal_force_direction(system, state, sign))


class GSpotLinearisation(eqx.Module):
    """Eqs. 33–34 at one state of slip: ``d(p, b)/ds = [[α₁, 0], [α₂, α₃]] (p, b)``.

    ``painleve`` and ``free_normal_acceleration`` are ``p`` and ``b`` at the state (zero at a G-spot);
    ``painleve_drift = −∇p·N``, the coefficient of ``b`` in ``dp/ds``, is zero for every system whose ``p`` does
    not depend on the velocities (it keeps the ``b``-axis invariant).
    """

    alpha1: Float[Array, ...]
    alpha2: Float[Array, ...]
    alpha3: Float[Array, ...]
    painleve: Float[Array, ...]
    free_normal_acceleration: Float[Array, ...]
    painleve_drift: Float[Array, ...]

    def matrix(self) -> Float[Array, "... 2 2"]:
        """``[[α₁, 0], [α₂, α₃]]``."""
        zero = jnp.zeros_like(self.alpha1)
        return jnp.stack([jnp.stack([self.alpha1, zero], -1), jnp.stack([self.alpha2, self.alpha3], -1)], -2)

    def jam_normal_force(self) -> Float[Array, ...]:
        """``α₂/(α₃ − α₁)``: the limit of ``λ_n = −b/p`` along the ``α₁``-eigenvector (case G2)."""
        return self.alpha2 / (self.alpha3 - self.alpha1)


def g_spot_linearisation(
    system: AbstractSystem,
    q: Float[Array, " n"],
    v: Float[Array, " n"],
    t: ArrayLike = 0.0,
    sign: ArrayLike | None = None,
) -> GSpotLinearisation:
    """``α₁ = ∇p·F``, ``α₂ = ∇b·F``, ``α₃ = −∇b·N`` at ``(q, v, t)`` by ``jax.jvp`` (module docstring).

    ``sign``: the slip direction (default: that of ``ġ_t`` at the state, which must not be zero). Meaningful as
    Eqs. 33–34 where ``p = b = 0`` (the G-spot); elsewhere they are the rates of ``p`` and ``b`` along the flow
    (``dp/dt = α₁``, ``db/dt = α₂ + α₃ b/p``).
    """
    _check_state((q, v, t), sign)
    sign = slip_sign(system, q, v) if sign is None else jnp.asarray(sign, dtype=float)
    state = (jnp.asarray(q, float), jnp.asarray(v, float), jnp.asarray(t, float))

    def normal(x: SlipState) -> Float[Array, "2"]:
        return jnp.stack(slip_normal_dynamics(system, x, sign))

    values, along_free = jax.jvp(normal, (state,), (_free_direction(system, state),))
    _, along_force = jax.jvp(normal, (state,), (_normal_force_direction(system, state, sign),))
    return GSpotLinearisation(
        alpha1=along_free[0],
        alpha2=along_free[1],
        alpha3=-along_force[1],
        painleve=values[0],
        free_normal_acceleration=values[1],
        painleve_drift=-along_force[0],
    )


# -- the phase portraits of Eqs. 33–34 (Fig. 13) --------------------------------------------------------------

JamOutcome = Literal["G1", "G2", "lift-off", "slip"]


@dataclass(frozen=True)
class GSpotPanel:
    """One qualitatively distinct phase portrait of Eqs. 33–34, seen from the slip quadrant ``p > 0 > b``.

    ``flow``: the equilibrium in ``s`` (a node or a saddle, by the signs of the eigenvalues ``α₁`` on the
    eigenvector ``(α₁ − α₃, α₂)`` and ``α₃`` on the ``b``-axis); ``slow``: for a node, the direction of the
    eigenvalue nearer zero, ``"b-axis"`` or ``"eigenvector"`` (``None`` for a saddle); ``eigenvector_in_slip``:
    whether the ``α₁``-eigenvector line passes through the slip quadrant (``α₂/(α₁ − α₃) < 0``); ``outcomes``:
    what initial conditions in the slip quadrant near the G-spot do: reach it (G1, G2), ``lift-off`` (``b``
    turns positive at ``p > 0``) or ``slip`` (leave the neighbourhood still slipping).
    """

    label: str
    flow: Literal["stable node", "saddle, b-axis unstable", "saddle, b-axis stable", "unstable node"]
    slow: Literal["b-axis", "eigenvector"] | None
    eigenvector_in_slip: bool
    outcomes: frozenset[JamOutcome]


def _panel(index: int, flow, slow, inside: bool, *outcomes: JamOutcome) -> GSpotPanel:
    return GSpotPanel("abcdefghijkl"[index], flow, slow, inside, frozenset(outcomes))


#: The twelve generic phase portraits of Eqs. 33–34 (our lettering; :func:`g_spot_panel` picks one).
G_SPOT_PANELS: tuple[GSpotPanel, ...] = (
    _panel(0, "stable node", "b-axis", True, "G1", "lift-off"),
    _panel(1, "stable node", "b-axis", False, "G1"),
    _panel(2, "stable node", "eigenvector", True, "G2"),
    _panel(3, "stable node", "eigenvector", False, "lift-off"),
    _panel(4, "saddle, b-axis unstable", None, True, "slip", "lift-off"),
    _panel(5, "saddle, b-axis unstable", None, False, "slip"),
    _panel(6, "saddle, b-axis stable", None, True, "slip"),
    _panel(7, "saddle, b-axis stable", None, False, "lift-off"),
    _panel(8, "unstable node", "b-axis", True, "slip"),
    _panel(9, "unstable node", "b-axis", False, "lift-off"),
    _panel(10, "unstable node", "eigenvector", True, "slip", "lift-off"),
    _panel(11, "unstable node", "eigenvector", False, "slip"),
)


def g_spot_panel(alpha1: float, alpha2: float, alpha3: float) -> GSpotPanel:
    """The panel of :data:`G_SPOT_PANELS` of one generic ``(α₁, α₂, α₃)`` (finite, nonzero, ``α₁ ≠ α₃``)."""
    alpha1, alpha2, alpha3 = _alphas(alpha1, alpha2, alpha3)
    if 0.0 in (alpha1, alpha2, alpha3) or alpha1 == alpha3:
        raise ValueError(f"(α₁, α₂, α₃) = {(alpha1, alpha2, alpha3)}: expected nonzero values with α₁ ≠ α₃")
    if alpha1 < 0 and alpha3 < 0:
        flow = "stable node"
    elif alpha1 > 0 and alpha3 > 0:
        flow = "unstable node"
    else:
        flow = "saddle, b-axis unstable" if alpha3 > 0 else "saddle, b-axis stable"
    slow = None if flow.startswith("saddle") else ("b-axis" if abs(alpha3) < abs(alpha1) else "eigenvector")
    inside = alpha2 / (alpha1 - alpha3) < 0
    return next(p for p in G_SPOT_PANELS if (p.flow, p.slow, p.eigenvector_in_slip) == (flow, slow, inside))


def _alphas(*alphas: float) -> tuple[float, ...]:
    """``(α₁, α₂, α₃)`` as floats, each finite (``ValueError`` naming the first that is not)."""
    values = tuple(float(alpha) for alpha in alphas)
    for i, value in enumerate(values):
        check_argument(f"alpha{i + 1}", value, FINITE)
    return values


def jam_case(alpha1: float, alpha2: float, alpha3: float) -> Literal["G1", "G2"] | None:
    """``"G1"`` if ``α₁ < α₃ < 0`` (``λ_n → ∞``), ``"G2"`` if ``α₃ < α₁ < 0`` and ``α₂ < 0``
    (``λ_n → α₂/(α₃ − α₁)``), else ``None``: no open set of slipping states reaches the G-spot. ``ValueError`` for
    an ``α`` that is not finite."""
    alpha1, alpha2, alpha3 = _alphas(alpha1, alpha2, alpha3)
    if alpha1 < alpha3 < 0:
        return "G1"
    if alpha3 < alpha1 < 0 and alpha2 < 0:
        return "G2"
    return None


def _finite_arrays(**values: ArrayLike) -> list[np.ndarray]:
    """The values as float arrays, each finite elementwise (``ValueError`` naming the first that is not)."""
    arrays = [np.asarray(value, dtype=float) for value in values.values()]
    for name, array in zip(values, arrays):
        check_argument(name, array, FINITE)
    return arrays


def reaches_g_spot(alpha1: ArrayLike, alpha2: ArrayLike, alpha3: ArrayLike, p: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Whether ``(p, b)`` in the slip quadrant reaches the G-spot under Eqs. 33–34 staying in it (``b < 0``).

    The solution is ``p = c₂(α₁ − α₃) e^{α₁s}``, ``b = e^{α₃s}(c₁ + c₂α₂ e^{(α₁−α₃)s})`` with
    ``c₂ = p₀/(α₁ − α₃)``, ``c₁ = b₀ − c₂α₂``: it tends to zero iff ``α₁, α₃ < 0``, and the bracket, linear in
    ``r = e^{(α₁−α₃)s}``, stays negative iff ``c₁ ≤ 0`` (``α₁ < α₃``: ``r`` falls to 0) or ``c₂α₂ ≤ 0``
    (``α₁ > α₃``: ``r`` grows without bound). Elementwise; ``ValueError`` for a value that is not finite.
    """
    alpha1, alpha2, alpha3, p, b = _finite_arrays(alpha1=alpha1, alpha2=alpha2, alpha3=alpha3, p=p, b=b)
    c2 = p / (alpha1 - alpha3)
    c1 = b - c2 * alpha2
    bracket_negative = np.where(alpha1 < alpha3, c1 <= 0, c2 * alpha2 <= 0)
    return (alpha1 < 0) & (alpha3 < 0) & (p > 0) & (b < 0) & bracket_negative


def linear_g_spot_flow(
    alpha1: ArrayLike, alpha2: ArrayLike, alpha3: ArrayLike, p0: ArrayLike, b0: ArrayLike, s: ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    """The exact solution ``(p(s), b(s))`` of Eqs. 33–34 from ``(p0, b0)`` (broadcasts; ``α₁ ≠ α₃``; finite)."""
    a1, a2, a3, p0, b0, s = _finite_arrays(alpha1=alpha1, alpha2=alpha2, alpha3=alpha3, p0=p0, b0=b0, s=s)
    c2 = p0 / (a1 - a3)
    c1 = b0 - c2 * a2
    return p0 * np.exp(a1 * s), c1 * np.exp(a3 * s) + c2 * a2 * np.exp(a1 * s)


# -- rigid slip of a system, in the time s --------------------------------------------------------------------

#: ``p`` counts as zero below this many units in the last place of its terms ``|C| + μ|B|`` (its round-off:
#: near a G1 jam ``p`` falls as ``|b|^(α₁/α₃)``, below round-off long before ``b`` does when ``α₁/α₃`` is large).
ROUNDOFF_ULPS = 64.0


def painleve_roundoff(system: AbstractSystem, state: SlipState, sign: ArrayLike) -> Float[Array, ""]:
    """The round-off of ``p = C − sμB`` at ``state``: :data:`ROUNDOFF_ULPS` units in the last place of
    ``|C| + μ|B|``."""
    q, v, t = state
    form = contact_space_form(system, q, v, t)
    mu = system.friction_coefficients[0]
    return ROUNDOFF_ULPS * jnp.finfo(float).eps * (jnp.abs(form.C[0, 0]) + jnp.abs(mu * form.B[0, 0]))


def extrapolate_to_jam(system: AbstractSystem, state: SlipState, sign: ArrayLike) -> tuple[SlipState, Float[Array, ""]]:
    """``(state at the G-spot, normal impulse still to come)`` from ``state`` next to a jam (``α₁, α₃ < 0``).

    ``p`` does not depend on the velocities, so along rigid slip ``dp/dt = ∇p·F``, which is ``α₁`` at the
    G-spot: ``p`` vanishes *linearly* in ``t``, and the time left is ``Δt = ∫p ds = −p/α₁``. The impulse left is
    ``ΔI = −∫b ds`` over the exact solution of Eqs. 33–34 from ``(p, b)`` (:func:`linear_g_spot_flow`),
    ``c₁/α₃ + c₂α₂/α₁``, finite in case G1 too. The state moves by ``dX = F dt + N dI`` (``dX/ds = pF − bN``):
    ``X + F Δt + N ΔI``, with errors of second order in ``(p, b)``.
    """
    q, v, t = state
    lin = g_spot_linearisation(system, q, v, t, sign)
    a1, a2, a3 = lin.alpha1, lin.alpha2, lin.alpha3
    p, b = lin.painleve, lin.free_normal_acceleration
    c2 = p / (a1 - a3)
    c1 = b - c2 * a2
    time_left = -p / a1
    impulse_left = c1 / a3 + c2 * a2 / a1
    jam = _combine(
        time_left, _free_direction(system, state), impulse_left, _normal_force_direction(system, state, sign)
    )
    return jax.tree_util.tree_map(lambda x, d: x + d, state, jam), impulse_left


@eqx.filter_jit
def planar_rigid_slip(
    system: AbstractSystem, state0: SlipState, s_max: float, saves: int, jam_tolerance: float, rtol: float
) -> RigidSlip:
    """:func:`~regcontact.rigid.rigid_slip` of a planar contact after its checks: integrated in the time ``s`` of
    :func:`rescaled_slip_field` (Tsit5) until it jams, lifts off, stops slipping or reaches ``s_max``. A lift-off
    and a stop are located on the step's dense output (bisection on ``b`` and ``s ġ_t``); a jam, which ``s``
    reaches only as ``s → ∞``, is extrapolated from the end to ``p = 0`` (:func:`extrapolate_to_jam`). Compiled
    once per system class and setting (the fields and events are closures over ``system``: without the jit every
    call would trace and compile the solve again)."""
    import diffrax

    from regcontact._crossing_bisection import CrossingBisection

    q0, v0, _ = state0
    sign = slip_sign(system, q0, v0)
    p0, b0 = slip_normal_dynamics(system, state0, sign)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(x)) for x in (*state0, p0, b0)]))
    finite = finite & jnp.isfinite(system.friction_coefficients[0])
    b_tolerance = jam_tolerance * jnp.abs(b0)

    def normal_rates(state: SlipState):
        """``(p, b)`` and their rates along the rescaled field."""
        return jax.jvp(
            lambda x: jnp.stack(slip_normal_dynamics(system, x, sign)),
            (state,),
            (rescaled_slip_field(system, state, sign),),
        )

    def jammed(t, y, args, **kwargs):
        state = y[0]
        p, b = slip_normal_dynamics(system, state, sign)
        p_tolerance = jnp.maximum(jam_tolerance * jnp.abs(p0), painleve_roundoff(system, state, sign))
        return (jnp.abs(p) <= p_tolerance) & (jnp.abs(b) <= b_tolerance)

    def lift_off(t, y, args, **kwargs):
        return slip_normal_dynamics(system, y[0], sign)[1]

    def stopped(t, y, args, **kwargs):
        q, v, _ = y[0]
        return sign * (system.jacobians(q)[0, 1] @ v)

    def away(t, y, args, **kwargs):
        # p = 0 is invariant (dp/ds = p ∇p·F): p past its round-off, or at it with |b| not falling, is no jam
        state = y[0]
        (p, b), (_, rate) = normal_rates(state)
        floor = painleve_roundoff(system, state, sign)
        return ~jammed(t, y, args) & ((p < -floor) | ((jnp.abs(p) <= floor) & (b * rate >= 0)))

    # no slip to follow from the start: not finite, p ≤ 0 or ġ_t = 0 (outcomes 6, 5), or b ≥ 0 (a lift-off at once)
    start_code = jnp.where(finite, jnp.where((p0 <= 0) | (sign == 0), 5, 2), 6)
    no_slip = ~finite | (p0 <= 0) | (sign == 0) | (b0 >= 0)

    def at_start(t, y, args, **kwargs):
        return no_slip

    def field(s, augmented, args):
        state, _ = augmented
        return rescaled_slip_field(system, state, sign), -slip_normal_dynamics(system, state, sign)[1]

    event = diffrax.Event(
        cond_fn=(at_start, jammed, lift_off, stopped, away),
        root_finder=CrossingBisection(),  # type: ignore[call-arg]  # equinox defaults mypy does not see
        direction=(None, None, True, False, None),
    )
    ts = jnp.linspace(0.0, s_max, saves)
    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(field),
        diffrax.Tsit5(),
        t0=0.0,
        t1=s_max,
        dt0=1e-3,
        y0=(state0, jnp.zeros(())),
        saveat=diffrax.SaveAt(subs=[diffrax.SubSaveAt(ts=ts), diffrax.SubSaveAt(t1=True)]),
        stepsize_controller=diffrax.PIDController(rtol=rtol, atol=rtol * 1e-3),
        event=event,
        max_steps=100_000,
        throw=False,
    )
    (samples, impulse), (last, last_impulse) = solution.ys
    q, v, t = samples
    end = jax.tree_util.tree_map(lambda x: x[-1], last)
    masks = solution.event_mask if solution.event_mask is not None else (False,) * 5
    fired = jnp.stack([jnp.asarray(m) for m in masks])
    outcome = jnp.where(jnp.any(fired), jnp.stack([start_code, 1, 2, 3, 4])[jnp.argmax(fired)], 0)
    outcome = jnp.where(no_slip, start_code, outcome)
    jam, impulse_left = extrapolate_to_jam(system, end, sign)
    at_jam = outcome == 1
    p, b = jax.vmap(lambda qq, vv, tt: slip_normal_dynamics(system, (qq, vv, tt), sign))(q, v, t)
    (_, end_b), (end_rate, _) = normal_rates(end)
    phi = jnp.where(sign < 0, jnp.pi, 0.0)
    mu = system.friction_coefficients[0]
    return RigidSlip(
        s=jnp.where(jnp.isfinite(t), ts, jnp.nan),
        t=t,
        q=q,
        v=v,
        phi=jnp.where(jnp.isfinite(t), phi, jnp.nan),
        painleve=p,
        free_normal_acceleration=b,
        normal_impulse=impulse,
        outcome=outcome,
        end=end,
        end_s=solution.ts[1][-1],
        end_normal_impulse=last_impulse[-1],
        end_tangential_impulse=jnp.reshape(-sign * mu * last_impulse[-1], (1,)),
        end_free_normal_acceleration=end_b,
        end_phi=phi,
        end_painleve_rate=end_rate,
        jam=jax.tree_util.tree_map(lambda x: jnp.where(at_jam, x, jnp.nan), jam),
        jam_normal_impulse=jnp.where(at_jam, last_impulse[-1] + impulse_left, jnp.nan),
    )
