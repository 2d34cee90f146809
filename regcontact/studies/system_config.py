"""Systems in a study config: ``[system] kind = "…"`` picks one from :data:`SYSTEM_KINDS` (planar and spatial
alike), or names a body of one's own by its class path (``docs/own-body.md``); each kind has its own keys.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any

import jax
import jax.tree_util as jtu
import numpy as np

from regcontact._argument_checks import ArgumentError, check_argument
from regcontact.studies import _user_classes as user, config as cfg
from regcontact.systems import load_at
from regcontact.systems._planar_rod import AbstractPlanarRod, check_slender_inertia
from regcontact.systems.reduced_contact import ReducedSingleContact, check_inverse_mass
from regcontact.systems.reduced_two_contact import (
    PAINLEVE_MU,
    ReducedTwoContact,
    check_delassus_blocks,
    coupling_from_painleve,
    default_tangential,
)
from regcontact.systems.rod import PainleveRod
from regcontact.systems.spatial_rod import SpatialRod, check_slip
from regcontact.systems.system import AbstractSystem, check_system, checked_together, first_bad_system
from regcontact.systems.two_point_rod import TwoPointRod

__all__ = [
    "DEFAULT_KIND",
    "SPATIAL_ROD_FIELDS",
    "SYSTEM_FIELDS",
    "SYSTEM_KINDS",
    "START_FIELDS",
    "SystemKind",
    "initial_penetration",
    "kind_fields",
    "rod_from_config",
    "spatial_system_from_config",
    "system_from_config",
    "system_kind",
    "system_kind_of",
    "systems_from_config",
]


def rule_of(system: type[AbstractSystem], key: str) -> cfg.Parser:
    """The parser of a key that is an argument of ``system``'s constructor: the rule the class declares for it
    (``ARGUMENT_RULES``), so that the config and the constructor refuse the same values in the same words."""
    return cfg.ruled(system.ARGUMENT_RULES[key])


_ROD = AbstractPlanarRod.ROD_RULES

#: The keys every rod has: its body and the gravity on it.
_ROD_BODY_FIELDS: dict[str, cfg.Field] = {
    "mass": cfg.Field(cfg.ruled(_ROD["mass"]), 1.0, "rod mass m > 0"),
    "length": cfg.Field(cfg.ruled(_ROD["length"]), 2.0, "rod length l > 0"),
    "inertia": cfg.Field(
        cfg.float_or_choice(cfg.ruled(_ROD["inertia"]), "slender"),
        "slender",
        "moment of inertia I > 0, or 'slender' (m l²/12)",
    ),
    "gravity": cfg.Field(
        cfg.load_or_table(cfg.ruled(_ROD["gravity"])),
        1.0,
        "gravitational acceleration g (f_y = −m g); or a load of time, {start, rate[, until]} or {times, values}",
    ),
}

#: The rod keys that may be loads of time (``docs/systems.md``).
_LOAD_KEYS = ("gravity", "torque", "force_x")


def _load(value: Any) -> Any:
    """A rod's load from its validated config value: the number, or the profile its table describes."""
    from regcontact.systems import RampLoad, TableLoad

    if isinstance(value, dict) and "rate" in value:
        return RampLoad(value["start"], value["rate"], value.get("until"))
    if isinstance(value, dict) and "times" in value:
        return TableLoad(value["times"], value["values"])
    return value


def _rod_values(system: dict[str, Any]) -> dict[str, Any]:
    """A validated rod table as constructor arguments: without ``kind``, ``"slender"`` as ``inertia=None``."""
    values = {key: value for key, value in system.items() if key != "kind" and key not in START_FIELDS}
    if isinstance(values["inertia"], str):  # "slender"; a batch of numbers is an array
        values["inertia"] = None
    for key in _LOAD_KEYS:  # a torque {below_threshold} stays a table: rod_from_config resolves it
        if key in values:
            values[key] = _load(values[key])
    return values


