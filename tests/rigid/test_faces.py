"""The rigid wing's shape: one face over private concept folders, nothing imported from the compliant wing, and
impact laws as objects behind a name table."""

import ast
from pathlib import Path

import pytest

import regcontact.passages
import regcontact.rigid
from regcontact.contact import ContactModel
from regcontact.rigid import (
    IMPACT_LAWS,
    AbstractImpactLaw,
    CompliantLimitImpact,
    ContactState,
    DarbouxKellerImpact,
    NewtonImpact,
    event_driven,
)
from regcontact.systems import PainleveRod, TwoPointRod

RIGID = Path(regcontact.rigid.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    return found | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}


def test_the_rigid_wing_imports_nothing_from_the_compliant_wing_or_above():
    above = ("regcontact.compliant", "regcontact.passages", "regcontact.studies", "regcontact.figures")
    offending = {
        str(path.relative_to(RIGID)): sorted(m for m in _imported_modules(path) if m.startswith(above))
        for path in RIGID.rglob("*.py")
    }
    assert {path: modules for path, modules in offending.items() if modules} == {}


def test_every_module_below_the_face_is_private_except_the_lcp_package():
    public = sorted(
        str(path.relative_to(RIGID))
        for path in RIGID.rglob("*.py")
        if path.name != "__init__.py" and not any(part.startswith("_") for part in path.relative_to(RIGID).parts)
    )
    assert public == []
    folders = sorted(p.name for p in RIGID.iterdir() if p.is_dir() and not p.name.startswith("__"))
    assert folders == ["_formulations", "_impacts", "_integrators", "_painleve", "lcp"]


@pytest.mark.parametrize("face", [regcontact.rigid, regcontact.rigid.lcp, regcontact.passages])
def test_each_face_names_what_it_re_exports(face):
    names = [name for name in dir(face) if not name.startswith("_")]
    assert names and all(getattr(face, name) is not None for name in names)


def test_impact_laws_by_name_are_impact_law_classes():
    assert sorted(IMPACT_LAWS) == ["compliant_limit", "darboux_keller", "lcp"]
    assert all(issubclass(law, AbstractImpactLaw) for law in IMPACT_LAWS.values())
    with pytest.raises(TypeError, match=r"^impact_law = 'lcp': expected an AbstractImpactLaw"):
        event_driven(PainleveRod(), 0.1, impact_law="lcp")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        AbstractImpactLaw()  # type: ignore[abstract]


def test_a_law_named_by_a_study_takes_what_it_uses_of_the_settings():
    """A study builds every named law the same way: the restitution goes to the laws that have one, the contact
    model to the compliant limit."""
    model = ContactModel()
    assert IMPACT_LAWS["lcp"].from_settings(0.3, model) == NewtonImpact(0.3)
    assert IMPACT_LAWS["darboux_keller"].from_settings(0.7, model) == DarbouxKellerImpact(0.7)
    assert IMPACT_LAWS["compliant_limit"].from_settings(0.3, model).model is model  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"^restitution = 1\.5: expected"):
        IMPACT_LAWS["lcp"].from_settings(1.5, model)


def test_each_impact_law_answers_a_landing_with_its_outcomes():
    """The two-point rod dropped flat: every law returns impulses on both contacts, velocities after and modes."""
    state = ContactState.from_system(TwoPointRod(mu=0.5, height=0.0, vy0=-1.0))
    for law in (NewtonImpact(0.5), DarbouxKellerImpact(0.0), CompliantLimitImpact(ContactModel())):
        outcomes = law(state, 1e-7)
        assert len(outcomes) >= 1
        for outcome in outcomes:
            assert outcome.impulses.shape == (2, 2) and (outcome.impulses[:, 0] > 0).all()
            assert len(outcome.modes) == 2 and outcome.velocity.shape == state.velocity.shape
    for newton in NewtonImpact(0.5)(state, 1e-7):  # every solution of the impact LCP: ġ_n⁺ = −e ġ_n⁻ at both ends
        assert (state.jacobian_matrix @ newton.velocity)[0::2] == pytest.approx([0.5, 0.5], rel=1e-9)
