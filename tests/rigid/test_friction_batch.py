"""The batched enumeration of the one-contact law (through :class:`LawTable`, as the studies use it) gives the exact
search's answers (:func:`multi_contact_friction_solutions`) bit for bit, and leaves the degenerate problems to it."""

import numpy as np
import pytest

from regcontact.rigid._formulations.contact_law import LawTable
from regcontact.rigid.lcp import friction_solutions_batch, multi_contact_friction_lcp, multi_contact_friction_solutions


def problems_of(W, b, mu):
    return [multi_contact_friction_lcp(W_i, b_i, [mu_i]) for W_i, b_i, mu_i in zip(W, b, mu)]


def contact_law_solutions_batch(W, b, mu):
    """Every law answered by a :class:`LawTable` after one batched solve."""
    problems, table = problems_of(W, b, mu), LawTable()
    for problem in problems:
        table.record(problem)
    table.solve()
    return [table(problem) for problem in problems]


def assert_same(fast, exact):
    """Same reactions (to the bit, signs of zeros included) and continua, in the same order."""
    assert fast.reactions.shape == exact.reactions.shape
    assert fast.reactions.tobytes() == exact.reactions.tobytes()
    assert len(fast.continua) == len(exact.continua)
    for box, exact_box in zip(fast.continua, exact.continua):
        assert box.tobytes() == exact_box.tobytes()


def random_laws(count, seed):
    """Positive definite ``W`` over six decades of ``b``, ``μ`` in [0, 3]; half with ``b_n = 0`` as the
    impulse-velocity problem of a contact at normal rest has it."""
    rng = np.random.default_rng(seed)
    factors = rng.normal(size=(count, 2, 2))
    W = factors @ np.swapaxes(factors, 1, 2) + 0.01 * np.eye(2)
    b = rng.normal(size=(count, 2)) * 10.0 ** rng.uniform(-3, 3, size=(count, 1))
    b[::2, 0] = 0.0
    return W, b, rng.uniform(0.0, 3.0, size=count)


@pytest.mark.slow
def test_batch_equals_one_at_a_time_on_random_laws():
    W, b, mu = random_laws(150, seed=11)
    fast = contact_law_solutions_batch(W, b, mu)
    on_fast_path = sum(found is not None for found in friction_solutions_batch(W, b, mu))
    assert on_fast_path >= 140  # the point of the batch: random problems are clear-cut
    for i in range(len(mu)):
        assert_same(fast[i], multi_contact_friction_solutions(multi_contact_friction_lcp(W[i], b[i], [mu[i]])))


def degenerate_laws():
    """Laws with a continuum, a singular index set or a solution on a tolerance threshold."""
    W = np.array([[2.0, 0.5], [0.5, 1.0]])
    stick = np.array([1.0, 0.5])  # λ_t = μ λ_n for μ = 0.5: sticking on the cone's edge
    edge = (W, -W @ stick, 0.5)
    singular = (np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([0.0, -1.0]), 1.0)  # W singular
    frictionless = (W, np.array([0.0, -1.0]), 0.0)
    no_slip = (W, np.array([-1.0, 0.0]), 1.0)  # b_t = 0
    painleve_boundary = (np.array([[1.0, -2.0], [-2.0, 5.0]]), np.array([0.0, -1.0]), 0.5)  # W_nn + μ W_nt = 0
    barely_closing = (W, np.array([-1e-12, -1.0]), 1.0)  # b_n at the threshold of Λ = 0
    return [edge, singular, frictionless, no_slip, painleve_boundary, barely_closing]


def test_degenerate_laws_fall_back_and_still_agree():
    """A singular ``W``, ``μ = 0``, the Painlevé boundary and ``b_n`` at the threshold of ``Λ = 0`` touch the singular
    index sets, so they fall back; sticking on the cone's edge and ``b_t = 0`` are decided by regular index sets
    alone (the search never puts ``λ⁺`` beside ``λ⁻``), which the batch solves as the search does. All agree."""
    laws = degenerate_laws()
    W, b, mu = (np.array(column) for column in zip(*laws))
    fell_back = [found is None for found in friction_solutions_batch(W, b, mu)]
    assert fell_back == [False, True, True, False, True, True]
    for (W_i, b_i, mu_i), fast in zip(laws, contact_law_solutions_batch(W, b, mu)):
        assert_same(fast, multi_contact_friction_solutions(multi_contact_friction_lcp(W_i, b_i, [mu_i])))


def test_units_do_not_change_the_path():
    """A law in other units (``W`` by 1e-12, ``b`` by 1e6) is as clear-cut, and the reactions scale exactly."""
    W, b, mu = random_laws(20, seed=5)
    rescaled = contact_law_solutions_batch(W * 2.0**-40, b * 2.0**20, mu)
    for solutions, plain in zip(rescaled, contact_law_solutions_batch(W, b, mu)):
        np.testing.assert_array_equal(solutions.reactions, plain.reactions * 2.0**60)
