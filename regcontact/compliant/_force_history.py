"""The contact forces of one compliant run over time, λ(t), read from the vector field at the states of
:func:`~regcontact.compliant.trajectory`'s dense output."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, Float, Int

from regcontact.compliant._solve import Controls, SolveSettings, _held, _held_trajectory
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, contact_forces
from regcontact.contact import ContactModel
from regcontact.systems.system import AbstractSystem

__all__ = ["ForceHistory", "force_history"]


class ForceHistory(eqx.Module):
    """The contact forces of one run at the times ``ts``.

    ``forces[i, j]`` is ``(λ_n, λ_t)`` of contact ``j`` at ``ts[i]`` (``λ_t``: ``d`` numbers on a spatial contact),
    the force the vector field applies in the state ``states`` holds there; times after an event ended the run hold
    ``nan``. ``states.impulses`` is the force integral the solve carries, ``∫₀ᵗ λ dt``: its increments are what
    :meth:`integral` approximates from the samples.
    """

    ts: Float[Array, " m"]
    forces: Float[Array, "m k 1+d"]
    states: CompliantState
    status: Int[Array, ""]

    def integral(self) -> Float[Array, "k 1+d"]:
        """``∫ λ dt`` from ``ts[0]`` to ``ts[-1]`` by the trapezoidal rule on the samples (its error is
        ``O(h²)`` where λ is smooth, ``O(h)`` across a jump of the force, e.g. a touch-down with damping)."""
        steps = jnp.diff(self.ts)[:, None, None]
        return jnp.sum(0.5 * steps * (self.forces[1:] + self.forces[:-1]), axis=0)


def force_history(
    system: AbstractSystem,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings,
    ts: Float[Array, " m"],
    state0: CompliantState | None = None,
) -> ForceHistory:
    """The contact forces ``λ(t)`` of a compliant run at the times ``ts``.

    It solves as :func:`~regcontact.compliant.trajectory` does (the same arguments) and evaluates the contact
    laws, as the vector field does, at each saved state (with a restarted run's laws held as in the piece that
    holds the sample: a peak law's branch and peak): the forces are exact for those states, so their accuracy is
    the solve's, at any spacing of ``ts``. Use it in place of differencing the force integrals.

    Args:
        system: the body, e.g. :class:`~regcontact.systems.PainleveRod`.
        contact: the contact laws and their α-exponents.
        alpha: the stiffness multiplier α, positive.
        controls: tolerances and the end time.
        settings: solver, events and restart surfaces (static).
        ts: the times to sample, a 1-D array, non-decreasing, within ``[0, t_max]``: concrete times that are not
            are refused; traced ones (under ``jit``/``vmap``) that are not give a run that is not integrated,
            every sample ``nan`` (as :func:`~regcontact.compliant.trajectory`).
        state0: the initial state (default: the system's own).

    Raises:
        ValueError: concrete ``ts`` not 1-D, empty, not finite, decreasing somewhere or outside ``[0, t_max]``,
            naming the first time at fault: ``ts[2] = 0.5: expected times non-decreasing within …``.

    Returns:
        A :class:`ForceHistory`: ``ts``, ``forces`` (``m × k × (1+d)``, ``nan`` after an event ended the run), the
        ``states`` at ``ts`` and the solver status (an index into
        :data:`~regcontact.compliant.SOLVER_STATUSES`).

    Examples:
        >>> import jax.numpy as jnp, regcontact as rc
        >>> rod, alpha = rc.PainleveRod(), 1e4
        >>> t_c = rc.contact_time(rod, alpha)
        >>> history = rc.force_history(rod, rc.ContactModel(), alpha, rc.Controls(t_max=t_c),
        ...                            rc.SolveSettings(events=()), jnp.linspace(0.0, t_c, 2001))
        >>> history.forces.shape
        (2001, 1, 2)
    """
    states, above, memory, status = _held_trajectory(system, contact, alpha, controls, settings, ts, state0)
    normal, friction = contact.at_stiffness(alpha)
    args = CompliantSystem(system=system, normal=normal, friction=friction)
    forces = jax.vmap(lambda q, v, a, m: contact_forces(_held(args, settings, a, m), q, v))(
        states.q, states.v, above, memory
    )
    saved = jnp.all(jnp.isfinite(states.q), axis=-1)[:, None, None]
    return ForceHistory(
        ts=jnp.asarray(ts, dtype=float), forces=jnp.where(saved, forces, jnp.nan), states=states, status=status
    )
