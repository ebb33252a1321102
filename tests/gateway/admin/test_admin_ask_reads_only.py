"""Issue 40 item 16: Ask Clara by a viewer reads only, and an impersonated turn's emergency is shown
to the staff member, never sent as the person's: no escalation, no page, no notification, no work
order in their name. Through the real router, agent turn (offline model) and tool gate."""
from __future__ import annotations

import pytest

from spine.records import EventKind, OutboxStatus
from tests.support.admin_helpers import AUTH, person_auth
from tests.support.gateway_helpers import OfflinePool

FIRE = "there is a fire in the hallway"


def ask(as_person_id: str, message: str = FIRE) -> dict:
    return {"as_person_id": as_person_id, "property_id": "pf_yale", "message": message}


async def _nothing_sent(spine) -> None:
    assert await spine.escalations_for_org("org_propflow") == []
    assert await spine.events(EventKind.ONCALL_PAGED) == []
    assert await spine.outbox(OutboxStatus.PENDING, limit=100) == []
    assert sorted(w.display_id for w in await spine.work_orders_of_unit("pf_yale", "u_yale_204")) == ["WO-7"]


@pytest.mark.parametrize("who, as_person, rule", [
    ("p_sam", "p_sam", "admin:read-only"),  # a viewer as himself
    ("p_sam", "p_marcus", "impersonation:shown-not-sent"),  # a viewer as a tenant
    ("p_priya", "p_marcus", "impersonation:shown-not-sent"),  # a pm as a tenant
    ("operator", "p_marcus", "impersonation:shown-not-sent"),  # the operator, otherwise uncapped
])
async def test_an_emergency_through_ask_clara_is_shown_not_sent(make_admin, spine, who, as_person, rule):
    client, _ = await make_admin(OfflinePool(spine))
    headers = AUTH if who == "operator" else await person_auth(spine, who)
    answer = await client.post("/admin/api/ask", json=ask(as_person), headers=headers)
    assert answer.status_code == 200, answer.text
    assert "911" in answer.json()["reply"] and "page the on-call team from the console" in answer.json()["reply"]
    trace = await spine.get_trace(answer.json()["interaction_id"])
    refused = [(c.name, c.decision, c.reason) for c in trace.tool_calls if c.name == "escalate_to_human"]
    assert refused and all(d == "refused" for _, d, _ in refused), refused
    assert any(rule.split(":")[0] in r for _, _, r in refused)
    await _nothing_sent(spine)


async def test_a_viewer_changes_nothing_even_what_the_matrix_lets_a_viewer_call(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    sam = await person_auth(spine, "p_sam")
    answer = await client.post("/admin/api/ask", json=ask("p_sam", "please have someone call me about WO-7"),
                               headers=sam)
    trace = await spine.get_trace(answer.json()["interaction_id"])
    assert [c.decision for c in trace.tool_calls if c.name == "escalate_to_human"] in ([], ["refused"])
    await _nothing_sent(spine)


async def test_a_pm_asking_as_herself_still_escalates(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    priya = await person_auth(spine, "p_priya")
    answer = await client.post("/admin/api/ask", json=ask("p_priya"), headers=priya)
    trace = await spine.get_trace(answer.json()["interaction_id"])
    assert [c.decision for c in trace.tool_calls if c.name == "escalate_to_human"] == ["allowed"]
    assert "console" not in answer.json()["reply"]
