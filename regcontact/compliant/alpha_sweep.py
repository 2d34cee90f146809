"""An α-sweep of one system and one contact model: the batch of cases built for you, solved in one call."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from jaxtyping import ArrayLike

from regcontact._argument_checks import POSITIVE, ArgumentError, check_argument, check_count
from regcontact.compliant._solve import CompliantRun, Controls, SolveSettings
from regcontact.compliant._sweep import Case, SweepTimings, sweep
from regcontact.compliant.termination import contact_time, window_expectation
from regcontact.contact import ContactModel, is_per_contact
from regcontact.systems.system import AbstractSystem

__all__ = ["alpha_sweep", "contact_time_windows"]


def contact_time_windows(
    system: AbstractSystem, contact: ContactModel, alphas: ArrayLike, contact_times: ArrayLike = 1.0
) -> np.ndarray:
    """``contact_times`` contact times ``π √(m_n / k(α))`` per α: each run's window. An α whose window is no time
    (``k(α)`` zero or overflowing float64, as extreme exponents give) is refused naming ``alphas``."""
    check_argument("alphas", alphas, POSITIVE)
    check_argument("contact_times", contact_times, POSITIVE)
    alpha = np.atleast_1d(np.asarray(alphas, dtype=float))
    stiffness_name = type(contact.normal).LINEAR_STIFFNESS
    if stiffness_name is None:
        raise ValueError(
            f"contact_times needs a normal law with a linear stiffness, not {type(contact.normal).__name__}"
        )
    if is_per_contact(contact.normal) or is_per_contact(contact.normal_exponents):
        raise ValueError(
            f"contact_times needs one {stiffness_name} for all contacts (t_c = π √(m_n / k)), not one per contact"
        )
    normal, _ = contact.at_stiffness(jnp.asarray(alpha))
    stiffness = np.asarray(getattr(normal, stiffness_name))
    limits = np.asarray(contact_times) * np.asarray(jax.vmap(lambda k: contact_time(system, k))(stiffness))
    bad = ~(np.isfinite(limits) & (limits > 0.0))
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ArgumentError("alphas", float(alpha[i]), window_expectation(float(limits[i])))
    return limits


def alpha_sweep(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike | Sequence[float],
    *,
    contact_times: float | None = None,
    t_max: float | None = None,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    settings: SolveSettings | None = None,
    chunk_size: int | None = None,
    devices: Sequence[jax.Device] | None = None,
) -> tuple[CompliantRun, SweepTimings]:
    """Solve ``system`` with ``contact`` at every stiffness multiplier in ``alphas``, in one compiled, vmapped call.

    Args:
        system: the body (one, not a batch).
        contact: the contact model (one, not a batch).
        alphas: the stiffness multipliers α, each positive.
        contact_times: end each run after this many contact times ``π √(m_n / k_n(α))`` of its own α (the
            Table 1 window); needs a normal law with a linear stiffness.
        t_max: or end every run at this fixed time. Give exactly one of ``contact_times`` and ``t_max``.
        rtol: relative tolerance, in [2.2e-14, 1).
        atol: absolute tolerance, positive.
        settings: solver, events and step budget (default: :class:`~regcontact.compliant.SolveSettings`
            with its defaults).
        chunk_size: cases per compiled call (default: chosen from the devices and their memory).
        devices: the devices to shard each chunk across (default: every device of JAX's default back end).

    Returns:
        The runs, batched along a leading axis in the order of ``alphas`` (host arrays: ``runs.ok``,
        ``runs.status_name``, ``runs.force_integrals``), and the compile and solve times.

    Examples:
        >>> import regcontact as rc
        >>> rod = rc.PainleveRod()
        >>> runs, timings = rc.alpha_sweep(rod, rc.ContactModel(), [1e3, 1e6], contact_times=1.0)
        >>> runs.force_integrals.round(6).tolist()
        [[0.363774, 0.448217], [0.325839, 0.437779]]
    """
    if (contact_times is None) == (t_max is None):
        raise ValueError("alpha_sweep needs exactly one of contact_times (a window per α) and t_max (a fixed time)")
    if np.size(alphas) == 0 or np.ndim(alphas) > 1:
        raise ArgumentError("alphas", alphas, "a non-empty list of positive numbers")
    check_argument("alphas", alphas, POSITIVE)
    alpha = np.atleast_1d(np.asarray(alphas, dtype=float))
    if chunk_size is not None:
        check_count("chunk_size", chunk_size)
    if contact_times is not None:
        limits = contact_time_windows(system, contact, alpha, contact_times)
    else:
        check_argument("t_max", t_max, POSITIVE)
        limits = np.full(alpha.shape, float(t_max))  # type: ignore[arg-type]
    count = alpha.size
    batched = lambda leaf: np.broadcast_to(np.asarray(leaf), (count, *np.shape(leaf)))  # noqa: E731
    cases = Case(
        system=jtu.tree_map(batched, system),
        contact=jtu.tree_map(batched, contact),
        alpha=alpha,
        controls=Controls(rtol=np.full(count, rtol), atol=np.full(count, atol), t_max=limits),
    )
    return sweep(cases, settings or SolveSettings(), chunk_size=chunk_size, devices=devices)
