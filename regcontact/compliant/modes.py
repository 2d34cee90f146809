"""The contact modes of a compliant run, and the times its modes change.

**One rule for stick and slip.** A contact carrying force *sticks* while its friction force is inside the Coulomb
limit, ``|λ_t(ġ_t, λ_n)| < μ λ_n`` — for Preclik's viscous-limited Coulomb (Eq. 22) the viscous branch
``γ_t |ġ_t| < μ λ_n``, slip speeds below the law's own threshold ``v_s = μ λ_n / γ_t ∝ 1/α``, so no fixed velocity
needs choosing — and *slides* at the limit. :func:`contact_sticks` is that rule for any friction law; the end mode
of :mod:`regcontact.compliant.outcome` and the labels of :func:`compliant_modes` both call it.

**Labels** (one per contact and sample): ``F`` where the normal force is zero (open, or separating through the
one-sided damper), ``T`` sticking, ``S±`` sliding with the sign of ``ġ_t``.

**Event times** (:func:`compliant_mode_events`): a mode change between two samples is placed at the zero of the
*outgoing* mode's indicator (``μλ_n − |λ_t|`` for ``T``, ``ġ_t`` for ``S``, ``g_n`` for ``F``; ``λ_n`` at a
lift-off), extrapolated linearly from the last two samples before the change and clipped to the interval.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Bool, Float
from numpy.typing import NDArray

from regcontact.contact import AbstractFrictionLaw
from regcontact.motion_events import mode_changes

__all__ = ["compliant_mode_events", "compliant_modes", "contact_sticks"]


def contact_sticks(
    friction: AbstractFrictionLaw, slip: Float[Array, "..."], normal: Float[Array, "..."], mu: Float[Array, "..."]
) -> Bool[Array, "..."]:
    """``|λ_t(ġ_t, λ_n)| < μ λ_n``: the friction force is inside the Coulomb limit (the regularised stick)."""
    return jnp.abs(friction(slip, normal, mu)) < mu * normal


def compliant_modes(friction: AbstractFrictionLaw, forces: NDArray, slips: NDArray, mu: NDArray) -> NDArray[np.str_]:
    """Labels ``(m, k)`` from the forces ``(m, k, 2)`` and slips ``(m, k)`` of ``m`` samples: ``F`` without normal
    force, ``T`` where :func:`contact_sticks`, else ``S±`` (sign of ``ġ_t``)."""
    normal = forces[..., 0]
    limit_mu = jnp.broadcast_to(jnp.asarray(mu), normal.shape)
    sticking = np.asarray(contact_sticks(friction, jnp.asarray(slips), jnp.asarray(normal), limit_mu))
    labels = np.where(slips > 0, "S+", "S-")
    labels = np.where(sticking, "T", labels)
    return np.where(normal > 0, labels, "F").astype("<U2")


def compliant_mode_events(
    times: NDArray, modes: NDArray, forces: NDArray, gaps: NDArray, slips: NDArray, mu: NDArray, t_min: float
) -> tuple[tuple[float, int, str], ...]:
    """``(time, contact, kind)`` of the mode changes whose previous sample is at ``t ≥ t_min``, each at the zero of
    the outgoing mode's indicator (module docstring)."""
    events = []
    for i, contact, kind in mode_changes(times, modes):
        if times[i - 1] < t_min:
            continue
        old = str(modes[i - 1, contact])[0]
        lam_n, lam_t = forces[:, contact, 0], forces[:, contact, 1]
        indicator = {
            "T": mu[contact] * lam_n - np.abs(lam_t),
            "S": slips[:, contact],
            "F": gaps[:, contact],
        }[old]
        if kind == "lift_off":
            indicator = lam_n
        t = times[i]
        if i >= 2 and indicator[i - 1] != indicator[i - 2]:
            slope = (indicator[i - 1] - indicator[i - 2]) / (times[i - 1] - times[i - 2])
            t = float(np.clip(times[i - 1] - indicator[i - 1] / slope, times[i - 1], times[i]))
        events.append((float(t), contact, kind))
    return tuple(events)
