"""The fast-scale normal dynamics of two forward-slipping contacts (Champneys & Várkonyi 2016, Sec. 6.2):
the vector field, the ``S+S+`` equilibrium, its Jacobian, characteristic polynomial and stability, and batched
trajectories."""

from __future__ import annotations

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Bool, Complex, Float

from regcontact._argument_checks import check_type
from regcontact.stability._checks import check_values
from regcontact.stability._fast_scale import normal_force


class TwoContactSystem(eqx.Module):
    """Two forward-slipping contacts on the fast scale (Sec. 6.2): ``dỹ/dt̃ = ṽ``, ``dṽ/dt̃ = b + p⁺λ`` with
    ``λ_i = max(k_i ỹ_i + q_i ṽ_i, 0)``.

    Args:
        b: the free normal accelerations.
        painleve: the Painlevé matrix ``p⁺`` (:func:`painleve_matrix`).
        k: each contact's stiffness coefficient, ``< 0`` (Eq. 31; a scalar: the same at both; default ``−1``).
        q: each contact's damping coefficient, ``< 0`` (default ``−1``).

    Examples:
        >>> from regcontact.stability import TwoContactSystem, slip_slip_equilibrium
        >>> system = TwoContactSystem(b=[-1.0, -1.0], painleve=[[-0.055, 0.088], [0.055, -0.036]])
        >>> bool(slip_slip_equilibrium(system).stable)
        False
    """

    b: Float[Array, "2"]
    painleve: Float[Array, "2 2"]
    k: Float[Array, "2"]
    q: Float[Array, "2"]

    def __init__(self, b: ArrayLike, painleve: ArrayLike, k: ArrayLike = -1.0, q: ArrayLike = -1.0):
        check_values(b=b, painleve=painleve, k=k, q=q)
        self.b = jnp.asarray(b, dtype=float)
        self.painleve = jnp.asarray(painleve, dtype=float)
        self.k = jnp.broadcast_to(jnp.asarray(k, dtype=float), self.b.shape)
        self.q = jnp.broadcast_to(jnp.asarray(q, dtype=float), self.b.shape)


class TwoContactEquilibrium(eqx.Module):
    """The ``S+S+`` equilibrium ``(ỹ⁰, 0)``: normal forces, whether both are positive, eigenvalues (closed-form
    characteristic polynomial) and whether Routh–Hurwitz says stable."""

    penetration: Float[Array, "2"]
    normal_force: Float[Array, "2"]
    exists: Bool[Array, ""]
    eigenvalues: Complex[Array, "4"]
    stable: Bool[Array, ""]


def two_contact_vector_field(t: ArrayLike, z: Float[Array, "4"], system: TwoContactSystem) -> Float[Array, "4"]:
    """Fast normal dynamics of two forward-slipping contacts, ``z = (ỹ₁, ỹ₂, ṽ₁, ṽ₂)``; a contact whose force
    vanishes is in free flight (Eqs. 30–31 per contact)."""
    del t
    y, v = z[:2], z[2:]
    force = normal_force(y, v, system.k, system.q)
    return jnp.concatenate([v, system.b + system.painleve @ force])


def slip_slip_jacobian(painleve: Float[Array, "2 2"], k: ArrayLike, q: ArrayLike) -> Float[Array, "4 4"]:
    """``[[0, I], [p⁺K, p⁺Q]]``, the Jacobian of :func:`two_contact_vector_field` where both forces are positive."""
    check_values(painleve=painleve, k=k, q=q)
    painleve = jnp.asarray(painleve, dtype=float)
    k, q = (jnp.broadcast_to(jnp.asarray(x, dtype=float), (2,)) for x in (k, q))
    top = jnp.concatenate([jnp.zeros((2, 2)), jnp.eye(2)], axis=1)
    bottom = jnp.concatenate([painleve * k[None, :], painleve * q[None, :]], axis=1)
    return jnp.concatenate([top, bottom], axis=0)


