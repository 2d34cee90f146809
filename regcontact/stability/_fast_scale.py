"""Fast-scale normal dynamics of one compliant contact (Champneys & Várkonyi 2016, Sec. 4, Eqs. 30–31): the
state ``z = (ỹ, ṽ)`` under slip, stick or rest, its equilibria and their linearisation (``docs/stability.md``,
"Fast-scale dynamics")."""

from __future__ import annotations

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Complex, Float

from regcontact._argument_checks import check_type
from regcontact.stability._checks import check_values
from regcontact.stability._reduced import painleve_parameters
from regcontact.systems.reduced_contact import ContactSpaceForm

__all__ = [
    "FastScaleSystem",
    "Equilibrium",
    "normal_force",
    "slip_vector_field",
    "stick_vector_field",
    "fast_vector_field",
    "slip_equilibrium",
    "stick_equilibrium",
    "linearisation_eigenvalues",
    "autodiff_eigenvalues",
    "equilibrium_type",
    "fast_trajectories",
]


class FastScaleSystem(ContactSpaceForm):
    """One contact on the fast scale (Sec. 4): ``dỹ/dt̃ = ṽ``, ``dṽ/dt̃ = b + Bλ_T + Cλ_N`` with
    ``λ_N = max(kỹ + qṽ, 0)`` (Eqs. 30–31) and the tangential force of the slip, stick or rest.

    Args:
        a: the free tangential acceleration (Eq. 8).
        b: the free normal acceleration (Eq. 9).
        A: ``cᵀM⁻¹c``.
        B: ``cᵀM⁻¹d``.
        C: ``dᵀM⁻¹d``.
        mu: the friction coefficient, ``≥ 0``.
        slip_sign: the sign of the slip velocity ``u``: ``+1``, ``0`` or ``−1``.
        k: the contact law's stiffness coefficient, ``< 0`` (restoring; default ``−1``, the paper's Fig. 12).
        q: its damping coefficient, ``< 0`` (dissipative; default ``−1``).

    Examples:
        >>> from regcontact.stability import FastScaleSystem, equilibrium_type, slip_equilibrium
        >>> system = FastScaleSystem(a=0.0, b=-1.0, A=1.0, B=0.5, C=1.0, mu=0.6, slip_sign=1.0)
        >>> equilibrium_type(slip_equilibrium(system).eigenvalues)  # p⁺ = 0.7 > 0: normally stable slip
        'stable focus'
    """

    slip_sign: Float[Array, ""]
    k: Float[Array, ""]
    q: Float[Array, ""]

    def __init__(
        self,
        a: ArrayLike,
        b: ArrayLike,
        A: ArrayLike,
        B: ArrayLike,
        C: ArrayLike,
        mu: ArrayLike,
        slip_sign: ArrayLike,
        k: ArrayLike = -1.0,
        q: ArrayLike = -1.0,
    ):
        check_values(a=a, b=b, A=A, B=B, C=C, mu=mu, slip_sign=slip_sign, k=k, q=q)
        f64 = lambda x: jnp.asarray(x, dtype=float)  # noqa: E731
        self.a, self.b, self.A, self.B, self.C = f64(a), f64(b), f64(A), f64(B), f64(C)
        self.mu, self.slip_sign, self.k, self.q = f64(mu), f64(slip_sign), f64(k), f64(q)

    def slip_parameter(self) -> Float[Array, ""]:
        """``p^s`` for the slip direction ``s = slip_sign`` (``p⁺`` for ``s ≥ 0``)."""
        painleve = painleve_parameters(self.A, self.B, self.C, self.mu)
        return jnp.where(self.slip_sign >= 0, painleve.p_plus, painleve.p_minus)


class Equilibrium(eqx.Module):
    """A fast-scale equilibrium ``(ỹ₀, 0)``: its normal force, whether it is real and the eigenvalues.

    ``exists`` means the normal force is positive (the equilibrium lies in the active region) and, for stick,
    that the stick force is strictly inside the friction cone; ``eigenvalues`` come from the closed-form
    linearisation.
    """

    penetration: Float[Array, ""]
    normal_force: Float[Array, ""]
    exists: Bool[Array, ""]
    eigenvalues: Complex[Array, "2"]