#: The rod's parameters (Preclik Eqs. 1–4 and the initial state of Sec. 2.1), with their defaults.
SYSTEM_FIELDS: dict[str, cfg.Field] = {
    **_ROD_BODY_FIELDS,
    "torque": cfg.Field(
        cfg.load_or_table(cfg.finite, below_threshold=cfg.finite),
        0.0,
        "applied torque τ, or {below_threshold = d}: τ = 2 f_y I / (m l cos φ₀) − d (Preclik Eq. 12), or a load "
        "of time, {start, rate[, until]} or {times, values}",
    ),
    "force_x": cfg.Field(
        cfg.load_or_table(rule_of(PainleveRod, "force_x")),
        0.0,
        "applied horizontal force f_x; or a load of time, {start, rate[, until]} or {times, values}",
    ),
    "mu": cfg.Field(rule_of(PainleveRod, "mu"), 1.5, "friction coefficient μ ≥ 0"),
    "phi0": cfg.Field(rule_of(PainleveRod, "phi0"), float(np.pi / 3), "initial angle φ₀ (rad)"),
    "vx0": cfg.Field(rule_of(PainleveRod, "vx0"), -1.0, "initial horizontal velocity v_x0"),
    "omega0": cfg.Field(
        rule_of(PainleveRod, "omega0"), 0.0, "initial angular velocity ω₀ (v_y0 is set so that ġ_n = 0)"
    ),
}


def rod_from_config(system: dict[str, Any]) -> PainleveRod:
    """The rod a validated ``[system]`` table describes (resolving ``"slender"`` and a torque below threshold); a
    rod its constructor refuses is a ``ConfigError``."""
    values = _rod_values(system)
    if isinstance(values["torque"], dict):
        from regcontact.rigid import torque_threshold  # imported here: validating a config needs no SciPy

        threshold = torque_threshold(
            values["phi0"], values["mass"], values["length"], values["inertia"], float(load_at(values["gravity"], 0.0))
        )
        values["torque"] = threshold - values["torque"]["below_threshold"]
    try:
        return PainleveRod(**values)
    except ArgumentError as error:
        raise cfg.ConfigError(f"system.{error.name}", error.value, error.expected) from None
    except ValueError as error:  # a rule of the whole rod: its values at the initial state
        raise cfg.ConfigError("system.kind", DEFAULT_KIND, f"a system that can be integrated ({error})") from None


#: The two-point rod's keys (``docs/systems.md``).
TWO_POINT_ROD_FIELDS: dict[str, cfg.Field] = {
    **_ROD_BODY_FIELDS,
    "torque": cfg.Field(
        cfg.load_or_table(rule_of(TwoPointRod, "torque")),
        0.0,
        "applied torque τ; or a load of time, {start, rate[, until]} or {times, values}",
    ),
    "force_x": cfg.Field(
        cfg.load_or_table(rule_of(TwoPointRod, "force_x")),
        0.0,
        "applied horizontal force f_x; or a load of time, {start, rate[, until]} or {times, values}",
    ),
    "mu": cfg.Field(rule_of(TwoPointRod, "mu"), 0.5, "friction coefficient μ ≥ 0 (both ends)"),
    "phi0": cfg.Field(rule_of(TwoPointRod, "phi0"), 0.0, "initial angle φ₀ (rad); 0 = flat"),
    "height": cfg.Field(
        rule_of(TwoPointRod, "height"), 0.0, "initial height of the lower end above the ground (0 = touching)"
    ),
    "vx0": cfg.Field(rule_of(TwoPointRod, "vx0"), 0.0, "initial horizontal velocity v_x0"),
    "vy0": cfg.Field(rule_of(TwoPointRod, "vy0"), 0.0, "initial vertical velocity v_y0"),
    "omega0": cfg.Field(rule_of(TwoPointRod, "omega0"), 0.0, "initial angular velocity ω₀"),
}


def _two_point_rod_from_config(system: dict[str, Any]) -> TwoPointRod:
    return TwoPointRod(**_rod_values(system))


