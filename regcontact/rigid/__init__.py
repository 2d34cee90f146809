"""Rigid-contact references for a planar body with one contact: the three formulations of Preclik & Rüde.

- :func:`force_acceleration` (Sec. 2): forces from ``g̈``; may have none or several solutions;
- :func:`impulse_velocity` (Sec. 3): impulses from ``ġ⁺``; always solvable, possibly several;
- :func:`time_stepping` (Sec. 4): one semi-implicit Euler step, ``δt λ̃``; tends to the impulses as ``O(δt)``.

Each returns *all* its solutions with their contact mode. Each takes a :class:`ContactState` (build one from a
rod at any ``(q, v)`` with :meth:`ContactState.from_rod`) or a :class:`~regcontact.rod.PainleveRod`, taken at
its initial state. Every tolerance is relative to the state's own scales: a rod rescaled in mass, length and
gravity gives the rescaled solutions (``docs/rigid.md``, "Units and scaling").
"""

from regcontact.rigid.force_acceleration import force_acceleration
from regcontact.rigid.impulse_velocity import impulse_velocity
from regcontact.rigid.painleve_conditions import (
    critical_angle,
    critical_friction,
    painleve_coefficient,
    torque_threshold,
)
from regcontact.rigid.solutions import ContactMode, RigidSolution, RigidSolutions, contact_mode
from regcontact.rigid.state import ContactState
from regcontact.rigid.time_stepping import TimeSteppingConvergence, time_stepping, time_stepping_convergence

__all__ = [
    "ContactMode",
    "ContactState",
    "RigidSolution",
    "RigidSolutions",
    "TimeSteppingConvergence",
    "contact_mode",
    "critical_angle",
    "critical_friction",
    "force_acceleration",
    "impulse_velocity",
    "painleve_coefficient",
    "time_stepping",
    "time_stepping_convergence",
    "torque_threshold",
]
