"""``kind = "multiple_impacts"``: chains of touching balls (Newton's cradle, a tapered chain, a column of beads) and
a rocking block landing flat on its two corners, through the compliant model at growing α and through its limit law
(``docs/impacts.md``, "Multiple impacts").

Every ball touches the next when the first is struck (or the column lands), so all contacts take part in one impact;
the block's two corners touch down together at different speeds.
The cradle and the tapered chain hang on pendulums, the column and the block are under gravity: forces the limit law
leaves out, which a compliant run at finite α feels during its impact; the distance to the limit measures how fast a
law gets there (``O(α^(−s))``, ``s`` the law's impact-scale exponent)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, final

import numpy as np
from numpy.typing import NDArray

from regcontact._argument_checks import ArgumentError
from regcontact.contact import BilinearSpring, ContactModel, HuntCrossley, SpringDamper, ViscousCoulomb, law_exponents
from regcontact.convergence import MIN_ORDER_VALUES, why_no_order
from regcontact.rigid import compliant_limit, limit_law
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import BASE_BYTES, HOST_BYTES_PER_CASE, STARTUP_S, DeviceSet, lengths, rtol_factor
from regcontact.systems import BallChain, TwoPointRod, ball_chain, hertz_stiffness
from regcontact.systems.system import AbstractSystem

__all__ = [
    "CASES",
    "LAWS",
    "MULTIPLE_IMPACTS_BALLS_EXPONENT",
    "MULTIPLE_IMPACTS_COMPILE_S",
    "MULTIPLE_IMPACTS_REFERENCE_BALLS",
    "MULTIPLE_IMPACTS_RUN_S",
    "TAPERED_MAX_BALLS",
    "ChainImpact",
    "LimitNotFound",
    "MultipleImpactsStudy",
    "cases",
    "chain_impact",
    "chains",
    "models",
    "rocking_block",
]

_KIND = "multiple_impacts"

#: the cases and the laws, by the names a config gives
CASES = ("cradle", "tapered", "column", "rocking_block")
LAWS = ("hertz", "spring_damper", "bilinear")

#: The cold compile (and limit impact) of one (case, law) group, per law, on this 2-core CPU: a 5-ball cradle's
#: cold ``regcontact run`` of one law and 3 α less the start (23.0 s, 19.5 s, 38.8 s), nearly all compiling
#: (``docs/studies/multiple_impacts.md``, Size).
MULTIPLE_IMPACTS_COMPILE_S = {"hertz": 18.0, "spring_damper": 16.0, "bilinear": 33.0}
#: One compliant run of a 20-ball chain, per law: a 20-ball cradle's cold run (39.7 s, 32.8 s, 156.9 s) less the
#: start and the compile, over its 3 α.
MULTIPLE_IMPACTS_RUN_S = {"hertz": 6.6, "spring_damper": 4.9, "bilinear": 40.6}
#: The balls a run of :data:`MULTIPLE_IMPACTS_RUN_S` has.
MULTIPLE_IMPACTS_REFERENCE_BALLS = 20
#: How a run grows with the balls ``N``, per law: ``(N / 20)^p``, fitted from 20 balls to 30 (Hertz 406 s, the
#: spring-damper 248 s) and, for the bilinear spring, to an earlier 40-ball run (728 s). The steps grow about as
#: ``N`` (Hertz: 945 at 20 balls, 1,124 at 25); each step's cost grows much faster past 25 balls.
MULTIPLE_IMPACTS_BALLS_EXPONENT = {"hertz": 7.3, "spring_damper": 6.8, "bilinear": 2.5}

#: the tapered chain's mass ratio from one ball to the next (radii ``0.8^i``, masses ``r³``)
_TAPER = 0.8**3
#: The most balls a tapered chain has: beyond, its lightest ball's mass ``0.512^(N−1)`` is below float64's ε
#: against the first's (54 balls: 3.9e-16 ≥ 2.2e-16; 55: 2.0e-16), so that ball's momentum is lost in the rounding
#: of the chain's, and the momentum the limit changes (a column of the table) is round-off; from 1,060 balls the
#: lightest masses are subnormal, from 1,114 zero.
TAPERED_MAX_BALLS = 1 + int(np.log(np.finfo(float).eps) / np.log(_TAPER))

#: the chains by their config names
_CHAINS = ("cradle", "tapered", "column")


def chains(balls: int = 5, names: tuple[str, ...] | list[str] = _CHAINS) -> dict[str, BallChain]:
    """The chains ``names`` (all three by default): Newton's cradle (equal balls, the first struck at speed 1,
    pendulums ``ω² = 1``), a tapered chain (radii ``0.8^i``, masses ``r³``, the same pendulums; at most
    :data:`TAPERED_MAX_BALLS`) and a column of equal beads dropped at speed 1 onto a floor under gravity 1. Only
    those named are built."""
    struck = np.eye(balls)[0]
    ones = np.ones(balls)
    built: dict[str, BallChain] = {}
    for name in names:
        if name == "cradle":
            built[name] = ball_chain(ones, ones, struck, pendulum=1.0)
        elif name == "tapered":
            tapered = 0.8 ** np.arange(balls)
            built[name] = ball_chain(tapered, tapered**3, struck, pendulum=1.0)
        elif name == "column":
            built[name] = ball_chain(ones, ones, -ones, gravity=1.0, floor=True)
        else:
            raise ValueError(f"chain = {name!r}: expected one of {', '.join(map(repr, _CHAINS))}")
    return built


def rocking_block() -> TwoPointRod:
    """A frictionless block of width 2 and height 1 (``I = m (w² + b²)/12``, ``m = 1``) landing flat on its two
    bottom corners at ``v_y = −1`` while turning at ``ω = 0.4``, under gravity 1: the corners approach at different
    speeds and share one impact. Without friction only the corners' heights enter the contacts, so the block is
    the two-point rod of its width with the block's inertia."""
    return TwoPointRod(mass=1.0, length=2.0, inertia=5.0 / 12.0, gravity=1.0, mu=0.0, vy0=-1.0, omega0=0.4)


