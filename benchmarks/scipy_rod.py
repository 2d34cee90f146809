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
:func:`_tie_weights` in :func:`rod_jacobian`.

Round-off. The field agrees with the JAX one to the last bit or so, not bit for bit: XLA evaluates ``ġ = J v`` with
fused multiply-adds (``fma(−h c, ω, v_y)``, one rounding), Python rounds the product first. With ``k = α`` up to
1e12 that last bit can move SciPy's step-size choices: in well-conditioned runs it takes the same steps with
either field, at tight tolerances a few more or fewer, and in the erratic runs (α ≥ 1e9 at rtol 1e-6) it diverges.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["PARAMETERS", "ScipyRod", "rod_field", "rod_jacobian"]


def _tie_weights(first: float, second: float) -> tuple[float, float]:
    """The derivative weights of ``max(first, second)`` on each argument (½ each at a tie, as ``lax.max``; swap the
    arguments for ``min``). Plain Python, compiled by numba where the callers are."""
    if first > second:
        return 1.0, 0.0
    if first < second:
        return 0.0, 1.0
    return 0.5, 0.5


#: The order of :attr:`ScipyRod.params`, the parameter vector of :func:`rod_field` and :func:`rod_jacobian`.
PARAMETERS = (
    "mass",
    "length",
    "inertia",
    "gravity",
    "torque",
    "force_x",
    "mu",
    "stiffness",
    "normal_damping",
    "tangential_damping",
)


def rod_field(y: np.ndarray, p: np.ndarray, out: np.ndarray) -> None:
    """``dy/dt`` into ``out``; ``p``: the parameters in the order of :data:`PARAMETERS`. Plain scalar Python, so
    that ``numba.njit`` compiles the same source (``benchmarks/cvode_rod.py``)."""
    mass, length, inertia, gravity, torque, force_x, mu, k, gamma_n, gamma_t = (
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        p[5],
        p[6],
        p[7],
        p[8],
        p[9],
    )
    y_, phi, vx, vy, omega = y[1], y[2], y[3], y[4], y[5]
    h = 0.5 * length
    s, c = math.sin(phi), math.cos(phi)
    gn = y_ - h * s
    if gn > 0.0:
        lam_n = 0.0
    else:
        lam_n = -k * gn - gamma_n * min(vy - h * c * omega, 0.0)
    limit = mu * lam_n
    lam_t = -min(limit, max(-limit, gamma_t * (vx + h * s * omega)))
    out[0], out[1], out[2] = vx, vy, omega
    out[3] = (force_x + lam_t) / mass
    out[4] = (-mass * gravity + lam_n) / mass
    out[5] = (torque + h * (s * lam_t - c * lam_n)) / inertia
    out[6], out[7] = lam_n, lam_t


def rod_jacobian(y: np.ndarray, p: np.ndarray, jac: np.ndarray) -> None:
    """``∂(dy/dt)/∂y`` into the 8 × 8 ``jac`` (derivation: the module docstring); numba-compilable as
    :func:`rod_field`."""
    m, length, inertia, mu, k, gamma_n, gamma_t = p[0], p[1], p[2], p[6], p[7], p[8], p[9]
    y_, phi, vx, vy, omega = y[1], y[2], y[3], y[4], y[5]
    h = 0.5 * length
    s, c = math.sin(phi), math.cos(phi)
    gn, gn_rate, gt_rate = y_ - h * s, vy - h * c * omega, vx + h * s * omega

    # normal force and its derivatives (y, φ, v_y, ω); zero when open
    if gn > 0.0:
        lam_n = dn_y = dn_phi = dn_vy = dn_omega = 0.0
    else:
        d, _ = _tie_weights(0.0, gn_rate)  # weights of min(a, b) on (a, b) are those of max(b, a) on (b, a)
        lam_n = -k * gn - gamma_n * min(gn_rate, 0.0)
        dn_y, dn_phi = -k, k * h * c - gamma_n * d * h * s * omega
        dn_vy, dn_omega = -gamma_n * d, gamma_n * d * h * c

    # friction: λ_t = −min(L, max(−L, γ_t ġ_t)), L = μ λ_n; ∇λ_t = a_n ∇λ_n + a_v ∇ġ_t
    limit = mu * lam_n
    lower = max(-limit, gamma_t * gt_rate)
    w_lo, w_x = _tie_weights(-limit, gamma_t * gt_rate)
    w_hi, w_mid = _tie_weights(lower, limit)  # of min(L, lower) on (L, lower)
    lam_t = -min(limit, lower)
    a_n = -mu * (w_hi - w_mid * w_lo)
    a_v = -gamma_t * w_mid * w_x
    normal = (0.0, dn_y, dn_phi, 0.0, dn_vy, dn_omega)
    tangential = (0.0, a_n * dn_y, a_n * dn_phi + a_v * h * c * omega, a_v, a_n * dn_vy, a_n * dn_omega + a_v * h * s)

    jac[:, :] = 0.0
    jac[0, 3] = jac[1, 4] = jac[2, 5] = 1.0
    for j in range(1, 6):
        jac[6, j] = normal[j]
        jac[7, j] = tangential[j]
        jac[3, j] = tangential[j] / m
        jac[4, j] = normal[j] / m
        jac[5, j] = h * (s * tangential[j] - c * normal[j]) / inertia
    jac[5, 2] += h * (c * lam_t + s * lam_n) / inertia


class ScipyRod:
    """The rod's parameters and its ``fun(t, y)``, ``jac(t, y)`` for ``scipy.integrate.solve_ivp``."""

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
        values = (mass, length, inertia, gravity, torque, force_x, mu, stiffness, normal_damping, tangential_damping)
        #: the parameters as one float vector, in the order of :data:`PARAMETERS`
        self.params = np.array([float(value) for value in values])
        self._param_list = self.params.tolist()
        for name, value in zip(PARAMETERS, self._param_list, strict=True):
            setattr(self, name, value)

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
        out = np.empty(8)
        rod_field(y.tolist(), self._param_list, out)  # Python floats: faster than numpy scalars here
        return out

    def jac(self, t: float, y: np.ndarray) -> np.ndarray:
        """``∂(dy/dt)/∂y``, 8 × 8."""
        jac = np.empty((8, 8))
        rod_jacobian(y.tolist(), self._param_list, jac)
        return jac
