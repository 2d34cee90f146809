"""Radau IIA of order 5 (three stages) and order 9 (five stages) as diffrax solvers, after Hairer & Wanner,
*Solving ODEs II*, IV.8, and Hairer's codes RADAU5 and RADAU.

The ``s`` stage increments ``Z = (z_1, …, z_s)``, ``z_i = Y_i − y0``, solve the collocation equations

    G(Z) = (A⁻¹ ⊗ I) Z − h F(Z) = 0,        F(Z)_i = f(t0 + c_i h, y0 + z_i).

The method has order ``2s − 1``, is L-stable and stiffly accurate (``c_s = 1``: the last stage is ``y1``).

**Newton with stage Jacobians.** The textbook method iterates with one Jacobian ``J(y0)`` for all stages
(and then splits the Newton matrix by the eigenvalues of ``A⁻¹``). For contact laws that is not enough: the
Jacobian jumps on switching surfaces, and a step that starts outside a stiff region (slipping, just outside the
narrow viscous band of the friction law) but ends inside it never sees the stiffness with ``J(y0)``; the
iteration diverges for every step longer than about ``m/γ_t``, which is what stalls a solve at α = 1e12 (see
``docs/solvers.md``). Here every iteration uses each stage's own Jacobian, ``(A⁻¹ ⊗ I) − diag(h J(Y_i))``, a
``sn × sn`` system: a semismooth Newton method, which lands on the right piece of a piecewise-smooth field.
Because it converges quadratically, the iteration stops once a correction is below the Newton tolerance
(after at least two iterations, so that the last Jacobian was taken on the piece the solution lies on).

**Filtered error estimate.** The raw difference to an embedded method of order ``s`` (which has an explicit
stage at ``t0``, weight ``γ₀ = 1/γ`` with ``γ`` the real eigenvalue of ``A⁻¹``) is multiplied by
``(I − h γ₀ J)⁻¹``: for a stiff component (``hλ → −∞``) the factor sends the raw estimate to zero, as the true
error of the L-stable method does; without it the estimate stays ``O(1)`` and the step size collapses. The
embedded method is implicit in its last term at ``t1``, so ``J`` is taken at the end of the step (the last
stage). Hairer's second filtering of failed estimates (through ``f(y0 + err)``) is *not* used: measured on a
stiff linear test and on the rod, it accepts steps whose true error is far above the tolerance, and it more than
doubles the steps of the rod at α = 1e12 (``docs/solvers.md``).

**Tolerances.** The estimate is of order ``s`` (its local error ``O(h^(s+1))``) while the solution's local
error is ``O(h^(2s))``, so at a given tolerance the solution is far more accurate than asked. With
``radau5_tolerances`` (default) the estimate is compared with Hairer's transformed tolerances
``rtol' = 0.1 rtol^((s+1)/(2s))``, ``atol' = atol rtol'/rtol`` (``rtol^(2/3)`` for RADAU5, ``rtol^(3/5)`` for
the five stages of RADAU): an estimate ``h^(s+1)`` held to ``rtol'`` leaves a local error ``h^(2s)`` of about
``rtol`` itself. The Newton iteration keeps the untransformed (tighter) ones.

The dense output is the collocation polynomial (degree ``s``, through ``y0`` and the stages).

Every number of the method (``c``, ``A``, ``γ``, the error weights, the dense-output matrix) is *derived* at
import from the collocation nodes, not typed in (:func:`radau_iia_tableau`).
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from typing import ClassVar, Literal, NamedTuple

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import optimistix as optx
from jax.flatten_util import ravel_pytree
from jaxtyping import Array, ArrayLike, Bool, Float, PyTree

from regcontact._argument_checks import ArgumentError, check_count
from regcontact.compliant.solvers._fused_products import stage_mix
from regcontact.compliant.solvers._second_order_newton import second_order_filter, second_order_newton_step
from regcontact.compliant.solvers.polynomial_interpolation import PolynomialInterpolation

__all__ = [
    "NewtonTolerances",
    "RadauIIA5",
    "RadauIIA5Tableau",
    "RadauIIA9",
    "RadauIIATableau",
    "radau_iia5_tableau",
    "radau_iia_tableau",
    "radau_nodes",
]


# -- the method's numbers, derived from its nodes ------------------------------------------------------------


class RadauIIATableau(NamedTuple):
    """Numbers of the ``s``-stage Radau IIA method (see :func:`radau_iia_tableau`)."""

    c: np.ndarray
    A: np.ndarray
    A_inv: np.ndarray
    gamma: float
    error_weights: np.ndarray
    dense: np.ndarray
    transform: np.ndarray
    transform_inv: np.ndarray
    complex_shifts: tuple[complex, ...]

    @property
    def stages(self) -> int:
        return len(self.c)

    @property
    def order(self) -> int:
        """Order of the solution, ``2s − 1``."""
        return 2 * self.stages - 1

    @property
    def error_order(self) -> int:
        """Power of ``h`` of the error estimate: the embedded method has order ``s``, its local error
        ``O(h^(s+1))``."""
        return self.stages + 1

    @property
    def tolerance_exponent(self) -> float:
        """``(s + 1) / (2s)``: Hairer's codes hold the estimate to ``rtol' = 0.1 rtol^((s+1)/(2s))``."""
        return (self.stages + 1) / (2 * self.stages)

    @property
    def complex_shift(self) -> complex:
        """The shift ``p − i q`` of the first complex pair (the only one for three stages)."""
        return self.complex_shifts[0]


#: Three-stage numbers: the name RadauIIA5 has always exported.
RadauIIA5Tableau = RadauIIATableau


def radau_nodes(stages: int) -> np.ndarray:
    """The Radau IIA nodes: the zeros of ``d^(s−1)/dx^(s−1) [x^(s−1) (x − 1)^s]``, the last one ``c_s = 1``.

    Three stages: the closed form ``(4 ∓ √6)/10`` evaluated in float64 (the numbers ``RadauIIA5`` has always
    used; the first lies one unit in the last place from the correctly rounded value). Otherwise numpy's roots
    (up to about a hundred units in the last place off for five stages) refined by Newton's method in 40-digit
    decimal arithmetic on the polynomial's exact integer coefficients, then rounded to float64.
    """
    if stages == 3:
        r6 = np.sqrt(6.0)
        return np.array([(4.0 - r6) / 10.0, (4.0 + r6) / 10.0, 1.0])
    s = stages
    # x^(s−1) (x − 1)^s = Σ_k C(s, k) (−1)^(s−k) x^(k+s−1), differentiated s − 1 times: exact integers
    coefficients = [0] * (s + 1)  # of x^0 … x^s
    for k in range(s + 1):
        power = k + s - 1
        coefficients[power - (s - 1)] = (
            math.comb(s, k) * (-1) ** (s - k) * math.factorial(power) // math.factorial(power - s + 1)
        )
    rough = np.sort(np.polynomial.Polynomial(np.array(coefficients, dtype=float)).roots().real)
    with decimal.localcontext() as context:
        context.prec = 40

        def value_and_slope(x: decimal.Decimal) -> tuple[decimal.Decimal, decimal.Decimal]:
            value, slope = decimal.Decimal(0), decimal.Decimal(0)
            for coefficient in reversed(coefficients):
                slope = slope * x + value
                value = value * x + coefficient
            return value, slope

        nodes = []
        for root in rough[:-1]:
            x = decimal.Decimal(float(root))
            for _ in range(8):
                value, slope = value_and_slope(x)
                x -= value / slope
            nodes.append(float(x))
    return np.array([*nodes, 1.0])


def radau_iia_tableau(stages: int = 3) -> RadauIIATableau:
    """Nodes, collocation matrix, real eigenvalue of ``A⁻¹``, error weights and dense-output matrix of the
    ``stages``-stage Radau IIA method (odd ``stages``, so that ``A⁻¹`` has one real eigenvalue).

    * ``c``: :func:`radau_nodes`.
    * ``A[i, j] = ∫_0^{c_i} ℓ_j(s) ds`` with ``ℓ_j`` the Lagrange basis on ``c`` (collocation); ``b = A[-1]``.
    * ``gamma``: the real eigenvalue of ``A⁻¹`` (the others are complex pairs).
    * ``error_weights`` ``e``: ``err = (γ I − hJ)⁻¹ (h f(y0) + Σ_i e_i z_i)``, from the embedded method
      ``ŷ1 = y0 + h (γ₀ f(y0) + Σ b̂_i f(Y_i))``, ``γ₀ = 1/γ``, of order ``s``
      (``Σ_i b̂_i c_i^(q−1) = 1/q − γ₀ [q = 1]`` for ``q = 1 … s``) and ``h f(Y_i) = (A⁻¹ Z)_i``:
      ``γ (ŷ1 − y1) = h f(y0) + Σ e_i z_i`` with ``e = γ (b̂ − b)ᵀ A⁻¹``.
    * ``dense``: ``β = dense @ Z`` gives ``u(s) = y0 + Σ_k β_k s^k`` through ``u(c_i) = y0 + z_i``.
    * ``transform`` ``T`` (and its inverse): ``T⁻¹ A⁻¹ T = diag(γ) ⊕ [[p, q], [−q, p]] ⊕ …``, built from a real
      eigenvector of ``A⁻¹`` and the real and imaginary parts of a complex one of each pair (Hairer & Wanner
      IV.8). With ``Z = T W`` the simplified Newton system ``(A⁻¹ ⊗ I − I ⊗ hJ) ΔZ = r`` splits into
      ``(γ I − hJ) ΔW_1`` and ``((p − i q) I − hJ) (ΔW_2 + i ΔW_3)``, …; ``complex_shifts`` are the ``p − i q``.
    """
    if stages < 1 or stages % 2 == 0:
        raise ValueError(f"stages = {stages}: expected an odd number of at least 1")
    s = stages
    c = radau_nodes(s)
    P = np.polynomial.Polynomial
    A = np.empty((s, s))
    for j in range(s):
        basis = P([1.0])
        for m in range(s):
            if m != j:
                basis = basis * P([-c[m], 1.0]) / (c[j] - c[m])
        antiderivative = basis.integ()
        A[:, j] = antiderivative(c) - antiderivative(0.0)
    A_inv = np.linalg.inv(A)

    eigenvalues = np.linalg.eigvals(A_inv)
    gamma = float(eigenvalues[np.argmin(np.abs(eigenvalues.imag))].real)

    powers = np.vander(c, s, increasing=True).T  # rows c^0, c^1, …, c^(s−1)
    b_hat = np.linalg.solve(powers, np.array([1.0 - 1.0 / gamma, *(1.0 / q for q in range(2, s + 1))]))
    error_weights = gamma * (b_hat - A[-1]) @ A_inv

    dense = np.linalg.inv(np.stack([c**k for k in range(1, s + 1)], axis=1))

    eigenvalues, eigenvectors = np.linalg.eig(A_inv)
    real = np.argmin(np.abs(eigenvalues.imag))
    pairs = [int(i) for i in np.argsort(-eigenvalues.imag)[: (s - 1) // 2]]  # one of each pair, imag > 0
    columns = [eigenvectors[:, real].real]
    for pair in pairs:
        columns += [eigenvectors[:, pair].real, eigenvectors[:, pair].imag]
    transform = np.stack(columns, axis=1)
    transform_inv = np.linalg.inv(transform)
    block = transform_inv @ A_inv @ transform
    complex_shifts = tuple(complex(block[k, k], -block[k, k + 1]) for k in range(1, s, 2))
    return RadauIIATableau(
        c=c,
        A=A,
        A_inv=A_inv,
        gamma=gamma,
        error_weights=error_weights,
        dense=dense,
        transform=transform,
        transform_inv=transform_inv,
        complex_shifts=complex_shifts,
    )


def radau_iia5_tableau() -> RadauIIATableau:
    """The three-stage numbers (:func:`radau_iia_tableau` with ``stages = 3``)."""
    return radau_iia_tableau(3)


_TABLEAU = radau_iia_tableau(3)
_TABLEAU_9 = radau_iia_tableau(5)


# -- the solver ---------------------------------------------------------------------------------------------


class NewtonTolerances(eqx.Module):
    """Tolerances of the Newton iteration; by default taken from the step-size controller.

    diffrax fills ``rtol``, ``atol`` and ``norm`` of an implicit solver's ``root_finder`` from an adaptive
    step-size controller (``diffrax.with_stepsize_controller_tols``), so the solver measures Newton
    corrections in the same weighted norm as the local error.
    """

    rtol: float
    atol: float
    norm: Callable[[PyTree], Array] = optx.rms_norm


class _RadauState(eqx.Module):
    """What a step passes to the next: its collocation polynomial, to predict the next stages, and (``newton =
    "hybrid"`` only) ``h J`` at its end, for the next step's simplified Newton."""

    coeffs: Float[Array, "s n"]
    step: Float[Array, ""]
    h_jacobian: Float[Array, "n n"] | None = None


