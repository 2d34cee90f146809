r"""
# An α-sweep and its convergence

As the stiffness multiplier α grows, the force integrals of the compliant rod approach the rigid impulse $\Lambda$
(the impulse-velocity LCP's solution, Preclik & Rüde's Table 1). Many α go through one compiled, vmapped solve
(`rc.alpha_sweep`); `regcontact.convergence.analyse` measures the distances $d(\alpha) = \max|\int\lambda - \Lambda|$
and fits the order $p$ in $d \approx C\alpha^{-p}$ over the tail.
"""

import matplotlib.pyplot as plt
import numpy as np

import regcontact as rc
from regcontact.convergence import analyse

rod = rc.PainleveRod()
contact = rc.ContactModel()
alpha = np.logspace(2, 6, 5)
runs, timings = rc.alpha_sweep(rod, contact, alpha, contact_times=1.0)
integrals = np.asarray(runs.force_integrals).reshape(len(alpha), -1, 2)[:, 0]  # contact 1: (∫λ_n, ∫λ_t) per α
print("all ok:", bool(np.all(runs.ok)))

references = rc.rigid_references(rod)
print("Λ (impulse-velocity):", references.impulse[0])

# %%
# The distances and the fitted order
# ----------------------------------
convergence = analyse(alpha, integrals, references.impulse[0], rtol=1e-10)  # alpha_sweep's default tolerance
if convergence.fit is not None:
    print(f"order p = {convergence.fit.order:.2f} over α in {convergence.fit.alpha_range}")
for warning in convergence.warnings:
    print("warning:", warning)

fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.2))
left.semilogx(alpha, integrals[:, 0], "o-", label=r"$\int\lambda_n\,dt$")
left.semilogx(alpha, integrals[:, 1], "s-", label=r"$\int\lambda_t\,dt$")
for value in references.impulse[0]:
    left.axhline(value, color="k", lw=0.8, ls="--")
left.set_xlabel("α")
left.legend()
left.set_title("force integrals, Λ dashed")
right.loglog(convergence.alpha, convergence.distances, "o-")
right.set_xlabel("α")
right.set_title("distance to Λ")
fig.tight_layout()

# %%
# A finished study holds the same analysis for every system of its sweep (`rc.run_study`, `results.json`). A
# loader for finished results and plotting helpers for these views are planned; until then, the table is
# `rc.run_study(...).table`.