def normal_force(y: ArrayLike, v: ArrayLike, k: ArrayLike, q: ArrayLike) -> Float[Array, ...]:
    """``λ_N`` of Eqs. 30–31: ``max(k ỹ + q ṽ, 0)``, and zero when ``ỹ ≥ 0`` and ``ṽ ≥ 0``."""
    check_values(y=y, v=v, k=k, q=q)
    y, v = jnp.asarray(y), jnp.asarray(v)
    passive = (y >= 0) & (v >= 0)
    return jnp.where(passive, 0.0, jnp.maximum(k * y + q * v, 0.0))


def _normal_field(z: Float[Array, "2"], system: FastScaleSystem, lambda_t, lambda_n) -> Float[Array, "2"]:
    return jnp.stack([z[1], system.b + system.B * lambda_t + system.C * lambda_n])


def _stick_tangential_force(system: FastScaleSystem, lambda_n: Float[Array, ""]) -> Float[Array, ""]:
    """``λ_T`` that keeps ``u̇ = 0`` (Eq. 8)."""
    return -(system.a + system.B * lambda_n) / system.A


def slip_vector_field(t: ArrayLike, z: Float[Array, "2"], system: FastScaleSystem) -> Float[Array, "2"]:
    """Fast normal dynamics while slipping in the direction ``slip_sign`` (``+1`` or ``−1``)."""
    del t
    lambda_n = normal_force(z[0], z[1], system.k, system.q)
    return _normal_field(z, system, -jnp.sign(system.slip_sign) * system.mu * lambda_n, lambda_n)


def stick_vector_field(t: ArrayLike, z: Float[Array, "2"], system: FastScaleSystem) -> Float[Array, "2"]:
    """Fast normal dynamics in stick, whatever the friction cone says (for linearisation)."""
    del t
    lambda_n = normal_force(z[0], z[1], system.k, system.q)
    return _normal_field(z, system, _stick_tangential_force(system, lambda_n), lambda_n)


def fast_vector_field(t: ArrayLike, z: Float[Array, "2"], system: FastScaleSystem) -> Float[Array, "2"]:
    """The fast dynamics of the state the contact is in: slip for ``u ≠ 0``; for ``u = 0`` stick with its
    tangential force capped at the friction cone (slip onset where the cone cannot hold it)."""
    lambda_n = normal_force(z[0], z[1], system.k, system.q)
    cone = system.mu * lambda_n
    at_rest_force = jnp.clip(_stick_tangential_force(system, lambda_n), -cone, cone)
    at_rest = _normal_field(z, system, at_rest_force, lambda_n)
    return jnp.where(system.slip_sign == 0, at_rest, slip_vector_field(t, z, system))


def linearisation_eigenvalues(gain: ArrayLike, k: ArrayLike, q: ArrayLike) -> Complex[Array, "2"]:
    """Eigenvalues of ``[[0, 1], [K k, K q]]``, roots of ``λ² − K q λ − K k = 0``, ascending real part."""
    check_values(gain=gain, k=k, q=q)
    gain, k, q = (jnp.asarray(x, dtype=float) for x in (gain, k, q))
    trace, determinant = gain * q, -gain * k
    root = jnp.sqrt((trace**2 - 4.0 * determinant).astype(complex))
    return jnp.stack([(trace - root) / 2.0, (trace + root) / 2.0])


def slip_equilibrium(system: FastScaleSystem) -> Equilibrium:
    """Equilibrium of :func:`slip_vector_field`: ``λ_N⁰ = −b / p^s`` (Eq. 15), ``ỹ₀ = λ_N⁰ / k``."""
    check_type("system", system, FastScaleSystem, "a FastScaleSystem")
    p = system.slip_parameter()
    lambda_n = -system.b / p
    return Equilibrium(
        penetration=lambda_n / system.k,
        normal_force=lambda_n,
        exists=lambda_n > 0,
        eigenvalues=linearisation_eigenvalues(p, system.k, system.q),
    )


