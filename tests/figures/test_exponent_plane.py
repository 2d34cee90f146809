"""The mechanism behind "until contact breaks": with k_n = α^{e_k}, γ_n = α^{e_γ}, the Table 1
rod bounces off after the impulse when the spring outgrows the damper (e_k > e_γ) and stays down otherwise."""

import numpy as np
import pytest

from regcontact.figures._exponent_plane import contact_break_map

pytestmark = pytest.mark.slow


@pytest.mark.slow
def test_the_contact_breaks_above_the_diagonal_and_not_on_or_below_it():
    data = contact_break_map(exponents=(0.75, 1.0, 1.25))
    assert data["ok"].all()
    broke = data["broke"]  # [i_k, i_γ, i_α] over e = 0.75, 1, 1.25 and the six α of Table 1
    for i_k in range(3):
        for i_gamma in range(3):
            expected = i_k > i_gamma  # e_k > e_γ
            assert broke[i_k, i_gamma].all() == expected and broke[i_k, i_gamma].any() == expected, (i_k, i_gamma)
    # Preclik & Rüde's own scaling (1, 1) is on the diagonal: for this rod the contact does not break.
    assert not broke[1, 1].any()
    # Where it breaks, the integrals until the break still tend to Λ, at every α closer.
    distance = np.max(np.abs(data["integrals"] - data["impulse"]), axis=-1)
    assert np.all(np.diff(distance[2, 1]) < 0) and distance[2, 1, -1] < 1e-3


@pytest.mark.slow
def test_on_the_diagonal_the_contact_breaks_when_the_springs_push_exceeds_twice_the_slow_force():
    """k_n = k₀α, γ_n = γ₀α: the impulse leaves δ₀ = Λ_n/γ_n; the undamped rebound about δ_eq = λ_slow/k_n
    reaches zero iff δ₀ > 2 δ_eq, i.e. (k₀/γ₀) Λ_n > 2 λ_slow: k₀/γ₀ > 2 × 0.4539 / 0.3248 = 2.79 here."""
    import jax.numpy as jnp
    import jax.tree_util as jtu

    from regcontact.compliant import Case, Controls, SolveSettings, sweep
    from regcontact.compliant.termination import contact_time
    from regcontact.contact import ContactModel, SpringDamper
    from regcontact.systems import PainleveRod

    rod = PainleveRod()
    cases = [
        Case(
            system=rod,
            contact=ContactModel(normal=SpringDamper(stiffness=ratio, damping=1.0)),
            alpha=jnp.asarray(alpha),
            controls=Controls(t_max=10 * contact_time(rod, ratio * alpha)),
        )
        for ratio in (2.5, 3.0)
        for alpha in (1e3, 1e5, 1e7)
    ]
    runs, _ = sweep(jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases), SolveSettings(events=("contact_open",)))
    assert np.all(np.asarray(runs.ok))
    assert np.asarray(runs.termination).tolist() == [0, 0, 0, 1, 1, 1]


def test_digits_shared_with_the_paper():
    from regcontact.figures._table1_variants import agreeing_digits

    assert agreeing_digits([0.3638, 0.3249, 0.3249], [0.3688, 0.3249, 0.3250]).tolist() == [1, 4, 3]
    assert agreeing_digits([1.5], [0.3688]).tolist() == [0]  # more than 100 % off: no digit, never negative
