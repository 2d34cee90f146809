"""The unit and a description of every column a study writes, for ``results.json`` and the NetCDF attributes.

Every number is in the config's own units (model units: a mass M, a length L and a time T, consistent; a force
is M·L/T²); Preclik & Rüde's rod has m = 1, l = 2, g = 1. Units are written in those dimensions
(``"force·time"``), ``"1"`` for a pure number and ``""`` for text. A suffix ``_i`` names contact ``i`` of a
system with several contacts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["MODEL_UNITS", "NOT_DESCRIBED", "describe_column", "describe_columns"]

MODEL_UNITS = "model units: the config's consistent mass, length and time; force = mass·length/time²"

#: What an unknown column is described as (a test keeps the shipped study kinds free of it).
NOT_DESCRIBED = "(not described)"

_INTEGRAL = "force·time"

#: Columns by exact name: (unit, description).
_EXACT: dict[str, tuple[str, str]] = {
    # compliant sweeps
    "alpha": ("1", "stiffness multiplier α: each law parameter p is used as p·α^e, e its α-exponent"),
    "distance_to_impulse_velocity": (_INTEGRAL, "max-norm distance of the force integrals to the rigid impulse Λ"),
    "distance_to_compliant_limit": (
        _INTEGRAL,
        "max-norm distance of the force integrals to the impulse P of the contact model's limit impact law",
    ),
    "t_end": ("time", "time at which the run ended (an event, or the time limit)"),
    "t_max": ("time", "the run's time limit"),
    "termination": ("", "what ended the run: time_limit, the event's name, or failed"),
    "n_steps": ("1", "solver steps, accepted and rejected, over all restarted pieces"),
    "n_accepted": ("1", "accepted solver steps"),
    "n_rejected": ("1", "rejected solver steps"),
    "n_restarts": ("1", "restarts at located switching surfaces"),
    "status": ("", "diffrax's result: successful, event_occurred, max_steps_reached, …"),
    "check": ("", "passed, or the consistency check the run failed (spurious_event, missed_switch, …)"),
    "impulsive": ("", "whether the normal force integral exceeds ten times what the slow forces deliver in the run"),
    "end_mode": ("", "how the run ended: lifts_off, sticks or slips (at the contact carrying the load)"),
    # rigid references (rigid_painleve)
    "setup": ("", "the setup's name in the config ([setups.NAME])"),
    "formulation": ("", "force_acceleration, impulse_velocity or time_stepping"),
    "dt": ("time", "the time step δt (time-stepping formulations and integrators)"),
    "mode": ("", "the contact mode of the solution: F (opening), T (sticking), S+ or S- (sliding), or no solution"),
    "matches_paper": ("", "whether the solution agrees with the paper's printed value to its last digit"),
    "reaction_n": ("force or force·time", "normal reaction: a force (force-acceleration), an impulse otherwise"),
    "reaction_t": ("force or force·time", "tangential reaction: a force (force-acceleration), an impulse otherwise"),
    "paper_n": ("force or force·time", "the paper's printed normal reaction"),
    "paper_t": ("force or force·time", "the paper's printed tangential reaction"),
    # whole motions (rigid_trajectories)
    "run": ("", "the integrator and its parameter"),
    "threshold": ("length/time", "Gholami et al.'s slip-velocity threshold of regularised friction"),
    "distance_q": ("length or rad", "max-norm distance of the positions to the event-driven reference on the grid"),
    "distance_v": ("length/time or rad/time", "max-norm distance of the velocities to the reference on the grid"),
    "modes": ("", "the sequence of contact modes over the compared grid"),
    "modes_equal": ("", "whether the mode sequence equals the reference's"),
    "slip_onset": ("time", "time of the first slip onset"),
    "lift_off": ("time", "time of the first lift-off"),
    "landing": ("time", "time of the first landing"),
    "stick": ("time", "time of the first transition to stick"),
    "event_error": ("time", "largest time difference of the matched events against the reference"),
    "wall_s": ("s (wall clock)", "wall-clock time of the run"),
    "ok": (
        "",
        "whether the run is good: finished and passed its checks (sweeps); agrees with the reference's events and "
        "motion within verdict.tolerance (whole motions)",
    ),
    "solved": ("", "whether the run finished (whole motions)"),
    "impulses": ("", "the run's impulses after t_skip: size (P_n, P_t) per contact and time"),
    "events_equal": ("", "whether the run's modes and impulses are the reference's"),
    "verdict": ("", "agrees, or why the run does not agree with the reference"),
    # landing tables (landing_table)
    "case": ("", "the landing's index in the seeded draw"),
    "system": ("", "the landing's system: reduced_single_contact, rod_on_one_end or rod_flat"),
    "model": ("", "the compliant model: preclik (Eq. 22) or kelvin_voigt (fixed damping ratio)"),
    "contacts": ("1", "the number of closed contacts at touch-down"),
    "friction_during_impact": ("", "friction on the impact's time scale: viscous, coulomb or none"),
    "restitution": ("1", "the model's frictionless restitution, given to the LCP (Newton) and Darboux–Keller"),
    "distance_lcp": (
        "1",
        "distance of the velocity after the impact to the impulse LCP's, over the speed, at the largest α",
    ),
    "order_lcp": ("1", "order in α of the distance to the impulse LCP's velocity"),
    "distance_darboux_keller": ("1", "distance to Darboux–Keller's velocity over the speed, at the largest α"),
    "order_darboux_keller": ("1", "order in α of the distance to Darboux–Keller's velocity"),
    "distance_compliant_limit": (
        "1",
        "distance to the compliant limit law's velocity over the speed, at the largest α",
    ),
    "order_compliant_limit": ("1", "order in α of the distance to the compliant limit law's velocity"),
    "converges_to": ("", "the impact laws the compliant model converges to (order and last local order ≥ s/2)"),
    "laws_agree": ("", "whether the three impact laws give the same velocity (to 1e-9 of the speed)"),
    # forward chatter (chatter)
    "touchdowns": ("1", "touch-downs of the compliant run resolved on the sample grid (the first at t = 0)"),
    "last_touchdown": ("time", "the compliant run's last touch-down: after it the contact stays closed"),
    "zeno_time": ("time", "the rigid chatter's accumulation time t_∞ (a rigid integration stops there)"),
    "last_touchdown_minus_zeno": ("time", "the compliant last touch-down minus the rigid Zeno time"),
    "touchdown_time_error": ("time", "largest difference of the first touch-down times from the rigid impact times"),
    "slip_at_zeno": ("length/time", "the compliant run's slip velocity at the rigid Zeno time"),
    "zeno_slip": ("length/time", "the slip velocity the rigid chatter sequence tends to at its Zeno point"),
    # chains of balls (multiple_impacts)
    "chain": ("", "the case: a chain of balls (cradle, tapered or column) or the rocking block"),
    "balls": ("1", "the number of balls in the chain (empty for the block)"),
    "distance_to_limit": (
        "length/time",
        "max over the balls (the block: over v_x, v_y, ω) of |v − v_limit| after the impact, at the largest α",
    ),
    "order_to_limit": ("1", "order in α of distance_to_limit, fitted over the last three α"),
    "momentum_change": (
        "mass·length/time",
        "the limit impact's change of the balls' total momentum (the block's along the floor normal: the floor's "
        "impulse)",
    ),
    "energy_ratio": ("1", "the kinetic energy after the limit impact over that before"),
    "finished_runs": ("1", "compliant runs that ended with every contact open"),
    # beyond the jam (dynamic_jam) and the 3D crossing (spatial_crossing)
    "rod": ("", "the rod run through its jam: G1 or G2 (found by search) or system (the [system] table's)"),
    "law": ("", "the normal law of the compliant contact, by its config name"),
    "outcome": ("", "what followed: jump_into_stick, impact_in_slip, lift_off, stays_in_contact or failed"),
    "lag": ("time", "the run's end (lift-off, or the window's end) minus the rigid slip's jam time t_jam"),
    "excess_impulse_n": (
        _INTEGRAL,
        "normal impulse beyond the rigid slip's: at the run's end (dynamic_jam) or at t* + Δ (spatial_crossing), "
        "minus the rigid slip's ∫λ_n dt up to the jam or the crossing",
    ),
    "excess_impulse_t": (_INTEGRAL, "the same for the tangential impulse (dynamic_jam)"),
    "excess_impulse_t1": (_INTEGRAL, "the same for the tangential impulse along x₁ (spatial_crossing)"),
    "excess_impulse_t2": (_INTEGRAL, "the same for the tangential impulse along x₂ (spatial_crossing)"),
    "jump_impulse": (_INTEGRAL, "the normal impulse I* of the rigid jump into stick at the G-spot"),
    "jump_impulse_error": (_INTEGRAL, "excess_impulse_n − I*: the excess normal impulse against the rigid jump"),
    "impulse_time": ("time", "when half of the excess normal impulse was in, minus t_jam (blank without an impulse)"),
    "slip_at_jam": ("length/time", "the compliant run's slip velocity at t_jam"),
    "slip_end": ("length/time", "the slip velocity at the run's end"),
    "normal_velocity_at_jam": ("length/time", "the compliant run's normal contact velocity at t_jam"),
    "normal_velocity_end": ("length/time", "the normal contact velocity at the run's end (> 0: separating)"),
    "velocity_error": (
        "length/time or rad/time",
        "largest difference of the generalised velocities from those the rigid impact leaves: at the run's end "
        "against the jump into stick (dynamic_jam), at t* + Δ against the IWC (spatial_crossing)",
    ),
    "impulse_error": (_INTEGRAL, "max-norm distance of the excess impulse at t* + Δ to the rigid IWC's"),
    "slip_speed_after": ("length/time", "the slip speed |u| at t* + Δ, the end of the impulse"),
    "normal_velocity_after": ("length/time", "the normal contact velocity at t* + Δ (> 0: separating)"),
    "bounce": ("length", "the largest gap after t* + Δ: the height of a flight after the impulse (0: none)"),
    "end_slip_x1": ("length/time", "the slip velocity along x₁ at t* + window"),
    "end_slip_x2": ("length/time", "the slip velocity along x₂ at t* + window"),
    "end_closed": ("", "whether the contact is closed at t* + window"),
    # swept system keys (a system key is written bare)
    "mass": ("mass", "the body's mass m"),
    "length": ("length", "the rod's length l"),
    "inertia": ("mass·length²", "the moment of inertia I about the centre of mass"),
    "gravity": ("length/time²", "gravitational acceleration g"),
    "torque": ("force·length", "applied torque τ"),
    "force_x": ("force", "applied horizontal force f_x"),
    "mu": ("1", "friction coefficient μ"),
    "phi0": ("rad", "initial angle φ₀ of the rod, counter-clockwise from the ground"),
    "vx0": ("length/time", "initial horizontal velocity"),
    "vy0": ("length/time", "initial vertical velocity"),
    "omega0": ("rad/time", "initial angular velocity"),
    "height": ("length", "initial height of the rod's lower end above the ground"),
    "initial_penetration": ("length", "depth the closed contacts start pressed in by"),
    "a": ("length/time²", "free tangential acceleration of the contact (contact-space form)"),
    "b": ("length/time²", "free normal acceleration of the contact (contact-space form)"),
    "A": ("1/mass", "tangential entry of the contact-space inverse mass"),
    "B": ("1/mass", "coupling entry of the contact-space inverse mass"),
    "C": ("1/mass", "normal entry of the contact-space inverse mass"),
    "slip0": ("length/time", "initial slip velocity"),
    "normal_velocity0": ("length/time", "initial normal velocity"),
    # other swept keys, dotted
    "solver.rtol": ("1", "the solver's relative tolerance"),
    "solver.atol": ("(state units)", "the solver's absolute tolerance"),
    "termination.time_limit": ("time", "the configured time limit"),
    "termination.contact_times": ("1", "the run's window in contact times π√(m_n/k_n(α))"),
    "termination.impact_times": ("1", "the run's window in impact times π/r of the normal law at α"),
    "system.initial_penetration": ("length", "depth the closed contacts start pressed in by"),
}

_PARAMETER_UNITS = {
    ("normal", "stiffness"): "force/length (for Hunt–Crossley: force/lengthⁿ)",
    ("normal", "damping"): "force·time/length (for Hunt–Crossley: time/length)",
    ("normal", "exponent"): "1",
    ("friction", "damping"): "force·time/length",
}

#: Columns by pattern: (regex, unit, description with ``{groups}`` filled in).
_PATTERNS: list[tuple[str, str, str]] = [
    (r"int_lambda_(n|t)", _INTEGRAL, "∫λ_{0} dt over the run: the {1} force integral of the compliant contact"),
    (r"paper_int_lambda_(n|t)", _INTEGRAL, "the paper's printed ∫λ_{0} dt at this α"),
    (r"impulse_velocity_(n|t)", _INTEGRAL, "the rigid reference impulse Λ_{0} ({1}; impulse-velocity LCP)"),
    (
        r"compliant_limit_(n|t)",
        _INTEGRAL,
        "the impulse P_{0} ({1}) of the landing under the contact model's limit impact law (α → ∞)",
    ),
]

_SIDES = {"n": "normal", "t": "tangential"}


def describe_column(name: str) -> dict[str, str]:
    """``{"unit": …, "description": …}`` of a result column (:data:`NOT_DESCRIBED` for an unknown one)."""
    base, _, contact = name.rpartition("_")
    if contact.isdigit() and base:
        described = describe_column(base)
        return {**described, "description": f"{described['description']}, contact {contact}"}
    if name in _EXACT:
        unit, description = _EXACT[name]
        return {"unit": unit, "description": description}
    for pattern, unit, description in _PATTERNS:
        match = re.fullmatch(pattern, name)
        if match:
            return {"unit": unit, "description": description.format(match[1], _SIDES[match[1]])}
    match = re.fullmatch(r"contact\.(normal|friction)(_exponents)?\.(\w+)", name)
    if match:
        side, exponents, parameter = match.groups()
        if exponents:
            return {"unit": "1", "description": f"α-exponent of the {side} law's {parameter}"}
        unit = _PARAMETER_UNITS.get((side, parameter), "(law-dependent)")
        return {"unit": unit, "description": f"the {side} law's {parameter} at α = 1"}
    return {"unit": "", "description": NOT_DESCRIBED}


def describe_columns(columns: Iterable[str]) -> dict[str, dict[str, str]]:
    """:func:`describe_column` of each column, in order."""
    return {column: describe_column(column) for column in columns}
