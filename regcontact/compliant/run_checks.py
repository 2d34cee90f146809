"""Consistency checks of a finished compliant run: a run whose end contradicts the physics is a failure.

diffrax's status says whether the integrator finished, not whether the answer is right. Three failures that
finished ``successful`` or ``event_occurred`` were measured (issue 8): a lift-off "event" fired on the gap's
round-off after 9 steps, a touch-down was missed and the rod ended centimetres inside the ground, and chattering
restarts changed the force integrals by 15 %. Each finished run is therefore checked; the first check that
fails is reported in :data:`RUN_CHECKS` order, 0 meaning all passed:

``spurious_event``
    The run ended at a lift-off event but the contact that opened last (the smallest gap) is not separating
    there: its normal speed is not above the round-off scale ``ε_v`` (:mod:`regcontact.compliant.resolution`). A real
    lift-off through ``g_n = ε_g`` has ``ġ_n ≥ √(2 b ε_g) ≫ ε_v``.
``missed_switch``
    The run reached ``t_max`` on the wrong side of a restart surface: past the exit of the contact state it was
    holding (e.g. held open with ``g_n < 0``), so a switch was missed.
``energy_gain``
    The total energy (kinetic, potential of the applied loads, elastic energy of the contact law) grew by more
    than ``ENERGY_TOLERANCE × rtol'`` times the energy scale of the run, with ``rtol' = 0.1 rtol^(2/3)`` the
    tolerance RADAU5 actually holds its error estimate to (the looser of the solvers' readings). Every shipped
    law is passive (the dampers and friction only dissipate), so the energy can only fall, up to the
    integration error. Measured on conservative runs (no damping, no friction; the rod dropped on the
    spring, bouncing, with restarts, and the Table 1 rod; α = 1e3 … 1e8, rtol 1e-6 … 1e-10): the growth stays
    below 0.55 rtol' × scale, so the bound of 100 leaves a margin of about 200. A rod that fell 2.65 cm into the
    ground (a missed touch-down) gains about 3e8 in elastic energy. Not applied to a system whose loads depend on
    time (``time_dependent_loads``): such a load does work that no potential accounts for.
``unresolved_contact``
    The run reached ``t_max`` with a contact's gap inside the round-off band ``|g_n| ≤ ε_g``: float64 cannot say whether
    the contact is loaded or open. That happens when the load-bearing penetration ``λ_n / k(α)`` itself falls
    below ``ε_g``. Measured on the Table 1 rod (distance to Λ times √α, which is constant while the run is
    right): 1.062 for α = 1e8 … 1e14, then 0.002 at 1e15 and 0.72 at 1e16, where the final gap is +1.1e-16 and
    the weight-bearing force after the impulse is lost. The check fires from α = 1e14 on (final gap −3.1e-15,
    inside the band, though that run is still right): conservative by one decade.

The inputs of a run are checked too (:func:`check_inputs`). A concrete value is refused where it is given (a
``ValueError`` from the constructor or from ``solve``, :mod:`regcontact._argument_checks`); a traced one (a sweep's
cases under ``jit``/``vmap``) has no value there, so the compiled run applies the same rules and a run that breaks
one is not integrated (it ends at once, at ``t = 0``) and fails with the first of:

``nonfinite_input``
    A parameter of the system or of the contact model, α, a control (``rtol``, ``atol``, ``t_max``) or the
    initial state is NaN or ±inf.
``negative_friction``
    A friction coefficient ``μ < 0``: friction would drive the slip instead of opposing it.
``invalid_tolerance``
    ``rtol`` outside ``[2.2e-14, 1)`` (below 100 float64 epsilons no step-size controller can meet it) or
    ``atol ≤ 0``.
``invalid_parameter``
    A parameter breaks its rule (the system's ``ARGUMENT_RULES``, a law's ``PARAMETERS``, a load profile's own:
    a table's times strictly increasing, a ramp's ``until ≥ 0``), or ``α ≤ 0``, or ``t_max ≤ 0`` (a subnormal
    value counts as zero: XLA flushes it).

They come after the consistency checks in :data:`RUN_CHECKS` (their codes are appended, so the codes of kept
results keep their meaning), but take precedence over them: a run with bad inputs has no end to check.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax.numpy as jnp
import jax.tree_util as jtu
from jaxtyping import Array, ArrayLike, Bool, Float, Int

from regcontact._argument_checks import POSITIVE, RELATIVE_TOLERANCE, RULES, holds
from regcontact.compliant.dynamics import CompliantState, CompliantSystem
from regcontact.compliant.resolution import gap_resolution, normal_speed_resolution
from regcontact.contact import ContactModel
from regcontact.systems import AbstractLoad
from regcontact.systems.system import AbstractSystem, is_float

__all__ = ["ENERGY_TOLERANCE", "INPUT_CHECKS", "RUN_CHECKS", "check_inputs", "check_run", "total_energy"]

#: The checks of a run's inputs (module docstring), in the order they are reported.
INPUT_CHECKS: tuple[str, ...] = ("nonfinite_input", "negative_friction", "invalid_tolerance", "invalid_parameter")

#: Check names, indexed by :attr:`regcontact.compliant.CompliantRun.check`.
RUN_CHECKS: tuple[str, ...] = (
    "passed",
    "spurious_event",
    "missed_switch",
    "energy_gain",
    "unresolved_contact",
    *INPUT_CHECKS,
)

#: Allowed energy growth, in units of ``rtol' = 0.1 rtol^(2/3)`` times the energy scale.
ENERGY_TOLERANCE = 100.0


def _elastic_energy(args: CompliantSystem, q: Float[Array, " n"]) -> Float[Array, ""]:
    return jnp.sum(args.normal.elastic_energy(args.system.gaps(q)[:, 0]))


def total_energy(args: CompliantSystem, state: CompliantState) -> Float[Array, ""]:
    """Kinetic + potential (applied loads) + elastic energy of the normal law at every contact."""
    return args.system.energy(state.q, state.v) + _elastic_energy(args, state.q)


def _energy_scale(args: CompliantSystem, start: CompliantState, end: CompliantState) -> Float[Array, ""]:
    """A size for energy differences of the run: kinetic energies, elastic energies, change of potential."""
    system = args.system
    kinetic = system.kinetic_energy(start.q, start.v) + system.kinetic_energy(end.q, end.v)
    potential_change = jnp.abs(system.potential_energy(end.q) - system.potential_energy(start.q))
    return kinetic + potential_change + _elastic_energy(args, start.q) + _elastic_energy(args, end.q)


def check_run(
    args: CompliantSystem,
    start: CompliantState,
    end: CompliantState,
    lift_off: Bool[Array, ""],
    missed_switch: Array,
    rtol: Float[Array, ""],
) -> Int[Array, ""]:
    """Index into :data:`RUN_CHECKS` of the first failed check, 0 if the run is consistent.

    ``args`` holds the contact states the run ended in (frozen, if it restarted); ``lift_off`` is true when the
    run was ended by the lift-off event (``contact_open``); ``missed_switch`` is true when the final state lies
    past the exit of a held contact state.
    """
    system = args.system
    gaps = system.gaps(end.q)[:, 0]
    speeds = (system.jacobians(end.q) @ end.v)[:, 0]
    last = jnp.argmin(gaps)
    spurious = lift_off & (speeds[last] <= normal_speed_resolution(system, end.q, end.v)[last])
    gain = total_energy(args, end) - total_energy(args, start)
    effective_rtol = 0.1 * rtol ** (2.0 / 3.0)
    energy_gain = gain > ENERGY_TOLERANCE * effective_rtol * _energy_scale(args, start, end)
    if system.time_dependent_loads:  # loads that change in time do work no potential accounts for
        energy_gain = jnp.zeros_like(energy_gain)
    unresolved = ~lift_off & jnp.any(jnp.abs(gaps) <= gap_resolution(system))
    failures = jnp.stack([spurious, missed_switch, energy_gain, unresolved])
    return jnp.where(jnp.any(failures), jnp.argmax(failures) + 1, 0)


def _rules_hold(module: Any, rules: dict[str, Any]) -> Bool[Array, ""]:
    """Whether every field of ``module`` that has a rule follows it, and every load profile its own rules."""
    fields = {field.name: getattr(module, field.name) for field in dataclasses.fields(module)}
    checks = [
        holds(fields[name], rule)
        for name, rule in rules.items()
        if name in fields and not isinstance(fields[name], AbstractLoad)
    ]
    checks += [value.follows_rules() for value in fields.values() if isinstance(value, AbstractLoad)]
    return jnp.all(jnp.stack(checks)) if checks else jnp.asarray(True)


def check_inputs(
    system: AbstractSystem,
    contact: ContactModel,
    alpha: Float[ArrayLike, ""],
    rtol: Float[ArrayLike, ""],
    atol: Float[ArrayLike, ""],
    t_max: Float[ArrayLike, ""],
    state0: CompliantState,
) -> Int[Array, ""]:
    """Index into :data:`RUN_CHECKS` of the first input rule the run breaks (module docstring), 0 if none: the
    rules of the constructors, applied in the compiled run to values that were traced when they were given."""
    leaves = jtu.tree_leaves((system, contact, alpha, rtol, atol, t_max, state0))
    finite = jnp.stack([jnp.all(jnp.isfinite(leaf)) for leaf in leaves if is_float(leaf)])
    law_rules = [
        _rules_hold(law, {name: RULES[rule] for name, rule in type(law).PARAMETERS.items()})
        for law in (contact.normal, contact.friction)
    ]
    parameters = jnp.stack(
        [
            _rules_hold(system, dict(type(system).ARGUMENT_RULES)),
            *law_rules,
            holds(alpha, POSITIVE),
            holds(t_max, POSITIVE),
        ]
    )
    failures = jnp.stack(
        [
            ~jnp.all(finite),
            jnp.any(jnp.asarray(system.friction_coefficients) < 0.0),
            ~(holds(rtol, RELATIVE_TOLERANCE) & holds(atol, POSITIVE)),
            ~jnp.all(parameters),
        ]
    )
    first = RUN_CHECKS.index(INPUT_CHECKS[0])
    return jnp.where(jnp.any(failures), jnp.argmax(failures) + first, 0)
