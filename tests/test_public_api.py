"""Each package's public API is its `__all__`, as httpx tests its own: every public name the
package offers is listed, and every listed name resolves. And every exception class of a layer
derives from the layer's one documented base (spine.errors, tools.errors, actors.errors,
gateway.errors); prompts defines none.
"""
from __future__ import annotations
import __future__

import importlib
import pkgutil
import types

import pytest

BASES: dict[str, str | None] = {
    "spine": "spine.errors.SpineError", "tools": "tools.errors.ToolError", "prompts": None,
    "actors": "actors.errors.ActorError", "gateway": "gateway.errors.GatewayError",
}
MODULES_IN_API = {"spine": {"keys"}}  # submodules that are part of the API themselves
SUBPACKAGES = ["gateway.admin", "gateway.cli", "gateway.email", "gateway.evals", "gateway.sms", "gateway.telegram",
               "gateway.voice"]  # each with its own __all__, under its layer's base
PACKAGES = sorted(BASES) + SUBPACKAGES


def _public_names(package: types.ModuleType) -> set[str]:
    """The package's public members, less its submodules (set as attributes when imported) and
    `from __future__` features."""
    names = {name for name, value in vars(package).items()
             if not name.startswith("_") and not isinstance(value, types.ModuleType | __future__._Feature)}
    names |= set(getattr(package, "_HOMES", {}))  # imported on first use (PEP 562: actors, gateway.sms, ...)
    return names | MODULES_IN_API.get(package.__name__, set())


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
        if home == "typing":  # a type alias (CallDecision = Literal[...]) says typing, not where it is defined
            continue
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
    if BASES[name] is None:
        assert classes == []
        return
    module, _, base_name = str(BASES[name]).rpartition(".")
    base = getattr(importlib.import_module(module), base_name)
    assert base in classes
    assert sorted(c.__qualname__ for c in classes if not issubclass(c, base)) == []