def _rod_rules(system: dict[str, Any]) -> None:
    values = _rod_values(system)
    check_slender_inertia(values["mass"], values["length"], values["inertia"])


_RSC = ReducedSingleContact

#: Champneys' contact-space form of one contact (``docs/systems.md``).
REDUCED_SINGLE_CONTACT_FIELDS: dict[str, cfg.Field] = {
    "a": cfg.Field(rule_of(_RSC, "a"), 0.0, "free tangential acceleration a"),
    "b": cfg.Field(rule_of(_RSC, "b"), -1.0, "free normal acceleration b (< 0 presses the contact)"),
    "A": cfg.Field(rule_of(_RSC, "A"), 1.0, "A > 0 of the contact-space inverse mass [[A, B], [B, C]]"),
    "B": cfg.Field(rule_of(_RSC, "B"), 0.0, "B of the contact-space inverse mass [[A, B], [B, C]]"),
    "C": cfg.Field(rule_of(_RSC, "C"), 1.0, "C > 0 of the contact-space inverse mass [[A, B], [B, C]]"),
    "mu": cfg.Field(rule_of(_RSC, "mu"), 0.5, "friction coefficient μ ≥ 0"),
    "slip0": cfg.Field(rule_of(_RSC, "slip0"), 0.0, "initial slip velocity u₀ (> 0: mode S+)"),
    "normal_velocity0": cfg.Field(
        rule_of(_RSC, "normal_velocity0"), 0.0, "initial normal velocity v₀ (< 0: approaching)"
    ),
}


def _reduced_single_contact_rules(system: dict[str, Any]) -> None:
    """:class:`ReducedSingleContact`'s own rule across its keys: a positive definite ``[[A, B], [B, C]]``."""
    check_inverse_mass(system["A"], system["B"], system["C"])


_RTC = ReducedTwoContact


def _pair(key: str) -> cfg.Parser:
    """Two numbers, one per contact, each following ``key``'s rule."""
    return cfg.list_of(rule_of(_RTC, key), 2, "numbers", 2)


_MATRIX = cfg.matrix(2, 2, ReducedTwoContact.ARGUMENT_RULES["C"])
_IDENTITY = [[1.0, 0.0], [0.0, 1.0]]

#: Champneys' contact-space form of two contacts, Sec. 6 (``docs/systems.md``).
REDUCED_TWO_CONTACT_FIELDS: dict[str, cfg.Field] = {
    "a": cfg.Field(_pair("a"), [0.0, 0.0], "free tangential accelerations [a1, a2]"),
    "b": cfg.Field(_pair("b"), [-1.0, -1.0], "free normal accelerations [b1, b2] (< 0 presses)"),
    "A": cfg.Field(
        cfg.or_word(_MATRIX, "auto"),
        None,
        "tangential block A_ij = c_i M⁻¹ c_j, or 'auto': Bᵀ C⁻¹ B + tangential_complement",
    ),
    "B": cfg.Field(
        cfg.or_word(_MATRIX, "none"),
        None,
        "coupling B_ij = d_i M⁻¹ c_j (normal i, tangential j); 'none': zero or from p_plus",
    ),
    "C": cfg.Field(_MATRIX, _IDENTITY, "normal block C_ij = d_i M⁻¹ d_j (symmetric positive definite)"),
    "p_plus": cfg.Field(
        cfg.or_word(_MATRIX, "none"),
        None,
        "Painlevé matrix p⁺ = C − B diag(μ) instead of B (needs μ > 0); 'none': use B",
    ),
    "tangential_complement": cfg.Field(
        _MATRIX, _IDENTITY, "A − Bᵀ C⁻¹ B when A = 'auto' (symmetric positive definite)"
    ),
    "mu": cfg.Field(_pair("mu"), [0.5, 0.5], "friction coefficients [μ1, μ2], each ≥ 0"),
    "slip0": cfg.Field(_pair("slip0"), [1.0, 1.0], "initial slip velocities [u1, u2] (> 0: mode S+)"),
    "normal_velocity0": cfg.Field(
        _pair("normal_velocity0"), [0.0, 0.0], "initial normal velocities [v1, v2] (< 0: approaching)"
    ),
}


