"""Each package's public API is its `__all__`, as httpx tests its own: every public name the
package offers is listed, and every listed name resolves. And every exception class of a layer
derives from the layer's one documented base (gateway.errors).
"""
from __future__ import annotations
import __future__

import importlib
import pkgutil
import types

import pytest

BASES = {"gateway": "gateway.errors.GatewayError"}
SUBPACKAGES = ["gateway.admin", "gateway.cli", "gateway.email", "gateway.evals", "gateway.sms", "gateway.telegram",
               "gateway.voice"]  # each with its own __all__, under its layer's base
PACKAGES = sorted(BASES) + SUBPACKAGES


def _public_names(package: types.ModuleType) -> set[str]:
    """The package's public members, less its submodules (set as attributes when imported) and
    `from __future__` features."""
    return {name for name, value in vars(package).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType | __future__._Feature)}


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_every_public_name(name):
    package = importlib.import_module(name)
    assert sorted(package.__all__) == sorted(_public_names(package))
    assert len(set(package.__all__)) == len(package.__all__)


@pytest.mark.parametrize("name", PACKAGES)
def test_every_listed_name_resolves_inside_its_layer(name):
    package = importlib.import_module(name)
    missing = [member for member in package.__all__ if getattr(package, member, None) is None]
    assert missing == []
    root = name.split(".")[0]
    for member in package.__all__:
        home = getattr(getattr(package, member), "__module__", root)  # constants have no home to check
        assert home == root or home.startswith(root + "."), f"{name}.{member} comes from {home}"


def test_the_check_sees_an_unlisted_name():
    package = types.ModuleType("fake")
    package.__all__ = ["listed"]
    package.listed, package.forgotten = 1, 2
    assert _public_names(package) == {"listed", "forgotten"}


def _exception_classes(name: str) -> list[type[BaseException]]:
    package = importlib.import_module(name)
    found = []
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
        module = importlib.import_module(info.name)
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == info.name]
    return found


@pytest.mark.parametrize("name", sorted(BASES))
def test_every_exception_derives_from_its_layer_base(name):
    classes = _exception_classes(name)
    module, _, base_name = BASES[name].rpartition(".")
    base = getattr(importlib.import_module(module), base_name)
    assert base in classes
    assert sorted(c.__qualname__ for c in classes if not issubclass(c, base)) == []
