"""What the compliant, rigid and stability code needs to know about a mechanical system.

A system (one body or several) has generalised coordinates ``q ∈ ℝⁿ``, velocities ``v ∈ ℝⁿ`` and ``k``
unilateral frictional contacts, each with a normal and ``d = TANGENT_DIM`` tangential directions (``d = 1``: a
planar contact; ``d = 2``: a spatial contact, whose slip is a 2-vector). Contact ``i`` has a normal gap ``g_n,i``
(``> 0`` open) and tangential coordinates ``g_t,i``; they are the rows of ``g(q) ∈ ℝ^{k×(1+d)}``, and their rates
are ``ġ = W(q) v`` with the contact Jacobians ``W(q) ∈ ℝ^{k×(1+d)×n}`` (rows: normal, then tangential). The
equations of motion are

    M(q) v̇ = h(q, v, t) + Σ_i W_iᵀ(q) λ_i,        λ_i = (λ_n,i, λ_t,i),  λ_t,i ∈ ℝᵈ,

and ``g̈ = W v̇ + Ẇ v`` (``Ẇ v``: :meth:`AbstractSystem.jacobian_rates`). Everything numeric is a field of the
module (JAX arrays), so a batch of systems is a ``vmap`` away and a new value never recompiles.

A new body is one small class: subclass :class:`AbstractSystem`, declare ``NUM_CONTACTS`` (and ``TANGENT_DIM = 2``
for spatial contacts) and implement the abstract methods (``docs/systems.md`` has a worked example).
"""

from __future__ import annotations

import abc
import contextlib
import contextvars
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import Rule, check_type, is_traced
from regcontact._readable_repr import readable_repr

__all__ = [
    "SYSTEM_EXPECTED",
    "TANGENT_DIMS",
    "AbstractSystem",
    "check_is_system",
    "check_system",
    "checked_together",
    "first_bad_system",
    "require_tangent_dim",
]

#: The tangent dimensions a contact may have: one tangent (planar) or a tangent plane (spatial).
TANGENT_DIMS = (1, 2)


