"""One rule per value, wherever it enters: the config (the CLI) and the Python API refuse the same values in the
same words, eager JAX arrays and NaN included; traced values are checked by the compiled run itself."""

import copy
import inspect
import math
import tomllib
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest

import regcontact as rc
from regcontact._argument_checks import ArgumentError
from regcontact.compliant import sampled_run, sweep_chunk_size
from regcontact.compliant.alpha_sweep import contact_time_windows
from regcontact.compliant.dynamics import CompliantState
from regcontact.compliant.run_checks import RUN_CHECKS
from regcontact.contact import ContactModel, SpringDamper, ViscousCoulomb, law_exponents
from regcontact.studies import config as cfg
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_config, load_study
from regcontact.studies.system_config import (
    SYSTEM_KINDS,
    kind_fields,
    spatial_system_from_config,
    systems_from_config,
)
from regcontact.systems import (
    PainleveRod,
    ReducedSingleContact,
    ReducedTwoContact,
    SpatialRod,
    TwoPointRod,
)
from regcontact.systems.legged_body import TwoLeggedBody

STUDIES = Path(__file__).parents[1] / "studies"
TABLE1 = STUDIES / "table1.toml"
CHATTER = STUDIES / "chatter.toml"
ROD = PainleveRod()
#: The α of Table 1's study (its `sweep.alpha`).
TABLE1_ALPHAS = tomllib.loads(TABLE1.read_text(encoding="utf-8"))["sweep"]["alpha"]

#: Values a key may be given: wrong types, out of every rule's range, at its edges, subnormal, not finite.
PROBES: list[Any] = [-1.0, 0.0, 1e-320, 0.5, 2.0, 4.0, 5, float("nan"), float("inf"), -float("inf"), "abc", True]


# --- the cases found by trying: each was accepted, or a traceback, before -------------------------------------


@pytest.mark.parametrize("max_steps", [0, -1, 1e30, 10**30, 2.0, True])
def test_a_step_budget_out_of_range_is_refused_naming_it(max_steps):
    with pytest.raises(ValueError, match=r"^max_steps = .*: expected a positive integer ≤ 1e\+12$"):
        rc.SolveSettings(max_steps=max_steps)
    assert rc.SolveSettings(max_steps=np.int64(7)).max_steps == 7


def test_a_contact_model_refuses_what_is_not_its_laws():
    with pytest.raises(ValueError, match=r"^normal = 'bogus': expected a normal law, an AbstractNormalLaw"):
        ContactModel(normal="bogus")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^friction = SpringDamper\(.*\): expected a friction law"):
        ContactModel(friction=SpringDamper())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^normal_exponents = .*: expected the exponents of a SpringDamper"):
        ContactModel(normal_exponents=law_exponents(rc.contact.HuntCrossley))


def test_an_alpha_sweep_of_nothing_or_in_chunks_of_nothing_is_refused():
    with pytest.raises(ValueError, match=r"^alphas = \[\]: expected a non-empty list of positive numbers$"):
        rc.alpha_sweep(ROD, ContactModel(), [], contact_times=1.0)
    with pytest.raises(ValueError, match=r"^chunk_size = 0: expected a positive integer$"):
        rc.alpha_sweep(ROD, ContactModel(), [1e3], contact_times=1.0, chunk_size=0)


def test_an_alpha_whose_window_is_no_time_is_named():
    # α^2 underflows: the stiffness is zero in float64, the contact time infinite
    contact = ContactModel(normal_exponents=law_exponents(SpringDamper, stiffness=2.0))
    with pytest.raises(ValueError, match=r"^alphas = 1e-200: expected an α whose contact time .* t_c = inf"):
        rc.alpha_sweep(ROD, contact, [1e3, 1e-200], contact_times=1.0)


def test_the_api_refuses_what_the_cli_refused_and_it_accepted():
    with pytest.raises(ValueError, match=r"^slip0 = \(0, 0\): expected a non-zero slip"):
        SpatialRod(slip0=(0, 0))
    with pytest.raises(ValueError, match=r"^B = 10: expected B² < A C = 1: the contact-space inverse mass"):
        ReducedSingleContact(B=10)
    with pytest.raises(ValueError, match=r"^mass = 1e-320: expected a positive number \(JAX flushes subnormal"):
        PainleveRod(mass=1e-320)
    with pytest.raises(ValueError, match=r"^t_max = '1': expected a positive number$"):
        rc.Controls(t_max="1")
    with pytest.raises(ValueError, match=r"^t_max = \[\]: expected a positive number$"):
        rc.Controls(t_max=[])


