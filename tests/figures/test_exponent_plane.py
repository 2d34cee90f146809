"""The mechanism behind "until contact breaks" (issue 10, point 3): with k_n = α^{e_k}, γ_n = α^{e_γ}, the Table 1
rod bounces off after the impulse when the spring outgrows the damper (e_k > e_γ) and stays down otherwise."""

import numpy as np

from regcontact.figures.exponent_plane import contact_break_map


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