def cases(balls: int = 5, names: tuple[str, ...] | list[str] = CASES) -> dict[str, AbstractSystem]:
    """The cases ``names`` (every one by default) by their config names: :func:`chains` and
    :func:`rocking_block`; only those named are built."""
    built: dict[str, AbstractSystem] = dict(chains(balls, [name for name in names if name != "rocking_block"]))
    if "rocking_block" in names:
        built["rocking_block"] = rocking_block()
    return {name: built[name] for name in names}


def models(chain: AbstractSystem) -> dict[str, ContactModel]:
    """The laws at each contact of ``chain`` (every one ``k ∝ α``): Hertz's elastic ``k δ^{3/2}`` with each pair's
    own ``k`` (the block's corners: ``k = 1``), a linear spring and damper (``γ ∝ √α``: a finite damping ratio),
    Stronge's bilinear spring (``e = 0.8`` per contact)."""
    k = hertz_stiffness(np.asarray(chain.radii), chain.floor) if isinstance(chain, BallChain) else np.ones(2)
    frictionless = ViscousCoulomb(0.0)
    return {
        "hertz": ContactModel(HuntCrossley(stiffness=k, exponent=1.5, damping=0.0), frictionless),
        "spring_damper": ContactModel(
            SpringDamper(1.0, 0.2),  # type: ignore[arg-type]  # equinox takes numbers
            frictionless,
            law_exponents(SpringDamper, damping=0.5),
        ),
        "bilinear": ContactModel(BilinearSpring(1.0, 0.8), frictionless),
    }


class LimitNotFound(RuntimeError):
    """The limit law's impact process of a case did not end (one line): the case has no limit to be compared with."""


@dataclass(frozen=True)
class ChainImpact:
    """One case and law at ``alphas``: the velocities after the limit impact ``limit`` ``(N,)`` (a chain's balls'; a
    block's ``(v_x, v_y, ω)``), those at the end of the compliant runs ``compliant`` ``(α, N)`` (all contacts open)
    and whether each run finished so."""

    alphas: NDArray[np.float64]
    limit: NDArray[np.float64]
    compliant: NDArray[np.float64]
    finished: NDArray[np.bool_]

    @property
    def errors(self) -> NDArray[np.float64]:
        """``max_i |v_i − v_i^lim|`` per α (NaN where the run did not finish with every contact open)."""
        return np.where(self.finished, np.max(np.abs(self.compliant - self.limit), axis=1), np.nan)

    def _fitted(self, last: int) -> NDArray[np.bool_]:
        """The runs the order is fitted over: at the ``last`` distinct largest α, finished, with an error ``> 0``."""
        distinct = np.unique(self.alphas)
        errors = self.errors
        return (self.alphas >= distinct[-min(last, distinct.size)]) & np.isfinite(errors) & (errors > 0)

    def why_no_order(self, last: int = 3) -> str | None:
        """Why :meth:`order` is ``None`` (``"only 2 distinct α among the last 3 with a finished run"``), or ``None``."""
        why = why_no_order(self.alphas[self._fitted(last)])
        return None if why is None else f"{why} among the last {last} with a finished run"

    def order(self, last: int = 3) -> float | None:
        """The order fitted to the errors at the ``last`` distinct α (finished runs only; ``None`` with fewer than
        ``MIN_ORDER_VALUES`` distinct α among them)."""
        kept = self._fitted(last)
        if self.why_no_order(last) is not None:
            return None
        return float(-np.polyfit(np.log(self.alphas[kept]), np.log(self.errors[kept]), 1)[0])