def test_a_subnormal_mass_is_refused_by_the_cli_in_the_words_of_the_api():
    with pytest.raises(ConfigError) as cli:
        load_study(TABLE1, ["system.mass=1e-320"])
    with pytest.raises(ArgumentError) as api:
        PainleveRod(mass=1e-320)
    assert cli.value.key == "system.mass" and cli.value.expected == api.value.expected


def test_a_state_of_the_wrong_shape_or_not_finite_is_named():
    controls = rc.Controls(t_max=0.01)
    short = CompliantState(q=jnp.zeros(2), v=jnp.zeros(2), impulses=jnp.zeros((1, 2)))
    with pytest.raises(ValueError, match=r"^state0.q = an array of shape \(2,\): expected shape \(3,\), as Painl"):
        rc.solve(ROD, ContactModel(), 1e3, controls, state0=short)
    q0, v0 = ROD.initial_state()
    broken = CompliantState(q=q0, v=v0.at[1].set(jnp.nan), impulses=jnp.zeros((1, 2)))
    with pytest.raises(ValueError, match=r"^state0.v = nan: expected a finite number$"):
        rc.solve(ROD, ContactModel(), 1e3, controls, state0=broken)


def test_eager_jax_arrays_are_checked_like_numbers():
    with pytest.raises(ValueError, match=r"^mu = -1: expected a number ≥ 0$"):
        PainleveRod(mu=jnp.asarray(-1.0))
    with pytest.raises(ValueError, match=r"^rtol = 2: expected a number in \[2.2e-14, 1\) \(100 float64 epsilons"):
        rc.Controls(rtol=jnp.asarray(2.0), t_max=1.0)
    with pytest.raises(ValueError, match=r"^alpha = nan: expected a positive number$"):
        rc.solve(ROD, ContactModel(), jnp.asarray(jnp.nan), rc.Controls(t_max=1.0))
    with pytest.raises(ValueError, match=r"^stiffness = -3: expected a positive number$"):
        SpringDamper(stiffness=jnp.asarray(-3.0))


def test_traced_values_are_not_read():
    rods = jax.vmap(lambda mu: PainleveRod(mu=mu))(jnp.array([-1.0, 2.0]))  # checked where a run uses them
    np.testing.assert_array_equal(rods.mu, [-1.0, 2.0])
    assert float(jax.jit(lambda rtol: rc.Controls(rtol=rtol, t_max=1.0).rtol)(2.0)) == 2.0


# --- NaN and ±inf in any parameter or initial state of every shipped system -----------------------------------

SYSTEMS = [PainleveRod, TwoPointRod, TwoLeggedBody, ReducedSingleContact, ReducedTwoContact, SpatialRod]


def _default(system: type, name: str) -> Any:
    """The constructor's default of an argument, made concrete where it is ``None`` (derived)."""
    default = inspect.signature(system.__init__).parameters[name].default
    if default is None:
        return [[1.0, 0.0], [0.0, 1.0]] if system is ReducedTwoContact else 1.0
    return default


def _with_first(value: Any, entry: float) -> Any:
    """``value`` (a number, or nested sequences of them) with its first number replaced by ``entry``."""
    array = np.array(value, dtype=float)
    array.flat[0] = entry
    return float(array) if array.ndim == 0 else array.tolist()


NOT_FINITE = [
    (system, name, entry)
    for system in SYSTEMS
    for name in system.ARGUMENT_RULES
    for entry in (float("nan"), float("inf"), -float("inf"))
]


@pytest.mark.parametrize("eager", [False, True], ids=["python", "eager-jax"])
@pytest.mark.parametrize("system, name, entry", NOT_FINITE, ids=[f"{s.__name__}.{n}={e}" for s, n, e in NOT_FINITE])
def test_a_parameter_that_is_not_finite_is_a_value_error_naming_it(system, name, entry, eager):
    value = _with_first(_default(system, name), entry)
    given = jnp.asarray(value) if eager else value
    with pytest.raises(ArgumentError) as refused:
        system(**{name: given})
    assert refused.value.name == name
    shown = refused.value.value
    assert not np.all(np.isfinite(np.asarray(shown, dtype=float))), str(refused.value)


# --- the CLI's refusals through the API, and back -------------------------------------------------------------