def _coupling(system: dict[str, Any]) -> np.ndarray:
    """``B`` of a validated ``reduced_two_contact`` table: given, zero, or from ``p_plus``
    (:meth:`ReducedTwoContact.from_painleve`'s coupling)."""
    if system["p_plus"] is not None:
        return coupling_from_painleve(system["p_plus"], system["C"], system["mu"])
    return np.zeros((2, 2)) if system["B"] is None else np.asarray(system["B"], dtype=float)


def _reduced_two_contact_rules(system: dict[str, Any]) -> None:
    """``B`` or ``p_plus`` (not both; ``p_plus`` needs :data:`PAINLEVE_MU`), then :class:`ReducedTwoContact`'s own
    rules of the blocks (:func:`check_delassus_blocks`); a coupling made from ``p_plus`` is named ``p_plus``."""
    if system["p_plus"] is not None and system["B"] is not None:
        raise ArgumentError("p_plus", system["p_plus"], "'none' when system.B is given (B or p_plus, not both)")
    if system["p_plus"] is not None:
        try:
            check_argument("mu", system["mu"], PAINLEVE_MU)
        except ArgumentError:
            raise ArgumentError("mu", system["mu"], PAINLEVE_MU.expected) from None
    try:
        check_delassus_blocks(system["A"], _coupling(system), system["C"], system["tangential_complement"])
    except ArgumentError as error:
        if error.name != "B":
            raise
        key = "B" if system["p_plus"] is None else "p_plus"
        raise ArgumentError(key, system[key], error.expected) from None


def _reduced_two_contact_from_config(system: dict[str, Any]) -> ReducedTwoContact:
    B, C = _coupling(system), np.asarray(system["C"], dtype=float)
    complement = np.asarray(system["tangential_complement"], dtype=float)
    A = default_tangential(B, C, complement) if system["A"] is None else np.asarray(system["A"], dtype=float)
    keys = ("a", "b", "mu", "slip0", "normal_velocity0")
    return ReducedTwoContact(A=A, B=B, C=C, **{key: np.asarray(system[key], dtype=float) for key in keys})


#: The 3D slender rod's keys (``docs/spatial_contact.md``), with :class:`~regcontact.systems.SpatialRod`'s defaults.
SPATIAL_ROD_FIELDS: dict[str, cfg.Field] = {
    "mass": cfg.Field(rule_of(SpatialRod, "mass"), 1.0, "rod mass m > 0"),
    "half_length": cfg.Field(
        rule_of(SpatialRod, "half_length"), 1.0, "half-length l > 0: centre of mass to the contact end (the paper's l)"
    ),
    "gyration": cfg.Field(
        cfg.float_or_choice(rule_of(SpatialRod, "gyration"), "uniform"),
        "uniform",
        "radius of gyration ρ > 0 about a transverse axis, or 'uniform' (ρ = l/√3)",
    ),
    "gravity": cfg.Field(rule_of(SpatialRod, "gravity"), 1.0, "gravitational acceleration g"),
    "mu": cfg.Field(rule_of(SpatialRod, "mu"), 1.0, "friction coefficient μ ≥ 0"),
    "theta0": cfg.Field(rule_of(SpatialRod, "theta0"), math.pi / 3, "initial angle θ₀ of the rod to the plane (rad)"),
    "psi0": cfg.Field(rule_of(SpatialRod, "psi0"), 0.0, "initial azimuth ψ₀ of the rod, centre to contact end (rad)"),
    "slip0": cfg.Field(
        cfg.list_of(rule_of(SpatialRod, "slip0"), 2, "numbers", 2),
        [1.0, 0.0],
        "initial slip (u₁, u₂) of the contact end, not zero",
    ),
    "theta_rate0": cfg.Field(rule_of(SpatialRod, "theta_rate0"), 0.0, "initial rate θ̇₀"),
    "psi_rate0": cfg.Field(rule_of(SpatialRod, "psi_rate0"), 0.0, "initial rate ψ̇₀"),
}


