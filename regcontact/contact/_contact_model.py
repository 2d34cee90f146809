"""A compliant contact: a normal law, a friction law, and how their parameters scale with α.

The stiffness multiplier α drives the compliant model to the rigid limit. Every parameter ``p`` of a law is
replaced by ``p · α^e`` with its own exponent ``e``; Preclik & Rüde scale ``k_n, γ_n, γ_t`` all with ``e = 1``.
The exponents are stored as a law of the same type whose fields hold exponents instead of values, so scaling
is one ``tree_map`` and works for any law. By default each law brings its own (its ``EXPONENTS``).
"""

from __future__ import annotations

from typing import TypeVar

import equinox as eqx
import jax.numpy as jnp
import jax.tree_util as jtu
from jaxtyping import Array, ArrayLike, Float, PyTree

from regcontact._argument_checks import FINITE, ArgumentError, check_argument
from regcontact._readable_repr import readable_repr
from regcontact.contact._friction_laws import AbstractFrictionLaw, ViscousCoulomb
from regcontact.contact._law_probe import law_problem
from regcontact.contact._normal_laws import AbstractNormalLaw, SpringDamper
from regcontact.contact._per_contact import check_per_contact

LawT = TypeVar("LawT", AbstractNormalLaw, AbstractFrictionLaw)

__all__ = ["ContactModel", "default_exponents", "law_exponents", "scale_parameters"]


def scale_parameters(law: PyTree, exponents: PyTree, alpha: ArrayLike) -> PyTree:
    """Return ``law`` with every parameter ``p`` replaced by ``p · α^e`` (``exponents`` has law's structure)."""
    alpha = jnp.asarray(alpha, dtype=float)
    return jtu.tree_map(lambda p, e: p * alpha**e, law, exponents)


def default_exponents(law: LawT) -> LawT:
    """A law shaped like ``law`` whose fields are its class's default α-exponents (``EXPONENTS``)."""
    exponents = law_exponents(type(law), **type(law).EXPONENTS)
    return jtu.tree_map(jnp.full_like, law, exponents)


def law_exponents(law: type[LawT], **exponents: ArrayLike) -> LawT:
    """A law of class ``law`` whose fields hold α-exponents (any finite number; unnamed ones: the class's
    ``EXPONENTS``), for :class:`ContactModel`'s ``normal_exponents`` / ``friction_exponents``.

    The law's constructor would check the values as parameters (a stiffness must be positive; its exponent need
    not be), so the fields are set on a default law instead. A name that is none of the law's ``PARAMETERS``
    (a misspelling) is refused with a ``ValueError``.

    Examples:
        >>> from regcontact.contact import ContactModel, SpringDamper, law_exponents
        >>> contact = ContactModel(normal_exponents=law_exponents(SpringDamper, stiffness=1.25))
    """
    names = list(law.PARAMETERS)
    unknown = [name for name in exponents if name not in names]
    if unknown:
        raise ValueError(
            f"law_exponents: {unknown[0]} is no parameter of {law.__name__} (expected {', '.join(names) or 'none'})"
        )
    values = {**law.EXPONENTS, **exponents}
    for name, value in values.items():
        check_argument(name, value, FINITE)
    return eqx.tree_at(
        lambda default: [getattr(default, name) for name in names],
        law(),
        [jnp.asarray(values[name], dtype=float) for name in names],
    )


