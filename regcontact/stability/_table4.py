"""Table 4 of Champneys & Várkonyi (2016, Sec. 6) recomputed from sampled configurations: every class ``s₁s₂``
with the modes of its subclasses, its impacts without collision and the normal stability of its slip modes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float

from regcontact._argument_checks import check_argument
from regcontact.stability._checks import COUNT as _COUNT
from regcontact.stability._two_contact_classes import (
    IMPACT_NAMES,
    TWO_CONTACT_MODE_NAMES,
    class_code,
    swap_contacts,
)
from regcontact.stability._two_contact_fast_scale import characteristic_polynomial, hurwitz_stable
from regcontact.stability._two_contact_modes import impacts_without_collision, lcp_modes, two_contact_modes

_TWO_PI = 2.0 * np.pi


def sample_configurations(key: jax.Array, n: int) -> tuple[Float[Array, "n 2 2"], Float[Array, "n 2"]]:
    """``n`` random ``(p⁺, b)``: the angles of ``p₁, p₂, −b`` uniform on the circle, ``|p_j|`` log-normal
    (only directions enter the classification; magnitudes matter for the stability of ``S+S+``), ``|b| = 1``."""
    check_argument("n", n, _COUNT)
    angle_key, size_key = jax.random.split(key)
    angles = jax.random.uniform(angle_key, (n, 3), maxval=_TWO_PI)
    sizes = jnp.exp(jax.random.normal(size_key, (n, 2)))
    columns = sizes[:, None, :] * jnp.stack([jnp.cos(angles[:, :2]), jnp.sin(angles[:, :2])], axis=1)
    b = -jnp.stack([jnp.cos(angles[:, 2]), jnp.sin(angles[:, 2])], axis=1)
    return columns, b


@dataclass(frozen=True)
class SubclassResult:
    """One subclass ``s₁s₂s₃``: the modes its samples have (LCP enumeration, identical for all of them when
    ``uniform``) and one sample."""

    name: str
    samples: int
    modes: frozenset[str]
    uniform: bool
    example_painleve: np.ndarray
    example_b: np.ndarray


@dataclass(frozen=True)
class ClassResult:
    """One row of Table 4 (a class ``s₁s₂``), recomputed."""

    name: str
    dual: str
    subclasses: tuple[SubclassResult, ...]  # s₃ = 1 … 6
    impacts: frozenset[str]  # IF, FI, II (II: the necessary condition)
    impacts_uniform: bool
    slip_slip_stability: str  # "stable", "unstable" or "depends" (over the class's p⁺ and the contact laws)
    slip_slip_stable_fraction: float
    slip_slip_stable_paper_law: str  # the same with k = q = −1 only
    law_dependent: bool  # some sampled p⁺ is stable under one contact law and unstable under another
    slip_free_stable: bool  # p₁₁ > 0 (Sec. 6.2)
    free_slip_stable: bool  # p₂₂ > 0

    def mode_column(self, mode: str) -> tuple[int, ...]:
        """The ``s₃`` digits where ``mode`` is consistent, as printed in Table 4's mode columns."""
        return tuple(s3 + 1 for s3, sub in enumerate(self.subclasses) if mode in sub.modes)

    def mode_digits(self) -> str:
        """The four mode columns written one after the other, as the text extraction prints them."""
        return " ".join(str(d) for mode in TWO_CONTACT_MODE_NAMES for d in self.mode_column(mode))

    def impact_marks(self) -> str:
        """``x`` for IF and FI, ``(x)`` for II (only the necessary condition), in column order."""
        marks = {"IF": "x", "FI": "x", "II": "(x)"}
        return " ".join(marks[name] for name in IMPACT_NAMES if name in self.impacts)


def _stability_summary(stable: np.ndarray) -> str:
    return "stable" if stable.all() else "unstable" if not stable.any() else "depends"


@eqx.filter_jit
def _classified_samples(key: jax.Array, samples: int, laws: int):
    """Sampled ``(p⁺, b)`` with class codes, closed-form modes, IWC flags, the duals' codes and the ``S+S+``
    stability under ``k = q = −1`` (law 0) and ``laws`` random laws, in one compiled call."""
    key_configurations, key_laws = jax.random.split(key)
    painleve, b = sample_configurations(key_configurations, samples)
    log_magnitudes = jax.random.uniform(key_laws, (laws, 2, 2), minval=np.log(0.1), maxval=np.log(10.0))
    law_values = jnp.concatenate([-jnp.ones((1, 2, 2)), -jnp.exp(log_magnitudes)])  # (law, k or q, contact)
    coefficients = characteristic_polynomial(painleve[:, None], law_values[None, :, 0], law_values[None, :, 1])
    return (
        painleve,
        b,
        class_code(painleve, b),
        two_contact_modes(painleve, b).stacked(),
        impacts_without_collision(painleve).stacked(),
        class_code(*swap_contacts(painleve, b)),
        hurwitz_stable(coefficients),
    )


