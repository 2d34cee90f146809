"""Study kinds are classes behind one registry: each declares what the loader and the command line ask of it."""

import typing

import pytest

from regcontact.studies import STUDY_KINDS, AbstractStudyKind, ConfigError, Estimate, load_config
from regcontact.studies.loading import chunked_kinds
from regcontact.studies.study_size import DeviceSet, study_size


@pytest.mark.parametrize("name", sorted(STUDY_KINDS))
def test_each_kind_is_a_final_class_registered_under_its_name(name):
    kind = STUDY_KINDS[name]
    assert issubclass(kind, AbstractStudyKind) and kind.NAME == name
    assert getattr(kind, "__final__", False)
    assert not kind.__abstractmethods__
    assert kind.TABLE_COLUMNS


def test_only_the_compliant_sweep_runs_in_chunks_and_only_the_rigid_study_stays_on_the_host():
    assert chunked_kinds() == ["compliant_sweep"]
    assert [name for name, kind in STUDY_KINDS.items() if not kind.ON_DEVICES] == ["rigid_painleve"]


def test_an_unknown_kind_is_refused_in_one_line_naming_every_kind():
    with pytest.raises(ConfigError) as error:
        load_config({"study": {"name": "s", "kind": "magic"}})
    assert str(error.value) == "study.kind = 'magic': expected one of " + ", ".join(repr(k) for k in STUDY_KINDS)
    assert "\n" not in str(error.value)


def test_a_kind_that_leaves_out_a_method_cannot_be_made():
    class Incomplete(AbstractStudyKind):
        NAME = "incomplete"
        TABLE_COLUMNS = ("a",)

        def schema(self, raw):
            return {}

    with pytest.raises(TypeError, match="abstract"):
        Incomplete()  # type: ignore[abstract]


def test_the_size_is_the_kinds_estimate_scaled_to_the_load(monkeypatch):
    class Tiny(AbstractStudyKind):
        NAME = "tiny"
        TABLE_COLUMNS = ("a",)

        def schema(self, raw):
            return {}

        def check(self, config, overridden):
            return []

        def estimate(self, config, devices):
            return Estimate(3, "3 things", 1e6, {"start": 1.0, "solve": 2.0})

        def run(self, config, progress=lambda message: None):
            raise AssertionError("not run")

    monkeypatch.setattr("regcontact.studies.study_size.load_factor", lambda: 2.0)
    size = study_size(Tiny(), {}, DeviceSet("cpu", 1))
    assert (size.cases, size.detail, size.memory, dict(size.phases)) == (
        3,
        "3 things",
        1e6,
        {"start": 2.0, "solve": 4.0},
    )
    assert typing.get_type_hints(AbstractStudyKind.estimate)["return"] is Estimate
