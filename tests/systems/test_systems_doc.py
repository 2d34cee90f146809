"""The user-defined body of docs/systems.md runs as written, and slides as Coulomb says."""

import re
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

pytestmark = pytest.mark.slow

DOC = Path(__file__).parents[2] / "docs" / "systems.md"


def test_the_documented_body_runs_and_slides_as_coulomb_says():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102 - the doc's own example
    run, block = namespace["run"], namespace["block"]
    theta, mu, g, t = 0.5, 0.3, 10.0, float(run.t_end)
    along_slope = float(run.state_end.v @ jnp.stack([jnp.cos(theta), jnp.sin(theta)]))
    np.testing.assert_allclose(-along_slope, g * (np.sin(theta) - mu * np.cos(theta)) * t, rtol=1e-4)
    assert block.NUM_CONTACTS == 1