class ContactModel(eqx.Module):
    """Normal and friction laws at α = 1, with the α-exponent of each of their parameters.

    Args:
        normal: the normal law (default: Preclik & Rüde's Eq. 22, :class:`~regcontact.contact.SpringDamper`
            with ``k_n = γ_n = 1``).
        friction: the friction law (default: :class:`~regcontact.contact.ViscousCoulomb`,
            ``γ_t = 1``).
        normal_exponents: the α-exponent of each normal parameter, as a law of the same class built with
            :func:`law_exponents` (default: the law's ``EXPONENTS``).
        friction_exponents: the same for the friction law.

    The laws check their parameters when they are built (``stiffness = -3: expected a positive number``). A
    parameter (or exponent) is a number, the same at every contact, or an array of one value per contact
    (``HuntCrossley(stiffness=jnp.array([k1, k2]))``: contact ``i`` gets ``k_i``); the count is checked where the
    model meets a system (:meth:`check_contacts`).

    Examples:
        >>> import regcontact as rc
        >>> contact = rc.ContactModel(normal_exponents=rc.contact.law_exponents(rc.SpringDamper, damping=0.5))
        >>> contact.at_stiffness(1e6)[0]
        SpringDamper(stiffness=1e+06, damping=1000)
    """

    normal: AbstractNormalLaw
    friction: AbstractFrictionLaw
    #: Laws of the same classes whose fields hold each parameter's α-exponent instead of its value.
    normal_exponents: AbstractNormalLaw
    friction_exponents: AbstractFrictionLaw

    def __init__(
        self,
        normal: AbstractNormalLaw | None = None,
        friction: AbstractFrictionLaw | None = None,
        normal_exponents: AbstractNormalLaw | None = None,
        friction_exponents: AbstractFrictionLaw | None = None,
    ):
        # equinox uses the __init__ SpringDamper inherits; mypy's dataclass model generates one of its own.
        self.normal = SpringDamper() if normal is None else normal  # type: ignore[call-arg]
        self.friction = ViscousCoulomb() if friction is None else friction
        for name, law, base, example in (
            ("normal", self.normal, AbstractNormalLaw, "SpringDamper()"),
            ("friction", self.friction, AbstractFrictionLaw, "ViscousCoulomb()"),
        ):
            if not isinstance(law, base):
                raise ArgumentError(name, law, f"a {name} law, an {base.__name__} such as {example}")
        self.normal_exponents = default_exponents(self.normal) if normal_exponents is None else normal_exponents
        self.friction_exponents = default_exponents(self.friction) if friction_exponents is None else friction_exponents
        for name, law, exponents in (
            ("normal_exponents", self.normal, self.normal_exponents),
            ("friction_exponents", self.friction, self.friction_exponents),
        ):
            if type(exponents) is not type(law):
                law_name = type(law).__name__
                raise ArgumentError(
                    name, exponents, f"the exponents of a {law_name}, built by law_exponents({law_name}, …)"
                )
            for parameter in type(law).PARAMETERS:
                check_argument(f"{name}.{parameter}", getattr(exponents, parameter), FINITE)

    def __repr__(self) -> str:
        return readable_repr(self)

    def check_contacts(self, num_contacts: int) -> None:
        """Refuse a parameter or exponent that is neither a number nor one value per contact of a system with
        ``num_contacts`` contacts (``ArgumentError`` in one line: the parameter, its shape and ``k``), and a law
        whose methods answer with another shape or a value that is not finite at a few open, touching and closed
        states (``normal_law`` / ``friction_law``, naming the method)."""
        for name in ("normal", "friction", "normal_exponents", "friction_exponents"):
            check_per_contact(getattr(self, name), num_contacts, name)
        for name in ("normal", "friction"):
            law = getattr(self, name)
            problem = law_problem(law, num_contacts)
            if problem is not None:
                raise ArgumentError(
                    f"{name}_law", type(law).__name__, f"a law with one finite value per contact ({problem})"
                )

    def at_stiffness(self, alpha: Float[Array, ""] | float) -> tuple[AbstractNormalLaw, AbstractFrictionLaw]:
        """The (normal, friction) laws with parameters scaled to stiffness multiplier ``alpha`` (a per-contact
        parameter elementwise, each entry by its exponent)."""
        return (
            scale_parameters(self.normal, self.normal_exponents, alpha),
            scale_parameters(self.friction, self.friction_exponents, alpha),
        )
