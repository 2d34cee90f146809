r"""
# A first solve and its contact forces

The Painlevé rod of Preclik & Rüde (Sec. 2.1) slides into contact; the rigid contact is replaced by a compliant one
whose stiffness is scaled by α. One solve gives the force integrals $\int\lambda_n\,dt$ and $\int\lambda_t\,dt$
over one contact time; the motion on a grid (`rc.trajectory`) gives the contact forces $\lambda(t)$ themselves,
from the contact laws at each state (`rc.force_history`).
"""

import jax.numpy as jnp

import regcontact as rc

rod = rc.PainleveRod()  # the Sec. 2.1 rod: μ = 2, φ₀ = 1.0, ...
contact = rc.ContactModel()  # Eq. 22 spring-damper and viscous Coulomb friction, scaled by α
alpha = 1e4
controls = rc.Controls(t_max=rc.contact_time(rod, alpha))
run = rc.solve(rod, contact, alpha, controls)
print("ok:", bool(run.ok), "status:", run.status_name)
print("∫λ_n dt, ∫λ_t dt:", run.force_integrals)

# %%
# The forces along the run
# ------------------------
# `rc.force_history` solves as `rc.trajectory` does (the state at the requested times) and evaluates the contact
# laws at each state, as the vector field does: $\lambda(t)$ on a grid.
ts = jnp.linspace(0.0, controls.t_max, 400)
history = rc.force_history(rod, contact, alpha, controls, rc.SolveSettings(), ts)
ax = rc.plot.forces(history)
ax.set_title(f"Painlevé rod, α = {alpha:.0e}")
ax.figure.tight_layout()

# %%
# The integral of the sampled forces (a trapezoid on 400 points) is close to the one the solver carried along;
# the difference is the trapezoid's error on the sharp peak (about 40 samples wide), which a finer grid shrinks.
print("∫λ dt from the samples:", history.integral()[0])
