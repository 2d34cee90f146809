"""The compliant limit of many landings in one compiled call (:func:`compliant_limits`).

A sweep asks for the limit impact (:func:`~regcontact.rigid.compliant_limit`) of each of its distinct (system,
contact model) pairs. Integrated one by one with SciPy, each costs a Python-level ODE solve of thousands of field
calls; here the pairs whose impact needs no segments (no friction or viscous friction during the impact, a
memoryless normal law) are stacked by law class and integrated together: one vmapped, jitted
``diffrax.Dopri8`` solve of the same impact-scale problem

    ġ_i = v_i,        ẇ = G λ,        Ṗ = λ,        λ_n,i = f(g_i, v_i),    λ_t,i = −clip(γ_t u_i, ±μ_i λ_n,i),

from where the forces set in on the ballistic approach (the onset, bisected as :func:`onset_time` does) until
every closed contact is open and separating with no force (``"opened"``), or, for a law without spring, the
normal velocities of the closed contacts are at round-off (``"rest"``). The contacts not closed at the start take
no force (a mask: every pair of a law class has the same ``k``). Tolerances are the SciPy process's
(``rtol``, ``atol = 1e-3 rtol`` of the impact speed), so the two agree to the integrators' error (tested).

The other pairs (Coulomb friction during the impact, a law with a memory) go through the segment-by-segment
SciPy process one by one: their modes and events are not a fixed-shape computation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from numpy.typing import NDArray

from regcontact.contact import AbstractNormalLaw, AbstractPeakNormalLaw, ContactModel
from regcontact.rigid._impacts.compliant_limit import (
    LimitLaw,
    _check_model,
    _check_tolerances,
    _impact_rates,
    compliant_limit,
    limit_law,
)
from regcontact.rigid._impacts.impact_process import ProcessOutcome
from regcontact.rigid._impacts.without_collision import iwc_start
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.systems.system import AbstractSystem

__all__ = ["compliant_limits"]

#: How long an impact is followed, in its slowest time scale: the SciPy process's first horizon (60) times the
#: ten-fold extensions it allows (to 10⁴ times).
_HORIZON = 60.0 * 1e4
#: Steps of one batched solve at most (an impact at rtol 1e-12 takes a few hundred).
_MAX_STEPS = 100_000
#: What each batched solve ends with.
_OPENED, _REST, _NOT_ENDED, _NO_ONSET = 0, 1, 2, 3


def compliant_limits(
    states: Sequence[ContactState | AbstractSystem],
    models: Sequence[ContactModel],
    tol: float = 1e-9,
    rtol: float = 1e-12,
) -> list[tuple[ProcessOutcome, NDArray[np.float64]] | ValueError | RuntimeError]:
    """The limit impact of ``models[i]`` at the closed contacts of ``states[i]`` (a system: its initial state),
    for every pair: :func:`~regcontact.rigid.compliant_limit`'s ``(outcome, velocity after)`` (its ``case = None``:
    an impact without collision takes its one consistent case), or the ``ValueError`` / ``RuntimeError`` it would
    raise. The pairs without segments run as one compiled call per law class and contact count (module
    docstring); the others one by one."""
    _check_tolerances(tol, rtol)
    if len(states) != len(models):
        raise ValueError(f"{len(states)} states and {len(models)} models: expected one model per state")
    answers: list[tuple[ProcessOutcome, NDArray[np.float64]] | ValueError | RuntimeError | None] = []
    groups: dict[tuple, list[tuple[int, _Impact]]] = {}
    laws: dict[int, LimitLaw | ValueError] = {}  # a sweep's pairs share a few models: each one's limit law once
    checked: set[tuple[int, int]] = set()
    for i, (state, model) in enumerate(zip(states, models)):
        _check_model(model)
        if id(model) not in laws:
            try:
                laws[id(model)] = limit_law(model)
            except ValueError as error:
                laws[id(model)] = error
        state = as_contact_state(state)
        if (id(model), state.num_contacts) not in checked:
            model.check_contacts(state.num_contacts)
            checked.add((id(model), state.num_contacts))
        try:
            landing = _impact(state, model, laws[id(model)], tol, rtol)
        except (ValueError, RuntimeError) as error:
            answers.append(error)
            continue
        if landing is None:  # segments or a memory: the SciPy process
            try:
                answers.append(compliant_limit(state, model, tol, rtol))
            except (ValueError, RuntimeError) as error:
                answers.append(error)
            continue
        answers.append(None)
        groups.setdefault(landing.group, []).append((i, landing))
    for members in groups.values():
        for (i, landing), (code, velocity, impulses) in zip(members, _solve_group([m for _, m in members], rtol)):
            answers[i] = landing.answer(code, velocity, impulses)
    return answers  # type: ignore[return-value]


@dataclass(frozen=True)
class _Impact:
    """One pair prepared for the batched solve: the normal law's array leaves broadcast to ``(k,)``, the
    tangential damping, Delassus matrix, friction, the contact velocities before the impact and where the process
    starts (seeded for an impact without collision), which contacts take part, the slowest and fastest rates and
    the impact speed; ``group`` says which pairs share a compiled call."""

    state: ContactState
    law: AbstractNormalLaw
    damping: NDArray
    G: NDArray
    mu: NDArray
    w: NDArray
    begin: NDArray
    closed: NDArray
    seeded: bool
    slowest: float
    fastest: float
    speed: float
    group: tuple

    def answer(
        self, code: int, velocity: NDArray, impulses: NDArray
    ) -> tuple[ProcessOutcome, NDArray[np.float64]] | ValueError | RuntimeError:
        if code == _NO_ONSET:
            return ValueError(f"{type(self.law).__name__} acts at any gap for an approaching contact: no onset")
        if code == _NOT_ENDED:
            return RuntimeError(f"the impact did not end within τ = {_HORIZON / self.slowest:.3g}")
        impulses = np.where(self.closed[:, None], impulses, 0.0)
        if self.seeded:  # an impact without collision ends where its impulses take the unseeded velocities
            velocity = self.w + (self.G @ impulses.reshape(-1)).reshape(-1, 2)
        velocity = np.where(self.closed[:, None], velocity, self.w)
        outcome = ProcessOutcome(velocity, impulses, "opened" if code == _OPENED else "rest")
        return outcome, self.state.velocity_after(impulses)


def _impact(
    state: ContactState, model: ContactModel, law: LimitLaw | ValueError, tol: float, rtol: float
) -> _Impact | None:
    """The pair prepared for the batched solve; ``None`` for a pair the SciPy process takes (Coulomb friction
    during the impact, a law with a memory); ``ValueError`` where :func:`compliant_limit` raises one (no impact,
    a law without a derived limit, an impact faster than the process resolves)."""
    k = state.num_contacts
    index = np.flatnonzero(np.abs(state.gaps) <= tol * state.gap_scale)
    if index.size == 0:
        raise ValueError("compliant_limit: no closed contact approaches (v_n < 0): no impact")
    w = np.asarray(state.contact_velocity, dtype=float)
    rows = np.column_stack([2 * index, 2 * index + 1]).reshape(-1)
    G = np.asarray(state.delassus, dtype=float)
    mu = np.asarray(state.mu, dtype=float)
    zero = tol * state.velocity_scale
    start, growth = iwc_start(G[np.ix_(rows, rows)], mu[index], w[index], zero, None, "compliant_limit")
    if isinstance(law, ValueError):
        raise law
    if law.friction == "coulomb" or isinstance(law.normal, AbstractPeakNormalLaw):
        return None
    speed = float(np.abs(start).max())
    rates = [r for r in _impact_rates(law.at_contacts(index), G[np.ix_(rows, rows)], speed, rtol, growth) if r > 0]
    if not rates:
        raise ValueError("the normal law has no force on the impact scale")
    damping = np.broadcast_to(np.asarray(law.tangential_damping, dtype=float), (k,))
    if law.friction != "viscous":
        damping = np.zeros(k)
    normal = jtu.tree_map(lambda leaf: np.broadcast_to(np.asarray(leaf, dtype=float), (k,)), law.normal)
    begin = w.copy()
    begin[index] = np.where(np.abs(start) <= 1e-12 * speed, 0.0, start)  # at rest to round-off: no approach, no slip
    closed = np.zeros(k, dtype=bool)
    closed[index] = True
    return _Impact(
        state,
        normal,
        damping,
        G,
        mu,
        w,
        begin,
        closed,
        growth is not None,
        min(rates),
        max(rates),
        speed,
        (jtu.tree_structure(normal), k, law.has_spring),
    )


def _solve_group(members: list[_Impact], rtol: float) -> list[tuple[int, NDArray, NDArray]]:
    """The batched solve of pairs of one law class and contact count: ``(code, velocities, impulses)`` each. The
    batch is padded to a power of two, so that sweeps of similar size share a compiled call."""
    size = 1 << (len(members) - 1).bit_length()
    padded = members + [members[0]] * (size - len(members))

    def stack(values):
        return jnp.asarray(np.stack(values))

    laws = jtu.tree_map(lambda *leaves: stack(leaves), *[m.law for m in padded])
    damping, G, mu, begin, closed, slowest, fastest, speed = (
        stack([getattr(m, name) for m in padded])
        for name in ("damping", "G", "mu", "begin", "closed", "slowest", "fastest", "speed")
    )
    batch = (laws, damping, G, mu, begin, closed, slowest, fastest, speed, jnp.asarray(rtol))
    has_spring = members[0].group[2]
    codes, velocities, impulses = _compiled(batch, has_spring)(batch)
    codes, velocities, impulses = np.asarray(codes), np.asarray(velocities), np.asarray(impulses)
    return [(int(codes[i]), velocities[i], impulses[i]) for i in range(len(members))]


#: The compiled batched solves of this process, by law structure, shapes and spring.
_COMPILED: dict[tuple, Callable] = {}


def _compiled(batch: tuple, has_spring: bool) -> Callable:
    """The batched solve compiled for ``batch``'s shapes: read back from the kept exports where a run traced it
    before (tracing diffrax's loop takes seconds, :mod:`regcontact._exported_programs`), else traced;
    kept for the process."""
    from regcontact._exported_programs import exported_or_traced

    leaves, treedef = jtu.tree_flatten(batch)
    key = (has_spring, treedef, tuple((leaf.shape, str(leaf.dtype)) for leaf in leaves))
    if key in _COMPILED:
        return _COMPILED[key]

    def solve(batch):
        return _batched(*batch, has_spring=has_spring)

    sharding = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    kept = exported_or_traced(solve, batch, sharding, (0, 0, 0), ("compliant_limits", has_spring))
    _COMPILED[key] = kept if kept is not None else eqx.filter_jit(solve)
    return _COMPILED[key]


def _batched(law, damping, G, mu, w, closed, slowest, fastest, speed, rtol, *, has_spring: bool):
    return jax.vmap(lambda *args: _one(*args, rtol=rtol, has_spring=has_spring), in_axes=(0,) * 9)(
        law, damping, G, mu, w, closed, slowest, fastest, speed
    )


def _one(law, damping, G, mu, w0, closed, slowest, fastest, speed, *, rtol, has_spring: bool):
    """One pair's limit impact (module docstring): ``(code, velocities (k, 2), impulses (k, 2))``."""
    import diffrax  # imported here: importing the package need not wait for diffrax

    k = w0.shape[0]

    def normal(gaps, rates):
        return jnp.where(closed, jax.vmap(lambda law, g, v: law(g, v))(law, gaps, rates), 0.0)

    onset, found = _onset(normal, jnp.where(closed, w0[:, 0], 0.0), slowest, fastest)
    zero = 1e-12 * speed

    def field(t, y, args):
        g, w = y[:k], y[k : 3 * k].reshape(k, 2)
        lam_n = normal(g, w[:, 0])
        limit = mu * lam_n
        lam_t = -jnp.clip(damping * w[:, 1], -limit, limit)
        lam = jnp.stack([lam_n, lam_t], axis=1).reshape(-1)
        return jnp.concatenate([w[:, 0], G @ lam, lam])

    def opened(y):
        g, v = y[:k], y[k : 3 * k : 2]
        separated = jnp.all(jnp.where(closed, (g >= 0) & (v >= 0), True))
        return separated & jnp.all(normal(g, v) == 0.0)

    def at_rest(y):
        return jnp.max(jnp.where(closed, jnp.abs(y[k : 3 * k : 2]), 0.0)) <= 0.01 * zero

    def ended(t, y, args, **kwargs):
        return opened(y) | (at_rest(y) if not has_spring else False)

    y0 = jnp.concatenate([-w0[:, 0] * onset, w0.reshape(-1), jnp.zeros(2 * k)])
    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(field),
        diffrax.Dopri8(),
        0.0,
        _HORIZON / slowest,
        None,
        y0,
        stepsize_controller=diffrax.PIDController(rtol=rtol, atol=rtol * speed * 1e-3, dtmax=60.0 / slowest),
        saveat=diffrax.SaveAt(t1=True),
        event=diffrax.Event(ended),
        max_steps=_MAX_STEPS,
        throw=False,
    )
    y = solution.ys[-1]
    g, w = y[:k], y[k : 3 * k].reshape(k, 2)
    resting = jnp.max(jnp.where(closed & (g <= 0), jnp.abs(w[:, 0]), 0.0)) <= 1e-9 * speed
    code = jnp.where(
        opened(y),
        _OPENED,
        jnp.where(at_rest(y) | ((solution.result == diffrax.RESULTS.successful) & resting), _REST, _NOT_ENDED),
    )
    return jnp.where(found, code, _NO_ONSET), w, y[3 * k :].reshape(k, 2)


