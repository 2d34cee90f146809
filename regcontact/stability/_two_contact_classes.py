"""Two forward-slipping contacts classified (Champneys & Várkonyi 2016, Sec. 6.1): the Painlevé matrix ``p⁺``,
the class code ``s₁s₂s₃`` and the dual configuration (``docs/stability.md``, "Two contacts")."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Int

from regcontact.stability._checks import check_values

TWO_CONTACT_MODE_NAMES: tuple[str, ...] = ("FF", "S+S+", "S+F", "FS+")
IMPACT_NAMES: tuple[str, ...] = ("IF", "FI", "II")

_TWO_PI = 2.0 * np.pi
_AXES = np.array([0.5 * np.pi, np.pi, 1.5 * np.pi])  # interior interval bounds shared by s₁, s₂, s₃


def painleve_matrix(
    normal_normal: Float[Array, "... 2 2"], normal_tangential: Float[Array, "... 2 2"], mu: Float[Array, "... 2"]
) -> Float[Array, "... 2 2"]:
    """The Painlevé matrix of two forward-slipping contacts, ``p⁺_ij = C_ij − μ_j B_ij`` (Sec. 6.1, Eq. 13 for two
    contacts): the normal acceleration of contact ``i`` per unit normal slipping force at contact ``j``.

    Args:
        normal_normal: ``C_ij = d_iᵀM⁻¹d_j``.
        normal_tangential: ``B_ij = d_iᵀM⁻¹c_j``.
        mu: the friction coefficients ``μ_j ≥ 0``.

    Returns:
        ``p⁺``, elementwise over leading axes.

    Examples:
        >>> import jax.numpy as jnp
        >>> from regcontact.stability import painleve_matrix
        >>> painleve_matrix(jnp.eye(2), jnp.array([[0.0, 1.0], [1.0, 0.0]]), jnp.array([0.5, 0.5]))
        Array([[ 1. , -0.5],
               [-0.5,  1. ]], dtype=float64)
    """
    check_values(normal_normal=normal_normal, normal_tangential=normal_tangential, mu=mu)
    normal_normal, normal_tangential, mu = (jnp.asarray(x, dtype=float) for x in (normal_normal, normal_tangential, mu))
    return normal_normal - normal_tangential * mu[..., None, :]


def _angle(vector: Float[Array, "... 2"]) -> Float[Array, ...]:
    """Angle from ``[1 0]ᵀ`` in ``[0, 2π)``."""
    return jnp.mod(jnp.arctan2(vector[..., 1], vector[..., 0]), _TWO_PI)


def _interval_index(angle: Float[Array, ...], bounds: Float[Array, "... m"]) -> Int[Array, ...]:
    """1-based index of the interval of ``[0, 2π]`` cut at the interior points ``bounds`` that holds ``angle``."""
    return 1 + jnp.sum(bounds < angle[..., None], axis=-1)


def class_code(painleve: Float[Array, "... 2 2"], b: Float[Array, "... 2"]) -> Int[Array, "... 3"]:
    """The class code ``s₁s₂s₃`` of Sec. 6.1, which decides the consistent modes (``docs/stability.md``, "Two
    contacts"): ``s₁`` the quadrant of the column ``p₁``, ``s₂`` where ``p₂`` lies among ``0, γ̂₁, γ₁`` and the
    axes, ``s₃`` where ``−b`` lies among ``0, γ₁, γ₂`` and the axes (angles from ``[1 0]ᵀ`` in ``[0, 2π)``).

    Args:
        painleve: the Painlevé matrix ``p⁺`` (:func:`painleve_matrix`).
        b: the free normal accelerations.

    Returns:
        The digits ``(s₁, s₂, s₃)``, elementwise over leading axes (jit- and vmap-able).

    Examples:
        >>> import jax.numpy as jnp
        >>> from regcontact.stability import class_code, class_label
        >>> p = jnp.array([[-0.055, 0.088], [0.055, -0.036]])  # Fig. 15 A
        >>> class_label(class_code(p, jnp.array([-1.0, -1.0])))
        '261'
    """
    check_values(painleve=painleve, b=b)
    painleve, b = jnp.asarray(painleve, dtype=float), jnp.asarray(b, dtype=float)
    gamma_1, gamma_2 = _angle(painleve[..., :, 0]), _angle(painleve[..., :, 1])
    gamma_hat_1 = jnp.mod(gamma_1 + np.pi, _TWO_PI)
    beta = _angle(-b)
    axes = jnp.broadcast_to(_AXES, gamma_1.shape + (3,))
    s1 = _interval_index(gamma_1, axes)
    s2 = _interval_index(gamma_2, jnp.concatenate([axes, gamma_hat_1[..., None], gamma_1[..., None]], axis=-1))
    s3 = _interval_index(beta, jnp.concatenate([axes, gamma_1[..., None], gamma_2[..., None]], axis=-1))
    return jnp.stack([s1, s2, s3], axis=-1)


def class_label(code: ArrayLike) -> str:
    """``"261"`` for the digits ``(2, 6, 1)`` of one configuration (``"26"`` for two digits)."""
    return "".join(str(int(digit)) for digit in np.asarray(code))


def swap_contacts(painleve: Float[Array, "... 2 2"], b: Float[Array, "... 2"]):
    """The dual configuration of Sec. 6.1: contacts 1 and 2 relabelled (``p⁺ → S p⁺ S``, ``b → S b``)."""
    painleve, b = jnp.asarray(painleve, dtype=float), jnp.asarray(b, dtype=float)
    return painleve[..., ::-1, ::-1], b[..., ::-1]
