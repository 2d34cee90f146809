"""The ``landing_table`` study kind: random landings, the compliant model at a sweep of α, and the distance of its
velocity after the impact to three rigid impact laws, with the fitted order (``docs/results.md``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, final

import numpy as np
from numpy.typing import NDArray

from regcontact.contact import (
    AbstractPeakNormalLaw,
    BilinearSpring,
    ClippedKelvinVoigt,
    ContactModel,
    ViscousCoulomb,
    law_exponents,
)
from regcontact.convergence import MIN_ORDER_VALUES, fit_order, why_no_order
from regcontact.rigid import (
    ContactState,
    compliant_limit,
    darboux_keller,
    impulse_velocity,
    kelvin_voigt_restitution,
    limit_law,
    touchdown_lead,
)
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import BASE_BYTES, HOST_BYTES_PER_CASE, STARTUP_S, DeviceSet, lengths, rtol_factor
from regcontact.systems import ReducedSingleContact, TwoPointRod
from regcontact.systems.system import AbstractSystem

__all__ = ["IMPACT_REFERENCES", "Landing", "LandingTableStudy", "draw_landings"]

# 12 landings × 7 α at a load factor of about 2: rigid impact laws 9.7 s, 4 compilations 97 s, 84 runs 4.6 s on
# one device; the whole cold run 142 s at a load factor of about 5 (the compilations' share taken between the two).
LANDING_RIGID_S = 0.40
LANDING_COMPILE_S = 7.0
LANDING_RUN_S = 0.027
LANDING_BYTES = 20e3

_KIND = "landing_table"
SYSTEMS = ("reduced_single_contact", "rod_on_one_end", "rod_flat")
#: Compliant models: Preclik's Eq. 22, a clipped Kelvin–Voigt law at a fixed damping ratio, Stronge's bilinear spring
#: (whose limit is Darboux–Keller's energetic law). A study file that omits ``landings.models`` gets the first two.
MODELS = ("preclik", "kelvin_voigt", "bilinear")
DEFAULT_MODELS = ("preclik", "kelvin_voigt")
#: The rigid impact laws each landing is compared with.
IMPACT_REFERENCES = ("lcp", "darboux_keller", "compliant_limit")
#: A velocity difference below this share of the speed: the laws agree.
AGREE = 1e-9
#: Distances below this many times the solver's tolerance are at the accuracy the solves reach (measured: 1e-9 to
#: 1e-8 of the speed at rtol 1e-10, over the impact and the window) and carry no order.
ACCURACY_FACTOR = 1000.0

_TABLE_COLUMNS = [
    "case",
    "system",
    "model",
    "contacts",
    "friction_during_impact",
    "restitution",
    "mu",
    "distance_lcp",
    "order_lcp",
    "distance_darboux_keller",
    "order_darboux_keller",
    "distance_compliant_limit",
    "order_compliant_limit",
    "converges_to",
    "laws_agree",
]


@dataclass(frozen=True)
class Landing:
    """One random landing: the system at touch-down and its rigid state there, its compliant model and the model's
    family and restitution (for the bilinear spring Stronge's energetic coefficient)."""

    system_name: str
    model_name: str
    system: AbstractSystem
    model: ContactModel
    restitution: float
    state: ContactState

    @property
    def closed(self) -> NDArray[np.bool_]:
        """The contacts at touch-down."""
        return _closed(self.state)

    @property
    def speed(self) -> float:
        """The incoming speed: the largest contact velocity."""
        return float(np.abs(self.state.contact_velocity).max())


def _closed(state: ContactState) -> NDArray[np.bool_]:
    return np.abs(state.gaps) <= 1e-12 * state.gap_scale


def _touches_down(state: ContactState) -> bool:
    closed = _closed(state)
    rates = state.contact_velocity[closed, 0]
    return bool(closed.any() and (rates < -0.05).any() and (rates <= 0).all())


def _system(name: str, rng: np.random.Generator) -> AbstractSystem:
    mu = rng.uniform(0.1, 1.5)
    if name == "reduced_single_contact":
        A, C = rng.uniform(0.3, 3.0, 2)
        return ReducedSingleContact(
            a=rng.uniform(-1.0, 1.0),
            b=-rng.uniform(0.1, 1.0),
            A=A,
            B=rng.uniform(-0.9, 0.9) * np.sqrt(A * C),
            C=C,
            mu=mu,
            slip0=rng.uniform(-1.0, 1.0),
            normal_velocity0=-rng.uniform(0.2, 1.0),
        )
    flat = name == "rod_flat"
    return TwoPointRod(
        mu=mu,
        phi0=0.0 if flat else rng.uniform(0.1, 1.2),
        height=0.0,
        vx0=rng.uniform(-1.0, 1.0),
        vy0=-rng.uniform(0.2, 1.0),
        omega0=rng.uniform(-1.0, 1.0) * (0.3 if flat else 1.0),
    )


def _model(name: str, state: ContactState, rng: np.random.Generator) -> tuple[ContactModel, float]:
    faster = bool(rng.integers(2))  # friction Coulomb's during the impact, or viscous
    if name == "preclik":
        damping = float(np.exp(rng.uniform(np.log(0.1), np.log(10.0))))
        exponent = ViscousCoulomb(1.5 if faster else 1.0)
        return ContactModel(friction=ViscousCoulomb(damping), friction_exponents=exponent), 0.0
    if name == "bilinear":
        restitution = rng.uniform(0.2, 1.0)
        model = ContactModel(
            BilinearSpring(1.0, restitution),
            ViscousCoulomb(1.0),
            friction_exponents=ViscousCoulomb(1.0 if faster else 0.5),
        )
        return model, restitution
    closed = int(np.flatnonzero(_closed(state))[0])
    zeta = rng.uniform(0.05, 0.8)
    inverse_mass = state.delassus[2 * closed, 2 * closed]
    # ζ = γ/(2√(k m_n)), m_n = 1/C; equinox's __init__ takes numbers
    normal = ClippedKelvinVoigt(1.0, 2.0 * zeta / np.sqrt(inverse_mass))  # type: ignore[arg-type]
    model = ContactModel(
        normal,
        ViscousCoulomb(1.0),
        law_exponents(ClippedKelvinVoigt, damping=0.5),
        ViscousCoulomb(1.0 if faster else 0.5),
    )
    return model, kelvin_voigt_restitution(zeta)


def draw_landings(count: int, seed: int, systems: list[str], models: list[str]) -> list[Landing]:
    """``count`` landings, the systems and the models taken in turn, each drawn until it touches down."""
    rng = np.random.default_rng(seed)
    landings = []
    for i in range(count):
        system_name, model_name = systems[i % len(systems)], models[(i // len(systems)) % len(models)]
        system = _system(system_name, rng)
        state = ContactState.from_system(system)
        while not _touches_down(state):
            system = _system(system_name, rng)
            state = ContactState.from_system(system)
        model, restitution = _model(model_name, state, rng)
        landings.append(Landing(system_name, model_name, system, model, restitution, state))
    return landings


# -- the rigid laws ----------------------------------------------------------------------------------------------


def rigid_velocities(landing: Landing) -> dict[str, list[NDArray[np.float64]]]:
    """``v⁺`` of each impact law (several for an LCP with several solutions; none where the law refuses)."""
    state = landing.state
    found: dict[str, list[NDArray[np.float64]]] = {}
    found["lcp"] = [s.velocity for s in impulse_velocity(state, landing.restitution) if s.velocity is not None]
    energetic = isinstance(landing.model.normal, AbstractPeakNormalLaw)  # Stronge's coefficient: the energetic law
    try:
        found["darboux_keller"] = [
            darboux_keller(state, landing.restitution, "energetic")[1]
            if energetic
            else darboux_keller(state, landing.restitution)[1]
        ]
    except ValueError:
        found["darboux_keller"] = []
    found["compliant_limit"] = [compliant_limit(state, landing.model)[1]]
    return found


# -- the compliant runs ------------------------------------------------------------------------------------------


def _durations(landing: Landing, alphas: NDArray[np.float64], window: float) -> NDArray[np.float64]:
    """``window`` time constants of the landing's impact at each α: the slowest rate of its limit law at the
    closed contacts, scaled by ``α^s``."""
    law = limit_law(landing.model).at_contacts(landing.closed)
    rate = min(law.rates(np.diag(landing.state.delassus)[0::2][landing.closed], landing.speed))
    return window / (rate * alphas**law.scale_exponent)


def _leads(landing: Landing, alphas: NDArray[np.float64]) -> NDArray[np.float64]:
    """How long before touch-down the landing's forces set in at each α (:func:`touchdown_lead`)."""
    return touchdown_lead(landing.state, landing.model) * alphas ** -limit_law(landing.model).scale_exponent


def compliant_velocities(
    landings: list[Landing], alphas: NDArray[np.float64], compliant: dict[str, Any]
) -> tuple[NDArray[np.float64], NDArray[np.bool_], dict[str, float]]:
    """The generalised velocity at the end of each (landing, α) run ``(landings, α, n)`` and whether it finished,
    one jitted ``vmap`` per group of one system class and one law class."""
    import jax
    import jax.numpy as jnp

    from regcontact.compliant import Controls, SolveSettings, solve
    from regcontact.compliant.dynamics import CompliantState

    def settings(law: type) -> SolveSettings:  # a peak law's runs restart where each contact turns to unload
        peaks = ("peak",) if issubclass(law, AbstractPeakNormalLaw) else ()
        return SolveSettings(events=(), max_steps=compliant["max_steps"], restart_at=peaks)

    groups: dict[tuple[type, type], list[int]] = {}
    for i, landing in enumerate(landings):
        groups.setdefault((type(landing.system), type(landing.model.normal)), []).append(i)
    size = max(int(np.asarray(landing.system.initial_state()[1]).size) for landing in landings)
    velocity = np.full((len(landings), len(alphas), size), np.nan)
    finished = np.zeros((len(landings), len(alphas)), dtype=bool)
    timings = {"compliant_compile_s": 0.0, "compliant_run_s": 0.0}

    def one(system, model, alpha, t_max, lead, settings):
        # start `lead` before touch-down, where a law that brakes above the ground sets in (touchdown_lead)
        q0, v0 = system.initial_state()
        start = CompliantState(q=q0 - v0 * lead, v=v0, impulses=jnp.zeros((system.NUM_CONTACTS, 2)))
        controls = Controls(rtol=compliant["rtol"], atol=compliant["atol"], t_max=t_max + lead)
        run = solve(system, model, alpha, controls, settings, start)
        return run.state_end.v, run.ok

    def batched(settings):
        per_case = lambda *arguments: one(*arguments, settings)  # noqa: E731
        return jax.jit(jax.vmap(jax.vmap(per_case, (None, None, 0, 0, 0)), (0, 0, None, 0, 0)))

    for (_, law), members in groups.items():
        stack = lambda items: jax.tree.map(lambda *leaves: jnp.stack(leaves), *items)  # noqa: E731
        systems = stack([landings[i].system for i in members])
        models = stack([landings[i].model for i in members])
        durations = jnp.asarray(np.array([_durations(landings[i], alphas, compliant["window"]) for i in members]))
        leads = jnp.asarray(np.array([_leads(landings[i], alphas) for i in members]))
        arguments = (systems, models, jnp.asarray(alphas), durations, leads)
        start = time.perf_counter()
        compiled = batched(settings(law)).lower(*arguments).compile()
        timings["compliant_compile_s"] += time.perf_counter() - start
        start = time.perf_counter()
        v, ok = jax.block_until_ready(compiled(*arguments))
        timings["compliant_run_s"] += time.perf_counter() - start
        v = np.asarray(v)
        velocity[members, :, : v.shape[-1]] = v
        finished[members] = np.asarray(ok)
    return velocity, finished, timings


# -- the table ---------------------------------------------------------------------------------------------------


def _distances(compliant: NDArray[np.float64], references: list[NDArray[np.float64]], speed: float) -> NDArray:
    """Per α, the max-norm distance over the speed to the nearest reference (NaN without one)."""
    if not references:
        return np.full(compliant.shape[0], np.nan)
    return np.min([np.abs(compliant[:, : ref.size] - ref).max(axis=1) for ref in references], axis=0) / speed


def _summary(rows: list[dict[str, Any]]) -> list[str]:
    """Counts by system, model and friction during the impact: how many landings converge to each law, how many
    have agreeing laws, and the median order to the compliant limit."""
    lines = []
    keys = sorted({(r["system"], r["model"], r["friction_during_impact"]) for r in rows})
    for system, model, friction in keys:
        group = [r for r in rows if (r["system"], r["model"], r["friction_during_impact"]) == (system, model, friction)]
        counts = {name: sum(name in r["converges_to"].split() for r in group) for name in IMPACT_REFERENCES}
        orders = [r["order_compliant_limit"] for r in group if r["order_compliant_limit"] is not None]
        lines.append(
            f"{system}, {model}, friction {friction} during the impact: {len(group)} landings; laws agree in "
            f"{sum(r['laws_agree'] for r in group)}; converge to lcp {counts['lcp']}, darboux_keller "
            f"{counts['darboux_keller']}, compliant_limit {counts['compliant_limit']}; "
            + (
                f"order to compliant_limit median {np.median(orders):.2f}"
                if orders
                else f"no order to compliant_limit (no landing has {MIN_ORDER_VALUES} distinct α with a distance above "
                "the solves' accuracy)"
            )
        )
    total = len(rows)
    limit = sum("compliant_limit" in r["converges_to"].split() for r in rows)
    lines.append(f"in all: {limit} of {total} landings converge to their model's compliant limit law")
    return lines


@final
class LandingTableStudy(AbstractStudyKind):
    """``kind = "landing_table"``: seeded random landings of three system classes under two compliant models; per
    landing the distance of the velocity after the impact to the LCP's, Darboux–Keller's and the model's limit law's
    ``v⁺``, fitted for an order in α, and which laws the landing converges to."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        del raw
        return {
            "study": cfg.study_fields(_KIND),
            "landings": {
                "count": cfg.Field(cfg.positive_int, 120, "number of random landings"),
                "seed": cfg.Field(cfg.positive_int, 1, "seed of the random landings"),
                "systems": cfg.Field(
                    cfg.list_of(cfg.choice(*SYSTEMS), 1, "system names"), list(SYSTEMS), "systems to draw from, in turn"
                ),
                "models": cfg.Field(
                    cfg.list_of(cfg.choice(*MODELS), 1, "model names"),
                    list(DEFAULT_MODELS),
                    "compliant models, in turn",
                ),
            },
            "compliant": {
                "alpha": cfg.alpha_field(),
                **cfg.solve_fields(1e-10, 1e-12, 100_000),
                "window": cfg.Field(cfg.positive, 60.0, "how long each run lasts, in time constants of the impact"),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        del overridden
        alpha = config["compliant"]["alpha"]
        if why_no_order(alpha) is not None:
            raise cfg.ConfigError("compliant.alpha", alpha, f"at least {MIN_ORDER_VALUES} distinct values (an order)")
        return []

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        del devices  # one device: a jitted vmap per group
        landings = config["landings"]
        count, (alphas,) = landings["count"], lengths(config, "compliant.alpha")
        classes = {"reduced_single_contact": "reduced", "rod_on_one_end": "rod", "rod_flat": "rod"}
        groups = min(count, len({classes[name] for name in landings["systems"]}) * len(landings["models"]))
        cases = count * alphas
        phases = {
            "start": STARTUP_S,
            "rigid impact laws": count * LANDING_RIGID_S,
            "compile": groups * LANDING_COMPILE_S,
            "solve": cases * LANDING_RUN_S * rtol_factor(config["compliant"]["rtol"]),
        }
        memory = BASE_BYTES + count * LANDING_BYTES + cases * HOST_BYTES_PER_CASE
        return Estimate(cases, f"{count:,} landings × {alphas} α", memory, phases)

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        landings_config, compliant = config["landings"], config["compliant"]
        alphas = np.asarray(sorted(compliant["alpha"]), dtype=float)
        progress(f"drawing {landings_config['count']} landings")
        landings = draw_landings(
            landings_config["count"], landings_config["seed"], landings_config["systems"], landings_config["models"]
        )
        start = time.perf_counter()
        progress("rigid impact laws")
        rigid = [rigid_velocities(landing) for landing in landings]
        timings = {"rigid_s": time.perf_counter() - start}
        progress(f"compliant model at {len(alphas)} values of α ({len(landings) * len(alphas)} runs)")
        velocity, finished, compliant_timings = compliant_velocities(landings, alphas, compliant)
        timings.update(compliant_timings)
        rows, details, failures = [], [], []
        for i, (landing, laws) in enumerate(zip(landings, rigid)):
            speed = landing.speed
            law = limit_law(landing.model)
            row: dict[str, Any] = {
                "case": i,
                "system": landing.system_name,
                "model": landing.model_name,
                "contacts": int(landing.closed.sum()),
                "friction_during_impact": law.friction,
                "restitution": landing.restitution,
                "mu": float(np.asarray(landing.system.friction_coefficients).reshape(-1)[0]),
            }
            if not finished[i].all():
                failures.append(f"landing {i}: a compliant run did not finish (α = {alphas[~finished[i]].tolist()})")
            distances = {name: _distances(velocity[i], laws[name], speed) for name in IMPACT_REFERENCES}
            floor = ACCURACY_FACTOR * (compliant["rtol"] + compliant["atol"] / speed)
            converges = []
            for name in IMPACT_REFERENCES:
                d = distances[name]
                above = np.isfinite(d) & (d > floor)  # distances at the solves' accuracy carry no order
                fit = fit_order(alphas[above], d[above])
                row[f"distance_{name}"] = None if not np.isfinite(d[-1]) else float(d[-1])
                row[f"order_{name}"] = None if fit is None else fit.order
                reached = np.isfinite(d[-1]) and d[-1] <= floor and fit is None  # at the accuracy early
                if reached or (fit is not None and min(fit.order, fit.local_orders[-1]) >= 0.5 * law.scale_exponent):
                    converges.append(name)
            row["converges_to"] = " ".join(converges) or "none"
            # every v⁺ of every law (an LCP's several solutions may share one velocity: a split of the impulse)
            candidates = [velocity_ for name in IMPACT_REFERENCES for velocity_ in laws[name]]
            spread = max(float(np.abs(a - b).max()) for a in candidates for b in candidates) / speed
            row["laws_agree"] = all(laws[name] for name in IMPACT_REFERENCES) and spread <= AGREE
            rows.append(row)
            details.append({"case": i, **{name: distances[name].tolist() for name in IMPACT_REFERENCES}})
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=rows,
            references={"alpha": alphas.tolist(), "distances": details},
            timings=timings,
            failures=failures,
            summary=_summary(rows),
        )