def chain_impact(
    chain: AbstractSystem,
    model: ContactModel,
    alphas: NDArray[np.float64],
    rtol: float = 1e-10,
    atol: float = 1e-12,
    max_steps: int = 200_000,
    window: float = 40.0,
) -> ChainImpact:
    """The limit impact of ``chain`` (a :class:`~regcontact.systems.BallChain`, or any system whose velocities are
    all kept) under ``model`` and the compliant runs at ``alphas`` (one jitted ``vmap``), each ended where every
    contact has opened, within ``window · N · α^(−s)`` (``N`` the balls, or the contacts; a law with a peak restarts
    where each contact turns). A limit impact that does not end within the impact process's segments, or that is
    faster than the process resolves (a tapered chain of 40 balls or more under the spring–damper, whose lightest
    balls' damper rates pass :data:`~regcontact.rigid.MAX_RATE_RTOL` ``/ rtol``), is a :class:`LimitNotFound`, and no
    compliant run is made."""
    import jax
    import jax.numpy as jnp

    from regcontact.compliant import Controls, SolveSettings, solve
    from regcontact.contact import AbstractPeakNormalLaw

    if isinstance(chain, BallChain):
        balls = chain.num_balls
    else:
        balls = int(np.shape(chain.initial_state()[1])[0])
    size = chain.num_balls if isinstance(chain, BallChain) else chain.NUM_CONTACTS
    alphas = np.asarray(alphas, dtype=float)
    try:
        limit = np.asarray(compliant_limit(chain, model)[1])[:balls]
    except (RuntimeError, ArgumentError) as error:  # the segment budget, or an impact faster than it resolves
        raise LimitNotFound(f"no limit impact ({error}); no compliant run made") from None
    peaks = ("peak",) if isinstance(model.normal, AbstractPeakNormalLaw) else ()
    settings = SolveSettings(events=("contact_open",), max_steps=max_steps, restart_at=peaks)
    # the impact lasts O(α^(−s)) in units of the laws' own time scale at α = 1, about a wave's passage per ball
    t_max = window * alphas ** -limit_law(model).scale_exponent * size

    def one(alpha, t_end):
        run = solve(chain, model, alpha, Controls(rtol, atol, t_end), settings)
        return run.state_end.v[:balls], run.ok & (run.termination == 1)  # every contact has opened

    v, ok = jax.jit(jax.vmap(one))(jnp.asarray(alphas), jnp.asarray(t_max))
    return ChainImpact(alphas, limit, np.asarray(v), np.asarray(ok))


_TABLE_COLUMNS = [
    "chain",
    "law",
    "balls",
    "distance_to_limit",
    "order_to_limit",
    "momentum_change",
    "energy_ratio",
    "finished_runs",
]