def _spatial_rod_rules(system: dict[str, Any]) -> None:
    """:class:`~regcontact.systems.SpatialRod`'s own rule across keys: a slip that is not zero
    (:func:`~regcontact.systems.spatial_rod.check_slip`)."""
    check_slip(system["slip0"])


def _spatial_rod_from_config(system: dict[str, Any]) -> SpatialRod:
    values = {key: value for key, value in system.items() if key != "kind"}
    if isinstance(values["gyration"], str):  # "uniform"
        values["gyration"] = None
    return SpatialRod(**values)


def _no_rules(system: dict[str, Any]) -> None:
    """A kind whose keys have no rule across them."""


@dataclasses.dataclass(frozen=True)
class SystemKind:
    """A system kind of the config: the class it builds, its keys (besides ``kind``), how to build the system from
    them, and the system's own rules across keys (``rules``: they raise
    :class:`~regcontact._argument_checks.ArgumentError` naming the key, the words of the constructor)."""

    system_class: type[AbstractSystem]
    fields: Mapping[str, cfg.Field]
    build: Callable[[dict[str, Any]], AbstractSystem]
    doc: str
    rules: Callable[[dict[str, Any]], None] = _no_rules
    #: ``build`` works elementwise on arrays of numbers, giving a batch of systems (:func:`systems_from_config`).
    elementwise: bool = True

    @property
    def spatial(self) -> bool:
        """Its contacts slip in a plane (a 2-vector slip): said by its class."""
        return self.system_class.TANGENT_DIM == 2

    @property
    def start_fields(self) -> Mapping[str, cfg.Field]:
        """The keys of how a run of it starts (:data:`START_FIELDS`; none for a spatial kind)."""
        return {} if self.spatial else START_FIELDS

    @property
    def expected(self) -> str:
        """What a class named in ``system.kind`` of a study of this kind's side must be."""
        return SPATIAL_CLASS if self.spatial else PLANAR_CLASS

    def check(self, system: dict[str, Any]) -> None:
        """The rules across keys of a validated ``[system]`` table, as a :class:`~regcontact.studies.config.
        ConfigError` of the key at fault."""
        try:
            self.rules(system)
        except ArgumentError as error:
            raise cfg.ConfigError(f"system.{error.name}", error.value, error.expected) from None


#: System kinds by their config name, planar and spatial (a kind knows which it is from its class).
SYSTEM_KINDS: dict[str, SystemKind] = {
    "painleve_rod": SystemKind(
        PainleveRod, SYSTEM_FIELDS, lambda system: rod_from_config(system), "the Painlevé rod, one contact", _rod_rules
    ),
    "two_point_rod": SystemKind(
        TwoPointRod,
        TWO_POINT_ROD_FIELDS,
        _two_point_rod_from_config,
        "the rod with both ends, two contacts",
        _rod_rules,
    ),
    "reduced_single_contact": SystemKind(
        ReducedSingleContact,
        REDUCED_SINGLE_CONTACT_FIELDS,
        lambda system: ReducedSingleContact(**{key: value for key, value in system.items() if key != "kind"}),
        "Champneys' contact-space form of one contact",
        _reduced_single_contact_rules,
    ),
    "reduced_two_contact": SystemKind(
        ReducedTwoContact,
        REDUCED_TWO_CONTACT_FIELDS,
        _reduced_two_contact_from_config,
        "Champneys' contact-space form of two contacts (Sec. 6)",
        _reduced_two_contact_rules,
        elementwise=False,  # its blocks come from numpy's linear algebra, one system at a time
    ),
    "spatial_rod": SystemKind(
        SpatialRod,
        SPATIAL_ROD_FIELDS,
        _spatial_rod_from_config,
        "the slender 3D rod, one end on the plane",
        _spatial_rod_rules,
    ),
}