def _api_args(system: type, table: dict[str, Any]) -> dict[str, Any]:
    """A validated ``[system]`` table as constructor arguments: keys the constructor does not take, and those the
    config leaves to be derived ("slender", "uniform", "none", "auto"), are left to the constructor's defaults."""
    return {
        key: value
        for key, value in table.items()
        if key in system.ARGUMENT_RULES and value is not None and value not in ("slender", "uniform")
    }


def _probe(default: Any, value: Any) -> Any:
    """``value`` shaped like a key's default: itself for a number, in the first place of a pair or a matrix."""
    if default is None or (isinstance(default, list) and isinstance(default[0], list)):
        return [[value, 0.0], [0.0, 1.0]]
    if isinstance(default, list):
        return [value, *default[1:]]
    return value


def _verdict(build) -> tuple[str, str] | None:
    """``(key, expected)`` of a refusal (the API's words turned into the config's key), ``None`` if accepted."""
    try:
        build()
    except ConfigError as error:
        return error.key, error.expected
    except ArgumentError as error:
        return f"system.{error.name}", error.expected
    except ValueError as error:  # a rule of the whole system (its mass matrix): the config names the kind
        return "system.kind", str(error)
    return None


def _assert_same(cli: tuple[str, str] | None, api: tuple[str, str] | None, what: str) -> None:
    assert (cli is None) == (api is None), f"{what}: the CLI says {cli}, the API {api}"
    if cli is not None and api is not None:
        assert cli[0] == api[0], f"{what}: the CLI names {cli[0]}, the API {api[0]}"
        assert api[1] in cli[1], f"{what}: the CLI expects {cli[1]!r}, the API {api[1]!r}"


PLANAR = {"painleve_rod": PainleveRod, "two_point_rod": TwoPointRod}
PLANAR |= {"reduced_single_contact": ReducedSingleContact, "reduced_two_contact": ReducedTwoContact}
KIND_KEYS = [
    (kind, key) for kind, system in PLANAR.items() for key in SYSTEM_KINDS[kind].fields if key in system.ARGUMENT_RULES
] + [("spatial_rod", key) for key in SYSTEM_KINDS["spatial_rod"].fields if key in SpatialRod.ARGUMENT_RULES]


def test_every_system_kind_and_every_key_with_a_rule_is_probed():
    assert {kind for kind, found in SYSTEM_KINDS.items() if not found.spatial} == set(PLANAR)
    assert {kind for kind, found in SYSTEM_KINDS.items() if found.spatial} == {"spatial_rod"}
    for kind, system in [*PLANAR.items(), ("spatial_rod", SpatialRod)]:
        fields = SYSTEM_KINDS[kind].fields
        probed = {key for probed_kind, key in KIND_KEYS if probed_kind == kind}
        # every constructor rule the config has a key for, and every config key a constructor rule exists for
        assert probed == set(fields) & set(system.ARGUMENT_RULES)
        assert probed, kind


@pytest.mark.slow
@pytest.mark.parametrize("kind, key", KIND_KEYS, ids=[f"{kind}.{key}" for kind, key in KIND_KEYS])
def test_a_system_key_is_refused_by_the_config_exactly_when_the_constructor_refuses_it(kind, key):
    """Each value of :data:`PROBES` goes through the config layer every study uses for its system (the table's
    schema, then the build and the system check) and through the class's constructor, with the same values for
    every other key: both accept it, or both refuse it naming the same key with the same rule."""
    spatial = SYSTEM_KINDS[kind].spatial
    schema = {"system": kind_fields(kind)}
    system = SpatialRod if spatial else PLANAR[kind]
    defaults = cfg.validate({"system": {"kind": kind}}, schema)["system"]
    refused = []
    for probe in [*PROBES, *([[0.0, 0.0]] if key == "slip0" and spatial else [])]:
        value = probe if isinstance(probe, list) else _probe(defaults[key], probe)

        def through_config(value=value):
            table = cfg.validate({"system": {"kind": kind, key: copy.deepcopy(value)}}, schema)["system"]
            return spatial_system_from_config(table) if spatial else systems_from_config([table])

        def through_api(value=value):
            return system(**(_api_args(system, defaults) | {key: copy.deepcopy(value)}))

        cli = _verdict(through_config)
        _assert_same(cli, _verdict(through_api), f"{kind}.{key} = {value!r}")
        refused.append(cli is not None)
    assert any(refused) and not all(refused)  # the probes reach both sides of the rule


