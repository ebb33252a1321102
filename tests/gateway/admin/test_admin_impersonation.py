"""Ask Clara impersonation is capped (issue 28, finding 3): an impersonated turn never does or sees
more than the impersonator may (the tool gate derives both authorities from the store and allows
only what both may), and impersonating a person outside one's scope is refused with 403.

The review's three attacks, run through the real router, agent turn (offline model) and
DispatcherActor gate in-process, each against what the store holds afterwards."""
from __future__ import annotations

from spine.work import RenewalStatus
from tests.support.admin_helpers import AUTH, person_auth
from tests.support.gateway_helpers import OfflinePool


def ask(as_person_id: str, message: str, property_id: str = "pf_yale") -> dict:
    return {"as_person_id": as_person_id, "property_id": property_id, "message": message}


async def calls(spine, answer: dict) -> list:
    return (await spine.get_trace(answer["interaction_id"])).tool_calls


async def test_a_viewer_acting_as_a_pm_cannot_close_a_work_order(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    sam = await person_auth(spine, "p_sam")  # viewer, org-wide
    answer = (await client.post("/admin/api/ask", json=ask("p_priya", "close WO-7, the toilet is fixed"),
                                headers=sam)).json()
    assert answer["impersonated_by"] == "p_sam"
    (call,) = [c for c in await calls(spine, answer) if c.name == "pm_close_work_order"]
    assert call.decision == "refused" and call.reason.startswith("impersonation: p_sam may not: role:")
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    # The same words from the operator (not capped) close it: the refusal above was the cap.
    closed = (await client.post("/admin/api/ask", json=ask("p_priya", "close WO-7, the toilet is fixed"),
                                headers=AUTH)).json()
    assert [c.decision for c in await calls(spine, closed) if c.name == "pm_close_work_order"] == ["allowed"]
    assert (await spine.get_work_order("wo_7")).status == "closed"


async def test_a_property_scoped_pm_acting_as_an_org_wide_pm_stays_in_her_property(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    nora = await person_auth(spine, "p_nora")  # pm of pf_beacon only
    listed = (await client.post("/admin/api/ask", json=ask("p_priya", "list open work orders", "pf_beacon"),
                                headers=nora)).json()
    (call,) = [c for c in await calls(spine, listed) if c.name == "pm_list_open_work_orders"]
    assert call.decision == "allowed" and "WO-90" in listed["reply"]
    assert "WO-7" not in listed["reply"] and "WO-42" not in listed["reply"]  # pf_yale's, which Priya reaches
    close = (await client.post("/admin/api/ask", json=ask("p_priya", "close WO-7", "pf_beacon"), headers=nora)).json()
    (call,) = [c for c in await calls(spine, close) if c.name == "pm_close_work_order"]
    assert call.decision == "refused" and "reaches only pf_beacon" in call.reason
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    yale = await client.post("/admin/api/ask", json=ask("p_priya", "list open work orders"), headers=nora)
    assert yale.status_code == 403 and "pf_yale is not a property within p_nora's scope" in yale.json()["detail"]


async def test_a_leasing_agent_acting_as_a_tenant_cannot_accept_his_renewal(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    lena = await person_auth(spine, "p_lena")
    answer = (await client.post("/admin/api/ask", json=ask("p_marcus", "I accept the renewal, 12 months"),
                                headers=lena)).json()
    (call,) = [c for c in await calls(spine, answer) if c.name == "respond_to_renewal"]
    assert call.decision == "refused" and call.reason.startswith("impersonation: p_lena may not")
    assert (await spine.get_renewal("rw_yale_204_2027")).status == RenewalStatus.OFFERED


async def test_impersonating_someone_outside_ones_scope_is_403(make_admin, spine):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    nora = await person_auth(spine, "p_nora")
    for person in ("p_marcus", "p_nobody"):  # a pf_yale tenant, and no one: the same answer
        refused = await client.post("/admin/api/ask", json=ask(person, "hello", "pf_beacon"), headers=nora)
        assert refused.status_code == 403, refused.text
        assert f"{person} is not a person within p_nora's scope" in refused.json()["detail"]
    page = await client.post("/admin/ask", data=ask("p_marcus", "hello", "pf_beacon"), headers=nora)
    assert page.status_code == 403 and "not a person within p_nora&#x27;s scope" in page.text
    assert pool.submitted == []
    # Within her scope (Priya's org-wide role is in force at pf_beacon) the ask runs, capped as above.
    ok = await client.post("/admin/api/ask", json=ask("p_priya", "hello", "pf_beacon"), headers=nora)
    assert ok.status_code == 200 and ok.json()["impersonated_by"] == "p_nora"
