"""The compliant Painlevé rod as a plain numpy vector field with a hand-derived Jacobian, for SciPy's ``solve_ivp``.

This is what a SciPy user writes: scalar ``math`` in the field, an 8 × 8 numpy array for the Jacobian, no JAX
anywhere in the callbacks. It is the same vector field as ``regcontact.compliant.dynamics.flat_vector_field`` with the
spring-damper normal law and viscous Coulomb friction (``tests/test_benchmark_scipy_rod.py`` checks both the
field and the Jacobian against the JAX field and ``jax.jacfwd`` of it).

State ``y = (x, y, φ, v_x, v_y, ω, ∫λ_n, ∫λ_t)``; ``M = diag(m, m, I)``; ``h = l/2``, ``s = sin φ``, ``c = cos φ``.

Kinematics::

    g_n = y − h s,          ġ_n = v_y − h c ω,          J = [[0, 1, −h c],
    g_t = x − h c,          ġ_t = v_x + h s ω,               [1, 0,  h s]]

Contact laws (``k``, ``γ_n``, ``γ_t``: all ``α`` in the Table 1 runs)::

    λ_n = 0                                   if g_n > 0      (open)
    λ_n = −k g_n − γ_n min(ġ_n, 0)            otherwise       (closed: approaching ġ_n < 0, or separating)
    λ_t = −clip(γ_t ġ_t, −μ λ_n, μ λ_n)                       (viscous band |γ_t ġ_t| < μ λ_n, or Coulomb limit)

Field (``q̇ = v``, ``M v̇ = f + Jᵀ λ`` with ``f = (f_x, −m g, τ)``, and the force integrals)::

    ẋ = v_x,   ẏ = v_y,   φ̇ = ω,
    v̇_x = (f_x + λ_t) / m,
    v̇_y = (−m g + λ_n) / m,
    ω̇   = (τ + h (s λ_t − c λ_n)) / I,
    d∫λ_n/dt = λ_n,   d∫λ_t/dt = λ_t.

Jacobian ``∂ẏ/∂y`` (columns in state order; the columns of ``x``, ``∫λ_n``, ``∫λ_t`` are zero: nothing depends on
them). Write ``∇`` for the row of derivatives with respect to ``(x, y, φ, v_x, v_y, ω)``.

* ``q̇ = v``: ``∂(ẋ, ẏ, φ̇)/∂(v_x, v_y, ω) = I₃``.
* Normal force. With ``d = ∂min(ġ_n, 0)/∂ġ_n`` (1 approaching, 0 separating)::

      ∇ġ_n = (0, 0, h s ω, 0, 1, −h c)
      ∇λ_n = 0                                                             (open)
      ∇λ_n = −k ∇g_n − γ_n d ∇ġ_n
           = (0, −k, k h c − γ_n d h s ω, 0, −γ_n d, γ_n d h c)            (closed)

* Friction. ``∇ġ_t = (0, 0, h c ω, 1, 0, h s)`` and ``∇λ_t = a_n ∇λ_n + a_v ∇ġ_t`` with::

      viscous band         λ_t = −γ_t ġ_t:     a_n = 0,    a_v = −γ_t
      Coulomb, ġ_t > 0     λ_t = −μ λ_n:       a_n = −μ,   a_v = 0
      Coulomb, ġ_t < 0     λ_t = +μ λ_n:       a_n = +μ,   a_v = 0

  (open: ``λ_n = 0`` and ``∇λ_n = 0``, so ``∇λ_t = 0`` away from ties).
* Rows: ``∇v̇_x = ∇λ_t / m``, ``∇v̇_y = ∇λ_n / m``, ``∇(d∫λ/dt) = ∇λ``, and, since ``Jᵀ`` depends on ``φ``::

      ∇ω̇ = h (s ∇λ_t − c ∇λ_n) / I  +  (0, 0, h (c λ_t + s λ_n) / I, 0, 0, 0).

Ties. Where a kink of ``min``/``max`` is hit exactly (``ġ_n = 0``; ``γ_t ġ_t = ±μ λ_n``, which includes ``λ_n = 0``:
the Table 1 runs *start* there, at ``g_n = ġ_n = 0``), the derivative is a choice. We take JAX's
(``lax.max``/``lax.min`` give each tied argument half the derivative, and ``jnp.clip(x, lo, hi)`` is
``min(hi, max(lo, x))``), so the Jacobian equals ``jax.jacfwd`` of the JAX field everywhere, the start included.
In the formulas above: ``d = ½`` at ``ġ_n = 0``, and ``a_n``, ``a_v`` follow from the weights of
:func:`_max`/:func:`_min` in :meth:`ScipyRod.jac`.

Round-off. The field agrees with the JAX one to the last bit or so, not bit for bit: XLA evaluates ``ġ = J v`` with
fused multiply-adds (``fma(−h c, ω, v_y)``, one rounding), Python rounds the product first. With ``k = α`` up to
1e12 that last bit can move SciPy's step-size choices: in well-conditioned runs it takes the same steps with
either field, at tight tolerances a few more or fewer, and in the erratic runs (α ≥ 1e9 at rtol 1e-6) it diverges.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["ScipyRod"]


def _max(a: float, b: float) -> tuple[float, float, float]:
    """``max(a, b)`` and its derivative weights on ``a`` and ``b`` (½ each at a tie, as ``lax.max``)."""
    if a > b:
        return a, 1.0, 0.0
    if a < b:
        return b, 0.0, 1.0
    return a, 0.5, 0.5


def _min(a: float, b: float) -> tuple[float, float, float]:
    """``min(a, b)`` and its derivative weights on ``a`` and ``b`` (½ each at a tie, as ``lax.min``)."""
    if a < b:
        return a, 1.0, 0.0
    if a > b:
        return b, 0.0, 1.0
    return a, 0.5, 0.5


class ScipyRod:
    """The rod's parameters (plain floats) and its ``fun(t, y)``, ``jac(t, y)`` for ``scipy.integrate.solve_ivp``."""

    def __init__(
        self,
        mass: float,
        length: float,
        inertia: float,
        gravity: float,
        torque: float,
        force_x: float,
        mu: float,
        stiffness: float,
        normal_damping: float,
        tangential_damping: float,
    ):
        self.mass, self.length, self.inertia = float(mass), float(length), float(inertia)
        self.gravity, self.torque, self.force_x, self.mu = float(gravity), float(torque), float(force_x), float(mu)
        self.stiffness, self.normal_damping = float(stiffness), float(normal_damping)
        self.tangential_damping = float(tangential_damping)

    @classmethod
    def from_laws(cls, rod, normal, friction) -> ScipyRod:
        """From a ``PainleveRod`` and a ``SpringDamper`` and ``ViscousCoulomb`` already scaled to one α (read
        with ``float``; nothing of them is kept)."""
        return cls(
            mass=float(rod.mass),
            length=float(rod.length),
            inertia=float(rod.inertia),
            gravity=float(rod.gravity),
            torque=float(rod.torque),
            force_x=float(rod.force_x),
            mu=float(rod.mu),
            stiffness=float(normal.stiffness),
            normal_damping=float(normal.damping),
            tangential_damping=float(friction.damping),
        )

    def fun(self, t: float, y: np.ndarray) -> np.ndarray:
        """``dy/dt``."""
        del t
        _, y_, phi, vx, vy, omega, _, _ = y.tolist()
        h = 0.5 * self.length
        s, c = math.sin(phi), math.cos(phi)
        gn = y_ - h * s
        if gn > 0.0:
            lam_n = 0.0
        else:
            lam_n = -self.stiffness * gn - self.normal_damping * min(vy - h * c * omega, 0.0)
        limit = self.mu * lam_n
        lam_t = -min(limit, max(-limit, self.tangential_damping * (vx + h * s * omega)))
        return np.array(
            [
                vx,
                vy,
                omega,
                (self.force_x + lam_t) / self.mass,
                (-self.mass * self.gravity + lam_n) / self.mass,
                (self.torque + h * (s * lam_t - c * lam_n)) / self.inertia,
                lam_n,
                lam_t,
            ]
        )

    def jac(self, t: float, y: np.ndarray) -> np.ndarray:
        """``∂(dy/dt)/∂y``, 8 × 8 (derivation: the module docstring)."""
        del t
        _, y_, phi, vx, vy, omega, _, _ = y.tolist()
        m, inertia, mu = self.mass, self.inertia, self.mu
        k, gamma_n, gamma_t = self.stiffness, self.normal_damping, self.tangential_damping
        h = 0.5 * self.length
        s, c = math.sin(phi), math.cos(phi)
        gn, gn_rate, gt_rate = y_ - h * s, vy - h * c * omega, vx + h * s * omega

        # normal force and its derivatives (y, φ, v_y, ω); zero when open
        if gn > 0.0:
            lam_n = dn_y = dn_phi = dn_vy = dn_omega = 0.0
        else:
            damped, d, _ = _min(gn_rate, 0.0)
            lam_n = -k * gn - gamma_n * damped
            dn_y, dn_phi = -k, k * h * c - gamma_n * d * h * s * omega
            dn_vy, dn_omega = -gamma_n * d, gamma_n * d * h * c

        # friction: λ_t = −min(L, max(−L, γ_t ġ_t)), L = μ λ_n; ∇λ_t = a_n ∇λ_n + a_v ∇ġ_t
        limit = mu * lam_n
        lower, w_lo, w_x = _max(-limit, gamma_t * gt_rate)
        clipped, w_hi, w_mid = _min(limit, lower)
        lam_t = -clipped
        a_n = -mu * (w_hi - w_mid * w_lo)
        a_v = -gamma_t * w_mid * w_x
        dt_y, dt_phi = a_n * dn_y, a_n * dn_phi + a_v * h * c * omega
        dt_vx, dt_vy, dt_omega = a_v, a_n * dn_vy, a_n * dn_omega + a_v * h * s

        jac = np.zeros((8, 8))
        jac[0, 3] = jac[1, 4] = jac[2, 5] = 1.0
        jac[6, 1:6] = dn_y, dn_phi, 0.0, dn_vy, dn_omega
        jac[7, 1:6] = dt_y, dt_phi, dt_vx, dt_vy, dt_omega
        jac[3, 1:6] = jac[7, 1:6] / m
        jac[4, 1:6] = jac[6, 1:6] / m
        jac[5, 1:6] = h * (s * jac[7, 1:6] - c * jac[6, 1:6]) / inertia
        jac[5, 2] += h * (c * lam_t + s * lam_n) / inertia
        return jac
