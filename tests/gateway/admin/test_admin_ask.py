"""Ask Clara: admin-origin turns through the real router and agent turn (offline model)."""
from __future__ import annotations

import pytest

from spine.context import Channel
from tests.support.admin_helpers import AUTH, person_auth
from tests.support.gateway_helpers import OfflinePool, ScriptedPool

YALE_SMS = "+12065550100"


def ask(as_person_id: str, message: str = "what's the status of my toilet repair?", property_id: str = "pf_yale",
        impersonated_by: str | None = None) -> dict:
    body = {"as_person_id": as_person_id, "property_id": property_id, "message": message}
    if impersonated_by is not None:
        body["impersonated_by"] = impersonated_by
    return body


async def test_pm_impersonating_marcus(make_admin, spine):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    priya = await person_auth(spine, "p_priya")
    response = await client.post("/admin/api/ask", json=ask("p_marcus"), headers=priya)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["reply"] and answer["participant_id"] == "p_marcus" and answer["roles"] == ["tenant"]
    assert (answer["origin"], answer["impersonated_by"]) == ("admin", "p_priya")
    (envelope,) = pool.submitted
    assert (envelope.channel, envelope.origin, envelope.impersonated_by) == (Channel.ADMIN, "admin", "p_priya")
    assert (envelope.from_address, envelope.to_address, envelope.participant_id) == ("+12065551001", YALE_SMS, "p_marcus")
    trace = await spine.get_trace(answer["interaction_id"])
    assert (trace.channel, trace.origin, trace.impersonated_by) == (Channel.ADMIN, "admin", "p_priya")
    assert trace.participant_id == "p_marcus" and trace.routing.roles == ["tenant"]
    assert trace.wire_address_last4 == "1001"
    # Capped by the impersonator (issue 28, finding 3): Priya may call none of Marcus's tenant tools.
    assert "get_work_order_detail" not in trace.tools_offered and "escalate_to_human" in trace.tools_offered
    assert answer["trace_url"] == f"/admin/traces/view/{answer['interaction_id']}"
    page = (await client.get(answer["trace_url"], headers=AUTH)).text
    assert "impersonated by p_priya" in page


async def test_impersonation_is_never_self_declared(make_admin, spine):
    """Issue 13, finding 2: asking as Marcus with no impersonated_by recorded nobody."""
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    answer = (await client.post("/admin/api/ask", json=ask("p_marcus"), headers=AUTH)).json()
    assert answer["impersonated_by"] == "operator"
    trace = await spine.get_trace(answer["interaction_id"])
    assert (trace.origin, trace.impersonated_by) == ("admin", "operator")
    sam = await person_auth(spine, "p_sam")
    claimed = await client.post("/admin/api/ask", json=ask("p_marcus", impersonated_by="p_priya"), headers=sam)
    assert claimed.status_code == 400 and "signed-in identity (p_sam)" in claimed.json()["detail"]
    answer = (await client.post("/admin/api/ask", json=ask("p_marcus"), headers=sam)).json()
    assert answer["impersonated_by"] == "p_sam"
    assert [e.impersonated_by for e in pool.submitted] == ["operator", "p_sam"]


async def test_only_staff_with_a_role_at_the_property_may_impersonate(make_admin, spine):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    nora = await person_auth(spine, "p_nora")  # pm of pf_beacon only
    refused = await client.post("/admin/api/ask", json=ask("p_marcus"), headers=nora)
    assert refused.status_code == 403 and "pf_yale is not a property within p_nora's scope" in refused.json()["detail"]
    assert pool.submitted == []
    as_herself = await client.post("/admin/api/ask", json=ask("p_nora", "list open work orders",
                                                                property_id="pf_beacon"), headers=nora)
    assert as_herself.status_code == 200 and as_herself.json()["impersonated_by"] is None


