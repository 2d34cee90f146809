"""A law is used with its own parameters: a compliant study's law takes its class's defaults for what the file
does not give, a law switched by ``--set`` does not inherit the numbers the file wrote for its former law (a note
says which were dropped), a file's sweep over the former law's parameter is refused, and the laws in effect are
said before the run.

The trap: ``--set contact.normal_law=hunt_crossley`` on Table 1 ran Hunt–Crossley with exponent n = 1 and damping
∝ α (the spring-damper's numbers, carried over in silence) where ``HuntCrossley()`` is n = 3/2 with fixed damping;
the two converge to different answers.
"""

from pathlib import Path

import pytest

from regcontact.contact import HuntCrossley
from regcontact.studies._compliant_text import laws_line
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study

TABLE1 = Path(__file__).parents[2] / "studies" / "table1.toml"
#: Hunt–Crossley has no contact time: its window is given in time units.
SWITCH = ["contact.normal_law=hunt_crossley", "termination.time_limit=0.1"]


def test_a_switched_law_takes_its_own_parameters_and_exponents_not_the_files():
    loaded = load_study(TABLE1, SWITCH)
    contact = loaded.config["contact"]
    assert contact["normal"] == {"stiffness": 1.0, "exponent": 1.5, "damping": 1.0}  # HuntCrossley()'s
    assert contact["normal_exponents"] == dict(HuntCrossley.EXPONENTS)  # n and c fixed, k ∝ α
    assert contact["friction"] == {"damping": 1.0} and contact["friction_exponents"] == {"damping": 1.0}  # kept
    note = next(note for note in loaded.notes if note.startswith("contact.normal_law = 'hunt_crossley' (set)"))
    assert "normal.stiffness, normal.damping, normal_exponents.stiffness, normal_exponents.damping" in note
    assert "(written for 'spring_damper') are not used" in note
    assert any(note.startswith("paper values not shown") for note in loaded.notes)  # Table 1 is the spring-damper's


def test_parameters_set_with_the_switch_are_the_new_laws():
    loaded = load_study(TABLE1, [*SWITCH, "contact.normal.exponent=2.0", "contact.normal_exponents.damping=1.0"])
    contact = loaded.config["contact"]
    assert contact["normal"] == {"stiffness": 1.0, "exponent": 2.0, "damping": 1.0}
    assert contact["normal_exponents"] == {"stiffness": 1.0, "exponent": 0.0, "damping": 1.0}


def test_naming_the_files_own_law_again_changes_nothing():
    loaded = load_study(TABLE1, ["contact.normal_law=spring_damper"])
    assert loaded.config["contact"] == load_study(TABLE1).config["contact"]
    assert not any("(set)" in note for note in loaded.notes)


def test_a_law_the_file_names_without_parameters_takes_its_class_defaults(tmp_path):
    text = TABLE1.read_text(encoding="utf-8")
    start, end = text.index("[contact.normal]"), text.index("[sweep]")
    study = tmp_path / "study.toml"
    contact = '[contact]\nnormal_law = "hunt_crossley"\n'
    study.write_text(
        text[: text.index("[contact]")] + contact + text[end:].replace('"contact_time"', "0.1"), encoding="utf-8"
    )
    assert start > 0
    normal = load_study(study).config["contact"]["normal"]
    assert normal == {"stiffness": 1.0, "exponent": 1.5, "damping": 1.0}  # was exponent 1.0: every default was 1


def test_a_files_sweep_over_the_former_laws_parameter_is_refused(tmp_path):
    study = tmp_path / "study.toml"
    text = TABLE1.read_text(encoding="utf-8").replace("[sweep]\n", "[sweep]\ncontact.normal.damping = [0.5, 1.0]\n")
    study.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^sweep.contact.normal.damping = \[0.5, 1.0\]: expected values for the law"):
        load_study(study, SWITCH)


def test_the_laws_in_effect_are_said_with_every_parameter_and_exponent():
    contact = load_study(TABLE1, SWITCH).config["contact"]
    assert laws_line(contact, ["contact.normal.damping"]) == (
        "laws: normal hunt_crossley (stiffness 1·α^1, exponent 1.5·α^0, damping swept·α^0), "
        "friction viscous_coulomb (damping 1·α^1)"
    )