DEFAULT_KIND = "painleve_rod"


def _kind_name(raw: Mapping[str, Any], default: str) -> Any:
    table = raw.get("system", {})
    return table.get("kind", default) if isinstance(table, Mapping) else default


def system_kind(raw: Mapping[str, Any], spatial: bool = False) -> str:
    """The ``[system] kind`` a raw config names (default ``painleve_rod``, ``spatial_rod`` for a study of spatial
    systems); ``ConfigError`` for an unknown one or one of the other side. A class path comes back in its absolute
    form, its class loaded and checked (:func:`system_kind_of`)."""
    name = _kind_name(raw, "spatial_rod" if spatial else DEFAULT_KIND)
    expected = SPATIAL_CLASS if spatial else PLANAR_CLASS
    if user.is_class_path(name):
        resolved = user.resolved_class_path("system.kind", name, expected)
        found = system_kind_of(resolved, written=name, expected=expected)
        if found.spatial != spatial:
            side_class = expected if spatial else f"{expected} with TANGENT_DIM = 1"
            dim = found.system_class.TANGENT_DIM
            raise cfg.ConfigError(
                "system.kind", name, f"{side_class}; {found.system_class.__name__} has TANGENT_DIM = {dim}"
            )
        return resolved
    side = [kind for kind, found in SYSTEM_KINDS.items() if found.spatial == spatial]
    if isinstance(name, str) and name in side:
        return name
    known = ", ".join(repr(kind) for kind in side)
    other = isinstance(name, str) and name in SYSTEM_KINDS
    if spatial:
        planar = f" ({name!r} is planar: it runs in the planar study kinds)" if other else ""
        raise cfg.ConfigError("system.kind", name, f"a spatial system kind, one of {known}{planar}, or {user.FORM}")
    known = f"one of {known}"
    if other:
        known = f"a planar system kind, {known} ({name!r} is spatial: it runs in study.kind = 'spatial_crossing')"
    raise cfg.ConfigError("system.kind", name, f"{known}, or {user.FORM}")


#: Keys every kind has: how the run starts, not what the body is (so they never reach a system's builder).
START_FIELDS: dict[str, cfg.Field] = {
    "initial_penetration": cfg.Field(
        cfg.nonnegative_or_table(coefficient=cfg.nonnegative, power=cfg.finite),
        0.0,
        "depth δ ≥ 0 the closed contacts start pressed in by, or {coefficient = c, power = p}: δ = c α^(−p)",
    ),
}


#: The entry of a ``[system]`` schema that holds its kind's rules across keys (not a key of the config).
RULES_ENTRY = "(rules across keys)"


#: What a class named in ``system.kind`` of a planar, and of a spatial, study must be.
PLANAR_CLASS = "a subclass of regcontact.systems.AbstractSystem"
SPATIAL_CLASS = "a subclass of regcontact.systems.AbstractSystem with TANGENT_DIM = 2"


#: The kinds made from classes named by path, by class (an edited file is a new class, so a new kind).
_USER_KINDS: dict[type, SystemKind] = {}


def _user_kind(cls: type[AbstractSystem], name: str) -> SystemKind:
    """The kind of a user's class: its constructor's parameters as keys, parsed by its ``ARGUMENT_RULES``; its
    rules across keys are its constructor's (the system built, not yet checked: the study checks it)."""
    start = () if cls.TANGENT_DIM == 2 else tuple(START_FIELDS)
    fields = user.constructor_fields("system.kind", name, cls, cls.ARGUMENT_RULES, reserved=("kind", *start))

    def build(table: dict[str, Any]) -> AbstractSystem:
        return user.constructed(cls, {key: value for key, value in table.items() if key != "kind"})

    def rules(table: dict[str, Any]) -> None:
        with checked_together():
            try:
                build({key: value for key, value in table.items() if key not in START_FIELDS})
            except ArgumentError:
                raise
            except ValueError as error:
                raise ArgumentError("kind", table["kind"], f"a system that can be integrated ({error})") from None

    # Built one system at a time: a user's constructor need not work elementwise on arrays.
    return SystemKind(cls, fields, build, f"{cls.__name__} ({name})", rules, elementwise=False)


