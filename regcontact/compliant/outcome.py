"""What a compliant run did: was there an impulse, and how did it end (lifted off, sticking, slipping)?

For maps over parameters (the Painlevé map of issue 11, Sec. 5.2's penetration study of issue 10) every run is
classified from its end state, with no extra output from the solve:

* **impulsive**: the normal force integral exceeds what the slow motion can deliver in the run's time,
  ``∫Σλ_n dt > IMPULSIVE_FACTOR · F · t_end`` (``F``: :func:`~regcontact.compliant.termination.slow_force_scale`).
  As α → ∞ the run's window shrinks (contact times) or ends at the impulse (``impulse_end``), so a slow force
  contributes ``O(F t_end) → 0`` while an impulse contributes ``Λ_n = O(1)``;
* **end mode**: ``lifts_off`` when ``contact_open`` ended the run; otherwise, from the contact with the largest
  normal force at the end, ``sticks`` when its friction is inside the Coulomb limit (the regularised stick,
  :func:`~regcontact.compliant.modes.contact_sticks`: the rule the whole-motion comparison labels its samples
  with), and ``slips`` when it is on the limit; ``open`` when no contact carries force. Under a peak law
  (:class:`~regcontact.contact.AbstractPeakNormalLaw`) the force at the end depends on the peaks the run held,
  which a run does not return: a run that did not lift off is :data:`UNCLASSIFIED` there, never guessed.

An impulsive run that does not lift off is an impact without collision (Painlevé's IWC, Champneys & Várkonyi).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jaxtyping import Array, Bool, Int

from regcontact.compliant._solve import CompliantRun, SolveSettings
from regcontact.compliant._sweep import Case
from regcontact.compliant.dynamics import CompliantSystem, contact_forces
from regcontact.compliant.modes import contact_sticks
from regcontact.compliant.termination import slow_force_scale
from regcontact.contact import AbstractPeakNormalLaw, select_contacts

__all__ = ["END_MODES", "IMPULSIVE_FACTOR", "UNCLASSIFIED", "classify"]

#: End modes, indexed by the codes :func:`classify` returns.
END_MODES = ("lifts_off", "sticks", "slips", "open")

#: The end-mode code of a run whose end cannot be classified (a peak law's run that did not lift off).
UNCLASSIFIED = -1

#: An impulse is a normal force integral this many times what the slow force can deliver in the run's time.
IMPULSIVE_FACTOR = 10.0


def _end_mode(case: Case, run: CompliantRun, lifted: Bool[Array, ""]) -> Int[Array, ""]:
    normal, friction = case.contact.at_stiffness(case.alpha)
    args = CompliantSystem(case.system, normal, friction)
    forces = contact_forces(args, run.state_end.q, run.state_end.v)
    carrying = jnp.argmax(forces[:, 0])
    slip = (case.system.jacobians(run.state_end.q) @ run.state_end.v)[carrying, 1]
    sticking = contact_sticks(
        select_contacts(friction, carrying), slip, forces[carrying, 0], case.system.friction_coefficients[carrying]
    )
    loaded = forces[carrying, 0] > 0.0
    return jnp.where(lifted, 0, jnp.where(~loaded, 3, jnp.where(sticking, 1, 2)))


@functools.partial(jax.jit, static_argnums=2)
def classify(cases: Case, runs: CompliantRun, settings: SolveSettings) -> tuple[Bool[Array, " b"], Int[Array, " b"]]:
    """``(impulsive, end_mode)`` for a batch of cases and their runs (codes index :data:`END_MODES`, or are
    :data:`UNCLASSIFIED`).

    Jitted: one compilation for the batch (and JAX's persistent cache), where eager dispatch compiled every
    operation for the batch's shape (10 s of a 50 s, 2,500-case study)."""
    lift_off = settings.events.index("contact_open") + 1 if "contact_open" in settings.events else -1
    lifted = runs.termination == lift_off
    normal_integral = jnp.sum(runs.state_end.impulses[..., 0], axis=-1)
    slow = jax.vmap(slow_force_scale)(cases.system)
    impulsive = normal_integral > IMPULSIVE_FACTOR * slow * runs.t_end
    if isinstance(cases.contact.normal, AbstractPeakNormalLaw):
        return impulsive, jnp.where(lifted, 0, UNCLASSIFIED)
    return impulsive, jax.vmap(_end_mode)(cases, runs, lifted)