def _onset(normal, v, slowest, fastest):
    """:func:`~regcontact.rigid.onset_time` on the impact scale, traced: the smallest ``τ₀ ≥ 0`` with no force at
    the gaps ``−v τ₀`` (zero for a law without force above the ground), and whether one was found."""
    scale = jnp.maximum(jnp.max(jnp.abs(v)) * fastest, 1e-300)

    def quiet(tau):
        return jnp.all(normal(-v * tau, v) <= 1e-12 * scale)

    step = 1e-12 / fastest

    def widen(carry):
        low, high, count = carry
        return high, 2.0 * high, count + 1

    low, high, count = jax.lax.while_loop(
        lambda carry: (carry[2] < 60) & ~quiet(carry[1]), widen, (step, 1.0 / slowest, 0)
    )

    def halve(carry):
        low, high, count = carry
        middle = 0.5 * (low + high)
        calm = quiet(middle)
        return jnp.where(calm, low, middle), jnp.where(calm, middle, high), count + 1

    low, high, _ = jax.lax.while_loop(
        lambda carry: (carry[2] < 200) & (carry[1] - carry[0] > 1e-15 * carry[1]), halve, (low, high, 0)
    )
    at_once = quiet(step)
    return jnp.where(at_once, 0.0, high), at_once | (count < 60)
