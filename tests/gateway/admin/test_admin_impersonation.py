"""Ask Clara impersonation is capped (issue 28, finding 3): an impersonated turn never does or sees
more than the impersonator may (the tool gate derives both authorities from the store and allows
only what both may), and impersonating a person outside one's scope is refused with 403.

The review's three attacks, run through the real router, agent turn (offline model) and
DispatcherActor gate in-process, each against what the store holds afterwards. The turn is offered
only the tools both may call; the gate's own cap on each call is tested in
tests/tools/test_impersonation_cap.py and on the wire (tests/actors/dispatcher/test_dispatcher_actor.py)."""
from __future__ import annotations

from spine.identity import (
    Claim,
    ClaimKind,
    OccupancyKind,
    Person,
    PersonRole,
    PersonRoleSource,
    PersonRoleType,
    RoleScope,
)
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
    trace = await spine.get_trace(answer["interaction_id"])
    assert "pm_list_open_work_orders" in trace.tools_offered  # what a viewer may call too
    assert "pm_close_work_order" not in trace.tools_offered  # what Sam may not: never offered
    assert [c for c in trace.tool_calls if c.name == "pm_close_work_order"] == []
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    # The same words from the operator (not capped) close it: the refusal above was the cap.
    closed = (await client.post("/admin/api/ask", json=ask("p_priya", "close WO-7, the toilet is fixed"),
                                headers=AUTH)).json()
    assert [c.decision for c in await calls(spine, closed) if c.name == "pm_close_work_order"] == ["allowed"]
    assert (await spine.get_work_order("wo_7")).status == "closed"


async def test_a_property_scoped_pm_cannot_act_as_an_org_wide_pm(make_admin, spine):
    """Priya's roles reach pf_yale, outside Nora's scope: acting as her would show it (her lists,
    her context), so Nora may not, at any property."""
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    nora = await person_auth(spine, "p_nora")  # pm of pf_beacon only
    for prop, why in (("pf_beacon", "p_priya is not a person within p_nora's scope"),
                      ("pf_yale", "pf_yale is not a property within p_nora's scope")):
        refused = await client.post("/admin/api/ask", json=ask("p_priya", "list open work orders", prop), headers=nora)
        assert refused.status_code == 403 and why in refused.json()["detail"]
    assert pool.submitted == []


async def test_within_her_scope_nora_acts_as_a_beacon_tenant(make_admin, spine):
    await spine.put_person(Person(id="p_bea", display_name="Bea Lind", claims=[Claim(kind=ClaimKind.PHONE,
                                                                                     value="+12065550501")]))
    await spine.put_role(PersonRole(id="pr_bea_501", person_id="p_bea", role_type=PersonRoleType.TENANT,
                                    source=PersonRoleSource.PMS_SYNC,
                                    scope=RoleScope(org_id="org_propflow", property_id="pf_beacon",
                                                    unit_id="u_beacon_501", occupancy=OccupancyKind.PRIMARY)))
    client, _ = await make_admin(OfflinePool(spine))
    nora = await person_auth(spine, "p_nora")
    answer = await client.post("/admin/api/ask", json=ask("p_bea", "what's the status of my window?", "pf_beacon"),
                               headers=nora)
    assert answer.status_code == 200, answer.text
    assert answer.json()["impersonated_by"] == "p_nora" and answer.json()["roles"] == ["tenant"]


async def test_a_leasing_agent_acting_as_a_tenant_cannot_accept_his_renewal(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    lena = await person_auth(spine, "p_lena")
    accept = ask("p_marcus", "I accept the renewal, 12 months")
    answer = (await client.post("/admin/api/ask", json=accept, headers=lena)).json()
    trace = await spine.get_trace(answer["interaction_id"])
    assert trace.routing.roles == ["tenant"] and "respond_to_renewal" not in trace.tools_offered
    assert [c for c in trace.tool_calls if c.name == "respond_to_renewal"] == []
    assert (await spine.get_renewal("rw_yale_204_2027")).status == RenewalStatus.OFFERED
    # The operator's turn as Marcus (not capped) records it: the words would have.
    done = (await client.post("/admin/api/ask", json=accept, headers=AUTH)).json()
    assert [c.decision for c in await calls(spine, done) if c.name == "respond_to_renewal"] == ["allowed"]
    assert (await spine.get_renewal("rw_yale_204_2027")).status != RenewalStatus.OFFERED


async def test_impersonating_someone_outside_ones_scope_is_403(make_admin, spine):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    nora = await person_auth(spine, "p_nora")
    # A pf_yale tenant, a vendor contact who also serves pf_yale, an org-wide pm, and no one: one answer.
    for person in ("p_marcus", "p_mike", "p_priya", "p_nobody"):
        refused = await client.post("/admin/api/ask", json=ask(person, "hello", "pf_beacon"), headers=nora)
        assert refused.status_code == 403, refused.text
        assert f"{person} is not a person within p_nora's scope" in refused.json()["detail"]
    page = await client.post("/admin/ask", data=ask("p_marcus", "hello", "pf_beacon"), headers=nora)
    assert page.status_code == 403 and "not a person within p_nora&#x27;s scope" in page.text
    priya = await person_auth(spine, "p_priya")  # org_propflow: Carlos's vendor role reaches org_capitol
    refused = await client.post("/admin/api/ask", json=ask("p_carlos", "hello"), headers=priya)
    assert refused.status_code == 403 and "p_carlos is not a person within p_priya's scope" in refused.text
    assert pool.submitted == []