async def test_pm_as_themselves(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    priya = await person_auth(spine, "p_priya")
    answer = (await client.post("/admin/api/ask", json=ask("p_priya", "list open work orders",
                                                           impersonated_by="p_priya"), headers=priya)).json()
    assert answer["participant_id"] == "p_priya" and answer["roles"] == ["pm"]
    assert answer["origin"] == "admin" and answer["impersonated_by"] is None
    trace = await spine.get_trace(answer["interaction_id"])
    assert trace.origin == "admin" and trace.impersonated_by is None and "pm_list_open_work_orders" in trace.tools_offered
    l2 = [section.name for section in trace.prompt.sections if section.layer == "L2"]
    assert l2 == ["pm/ask_clara"]  # the dashboard's path; escalation replies come by text


async def test_merged_number_resolves_to_the_survivor(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    answer = (await client.post("/admin/api/ask", json=ask("p_marcus_old"), headers=AUTH)).json()
    assert answer["participant_id"] == "p_marcus" and answer["roles"] == ["tenant"]


@pytest.mark.parametrize("body, status, reason", [
    (ask("p_nobody"), 403, "p_nobody is not a person within p_priya's scope"),  # as for someone elsewhere
    (ask("p_marcus", property_id="pf_atlantis"), 403, "pf_atlantis is not a property within p_priya's scope"),
    (ask("p_marcus", impersonated_by="p_ghost"), 400, "not 'p_ghost'"),
    (ask("p_marcus", property_id="pf_capitol"), 403, "pf_capitol is not a property within p_priya's scope"),
    (ask("p_carlos", property_id="pf_capitol"), 403, "pf_capitol is not a property within p_priya's scope"),
])
async def test_refused_and_nothing_runs(make_admin, spine, body, status, reason):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    response = await client.post("/admin/api/ask", json=body, headers=await person_auth(spine, "p_priya"))
    assert response.status_code == status and reason in response.json()["detail"]
    assert pool.submitted == []


@pytest.mark.parametrize("body, reason", [
    (ask("p_nobody"), "no person 'p_nobody'"),
    (ask("p_marcus", property_id="pf_atlantis"), "no property 'pf_atlantis'"),
])
async def test_the_operator_is_told_what_does_not_exist(make_admin, spine, body, reason):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    response = await client.post("/admin/api/ask", json=body, headers=AUTH)
    assert response.status_code == 400 and reason in response.json()["detail"]
    assert pool.submitted == []


@pytest.mark.parametrize("body", [ask("p_marcus", "   "), {"as_person_id": "p_marcus", "property_id": "pf_yale"},
                                  ask("p_marcus", "x" * 1601)])
async def test_bad_body_is_422(make_admin, spine, body):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    assert (await client.post("/admin/api/ask", json=body, headers=AUTH)).status_code == 422
    assert pool.submitted == []


async def test_runtime_failure_is_503_not_500(make_admin, spine):
    client, _ = await make_admin(ScriptedPool(error=RuntimeError("hosts gone")))
    response = await client.post("/admin/api/ask", json=ask("p_marcus"), headers=AUTH)
    assert response.status_code == 503 and "hosts gone" in response.json()["detail"]
    page = await client.post("/admin/ask", data=ask("p_marcus"), headers=AUTH)
    assert page.status_code == 503 and "hosts gone" in page.text and "<form" in page.text


async def test_form_page_round_trip(make_admin, spine):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    priya = await person_auth(spine, "p_priya")
    form = (await client.get("/admin/ask", headers=priya)).text
    assert 'name="as_person_id"' in form and '<option value="pf_yale">' in form and 'name="impersonated_by"' not in form
    assert "Signed in as p_priya" in form
    page = await client.post("/admin/ask", data=ask("p_marcus", "my sink <b>leaks</b>"), headers=priya)
    assert page.status_code == 200, page.text
    (envelope,) = pool.submitted
    assert envelope.body == "my sink <b>leaks</b>" and envelope.impersonated_by == "p_priya"
    assert f'href="/admin/traces/view/{envelope.interaction_id}"' in page.text
    assert "admin, impersonated by p_priya" in page.text
    assert "my sink &lt;b&gt;leaks&lt;/b&gt;</textarea>" in page.text and "<b>leaks</b>" not in page.text
    assert '<option value="pf_yale" selected>' in page.text


async def test_form_refusals_keep_the_input(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    page = await client.post("/admin/ask", data=ask("p_<nobody>", "hello"), headers=AUTH)
    assert page.status_code == 400 and "no person &#x27;p_&lt;nobody&gt;&#x27;" in page.text
    assert 'value="p_&lt;nobody&gt;"' in page.text
    blank = await client.post("/admin/ask", data=ask("p_marcus", "  "), headers=AUTH)
    assert blank.status_code == 400 and "message" in blank.text
