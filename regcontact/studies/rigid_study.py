"""The ``rigid_painleve`` study kind: every rigid solution of the Painlevé rod (Preclik & Rüde Secs. 2–4 and
Appendix A) beside the paper's values (``docs/results.md``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, final

import numpy as np

from regcontact.convergence import why_no_order
from regcontact.rigid import (
    ContactSolutions,
    ContactState,
    critical_angle,
    critical_friction,
    force_acceleration,
    impulse_velocity,
    painleve_coefficient,
    time_stepping,
    time_stepping_convergence,
)
from regcontact.rigid.lcp import CHECKED_MU
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import STARTUP_S, DeviceSet
from regcontact.studies.system_config import START_FIELDS, SYSTEM_FIELDS, kind_fields, rod_from_config

__all__ = ["RigidPainleveStudy"]

#: Bytes the rigid study's process takes (peak RSS of small runs: 0.19 GB).
RIGID_BASE_BYTES = 200e6
#: Seconds of one setup's three rigid problems and its δt → 0 convergence.
RIGID_SETUP_S = 0.8

_KIND = "rigid_painleve"

FORMULATIONS = ("force_acceleration", "impulse_velocity", "time_stepping")

_TABLE_COLUMNS = [
    "setup",
    "formulation",
    "dt",
    "reaction_n",
    "reaction_t",
    "mode",
    "paper_n",
    "paper_t",
    "matches_paper",
]


_PAIRS = cfg.list_of(cfg.list_of(cfg.finite, 2, "numbers", max_length=2), 0, "pairs [λ_n, λ_t]")


def _setup_state(config: dict[str, Any], setup: dict[str, Any]) -> ContactState:
    system = {**config["system"], **{k: v for k, v in setup["system"].items() if v is not None}}
    return ContactState.from_system(rod_from_config(system))


def _rows(
    name: str, formulation: str, dt: float | str, solutions: ContactSolutions, paper: list | None, tolerance: float
) -> tuple[list[dict[str, Any]], bool | None]:
    """Rows for one formulation's solutions, each beside the paper's value it matches; and whether all match."""
    unmatched = [np.asarray(p) for p in (paper or [])]
    rows = []
    for solution in solutions:
        row = {
            "setup": name,
            "formulation": formulation,
            "dt": dt,
            "reaction_n": float(solution.reaction[0]),
            "reaction_t": float(solution.reaction[1]),
            "mode": solution.mode,
        }
        if paper is not None:
            hits = [i for i, p in enumerate(unmatched) if np.max(np.abs(p - solution.reaction)) <= tolerance]
            if hits:
                match = unmatched.pop(hits[0])
                row.update(paper_n=float(match[0]), paper_t=float(match[1]), matches_paper=True)
            else:
                row.update(matches_paper=False)
        rows.append(row)
    if not rows:
        rows.append(
            {
                "setup": name,
                "formulation": formulation,
                "dt": dt,
                "mode": "no solution",
                **({"matches_paper": not paper} if paper is not None else {}),
            }
        )
    agrees = None if paper is None else (not unmatched and len(paper) == len(solutions))
    return rows, agrees


@final
class RigidPainleveStudy(AbstractStudyKind):
    """``kind = "rigid_painleve"``: for each setup (the base ``[system]`` with some keys changed), all solutions of the
    force-acceleration, impulse-velocity and time-stepping problems with their contact modes, beside the paper's
    printed values; the δt → 0 order of the time-stepping solutions; Appendix A's critical μ and angle."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS
    ON_DEVICES = False

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The schema of a rigid study."""
        del raw
        overrides = {name: cfg.Field(field.parse, None, field.doc) for name, field in SYSTEM_FIELDS.items()}
        setup = {
            "label": cfg.Field(cfg.text, cfg.REQUIRED, "a label for the setup, e.g. 'Sec. 2.1'"),
            "system": overrides,
            "paper": {
                name: cfg.Field(_PAIRS, None, f"the paper's {name} solutions, [[λ_n, λ_t], ...]")
                for name in FORMULATIONS
            },
        }
        return {
            "study": cfg.study_fields(_KIND),
            # how a compliant run starts (START_FIELDS) means nothing to the rigid problems
            "system": {key: field for key, field in kind_fields("painleve_rod").items() if key not in START_FIELDS},
            "setups": cfg.NamedTables(setup, 1, "e.g. [setups.no_force_solution] with label and system overrides"),
            "time_stepping": {
                "dt": cfg.Field(cfg.positive, 0.01, "the time step δt of the time-stepping LCP"),
            },
            "convergence": {
                "dt": cfg.Field(
                    cfg.list_of(cfg.positive, 2, "time steps"),
                    [float(dt) for dt in np.geomspace(1e-2, 1e-5, 7)],
                    "time steps for the δt → 0 convergence of the time-stepping solution",
                ),
            },
            "paper": {
                "decimals": cfg.Field(cfg.positive_int, 4, "digits after the point the paper prints"),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        """Friction coefficients within the range every rigid formulation is checked over (``ConfigError`` beyond).
        Paper values describe the file's systems: dropped, with a note, when ``--set`` changes one."""
        mus = [("system.mu", config["system"]["mu"])]
        mus += [(f"setups.{name}.system.mu", setup["system"]["mu"]) for name, setup in config["setups"].items()]
        for key, mu in mus:
            if mu is not None and not mu <= CHECKED_MU:
                raise cfg.ConfigError(
                    key,
                    mu,
                    f"a friction coefficient at most {CHECKED_MU:g}, the range the rigid formulations are checked over",
                )
        for name, setup in config["setups"].items():  # every setup's rod, refused here rather than mid-run
            try:
                _setup_state(config, setup)
            except cfg.ConfigError as error:
                raise cfg.ConfigError(error.key, error.value, f"{error.expected} (setup {name})") from None
        changed = [key for key in overridden if key.startswith(("system.", "setups."))]
        if not changed:
            return []
        for setup in config["setups"].values():
            setup["paper"] = {name: None for name in FORMULATIONS}
        return [f"paper values not shown: they are for the file's systems, and {', '.join(changed)} changed them"]

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        del devices
        setups = len(config["setups"])
        cases = 3 * setups
        phases = {"start": STARTUP_S, "rigid problems": setups * RIGID_SETUP_S}
        return Estimate(cases, f"{setups} setups × 3 formulations", RIGID_BASE_BYTES, phases)

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        """Solve every setup's three rigid problems; measure the δt → 0 order; compute Appendix A."""
        tolerance = 0.5 * 10.0 ** -config["paper"]["decimals"]
        dt = config["time_stepping"]["dt"]
        rows, references, summary, disagreements = [], {}, [], []
        for name, setup in config["setups"].items():
            progress(f"setup {name}: {setup['label']}")
            state = _setup_state(config, setup)
            solved = {
                "force_acceleration": force_acceleration(state),
                "impulse_velocity": impulse_velocity(state),
                "time_stepping": time_stepping(state, dt),
            }
            for formulation, solutions in solved.items():
                step = dt if formulation == "time_stepping" else ""
                new_rows, agrees = _rows(name, formulation, step, solutions, setup["paper"][formulation], tolerance)
                rows += new_rows
                if agrees is False:
                    disagreements.append(
                        f"{name}/{formulation}: computed {solutions.reactions[:, 0].tolist()}, "
                        f"paper {setup['paper'][formulation]}"
                    )
            references[name] = {
                "label": setup["label"],
                **{f: sol.as_json() for f, sol in solved.items()},
                "continua": {f: [c.tolist() for c in sol.continua] for f, sol in solved.items() if sol.continua},
            }
            try:
                convergence = time_stepping_convergence(state, ("T",), config["convergence"]["dt"])
            except LookupError as error:
                summary.append(f"{name}: no δt → 0 convergence measured ({error})")
            else:
                references[name]["time_stepping_convergence"] = {
                    "dt": convergence.dt.tolist(),
                    "distance": convergence.distance.tolist(),
                    "order": convergence.order,
                }
                measured = (
                    f"no order ({why_no_order(convergence.dt, 'δt')})"
                    if convergence.order is None
                    else f"measured order {convergence.order:.3f}"
                )
                summary.append(
                    f"{name}: sticking time-stepping solution → impulse-velocity Λ as δt → 0: {measured} "
                    f"(distance {convergence.distance[0]:.3g} at δt = {convergence.dt[0]:g}, "
                    f"{convergence.distance[-1]:.3g} at δt = {convergence.dt[-1]:g})"
                )

        base = config["system"]
        inertia = None if base["inertia"] == "slender" else base["inertia"]
        mu_crit = critical_friction(base["mass"], base["length"], inertia)
        phi_star = float(critical_angle(mu_crit))
        a_value = float(painleve_coefficient(base["phi0"], base["mu"], base["mass"], base["length"], inertia))
        references["appendix_a"] = {
            "mu_crit": mu_crit,
            "phi_star_deg": float(np.degrees(phi_star)),
            "A_at_base": a_value,
        }
        summary.append(
            f"Appendix A: μ_crit = {mu_crit:.6f} at φ* = {np.degrees(phi_star):.3f}° (A(φ*(μ), μ) = 0); "
            f"A(φ₀, μ) = {a_value:.4f} for the base rod ({'< 0: Painlevé region' if a_value < 0 else '≥ 0'})"
        )
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=rows,
            references=references,
            failures=[f"disagrees with the paper: {line}" for line in disagreements],
            summary=summary,
        )
