"""The semismooth Newton step of the Radau IIA solvers (:class:`~regcontact.compliant.solvers.RadauIIA5`,
:class:`~regcontact.compliant.solvers.RadauIIA9`) for a mechanical state, on the velocities only.

A compliant state is ``y = (q, v, P)`` with ``q̇ = v``, ``v̇ = a(t, q, v)`` and ``Ṗ = λ(q, v)`` (``P``: the force
integrals, which feed nothing back). Split the stage increments the same way, ``Z = (Z_q, Z_v, Z_P)`` (each
``s × ·`` for ``s`` stages), and the Newton system ``(A⁻¹ ⊗ I − diag(h J_i)) ΔZ = −G(Z)`` of the ``sN × sN`` stage
Jacobians has rows

    q:  A⁻¹ (Z_q + ΔZ_q) = h F_q + h J_qv,i ΔZ_v,i           (h J_qv = h I, h F_q = h (v0 + Z_v))
    v:  A⁻¹ (Z_v + ΔZ_v) = h F_v + h K_i ΔZ_q,i + h C_i ΔZ_v,i   (K = ∂a/∂q, C = ∂a/∂v at stage i)
    P:  A⁻¹ (Z_P + ΔZ_P) = h F_P + h J_Pq,i ΔZ_q,i + h J_Pv,i ΔZ_v,i

(stage-wise products; ``A⁻¹`` mixes stages). The q and P rows are solved by ``A``: with the q-row defect
``d = A h F_q − Z_q``, ``ΔZ_q,i = d_i + Σ_j A_ij h J_qv,j ΔZ_v,j``; inserted in the v rows this leaves one
``sn × sn`` system for ``ΔZ_v`` (9 × 9 for the rod with three stages, against 24 × 24; 15 × 15 with five):

    Σ_j [A⁻¹_ij I − δ_ij h C_i − h K_i A_ij h J_qv,j] ΔZ_v,j = −(A⁻¹ Z_v − h F_v)_i + h K_i d_i,

then ``ΔZ_q`` as above and ``Z_P + ΔZ_P = A (h F_P + h J_Pq ΔZ_q + h J_Pv ΔZ_v)``. This is block elimination of the
same linear system, so the iterates are the full Newton's up to rounding (tested), and the Jacobians are taken
with respect to ``(q, v)`` only (``2n`` tangents, not ``N``).

The filtered error estimate ``(γ I − h J) x = r`` splits the same way at the last stage:
``(γ I − h C − h K h J_qv / γ) x_v = r_v + h K r_q / γ``, ``x_q = (r_q + h J_qv x_v) / γ``,
``x_P = (r_P + h J_Pq x_q + h J_Pv x_v) / γ``.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
from jaxtyping import Array, Float

from regcontact.compliant.solvers._fused_products import matvec, stage_mix, stagewise

__all__ = ["second_order_filter", "second_order_newton_step"]


def second_order_newton_step(
    h_f: Callable[[Array, Array], Array],
    stage_times: Float[Array, " s"],
    y0: Float[Array, " N"],
    Z: Float[Array, "s N"],
    n: int,
    A: Float[Array, "s s"],
    A_inv: Float[Array, "s s"],
) -> tuple[Float[Array, "s N"], Float[Array, "N 2n"]]:
    """One Newton correction ``ΔZ`` of the collocation equations (see the module docstring), and ``h J`` with
    respect to ``(q, v)`` at the last stage (for the error filter). ``y0 = (q0, v0, P0)``, ``q`` and ``v`` of
    size ``n`` each."""
    dtype = y0.dtype
    stages = A.shape[0]
    eye = jnp.eye(n, dtype=dtype)

    def h_f_and_jacobian(t, y):
        def of_qv(qv):
            return h_f(t, jnp.concatenate([qv, y[2 * n :]]))

        jacobian, value = jax.jacfwd(lambda qv: (of_qv(qv), of_qv(qv)), has_aux=True)(y[: 2 * n])
        return value, jacobian

    hF, hJ = jax.vmap(h_f_and_jacobian)(stage_times, y0[None, :] + Z)  # (s, N), (s, N, 2n)
    q, v = slice(0, n), slice(n, 2 * n)
    hJ_qv, hK, hC = hJ[:, q, v], hJ[:, v, q], hJ[:, v, v]
    hJ_P = hJ[:, 2 * n :, :]

    defect_q = stage_mix(A, hF[:, q]) - Z[:, q]
    residual_v = stage_mix(A_inv, Z[:, v]) - hF[:, v]
    rhs = -residual_v + stagewise(hK, defect_q)
    # block (i, j) = A⁻¹_ij I − δ_ij hC_i − A_ij hK_i hJ_qv,j
    coupling = (hK[:, None, :, :, None] * hJ_qv[None, :, None, :, :]).sum(axis=3)  # hK_i hJ_qv,j
    blocks = (
        A_inv[:, :, None, None] * eye[None, None]
        - jnp.eye(stages, dtype=dtype)[:, :, None, None] * hC[:, None, :, :]
        - A[:, :, None, None] * coupling
    )
    matrix = blocks.transpose(0, 2, 1, 3).reshape(stages * n, stages * n)
    dZ_v = jnp.linalg.solve(matrix, rhs.reshape(-1)).reshape(stages, n)
    dZ_q = defect_q + stage_mix(A, stagewise(hJ_qv, dZ_v))
    dZ_qv = jnp.concatenate([dZ_q, dZ_v], axis=1)
    Z_P = stage_mix(A, hF[:, 2 * n :] + stagewise(hJ_P, dZ_qv))
    dZ = jnp.concatenate([dZ_qv, Z_P - Z[:, 2 * n :]], axis=1)
    return dZ, hJ[-1]


def second_order_filter(hJ: Float[Array, "N 2n"], gamma: float, r: Float[Array, " N"], n: int) -> Float[Array, " N"]:
    """``(γ I − h J)⁻¹ r`` for ``h J = [[0, hJ_qv, 0], [hK, hC, 0], [hJ_Pq, hJ_Pv, 0]]`` (module docstring)."""
    q, v = slice(0, n), slice(n, 2 * n)
    hJ_qv, hK, hC = hJ[q, v], hJ[v, q], hJ[v, v]
    eye = jnp.eye(n, dtype=r.dtype)
    product = (hK[:, :, None] * hJ_qv[None, :, :]).sum(axis=1)  # hK hJ_qv
    x_v = jsl.lu_solve(jsl.lu_factor(gamma * eye - hC - product / gamma), r[v] + matvec(hK, r[q]) / gamma)
    x_q = (r[q] + matvec(hJ_qv, x_v)) / gamma
    x_P = (r[2 * n :] + matvec(hJ[2 * n :], jnp.concatenate([x_q, x_v]))) / gamma
    return jnp.concatenate([x_q, x_v, x_P])
