"""Drift guards for the tool layer (ADR L3): the matrix, the handlers and the L2 prompts agree."""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from spine.identity import PersonRoleType
from tools.matrix import TOOL_ROLE_MATRIX
from tools.registry import HANDLER_MODULES, TOOLS

TOOLS_DIR = Path(__file__).resolve().parents[2] / "tools"


def test_matrix_coverage_every_handler_one_entry_every_entry_a_handler_and_spec():
    defined = Counter(tool.name for module in HANDLER_MODULES for tool in module.TOOLS)
    assert [n for n, count in defined.items() if count != 1] == []
    assert set(defined) == set(TOOL_ROLE_MATRIX)
    for name in TOOL_ROLE_MATRIX:
        spec = TOOLS[name].spec
        assert spec.name == name and spec.description
        Draft202012Validator.check_schema(spec.input_schema)
        assert spec.input_schema["type"] == "object"


def _matrix_literal_keys() -> list[str]:
    """Keys as written in tools/matrix.py; a dict literal silently keeps the last of two equal keys."""
    tree = ast.parse((TOOLS_DIR / "matrix.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "TOOL_ROLE_MATRIX":
            return [k.value for k in node.value.keys]
    raise AssertionError("TOOL_ROLE_MATRIX literal not found")


def test_distinct_tool_names_per_scope():
    """Each tool name is written once, so it has one catalog, one role set and one scope; a
    similar power with another scope is another tool (create_work_order vs pm_create_work_order)."""
    written = Counter(_matrix_literal_keys())
    assert [n for n, c in written.items() if c > 1] == []
    assert set(written) == set(TOOL_ROLE_MATRIX)
    catalogs = {name: policy.catalog for name, policy in TOOL_ROLE_MATRIX.items()}
    assert all(name.startswith("pm_") == (catalog == "pm") for name, catalog in catalogs.items())
    shared = {"facility", "universal"}
    # A shared catalog's tool is for everyone ("*"), or for every role type but no role at all (a transfer
    # to a person is not for the other lane); a role catalog's tool never is.
    everyone = ("*", frozenset(PersonRoleType))
    assert all((p.roles in everyone) == (p.catalog in shared) for p in TOOL_ROLE_MATRIX.values())


ROLE_CHECK = re.compile(r"role_type|PersonRoleType|\.roles\b|caller\.role")


def test_no_role_checks_inside_handlers():
    offenders = []
    for path in sorted((TOOLS_DIR / "handlers").glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if ROLE_CHECK.search(line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == [], "handlers must leave role checks to the gate:\n" + "\n".join(offenders)


def test_l2_primary_tools_are_in_the_matrix():
    if not (TOOLS_DIR.parent / "prompts" / "directory.py").exists():
        pytest.skip("prompts/directory.py does not exist yet (the L2 directory is written concurrently)")
    from prompts.directory import all_features

    features = all_features()
    assert features
    missing = [(f.key, t) for f in features for t in f.meta.primary_tools if t not in TOOL_ROLE_MATRIX]
    assert missing == []


def test_tool_layer_files_stay_small():
    too_long = [f"{p.relative_to(TOOLS_DIR.parent)}: {n}" for p in TOOLS_DIR.rglob("*.py")
                if (n := len(p.read_text().splitlines())) >= 300]
    assert too_long == []


def test_l2_primary_tools_are_callable_by_their_meta_role():
    """A tenant feature must not promote a vendor tool: some role type behind the feature's meta role
    (per the spine's role-type -> MetaRole bridge) may call each of its primary tools."""
    if not (TOOLS_DIR.parent / "prompts" / "directory.py").exists():
        pytest.skip("prompts/directory.py does not exist yet (the L2 directory is written concurrently)")
    from prompts.directory import all_features
    from spine.identity import PersonRoleType
    from spine.router import person_role_types_to_meta_roles

    behind = {meta: set() for meta in {f.meta_role for f in all_features()}}
    for role_type in PersonRoleType:
        for meta in person_role_types_to_meta_roles([role_type]):
            behind.setdefault(meta, set()).add(role_type)
    wrong = [(f.key, tool) for f in all_features() for tool in f.meta.primary_tools
             if tool in TOOL_ROLE_MATRIX and TOOL_ROLE_MATRIX[tool].roles != "*"
             and TOOL_ROLE_MATRIX[tool].roles.isdisjoint(behind[f.meta_role])]
    assert wrong == []