def system_kind_of(name: str, written: str | None = None, expected: str = PLANAR_CLASS) -> SystemKind:
    """The kind a validated ``system.kind`` names, planar or spatial: a built-in one, or the class at a class path
    (imported and checked: a :class:`~regcontact.studies.config.ConfigError` naming ``written``, the value as the
    config gave it, and saying ``expected``, if it cannot be loaded or is no system class)."""
    if name in SYSTEM_KINDS:
        return SYSTEM_KINDS[name]
    cls = user.load_class("system.kind", written or name, AbstractSystem, expected)
    if cls not in _USER_KINDS:
        _USER_KINDS[cls] = _user_kind(cls, written or name)
    return _USER_KINDS[cls]


def kind_fields(kind: str, across_keys: bool = True) -> dict[str, Any]:
    """The ``[system]`` schema of a kind: ``kind`` (its name, or the class path the config wrote, relative to the
    study file), the keys of how a run starts (planar kinds), the kind's own keys and (with ``across_keys``) its
    rules across them, checked as the table is validated. A study that sweeps the system's keys leaves them out
    and checks every system of its sweep instead."""
    found = system_kind_of(kind)
    names = [] if user.is_class_path(kind) else [kind]
    field = cfg.Field(user.name_or_class("system.kind", names, found.expected), kind, f"the system kind, {kind!r}")
    rules = {RULES_ENTRY: cfg.TableRule(found.rules)} if across_keys else {}
    return {"kind": field, **found.start_fields, **found.fields, **rules}


def initial_penetration(system: dict[str, Any], alpha: float) -> float:
    """The depth ``δ`` a validated ``[system]`` table asks for at stiffness multiplier ``alpha`` (``inf`` where
    ``c α^(−p)`` overflows)."""
    depth = system.get("initial_penetration", 0.0)
    if isinstance(depth, dict):
        try:
            return depth["coefficient"] * alpha ** (-depth["power"])
        except OverflowError:
            return float("inf")
    return float(depth)


def _built(kind: str, system: dict[str, Any], found: SystemKind | None = None) -> AbstractSystem:
    """The kind's constructor (``found``, else looked up) on a validated table (without the start keys); its
    refusal as a ``ConfigError``: of the key it names, or of the kind for a rule of the whole system (its mass
    matrix)."""
    found = found or system_kind_of(kind)
    try:
        built = found.build({key: value for key, value in system.items() if key not in START_FIELDS})
    except ArgumentError as error:
        raise cfg.ConfigError(f"system.{error.name}", error.value, error.expected) from None
    except ValueError as error:
        raise cfg.ConfigError("system.kind", kind, f"a system that can be integrated ({error})") from None
    return built


def system_from_config(system: dict[str, Any]) -> AbstractSystem:
    """The system a validated ``[system]`` table describes, checked (:func:`check_system`) before it is used."""
    kind = system.get("kind", DEFAULT_KIND)
    with checked_together():
        built = _built(kind, system)
    try:
        check_system(built)
    except ValueError as error:
        raise cfg.ConfigError("system.kind", kind, f"a system that can be integrated ({error})") from None
    except Exception as error:  # a body whose own methods fail on its arrays (a class named by path)
        raise cfg.ConfigError(
            "system.kind", kind, f"a system that can be integrated ({user.one_line(error)})"
        ) from None
    return built


#: Fewer distinct systems than this are built one by one (cheap), more as one elementwise batch.
ELEMENTWISE_FROM = 32


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _same_structure(tree: Any, other: Any) -> bool:
    return bool(jtu.tree_structure(tree) == jtu.tree_structure(other))  # type: ignore[operator]  # jaxlib's stub