def stick_equilibrium(system: FastScaleSystem) -> Equilibrium:
    """Equilibrium of :func:`stick_vector_field`: ``λ_N⁰ = (aB − Ab)/(AC − B²)`` (Eq. 21), gain ``(AC − B²)/A``."""
    check_type("system", system, FastScaleSystem, "a FastScaleSystem")
    determinant = system.A * system.C - system.B**2
    lambda_n = (system.a * system.B - system.A * system.b) / determinant
    lambda_t = _stick_tangential_force(system, lambda_n)
    return Equilibrium(
        penetration=lambda_n / system.k,
        normal_force=lambda_n,
        exists=(lambda_n > 0) & (jnp.abs(lambda_t) < system.mu * lambda_n),
        eigenvalues=linearisation_eigenvalues(determinant / system.A, system.k, system.q),
    )


def autodiff_eigenvalues(field, system: FastScaleSystem, penetration: ArrayLike) -> Complex[Array, "2"]:
    """Eigenvalues of ``jax.jacfwd`` of ``field(t, z, system)`` at ``z = (penetration, 0)``, ascending real part."""
    z0 = jnp.stack([jnp.asarray(penetration, dtype=float), jnp.zeros(())])
    jacobian = jax.jacfwd(lambda z: field(0.0, z, system))(z0)
    eigenvalues = jnp.linalg.eigvals(jacobian)
    return eigenvalues[jnp.lexsort((eigenvalues.imag, eigenvalues.real))]


def equilibrium_type(eigenvalues: ArrayLike) -> str:
    """``"stable node"``, ``"stable focus"``, ``"saddle"``, ``"unstable node"`` or ``"unstable focus"``."""
    eigenvalues = np.asarray(eigenvalues)
    real = eigenvalues.real
    if np.any(np.abs(eigenvalues.imag) > 0):
        return "stable focus" if real[0] < 0 else "unstable focus"
    if real.min() < 0 < real.max():
        return "saddle"
    return "stable node" if real.max() < 0 else "unstable node"


@eqx.filter_jit
def fast_trajectories(
    systems: FastScaleSystem,
    initial_states: Float[Array, "n 2"],
    time_direction: Float[Array, " n"],
    duration: Float[Array, ""],
    escape_radius: Float[Array, ""],
    saves: int = 400,
) -> Float[Array, "n saves 2"]:
    """Trajectories of :func:`fast_vector_field` for a batch of systems and initial states, in one ``vmap`` of a
    diffrax solve (Tsit5, rtol 1e-9).

    Args:
        systems: a :class:`FastScaleSystem` whose fields have a leading batch axis ``n``.
        initial_states: ``(ỹ, ṽ)`` of each lane.
        time_direction: ``+1`` forwards, ``−1`` backwards (stable manifolds), per lane.
        duration: the fast time ``t̃`` each lane runs for.
        escape_radius: a lane stops once ``|ỹ|`` or ``|ṽ|`` exceeds it (lift-off or an IWC has begun).
        saves: the number of evenly spaced samples per lane.

    Returns:
        The sampled states, shape ``(n, saves, 2)``; samples after a lane stopped are ``inf``.
    """
    fractions = jnp.linspace(0.0, 1.0, saves)

    def one(system: FastScaleSystem, z0: Float[Array, "2"], direction: Float[Array, ""]) -> Float[Array, "saves 2"]:
        def field(t, z, args):
            return direction * fast_vector_field(t, z, args)

        escaped = diffrax.Event(lambda t, z, args, **kwargs: jnp.max(jnp.abs(z)) > escape_radius)
        solution = diffrax.diffeqsolve(
            diffrax.ODETerm(field),
            diffrax.Tsit5(),
            t0=0.0,
            t1=duration,
            dt0=1e-3,
            y0=z0,
            args=system,
            saveat=diffrax.SaveAt(ts=fractions * duration),
            stepsize_controller=diffrax.PIDController(rtol=1e-8, atol=1e-10),
            event=escaped,
            max_steps=20_000,
        )
        return solution.ys

    return jax.vmap(one)(systems, initial_states, time_direction)