def characteristic_polynomial(painleve: Float[Array, "... 2 2"], k: ArrayLike, q: ArrayLike) -> Float[Array, "... 5"]:
    """The characteristic polynomial of the ``S+S+`` Jacobian, ``det(s²I − s p⁺Q − p⁺K) = s⁴ + c₃s³ + c₂s² + c₁s
    + c₀`` with ``c₃ = −tr(p⁺Q)``, ``c₂ = det(p⁺Q) − tr(p⁺K)``, ``c₁ = tr(p⁺Q)tr(p⁺K) − tr(p⁺Q p⁺K)``,
    ``c₀ = det(p⁺K)`` (``K = diag k``, ``Q = diag q``).

    Args:
        painleve: the Painlevé matrix ``p⁺``.
        k: each contact's stiffness coefficient (Eq. 31; a scalar: the same at both).
        q: each contact's damping coefficient.

    Returns:
        ``(1, c₃, c₂, c₁, c₀)``, elementwise over leading axes; :func:`hurwitz_stable` reads it.
    """
    check_values(painleve=painleve, k=k, q=q)
    painleve = jnp.asarray(painleve, dtype=float)
    k, q = (jnp.asarray(x, dtype=float) for x in (k, q))
    k, q = (jnp.full(2, x) if x.ndim == 0 else x for x in (k, q))  # a scalar: the same law at both contacts
    damping = painleve * q[..., None, :]  # p⁺Q
    stiffness = painleve * k[..., None, :]  # p⁺K
    trace = lambda m: m[..., 0, 0] + m[..., 1, 1]  # noqa: E731
    det = lambda m: m[..., 0, 0] * m[..., 1, 1] - m[..., 0, 1] * m[..., 1, 0]  # noqa: E731
    c3 = -trace(damping)
    c2 = det(damping) - trace(stiffness)
    c1 = trace(damping) * trace(stiffness) - trace(damping @ stiffness)
    c0 = det(stiffness)
    return jnp.stack([jnp.ones_like(c0), c3, c2, c1, c0], axis=-1)


def slip_slip_eigenvalues(painleve: Float[Array, "2 2"], k: ArrayLike, q: ArrayLike) -> Complex[Array, "4"]:
    """Roots of :func:`characteristic_polynomial` (companion-matrix eigenvalues), ascending real part."""
    roots = jnp.roots(characteristic_polynomial(painleve, k, q), strip_zeros=False)
    return roots[jnp.lexsort((roots.imag, roots.real))]


def equal_law_eigenvalues(painleve: Float[Array, "2 2"], k: ArrayLike, q: ArrayLike) -> Complex[Array, "4"]:
    """Closed form for equal contact laws ``K = kI, Q = qI``: the roots of ``s² − qπs − kπ`` for both eigenvalues
    ``π`` of ``p⁺`` (Sec. 4.3's slip polynomial with the gain ``p⁺`` replaced by ``π``), ascending real part."""
    check_values(painleve=painleve, k=k, q=q)
    painleve = jnp.asarray(painleve, dtype=float).astype(complex)
    k, q = jnp.asarray(k, dtype=float), jnp.asarray(q, dtype=float)
    trace = painleve[0, 0] + painleve[1, 1]
    determinant = painleve[0, 0] * painleve[1, 1] - painleve[0, 1] * painleve[1, 0]
    root = jnp.sqrt(trace**2 - 4.0 * determinant)
    gains = jnp.stack([(trace - root) / 2.0, (trace + root) / 2.0])
    inner = jnp.sqrt((q * gains) ** 2 + 4.0 * k * gains)
    values = jnp.concatenate([(q * gains - inner) / 2.0, (q * gains + inner) / 2.0])
    return values[jnp.lexsort((values.imag, values.real))]