def _elementwise_batch(kind: SystemKind, tables: list[dict[str, Any]]) -> AbstractSystem | None:
    """The systems of ``tables`` built in one call of the kind's builder on arrays of the keys that differ, or
    ``None`` where that cannot be trusted: a differing key that is not a number, or a leaf that does not come
    out as ``(b, *shape of one system)``."""
    varying = [key for key in tables[0] if any(table[key] != tables[0][key] for table in tables)]
    if not all(_is_number(table[key]) for key in varying for table in tables):
        return None
    size = len(tables)
    arrays = {key: np.array([table[key] for table in tables], dtype=float) for key in varying}
    body = {key: value for key, value in tables[0].items() if key not in START_FIELDS}
    one = jax.eval_shape(lambda: kind.build(body))
    batch = kind.build({**body, **{key: value for key, value in arrays.items() if key not in START_FIELDS}})
    leaves, one_leaves = jtu.tree_leaves(batch), jtu.tree_leaves(one)
    structure = jtu.tree_structure(batch)
    if not _same_structure(batch, one):
        return None
    shaped = []
    for leaf, single in zip(leaves, one_leaves):
        leaf = np.asarray(leaf)
        if leaf.shape == single.shape:
            leaf = np.broadcast_to(leaf, (size, *single.shape))
        elif leaf.shape != (size, *single.shape):
            return None
        shaped.append(leaf)
    return jtu.tree_unflatten(structure, shaped)


def systems_from_config(tables: list[dict[str, Any]]) -> AbstractSystem:
    """The systems a list of validated ``[system]`` tables of one kind describe, as one batch (every leaf with a
    leading axis, one entry per table), checked like :func:`system_from_config`.

    Many systems of a kind whose builder is elementwise are built by one call on arrays (no Python loop per
    system) and checked by one vmapped evaluation (:func:`~regcontact.systems.system.first_bad_system`)."""
    name = tables[0].get("kind", DEFAULT_KIND)
    kind = system_kind_of(name)
    varying = [key for key in tables[0] if any(table[key] != tables[0][key] for table in tables)]

    def at(index: int) -> str:
        where = ", ".join(f"{key}={tables[index][key]!r}" for key in varying)
        return f", at {where}" if where else ""

    batch = None
    with checked_together():  # the batch is checked below, in one evaluation
        if kind.elementwise and len(tables) >= ELEMENTWISE_FROM:
            try:
                batch = _elementwise_batch(kind, tables)
            except ValueError:  # a system the constructor refuses: found and named one by one below
                batch = None
        if batch is None:
            built = []
            for index, table in enumerate(tables):
                try:
                    built.append(_built(name, table, kind))
                except cfg.ConfigError as error:
                    raise cfg.ConfigError(error.key, error.value, error.expected + at(index)) from None
            batch = jtu.tree_map(lambda *leaves: np.stack([np.asarray(leaf) for leaf in leaves]), *built)
    try:
        found = first_bad_system(batch)
    except Exception as error:  # a body whose own methods fail on its arrays (a class named by path)
        raise cfg.ConfigError(
            "system.kind", name, f"a system that can be integrated ({user.one_line(error)})"
        ) from None
    if found is not None:
        index, problem = found
        raise cfg.ConfigError("system.kind", name, f"a system that can be integrated ({problem}{at(index)})")
    return batch


def spatial_system_from_config(system: dict[str, Any]) -> AbstractSystem:
    """The spatial system a validated ``[system]`` table describes, after its kind's check; the constructor's
    refusal as a :class:`~regcontact.studies.config.ConfigError` (of the key it names, or of the kind)."""
    kind = system_kind_of(system["kind"], expected=SPATIAL_CLASS)
    kind.check(system)
    try:
        built = kind.build(system)
    except ArgumentError as error:
        raise cfg.ConfigError(f"system.{error.name}", error.value, error.expected) from None
    except ValueError as error:
        raise cfg.ConfigError("system.kind", system["kind"], f"a system that can be integrated ({error})") from None
    return built
