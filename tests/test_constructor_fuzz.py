"""Hostile and careless values for every argument of every public constructor, through the Python API.

Each draw builds one class of the public API (``regcontact``, ``regcontact.systems``, ``regcontact.contact``,
``regcontact.compliant``) with one argument set to a value from a pool of those that have broken such code before
(NaN, ±inf, subnormals, huge numbers and integers past int64, wrong types, empty and ragged lists, arrays of the
wrong shape) or a number drawn by hypothesis. The constructor must build, or refuse with a ``ValueError`` or
``TypeError`` of one line: never another exception, never a message over several lines. The study files' keys
get the same treatment through the command line (``tests/studies/test_config_fuzz.py``).
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import regcontact as rc
import regcontact.compliant
import regcontact.contact
import regcontact.systems


def _public_classes() -> dict[str, type]:
    found = {}
    for module in (rc, regcontact.systems, regcontact.contact, regcontact.compliant):
        for name in getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]):
            obj = getattr(module, name)
            if inspect.isclass(obj) and not inspect.isabstract(obj) and not name.startswith("Abstract"):
                try:
                    parameters = inspect.signature(obj).parameters.values()
                except (TypeError, ValueError):
                    continue
                if any(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in parameters):
                    found[name] = obj
    return found


CLASSES = _public_classes()

#: Values that have broken constructors.
HOSTILE = [
    math.nan, math.inf, -math.inf, -1.0, 0.0, -0.0, 1e300, -1e300, 1e-320, 5e-324, 1e308, 2**70, -(2**70), 3, True,
    "x", "", None, [], [1.0, 2.0], [[1.0], [2.0, 3.0]], [math.nan], np.zeros(0), np.ones((2, 2)), np.full(3, np.inf),
    {}, (1.0, "a"),
]  # fmt: skip


def _arguments(cls: type) -> list[str]:
    parameters = inspect.signature(cls).parameters.values()
    return [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _ruled(cls: type) -> list[str]:
    """The numeric arguments a class states a rule for (a system's ``ARGUMENT_RULES``, a law's ``PARAMETERS``)."""
    rules = {**getattr(cls, "ARGUMENT_RULES", {}), **getattr(cls, "PARAMETERS", {})}
    return [name for name in _arguments(cls) if name in rules]


def test_the_pool_covers_the_api():
    assert {"PainleveRod", "TwoPointRod", "SpatialRod", "BallChain", "SpringDamper", "HuntCrossley"} <= set(CLASSES)
    assert {"Controls", "SolveSettings", "RampLoad", "TableLoad", "RadauIIA5", "ContactModel"} <= set(CLASSES)


@pytest.mark.parametrize("name", sorted(CLASSES))
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_constructor_builds_or_refuses_in_one_line(name, data):
    cls = CLASSES[name]
    argument = data.draw(st.sampled_from(_arguments(cls)), label="argument")
    value = data.draw(st.one_of(st.sampled_from(HOSTILE), st.floats()), label="value")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy's overflow warnings are not the constructor's answer
            cls(**{argument: value})
    except (ValueError, TypeError) as error:
        message = str(error).strip()
        assert message and "\n" not in message, (argument, value, message)


#: The arguments a class needs besides the one drawn (the others have defaults).
REQUIRED = {"Controls": {"t_max": 1.0}, "BallChain": {"radii": [1.0, 1.0], "masses": [1.0, 1.0], "v0": [1.0, 0.0]}}


@pytest.mark.parametrize("name", sorted(name for name, cls in CLASSES.items() if _ruled(cls) and name != "Case"))
def test_a_ruled_argument_refuses_nan_and_infinity_naming_itself(name):
    cls = CLASSES[name]
    for argument in _ruled(cls):
        for value in (math.nan, math.inf, -math.inf):
            with pytest.raises(ValueError) as refused:
                cls(**{**REQUIRED.get(name, {}), argument: value})
            assert argument in str(refused.value).split(" = ")[0], (argument, value, refused.value)


def test_the_solver_options_are_counts_and_flags():
    options = [("root_find_max_steps", math.inf), ("simplified_newton_max_steps", math.nan)]
    options += [("radau5_tolerances", math.nan), ("second_order", 1.0)]
    for argument, value in options:
        with pytest.raises(ValueError, match=f"^{argument} = "):
            rc.RadauIIA5(**{argument: value})


def test_an_array_is_refused_on_one_line_and_a_huge_integer_is_a_number():
    with pytest.raises(ValueError) as refused:
        rc.SolveSettings(max_steps=np.ones((2, 2)))
    assert "\n" not in str(refused.value)
    assert float(rc.PainleveRod(mass=2**70).inertia) == pytest.approx(2.0**70 * 4 / 12)
