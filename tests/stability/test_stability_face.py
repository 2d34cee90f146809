"""``regcontact.stability`` is the package's one face: its modules are private, and every public class and
function defined in the package is reached through it."""

import inspect
import pkgutil

import regcontact.stability as stability


def test_every_module_behind_the_face_is_private():
    assert [module.name for module in pkgutil.iter_modules(stability.__path__) if not module.name.startswith("_")] == []


def test_every_public_object_of_the_package_is_on_the_face():
    for _, module_name, _ in pkgutil.iter_modules(stability.__path__, prefix="regcontact.stability."):
        module = __import__(module_name, fromlist=["_"])
        defined = {
            name: obj
            for name, obj in vars(module).items()
            if not name.startswith("_")
            and (inspect.isclass(obj) or inspect.isfunction(obj))
            and getattr(obj, "__module__", None) == module_name
        }
        if module_name.endswith("._checks"):  # the argument rules: internal to the package
            continue
        missing = {name for name, obj in defined.items() if getattr(stability, name, None) is not obj}
        assert missing == set(), module_name