def _set(raw: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    raw = copy.deepcopy(raw)
    *tables, leaf = key.split(".")
    node = raw
    for table in tables:
        node = node.setdefault(table, {})
    node[leaf] = value
    return raw


#: Keys of a compliant study outside ``[system]`` that the API takes, with the API call that takes the value.
CASES_AND_CONTROLS = {
    "solver.rtol": lambda v: rc.Controls(rtol=v, t_max=1.0),
    "solver.atol": lambda v: rc.Controls(atol=v, t_max=1.0),
    "termination.time_limit": lambda v: rc.Controls(t_max=v),
    "solver.max_steps": lambda v: rc.SolveSettings(max_steps=v),
    "sweep.alpha": lambda v: rc.Case(ROD, ContactModel(), v, rc.Controls(t_max=1.0)),
    "sweep.chunk_size": lambda v: sweep_chunk_size(
        rc.Case(ROD, ContactModel(), np.ones(3), rc.Controls(t_max=np.ones(3))), jax.devices()[:1], v
    ),
    "system.initial_penetration": lambda v: rc.Case(ROD, ContactModel(), 1e3, rc.Controls(t_max=1.0), v),
    "contact.normal.stiffness": lambda v: SpringDamper(stiffness=v),
    "contact.normal.damping": lambda v: SpringDamper(damping=v),
    "contact.friction.damping": lambda v: ViscousCoulomb(damping=v),
    # the exponent alone is any finite number; with the study's α it must leave each run's window a time
    "contact.normal_exponents.stiffness": lambda v: contact_time_windows(
        ROD, ContactModel(normal_exponents=law_exponents(SpringDamper, stiffness=v)), TABLE1_ALPHAS
    ),
}
#: Where the API's argument has another name than the config key's last part.
API_NAMES = {"termination.time_limit": "t_max", "system.initial_penetration": "penetration"}


@pytest.mark.slow
@pytest.mark.parametrize("key", CASES_AND_CONTROLS)
def test_a_solve_key_is_refused_by_the_config_exactly_when_the_api_refuses_it(key):
    raw = tomllib.loads(TABLE1.read_text(encoding="utf-8"))
    counts = [0, -1, 3, 10**30, 1e30, 2.5]
    refused = []
    for probe in [*PROBES, *counts]:
        value = [probe] if key == "sweep.alpha" else probe
        cli = _verdict(lambda value=value: load_config(_set(raw, key, value)))
        try:
            CASES_AND_CONTROLS[key](copy.deepcopy(value))
            api = None
        except ArgumentError as error:
            if error.name == "alphas":  # the window of an α of the study: the config names the α
                api = ("sweep.alpha", error.expected)
            else:
                assert error.name == API_NAMES.get(key, key.rpartition(".")[2]), str(error)
                api = (key, error.expected)
        _assert_same(cli, api, f"{key} = {value!r}")
        refused.append(cli is not None)
    assert any(refused) and not all(refused)  # the probes reach both sides of the rule


# --- what the CLI took and then failed on: one line naming the key now -----------------------------------------


@pytest.mark.parametrize(
    "override, key, expected",
    [
        ("sweep.alpha=[5e-324]", "sweep.alpha", "each a positive number (JAX flushes subnormal numbers"),
        ("solver.max_steps=1e30", "solver.max_steps", "a positive integer ≤ 1e+12"),
        ("solver.max_steps=1000000000000000000000000000000", "solver.max_steps", "a positive integer ≤ 1e+12"),
    ],
)
def test_the_cli_names_what_it_took_and_failed_on(override, key, expected):
    with pytest.raises(ConfigError) as refused:
        load_study(TABLE1, [override])
    assert refused.value.key == key and expected in refused.value.expected


def test_a_chatter_system_without_a_mass_matrix_is_refused_at_validation():
    with pytest.raises(ConfigError) as refused:
        load_study(CHATTER, ["system.B=10"])
    assert refused.value.key == "system.B"
    assert refused.value.expected.startswith("B² < A C = ")


@pytest.mark.parametrize("wrap", [float, np.asarray, jnp.asarray])
@pytest.mark.parametrize("alpha, name", [(math.nan, "alphas"), (-1.0, "alphas"), (1e-200, "alphas")])
def test_contact_time_windows_refuse_by_name(wrap, alpha, name):
    """NaN and α ≤ 0 by the config's rule; an α whose window is no time (k(α) = 0 with exponent 2) by its own."""
    model = ContactModel(normal_exponents=law_exponents(SpringDamper, stiffness=2))
    with pytest.raises(ArgumentError) as refused:
        contact_time_windows(ROD, model, [1e3, wrap(alpha)])
    assert refused.value.name == name
    with pytest.raises(ArgumentError, match="contact_times = nan"):
        contact_time_windows(ROD, model, [1e3], wrap(math.nan))


def test_an_alpha_whose_window_is_no_time_is_named_by_the_study():
    """Refused by the study's check, before anything runs (the cases are built there)."""
    with pytest.raises(ConfigError) as refused:
        load_study(TABLE1, ["sweep.alpha=[1e3, 1e-200]", "contact.normal_exponents.stiffness=2"])
    assert refused.value.key == "sweep.alpha" and refused.value.value == 1e-200
    assert "t_c = inf" in refused.value.expected


def test_an_initial_depth_that_overflows_is_named_by_the_study():
    with pytest.raises(ConfigError) as refused:
        load_study(TABLE1, ["system.initial_penetration={coefficient = 1.0, power = -400}"])
    assert refused.value.key == "system.initial_penetration" and "at α = 1000 it is inf" in refused.value.expected


# --- traced values: the compiled run applies the same rules and fails by name ---------------------------------


def _batch(n: int) -> Any:
    return lambda leaf: np.broadcast_to(np.asarray(leaf), (n, *np.shape(leaf))).copy()


@pytest.mark.slow
def test_a_traced_input_that_breaks_a_rule_fails_its_run_by_name_and_leaves_the_others_alone():
    """Cases set by tree operations (as a program that builds its batch from arrays does) are traced in the
    sweep: each bad one fails with the check it breaks, is not integrated, and the good ones are the runs they
    are alone."""
    n, alpha = 7, 1e4
    systems = jtu.tree_map(_batch(n), ROD)
    mu, vx0, mass = systems.mu.copy(), systems.vx0.copy(), systems.mass.copy()
    mu[1], vx0[2], mass[4] = -0.5, np.inf, -1.0
    systems = eqx.tree_at(lambda s: (s.mu, s.vx0, s.mass), systems, (mu, vx0, mass))
    t_max = float(rc.contact_time(ROD, alpha))
    controls = rc.Controls(rtol=np.full(n, 1e-10), atol=np.full(n, 1e-12), t_max=np.full(n, t_max))
    rtol, atol = np.array(controls.rtol), np.array(controls.atol)
    rtol[3], atol[5] = 2.0, 0.0
    controls = eqx.tree_at(lambda c: (c.rtol, c.atol), controls, (rtol, atol))
    cases = rc.Case(systems, jtu.tree_map(_batch(n), ContactModel()), np.full(n, alpha), controls)
    runs, _ = rc.sweep(cases, rc.SolveSettings(), chunk_size=n)
    expected = ["passed", "negative_friction", "nonfinite_input", "invalid_tolerance", "invalid_parameter"]
    expected += ["invalid_tolerance", "passed"]
    assert list(runs.check_name) == expected
    np.testing.assert_array_equal(runs.ok, [name == "passed" for name in expected])
    bad = np.asarray(runs.check) != 0
    np.testing.assert_array_equal(np.asarray(runs.num_steps)[bad], 0)  # not integrated
    np.testing.assert_array_equal(np.asarray(runs.t_end)[bad], 0.0)
    alone = rc.solve(ROD, ContactModel(), alpha, rc.Controls(t_max=t_max))
    for i in (0, 6):
        np.testing.assert_allclose(runs.force_integrals[i], alone.force_integrals, rtol=1e-10, atol=1e-14)
    assert RUN_CHECKS.index("nonfinite_input") > RUN_CHECKS.index("unresolved_contact")  # kept codes keep meaning


@pytest.mark.slow
def test_a_traced_spatial_input_that_breaks_a_rule_fails_its_run_by_name():
    rod = SpatialRod(gyration=0.1, theta0=1.2, slip0=(1.0, 0.0))
    q0, v0 = rod.initial_state()
    state = CompliantState(q=q0, v=v0, impulses=jnp.zeros((1, 3)))
    ts = jnp.linspace(0.0, 1e-3, 4)

    def run(mu):
        return sampled_run(eqx.tree_at(lambda r: r.mu, rod, mu), ContactModel(), 1e4, state, 1e-3, ts)

    runs = jax.jit(jax.vmap(run))(jnp.array([1.0, -1.0, jnp.nan]))
    assert [RUN_CHECKS[int(code)] for code in runs.check] == ["passed", "negative_friction", "nonfinite_input"]
    np.testing.assert_array_equal(runs.ok, [True, False, False])
    assert math.isfinite(float(runs.t_end[0])) and float(runs.t_end[0]) == pytest.approx(1e-3)
