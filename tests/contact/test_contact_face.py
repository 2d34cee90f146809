"""``regcontact.contact`` is the package's face: the normal laws, the contact model, friction laws and friction disk
live in private modules behind it."""

import pkgutil

import regcontact.contact as contact


def test_the_modules_behind_the_face_are_private():
    public = {module.name for module in pkgutil.iter_modules(contact.__path__) if not module.name.startswith("_")}
    assert public == set()


def test_each_name_of_the_face_is_defined_in_a_module_of_the_package():
    for name in (
        "ContactModel",
        "law_exponents",
        "AbstractFrictionLaw",
        "ViscousCoulomb",
        "friction_disk",
        "SpringDamper",
        "ImpactScale",
    ):
        assert getattr(contact, name).__module__.startswith("regcontact.contact._")
