"""Drives tests/support/tool_helpers.py: authorize() and catalog_for() against the seeded store."""
from __future__ import annotations

import pytest

from tests.support.tool_helpers import COLUMNS, EXPECT, ROWS, Row
from tools.catalog import catalog_for
from tools.gate import authorize
from tools.matrix import TOOL_ROLE_MATRIX


def _row_id(row: Row) -> str:
    return f"{row.tool}:{','.join(f'{k}={v}' for k, v in sorted(row.input.items()))}"


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
async def test_policy_row(spine, callers, row: Row):
    wrong = []
    for name, code in row.codes().items():
        caller = callers[name]
        decision = await authorize(spine, caller, row.tool, row.input)
        offered = row.tool in [spec.name for spec in catalog_for(caller)]
        allowed, rule, visible = EXPECT[code]
        if decision.allowed != allowed or not decision.rule.startswith(rule) or offered != visible:
            wrong.append(f"{name}: expected {code} (allowed={allowed}, rule {rule}*, offered={visible}); got "
                         f"allowed={decision.allowed}, rule={decision.rule}, offered={offered}: {decision.reason}")
        if not decision.allowed:  # the reason names the rule that refused, for "why was this denied"
            assert decision.reason.startswith(decision.rule.replace(":", " ") + ":"), decision.reason
    assert not wrong, "\n".join(wrong)


def test_table_covers_every_tool_and_catalog_column_agrees():
    """Every matrix tool has a row, and a tool's catalog visibility never differs between its rows."""
    assert {r.tool for r in ROWS} >= set(TOOL_ROLE_MATRIX)
    for tool in TOOL_ROLE_MATRIX:
        seen = {tuple(EXPECT[c][2] for c in r.codes().values()) for r in ROWS if r.tool == tool}
        assert len(seen) == 1, f"{tool}: rows disagree on which callers are offered it"
    assert len(COLUMNS) == len(set(COLUMNS))
