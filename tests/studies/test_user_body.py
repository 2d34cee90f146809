"""A body and a normal law defined outside the package, named in a study file by path: the study runs from TOML
(``regcontact run`` and :func:`regcontact.run_study`), gives the integrals :func:`regcontact.solve` gives for the
same objects in Python and the closed forms of a ball dropped on the ground; every bad name or key is one line,
exit status 2, nothing written.

The ball (``user_bodies/ball.py``) is a point mass with ``g = (y, x)``, ``M = m I`` and no gravity, so its normal
motion during contact is the law's own oscillator. With the spring-damper at α-exponents (2, 1) the damping
ratio ``ζ = γ / (2 √(m k))`` is the same at every α, the damper acts on approach only, and the ball leaves with
restitution ``e = exp(−ζ arccos ζ / √(1 − ζ²))``: ``∫λ_n = m v (1 + e)`` exactly. The undamped spring
(``LinearSpring``) gives ``e = 1``: ``∫λ_n = 2 m v``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import regcontact as rc
from regcontact.cli import main
from regcontact.contact import law_exponents

BODIES = Path(__file__).parent / "user_bodies"
ALPHAS = [1e2, 1e4]


def _ball_module():
    spec = importlib.util.spec_from_file_location("ball_for_python", BODIES / "ball.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BALL = _ball_module()

STUDY = """
[study]
name = "ball"
[system]
kind = "{kind}"
vy0 = -1.0
vx0 = 0.3
mu = 0.2
[contact]
normal_law = "{normal_law}"
[contact.normal_exponents]
{exponents}
[termination]
time_limit = 10.0
[references]
impulse_velocity = false
compliant_limit = false
[sweep]
alpha = {alphas}
"""


def _study(folder: Path, kind="bodies.py:Ball", normal_law="spring_damper", extra="", sweep_extra="") -> Path:
    """A study of the ball in ``folder``, with the body file copied beside it as ``bodies.py``."""
    shutil.copy(BODIES / "ball.py", folder / "bodies.py")
    exponents = "stiffness = 2.0\ndamping = 1.0" if normal_law == "spring_damper" else "stiffness = 2.0"
    text = STUDY.format(kind=kind, normal_law=normal_law, exponents=exponents, alphas=ALPHAS) + sweep_extra
    path = folder / "study.toml"
    path.write_text(text.replace("[contact]\n", extra + "[contact]\n"), encoding="utf-8")
    return path


def _restitution(zeta: float) -> float:
    return math.exp(-zeta * math.acos(zeta) / math.sqrt(1 - zeta**2))


@pytest.mark.slow
def test_a_body_of_ones_own_runs_from_toml_as_from_python(tmp_path, capsys):
    """``regcontact run`` on a study naming ``bodies.py:Ball`` beside it: the integrals of ``rc.solve`` on the
    same ball, the closed-form normal impulse, the momentum balance of the tangential one, and a record of the
    class, its file and its SHA-256 in results.json."""
    out = tmp_path / "out"
    assert main(["run", str(_study(tmp_path)), "--out", str(out)]) == 0
    table = pd.read_csv(out / "results.csv")
    ball = BALL.Ball(vy0=-1.0, vx0=0.3, mu=0.2)
    contact = rc.ContactModel(normal_exponents=law_exponents(rc.SpringDamper, stiffness=2.0, damping=1.0))
    m, v = 1.0, 1.0
    expected_n = m * v * (1 + _restitution(1.0 / (2 * math.sqrt(m * 1.0))))
    for alpha, int_n, int_t in zip(table["alpha"], table["int_lambda_n"], table["int_lambda_t"]):
        run = rc.solve(ball, contact, alpha, rc.Controls(t_max=10.0))
        assert bool(run.ok) and run.termination == 1  # ended by contact_open, the ball in flight
        solved_n, solved_t = np.asarray(run.force_integrals)
        # the study solves its cases as one vmapped batch, whose Newton iterations run until every case has
        # converged: the same integrals as one solve to within the solver's tolerance, not bit for bit
        np.testing.assert_allclose([int_n, int_t], [solved_n, solved_t], rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(int_n, expected_n, rtol=1e-7)
        vx_end = float(run.state_end.v[0])
        np.testing.assert_allclose(int_t, m * (vx_end - 0.3), rtol=1e-8, atol=1e-12)
        assert 0 < vx_end < 0.3  # friction slowed the slide but did not stop it
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    body = tmp_path / "bodies.py"
    assert document["config"]["system"]["kind"] == f"{body}:Ball"
    record = document["classes"]["system.kind"]
    assert record["file"] == str(body)
    assert record["sha256"] == __import__("hashlib").sha256(body.read_bytes()).hexdigest()
    # every run ended by contact_open before its time limit of 10: no note that the integrals run to a fixed time
    assert set(table["termination"]) == {"contact_open"}
    assert "note" not in document["convergence"]
    assert "fixed time" not in capsys.readouterr().out


@pytest.mark.slow
def test_a_normal_law_of_ones_own_and_a_sweep_over_the_bodys_keys(tmp_path):
    """``rc.run_study`` on a study naming the undamped spring by path and sweeping the ball's mass: each case's
    integrals are ``rc.solve``'s and the elastic bounce ``∫λ_n = 2 m v``."""
    path = _study(tmp_path, normal_law="bodies.py:LinearSpring", sweep_extra="mass = [1.0, 2.5]\n")
    run = rc.run_study(path, progress=lambda message: None)
    table = run.table
    assert list(table["mass"]) == [1.0, 1.0, 2.5, 2.5]
    contact = rc.ContactModel(
        normal=BALL.LinearSpring(), normal_exponents=law_exponents(BALL.LinearSpring, stiffness=2.0)
    )
    for mass, alpha, int_n, int_t in zip(table["mass"], table["alpha"], table["int_lambda_n"], table["int_lambda_t"]):
        solved = rc.solve(BALL.Ball(vy0=-1.0, vx0=0.3, mu=0.2, mass=mass), contact, alpha, rc.Controls(t_max=10.0))
        np.testing.assert_allclose([int_n, int_t], np.asarray(solved.force_integrals), rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(int_n, 2 * mass * 1.0, rtol=1e-7)
    assert run.json["classes"]["contact.normal_law"]["class"] == f"{tmp_path / 'bodies.py'}:LinearSpring"


def _one_error_line(capsys) -> str:
    printed = capsys.readouterr()
    assert printed.out == ""
    lines = printed.err.splitlines()
    assert len(lines) == 1, printed.err
    return lines[0]


PREFIX = "regcontact: config error: "
PLANAR = "a subclass of regcontact.systems.AbstractSystem"


@pytest.mark.parametrize(
    ("kind", "extra", "expected"),
    [
        ("nowhere.py:Ball", "", "{PLANAR}; no file {folder}/nowhere.py"),
        ("no_such_package_xyz.bodies:Ball", "", "{PLANAR}; no module named 'no_such_package_xyz'"),
        ("bodies.py:Stool", "", "{PLANAR}; bodies.py has no 'Stool'"),
        ("bodies.py:LinearSpring", "", "{PLANAR}; LinearSpring is a class derived from AbstractNormalLaw, Module"),
        ("bodies.py:jnp", "", "{PLANAR}; jnp is a module, not a class"),
        ("regcontact.systems:AbstractSystem", "", "{PLANAR}; AbstractSystem is abstract (it does not define "),
        ("bodies.py:", "", "{PLANAR}, written 'package.module:Class' or 'file.py:Class'"),
    ],
)
def test_a_class_that_cannot_be_loaded_is_one_line(tmp_path, capsys, kind, extra, expected):
    path = _study(tmp_path, kind=kind)
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out)]) == 2
    line = _one_error_line(capsys)
    wanted = expected.format(PLANAR=PLANAR, folder=tmp_path)
    assert line.startswith(f"{PREFIX}system.kind = {kind!r}: expected {wanted}"), line
    assert not out.exists()