def recompute_table4(
    seed: int = 0, samples: int = 1 << 16, per_subclass: int = 4, stability_samples: int = 64, laws: int = 16
) -> tuple[ClassResult, ...]:
    """All 24 classes ``s₁s₂`` (the printed rows and their duals), recomputed from sampled configurations.

    Modes: the first ``per_subclass`` samples of every subclass, each by LCP enumeration (:func:`lcp_modes`) and
    checked against :func:`two_contact_modes`. Impacts: every sample of the class. ``S+S+`` stability: the first
    ``stability_samples`` ``p⁺`` of the class, each under ``k = q = −1`` and ``laws`` random laws
    (``−k_i, −q_i`` log-uniform in ``[0.1, 10]``), by Routh–Hurwitz on the closed-form polynomial.
    """
    for name, value in (("samples", samples), ("per_subclass", per_subclass), ("stability_samples", stability_samples)):
        check_argument(name, value, _COUNT)
    check_argument("laws", laws, _COUNT)
    painleve, b, codes, closed_form, impacts, dual_codes, stable_all = (
        np.asarray(x) for x in _classified_samples(jax.random.PRNGKey(seed), samples, laws)
    )
    class_names = codes[:, 0] * 10 + codes[:, 1]
    results = []
    for s1, s2 in itertools.product(range(1, 5), range(1, 7)):
        in_class = np.flatnonzero(class_names == 10 * s1 + s2)
        if in_class.size == 0:
            raise RuntimeError(f"no sample in class {s1}{s2}: raise `samples`")
        subclasses = []
        for s3 in range(1, 7):
            members = in_class[codes[in_class, 2] == s3][:per_subclass]
            if members.size == 0:
                raise RuntimeError(f"no sample in subclass {s1}{s2}{s3}: raise `samples`")
            mode_sets = []
            for index in members:
                modes = lcp_modes(painleve[index], b[index])
                flags = {name for name, flag in zip(TWO_CONTACT_MODE_NAMES, closed_form[:, index]) if flag}
                if modes != flags:
                    raise AssertionError(f"sample {index}: LCP modes {set(modes)}, closed form {flags}")
                mode_sets.append(modes)
            subclasses.append(
                SubclassResult(
                    f"{s1}{s2}{s3}",
                    int(members.size),
                    mode_sets[0],
                    all(m == mode_sets[0] for m in mode_sets),
                    painleve[members[0]],
                    b[members[0]],
                )
            )
        class_impacts = impacts[:, in_class]
        duals = {f"{d[0]}{d[1]}" for d in dual_codes[in_class]}
        if len(duals) != 1:
            raise AssertionError(f"class {s1}{s2}: samples have duals {duals}")
        stable = stable_all[in_class[:stability_samples]]  # (samples, laws)
        results.append(
            ClassResult(
                name=f"{s1}{s2}",
                dual=duals.pop(),
                subclasses=tuple(subclasses),
                impacts=frozenset(name for name, column in zip(IMPACT_NAMES, class_impacts) if column[0]),
                impacts_uniform=bool(np.all(class_impacts == class_impacts[:, :1])),
                slip_slip_stability=_stability_summary(stable),
                slip_slip_stable_fraction=float(stable.mean()),
                slip_slip_stable_paper_law=_stability_summary(stable[:, 0]),
                law_dependent=bool(np.any(stable.any(axis=1) & ~stable.all(axis=1))),
                slip_free_stable=bool(painleve[in_class[0], 0, 0] > 0),
                free_slip_stable=bool(painleve[in_class[0], 1, 1] > 0),
            )
        )
        signs = np.sign(painleve[in_class][:, [0, 1], [0, 1]])
        if not np.all(signs == signs[:1]):
            raise AssertionError(f"class {s1}{s2}: the signs of p₁₁, p₂₂ vary within the class")
    return tuple(results)
