"""The test tree's rules (docs/architecture.md, "Layout"): tests/ mirrors the packages, every shared helper lives
in tests/support/ under one naming scheme, and no test imports from a conftest or another test
module. Each rule fails naming the files that break it."""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
NOT_MIRRORS = {"support", "data"}  # shared helpers and test data, not tests of a package
RAY_FIXTURES = re.compile(r"\b(ray_session|serve_gateway)\b")  # tests/support/ray_fixtures.py
HELPER_NAME = re.compile(r"^(?:[a-z0-9]+_)*[a-z0-9]+_(server|client|fixtures|helpers)$")  # tests/support/<what>_<kind>.py


def mirror_folders() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*") if p.is_dir() and p.name != "__pycache__"
                  and not NOT_MIRRORS & set(p.relative_to(TESTS).parts))


def python_files(folder: Path = TESTS) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def imported_modules(path: Path) -> list[tuple[int, str, int]]:
    """(line, module, level) of every import in the file, at any depth (lazy imports too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, node.module or "", node.level))
    return found


def test_each_test_folder_mirrors_a_source_package():
    missing = [str(folder.relative_to(TESTS)) for folder in mirror_folders()
               if not list((ROOT / folder.relative_to(TESTS)).glob("*.py"))]
    assert missing == [], f"test folders with no package of that path: {missing}"


def test_each_test_folder_is_a_package():
    """With an __init__.py everywhere, pytest names test modules by their full dotted path and puts
    only the repository root on sys.path: a bare `import helpers` cannot work, and two test files
    may share a name in different folders."""
    missing = [str(folder.relative_to(ROOT)) for folder in [TESTS, TESTS / "support", *mirror_folders()]
               if not (folder / "__init__.py").exists()]
    assert missing == []


def test_helpers_live_only_in_support_under_one_naming_scheme():
    stray = [str(p.relative_to(TESTS)) for p in python_files() if p.parent.name != "support"
             and p.name != "conftest.py" and p.name != "__init__.py" and not p.name.startswith("test_")]
    assert stray == [], f"shared helpers belong in tests/support/: {stray}"
    misnamed = [p.name for p in python_files(TESTS / "support") if p.name != "__init__.py"
                and not p.name.startswith("test_") and not HELPER_NAME.match(p.stem)]
    assert misnamed == [], f"tests/support/ names a module <what>_server|client|fixtures|helpers: {misnamed}"


def test_no_test_imports_a_conftest_a_test_module_or_a_bare_test_folder_module():
    local_names = {p.stem for p in python_files()} - {"__init__"}
    broken = []
    for path in python_files():
        for line, module, level in imported_modules(path):
            first, parts = module.split(".")[0], module.split(".")
            where = f"{path.relative_to(ROOT)}:{line} imports {'.' * level}{module}"
            if level:
                broken.append(f"{where} (relative: import as tests.support.x)")
            elif first == "tests" and parts[1:2] != ["support"]:
                broken.append(f"{where} (only tests.support.* is importable)")
            elif first in local_names and first not in sys.stdlib_module_names and not _installed(first):
                broken.append(f"{where} (a bare import that works only from the test's folder)")
            elif parts[-1] == "conftest" or (first == "tests" and parts[-1].startswith("test_")):
                broken.append(f"{where} (a conftest or a test module)")
    assert broken == []


def _installed(name: str) -> bool:
    import importlib.util

    spec = importlib.util.find_spec(name)
    return spec is not None and spec.origin is not None and TESTS not in Path(spec.origin).parents


def test_every_fixtures_module_is_registered_for_the_whole_suite(pytestconfig):
    """A fixture used in more than one folder lives in tests/support/*_fixtures.py, registered in
    tests/conftest.py's pytest_plugins; importing a fixture into a module would make a second
    instance of it."""
    modules = [f"tests.support.{p.stem}" for p in sorted((TESTS / "support").glob("*_fixtures.py"))]
    assert modules and [m for m in modules if not pytestconfig.pluginmanager.has_plugin(m)] == []


def test_modules_on_the_shared_ray_instance_are_marked_ray():
    """`make test` runs the Ray-marked tests in one process of their own: one that uses the
    private Ray instance without the marker would start a second Ray in a parallel worker."""
    unmarked = [str(p.relative_to(TESTS)) for p in python_files() if p.name.startswith("test_")
                and RAY_FIXTURES.search(text := p.read_text()) and "pytestmark = pytest.mark.ray" not in text]
    assert unmarked == []


def test_the_naming_scheme_refuses_the_old_names():
    good = ["twilio_server", "twilio_media_client", "ray_fixtures", "voice_helpers"]
    assert [n for n in good if not HELPER_NAME.match(n)] == []
    assert [n for n in ["helpers", "sms_support", "turns", "resize_load", "policy_table"] if HELPER_NAME.match(n)] == []