class AbstractSystem(eqx.Module):
    """A system with ``NUM_CONTACTS`` unilateral frictional contacts of ``TANGENT_DIM`` tangential directions each
    (see the module docstring): gaps ``(k, 1+d)``, Jacobians ``(k, 1+d, n)``."""

    #: ``k``, the number of contacts (static: it fixes array shapes).
    NUM_CONTACTS: ClassVar[int]
    #: ``d``, the tangential directions of every contact: 1 planar, 2 spatial (static: it fixes array shapes and
    #: chooses, at trace time, how the compliant model applies the friction law).
    TANGENT_DIM: ClassVar[int] = 1
    #: The rule of each numeric constructor argument stored in the field of its name: the constructor checks the
    #: arguments with them, the config parses its keys with them, a compiled run checks the fields with them.
    ARGUMENT_RULES: ClassVar[Mapping[str, Rule]] = {}

    def __repr__(self) -> str:
        return readable_repr(self)

    def __check_init__(self):
        contacts = getattr(type(self), "NUM_CONTACTS", None)
        if not isinstance(contacts, int) or contacts < 1:
            raise ValueError(
                f"{type(self).__name__}.NUM_CONTACTS = {contacts!r}: expected a whole number of contacts k ≥ 1"
            )
        dimension = getattr(type(self), "TANGENT_DIM", None)
        if dimension not in TANGENT_DIMS:
            raise ValueError(
                f"{type(self).__name__}.TANGENT_DIM = {dimension!r}: expected 1 (planar contacts) or 2 (spatial)"
            )
        check_built(self, _shape_problem, _mass_and_friction)

    @abc.abstractmethod
    def mass_matrix(self, q: Float[Array, " n"]) -> Float[Array, "n n"]:
        """``M(q)``, symmetric positive definite."""

    @abc.abstractmethod
    def forces(self, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike) -> Float[Array, " n"]:
        """``h(q, v, t)``: applied and velocity-dependent generalised forces (everything but the contacts)."""

    @abc.abstractmethod
    def gaps(self, q: Float[Array, " n"]) -> Float[Array, "k 1+d"]:
        """``(g_n, g_t)`` of every contact (``g_t``: ``d`` numbers); ``g_n > 0`` is open."""

    @abc.abstractmethod
    def jacobians(self, q: Float[Array, " n"]) -> Float[Array, "k 1+d n"]:
        """``W(q) = ∂g/∂q``: ``ġ = W v``."""

    @abc.abstractmethod
    def jacobian_rates(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 1+d"]:
        """``Ẇ v``: the velocity-dependent part of ``g̈``."""

    @property
    @abc.abstractmethod
    def friction_coefficients(self) -> Float[Array, " k"]:
        """``μ`` of every contact."""

    @abc.abstractmethod
    def potential_energy(self, q: Float[Array, " n"]) -> Float[Array, ""]:
        """Potential of the conservative part of ``h`` (zero where ``h`` has none)."""

    @abc.abstractmethod
    def initial_state(self) -> tuple[Float[Array, " n"], Float[Array, " n"]]:
        """``(q₀, v₀)``."""

    @property
    @abc.abstractmethod
    def length_scale(self) -> Float[Array, ""]:
        """The size of the body: the gaps' round-off is about one ulp of it (:mod:`regcontact.compliant.resolution`)."""

    # -- derived ------------------------------------------------------------------------------------------------

    @property
    def time_dependent_loads(self) -> bool:
        """Whether ``h`` depends on ``t`` through a load profile (static, from the structure: the energy is then
        not conserved by the loads, and :meth:`potential_energy` is that of the loads at ``t = 0``). ``False``
        unless a system says otherwise."""
        return False

    def mass_solve(self, q: Float[Array, " n"], force: Float[Array, " n"]) -> Float[Array, " n"]:
        """``M(q)⁻¹ f``; a system with a diagonal mass matrix may override this with a division."""
        return jnp.linalg.solve(self.mass_matrix(q), force)

    def kinetic_energy(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, ""]:
        """``½ vᵀ M(q) v``."""
        return 0.5 * v @ self.mass_matrix(q) @ v

    def energy(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, ""]:
        """Kinetic plus potential energy; contact springs excluded."""
        return self.kinetic_energy(q, v) + self.potential_energy(q)


#: What an argument that takes a body expects, in words (the phrase of every ``TypeError`` that refuses one).
SYSTEM_EXPECTED = "a system (an instance of an AbstractSystem subclass, e.g. PainleveRod())"


def check_is_system(name: str, value: Any) -> None:
    """``TypeError`` of one line naming the argument ``name`` unless ``value`` is a system: ``system = 'rod':
    expected a system (an instance of an AbstractSystem subclass, e.g. PainleveRod()), not a str``."""
    check_type(name, value, AbstractSystem, SYSTEM_EXPECTED)


def require_tangent_dim(system: AbstractSystem, dimension: int, what: str) -> None:
    """``ValueError`` unless ``system``'s contacts have ``dimension`` tangential directions (static: its class's
    ``TANGENT_DIM``), naming ``what`` needs them."""
    found = type(system).TANGENT_DIM
    if found != dimension:
        kind = {1: "planar", 2: "spatial"}
        raise ValueError(
            f"{type(system).__name__}.TANGENT_DIM = {found}: {what} needs {kind[dimension]} contacts "
            f"(TANGENT_DIM = {dimension})"
        )


def _shape_problem(system: AbstractSystem) -> str | None:
    """What is wrong with the shapes of one system's arrays at its initial state, if anything (shapes only:
    traced, nothing computed)."""
    name, k, rows = type(system).__name__, type(system).NUM_CONTACTS, 1 + type(system).TANGENT_DIM
    q0, v0 = eqx.filter_eval_shape(lambda system: tuple(map(_floats, system.initial_state())), system)
    if len(q0.shape) != 1:
        return f"{name}: initial q of shape {q0.shape}: expected one system, (n,) (check a batch per case)"
    n = q0.shape[0]

    def shapes(system: AbstractSystem) -> dict[str, Array]:
        q0, v0 = map(_floats, system.initial_state())
        return {
            "mass matrix": system.mass_matrix(q0),
            "gaps": system.gaps(q0),
            "contact Jacobians": system.jacobians(q0),
            "Jacobian rates": system.jacobian_rates(q0, v0),
            "friction coefficients": jnp.asarray(system.friction_coefficients),
            "forces": system.forces(q0, v0, jnp.zeros(())),
            "potential energy": jnp.asarray(system.potential_energy(q0)),
            "length scale": jnp.asarray(system.length_scale),
        }

    found = {"initial velocity": v0} | eqx.filter_eval_shape(shapes, system)
    expected = {
        "initial velocity": (n,),
        "mass matrix": (n, n),
        "gaps": (k, rows),
        "contact Jacobians": (k, rows, n),
        "Jacobian rates": (k, rows),
        "friction coefficients": (k,),
        "forces": (n,),
        "potential energy": (),
        "length scale": (),
    }
    for what, wanted in expected.items():
        shape = tuple(found[what].shape)
        if shape != wanted:
            return f"{name}: {what} of shape {shape}: expected {wanted} (n = {n}, k = {k})"
    return None


def _floats(a: ArrayLike) -> Array:
    return jnp.asarray(a, dtype=float)


#: What the checks evaluate at the initial state besides ``M(q₀)`` and ``μ``, in the order of
#: :func:`_initial_values`'s flags: each must be finite (the length scale also positive), or the first study
#: step (a rigid reference's contact state, the compliant run's first right-hand side) has nothing to work with.
DERIVED = (
    "forces(q₀, v₀, 0)",
    "gaps(q₀)",
    "jacobians(q₀)",
    "jacobian_rates(q₀, v₀)",
    "potential_energy(q₀)",
    "length_scale",
    "accelerations M⁻¹ h (mass_solve)",
    "free contact accelerations W M⁻¹ h + Ẇ v₀",
    "kinetic_energy(q₀, v₀)",
)

#: A system's values at its initial state, as the checks read them: ``M(q₀)``, ``μ``, ``q₀``, ``v₀``, whether
#: each floating-point leaf of the system is finite, and whether each of :data:`DERIVED` is.
SystemValues = tuple[Array, Array, Array, Array, list[Array], list[Array]]


def _initial_values(system: Any) -> SystemValues:
    q0, v0 = map(_floats, system.initial_state())
    leaves = [jnp.all(jnp.isfinite(leaf)) for leaf in _float_leaves(system)]
    mass = system.mass_matrix(q0)
    forces = _floats(system.forces(q0, v0, jnp.zeros(())))
    jacobians, rates = _floats(system.jacobians(q0)), _floats(system.jacobian_rates(q0, v0))
    accelerations = system.mass_solve(q0, forces)
    length = _floats(system.length_scale)
    derived = [
        forces,
        _floats(system.gaps(q0)),
        jacobians,
        rates,
        _floats(system.potential_energy(q0)),
        length,
        accelerations,
        jnp.einsum("kan,n->ka", jacobians, accelerations) + rates,
        system.kinetic_energy(q0, v0),
    ]
    finite = [jnp.all(jnp.isfinite(value)) for value in derived]
    finite[DERIVED.index("length_scale")] &= length > 0
    return mass, jnp.asarray(system.friction_coefficients), q0, v0, leaves, finite


def is_float(leaf: Any) -> bool:
    """Whether a leaf is a floating-point number or array (a leaf of another kind is not a parameter to check)."""
    try:
        return bool(jnp.issubdtype(jnp.result_type(leaf), jnp.inexact))
    except TypeError:
        return False


def _float_leaves(system: Any) -> list[Any]:
    return [leaf for leaf in jtu.tree_leaves(system) if is_float(leaf)]


#: One compiled call each (compiled once per class and shape), not an eager evaluation op by op.
_mass_and_friction = eqx.filter_jit(_initial_values)
_batched_mass_and_friction = eqx.filter_jit(jax.vmap(_initial_values))

#: Shape problems by class, tree structure and leaf shapes: they depend on nothing else, and tracing them is the
#: slow part of a check (milliseconds); a system is built and checked many times with the same shapes.
_SHAPE_PROBLEMS: dict[Any, str | None] = {}


def cached_shape_problem(system: Any, find: Callable[[Any], str | None]) -> str | None:
    """``find(system)``, remembered for every system of the same class, structure and leaf shapes."""
    leaves, structure = jtu.tree_flatten(system)
    key = (find, structure, tuple((np.shape(leaf), getattr(leaf, "dtype", type(leaf))) for leaf in leaves))
    try:
        return _SHAPE_PROBLEMS[key]
    except KeyError:
        pass
    except TypeError:  # a structure that cannot be hashed: not remembered
        return find(system)
    if len(_SHAPE_PROBLEMS) > 1024:
        _SHAPE_PROBLEMS.clear()
    _SHAPE_PROBLEMS[key] = problem = find(system)
    return problem


def _leaf_names(system: Any) -> list[str]:
    """The field (path) of each floating-point leaf, as :func:`_float_leaves` orders them."""
    named = jtu.tree_flatten_with_path(system)[0]
    return [jtu.keystr(path).lstrip(".") for path, leaf in named if is_float(leaf)]


def _value_problems(
    system: Any,
    mass: np.ndarray,
    mu: np.ndarray,
    q0: np.ndarray,
    v0: np.ndarray,
    finite: np.ndarray,
    derived: np.ndarray,
) -> tuple[int, str] | None:
    """The first of a batch ``mass (b, n, n)``, ``mu (b, k)``, ``q0, v0 (b, n)``, ``finite (b, leaves)``,
    ``derived (b, len(DERIVED))`` with a parameter or an initial state that is not finite, an ``M(q₀)`` that is
    not symmetric positive definite, a negative ``μ`` or a value of :data:`DERIVED` that is not finite: its index
    and what is wrong (``system``: one system of the batch, for the names)."""
    name = type(system).__name__
    nonfinite = ~np.all(finite, axis=1)
    start = ~(np.all(np.isfinite(q0), axis=1) & np.all(np.isfinite(v0), axis=1))
    scale = np.max(np.abs(mass), axis=(1, 2)) if mass.shape[1] else np.zeros(len(mass))
    finite_mass = np.all(np.isfinite(mass), axis=(1, 2))
    with np.errstate(invalid="ignore"):  # inf − inf in a non-finite matrix, which `finite_mass` reports
        symmetric = np.all(np.abs(mass - np.swapaxes(mass, 1, 2)) <= 1e-12 * scale[:, None, None], axis=(1, 2))
    asymmetric = ~(finite_mass & symmetric)
    checked = np.where(asymmetric[:, None, None], np.eye(mass.shape[1]), mass)
    # Definiteness of D M D with D = diag(M)^(-1/2): the coordinates' units (m, rad) and sizes (a rod of 1e-10 m has
    # I = 1e-21 m² kg beside m = 1 kg) do not decide it; a diagonal entry ≤ 0 already does.
    diagonal = np.diagonal(checked, axis1=1, axis2=2)
    positive_diagonal = np.all(diagonal > 0, axis=1)
    root = np.sqrt(np.where(positive_diagonal[:, None], diagonal, 1.0))
    scaled = checked / (root[:, :, None] * root[:, None, :])
    eigenvalues = np.linalg.eigvalsh(np.where(positive_diagonal[:, None, None], scaled, checked))
    indefinite = ~(positive_diagonal & (eigenvalues[:, 0] > 1e-12 * eigenvalues[:, -1]))
    negative = np.any(mu < 0, axis=1) | ~np.all(np.isfinite(mu), axis=1)
    underived = ~np.all(derived, axis=1)
    failing = np.flatnonzero(nonfinite | start | asymmetric | indefinite | negative | underived)
    if failing.size == 0:
        return None
    i = int(failing[0])
    if nonfinite[i]:
        field = _leaf_names(system)[int(np.argmin(finite[i]))]
        return i, f"{name}: {field} is not finite: expected finite parameters"
    if start[i]:
        return i, f"{name}: initial state (q₀, v₀) = ({q0[i]}, {v0[i]}) is not finite: expected a finite state"
    if not finite_mass[i]:
        return i, f"{name}: mass matrix at the initial state is not finite: expected a finite, positive definite M"
    if asymmetric[i]:
        return i, f"{name}: mass matrix at the initial state is not symmetric: expected M = Mᵀ"
    if indefinite[i]:
        low, high = eigenvalues[i, 0], eigenvalues[i, -1]
        what = "eigenvalues" if not positive_diagonal[i] else "eigenvalues, scaled to a unit diagonal,"
        return i, (
            f"{name}: mass matrix at the initial state has {what} {low:.3g} … {high:.3g}: expected a "
            "positive definite M (a singular or indefinite mass matrix has no motion to integrate)"
        )
    if negative[i]:
        return i, f"{name}: friction coefficients {mu[i]}: expected μ ≥ 0"
    what = DERIVED[int(np.argmin(derived[i]))]
    if what == "length_scale":
        return i, f"{name}.length_scale is not a finite length > 0: expected the size of the body"
    return i, (
        f"{name}.{what} at the initial state is not finite: expected finite values (a method that returns NaN "
        "or inf, or a state or parameters whose products overflow float64)"
    )


def _host(values: SystemValues, batched: bool) -> tuple[np.ndarray, ...]:
    mass, mu, q0, v0, finite, derived = values
    arrays = [np.asarray(a, np.float64) for a in (mass, mu, q0, v0)]
    flags = np.stack([np.asarray(f) for f in finite], axis=-1) if finite else np.ones((*q0.shape[:-1], 0), bool)
    derived_flags = np.stack([np.asarray(f) for f in derived], axis=-1)
    if not batched:
        arrays, flags, derived_flags = [a[None] for a in arrays], flags[None], derived_flags[None]
    return (*arrays, flags, derived_flags)


#: Set while systems are built whose caller checks them together afterwards (:func:`checked_together`).
_CHECKED_TOGETHER: contextvars.ContextVar[bool] = contextvars.ContextVar("checked_together", default=False)


@contextlib.contextmanager
def checked_together() -> Iterator[None]:
    """Systems built inside are not checked one by one as they are built: the caller checks them all afterwards
    with :func:`check_system` or :func:`first_bad_system` (the same rules, one evaluation instead of two)."""
    token = _CHECKED_TOGETHER.set(True)
    try:
        yield
    finally:
        _CHECKED_TOGETHER.reset(token)


def check_built(system: Any, shape_problem: Callable[[Any], str | None], values: Callable[[Any], SystemValues]) -> None:
    """At construction: :func:`check_system`'s values of a single system whose leaves are all concrete (Python
    numbers, numpy or eager JAX arrays); a traced system has no values yet, and a batch (or a system whose shapes
    are wrong) is checked as a batch, by :func:`first_bad_system`, or by :func:`check_system`."""
    if _CHECKED_TOGETHER.get() or is_traced(system):
        return
    try:
        if cached_shape_problem(system, shape_problem) is not None:
            return
    except (TypeError, ValueError, IndexError):  # shapes that do not even trace together: a batch, or a broken body
        return
    except NotImplementedError:  # a system for analysis only, with no initial state: nothing to check it at
        return
    with jax.ensure_compile_time_eval():  # built inside a trace, with concrete values: evaluate them now
        found = _value_problems(system, *_host(values(system), batched=False))
    if found is not None:
        raise ValueError(found[1])


def check_system(system: AbstractSystem) -> None:
    """Check, on the host, what a system's class cannot promise: at the initial state the arrays have the shapes
    ``NUM_CONTACTS``, ``TANGENT_DIM`` and ``q`` imply, the parameters and the state are finite, ``M(q₀)`` is
    symmetric positive definite and ``μ ≥ 0``. Raises ``ValueError`` naming what is wrong.

    A system built from concrete values has passed these checks when it was built; this checks one whose values
    were set otherwise (a tree operation, a batch taken apart). Meant for one system (a batch is checked by
    :func:`first_bad_system`); the studies check every system they build.
    """
    problem = cached_shape_problem(system, _shape_problem)
    if problem is not None:
        raise ValueError(problem)
    found = _value_problems(system, *_host(_mass_and_friction(system), batched=False))
    if found is not None:
        raise ValueError(found[1])


def first_bad_system(systems: AbstractSystem) -> tuple[int, str] | None:
    """:func:`check_system` for a batch (every leaf with a leading axis), in one vmapped evaluation: the index
    of the first system that fails and why, or ``None``."""
    one = jax.tree_util.tree_map(lambda leaf: leaf[0], systems)
    problem = cached_shape_problem(one, _shape_problem)
    if problem is not None:
        return 0, problem
    return _value_problems(one, *_host(_batched_mass_and_friction(systems), batched=True))
