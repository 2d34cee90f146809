r"""
# A body of one's own, from Python and from a study file

A ball (a point mass) slides onto flat ground with one frictional contact: $q = (x, y)$, the gaps
$g = (g_n, g_t) = (y, x)$, the Jacobian $W = \begin{pmatrix}0 & 1\\ 1 & 0\end{pmatrix}$ (constant, so
$\dot W v = 0$), $M = m I$, $h = (0, -mg)$. A subclass of `rc.AbstractSystem` is all it takes
([your own body](../own-body.md)). Here the class lives in `bodies.py`, as it would beside a study file.
"""

import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np

import regcontact as rc

folder = Path(tempfile.mkdtemp())
(folder / "bodies.py").write_text(
    textwrap.dedent(
        '''
        import jax.numpy as jnp

        from regcontact import AbstractSystem


        class Ball(AbstractSystem):
            """A point mass above the ground y = 0: one contact, gaps (y, x)."""

            NUM_CONTACTS = 1

            mass: jnp.ndarray
            gravity: jnp.ndarray
            mu: jnp.ndarray
            height: jnp.ndarray
            vx0: jnp.ndarray
            vy0: jnp.ndarray

            def __init__(self, vy0, mass=1.0, gravity=0.0, mu=0.5, height=0.0, vx0=0.0):
                self.mass, self.gravity, self.mu = (jnp.asarray(a, float) for a in (mass, gravity, mu))
                self.height, self.vx0, self.vy0 = (jnp.asarray(a, float) for a in (height, vx0, vy0))

            def mass_matrix(self, q):
                return self.mass * jnp.eye(2)

            def forces(self, q, v, t):
                return jnp.stack([jnp.zeros_like(self.mass), -self.mass * self.gravity])

            def gaps(self, q):
                return jnp.stack([q[1], q[0]])[None]

            def jacobians(self, q):
                return jnp.array([[[0.0, 1.0], [1.0, 0.0]]])

            def jacobian_rates(self, q, v):
                return jnp.zeros((1, 2))

            @property
            def friction_coefficients(self):
                return self.mu[None]

            def potential_energy(self, q):
                return self.mass * self.gravity * q[1]

            def initial_state(self):
                return jnp.stack([jnp.zeros_like(self.height), self.height]), jnp.stack([self.vx0, self.vy0])

            @property
            def length_scale(self):
                return jnp.asarray(1.0)
        '''
    )
)

# %%
# From Python
# -----------
# The ball hits the ground at $v_y = -1$ while sliding at $v_x = 0.3$, with $\mu = 0.2$. A run ends when the
# contact opens (the event `contact_open`). The normal impulse of a bounce with the Eq. 22 model is
# $m(1 + e)$ for a restitution $e$ set by the damping ratio; friction takes $\mu$ times it from the sliding
# unless the ball sticks first.
sys.path.insert(0, str(folder))
from bodies import Ball  # noqa: E402

ball = Ball(vy0=-1.0, vx0=0.3, mu=0.2)
alpha = 1e4
run = rc.solve(ball, rc.ContactModel(), alpha, rc.Controls(t_max=10.0))
print("ok:", bool(run.ok), "ended by:", run.status_name)
print("∫λ_n dt, ∫λ_t dt:", np.asarray(run.force_integrals))

# %%
# The bounce's forces: `rc.force_history` samples $\lambda(t)$ of the same run on a grid (after the contact
# opens, the samples are `nan`). The normal force jumps at touch-down (the damper) and friction follows it at
# $-\mu\lambda_n$ while the ball slides.
ts = np.linspace(0.0, 1e-3, 400)
history = rc.force_history(ball, rc.ContactModel(), alpha, rc.Controls(t_max=10.0), rc.SolveSettings(), ts)
ax = rc.plot.forces(history)
ax.set_title(f"a ball of one's own bouncing, α = {alpha:.0e}")
ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
ax.figure.tight_layout()

# %%
# From a study file
# -----------------
# The same class named in `[system] kind`; its constructor's parameters are the table's keys, and can be swept
# like a built-in body's. `regcontact run ball.toml` runs it from the command line; `rc.run_study` from Python.
(folder / "ball.toml").write_text(
    textwrap.dedent(
        """
        [study]
        name = "ball"

        [system]
        kind = "bodies.py:Ball"     # a file beside this study
        vy0 = -1.0
        vx0 = 0.3
        mu = 0.2

        [termination]
        time_limit = 10.0

        [references]
        impulse_velocity = false
        compliant_limit = false

        [sweep]
        alpha = [1e2, 1e4]
        mass = [1.0, 2.5]
        """
    )
)
study = rc.run_study(folder / "ball.toml")
print(study.table.to_string(max_cols=8))
