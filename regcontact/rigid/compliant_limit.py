"""The impact law a compliant contact converges to as α → ∞, computed without α (one contact).

A compliant contact whose parameters scale as ``p α^e`` impacts on its own time scale ``T ∝ α^(−s)``: the fastest
of its normal processes, the spring's ``√(m_n/k) ∝ α^(−a/2)`` and the damper's ``m_n/γ_n ∝ α^(−b)``
(``a``, ``b`` the exponents of ``k_n``, ``γ_n``), so ``s = max(a/2, b)``. On that scale, with ``τ = α^s t``, the
penetration ``α^s g_n``, the forces ``α^(−s) λ`` and the velocities unchanged, a term of exponent ``e`` carries a
factor ``α^(e − s)`` (spring: ``α^(a − 2s)``): the terms with the largest exponents survive, the others vanish in
the limit. For the linear spring–damper laws (:class:`~regcontact.contact.normal_laws.AbstractLinearSpringDamper`):

- ``b > a/2`` (Preclik & Rüde's ``k_n, γ_n ∝ α``): the damper alone; ``e = 0``, the normal velocity decays;
- ``b = a/2`` (Champneys' ``k ∝ α``, ``q ∝ √α``): spring and damper at the damping ratio ``ζ = γ/(2√(k m_n))``,
  ``m_n = 1/C``; the law's own ``e(ζ)`` (:func:`spring_damper_restitution`, :func:`kelvin_voigt_restitution`);
- ``b < a/2``: the spring alone; ``e = 1``.

and for viscous-limited Coulomb friction with damping exponent ``c``: ``c = s`` keeps the viscous branch on the
impact scale (``λ_T = −clip(γ_t u, ±μλ_N)``, a finite ratio ``γ_t/γ_n``: friction never reaches its cone while the
normal force decays, so the slip that remains depends on that ratio); ``c < s`` leaves no friction during the
impact. ``c > s`` makes the tangential damper infinitely stiff on the impact scale — Coulomb's law during the
impact, the Darboux–Keller setting — which this module does not integrate (it refuses it: use
:func:`~regcontact.rigid.darboux_keller.darboux_keller_map` with the normal law's restitution).

:func:`compliant_limit_map` integrates that α-free problem in the contact-space form of one contact (the finite
forces drop out on the impact scale), from touch-down ``(g = 0, u⁻, v⁻)`` to the end of the impact: the contact
opens (a law with a spring), or the velocities come to rest to round-off (the damper alone, where ``v → 0``
exponentially and the contact stays closed on the impact scale).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np
from scipy.integrate import solve_ivp

from regcontact.contact.contact_model import ContactModel
from regcontact.contact.friction_laws import ViscousCoulomb
from regcontact.contact.normal_laws import AbstractLinearSpringDamper

__all__ = [
    "LimitImpact",
    "LimitLaw",
    "compliant_limit_map",
    "kelvin_voigt_restitution",
    "limit_law",
    "spring_damper_restitution",
]


@dataclass(frozen=True)
class LimitLaw:
    """The α-free contact law on the impact scale: the normal law with the terms that survive (the others set to
    zero), the tangential damping (``0``: no friction during the impact), and the impact-scale exponent ``s``."""

    normal: AbstractLinearSpringDamper
    tangential_damping: float
    scale_exponent: float

    @property
    def has_spring(self) -> bool:
        return float(self.normal.stiffness) > 0


def limit_law(model: ContactModel) -> LimitLaw:
    """The terms of ``model`` that act on its impact time scale (module docstring); ``ValueError`` for laws not
    derived here (a nonlinear normal law, friction faster than the impact)."""
    normal, exponents = model.normal, model.normal_exponents
    if not isinstance(normal, AbstractLinearSpringDamper) or not isinstance(exponents, AbstractLinearSpringDamper):
        raise ValueError(f"the limit impact law is derived for linear spring-damper laws, not {type(normal).__name__}")
    if not isinstance(model.friction, ViscousCoulomb) or not isinstance(model.friction_exponents, ViscousCoulomb):
        raise ValueError(f"the limit impact law is derived for viscous Coulomb friction, not {model.friction!r}")
    a, b = float(exponents.stiffness), float(exponents.damping)
    c = float(model.friction_exponents.damping)
    s = max(a / 2, b)
    gamma_t = float(model.friction.damping)
    if c > s and gamma_t > 0:
        raise ValueError(
            f"friction damping exponent {c:g} > impact scale exponent {s:g}: Coulomb friction during the impact "
            "(Darboux–Keller), not integrated by the compliant limit law"
        )
    # a dropped term is a zero parameter, which a law refuses from a user (a zero spring) but takes as a JAX array
    kept = type(normal)(
        stiffness=jnp.asarray(float(normal.stiffness) if a / 2 == s else 0.0),
        damping=jnp.asarray(float(normal.damping) if b == s else 0.0),
    )
    return LimitLaw(kept, gamma_t if c == s else 0.0, s)


@dataclass(frozen=True)
class LimitImpact:
    """The velocities after the limit impact ``(u⁺, v⁺)``, the impulses ``(I_N, I_T)`` and how it ended:
    ``"opened"`` (the contact separates) or ``"rest"`` (the normal velocity decayed to round-off, contact closed)."""

    u: float
    v: float
    normal_impulse: float
    tangential_impulse: float
    ended: str


def compliant_limit_map(
    A: float, B: float, C: float, mu: float, u: float, v: float, law: LimitLaw, rtol: float = 1e-12
) -> LimitImpact:
    """The limit impact of one contact in contact-space form (``A > 0``, ``AC > B²``) from touch-down with
    ``(u⁻, v⁻)``, ``v⁻ < 0``, under ``law`` (:func:`limit_law`): ``u' = A λ_T + B λ_N``, ``v' = B λ_T + C λ_N``,
    ``g' = v`` on the impact scale, integrated (SciPy's Radau) to the end of the impact."""
    if not (A > 0 and A * C > B * B):
        raise ValueError(f"A = {A}, B = {B}, C = {C}: the Delassus matrix [[A, B], [B, C]] must be positive definite")
    if not v < 0:
        raise ValueError(f"v = {v}: a landing needs an approaching contact (v < 0)")
    k, gamma, gamma_t = float(law.normal.stiffness), float(law.normal.damping), law.tangential_damping
    speed = max(abs(u), abs(v))

    def forces(g: float, u_: float, v_: float) -> tuple[float, float]:
        normal = float(law.normal(jnp.asarray(g), jnp.asarray(v_)))
        limit = mu * normal
        return normal, -min(max(gamma_t * u_, -limit), limit)

    def field(_: float, y: np.ndarray) -> np.ndarray:
        g, u_, v_ = y[:3]
        lam_n, lam_t = forces(g, u_, v_)
        return np.array([v_, A * lam_t + B * lam_n, B * lam_t + C * lam_n, lam_n, lam_t])

    # the slowest decay of the impact: the normal oscillation or damping under the effective mass 1/C
    rates = [r for r in (math.sqrt(k * C) if k > 0 else 0.0, gamma * C, gamma_t * A) if r > 0]
    if not rates:
        raise ValueError("the limit law has no force on the impact scale")
    horizon = 60.0 / min(rates)

    def opened(_: float, y: np.ndarray) -> float:
        return float(y[0])  # the gap, crossing zero upwards

    opened.terminal = True  # type: ignore[attr-defined]
    opened.direction = 1.0  # type: ignore[attr-defined]
    y0 = np.array([0.0, u, v, 0.0, 0.0])
    solution = solve_ivp(
        field,
        (0.0, horizon),
        y0,
        method="Radau",
        rtol=rtol,
        atol=rtol * speed * 1e-3,
        events=opened,
        dense_output=False,
    )
    _, u_end, v_end, impulse_n, impulse_t = solution.y[:, -1]
    ended = "opened" if solution.status == 1 else "rest"
    if ended == "rest" and abs(v_end) > 1e-9 * speed:
        raise RuntimeError(f"the limit impact did not end within τ = {horizon:.3g}: v = {v_end:.3g}")
    return LimitImpact(float(u_end), float(v_end), float(impulse_n), float(impulse_t), ended)


def spring_damper_restitution(zeta: float) -> float:
    """Restitution of :class:`~regcontact.contact.normal_laws.SpringDamper` (damper on approach only), frictionless,
    ``ζ < 1``: the damped quarter-cycle to the deepest point, ``t* = arctan(√(1−ζ²)/ζ)/ω_d``, then an undamped
    spring: ``e = exp(−ζ ω t*) = exp(−ζ/√(1−ζ²) · arctan(√(1−ζ²)/ζ))``."""
    root = math.sqrt(1.0 - _underdamped(zeta) ** 2)
    return math.exp(-zeta / root * math.atan2(root, zeta))


def kelvin_voigt_restitution(zeta: float) -> float:
    """Restitution of a clipped Kelvin–Voigt law (:class:`~regcontact.contact.normal_laws.ClippedKelvinVoigt`,
    :class:`~regcontact.contact.normal_laws.ChampneysFastScale`), frictionless, ``ζ < 1``: the damped oscillation
    ``δ = (v₀/ω_d) e^(−ζωt) sin ω_d t`` until the force ``k δ + c δ̇`` reaches zero, at
    ``θ = ω_d t = atan2(2ζ√(1−ζ²), 2ζ² − 1)``; then ``e = e^(−ζθ/√(1−ζ²)) |cos θ − ζ sin θ/√(1−ζ²)|``."""
    root = math.sqrt(1.0 - _underdamped(zeta) ** 2)
    theta = math.atan2(2.0 * zeta * root, 2.0 * zeta * zeta - 1.0)
    return math.exp(-zeta * theta / root) * abs(math.cos(theta) - zeta * math.sin(theta) / root)


def _underdamped(zeta: float) -> float:
    """``ζ`` if in ``(0, 1)``; ``ValueError`` otherwise (the closed forms above are the underdamped ones)."""
    if not 0.0 < zeta < 1.0:
        raise ValueError(f"zeta = {zeta}: the closed form holds for an underdamped contact, 0 < ζ < 1")
    return zeta