def test_an_import_that_raises_is_one_line(tmp_path, capsys):
    path = _study(tmp_path, kind="broken.py:Ball")
    (tmp_path / "broken.py").write_text("import math\nraise RuntimeError('no\\nluck')\n", encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    broken = tmp_path / "broken.py"
    assert line == f"{PREFIX}system.kind = 'broken.py:Ball': expected {PLANAR}; importing {broken} failed " + (
        "(RuntimeError: no luck)"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("kind", "code", "why"),
    [
        ("leaving.py:Ball", "import sys\nsys.exit(0)\n", "SystemExit: 0"),
        ("leaving.py:Ball", "raise SystemExit('bye')\n", "SystemExit: bye"),
        ("leaving_module_of_a_test:Ball", "import sys\nsys.exit(0)\n", "SystemExit: 0"),
    ],
)
def test_an_import_that_exits_is_one_line(tmp_path, capsys, monkeypatch, kind, code, why):
    """``sys.exit(0)`` in a body file ended ``regcontact run`` with status 0, no line and nothing written."""
    monkeypatch.syspath_prepend(str(tmp_path))
    path = _study(tmp_path, kind=kind)
    name = kind.split(":")[0]
    (tmp_path / (name if name.endswith(".py") else f"{name}.py")).write_text(code, encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"{PREFIX}system.kind = {kind!r}: expected {PLANAR}; importing "), line
    assert line.endswith(f" failed ({why})"), line
    assert not (tmp_path / "out").exists()


def test_an_interrupt_while_importing_still_interrupts(tmp_path):
    path = _study(tmp_path, kind="interrupted.py:Ball")
    (tmp_path / "interrupted.py").write_text("raise KeyboardInterrupt\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt):
        rc.run_study(path, progress=lambda message: None)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("vy0 = -1.0\n", "vy0 = -1.0\nradius = 0.1\n"), "system.radius = 0.1: expected a known key (this table has: "),
        (("vy0 = -1.0\n", ""), "system.vy0 = (missing): expected vy0: a finite number"),
        (("vy0 = -1.0\n", "vy0 = -1.0\nmass = -2.0\n"), "system.mass = -2.0: expected a positive number"),
        (("vy0 = -1.0\n", "vy0 = -1.0\nmass = [1.0, true]\n"), "system.mass = [1.0, True]: expected a positive number"),
        (("vy0 = -1.0\n", "vy0 = -1.0\nmass = 'heavy'\n"), "system.mass = 'heavy': expected a positive number"),
        (
            ("alpha = [", "mu = [0.2, -0.1]\nalpha = ["),
            "sweep.mu = [0.2, -0.1]: expected a list of values, each a number ≥ 0",
        ),
    ],
)
def test_a_bad_key_of_a_body_of_ones_own_is_one_line(tmp_path, capsys, edit, expected):
    path = _study(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(*edit, 1), encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(PREFIX + expected), line
    assert not (tmp_path / "out").exists()


def test_a_constructor_that_refuses_is_one_line(tmp_path, capsys):
    """A value every rule passes but the constructor refuses (here: a ``TypeError`` of a list where it wants a
    number) names the class and what it raised."""
    path = _study(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("vx0 = 0.3", "vx0 = [0.3, 0.1]"), encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"{PREFIX}system.kind = "), line
    assert "expected a system that can be integrated" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("law", "source", "expected"),
    [
        ("bodies.py:Ball", None, "a subclass of regcontact.contact.AbstractNormalLaw; Ball is a class derived from"),
        ("nolaw.py:Law", None, "a subclass of regcontact.contact.AbstractNormalLaw; no file "),
        (
            "laws.py:Bad",
            "from regcontact import SpringDamper\nclass Bad(SpringDamper):\n    PARAMETERS = {'stiffness': 'huge'}\n",
            "a subclass of regcontact.contact.AbstractNormalLaw; Bad needs PARAMETERS: a dict of parameter name -> ",
        ),
    ],
)
def test_a_bad_normal_law_is_one_line(tmp_path, capsys, law, source, expected):
    path = _study(tmp_path, normal_law=law)
    if source is not None:
        (tmp_path / law.partition(":")[0]).write_text(source, encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"{PREFIX}contact.normal_law = {law!r}: expected {expected}"), line
    assert not (tmp_path / "out").exists()


