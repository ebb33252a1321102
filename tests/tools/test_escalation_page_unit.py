"""A page started by `escalate_to_human` alone names the property, the reporter's unit (from their
roles at the property, when they occupy exactly one there) and the brief; otherwise it says "unit
unknown", in the text and in the call's script."""
from __future__ import annotations

import itertools
import json

import pytest

from spine.identity import OccupancyKind, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.repo import Spine
from spine.toolspec import ToolInvocation
from tools.caller import load_caller
from tools.dispatch import dispatch

_ids = itertools.count(1)


async def run(spine, caller, tool, /, **input) -> dict:
    result = await dispatch(spine, ToolInvocation(name=tool, input=input, tool_use_id=f"tu_page_{next(_ids)}"), caller)
    assert not result.is_error, result.content
    return json.loads(result.content)


async def _page_rows(spine: Spine, out: dict) -> tuple[str, str]:
    escalation = await spine.get_escalation(out["escalation_id"])
    page = await spine.get_page(escalation.page_id)
    text = await spine.get_outbox(f"page-{page.id}-0-p_mike-sms")
    call = await spine.get_outbox(f"page-{page.id}-0-p_mike-call")
    return text.body, call.body


@pytest.mark.parametrize(("who", "unit"), [("jordan", "unit 204"), ("carlos", "unit 110"),
                                           ("other", "unit unknown")])
async def test_an_escalation_page_names_the_reporters_one_unit(spine, callers, who, unit):
    out = await run(spine, callers[who], "escalate_to_human", reason="water pouring from the ceiling",
                    urgency="emergency")
    text, call = await _page_rows(spine, out)
    assert text.startswith(f"URGENT page, JP Yale Station, {unit}: water pouring from the ceiling.")
    spoken = unit if unit == "unit unknown" else "unit " + " ".join(unit.removeprefix("unit "))
    assert f"JP Yale Station, with an urgent page, {spoken}: water pouring" in call


async def test_a_reporter_with_two_units_there_is_unit_unknown(spine):
    await spine.put_role(PersonRole(id="tr_jordan_312", person_id="p_jordan", role_type=PersonRoleType.TENANT,
                                    source=PersonRoleSource.PMS_SYNC,
                                    scope=RoleScope(org_id="org_propflow", property_id="pf_yale", unit_id="u_yale_312",
                                                    occupancy=OccupancyKind.PRIMARY)))
    jordan = await load_caller(spine, "p_jordan", "pf_yale", "int-two-units")
    out = await run(spine, jordan, "escalate_to_human", reason="smoke in the hallway", urgency="urgent")
    text, _ = await _page_rows(spine, out)
    assert text.startswith("URGENT page, JP Yale Station, unit unknown: smoke in the hallway.")
