"""A contact law's answers at a few states, before any run: one finite value per contact, or what is wrong.

A law is a user's class as often as one of the package's; a law that returns a force of another shape or NaN
otherwise surfaces as a reshape error deep inside a solve or as a step-size controller that gives up
(``max_steps_reached``). The probe evaluates the law where every run evaluates it (open, touching and closed
contacts, approaching and separating) and names the method that answered wrongly.
"""

from __future__ import annotations

import itertools
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from regcontact._argument_checks import is_traced
from regcontact.contact._bilinear_spring import AbstractPeakNormalLaw
from regcontact.contact._friction_laws import AbstractFrictionLaw

__all__ = ["law_problem"]

#: Gaps (open, touching, closed) and gap rates (approaching, at rest, separating) the normal law is asked at.
_GAPS = (1e-3, 0.0, -1e-3)
_RATES = (-1.0, 0.0, 1.0)
#: Slip rates and normal forces the friction law is asked at, with a friction coefficient of 0.5.
_SLIPS = (-1.0, 0.0, 1.0)
_NORMAL_FORCES = (0.0, 1.0)


def _normal_answers(law: Any, num_contacts: int) -> dict[str, list[jax.Array]]:
    answers: dict[str, list[jax.Array]] = {}
    for gap, rate in itertools.product(_GAPS, _RATES):
        g, r = jnp.full(num_contacts, gap), jnp.full(num_contacts, rate)
        if isinstance(law, AbstractPeakNormalLaw):
            method, force = "force(gap, gap_rate, peak)", law.force(g, r, jnp.maximum(-g, 0.0))
        else:
            method, force = "__call__(gap, gap_rate)", law(g, r)
        answers.setdefault(method, []).append(jnp.asarray(force))
    answers["elastic_energy(gap)"] = [jnp.asarray(law.elastic_energy(jnp.full(num_contacts, g))) for g in _GAPS]
    return answers


def _friction_answers(law: Any, num_contacts: int) -> dict[str, list[jax.Array]]:
    mu = jnp.full(num_contacts, 0.5)
    forces = [
        jnp.asarray(law(jnp.full(num_contacts, slip), jnp.full(num_contacts, normal), mu))
        for slip, normal in itertools.product(_SLIPS, _NORMAL_FORCES)
    ]
    return {"__call__(slip_rate, normal_force, mu)": forces}


def _answers(law: Any, num_contacts: int) -> dict[str, list[jax.Array]]:
    if isinstance(law, AbstractFrictionLaw):
        return _friction_answers(law, num_contacts)
    return _normal_answers(law, num_contacts)


#: One compiled evaluation per law class, structure and contact count.
_finite_answers = eqx.filter_jit(
    lambda law, num_contacts: jax.tree_util.tree_map(lambda a: jnp.all(jnp.isfinite(a)), _answers(law, num_contacts))
)


def _shape_problem(law: Any, num_contacts: int) -> str | None:
    name = type(law).__name__
    try:
        shapes = eqx.filter_eval_shape(_answers, law, num_contacts)
    except Exception as error:  # a method that cannot even be evaluated at the probe states
        return f"{name}'s methods fail on {num_contacts} contacts ({type(error).__name__}: {error})".split("\n")[0]
    for method, answers in shapes.items():
        for answer in answers:
            if tuple(answer.shape) != (num_contacts,):
                return (
                    f"{name}.{method} returns shape {tuple(answer.shape)} for {num_contacts} contacts: expected one "
                    f"value per contact, ({num_contacts},)"
                )
    return None


#: Shape problems by law class, structure, leaf shapes and contact count (tracing is the slow part of a probe).
_SHAPE_PROBLEMS: dict[Any, str | None] = {}


def law_problem(law: Any, num_contacts: int) -> str | None:
    """What is wrong with ``law``'s answers for ``num_contacts`` contacts at the probe states (a shape other than
    one value per contact, or a value that is not finite), naming the method; ``None`` if nothing is, or if the
    law's parameters are traced (they have no values yet)."""
    if is_traced(law):
        return None
    leaves, structure = jax.tree_util.tree_flatten(law)
    key = (type(law), structure, tuple(np.shape(leaf) for leaf in leaves), num_contacts)
    if key not in _SHAPE_PROBLEMS:
        if len(_SHAPE_PROBLEMS) > 1024:
            _SHAPE_PROBLEMS.clear()
        _SHAPE_PROBLEMS[key] = _shape_problem(law, num_contacts)
    if _SHAPE_PROBLEMS[key] is not None:
        return _SHAPE_PROBLEMS[key]
    name = type(law).__name__
    with jax.ensure_compile_time_eval():
        finite = _finite_answers(law, num_contacts)
    for method, flags in finite.items():
        if not all(bool(np.asarray(flag)) for flag in flags):
            return f"{name}.{method} is NaN or inf at a probe state (open, touching, closed): expected finite values"
    return None
