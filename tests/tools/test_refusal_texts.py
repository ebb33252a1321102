"""Refusals tell the model the rule, not the facts (issue 13, finding 5). From refusals alone a
caller must not learn where a work order is, which vendor holds it, which units exist, or anything
about another org; the full reason stays on the result (and so in the trace) for operators."""
from __future__ import annotations

import json
import re

from spine.toolspec import ToolInvocation
from tests.support.tool_helpers import ROWS
from tools.dispatch import dispatch

# Facts a refusal could leak: store ids of people, vendors, properties, orgs; unit numbers.
LEAKS = re.compile(r"\b(?:p|v|pf|org|u|wo)_\w+|\bunit \d+")


def _named(row_input: dict) -> str:
    return json.dumps(row_input)


async def test_no_refusal_in_the_policy_table_tells_more_than_the_call_named(spine, callers):
    checked = calls = 0
    for row in ROWS:
        for name, caller in callers.items():
            calls += 1  # a fresh tool_use_id per call: a reused one is an idempotency conflict, not a refusal
            inv = ToolInvocation(name=row.tool, input=row.input, tool_use_id=f"tu_{calls}")
            result = await dispatch(spine, inv, caller)
            if result.decision != "refused":
                continue
            checked += 1
            body = json.loads(result.content)
            assert body["refused"] in {"role", "scope", "unknown-tool", "invalid-input"}, body
            said = body["error"]
            for leak in LEAKS.findall(said):
                number = leak.removeprefix("unit ")
                assert number in _named(row.input) or leak in _named(row.input), (name, row.tool, said)
    assert checked > 300


async def test_someone_elses_work_order_reads_like_one_that_does_not_exist(spine, callers):
    async def said(caller: str, tool: str, wo: str) -> dict:
        inv = ToolInvocation(name=tool, input={"work_order_id": wo}, tool_use_id=f"tu_{caller}_{wo}")
        return json.loads((await dispatch(spine, inv, callers[caller])).content)

    elsewhere, missing = await said("marcus", "get_work_order_detail", "WO-42"), \
        await said("marcus", "get_work_order_detail", "WO-404")
    assert elsewhere == {"error": "Not allowed: WO-42 is not a work order of yours", "refused": "scope"}
    assert missing["error"].replace("WO-404", "WO-42") == elsewhere["error"]
    other_org = await said("marcus", "get_work_order_detail", "WO-51")
    assert "12" not in other_org["error"] and "capitol" not in other_org["error"]
    mike = await said("mike", "get_dispatch_details", "WO-42")
    assert mike["error"] == "Not allowed: WO-42 is not a work order assigned to you"
    assert (await said("mike", "get_dispatch_details", "WO-51"))["error"].replace("51", "42") == mike["error"]


async def test_the_full_reason_stays_for_operators(spine, callers):
    inv = ToolInvocation(name="get_dispatch_details", input={"work_order_id": "WO-42"}, tool_use_id="tu_op")
    result = await dispatch(spine, inv, callers["mike"])
    assert "v_carlos" in result.reason and "v_carlos" not in result.content


async def test_unit_refusals_do_not_tell_which_units_exist(spine, callers):
    async def said(unit: str) -> str:
        inv = ToolInvocation(name="create_work_order", input={"description": "leak", "unit": unit},
                             tool_use_id=f"tu_u{unit}")
        return json.loads((await dispatch(spine, inv, callers["marcus"])).content)["error"]

    assert (await said("312")).replace("312", "999") == await said("999")
