"""Each package's public API is its `__all__`, as httpx does it: the package exports exactly the
names `__all__` lists (no public name left out, none listed that it does not import), and each
class and function it exports is defined inside that package. Other packages add their names to PACKAGES."""
from __future__ import annotations
import __future__

import importlib
from types import ModuleType

import pytest

PACKAGES = ["gateway", "gateway.sms", "gateway.email", "gateway.telegram", "gateway.voice", "gateway.admin",
            "gateway.evals", "gateway.cli"]


def _exported(package: ModuleType) -> set[str]:
    """The package's public members, less its submodules (set as attributes when imported) and
    `from __future__` features."""
    return {name for name, value in vars(package).items()
            if not name.startswith("_") and not isinstance(value, ModuleType | __future__._Feature)}


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_exactly_what_the_package_exports(name):
    package = importlib.import_module(name)
    assert sorted(package.__all__) == sorted(_exported(package))
    assert len(set(package.__all__)) == len(package.__all__)


@pytest.mark.parametrize("name", PACKAGES)
def test_every_exported_name_is_defined_inside_the_package(name):
    package = importlib.import_module(name)
    root = name.split(".")[0]
    for member in package.__all__:
        home = getattr(getattr(package, member), "__module__", root)  # constants have no home to check
        assert home == root or home.startswith(root + "."), f"{name}.{member} comes from {home}"