_BROKEN = {
    "forces": ("def forces(self, q, v, t):\n        return jnp.full(2, jnp.nan)", r"forces\(q₀, v₀, 0\) at the "),
    "jacobian_rates": ("def jacobian_rates(self, q, v):\n        return jnp.zeros(2)", "Jacobian rates of shape (2,)"),
    "potential_energy": ("def potential_energy(self, q):\n        return jnp.zeros(2)", "potential energy of shape"),
}


@pytest.mark.parametrize("method", sorted(_BROKEN))
def test_a_body_method_that_answers_nan_or_the_wrong_shape_is_one_line_naming_it(tmp_path, capsys, method):
    """A body whose method answers NaN or another shape: one line naming the method, before any run (it ended in a
    traceback from the rigid reference's contact state, a reshape inside the solve, or ran with NaN energies)."""
    code, named = _BROKEN[method]
    path = _study(tmp_path, kind="broken.py:Broken")
    source = (tmp_path / "bodies.py").read_text(encoding="utf-8")
    (tmp_path / "broken.py").write_text(f"{source}\n\nclass Broken(Ball):\n    {code}\n", encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    kind = f"'{tmp_path / 'broken.py'}:Broken'"  # the class's path as resolved
    assert line.startswith(f"{PREFIX}system.kind = {kind}: expected a system that can be integrated (Broken"), line
    assert re.search(named if method == "forces" else re.escape(named), line), line
    assert not (tmp_path / "out").exists()


_BROKEN_LAWS = {
    "__call__(gap, gap_rate) is NaN": "def __call__(self, gap, gap_rate):\n        return jnp.nan * gap",
    "__call__(gap, gap_rate) returns shape (3,) for 1 contacts": "def __call__(self, gap, gap_rate):\n"
    "        return jnp.zeros(3)",
    "elastic_energy(gap) is NaN": "def elastic_energy(self, gap):\n        return jnp.nan * gap",
}


@pytest.mark.parametrize("named", sorted(_BROKEN_LAWS))
def test_a_law_method_that_answers_nan_or_the_wrong_shape_is_one_line_naming_it(tmp_path, capsys, named):
    """A normal law answering NaN ended as a case FAILED by max_steps_reached, another shape as a reshape
    traceback, a NaN energy not at all: each is one line naming the method, before any run."""
    path = _study(tmp_path, normal_law="laws.py:Broken")
    source = (tmp_path / "bodies.py").read_text(encoding="utf-8")
    code = _BROKEN_LAWS[named]
    (tmp_path / "laws.py").write_text(f"{source}\n\nclass Broken(LinearSpring):\n    {code}\n", encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    law = f"'{tmp_path / 'laws.py'}:Broken'"  # the class's path as resolved
    assert line.startswith(f"{PREFIX}contact.normal_law = {law}: expected a law with one finite "), line
    assert f"Broken.{named}" in line, line
    assert not (tmp_path / "out").exists()


def test_a_planar_body_in_the_spatial_study_is_one_line(tmp_path, capsys):
    shutil.copy(BODIES / "ball.py", tmp_path / "bodies.py")
    path = tmp_path / "study.toml"
    path.write_text(
        '[study]\nname = "s"\nkind = "spatial_crossing"\n[system]\nkind = "bodies.py:Ball"\n'
        "[compliant]\nalpha = [1e2, 1e3]\n",
        encoding="utf-8",
    )
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    expected = "a subclass of regcontact.systems.AbstractSystem with TANGENT_DIM = 2; Ball has TANGENT_DIM = 1"
    assert line.startswith(f"{PREFIX}system.kind = 'bodies.py:Ball': expected {expected}"), line
    assert not (tmp_path / "out").exists()


def test_a_chunk_of_a_body_from_a_file_unpickles_in_a_process_that_never_loaded_it(tmp_path, monkeypatch):
    """What a Dask worker does with a chunk (``solve_shipped``): the modules :func:`file_modules` finds in the
    pickle are imported from the shipped content under their own names, so the chunk's ball is the ball it was;
    a pickle whose class cannot be imported there is one line (:class:`ChunkNotLoaded`), not a dead worker."""
    import pickle
    import sys

    from regcontact.studies import _user_classes
    from regcontact.studies.sweep_engines import ChunkNotLoaded, solve_shipped

    shutil.copy(BODIES / "ball.py", tmp_path / "bodies.py")
    cls = _user_classes.load_class("system.kind", f"{tmp_path}/bodies.py:Ball", rc.AbstractSystem, "a body")
    payload = pickle.dumps(cls(vy0=-1.5, mass=2.0))
    modules = _user_classes.file_modules(payload)
    assert [(name, path) for name, path, _ in modules] == [(cls.__module__, str(tmp_path / "bodies.py"))]
    assert modules[0][2] == (tmp_path / "bodies.py").read_bytes()
    (tmp_path / "bodies.py").unlink()  # the content travels: a worker need not see the file
    monkeypatch.delitem(sys.modules, cls.__module__)  # as in a fresh worker
    _user_classes.install_file_modules(modules)
    ball = pickle.loads(payload)
    assert type(ball).__module__ == cls.__module__ and type(ball) is not cls
    assert float(ball.vy0) == -1.5 and float(ball.mass) == 2.0
    monkeypatch.delitem(sys.modules, cls.__module__)
    with pytest.raises(ChunkNotLoaded, match=rf"^ModuleNotFoundError: No module named '{cls.__module__}'$"):
        solve_shipped((), payload)


def test_workers_that_cannot_load_a_chunk_are_a_one_line_config_error(monkeypatch):
    """The cluster's refusal names the flag and its value, as an unreachable scheduler's does."""
    import argparse
    import contextlib

    from regcontact import cli
    from regcontact.studies.config import ConfigError
    from regcontact.studies.sweep_engines import ChunkNotLoaded, DaskEngine

    monkeypatch.setattr(DaskEngine, "connect", lambda scheduler, workers: contextlib.nullcontext(object()))
    args = argparse.Namespace(scheduler=None, local_cluster=2)
    with pytest.raises(ConfigError) as raised, cli._engine(args):
        raise ChunkNotLoaded("ModuleNotFoundError: No module named 'mybodies'")
    assert str(raised.value) == (
        "--local-cluster = 2: expected workers that can import the study's classes "
        "(ModuleNotFoundError: No module named 'mybodies')"
    )
