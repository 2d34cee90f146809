"""The promise a batched solve makes (``regcontact.compliant.batch_agreement``), asserted on the back end the
tests run on: round-off and the same steps on CPU; the solver's tolerance, and possibly other steps, on GPU."""

import jax
import numpy as np

from regcontact.compliant import batch_agreement


def assert_lanes_agree(batched, single, solver: str, rtol: float, atol: float, steps=None, same_compilation=True):
    """``batched`` equals ``single`` within the back end's promise; ``steps``: (batched, single) step counts,
    equal on CPU. ``same_compilation=False``: ``single`` comes from an un-vmapped compilation."""
    bound_rtol, bound_atol = batch_agreement(solver, rtol, atol, same_compilation=same_compilation)
    np.testing.assert_allclose(np.asarray(batched), np.asarray(single), rtol=bound_rtol, atol=bound_atol)
    if steps is not None and jax.default_backend() == "cpu":
        np.testing.assert_array_equal(np.asarray(steps[0]), np.asarray(steps[1]))