@final
class MultipleImpactsStudy(AbstractStudyKind):
    """``kind = "multiple_impacts"``: chains of touching balls and a rocking block under three laws; per (case, law)
    the distance of the compliant velocities after the impact to the limit law's at the largest α, its order over
    the last three α, and the limit's balances (the momentum it changes, the kinetic energy after over before)."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        del raw
        return {
            "study": cfg.study_fields(_KIND),
            "chains": {
                "cases": cfg.Field(
                    cfg.list_of(cfg.choice(*CASES), 1, "case names"), list(CASES), "the chains and the block"
                ),
                "laws": cfg.Field(cfg.list_of(cfg.choice(*LAWS), 1, "law names"), list(LAWS), "the contact laws"),
                "balls": cfg.Field(cfg.positive_int, 5, "balls in each chain"),
            },
            "compliant": {
                "alpha": cfg.alpha_field(),
                **cfg.solve_fields(1e-10, 1e-12, 200_000),
                "window": cfg.Field(cfg.positive, 40.0, "how long each run may last, in impact times per ball"),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        del overridden
        alpha = config["compliant"]["alpha"]
        if why_no_order(alpha) is not None:
            raise cfg.ConfigError("compliant.alpha", alpha, f"at least {MIN_ORDER_VALUES} distinct values (an order)")
        balls = config["chains"]["balls"]
        if balls < 2:
            raise cfg.ConfigError("chains.balls", balls, "at least 2 balls")
        if "tapered" in config["chains"]["cases"] and balls > TAPERED_MAX_BALLS:
            raise cfg.ConfigError(
                "chains.balls",
                balls,
                f"at most {TAPERED_MAX_BALLS} balls with the tapered chain (its masses 0.512^i: beyond, the lightest "
                "is below float64's ε against the first, and its momentum is round-off)",
            )
        return []

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        """Per (case, law): the law's compile (:data:`MULTIPLE_IMPACTS_COMPILE_S`) and, per α, one run
        (:data:`MULTIPLE_IMPACTS_RUN_S`) grown with the balls as ``(N / 20)^p``
        (:data:`MULTIPLE_IMPACTS_BALLS_EXPONENT`; the rocking block: its 2 contacts), measured on the cradle."""
        del devices  # one device: a jitted vmap per (case, law)
        chains_config = config["chains"]
        groups = len(chains_config["cases"]) * len(chains_config["laws"])
        (alphas,) = lengths(config, "compliant.alpha")
        cases = groups * alphas
        compile_s = solve_s = 0.0
        for case in chains_config["cases"]:
            size = 2 if case == "rocking_block" else chains_config["balls"]
            for law in chains_config["laws"]:
                compile_s += MULTIPLE_IMPACTS_COMPILE_S[law]
                growth = (size / MULTIPLE_IMPACTS_REFERENCE_BALLS) ** MULTIPLE_IMPACTS_BALLS_EXPONENT[law]
                solve_s += alphas * MULTIPLE_IMPACTS_RUN_S[law] * growth
        phases = {
            "start": STARTUP_S,
            "compile": compile_s,
            "solve": solve_s * rtol_factor(config["compliant"]["rtol"]),
        }
        return Estimate(
            cases, f"{groups} chains and laws × {alphas} α", BASE_BYTES + cases * HOST_BYTES_PER_CASE, phases
        )

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        chains_config, compliant = config["chains"], config["compliant"]
        alphas = np.asarray(sorted(compliant["alpha"]), dtype=float)
        built = cases(chains_config["balls"], chains_config["cases"])
        rows, details, failures, summary, timings = [], [], [], [], {"compliant_s": 0.0}
        for case in chains_config["cases"]:
            chain = built[case]
            before = np.asarray(chain.v0 if isinstance(chain, BallChain) else chain.initial_state()[1])
            for law in chains_config["laws"]:
                progress(f"{case}, {law}: the limit and {len(alphas)} compliant runs")
                start = time.perf_counter()
                model = models(chain)[law]
                try:
                    result = chain_impact(
                        chain,
                        model,
                        alphas,
                        compliant["rtol"],
                        compliant["atol"],
                        compliant["max_steps"],
                        compliant["window"],
                    )
                except LimitNotFound as error:
                    timings["compliant_s"] += time.perf_counter() - start
                    failures.append(f"{case}, {law}: {error}")
                    rows.append(_no_limit_row(case, law, chain))
                    summary.append(f"{case}, {law}: no limit ({error})")
                    continue
                timings["compliant_s"] += time.perf_counter() - start
                if not result.finished.all():
                    unfinished = alphas[~result.finished].tolist()
                    failures.append(f"{case}, {law}: a run did not end with every contact open (α = {unfinished})")
                last = result.errors[-1]
                momentum_change, energy_ratio = _balances(chain, before, result.limit)
                rows.append(
                    {
                        "chain": case,
                        "law": law,
                        "balls": chain.num_balls if isinstance(chain, BallChain) else None,
                        "distance_to_limit": None if not np.isfinite(last) else float(last),
                        "order_to_limit": result.order(),
                        "momentum_change": momentum_change,
                        "energy_ratio": energy_ratio,
                        "finished_runs": int(result.finished.sum()),
                    }
                )
                details.append(
                    {"case": case, "law": law, "limit": result.limit.tolist(), "compliant": result.compliant.tolist()}
                )
                order = result.order()
                summary.append(
                    f"{case}, {law}: distance {rows[-1]['distance_to_limit']}, "
                    + (f"order {order}" if order is not None else f"no order ({result.why_no_order()})")
                )
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=rows,
            references={"alpha": alphas.tolist(), "velocities": details},
            timings=timings,
            failures=failures,
            summary=summary,
        )


def _no_limit_row(case: str, law: str, chain: AbstractSystem) -> dict[str, Any]:
    """The row of a case without a limit impact: its names, nothing measured."""
    empty = dict.fromkeys(("distance_to_limit", "order_to_limit", "momentum_change", "energy_ratio", "finished_runs"))
    return {"chain": case, "law": law, "balls": chain.num_balls if isinstance(chain, BallChain) else None, **empty}


def _balances(system: AbstractSystem, before: np.ndarray, after: np.ndarray) -> tuple[float, float]:
    """The momentum the limit impact changes (along the chain; a block's along the floor normal: the floor's
    impulse) and the kinetic energy after over before."""
    if isinstance(system, BallChain):
        masses = np.asarray(system.masses)
        return float(masses @ after - masses @ before), float((masses @ after**2) / (masses @ before**2))
    q0 = system.initial_state()[0]
    M = np.asarray(system.mass_matrix(q0))
    return float(M[1] @ (after - before)), float((after @ M @ after) / (before @ M @ before))