def hurwitz_stable(coefficients: Float[Array, "... 5"]) -> Bool[Array, ...]:
    """Routh–Hurwitz for a monic quartic ``(1, c₃, c₂, c₁, c₀)``: every root has negative real part iff
    ``c₃, c₁, c₀ > 0``, ``c₃c₂ − c₁ > 0`` and ``c₁(c₃c₂ − c₁) − c₃²c₀ > 0``."""
    check_values(coefficients=coefficients)
    c3, c2, c1, c0 = (coefficients[..., i] for i in range(1, 5))
    return (c3 > 0) & (c1 > 0) & (c0 > 0) & (c3 * c2 - c1 > 0) & (c1 * (c3 * c2 - c1) - c3**2 * c0 > 0)


def slip_slip_equilibrium(system: TwoContactSystem) -> TwoContactEquilibrium:
    """The ``S+S+`` equilibrium of a :class:`TwoContactSystem` and its normal stability.

    Args:
        system: the two contacts.

    Returns:
        A :class:`TwoContactEquilibrium`: the forces ``λ⁰ = −(p⁺)⁻¹b`` (Eq. 14 for two contacts), the
        penetrations ``ỹ⁰ = λ⁰/k``, whether both forces are positive, the eigenvalues (roots of
        :func:`characteristic_polynomial`) and whether Routh–Hurwitz says stable.
    """
    check_type("system", system, TwoContactSystem, "a TwoContactSystem")
    force = -jnp.linalg.solve(system.painleve, system.b)
    coefficients = characteristic_polynomial(system.painleve, system.k, system.q)
    return TwoContactEquilibrium(
        penetration=force / system.k,
        normal_force=force,
        exists=jnp.all(force > 0),
        eigenvalues=slip_slip_eigenvalues(system.painleve, system.k, system.q),
        stable=hurwitz_stable(coefficients),
    )


def two_contact_autodiff_eigenvalues(system: TwoContactSystem, z0: Float[Array, "4"]) -> Complex[Array, "4"]:
    """Eigenvalues of ``jax.jacfwd`` of :func:`two_contact_vector_field` at ``z0``, ascending real part."""
    check_values(z0=z0)
    jacobian = jax.jacfwd(lambda z: two_contact_vector_field(0.0, z, system))(jnp.asarray(z0, dtype=float))
    values = jnp.linalg.eigvals(jacobian)
    return values[jnp.lexsort((values.imag, values.real))]


@eqx.filter_jit
def two_contact_trajectories(
    systems: TwoContactSystem,
    initial_states: Float[Array, "n 4"],
    save_windows: Float[Array, "n 2"],
    escape_radius: Float[Array, ""],
    saves: int = 400,
) -> tuple[Float[Array, "n saves+1"], Float[Array, "n saves+1 4"]]:
    """Trajectories of :func:`two_contact_vector_field` for a batch of systems, in one ``vmap`` of a diffrax solve.

    Lane ``i`` runs from ``t̃ = 0`` to ``save_windows[i, 1]`` and saves ``saves`` evenly spaced states in
    ``save_windows[i]``, then the final state; it stops once a penetration leaves ``|ỹ_j| ≤ escape_radius`` (an
    IWC or a lift-off has begun). Returns ``(times, states)``; after the final state rows are ``inf``, so the
    last finite row is where the lane ended.
    """
    fractions = jnp.linspace(0.0, 1.0, saves)

    def one(system, z0, window):
        escaped = diffrax.Event(lambda t, z, args, **kwargs: jnp.max(jnp.abs(z[:2])) > escape_radius)
        solution = diffrax.diffeqsolve(
            diffrax.ODETerm(two_contact_vector_field),
            diffrax.Tsit5(),
            t0=0.0,
            t1=window[1],
            dt0=1e-2,
            y0=z0,
            args=system,
            saveat=diffrax.SaveAt(ts=window[0] + fractions * (window[1] - window[0]), t1=True),
            stepsize_controller=diffrax.PIDController(rtol=1e-9, atol=1e-11),
            event=escaped,
            max_steps=200_000,
        )
        return solution.ts, solution.ys

    return jax.vmap(one)(systems, initial_states, save_windows)