def _newton_tolerance(rtol: ArrayLike) -> Array:
    """Size (in the weighted norm) below which a Newton correction counts as converged.

    ``max(10 ε / rtol, min(0.03, √rtol))``, as in Hairer's RADAU5 and SciPy.
    """
    eps = jnp.finfo(jnp.result_type(float)).eps
    return jnp.maximum(10.0 * eps / rtol, jnp.minimum(0.03, jnp.sqrt(rtol)))


def _radau_error_scale(rtol: ArrayLike, exponent: float) -> ArrayLike:
    """``rtol / rtol'`` with Hairer's ``rtol' = 0.1 rtol^exponent`` (and ``atol' = atol rtol'/rtol``); the
    exponent is ``(s + 1)/(2s)``: 2/3 for RADAU5, 3/5 for five stages.

    Comparing the estimate with the transformed tolerances is the same as comparing the estimate times this
    factor with the given ones.
    """
    return rtol / (0.1 * rtol**exponent)


class _RadauIIA(diffrax.AbstractImplicitSolver, diffrax.AbstractAdaptiveSolver):
    """Radau IIA with ``s`` stages (the subclass's ``tableau``): order ``2s − 1``, L-stable, stiffly accurate;
    filtered error estimate, collocation dense output.

    Use with an adaptive step-size controller (``diffrax.PIDController``); its ``rtol``/``atol`` also set the
    Newton tolerance. A step whose Newton iteration does not converge within ``root_find_max_steps`` (or
    diverges) is rejected with an infinite error, so the controller retries it with a shorter step.

    ``radau5_tolerances``: compare the order-``s`` error estimate with Hairer's transformed tolerances
    ``0.1 rtol^((s+1)/(2s))`` (see the module docstring); ``False`` compares it with the controller's tolerances
    as they are.

    ``newton``: ``"semismooth"`` (default) iterates on the ``sn × sn`` stage-Jacobian system from the first
    iteration. ``"hybrid"`` (three stages only) first tries Hairer's simplified Newton, split into one real and
    one complex ``n × n`` system (``tableau.transform``), with ``h J`` at the end of the previous step (where the
    last stage was), for at most ``simplified_newton_max_steps`` iterations under RADAU5's rate test; a lane
    where it does not converge redoes the step with the semismooth iteration, from the same prediction. Under
    ``vmap`` the second loop runs only while some lane needs it. The filtered error estimate then takes ``J``
    at the step's end, ``y1``, which is also the next step's Newton Jacobian. Assumes ``vf_prod`` is linear in
    the control (an ``ODETerm``): ``h J`` is rescaled to the next step's ``h``.

    ``second_order``: the state is a pytree whose first two leaves are ``q`` and ``v`` (same size) with ``q̇ = v``,
    and the field does not depend on the leaves after them (a :class:`~regcontact.compliant.dynamics.
    CompliantState`). The semismooth iteration then solves an ``sn × sn`` system for the velocity stages instead
    of the ``sN × sN`` one, with Jacobians in ``(q, v)`` only: block elimination, the same iterates up to
    rounding (``_second_order_newton``). Ignored by ``newton = "hybrid"``.
    """

    term_structure: ClassVar = diffrax.AbstractTerm
    interpolation_cls: ClassVar = PolynomialInterpolation
    tableau: eqx.AbstractClassVar[RadauIIATableau]

    # diffrax's own idiom: the root finder takes the step-size controller's tolerances. mypy cannot follow it.
    root_finder: NewtonTolerances = diffrax.with_stepsize_controller_tols(NewtonTolerances)()  # type: ignore[misc, assignment, arg-type]
    root_find_max_steps: int = 7  # type: ignore[misc]  # an equinox AbstractVar/ClassVar override, which mypy reads as a clash
    radau5_tolerances: bool = True
    newton: Literal["semismooth", "hybrid"] = "semismooth"
    simplified_newton_max_steps: int = 10
    second_order: bool = False

    def __check_init__(self):
        check_count("root_find_max_steps", self.root_find_max_steps)
        check_count("simplified_newton_max_steps", self.simplified_newton_max_steps)
        for name in ("radau5_tolerances", "second_order"):
            if not isinstance(getattr(self, name), bool):
                raise ArgumentError(name, getattr(self, name), "True or False")
        if self.newton not in ("semismooth", "hybrid"):
            raise ValueError(f"newton = {self.newton!r}: expected 'semismooth' or 'hybrid'")
        if self.newton == "hybrid" and self.tableau.stages != 3:
            raise ValueError(f"newton = 'hybrid': expected a three-stage solver (RadauIIA5), not {type(self).__name__}")

    def order(self, terms) -> int:
        return self.tableau.order

    def error_order(self, terms) -> int:
        # The embedded method has order s: its local error, hence the estimate, is O(h^(s+1)).
        return self.tableau.error_order

    def init(self, terms, t0, t1, y0, args) -> _RadauState:
        flat, unravel = ravel_pytree(y0)
        step = jnp.asarray(t1 - t0, flat.dtype)
        h_jacobian = None
        if self.newton == "hybrid":
            control = terms.contr(t0, t1)
            h_f = lambda y: ravel_pytree(terms.vf_prod(t0, unravel(y), args, control))[0]  # noqa: E731
            h_jacobian = jax.jacfwd(h_f)(flat)
        stages = self.tableau.stages
        return _RadauState(coeffs=jnp.zeros((stages, flat.size), flat.dtype), step=step, h_jacobian=h_jacobian)

    def func(self, terms, t0, y0, args):
        return terms.vf(t0, y0, args)

    def step(self, terms, t0, t1, y0, args, solver_state: _RadauState, made_jump):
        tab = self.tableau
        y0_flat, unravel = ravel_pytree(y0)
        n = y0_flat.size
        dtype = y0_flat.dtype
        control = terms.contr(t0, t1)
        h = jnp.asarray(t1 - t0, dtype)
        stage_times = t0 + jnp.asarray(tab.c, dtype) * h
        A_inv = jnp.asarray(tab.A_inv, dtype)
        eye = jnp.eye(n, dtype=dtype)
        rtol, atol, norm = self.root_finder.rtol, self.root_finder.atol, self.root_finder.norm

        def h_f(t, y_flat):
            return ravel_pytree(terms.vf_prod(t, unravel(y_flat), args, control))[0]

        def h_f_and_jacobian(t, y_flat):
            both = lambda y: (h_f(t, y), h_f(t, y))  # noqa: E731
            jacobian, value = jax.jacfwd(both, has_aux=True)(y_flat)
            return value, jacobian

        scale = atol + rtol * jnp.abs(y0_flat)
        tolerance = _newton_tolerance(rtol)

        # Predict the stages by extending the previous step's collocation polynomial (zero after a jump).
        s = 1.0 + jnp.asarray(tab.c, dtype) * h / solver_state.step
        powers = jnp.stack([s - 1.0] + [s**k - 1.0 for k in range(2, tab.stages + 1)], axis=1)
        Z_start = jnp.where(made_jump, 0.0, stage_mix(powers, solver_state.coeffs))

        second_order = self.second_order and self.newton == "semismooth"
        n_q = jax.tree_util.tree_leaves(y0)[0].size if second_order else n

        def correction(Z):
            """The Newton correction and ``h J`` at the last stage (w.r.t. ``(q, v)`` when ``second_order``)."""
            if second_order:
                A = jnp.asarray(tab.A, dtype)
                return second_order_newton_step(h_f, stage_times, y0_flat, Z, n_q, A, A_inv)
            hF, hJ = jax.vmap(h_f_and_jacobian)(stage_times, y0_flat[None, :] + Z)
            residual = A_inv @ Z - hF
            matrix = jnp.kron(A_inv, eye) - jsl.block_diag(*hJ)
            return -jnp.linalg.solve(matrix, residual.reshape(-1)).reshape(tab.stages, n), hJ[-1]

        def newton_step(carry):
            k, Z, _, previous_norm, _, _ = carry
            dZ, hJ_last = correction(Z)
            Z = Z + dZ
            dZ_norm = norm(dZ / scale[None, :])
            growing = (k > 1) & (dZ_norm >= previous_norm) & (dZ_norm >= tolerance)
            converged = (dZ_norm == 0.0) | ((k > 0) & (dZ_norm < tolerance))
            out_of_steps = ~converged & (k + 1 == self.root_find_max_steps)
            failed = ~jnp.all(jnp.isfinite(dZ)) | growing | out_of_steps
            return k + 1, Z, hJ_last, dZ_norm, converged & ~failed, failed

        def iterating(carry):
            *_, converged, failed = carry
            return ~(converged | failed)

        converged: Array | bool
        if self.newton == "hybrid":
            assert solver_state.h_jacobian is not None
            hJ_start = solver_state.h_jacobian * (h / solver_state.step)
            Z_fast, fast_converged = self._simplified_newton(
                h_f, stage_times, y0_flat, Z_start, hJ_start, scale, tolerance, norm
            )
            # The semismooth iteration, from the same prediction, for the lanes the fast path left unconverged.
            Z_start = jnp.where(fast_converged, Z_fast, Z_start)
            fallback = (0, Z_start, jnp.zeros((n, n), dtype), jnp.asarray(jnp.inf, dtype), fast_converged, False)
            _, Z, _, _, converged, _ = jax.lax.while_loop(iterating, newton_step, fallback)
            hJ_end = jax.jacfwd(lambda y: h_f(t0 + h, y))(y0_flat + Z[-1])
        else:
            hJ_shape = (n, 2 * n_q) if second_order else (n, n)
            start = (0, Z_start, jnp.zeros(hJ_shape, dtype), jnp.asarray(jnp.inf, dtype), False, False)
            _, Z, hJ_end, _, converged, _ = jax.lax.while_loop(iterating, newton_step, start)

        # Filtered estimate, Jacobian at t1: err = (γ I − hJ)⁻¹ (h f(y0) + Σ e_i z_i).
        y1_flat = y0_flat + Z[-1]
        raw_error = h_f(t0, y0_flat) + (jnp.asarray(tab.error_weights, dtype)[:, None] * Z).sum(axis=0)
        if second_order:
            error = second_order_filter(hJ_end, tab.gamma, raw_error, n_q)
        else:
            error = jsl.lu_solve(jsl.lu_factor(tab.gamma * eye - hJ_end), raw_error)
        if self.radau5_tolerances:
            error = error * _radau_error_scale(rtol, tab.tolerance_exponent)

        coeffs = stage_mix(jnp.asarray(tab.dense, dtype), Z)
        error = jnp.where(converged, error, jnp.inf)
        y1_flat = jnp.where(converged, y1_flat, y0_flat)
        result = diffrax.RESULTS.where(converged, diffrax.RESULTS.successful, diffrax.RESULTS.nonlinear_divergence)
        dense_info = dict(y0=y0, coeffs=jax.vmap(unravel)(coeffs))
        state = _RadauState(coeffs=coeffs, step=h, h_jacobian=hJ_end if self.newton == "hybrid" else None)
        return unravel(y1_flat), unravel(error), dense_info, state, result

    def _simplified_newton(
        self,
        h_f: Callable[[Array, Array], Array],
        stage_times: Float[Array, " s"],
        y0: Float[Array, " n"],
        Z_start: Float[Array, "s n"],
        hJ: Float[Array, "n n"],
        scale: Float[Array, " n"],
        tolerance: Float[Array, ""],
        norm: Callable[[PyTree], Array],
    ) -> tuple[Float[Array, "s n"], Bool[Array, ""]]:
        """Hairer's simplified Newton with one ``hJ`` for all stages, in the eigenbasis of ``A⁻¹``: one real and
        one complex ``n × n`` LU per step, two back substitutions per iteration.

        Stops as RADAU5 does: converged when ``θ/(1 − θ) ‖ΔZ‖ < tol`` with the contraction rate
        ``θ = ‖ΔZ_k‖ / ‖ΔZ_{k−1}‖`` (so after at least two iterations, or at ``ΔZ = 0``); given up when ``θ ≥ 1``,
        on a non-finite correction, or after ``simplified_newton_max_steps`` iterations. RADAU5's early exit
        (``θ^(k_max − k) / (1 − θ) ‖ΔZ‖ > tol``) is not used: measured on the rod family, it sends more lanes to
        the costly fallback than the extra cheap iterations cost (``docs/solvers.md``). Returns the stages and
        whether they converged.
        """
        tab = self.tableau
        dtype = y0.dtype
        n = y0.size
        eye = jnp.eye(n, dtype=dtype)
        A_inv = jnp.asarray(tab.A_inv, dtype)
        T, T_inv = jnp.asarray(tab.transform, dtype), jnp.asarray(tab.transform_inv, dtype)
        real_lu = jsl.lu_factor(tab.gamma * eye - hJ)
        complex_lu = jsl.lu_factor(tab.complex_shift * eye - hJ.astype(jnp.result_type(dtype, 1j)))
        max_steps = self.simplified_newton_max_steps

        def iteration(carry):
            k, Z, previous_norm, _, _ = carry
            hF = jax.vmap(h_f)(stage_times, y0[None, :] + Z)
            rhs = -T_inv @ (A_inv @ Z - hF)
            dW_1 = jsl.lu_solve(real_lu, rhs[0])
            dW_23 = jsl.lu_solve(complex_lu, rhs[1] + 1j * rhs[2])
            dZ = T @ jnp.stack([dW_1, dW_23.real, dW_23.imag])
            dZ_norm = norm(dZ / scale[None, :])
            rate = dZ_norm / previous_norm
            contracting = (k > 0) & (rate < 1.0)
            converged = (dZ_norm == 0.0) | (contracting & (rate / (1.0 - rate) * dZ_norm < tolerance))
            diverging = (k > 0) & (rate >= 1.0)
            failed = ~converged & (~jnp.all(jnp.isfinite(dZ)) | diverging | (k + 1 == max_steps))
            return k + 1, Z + dZ, dZ_norm, converged, failed

        def iterating(carry):
            *_, converged, failed = carry
            return ~(converged | failed)

        start = (0, Z_start, jnp.asarray(jnp.inf, dtype), jnp.asarray(False), jnp.asarray(False))
        _, Z, _, converged, _ = jax.lax.while_loop(iterating, iteration, start)
        return Z, converged


class RadauIIA5(_RadauIIA):
    """Radau IIA, order 5 (three stages), as Hairer's RADAU5: see :class:`_RadauIIA` for the options. The error
    estimate has order 3 and is held to ``0.1 rtol^(2/3)`` (``radau5_tolerances``)."""

    tableau: ClassVar[RadauIIATableau] = _TABLEAU


class RadauIIA9(_RadauIIA):
    """Radau IIA, order 9 (five stages), as the five-stage method of Hairer's RADAU: see :class:`_RadauIIA` for
    the options (``newton = "hybrid"`` is for three stages only). The error estimate has order 5 and is held
    to ``0.1 rtol^(3/5)`` (``radau5_tolerances``); the dense output is the degree-5 collocation polynomial.

    A step takes five stages: the Newton system is ``5n × 5n`` (15 × 15 on the velocities of the rod) instead
    of ``3n × 3n``, for fewer, longer steps where the solution is smooth and the tolerance tight.
    """

    tableau: ClassVar[RadauIIATableau] = _TABLEAU_9
