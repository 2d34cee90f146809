"""``regcontact.contact`` is the package's face: the contact model, friction laws and friction disk live in
private modules behind it."""

import pkgutil

import regcontact.contact as contact

#: Modules still public: the normal laws are moved behind the face with the impact-scale work on them.
STILL_PUBLIC = {"normal_laws"}


def test_the_modules_behind_the_face_are_private():
    public = {module.name for module in pkgutil.iter_modules(contact.__path__) if not module.name.startswith("_")}
    assert public <= STILL_PUBLIC


def test_each_name_of_the_face_is_defined_in_a_module_of_the_package():
    for name in ("ContactModel", "law_exponents", "AbstractFrictionLaw", "ViscousCoulomb", "friction_disk"):
        assert getattr(contact, name).__module__.startswith("regcontact.contact._")
