r"""
# A first solve and its contact forces

The Painlevé rod of Preclik & Rüde (Sec. 2.1) slides into contact; the rigid contact is replaced by a compliant one
whose stiffness is scaled by α. One solve gives the force integrals $\int\lambda_n\,dt$ and $\int\lambda_t\,dt$
over one contact time; the motion on a grid (`rc.trajectory`) gives the contact forces $\lambda(t)$ themselves,
from the contact laws at each state (`rc.contact_forces`).
"""

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt

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
# `rc.trajectory` returns the state at the requested times; the contact forces at a state are the contact laws
# evaluated there (the same function the vector field uses).
ts = jnp.linspace(0.0, controls.t_max, 400)
states, status = rc.trajectory(rod, contact, alpha, controls, rc.SolveSettings(), ts)
normal, friction = contact.at_stiffness(alpha)
system = rc.CompliantSystem(system=rod, normal=normal, friction=friction)
forces = jax.vmap(lambda q, v: rc.contact_forces(system, q, v))(states.q, states.v)  # (time, contact, (λ_n, λ_t))

fig, ax = plt.subplots(figsize=(6, 3.2))
ax.plot(ts, forces[:, 0, 0], label=r"$\lambda_n$")
ax.plot(ts, forces[:, 0, 1], label=r"$\lambda_t$")
ax.set_xlabel("t")
ax.set_ylabel("contact force")
ax.set_title(f"Painlevé rod, α = {alpha:.0e}")
ax.legend()
fig.tight_layout()

# %%
# The integral of the sampled force agrees with the one the solver carried along (a trapezoid on 400 points):
print("∫λ_n dt from the samples:", float(jnp.trapezoid(forces[:, 0, 0], ts)))
